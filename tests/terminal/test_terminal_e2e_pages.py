"""``valtti play`` in a real 80×24 pseudo-terminal: PgDn, PgUp and ``more`` turn a long reply's
pages (help in a declaration window, the score after thirteen deals),
Tab offers only the legal words and suits inside the screen (the header stays), a word
completed alone is followed by a space, and a near miss says what was meant, offering a move
only where it is legal.

Seed 22: S takes trick 3 of deal 1 and may declare, ask whole or ask half.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from valtti.terminal.game import start
from valtti.terminal.saving import Saves

#: A real terminal session each: the full tier (CONTRIBUTING.md).
pytestmark = pytest.mark.e2e

pexpect = pytest.importorskip("pexpect")

from test_terminal_e2e_small import (  # noqa: E402, F401
    ANSI,
    ROWS,
    TURN,
    data_home,
    first_move,
    play,
    screen,
    spawn,
)

WINDOW = "You took the trick: declare, ask or lead > "
PGDN, PGUP = "\x1b[6~", "\x1b[5~"


def to_the_window() -> tuple[pexpect.spawn, list[str]]:
    """Seed 22 played by the first legal move until S may declare or ask: the screen there."""
    child = play("--seed", "22")
    while True:
        lines = screen(child)
        if child.after == WINDOW:
            return child, lines
        child.sendline(first_move(lines))


def drawn(child: pexpect.spawn, until: str) -> list[str]:
    """The lines of the screen drawn (after a clear) before ``until`` shows."""
    child.expect_exact(until)
    return ANSI.sub("", child.before.split("\x1b[2J")[-1]).splitlines()


def halves(lines: list[str]) -> list[str]:
    """The suits S may ask half of, as the hand panel's legal line shows them."""
    legal = next(line for line in lines if "Legal: " in line)
    return re.findall(r"ask half ([♠♥♦♣])", legal)


def leave(child: pexpect.spawn) -> None:
    child.sendline("quit")
    child.expect_exact("(y/n) > ")
    child.sendline("y")
    child.expect(pexpect.EOF)


def test_pgdn_and_pgup_turn_the_pages_of_help_with_the_header_in_view() -> None:
    child, _lines = to_the_window()
    child.sendline("help")
    first = drawn(child, WINDOW)
    assert "Trumps:" in first[0] and len(first) <= ROWS - 1
    assert any("— more: PgDn or more · page 1 of 2 —" in line for line in first), first
    child.send(PGDN)
    last = drawn(child, WINDOW)
    assert "Trumps:" in last[0] and len(last) <= ROWS - 1
    assert any("— end · page 2 of 2 · back: PgUp —" in line for line in last), last
    assert "PgUp for the one before." in " ".join(" ".join(last).split())  # help's last line
    child.send(PGUP)
    assert drawn(child, WINDOW) == first
    leave(child)


def test_tab_offers_the_legal_moves_inside_the_screen_and_adds_the_space() -> None:
    child, lines = to_the_window()
    suits = halves(lines)
    assert suits and "ask whole" in " ".join(lines)
    child.send("ask \t\t")
    listed = drawn(child, WINDOW)
    # The choices where a reply goes, the header still on the first line.
    assert "Trumps:" in listed[0] and len(listed) <= ROWS - 1, listed
    offered = next(line for line in listed if "Tab: " in line).split("Tab: ")[1].strip(" │")
    assert sorted(offered.split()) == ["half", "whole"], listed
    child.expect_exact("ask ")  # the line typed so far, back at the prompt
    child.send("h\t")
    child.expect_exact("alf ")  # completed with the space
    child.send("\t\t")
    listed = drawn(child, WINDOW)
    assert "Trumps:" in listed[0] and len(listed) <= ROWS - 1, listed
    offered = next(line for line in listed if "Tab: " in line).split("Tab: ")[1].strip(" │")
    letters = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
    names = {"♠": "spades", "♥": "hearts", "♦": "diamonds", "♣": "clubs"}
    legal = [letters[s] for s in suits] + [names[s] for s in suits]
    assert sorted(offered.split()) == sorted(legal), (offered, suits)  # the legal suits only
    child.expect_exact("ask half ")
    child.sendline(letters[suits[0]])
    lines = screen(child, f"{TURN}|{WINDOW}")
    assert any(f"asks for half {suits[0]}" in line for line in lines), lines
    leave(child)


