"""``valtti play`` and ``valtti replay --show`` in a real 80×24 pseudo-terminal.

A player that types the first legal move plays a deal with ``--ascii``, one on a terminal
whose encoding is latin-1, and one in the line mode; help, hints and the tricks never push the
header off the screen; the replay viewer answers its keys.
"""

from __future__ import annotations

import io
import os
import random
import re
import sys
from pathlib import Path

import pytest
from rich.console import Console

from valtti.engine import ActionKind, Match, Seat
from valtti.engine.record import Record
from valtti.terminal.game import start

#: The question before leaving, when the match is kept in the autosave.
LEAVE = "Leave the match? It is kept: valtti play --resume goes on. (y/n)"

#: A real terminal session each: the full tier (CONTRIBUTING.md).
pytestmark = pytest.mark.e2e

pexpect = pytest.importorskip("pexpect")

ROWS, COLUMNS = 24, 80
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
#: The prompts of a turn, of a deal's end and of the match's end, in English.
TURN = r"(Your lead|Your card|You took the trick: declare, ask or lead|Name a marriage) > "
DEAL_OVER = r"Enter: next deal [·-] score [·-] save FILE [·-] quit > "


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder of saves of the test's own: no unfinished match of another test is asked of."""
    home = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home


def spawn(*args: str, encoding: str = "utf-8", **env: str) -> pexpect.spawn:
    environment = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    environment.update(TERM="xterm-256color", NO_COLOR="1", **env)
    return pexpect.spawn(
        sys.executable,
        ["-m", "valtti", *args],
        env=environment,
        dimensions=(ROWS, COLUMNS),
        encoding=encoding,
        codec_errors="strict",
        timeout=30,
    )


def play(*args: str, encoding: str = "utf-8", **env: str) -> pexpect.spawn:
    return spawn(
        "play", "--seed", "2", "--fast", "--lang", "en", "--partner", "random",
        "--opponents", "random", *args, encoding=encoding, **env,
    )  # fmt: skip


def screen(child: pexpect.spawn, prompt: str = TURN) -> list[str]:
    """The lines of the last screen drawn before ``prompt``, without colours (and without the
    start of the prompt's own line, such as ``[Enter plays Q♠]``)."""
    child.expect(prompt)
    text = ANSI.sub("", child.before.split("\x1b[2J")[-1])
    return text.splitlines() if text.endswith("\n") else text.splitlines()[:-1]


def logged_play(lines: list[str], seat: str, card: str) -> bool:
    """Whether the log on the screen tells that ``seat`` played ``card`` (a pattern): on a line
    of its own, or in a trick told on one line where its first cards would be cut."""
    return any(
        re.search(rf"│ ({seat} plays|.* takes trick .*\b{seat}) {card}", line) for line in lines
    )


def first_move(lines: list[str]) -> str:
    """The first legal move on the hand panel's legal line, as the player types it."""
    legal = next(line for line in lines if "Legal: " in line)
    shown = legal.split("Legal: ", 1)[1].strip(" |│")
    first = re.split(r" [·-] ", shown)[0]
    return first if " " in first and not re.match(r"\d|[AKQJ]", first) else first.split()[0]


def test_the_header_stays_on_screen_after_help_hint_and_tricks() -> None:
    child = play()
    lines = screen(child)
    assert len(lines) <= ROWS - 1
    child.sendline(first_move(lines))
    screen(child)
    for reply in ("help", "hint", "tricks", "last", "score"):
        child.sendline(reply)
        lines = screen(child)
        assert len(lines) <= ROWS - 1, (reply, lines)
        assert "Trumps:" in lines[0] and "Match: NS 0 – EW 0 (to 10)" in lines[0], lines
        assert any("Your hand (S)" in line for line in lines)
    child.sendline("quit")
    child.expect_exact("(y/n) > ")
    child.sendline("y")
    child.expect(pexpect.EOF)


def _a_deal(child: pexpect.spawn) -> str:
    """Play the first legal move until the deal is over; everything the terminal received."""
    seen = []
    while True:
        i = child.expect([TURN, DEAL_OVER])
        seen.append(child.before + child.after)
        if i == 1:
            break
        lines = ANSI.sub("", child.before.split("\x1b[2J")[-1]).splitlines()
        child.sendline(first_move(lines))
    child.sendline("quit")
    child.expect_exact("(y/n) > ")
    child.sendline("y")
    child.expect(pexpect.EOF)
    seen.append(child.before)
    return "".join(seen)


