"""The terminal's ``review`` of any finished deal (``review N``) and, at the match's end, of
the whole match (terminal.review): what it says in English and Finnish, what it refuses, and
that completion offers the finished deals' numbers."""

from __future__ import annotations

import pytest
from tests.test_review import BLUNDER, HANDS, _match
from tests.web.crafted import crafted_match

from valtti.engine import CardSet, Match, Seat
from valtti.terminal import i18n
from valtti.terminal.commands import REVIEW, InputError, Review, completions, parse
from valtti.terminal.review import review_reply
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
    assert reply.startswith("Deal 1: lost on what each seat knew")
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
    assert reply.startswith("Jako 1:") and "I pelasi A♥" in " ".join(reply.split())
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
    assert one.startswith(f"{deal} 2:") and total not in one


def test_completion_offers_the_finished_deals_after_review() -> None:
    assert completions("review ", [], [], 3) == ["1", "2", "3"]
    assert completions("review 1", [], [], 12) == ["1", "10", "11", "12"]
    assert completions("review ", [], [], 0) == []
    assert "review" in completions("rev", [], [])
    i18n.use("fi")
    assert completions("arvio ", [], [], 2) == ["1", "2"]