def test_a_near_miss_offers_only_legal_moves() -> None:
    """Issue 41: "did you mean" offers a move only where it is legal; where the move read is
    not, the engine says why, and what is legal. A mistyped command is offered with what
    follows it."""
    child, lines = to_the_window()
    suits = halves(lines)
    assert "declare ♣" in " ".join(lines) and "declare ♠" not in " ".join(lines)
    child.sendline("decalre c")
    lines = drawn(child, WINDOW)
    said = " ".join(" ".join(line.strip("│ ") for line in lines).split())
    assert "Not understood: decalre c. Did you mean: declare ♣?" in said, said
    child.sendline("decalre s")
    lines = drawn(child, WINDOW)
    said = " ".join(" ".join(line.strip("│ ") for line in lines).split())
    assert "Did you mean" not in said, said
    assert (
        "decalre s: if you meant declare ♠, it is not legal: you do not hold both the king and "
        "the queen of ♠. Legal now: Q♠ 8♠ Q♦ 8♦ K♣ Q♣ · declare ♣ · ask whole · ask half ♠ · "
        "ask half ♦" in said
    ), said
    child.sendline("hlep rules")
    said = " ".join(" ".join(line.strip("│ ") for line in drawn(child, WINDOW)).split())
    assert "Not understood: hlep rules. Did you mean: help rules?" in said, said
    child.sendline("ask half")
    said = " ".join(" ".join(line.strip("│ ") for line in drawn(child, WINDOW)).split())
    legal = " or ".join(f"ask half {s}" for s in suits)
    assert f"'ask half' needs a suit. Legal now: {legal}." in said, said
    leave(child)


def thirteen_deals(tmp_path: Path) -> Path:
    """Seed 7 played by the first legal move into deal 14, S to choose: its record."""
    con = Console(file=io.StringIO(), width=80, height=24, color_system=None)
    s = start(seed=7, partner="random", opponents="random", fast=True, console=con,
              language="en", saves=Saves(tmp_path / "in-process"))  # fmt: skip
    path = tmp_path / "thirteen.json"

    def read(prompt: str) -> str:
        deal = s.match.deal
        assert deal is not None
        if len(s.match.deals) == 14 and len(deal.legal_actions()) > 1:
            path.write_text(s._record(), encoding="utf-8")
            raise EOFError
        return "" if prompt.startswith("Enter") else str(deal.legal_actions()[0])

    s.drawing.read = read
    s.run()
    return path


def test_more_turns_the_score_to_the_first_deal(tmp_path: Path) -> None:
    child = spawn("play", "--resume", str(thirteen_deals(tmp_path)), "--fast", "--lang", "en")
    child.expect(TURN)
    child.sendline("score")
    first = drawn(child, "Your card > ")
    assert "Trumps:" in first[0] and len(first) <= ROWS - 1, first
    rows = [line for line in first if re.match(r"│\s+\d+\s+[NESW]\s", line)]
    assert rows and rows[0].split()[1] == "13", first  # the newest deal on top
    assert any("— more: PgDn or more · page 1 of 2 —" in line for line in first), first
    child.sendline("more")
    last = drawn(child, "Your card > ")
    assert "Trumps:" in last[0] and len(last) <= ROWS - 1, last
    rows = [line for line in last if re.match(r"│\s+\d+\s+[NESW]\s", line)]
    assert rows and rows[-1].split()[1] == "1", last  # the first deal, at the bottom
    assert any("— end · page 2 of 2 · back: PgUp —" in line for line in last), last
    leave(child)
