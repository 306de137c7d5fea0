"""The review of finished play (coach/review.py, ``valtti review``, terminal/review.py): the
double-dummy loss of solver-best play is none, a planted blunder is marked first, the review is
repeatable, its words fit 80 columns in English and Finnish, and the terminal's ``review``
reviews the last finished deal alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from valtti.cli import main
from valtti.coach import review as review_module
from valtti.coach.reasons import ReasonCode
from valtti.coach.review import MatchReview, review
from valtti.engine import Action, CardSet, Match, Seat, Variant
from valtti.engine.record import Record
from valtti.terminal import i18n
from valtti.terminal.commands import REVIEW, Review, parse
from valtti.terminal.review import review_lines, review_reply
from valtti.terminal.rulebook import Page

#: One deal (E deals, S leads), N E S W: every action in ``SOLVER_BEST`` is the double-dummy
#: solver's best in the real deal at the match's start.
HANDS = (
    "AS JS 7S 6S KD 9D 6D 9C 7C",
    "QS 8S AH KH 8H AD 8D TC JC",
    "TS KS 9S 9H 6H QD 7D 8C 6C",
    "TH QH JH 7H TD JD AC KC QC",
)
SOLVER_BEST = (
    "9S 7H AS 8S 6S QS TS JH ask-half_D KS JD 7S AD TC 6C AC 7C declare_C QC 9C JC 8C KC 6D 8D QD "
    "6H TH 9D 8H JS AH 7D TD ask-half_H QH KD KH 9H"
)
#: The same deal, but at action 30, last to play in trick 7, E throws AH on the trick N has
#: trumped where the solver plays 8H; then the solver's best again. The ace goes to NS, and with
#: it the victory point (NS 65 card points, not 54).
BLUNDER = (
    "9S 7H AS 8S 6S QS TS JH ask-half_D KS JD 7S AD TC 6C AC 7C declare_C QC 9C JC 8C KC 6D 8D QD "
    "6H TH 9D AH JS 8H 7D TD ask-half_H QH KD KH 9H"
)
BLUNDER_STEP = 30


def _match(actions: str) -> Match:
    match = Match(Variant(), Seat.E)
    match.start_deal([CardSet.parse(h.split()) for h in HANDS])
    for token in actions.split():
        match.apply(Action.parse(token.replace("_", " ")))
    assert match.deal is not None and match.deal.is_over()
    return match


@pytest.fixture(scope="module")
def best() -> MatchReview:
    return review(_match(SOLVER_BEST), level="easy")


@pytest.fixture(scope="module")
def blunder() -> MatchReview:
    return review(_match(BLUNDER), level="easy")


def test_solver_best_play_loses_nothing_with_every_hand_open(best: MatchReview) -> None:
    (deal,) = best.deals
    assert deal.decisions and {d.seat for d in deal.decisions} == set(Seat)
    assert all(d.exact_loss == 0.0 and d.exact == d.exact_best_value for d in deal.decisions)
    assert deal.unsolved == 0 and best.unsolved == 0
    assert deal.exact_lost == (0.0, 0.0) and best.exact_lost == (0.0, 0.0)
    # On what each seat knew, a solver-best move may still look worse than another.
    assert all(d.loss >= 0.0 and 1 <= d.deals <= 16 for d in deal.decisions)


def test_a_planted_blunder_is_marked_first(blunder: MatchReview) -> None:
    (deal,) = blunder.deals
    first = deal.costliest[0]
    assert (first.step, str(first.played), first.seat) == (BLUNDER_STEP, "AH", Seat.E)
    assert first.best != first.played and first.loss > 0
    assert first.exact_loss is not None and first.exact_loss > 0
    assert first.reason is not None and first.reason.code is not ReasonCode.ONLY
    # Every other decision was the solver's best in the real deal.
    others = [d for d in deal.decisions if d.step != BLUNDER_STEP]
    assert all(d.exact_loss == 0.0 for d in others)
    assert deal.exact_lost[Seat.E.team] == pytest.approx(first.exact_loss)
    assert len(deal.costliest) <= 3
    losses = [d.loss for d in deal.costliest]
    assert losses == sorted(losses, reverse=True)


@pytest.mark.parametrize("language", ["en", "fi"])
def test_the_review_in_words_fits_80_columns(blunder: MatchReview, language: str) -> None:
    i18n.use(language)
    try:
        lines = review_lines(blunder, _match(BLUNDER), full=True)
    finally:
        i18n.use("en")
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    text = "\n".join(lines)
    if language == "en":
        assert "1. Trick 7, E played A♥" in " ".join(text.split())
        assert "The match: lost on what each seat knew" in text
    else:
        assert "1. Tikki 7, I pelasi A♥" in " ".join(text.split())
        assert "Ottelu: ottelutilannetta menetetty" in text
    assert sum(line.endswith("*") for line in lines) == len(blunder.deals[0].costliest)


def test_review_command_is_repeatable_and_reviews_the_seats_asked(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(Record.of_match(_match(BLUNDER)).to_json())
    args = ["review", str(path), "--seat", "E", "--level", "easy", "--json"]
    first = CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    assert CliRunner().invoke(main, args).output == first.output
    out = json.loads(first.output)
    assert out["seats"] == ["E"]
    (deal,) = out["deals"]
    assert {d["seat"] for d in deal["decisions"]} == {"E"}
    assert deal["costliest"][0]["step"] == BLUNDER_STEP
    assert deal["costliest"][0]["reason"]["code"]
    assert out["exact_lost"]["EW"] > 0 and out["exact_lost"]["NS"] == 0
    text = CliRunner().invoke(main, ["review", str(path), "--seat", "e", "--level", "easy"])
    assert text.exit_code == 0 and "E played A♥" in " ".join(text.output.split())


@pytest.mark.parametrize("language", ["en", "fi"])
def test_the_terminals_review_of_the_last_deal_fits_80_by_24(language: str) -> None:
    match = _match(BLUNDER)
    i18n.use(language)
    try:
        page = review_reply(match, Seat.E)
        word = i18n.pgettext("command", REVIEW)
        command = parse(word, [])
    finally:
        i18n.use("en")
    assert isinstance(page, Page)
    reply = page.plain
    lines = reply.splitlines()
    # Inside the reply's frame (two columns of border and padding a side) on 80 x 24.
    assert len(lines) <= 20 and all(len(line) <= 76 for line in lines), reply
    assert ("E played A♥" if language == "en" else "I pelasi A♥") in " ".join(reply.split())
    assert isinstance(command, Review)


def test_the_terminal_reviews_no_deal_being_played() -> None:
    match = Match(Variant(), Seat.E)
    match.start_deal([CardSet.parse(h.split()) for h in HANDS])
    assert review_reply(match, Seat.S) == "No deal has finished yet: there is nothing to review."


def test_a_decision_past_the_open_hand_budget_is_said_not_solved(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """With every hand open each decision is solved within a budget of positions (so that a
    match's review takes about a minute): past it the decision is "not solved", its open-hand
    values ``None`` (``null``), left out of the teams' sums and counted, never guessed."""
    match = _match(BLUNDER)
    monkeypatch.setattr(review_module, "OPEN_HAND_POSITIONS", 1)
    capped = review(match, [Seat.E], level="easy")
    (deal,) = capped.deals
    unsolved = [d for d in deal.decisions if d.exact is None]
    assert unsolved and deal.unsolved == len(unsolved) == capped.unsolved
    assert all(d.exact_best is None and d.exact_loss is None for d in unsolved)
    solved = [d for d in deal.decisions if d.exact is not None]
    assert deal.exact_lost[Seat.E.team] == pytest.approx(sum(d.exact_loss or 0 for d in solved))
    # On what the seat knew nothing changes: the blunder is still marked first.
    assert deal.costliest[0].step == BLUNDER_STEP
    out = capped.to_dict()
    assert out["unsolved"] == len(unsolved) == out["deals"][0]["unsolved"]
    nulls = [d for d in out["deals"][0]["decisions"] if d["exact"] is None]
    assert len(nulls) == len(unsolved)
    assert all(d["exact_best"] is d["exact_loss"] is d["exact_best_value"] is None for d in nulls)
    json.dumps(out, allow_nan=False)
    for language, said, count in [
        ("en", "not solved within the review's budget", "decisions were not solved"),
        ("fi", "jäi ratkaisematta arvion laskentarajassa", "päätöstä jäi ratkaisematta"),
    ]:
        i18n.use(language)
        try:
            lines = review_lines(capped, match, full=True)
        finally:
            i18n.use("en")
        assert all(len(line) <= 80 for line in lines), max(lines, key=len)
        text = " ".join(" ".join(lines).split())
        if deal.costliest[0].exact is None:
            assert said in text, text
        assert f"({len(unsolved)} {count}" in text, text
        table = [line for line in lines if line.rstrip("* ").endswith("—")]
        assert len(table) == len(unsolved)
