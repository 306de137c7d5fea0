"""The terminal's ``review`` of any finished deal (``review N``) and, at the match's end, of
the whole match (terminal.review): what it says in English and Finnish, what it refuses, and
that completion offers the finished deals' numbers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.text import Text
from tests.coach.test_review import BLUNDER, HANDS, _match
from tests.web.crafted import crafted_match

from valtti.cli import main
from valtti.coach.review import MARKS, MatchReview, Reviewed, review
from valtti.engine import Action, CardSet, Match, Seat, Team
from valtti.engine.record import Record
from valtti.players.equity import match_equity
from valtti.terminal import i18n
from valtti.terminal.commands import REVIEW, InputError, Review, completions, parse
from valtti.terminal.glyphs import plain
from valtti.terminal.review import (
    LEVELS,
    WIDTH,
    deal_end,
    equity_rows,
    review_lines,
    review_reply,
)
from valtti.terminal.rulebook import Page


def _text(reply: str | Page) -> str:
    """A review's text (a page in the table's place)."""
    assert isinstance(reply, Page), reply
    return reply.plain


def _second_deal_begun() -> Match:
    """BLUNDER's deal finished, and a second deal of the same hands begun."""
    match = _match(BLUNDER)
    match.start_deal([CardSet.parse(h.split()) for h in HANDS])
    return match


@pytest.fixture(autouse=True)
def english() -> object:
    yield None
    i18n.use("en")


@pytest.mark.parametrize("language", ["en", "fi"])
def test_review_takes_a_deal_s_number_in_either_language(language: str) -> None:
    i18n.use(language)
    word = i18n.pgettext("command", REVIEW)
    assert parse(word, []) == Review()
    assert parse(f"{word} 2", []) == Review(2)
    assert parse(f"{word.upper()} 12", []) == Review(12)
    for bad in ("x", "2 3", "-1", "99999"):
        with pytest.raises(InputError, match=f"{word} 2"):
            parse(f"{word} {bad}", [])


def test_review_n_reviews_that_finished_deal_and_refuses_others() -> None:
    match = _second_deal_begun()
    reply = _text(review_reply(match, Seat.E, 1))
    assert any(line.startswith("Deal 1: lost on what each seat knew") for line in reply.split("\n"))
    assert "E played A♥" in " ".join(reply.split())
    # With no number, the last finished deal: the same one.
    assert _text(review_reply(match, Seat.E)) == reply
    assert review_reply(match, Seat.E, 2) == (
        "Deal 2 is being played: it is reviewed once it ends."
    )
    for number in (0, 3):
        assert review_reply(match, Seat.E, number) == (
            f"There is no deal {number}: the deals so far are 1 to 2."
        )


def test_review_n_in_finnish() -> None:
    match = _second_deal_begun()
    i18n.use("fi")
    reply = _text(review_reply(match, Seat.E, 1))
    refused = review_reply(match, Seat.E, 2)
    assert any(line.startswith("Jako 1:") for line in reply.split("\n"))
    assert "I pelasi A♥" in " ".join(reply.split())
    assert isinstance(refused, str) and refused.startswith("Jako 2") and "ended" not in refused


@pytest.mark.parametrize("language", ["en", "fi"])
def test_at_the_match_s_end_review_gives_every_deal_and_the_match_s_total(language: str) -> None:
    match = crafted_match([True, True, False])
    assert match.is_over()
    i18n.use(language)
    reply = _text(review_reply(match, Seat.N))
    deal = "Deal" if language == "en" else "Jako"
    total = "The match:" if language == "en" else "Ottelu:"
    lines = reply.splitlines()
    # Every deal in order, then the match's total; each line fits the reply's frame at 80.
    headings = [line.split(":")[0] for line in lines if line.startswith(f"{deal} ")]
    assert headings == [f"{deal} {n}" for n in (1, 2, 3)]
    assert any(line.startswith(total) for line in lines)
    assert all(len(line) <= 76 for line in lines), reply
    # review N at the match's end is still one deal.
    one = _text(review_reply(match, Seat.N, 2))
    assert next(line for line in one.split("\n") if line.startswith(f"{deal} ")).startswith(
        f"{deal} 2:"
    )
    assert total not in one


