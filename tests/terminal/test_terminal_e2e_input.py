"""``valtti play``'s input in a real 80×24 pseudo-terminal (GNU readline at the prompt).

Ctrl-C asks and "no" goes on; Ctrl-D leaves a record in the saves that resumes exactly;
``undo`` shows the previous decision again; a failing external bot ends in a message and a
resumable save; ``save`` asks before replacing a file and expands ``~``; a very long line is
refused in one line; Tab offers the cards; Enter plays a single legal card. The saves are kept
under a temporary ``XDG_DATA_HOME``.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

#: A real terminal session each: the full tier (CONTRIBUTING.md).
pytestmark = pytest.mark.e2e

pexpect = pytest.importorskip("pexpect")

from test_terminal_e2e_small import (  # noqa: E402 - after the skip
    ANSI,
    DEAL_OVER,
    TURN,
    first_move,
    logged_play,
    play,
    screen,
    spawn,
)

from valtti.engine.record import Record  # noqa: E402
from valtti.terminal.saving import Saves  # noqa: E402

#: The question before leaving, when the match is kept in the autosave.
LEAVE = "Leave the match? It is kept: valtti play --resume goes on. (y/n)"
#: The question before leaving before the player's first move: nothing is kept.
THROWN = "Leave the match? You have made no move yet: it is not kept. (y/n)"

#: Seed 2: S's first turn has one legal card, Q♠ (N leads 7♠, E plays 9♠).
ONLY_Q = "[Enter plays Q♠] Your card > "


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home


def autosave(data_home: Path) -> Path:
    """The newest unfinished match's file (``valtti play --resume`` goes on with it)."""
    return Saves(data_home / "valtti" / "saves").scan().kept[0].path


def quit_(child: pexpect.spawn) -> None:
    child.sendline("quit")
    child.expect_exact("(y/n) > ")
    child.sendline("y")
    child.expect(pexpect.EOF)


def test_enter_plays_the_only_legal_card_and_tab_offers_the_cards() -> None:
    child = play()
    child.expect_exact(ONLY_Q)
    child.send("\t\t")  # an empty line: Tab twice lists what it may become
    child.expect_exact(ONLY_Q)  # the prompt again under the list
    listed = ANSI.sub("", child.before).split()
    assert "qs" in listed and "undo" in listed and "help" in listed
    assert "10h" not in listed  # a card in the hand that is not legal now
    child.sendline("")
    lines = screen(child)
    assert logged_play(lines, "S", "Q♠"), lines
    child.send("\x15")  # nothing typed yet; Ctrl-U is harmless
    quit_(child)


def test_ctrl_c_asks_and_no_goes_on_and_yes_leaves_with_130(data_home: Path) -> None:
    child = play()
    child.expect_exact(ONLY_Q)
    child.send("\x03")
    child.expect_exact(THROWN + " > ")
    child.sendline("n")
    child.expect_exact(ONLY_Q)  # the same turn, nothing lost
    child.sendline("")
    lines = screen(child)
    assert logged_play(lines, "S", "Q♠")
    child.send("\x03")
    child.expect_exact(LEAVE + " > ")  # a move made: the match is kept
    child.sendline("y")
    child.expect(pexpect.EOF)
    said = ANSI.sub("", child.before)
    assert "Interrupted: leaving the match." in said and "Traceback" not in said
    assert str(autosave(data_home)) in " ".join(said.replace("\r\n", "").split())
    child.close()
    assert child.exitstatus == 130


def _play_moves(child: pexpect.spawn, moves: int | None) -> int:
    """Type the first legal move ``moves`` times (or until the deal is over); how many."""
    made = 0
    while moves is None or made < moves:
        if child.expect([TURN, DEAL_OVER]) == 1:
            break
        lines = ANSI.sub("", child.before.split("\x1b[2J")[-1]).splitlines()
        child.sendline(first_move(lines))
        made += 1
    return made


def _save_at_deal_end(child: pexpect.spawn, path: Path) -> tuple[Record, int]:
    """Play the first legal move until the deal is over, save there and quit: the record, and
    how many moves were typed."""
    made = _play_moves(child, None)
    child.sendline(f"save {path}")
    child.expect_exact("Enter: back to the table > ")  # under the reply
    child.sendline("quit")
    child.expect_exact("(y/n) > ")
    child.sendline("y")
    child.expect(pexpect.EOF)
    return Record.from_json(path.read_text()), made