@pytest.mark.parametrize(
    ("args", "env"),
    [(("--ascii",), {}), ((), {"PYTHONIOENCODING": "latin-1"})],
    ids=["ascii", "latin-1"],
)
def test_a_deal_in_plain_characters(args: tuple[str, ...], env: dict[str, str]) -> None:
    child = play(*args, encoding="latin-1", **env)
    said = _a_deal(child)
    assert "Traceback" not in said and "Error" not in said
    assert not {c for c in said if ord(c) > 127}
    text = ANSI.sub("", said)
    assert (
        "Deal 1 is over" in text
        and "+-" in text
        and re.search(r"plays (10|[AKQJ9876])[SHDC]", text)
    )


def test_the_line_mode() -> None:
    child = play("--plain")
    child.expect_exact("Your card >\r\n")
    told = child.before
    assert "\x1b[2J" not in told and "╭" not in told and "│" not in told
    # Seed 2: N leads 7♠, E plays 9♠, and S must beat it with its only higher spade.
    assert "N plays 7♠\r\nE plays 9♠\r\n" in told
    assert "Your hand (S): 1:Q♠ 2:10♥" in told and "Legal: Q♠\r\n" in told
    child.sendline("1")
    child.expect_exact("Your card >\r\n")
    told = child.before.split("\r\n")
    assert told[1] == "S plays Q♠" and re.match(r"[NESW] takes trick 1 \(", told[3])
    child.sendline("quit")
    child.expect_exact(LEAVE + " >\r\n")
    child.sendline("y")
    child.expect(pexpect.EOF)


def test_the_replay_viewer_answers_its_keys(tmp_path: Path) -> None:
    record = tmp_path / "match.json"
    child = play()
    while child.expect([TURN, DEAL_OVER]) == 0:
        child.sendline(first_move(ANSI.sub("", child.before.split("\x1b[2J")[-1]).splitlines()))
    child.sendline("")  # on to deal 2
    child.expect(TURN)
    child.sendline(f"save {record}")
    child.expect(TURN)
    child.sendline("quit")
    child.expect_exact("(y/n) > ")
    child.sendline("y")
    child.expect(pexpect.EOF)

    viewer = spawn("replay", str(record), "--show")
    prompt = r"Step (\d+) of \d+ · Enter: next · back · deal \[N\] · help · quit > "
    viewer.expect(prompt)
    assert viewer.match.group(1) == "1"
    for key, step in (("", "2"), ("n", "3"), ("b", "2"), ("xyzzy", "2"), ("d 2", None)):
        viewer.sendline(key)
        viewer.expect(prompt)
        shown = ANSI.sub("", viewer.before)
        if step is not None:
            assert viewer.match.group(1) == step
        if key == "xyzzy":
            assert "Not understood: xyzzy." in " ".join(shown.split())
        assert "Trumps:" in shown.split("\x1b[2J")[-1]
    assert "Deal 2" in ANSI.sub("", viewer.before)
    viewer.sendline("help")
    viewer.expect(prompt)
    assert "the next trick" in " ".join(ANSI.sub("", viewer.before).split())
    viewer.sendline("q")
    viewer.expect(pexpect.EOF)


def test_a_resized_terminal_is_drawn_again_at_once() -> None:
    child = play()
    assert "Trumps:" in screen(child)[0]  # at 80×24: the compact layout
    child.setwinsize(45, 120)
    lines = screen(child)  # drawn again at once: the full layout
    assert lines[0].startswith("╭─ valtti") and len(lines[0]) == 120
    child.sendline("help")
    screen(child)
    child.setwinsize(ROWS, COLUMNS)  # the window is made small while the prompt waits
    lines = screen(child)
    assert "Trumps:" in lines[0] and not lines[0].startswith("╭")
    assert len(lines) <= ROWS - 1 and max(map(len, lines)) <= COLUMNS
    assert any("Type a card" in line for line in lines)  # the reply is drawn again too
    child.sendline("1")
    assert logged_play(screen(child), "S", r"(10|[AKQJ9876])[♠♥♦♣]")
    child.sendline("quit")
    child.expect_exact("(y/n) > ")
    child.sendline("y")
    child.expect(pexpect.EOF)


