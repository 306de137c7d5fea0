"""Positions after any number of actions (``Deal.after``, ``Match.after``), what each viewer
may see of them (``seen_by``, RULES.md 7.2) and a public history replayed on other hands
(``Deal.of_observation``)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.engine.test_observation import TWO_MARRIAGES, WON_FIRST, played, positions

from valtti.engine import Action, Deal, IllegalActionError, Match, Phase, Seat, Variant


def replayed(deal: Deal, n: int) -> Deal:
    """The deal after its first ``n`` actions, replayed one checked action at a time."""
    out = Deal(
        deal.initial_hands, deal.dealer, deal.variant, deal.forehand, answer_steps=deal.answer_steps
    )
    for action in deal.history[:n]:
        out.apply(action)
    return out


@settings(max_examples=150, deadline=None)
@given(positions(), st.data())
def test_after_is_the_checked_replay(deal: Deal, data: st.DataObject) -> None:
    n = data.draw(st.integers(0, len(deal.history)))
    after = deal.after(n)
    assert after == replayed(deal, n)
    assert after.hands == replayed(deal, n).hands and after.events == replayed(deal, n).events
    assert after is not deal and deal.after(len(deal.history)) == deal
    after.playout(random.Random(n))  # a new deal: playing it leaves this one as it was
    assert deal == replayed(deal, len(deal.history))


def test_after_out_of_range() -> None:
    deal = played(TWO_MARRIAGES, WON_FIRST)
    for n in (-1, len(deal.history) + 1):
        with pytest.raises(ValueError, match="no position after"):
            deal.after(n)


def test_seen_by_hides_a_choice_of_marriage() -> None:
    deal = played(TWO_MARRIAGES, (*WON_FIRST, "ask-whole"))
    before = played(TWO_MARRIAGES, WON_FIRST)
    assert deal.phase is Phase.ANSWER and deal.current_player is Seat.S
    assert deal.seen_by(Seat.S) is deal
    for viewer in (Seat.N, Seat.E, Seat.W, None):
        assert deal.seen_by(viewer) == before
    assert before.seen_by(None) is before  # nothing hidden: the deal itself


def test_seen_by_refuses_a_viewer_that_is_no_seat_in_every_phase() -> None:
    """Out of the ANSWER phase ``seen_by(5)`` or ``seen_by("X")`` gave the deal back unsaid;
    in it, the same viewer was refused: a bad viewer is refused always now."""
    asked = played(TWO_MARRIAGES, (*WON_FIRST, "ask-whole"))
    for deal in (played(TWO_MARRIAGES, WON_FIRST), asked):
        for bad in (5, -1, "X", True):
            with pytest.raises(ValueError, match="not a seat"):
                deal.seen_by(bad)


@settings(max_examples=150, deadline=None)
@given(positions())
def test_observation_position_rebuilds_the_deal(deal: Deal) -> None:
    """A public history replayed on the true hands reaches the same deal, answers included."""
    for seat in Seat:
        obs = deal.observation(seat)
        seen = deal.seen_by(seat)
        assert Deal.of_observation(obs, seen.hands) == seen


def test_position_needs_the_named_marriage() -> None:
    deal = played(TWO_MARRIAGES, (*WON_FIRST, "ask-whole", "answer D", "9H"))
    obs = deal.observation(Seat.E)
    assert Deal.of_observation(obs, deal.hands) == deal
    rebuilt = Deal(deal.initial_hands, deal.dealer, deal.variant, deal.forehand)
    with pytest.raises(ValueError, match="no answer is given"):
        rebuilt.replay(obs.history)  # without the events' suit the choice is unknown
    with pytest.raises(IllegalActionError):
        Deal(deal.initial_hands, deal.dealer, deal.variant, deal.forehand).replay(
            [Action.parse("ask-whole")]
        )


def _match(seed: int) -> Match:
    rng = random.Random(seed)
    match = Match(Variant(), Seat(seed % 4))
    while not match.is_over() and len(match.deals) < 3:
        match.start_deal(rng=rng)
        deal = match.deal
        assert deal is not None
        while not deal.is_over():
            match.apply(rng.choice(match.legal_actions()))
    return match


@pytest.mark.parametrize("seed", range(3))
def test_match_after(seed: int) -> None:
    match = _match(seed)
    for index, deal in enumerate(match.deals):
        for n in (0, len(deal.history) // 2, len(deal.history)):
            after = match.after(index, n)
            assert len(after.deals) == index + 1 and after.deal == deal.after(n)
            assert after.deals[:index] == match.deals[:index]
            assert after.deal_scores == match.deal_scores[: index + (n == len(deal.history))]
            assert after.next_dealer == deal.forehand
            assert after.summary()["deals"][:index] == match.summary()["deals"][:index]
    with pytest.raises(ValueError, match="has no deal"):
        match.after(len(match.deals), 0)


def test_spectator_view_is_the_public_part_of_a_seat_not_choosing() -> None:
    match = Match(Variant(), Seat.W)
    match.start_deal(list(played(TWO_MARRIAGES, ()).initial_hands))
    for token in (*WON_FIRST, "ask-whole"):
        match.apply(Action.parse(token))
    assert match.current_player is Seat.S
    before = match.seen_by(None)
    assert before is not match and match.seen_by(Seat.S) is match
    assert before.deal == played(TWO_MARRIAGES, WON_FIRST)
    spectator = match.view(None)
    assert spectator == match.observation(Seat.E).to_dict() | {
        "seat": None,
        "hand": [],
        "legal": [],
    }
    assert spectator["phase"] != "answer" and spectator["history"] == list(WON_FIRST)
    assert match.view(Seat.S) == match.observation(Seat.S).to_dict()


def test_a_replay_shows_the_partner_choosing_a_marriage() -> None:
    # After the match the choice is no secret (RULES.md 7.2 hides it while it is played): the
    # replay's view is the deal as the engine has it, the partner to move and the asker named.
    match = Match(Variant(), Seat.W)
    match.start_deal(list(played(TWO_MARRIAGES, ()).initial_hands))
    for token in (*WON_FIRST, "ask-whole"):
        match.apply(Action.parse(token))
    assert match.current_player is Seat.S
    replayed = match.replay_view()
    assert replayed == match.observation(Seat.S).to_dict() | {
        "seat": None,
        "hand": [],
        "legal": [],
        "refusals": [],
    }
    assert replayed["phase"] == "answer" and replayed["to_move"] == "S"
    assert replayed["asker"] == "N" and replayed["history"] == [*WON_FIRST, "ask-whole"]
    # Once answered, the replay and a spectator see the same.
    match.apply(match.legal_actions()[0])
    assert match.replay_view() == match.view(None)