def test_ctrl_d_leaves_a_record_that_resumes_exactly(tmp_path: Path, data_home: Path) -> None:
    straight, moves = _save_at_deal_end(play("--seed", "5"), tmp_path / "straight.json")
    assert moves > 3  # South has more turns in the deal than the three played before Ctrl-D

    child = play("--seed", "5")
    # The first match is unfinished: Enter keeps it and starts this one.
    child.expect_exact(
        "Resume it (r), keep it and start a new match (k), or discard it (d)? [k] > "
    )
    child.sendline("")
    assert _play_moves(child, 3) == 3
    child.expect(TURN)
    child.send("\x04")
    child.expect(pexpect.EOF)
    said = ANSI.sub("", child.before)
    assert "End of input: leaving the match." in said and "Traceback" not in said
    child.close()
    assert child.exitstatus == 0
    kept = Record.from_json(autosave(data_home).read_text())
    assert kept.meta is not None and kept.meta["seed"] == 5 and "takebacks" not in kept.meta

    resumed, rest = _save_at_deal_end(resume(), tmp_path / "resumed.json")
    assert rest == moves - 3  # the resume asks again at the fourth turn, and for no other
    # The computer players' moves after the resume are those of the match played straight.
    assert resumed.to_dict()["deals"] == straight.to_dict()["deals"]
    assert Record.from_json(autosave(data_home).read_text()).deals == resumed.deals  # still kept


def resume(*args: str) -> pexpect.spawn:
    """``valtti play --resume`` with no file: the newest unfinished match."""
    return spawn("play", "--resume", "--fast", "--lang", "en", *args)


def _hand_and_legal(lines: list[str]) -> tuple[str, str]:
    hand = next(i for i, line in enumerate(lines) if "Your hand (S)" in line)
    legal = next(line for line in lines if "Legal: " in line)
    return "\n".join(lines[hand : hand + 3]), legal


def test_undo_returns_to_the_previous_decision_and_the_record_says_so(tmp_path: Path) -> None:
    child = play("--seed", "5")
    assert _play_moves(child, 1) == 1
    child.expect(TURN)
    before = ANSI.sub("", child.before.split("\x1b[2J")[-1]).splitlines()
    hand, legal = _hand_and_legal(before)
    child.sendline(first_move(before))
    lines = screen(child)
    assert _hand_and_legal(lines) != (hand, legal)
    child.sendline("undo")
    lines = screen(child)
    assert _hand_and_legal(lines) == (hand, legal)
    assert any("Taken back to your previous decision (take-back 1" in line for line in lines)
    record = tmp_path / "undone.json"
    child.sendline(f"save {record}")
    screen(child)
    quit_(child)
    meta = Record.from_json(record.read_text()).meta
    assert meta is not None and meta["takebacks"] == 1


BOT = """\
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 1, "name": "nonsense"}), flush=True)
    elif m["type"] == "act":
        print(json.dumps({"type": "action", "action": "declare Z"}), flush=True)
    elif m["type"] == "quit":
        break
"""


def test_a_failing_bot_ends_in_a_message_and_a_resumable_autosave(
    bot_dir: Path, data_home: Path
) -> None:
    bot = bot_dir / "bot.py"
    bot.write_text(BOT)
    child = play("--opponents", f"external:{bot}")
    child.logfile_read = transcript = io.StringIO()
    while child.expect([TURN, pexpect.EOF]) == 0:
        child.sendline(first_move(ANSI.sub("", child.before.split("\x1b[2J")[-1]).splitlines()))
    child.close()
    said = " ".join(ANSI.sub("", transcript.getvalue()).split())
    assert "Traceback" not in said
    assert re.search(r"The computer player at [EW] \(external:\S*bot\.py\) failed: ", said), said
    assert "declare Z" in said  # what it answered
    assert child.exitstatus == 3
    kept = autosave(data_home)
    assert f"The match so far is saved in {kept}." in said
    assert Record.from_json(kept.read_text()).replay() is not None
    # The record names the bot: resuming it needs another player (or the bot named again).
    refused = resume()
    refused.expect(pexpect.EOF)
    assert "A record never starts a program" in " ".join(refused.before.split())
    again = resume("--opponents", "random")
    again.expect(TURN)
    quit_(again)


def test_save_asks_before_replacing_and_expands_the_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    kept = home / "kept.json"
    kept.write_text("mine\n")
    child = play(HOME=str(home))
    child.expect(TURN)
    child.sendline("save ~/kept.json")
    child.expect_exact(f"{kept} exists. Replace it? (y/n) > ")
    child.sendline("n")
    lines = screen(child)
    assert any("Not saved:" in line for line in lines)
    assert kept.read_text() == "mine\n"
    child.sendline("save ~/kept.json")
    child.expect_exact("Replace it? (y/n) > ")
    child.sendline("y")
    screen(child)
    assert Record.from_json(kept.read_text()).meta is not None
    child.sendline("save ~/new.json")
    screen(child)
    assert (home / "new.json").exists()
    quit_(child)