def test_completion_offers_the_finished_deals_after_review() -> None:
    assert completions("review ", [], [], 3) == ["1", "2", "3"]
    assert completions("review 1", [], [], 12) == ["1", "10", "11", "12"]
    assert completions("review ", [], [], 0) == []
    assert "review" in completions("rev", [], [])
    i18n.use("fi")
    assert completions("arvio ", [], [], 2) == ["1", "2"]


def _drawn(reply: str | Page) -> str:
    """A review's text as the screen draws it (its lines drawn)."""
    assert isinstance(reply, Page) and isinstance(reply.body, Text), reply
    return reply.body.plain


def _decision(step: int, equity: float, loss: float = 0.0, seat: Seat = Seat.N) -> Reviewed:
    """A decision of deal 1 whose move played leaves NS at ``equity`` and lost ``loss``."""
    card = Action.parse("AS")
    return Reviewed(1, step, 1, seat, card, card, -loss, 0.0, 16, None, None, None, equity=equity)


@pytest.fixture(scope="module")
def east() -> MatchReview:
    """E's decisions in BLUNDER's deal, as the terminal reviews them (at hard)."""
    return review(_match(BLUNDER), [Seat.E])


def test_the_line_draws_the_equity_from_minus_one_to_one_with_each_mark_under_its_decision() -> (
    None
):
    decisions = [_decision(1, -1.0, 0.25), _decision(2, -0.3), _decision(3, 0.3, 0.1)]
    # Start, each decision, end: three columns a point, an eighth of -1 to 1 a block.
    assert equity_rows(Team.NS, 0.0, decisions, 0.99) == [
        "NS +0.00 ▅▅▅▁▁▁▃▃▃▆▆▆███ +0.99",
        "            ??    ?",
    ]
    # EW's line is NS's upside down; a deal being played has no end.
    assert equity_rows(Team.EW, 0.0, decisions, None) == [
        "EW +0.00 ▅▅▅███▆▆▆▃▃▃",
        "            ??    ?",
    ]
    # No mark, no row of marks.
    assert equity_rows(Team.NS, 0.5, [_decision(1, 0.5)], 0.5) == ["NS +0.50 ▇▇▇▇▇▇▇▇▇ +0.50"]


def test_a_long_deal_s_line_goes_on_in_the_next_rows() -> None:
    decisions = [_decision(n, (n % 9 - 4) / 4.5, 0.05 * (n % 3)) for n in range(1, 41)]
    rows = equity_rows(Team.NS, 0.5, decisions, -1.0)
    lines = [row for row in rows if set(row[9:]) & set(LEVELS)]
    assert all(len(row) <= WIDTH for row in rows), rows
    assert len(lines) == 3 and lines[0].startswith("NS +0.50 ") and lines[-1].endswith(" -1.00")
    # Read back: each row of blocks, and under it the row of its marks where it has any.
    blocks: list[str] = []
    marks: list[str | None] = []
    for i, row in enumerate(rows):
        if set(row[9:]) & set(LEVELS):
            points = row[9:].removesuffix(" -1.00")[::3]
            under = rows[i + 1] if i + 1 < len(rows) and "?" in rows[i + 1] else ""
            blocks.extend(points)
            marks.extend(under[9 + 3 * k : 11 + 3 * k].strip() or None for k in range(len(points)))
    values = [0.5, *(d.equity for d in decisions), -1.0]
    assert blocks == [LEVELS[min(7, int((v + 1) / 2 * 8))] for v in values]
    assert marks == [None, *(d.mark for d in decisions), None]


