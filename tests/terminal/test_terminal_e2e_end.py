"""The end of a whole match in a real 80×24 pseudo-terminal (issue 41): the final score is a page
of its own, every deal of a ten-deal match on it under the columns' titles, the newest first, in
English and in Finnish; a reply under the table at the end is closed by Enter, which keeps the
record; the finished match stays in the saves, marked finished, until the player leaves it, and
leaving asks first; Ctrl-D there keeps it, and ``--resume`` shows its end again.

The match: seed 25 against random players, each turn's first legal move, ten deals; the record
stops at the player's last decision.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from valtti.engine.record import Record
from valtti.terminal.game import start
from valtti.terminal.saving import Saves

#: A real terminal session each: the full tier (CONTRIBUTING.md).
pytestmark = pytest.mark.e2e

pexpect = pytest.importorskip("pexpect")

from test_terminal_e2e_pages import drawn  # noqa: E402 - after the skip
from test_terminal_e2e_small import ANSI, COLUMNS, ROWS, TURN, spawn  # noqa: E402

OVER = "The match is over: review · save FILE · Enter: leave > "
LOPPU = "Ottelu on päättynyt: arvio · tallenna TIEDOSTO · Enter: poistu > "
LEAVE = (
    "Leave? The finished match is then removed from the saves: save FILE keeps its record. (y/n) > "
)


@pytest.fixture
def saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Saves:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return Saves(tmp_path / "data" / "valtti" / "saves")


def ten_deals(path: Path) -> Path:
    """Seed 25 played by the first legal move to the match's end, cut at the player's last
    decision: its record at ``path``."""
    con = Console(file=io.StringIO(), width=80, height=24, color_system=None)
    s = start(seed=25, partner="random", opponents="random", fast=True, console=con,
              language="en", saves=None)  # fmt: skip

    def read(prompt: str) -> str:
        if s.match.is_over():
            raise EOFError
        deal = s.match.deal
        assert deal is not None
        return "" if prompt.startswith("Enter") else str(deal.legal_actions()[0])

    s.drawing.read = read
    s.run()
    assert len(s.match.deals) == 10 and s.match.is_over()
    last = s._previous_decision()
    assert last is not None
    path.write_text(Record.of_match(s.match.after(*last), meta=s.setup.meta()).to_json())
    return path


def to_the_end(record: Path, language: str, prompt: str) -> tuple[pexpect.spawn, list[str]]:
    """``valtti play --resume`` of the record, its last move made: the final score drawn."""
    child = spawn("play", "--resume", str(record), "--fast", "--lang", language)
    child.expect(TURN if language == "en" else r"(Sinun aloituksesi|Sinun korttisi) > ")
    child.sendline("")  # the last card, the only one left: Enter plays it
    return child, drawn(child, prompt)


def deal_rows(lines: list[str]) -> list[int]:
    return [int(line.split()[0]) for line in lines if re.match(r"\s+\d+\s+[NESWPIL]\s", line)]


def test_the_final_score_of_ten_deals_is_one_page_with_its_titles(
    tmp_path: Path, saves: Saves
) -> None:
    child, page = to_the_end(ten_deals(tmp_path / "ten.json"), "en", OVER)
    assert len(page) <= ROWS - 1 and all(len(line) <= COLUMNS for line in page)
    assert page[0] == "The match is over"
    assert re.match(r"(You and your partner|EW) win the match: NS \d+ – EW \d+", page[1])
    assert page[page.index("Deal 10 is over") - 1] == ""  # the last deal's scoring, under them
    assert any(re.match(r"\s+deal\s+dealer\s+trumps\s+NS\s+EW\s+score", line) for line in page)
    assert deal_rows(page) == list(range(10, 0, -1))  # every deal, the deciding one on top
    assert not any("more" in line for line in page)  # one page
    (kept,) = saves.scan().kept
    assert kept.finished  # kept while its end is shown
    child.sendline("")
    child.expect_exact(LEAVE)
    child.sendline("y")
    child.expect(pexpect.EOF)
    assert saves.scan().kept == []  # left: removed, as asked


def test_the_final_score_in_finnish(tmp_path: Path, saves: Saves) -> None:
    child, page = to_the_end(ten_deals(tmp_path / "ten.json"), "fi", LOPPU)
    assert page[0] == "Ottelu on päättynyt" and "Jako 10 päättyi" in page
    assert any(re.match(r"\s+jako\s+jakaja\s+valtti\s+PE\s+IL\s+tilanne", line) for line in page)
    assert deal_rows(page) == list(range(10, 0, -1))
    assert len(page) <= ROWS - 1
    child.sendline("lopeta")
    child.expect_exact("(k/e) > ")
    child.sendline("k")
    child.expect(pexpect.EOF)


def test_enter_at_the_end_with_a_reply_open_keeps_the_record(tmp_path: Path, saves: Saves) -> None:
    """Enter closes the reply (here the tricks of the last deal, under the table) and goes back
    to the final score; the finished match is kept all along; Enter there asks before leaving,
    and "no" stays."""
    child, _page = to_the_end(ten_deals(tmp_path / "ten.json"), "en", OVER)
    child.sendline("tricks")
    tricks = drawn(child, "Enter: back to the final score > ")
    assert "Match:" in tricks[0] and any("The tricks of deal 10" in line for line in tricks)
    child.sendline("")
    assert drawn(child, OVER)[0] == "The match is over"
    assert saves.scan().kept[0].finished
    child.sendline("")
    child.expect_exact(LEAVE)
    child.sendline("n")
    assert drawn(child, OVER)[0] == "The match is over"
    (kept,) = saves.scan().kept
    assert kept.finished and kept.record.replay().is_over()
    child.send("\x04")  # Ctrl-D leaves at once: the finished match stays, and it says so
    child.expect(pexpect.EOF)
    said = " ".join(ANSI.sub("", child.before).split())
    assert "The finished match stays in the saves until you leave it" in said
    assert [k.path for k in saves.scan().kept] == [kept.path]

    listing = spawn("play", "--saves", "--lang", "en")
    listing.expect(pexpect.EOF)
    lines = ANSI.sub("", listing.before).splitlines()
    assert "Finished matches, kept until you leave them:" in lines
    assert any(re.search(r"^1  .*  finished after 10 deals, NS \d+ – EW \d+$", x) for x in lines)

    child = spawn("play", "--resume", "1", "--fast", "--lang", "en")
    page = drawn(child, OVER)
    assert page[0] == "The match is over" and deal_rows(page)[0] == 10
    child.sendline("quit")
    child.expect_exact(LEAVE)
    child.sendline("y")
    child.expect(pexpect.EOF)
    assert saves.scan().kept == []