def test_a_very_long_line_is_refused_in_one_line() -> None:
    child = play()
    child.expect(TURN)
    child.sendline("x" * 300)
    lines = screen(child)
    assert len(lines) <= 23
    said = [line for line in lines if "too long" in line]
    assert len(said) == 1 and "A line of 300 characters is too long (at most 200)" in said[0]
    assert not any("xxxxxxxxxx" in line for line in lines)  # not echoed back
    quit_(child)


def test_a_resize_keeps_the_line_typed_so_far_and_its_editing() -> None:
    child = play()
    child.expect(TURN)
    child.send("hel")
    child.expect("hel")  # readline has the letters and waits for more
    child.setwinsize(30, 100)
    child.expect(r"Your card > (\x1b\[0m)?hel")  # drawn again, the typed letters under it
    child.send("p\r")  # readline still holds the line: "help"
    lines = screen(child)
    assert any("Legal cards: Q♠" in line for line in lines), lines
    child.send("\x1b[A")  # ↑: the line before
    child.expect("help")
    child.send("\x15")
    quit_(child)


def test_a_refusal_lists_the_legal_declarations_apart() -> None:
    """Seed 22: S takes trick 3 and may declare or ask; a refused ``declare s`` lists what is
    legal as the hand panel does, each declaration and question set apart by ``·``."""
    child = spawn("play", "--seed", "22", "--fast", "--lang", "en", "--partner", "random",
                  "--opponents", "random")  # fmt: skip
    child.expect(TURN)
    while child.after != "You took the trick: declare, ask or lead > ":
        child.sendline(first_move(ANSI.sub("", child.before.split("\x1b[2J")[-1]).splitlines()))
        child.expect(TURN)
    child.sendline("declare s")
    said = " ".join(re.sub(r"[│╭╮╰╯─]", " ", "\n".join(screen(child))).split())
    assert (
        "declare ♠ is not legal: you do not hold both the king and the queen of ♠. Legal now: "
        "Q♠ 8♠ Q♦ 8♦ K♣ Q♣ · declare ♣ · ask whole · ask half ♠ · ask half ♦"
    ) in said
    quit_(child)


@pytest.mark.parametrize(
    ("lang", "took", "legal", "spades", "clubs", "declares", "not_legal"),
    [
        ("en", "You took the trick: declare, ask or lead > ", "Legal: ", "help declare spades",
         "declare clubs", "S declares ♣", "declare ♠ is not legal now"),
        ("fi", "Otit tikin: ilmoita, kysy tai aloita > ", "Sallittu: ", "ohje ilmoita pata",
         "ilmoita risti", "E ilmoittaa ♣", "ilmoita ♠ ei ole nyt sallittu"),
    ],
)  # fmt: skip
def test_a_suit_may_be_named_in_words(
    lang: str, took: str, legal: str, spades: str, clubs: str, declares: str, not_legal: str
) -> None:
    """Seed 22: S takes trick 3 and may declare ♣. "ilmoita risti" was not understood: only the
    letters and the symbols named a suit. The suits' names are taken, English ones too."""
    child = spawn("play", "--seed", "22", "--fast", "--lang", lang, "--partner", "random",
                  "--opponents", "random")  # fmt: skip
    while True:
        child.expect(r"> ")
        if child.before.endswith(took[:-2]):
            break
        lines = ANSI.sub("", child.before.split("\x1b[2J")[-1]).splitlines()
        first = re.split(r" [·-] ", next(x for x in lines if legal in x).split(legal)[1])[0]
        child.sendline(first.strip(" │").split()[0])
    child.sendline(spades)
    child.expect(r"> ")
    said = " ".join(re.sub(r"[│╭╮╰╯─]", " ", ANSI.sub("", child.before)).split())
    assert not_legal in said, said
    child.sendline(clubs)
    child.expect(r"> ")
    said = " ".join(re.sub(r"[│╭╮╰╯─]", " ", ANSI.sub("", child.before)).split())
    assert declares in said, said
    child.sendline("lopeta" if lang == "fi" else "quit")
    child.expect_exact(") > ")
    child.sendline("k" if lang == "fi" else "y")
    child.expect(pexpect.EOF)
