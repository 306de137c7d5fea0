"""The unfinished matches in a real 80×24 pseudo-terminal: the question before a new match while
one is kept, in English and in Finnish; ``--saves``; ``--resume N``; Ctrl-D at the question.
The saves are kept under a temporary ``XDG_DATA_HOME``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

#: A real terminal session each: the full tier (CONTRIBUTING.md).
pytestmark = pytest.mark.e2e

pexpect = pytest.importorskip("pexpect")

from test_terminal_e2e_small import (  # noqa: E402 - after the skip
    ANSI,
    TURN,
    first_move,
    play,
    screen,
    spawn,
)

from valtti.terminal.saving import Saves  # noqa: E402

QUESTION = "Resume it (r), keep it and start a new match (k), or discard it (d)? [k] > "
KYSYMYS = "Jatka sitä (j), säilytä se ja aloita uusi ottelu (s) vai hylkää se (h)? [s] > "


@pytest.fixture(autouse=True)
def saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Saves:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return Saves(tmp_path / "data" / "valtti" / "saves")


def _leave(child: pexpect.spawn, answer: str = "y") -> str:
    child.sendline("quit")
    child.expect_exact(") > ")
    child.sendline(answer)
    child.expect(pexpect.EOF)
    return ANSI.sub("", child.before)


def _move(child: pexpect.spawn) -> None:
    """Make the first legal move at the turn shown, and wait for the next: the match is kept."""
    child.sendline(first_move(screen(child)))
    child.expect(TURN)


def _asked(child: pexpect.spawn, question: str) -> str:
    """What was shown before ``question``, without colours, on one line."""
    child.expect_exact(question)
    return " ".join(ANSI.sub("", child.before).split())


def test_a_new_match_asks_and_enter_keeps_r_resumes(saves: Saves) -> None:
    child = play()  # seed 2: one legal card, Enter plays it
    child.expect(TURN)
    child.sendline("")
    child.expect(TURN)
    _leave(child)
    assert [k.meta.seed for k in saves.scan().kept] == [2]

    child = play("--seed", "3")
    shown = _asked(child, QUESTION)
    assert re.search(r"An unfinished match is kept, last played \d{4}-\d\d-\d\d \d\d:\d\d:", shown)
    assert "deal 1, trick 2/9, NS 0 – EW 0; you S; N E W: random" in shown
    child.sendline("")
    _move(child)
    _leave(child)
    assert [k.meta.seed for k in saves.scan().kept] == [3, 2]

    listing = spawn("play", "--saves", "--lang", "en")
    listing.expect(pexpect.EOF)
    lines = [line.rstrip() for line in ANSI.sub("", listing.before).splitlines()]
    assert lines[0].startswith("Unfinished matches, newest first (in ")
    when = r"\d{4}-\d\d-\d\d \d\d:\d\d"
    assert re.fullmatch(rf"1  {when}  deal 1, trick \d/9, NS 0 – EW 0", lines[-5])
    assert re.fullmatch(rf"2  {when}  deal 1, trick 2/9, NS 0 – EW 0", lines[-3])
    assert lines[-4] == lines[-2] == " " * 21 + "you S; N E W: random"
    assert lines[-1].startswith("Go on with one: ")

    child = spawn("play", "--resume", "2", "--fast", "--lang", "en")
    child.expect(TURN)
    assert "Resumed the unfinished match of " in " ".join(ANSI.sub("", child.before).split())
    _leave(child)
    assert [k.meta.seed for k in saves.scan().kept] == [2, 3]

    child = play("--seed", "4")
    child.expect_exact(QUESTION)
    child.sendline("x")
    child.expect_exact("Please answer r, k or d.")
    child.expect_exact(QUESTION)
    child.sendline("r")
    child.expect(TURN)
    _leave(child)
    assert [k.meta.seed for k in saves.scan().kept] == [2, 3]  # the seed-2 match went on


def test_the_question_in_finnish_and_discard(saves: Saves) -> None:
    child = play()
    child.expect(TURN)
    child.sendline("")  # Enter plays the only legal card: the match is kept
    child.expect(TURN)
    _leave(child)
    child = spawn("play", "--seed", "3", "--fast", "--lang", "fi", "--partner", "random",
                  "--opponents", "random")  # fmt: skip
    shown = _asked(child, KYSYMYS)
    assert "Kesken jäänyt ottelu on tallessa, pelattu viimeksi " in shown
    assert "jako 1, tikki 2/9, PE 0 – IL 0; sinä E; P I L: satunnainen" in shown
    child.sendline("h")
    finnish = r"(Sinun korttisi|Sinun aloituksesi) > "
    lines = screen(child, finnish)
    legal = next(line for line in lines if "Sallittu: " in line)
    child.sendline(legal.split("Sallittu: ", 1)[1].split()[0])
    child.expect(finnish)
    _leave(child, "k")
    assert [k.meta.seed for k in saves.scan().kept] == [3]

    listing = spawn("play", "--saves", "--lang", "fi")
    listing.expect(pexpect.EOF)
    lines = ANSI.sub("", listing.before).splitlines()
    assert lines[0].startswith("Kesken jääneet ottelut, uusin ensin (kansiossa ")
    assert lines[-1] == "Jatka yhtä: valtti play --resume NUMERO (ilman numeroa: uusinta)."


def test_ctrl_d_at_the_question_starts_nothing(saves: Saves) -> None:
    child = play()
    child.expect(TURN)
    child.sendline("")
    child.expect(TURN)
    _leave(child)
    before = [k.path for k in saves.scan().kept]
    child = play("--seed", "3")
    child.expect_exact(QUESTION)
    child.send("\x04")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "Traceback" not in child.before
    assert [k.path for k in saves.scan().kept] == before


# -- two terminals at once (issue 41) ------------------------------------------------------------

OPEN_QUESTION = (
    "Resume it once the other has left it (r), view it read-only (v), play on from a copy of it "
    "(c), or keep it and start a new match (k)? [k] > "
)


def _to_trick(child: pexpect.spawn, trick: int) -> list[str]:
    """Make the first legal move at each turn until the header says ``trick``: that screen."""
    while True:
        lines = screen(child)
        if f"trick {trick}/9" in lines[0]:
            return lines
        child.sendline(first_move(lines))


def test_two_terminals_lose_nothing(saves: Saves) -> None:
    """The issue's sequence: terminal 2 starts ``valtti play`` and is asked about match A, which
    terminal 1 has open at trick 3 (and says so); terminal 1 plays on to trick 5 and leaves;
    terminal 2 answers r: A is read again and goes on as terminal 1 left it, and terminal 2's
    move comes after all of terminal 1's."""
    one = play()
    lines = _to_trick(one, 3)
    two = play("--seed", "3")
    shown = _asked(two, OPEN_QUESTION)
    assert "deal 1, trick 3/9, NS 0 – EW 0; you S; N E W: random" in shown
    assert f"Another valtti play has it open (process {one.pid})." in shown
    one.sendline(first_move(lines))
    _to_trick(one, 5)
    _leave(one)
    (left,) = saves.scan().kept
    played = left.record.deals[0].actions
    assert left.holder is None

    two.sendline("r")
    lines = screen(two)
    assert "trick 5/9" in lines[0], lines
    said = " ".join(" ".join(line.strip("│ ") for line in lines).split())
    assert "It was played on meanwhile in another valtti play: it goes on as it is now, " in said
    two.sendline(first_move(lines))
    two.expect(TURN)
    _leave(two)
    (kept,) = saves.scan().kept
    assert kept.path == left.path and kept.meta.seed == 2
    now = kept.record.deals[0].actions
    assert now[: len(played)] == played and len(now) > len(played)  # nothing lost, one move more