def test_the_review_marks_each_costly_move_and_gives_every_loss_its_unit(east: MatchReview) -> None:
    match = _match(BLUNDER)
    (deal,) = east.deals
    costly = deal.costliest[0]
    assert costly.mark is not None
    for language, unit in (("en", "of match equity"), ("fi", "ottelutilannetta")):
        i18n.use(language)
        lines = review_lines(east, match)
        text = " ".join(" ".join(lines).split())
        # The legend: the marks on one line (from MARKS), then what match equity is.
        marks = ", ".join(f"{mark} {least:.2f}" for least, mark in sorted(MARKS))
        assert lines[0].replace(",", ".").endswith(marks.replace(",", ".") + "."), lines[0]
        assert all(len(line) <= WIDTH for line in lines), max(lines, key=len)
        played = "E played A♥" if language == "en" else "I pelasi A♥"
        assert f"{played}{costly.mark}:" in text
        # The line under the deal's heading, the costly move's mark under its own block.
        row = next(i for i, line in enumerate(lines) if line.startswith(("EW ", "IL ")))
        steps = [d.step for d in deal.decisions]
        column = 9 + 3 * (steps.index(costly.step) + 1)
        assert lines[row + 1][column : column + len(costly.mark)] == costly.mark
        # Every loss with its unit: the deal's, each costly decision's, the match's.
        headings = [line for line in lines if line.startswith(("Deal 1:", "Jako 1:"))]
        assert headings and unit in " ".join(lines[lines.index(headings[0]) :][:2])
        for rank in range(1, len(deal.costliest) + 1):
            item = text.split(f" {rank}. ")[1]
            assert ("of match equity" if language == "en" else "ottelutilanteessa") in item
        total = text.split("The match:" if language == "en" else "Ottelu:")[1]
        assert unit in total


@pytest.mark.parametrize("language", ["en", "fi"])
def test_a_review_of_one_seat_names_no_other_team(east: MatchReview, language: str) -> None:
    i18n.use(language)
    text = "\n".join(review_lines(east, _match(BLUNDER)))
    ns, e = ("NS", "E") if language == "en" else ("PE", "I")
    assert ns not in text, text
    assert re.search(rf"{e} \d[.,]\d\d", text), text


def test_the_line_mode_tells_the_line_in_words() -> None:
    match = _match(BLUNDER)
    reply = review_reply(match, Seat.E, 1)
    drawn, told = _drawn(reply), _text(reply)
    assert any(c in drawn for c in LEVELS) and not any(c in told for c in LEVELS)
    assert re.search(
        r"^EW's match equity: [+-]\d\.\d\d at the start, [+-]\d\.\d\d at the end\.$", told, re.M
    ), told
    i18n.use("fi")
    told = _text(review_reply(match, Seat.E, 1))
    assert re.search(r"^IL:n ottelutilanne: alussa [+-]\d,\d\d, lopussa [+-]\d,\d\d\.$", told, re.M)


def test_each_deal_s_line_ends_at_the_match_equity_it_left() -> None:
    match = crafted_match([True, True, False])
    equity = match_equity(match.variant)
    assert [deal_end(match, n) for n in (1, 2, 3)] == [equity(s.after) for s in match.deal_scores]
    assert deal_end(match, 3) == 1.0  # NS won the match
    assert deal_end(crafted_match([True], part=4), 2) is None  # being played


def test_plain_characters_draw_the_line_in_ascii(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(Record.of_match(_match(BLUNDER)).to_json())
    args = ["review", str(path), "--seat", "E", "--level", "easy"]
    out = CliRunner().invoke(main, [*args, "--ascii"])
    assert out.exit_code == 0 and out.output.isascii(), out.output
    row = next(line for line in out.output.splitlines() if line.startswith("EW "))
    assert set(row.split()[2]) <= set(plain(LEVELS)), row
    assert plain(LEVELS) == "_.-~=^'\""
    refused = CliRunner().invoke(main, [*args, "--ascii", "--json"])
    assert refused.exit_code == 2 and "--ascii" in refused.output