def test_a_prompt_wider_than_the_terminal_leaves_the_header_on_screen(tmp_path: Path) -> None:
    """At 60×20 the Finnish prompt of a deal's end and the replay's prompt wrap to two lines:
    the screen above them is drawn that much shorter, so its first line is still the header."""
    rows, columns = 20, 60
    turn = r"(Sinun aloituksesi|Sinun korttisi|Otit tikin: ilmoita, kysy tai aloita|Nimeä pari) > "
    deal_over = "Enter: seuraava jako · tilanne · tallenna TIEDOSTO · lopeta > "
    child = spawn("play", "--seed", "5", "--fast", "--lang", "fi", "--partner", "random",
                  "--opponents", "random")  # fmt: skip
    child.setwinsize(rows, columns)

    def shown(i: int) -> list[str]:
        """The screen as the terminal holds it: what was drawn, then the prompt, wrapped."""
        text = ANSI.sub("", child.before.split("\x1b[2J")[-1])
        lines = text.splitlines()
        prompt = lines.pop() + child.after if not text.endswith("\n") else child.after
        wrapped = (len(prompt) + columns) // columns
        assert len(lines) + wrapped <= rows, (i, lines, prompt)
        assert lines[0].startswith(("Jako 1", "Deal 1")), (i, lines)
        return lines

    for i in range(40):
        if child.expect([turn, re.escape(deal_over)]) == 1:
            break
        legal = next(line for line in shown(i) if "Sallittu: " in line)
        first = re.split(r" [·-] ", legal.split("Sallittu: ", 1)[1].strip(" │"))[0]
        child.sendline(first if re.match(r"[a-zä]", first) else first.split()[0])
    assert len(deal_over) > columns
    assert any("Jako 1 päättyi" in line for line in shown(i))
    child.sendline("tilanne")  # the reply takes every row left; Enter closes it
    child.expect_exact("Enter: takaisin pöytään > ")
    assert any("Ottelun tilanne" in line for line in shown(i))
    child.sendline("")
    child.expect_exact(deal_over)
    assert any("Jako 1 päättyi" in line for line in shown(i))
    record = tmp_path / "match.json"
    child.sendline(f"tallenna {record}")
    child.expect_exact("Enter: takaisin pöytään > ")
    child.sendline("lopeta")
    child.expect_exact("(k/e) > ")
    child.sendline("k")
    child.expect(pexpect.EOF)

    viewer = spawn("replay", str(record), "--show", LANG="en_US.UTF-8", LC_ALL="", LC_MESSAGES="")
    viewer.setwinsize(rows, columns)
    child = viewer
    for key in ("", "d 1"):
        viewer.expect(r"Step \d+ of \d+ · Enter: next · back · deal \[N\] · help · quit >")
        assert len(viewer.after) >= columns  # and the cursor after it
        shown(0)
        viewer.sendline(key)
    viewer.sendline("q")
    viewer.expect(pexpect.EOF)


#: A suit's separator that ends or begins a hand's line: the hand wrapped at it.
_LOOSE_BAR = re.compile(r"[♠♥♦♣] │$|^│ (10|[AKQJ9876])[♠♥♦♣]")


@pytest.mark.parametrize(("rows", "columns"), [(24, 60), (24, 80), (45, 80), (45, 100)])
def test_a_replayed_hand_wraps_between_suits_without_a_loose_bar(
    tmp_path: Path, rows: int, columns: int
) -> None:
    """Every hand is face up in the replay; one too wide for its place at the table wraps, and
    the wrap fell at a suit's "│", left alone at the end of one line or the start of the next."""
    match = Match()
    rng = random.Random(1)
    match.start_deal(rng=rng)
    while match.legal_actions():
        match.apply(rng.choice(match.legal_actions()))
    record = tmp_path / "match.json"
    record.write_text(Record.of_match(match).to_json(), encoding="utf-8")
    viewer = spawn("replay", str(record), "--show")
    viewer.setwinsize(rows, columns)
    prompt = r"Step \d+ of \d+ · Enter: next · back · deal \[N\] · help · quit >"
    for _step in range(4):
        viewer.expect(prompt)
        lines = ANSI.sub("", viewer.before.split("\x1b[2J")[-1]).splitlines()
        # The table: from the header's rule (or the table's frame) to the deal's columns (or
        # the hand's frame); the hands in it are parted from each other by two spaces at least.
        start = next(i for i, line in enumerate(lines) if "─" * 20 in line)
        end = next(i for i, line in enumerate(lines) if "NS–EW" in line or "Hand (S)" in line)
        for line in lines[start + 1 : end]:
            cells = re.split(r" {2,}", line.removeprefix("│").strip())
            assert not any(_LOOSE_BAR.search(cell) for cell in cells), (line, lines)
        viewer.sendline("")
    viewer.sendline("q")
    viewer.expect(pexpect.EOF)