def test_a_match_open_elsewhere_is_viewed_read_only_or_played_on_from_a_copy(
    saves: Saves,
) -> None:
    one = play()
    lines = _to_trick(one, 2)
    two = play("--seed", "3")
    _asked(two, OPEN_QUESTION)
    two.sendline("r")  # still open there: said, and asked again
    shown = _asked(two, OPEN_QUESTION)
    assert f"Another valtti play has it open (process {one.pid})." in shown
    two.sendline("v")
    view = "Read-only · Enter: as it is now · quit > "
    seen = screen(two, re.escape(view))
    assert "trick 2/9" in seen[0]
    two.sendline(first_move(seen))
    said = " ".join(" ".join(x.strip("│ ") for x in screen(two, re.escape(view))).split())
    assert f"This match is read-only here: open in another valtti play (process {one.pid})." in said
    one.sendline(first_move(lines))  # terminal 1 plays on; terminal 2 reads it again
    one.expect(TURN)
    two.sendline("")
    again = screen(two, re.escape(view))
    assert any(re.search(r"│ S plays ", x) for x in again), again
    two.sendline("quit")
    two.expect(pexpect.EOF)

    three = play("--seed", "4")
    _asked(three, OPEN_QUESTION)
    three.sendline("c")
    copy = screen(three)
    said = " ".join(" ".join(x.strip("│ ") for x in copy).split())
    assert "A copy of the match of " in said and "played on here in a save of its own" in said
    three.sendline(first_move(copy))
    three.expect(TURN)
    _leave(three)
    _leave(one)
    kept = saves.scan().kept
    assert len(kept) == 2 and {k.meta.seed for k in kept} == {2}  # the match and its copy
    first, second = (k.record.deals[0].actions for k in kept)
    assert first != second  # each went on by itself


def test_kill_leaves_the_match_kept_and_nothing_hidden(saves: Saves) -> None:
    """``kill`` (SIGTERM) ends the session as the end of input does: the match kept, said so,
    exit status 143; no temporary file, no lock left."""
    child = play()
    child.expect(TURN)
    child.sendline("")
    child.expect(TURN)
    child.kill(15)
    child.expect(pexpect.EOF)
    said = " ".join(ANSI.sub("", child.before).split())
    assert "Told to end: leaving the match." in said and "The match so far is saved in" in said
    child.close()
    assert child.exitstatus == 143
    (kept,) = saves.scan().kept
    assert sorted(p.name for p in saves.folder.iterdir()) == [kept.path.name]
