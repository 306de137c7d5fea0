"""``valtti play`` in a real 80×24 pseudo-terminal at a match's end: ``review`` shows the whole
match's review as a page in the table's place, ``more`` turns to its last page (the match's
total), ``review 2`` reviews one deal, Enter goes back to the final score; while a review is made,
a line under the prompt says so.

The match: crafted_match's two deals (N declares clubs, 8–0) and a third of the same hands
played to trick 9, where North (the person) leads A♣ and the match ends 10–0.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.web.crafted import HANDS, _play, crafted_match

from valtti.engine import Seat
from valtti.engine.record import Record

#: A real terminal session: the full tier (CONTRIBUTING.md).
pytestmark = [pytest.mark.slow, pytest.mark.e2e]

pexpect = pytest.importorskip("pexpect")

from test_terminal_e2e_pages import drawn  # noqa: E402
from test_terminal_e2e_small import COLUMNS, ROWS, data_home, spawn  # noqa: E402, F401

OVER = "The match is over: review · save FILE · Enter: leave > "
BACK = "Enter: back to the final score > "
#: How long the review of three deals may take on a loaded machine (seconds).
REVIEW_SECONDS = 300


def near_the_end(path: Path) -> Path:
    """The record of the match above, North to lead the last trick of deal 3."""
    match = crafted_match([True, True])
    deal = match.start_deal(HANDS)
    while not (deal.current_player is Seat.N and len(deal.history) >= 32):
        _play(match, False)
    path.write_text(Record.of_match(match).to_json(), "utf-8")
    return path


def test_review_at_the_match_s_end_pages_the_whole_match(tmp_path: Path) -> None:
    record = near_the_end(tmp_path / "near-end.json")
    child = spawn("play", "--seat", "N", "--resume", str(record), "--fast", "--lang", "en")
    child.expect_exact("You took the trick: declare, ask or lead > ")
    child.sendline("AC")
    child.expect_exact(OVER)
    child.sendline("review")
    # Said at once, under the prompt, while the review is made.
    child.expect_exact("Reviewing your decisions in the whole match (up to a minute)…", timeout=10)
    child.timeout = REVIEW_SECONDS
    first = drawn(child, BACK)
    assert first[0] == "Your decisions in each deal of the match:"
    assert first[2].startswith("Deal 1: lost on what each seat knew NS")
    assert len(first) <= ROWS - 1 and all(len(line) <= COLUMNS for line in first)
    assert first[-1].startswith("— more: PgDn or more · page 1 of ")
    child.sendline("more")
    last = drawn(child, BACK)
    assert last[-1].startswith("— end · page ")
    assert any(line.startswith("The match: lost on what each seat knew NS") for line in last)
    child.sendline("review 2")
    child.expect_exact("Reviewing your decisions in deal 2…", timeout=10)
    one = drawn(child, BACK)
    assert one[0].startswith("Deal 2: lost") and not any("The match:" in line for line in one)
    child.sendline("")
    child.expect_exact(OVER)
    child.sendline("")
    child.expect_exact("(y/n) > ")
    child.sendline("y")
    child.expect(pexpect.EOF)