#: The hint's prompts and words in each language: a turn, a legal line, the key's start.
_HINT_WORDS = {
    "en": (TURN, "Legal: ", "hint", "value: "),
    "fi": (
        r"(Sinun aloituksesi|Sinun korttisi|Otit tikin: ilmoita, kysy tai aloita|Nimeä pari) > ",
        "Sallittu: ",
        "vihje",
        "arvo: ",
    ),
}


@pytest.mark.parametrize("lang", ["en", "fi"])
@pytest.mark.parametrize(("rows", "columns"), [(24, 80), (30, 100), (45, 120)])
def test_the_hint_says_what_its_columns_mean_at_every_size(
    lang: str, rows: int, columns: int
) -> None:
    """At 80×24 the hint left its key out (it took three lines): the value and best columns
    were unexplained. The key is there on each turn, with the header and every move."""
    turn, legal, hint, key = _HINT_WORDS[lang]
    child = spawn("play", "--seed", "3", "--fast", "--lang", lang, "--partner", "random",
                  "--opponents", "random")  # fmt: skip
    child.setwinsize(rows, columns)
    for _turn in range(3):
        lines = screen(child, turn)
        move = re.split(r" [·-] ", next(line for line in lines if legal in line).split(legal)[1])
        child.sendline(hint)
        shown = screen(child, turn)
        text = " ".join(" ".join(shown).split())
        assert len(shown) <= rows - 1 and shown[0].startswith(("Deal 1", "Jako 1", "╭─ valtti"))
        assert key in text, shown
        # Each move's value, with the language's decimal mark (a point was also Finnish's).
        mark, other = (",", ".") if lang == "fi" else (".", ",")
        values = re.findall(r" [+-]?\d[.,]\d\d ", text)
        forced = "— · " in text  # the only legal move: no value to show
        assert (values or forced) and all(mark in v and other not in v for v in values), shown
        assert "more lines" not in text and "riviä: suurenna" not in text, shown
        first = move[0].strip(" │")
        child.sendline(first if re.match(r"[a-zä]", first) else first.split()[0])
    child.sendline("quit" if lang == "en" else "lopeta")
    child.expect_exact("> ")
    child.sendline("y" if lang == "en" else "k")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize(
    ("lang", "told"),
    [
        ("en", "Rules: no need to overtrump, trick 1 led with an ace"),
        ("fi", "Säännöt: yli ei tarvitse valtata, ensimmäinen tikki aloitetaan ässällä"),
    ],
)
@pytest.mark.parametrize("spelling", ["must_overtrump=off,first_trick_ace=on",
                                      "must_overtrump=false first_trick_ace=true"])  # fmt: skip
def test_the_header_tells_the_rules_in_words(lang: str, told: str, spelling: str) -> None:
    """The header showed the switches as typed (raw 'must_overtrump=false' in Finnish too);
    and --variant took on/off for one switch and true/false for the other, not both."""
    child = spawn("play", "--seed", "2", "--fast", "--lang", lang, "--partner", "random",
                  "--opponents", "random", "--variant", spelling)  # fmt: skip
    child.expect(r" > ")
    lines = ANSI.sub("", child.before.split("\x1b[2J")[-1]).splitlines()
    head = " ".join(" ".join(lines[:4]).split())
    assert told in head and "_" not in head and "=" not in head, lines
    child.sendline("quit" if lang == "en" else "lopeta")
    child.expect_exact(") > ")
    child.sendline("y" if lang == "en" else "k")
    child.expect(pexpect.EOF)


