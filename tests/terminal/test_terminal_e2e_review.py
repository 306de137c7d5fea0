"""``valtti play`` in a real 80×24 pseudo-terminal at a match's end: ``review`` shows the whole
match's review as a page in the table's place, ``more`` turns to its last page (the match's
total), ``review 2`` reviews one deal, Enter goes back to the final score; while a review is made,
a line under the prompt says so. After a deal with a blunder, in English and Finnish, ``review``
draws the deal's line of match equity with the blunder's mark under its decision, marks the move
in words, and names no team it did not review.

The match: crafted_match's two deals (N declares clubs, 8–0) and a third of the same hands
played to trick 9, where North (the person) leads A♣ and the match ends 10–0. The blunder:
tests/coach/test_review.py's, East's A♥ in trick 7.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.coach.test_review import BLUNDER, BLUNDER_STEP, _match
from tests.web.crafted import HANDS, _play, crafted_match

from valtti.coach.review import review
from valtti.engine import Seat
from valtti.engine.record import Record
from valtti.terminal.review import LEVELS

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
    assert first[2] == "A move is marked where it lost at least: ?! 0.03, ? 0.08, ?? 0.20."
    heading = next(i for i, line in enumerate(first) if line.startswith("Deal 1: "))
    # North's decisions alone: N's losses, no line for EW, NS's line under the heading.
    assert re.match(r"Deal 1: lost on what each seat knew N \d\.\d\d of match", first[heading])
    assert first[heading + 2].startswith("NS +0.00 ") and LEVELS[4] in first[heading + 2]
    assert not any("EW" in line for line in first)
    assert len(first) <= ROWS - 1 and all(len(line) <= COLUMNS for line in first)
    assert first[-1].startswith("— more: PgDn or more · page 1 of ")
    pages = int(first[-1].split(" of ")[1].split()[0])
    for page in range(2, pages + 1):  # as many pages as the match's deals take
        child.sendline("more")
        last = drawn(child, BACK)
        assert all(len(line) <= COLUMNS for line in last) and len(last) <= ROWS - 1
        assert f"page {page} of {pages}" in last[-1]
    assert pages >= 2 and last[-1].startswith("— end · page ")
    assert any(line.startswith("The match: lost on what each seat knew N 0") for line in last)
    child.sendline("review 2")
    child.expect_exact("Reviewing your decisions in deal 2…", timeout=10)
    one = drawn(child, BACK)
    assert next(line for line in one if line.startswith("Deal ")).startswith("Deal 2: lost")
    assert not any("The match:" in line for line in one)
    child.sendline("")
    child.expect_exact(OVER)
    child.sendline("")
    child.expect_exact("(y/n) > ")
    child.sendline("y")
    child.expect(pexpect.EOF)


#: What the blunder's review is asked with and says, in each language.
SAID = {
    "en": {
        "over": "Enter: next deal",
        "review": "review",
        "back": "Enter: back to the table > ",
        "marks": ": ?! 0.03, ? 0.08, ?? 0.20.",
        "team": "EW",
        "played": "E played A♥",
        "quit": "quit",
        "sure": "(y/n) > ",
        "yes": "y",
    },
    "fi": {
        "over": "Enter: seuraava jako",
        "review": "arvio",
        "back": "Enter: takaisin pöytään > ",
        "marks": ": ?! 0,03, ? 0,08, ?? 0,20.",
        "team": "IL",
        "played": "I pelasi A♥",
        "quit": "lopeta",
        "sure": "(k/e) > ",
        "yes": "k",
    },
}


@pytest.mark.parametrize("language", ["en", "fi"])
def test_a_deal_s_review_draws_its_line_with_the_blunder_marked(
    tmp_path: Path, language: str
) -> None:
    match = _match(BLUNDER)
    record = tmp_path / "blunder.json"
    record.write_text(Record.of_match(match).to_json(), "utf-8")
    # What the terminal reviews: East's decisions at hard (the same record, the same review).
    (deal,) = review(match, [Seat.E]).deals
    steps = [d.step for d in deal.decisions]
    blunder = next(d for d in deal.costliest if d.step == BLUNDER_STEP)
    assert blunder.mark is not None
    said = SAID[language]
    child = spawn("play", "--seat", "E", "--resume", str(record), "--fast", "--lang", language)
    child.expect_exact(said["over"])
    child.sendline(said["review"])
    child.timeout = REVIEW_SECONDS
    page = drawn(child, said["back"])
    assert len(page) <= ROWS - 1 and all(len(line) <= COLUMNS for line in page), page
    # The legend's marks on one line; the line of EW's match equity, the mark under its block.
    assert page[0].endswith(said["marks"]), page
    row = next(i for i, line in enumerate(page) if line.startswith(said["team"] + " +0"))
    assert set(page[row][9:].split()[0]) <= set(LEVELS), page[row]
    column = 9 + 3 * (steps.index(BLUNDER_STEP) + 1)
    assert page[row + 1][column : column + len(blunder.mark)] == blunder.mark, page
    assert f"{said['played']}{blunder.mark}:" in " ".join(" ".join(page).split())
    # East's decisions alone: nothing is said of NS.
    assert not any(team in line for line in page for team in ("NS", "PE")), page
    child.sendline("")
    child.expect_exact(said["over"])
    child.sendline(said["quit"])
    child.expect_exact(said["sure"])
    child.sendline(said["yes"])
    child.expect(pexpect.EOF)