def _both_locked(path: Path) -> Path:
    """Seed 3, S asking whenever it can, else the first legal move: the record where S is to
    play to trick 3 of deal 1, W and E locked and their cards on the table."""
    con = Console(file=io.StringIO(), width=80, height=24, color_system=None)
    s = start(seed=3, partner="random", opponents="random", fast=True, console=con,
              language="en", saves=None)  # fmt: skip

    def read(prompt: str) -> str:
        deal = s.match.deal
        assert deal is not None and not deal.is_over()
        trick = deal.current_trick
        if len(deal.tricks) == 2 and trick is not None and len(trick.cards) == 3:
            assert {Seat.E, Seat.W} <= deal.locked
            path.write_text(s._record(), encoding="utf-8")
            raise EOFError
        legal = deal.legal_actions()
        asks = [a for a in legal if a.kind in (ActionKind.ASK_HALF, ActionKind.ASK_WHOLE)]
        return str((asks or legal)[0])

    s.drawing.read = read
    s.run()
    return path


@pytest.mark.parametrize("lang", ["fi", "en"])
def test_the_trick_line_at_80_columns_runs_nothing_together(tmp_path: Path, lang: str) -> None:
    """Issue 41: in Finnish the seats at the sides (locked, their cards down) and the trick's
    caption between them ran together at 80 columns (``L 6 korttia lukittu  7♣Tikki 3``).
    A space at least between them; the caption breaks between its parts."""
    record = _both_locked(tmp_path / "locked.json")
    child = spawn("play", "--resume", str(record), "--fast", "--lang", lang)
    turn = r"(Sinun korttisi|Your card) > "
    lines = screen(child, turn)
    table = lines[3 : lines.index(next(x for x in lines if x.startswith(("PE–IL", "NS–EW"))))]
    glued = re.compile(r"(lukittu|locked|[♠♥♦♣]|nyt|far)[^\s│]|[^\s│](Tikki|Trick|[PIELNSW] \d )")
    assert table and not any(glued.search(line) for line in table), table
    flat = " ".join(" ".join(table).split())
    if lang == "fi":
        assert "L 6 korttia lukittu" in flat and "I 6 korttia lukittu" in flat
        assert "Tikki 3 · L aloitti" in flat and "voittaa nyt" in flat
    else:
        assert "Trick 3 · W led · N wins so far" in " ".join(table), table  # on one line
    child.sendline("quit")
    child.expect_exact(") > ")
    child.sendline("y")
    child.expect(pexpect.EOF)


#: Where the rules page says to read further, in English and Finnish: a line each at 60 columns.
FOOTERS = {
    "en": ["help cards: order and points", "help terms: the game's words"],
    "fi": ["ohje kortit: järjestys ja pisteet", "ohje sanat: pelin sanasto"],
}


@pytest.mark.parametrize(
    ("lang", "command", "more"), [("en", "help rules", "more"), ("fi", "ohje säännöt", "lisää")]
)
def test_at_60x20_the_rules_page_ends_with_its_footer_whole(
    lang: str, command: str, more: str
) -> None:
    """Issue 41: the frame's bottom edge is too short for where to read further at 60 columns:
    it goes on lines of its own inside the frame, whole, not cut, on the rules' last page."""
    child = spawn("play", "--seed", "2", "--fast", "--lang", lang, "--partner", "random",
                  "--opponents", "random")  # fmt: skip
    child.setwinsize(20, 60)
    back = "Enter: back to the table > " if lang == "en" else "Enter: takaisin pöytään > "
    end = "— end · page" if lang == "en" else "— loppu · sivu"
    child.expect(r"> ")
    child.sendline(command)
    child.expect_exact(back)
    last: list[str] = []
    for _page in range(20):  # to the last page, however many the rules take at 60×20
        child.sendline(more)
        child.expect_exact(back)
        last = ANSI.sub("", child.before.split("\x1b[2J")[-1]).splitlines()
        if last and last[-1].startswith(end):
            break
    assert len(last) <= 19 and all(len(line) <= 60 for line in last), last
    inside = [line.strip("│ ") for line in last]
    assert inside[-4:-2] == FOOTERS[lang], last
    assert last[-2].startswith("╰") and last[-2].endswith("╯") and "─ " not in last[-2]
    child.sendline("")
    child.sendline("quit")
    child.expect_exact(") > ")
    child.sendline("y")
    child.expect(pexpect.EOF)
