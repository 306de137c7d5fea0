"""Refused actions: ``apply`` raises ``IllegalActionError`` saying why, and the deal is unchanged.

``assert_refused`` checks the reason's words, that ``legal`` on the error is the legal list of the
position, that ``is_legal``/``why_illegal`` agree, and that every observable part of the deal
(history, hands, legal actions, phase, player to move, trumps, events, locks, tricks, result)
is the same after the refusal as before.
"""

from __future__ import annotations

import random

import pytest

from helpers import (
    NO_MARRIAGE_HANDS,
    NO_MARRIAGE_TRICKS,
    OTHER_TEAM_HANDS,
    OTHER_TEAM_SCRIPT,
    SWEEP_HANDS,
    SWEEP_TRICKS,
    TRUMP_HANDS,
    assert_refused,
    cs,
    drive,
    legal,
    make_deal,
    snapshot,
    sweep_deal,
    trump_deal,
)
from valtti.engine import (
    Action,
    Deal,
    IllegalActionError,
    Phase,
    Seat,
    Variant,
    beats_card,
    marriage_suits,
    play_shows,
    trick_winner,
)


def test_card_not_in_hand() -> None:
    deal = sweep_deal()
    assert_refused(deal, "AD", "does not hold", "AD")
    drive(deal, "AS")
    assert_refused(deal, "AS", "does not hold")  # already played, and not E's


def test_must_follow_suit() -> None:
    deal = trump_deal("QH")  # E holds AH 8H
    assert_refused(deal, "AC", "follow")
    deal = make_deal(TRUMP_HANDS, "W", "AS")  # E holds 6S
    assert_refused(deal, "AC", "follow", "S")


def test_must_beat_when_following() -> None:
    deal = trump_deal("QH")  # E holds AH 8H: the ace beats the queen
    err = assert_refused(deal, "8H", "beat", "QH")
    assert [str(a) for a in err.legal] == ["AH"]


def test_must_beat_partner_when_following() -> None:
    # Case 1's position: N leads 9S, E 6S; S holds QS JS 7S AH.
    hands = (
        cs("AD TD KD AC TC 9S TH 9H 8H"),
        cs("9D 6D 9C 6C KC 6S KH QH JH"),
        cs("7D JD 7C JC 6H QS JS 7S AH"),
        cs("8D QD 8C QC 7H AS TS KS 8S"),
    )
    deal = make_deal(hands, "W", "9S 6S")
    assert_refused(deal, "7S", "beat", "9S")
    assert_refused(deal, "AH", "beat")


def test_must_trump_when_void() -> None:
    deal = trump_deal("6D")  # E: no diamonds, AH 8H
    assert_refused(deal, "AC", "trump", "H")


def test_must_overtrump_when_void() -> None:
    deal = trump_deal("6D 8H")  # S: no diamonds, TH 7H
    assert_refused(deal, "7H", "trump", "beats", "8H")
    assert_refused(deal, "8C", "trump")


def test_first_trick_ace() -> None:
    deal = make_deal(SWEEP_HANDS, "W", variant=Variant(first_trick_ace="on"))
    assert_refused(deal, "TS", "ace")


def test_declaration_before_trick_1() -> None:
    deal = sweep_deal()
    assert_refused(deal, "declare S", "trick 1")
    assert_refused(deal, "ask-whole", "trick 1")
    assert_refused(deal, "ask-half D", "trick 1")


def test_declaration_outside_the_winners_window() -> None:
    deal = sweep_deal(SWEEP_TRICKS[0] + " AH")
    assert deal.current_player == Seat.E
    assert_refused(deal, "ask-whole", "winner")


def test_second_action_in_one_window() -> None:
    deal = sweep_deal(SWEEP_TRICKS[0] + " | declare S")
    assert_refused(deal, "declare H", "already made")


def test_declare_already_declared_suit() -> None:
    deal = sweep_deal(SWEEP_TRICKS[0] + " | declare S " + SWEEP_TRICKS[1])
    assert_refused(deal, "declare S", "already been declared")


def test_declare_without_the_marriage() -> None:
    deal = sweep_deal(SWEEP_TRICKS[0])
    assert_refused(deal, "declare D", "does not hold both", "KD", "QD")


def test_declare_when_locked() -> None:
    deal = make_deal(NO_MARRIAGE_HANDS, "W", NO_MARRIAGE_TRICKS[0] + " | ask-whole")
    drive(deal, NO_MARRIAGE_TRICKS[1])
    assert_refused(deal, "declare S", "locked")


def test_ask_whole_by_trump_team() -> None:
    deal = sweep_deal(SWEEP_TRICKS[0] + " | declare S " + SWEEP_TRICKS[1])
    assert_refused(deal, "ask-whole", "made trumps", "whole")


def test_ask_whole_nobody_after_trumps() -> None:
    variant = Variant(whole_ask_after_trump="nobody")
    deal = make_deal(OTHER_TEAM_HANDS, "W", OTHER_TEAM_SCRIPT, variant)
    assert_refused(deal, "ask-whole", "trumps", "whole")


def test_ask_half_without_exactly_one_card() -> None:
    deal = sweep_deal(SWEEP_TRICKS[0])
    assert_refused(deal, "ask-half S", "exactly one")
    assert_refused(deal, "ask-half C", "exactly one")


def test_answer_without_a_question() -> None:
    deal = sweep_deal(SWEEP_TRICKS[0])
    assert_refused(deal, "answer D", "no question")
    deal = sweep_deal()
    assert_refused(deal, "answer D", "no question")


def test_answer_naming_a_marriage_partner_cannot_name() -> None:
    deal = sweep_deal(SWEEP_TRICKS[0] + " | ask-whole")
    assert deal.phase == Phase.ANSWER
    assert_refused(deal, "answer S", "cannot name")  # S holds no spades
    assert_refused(deal, "answer H", "cannot name")


def test_nothing_else_while_an_answer_is_due() -> None:
    deal = sweep_deal(SWEEP_TRICKS[0] + " | ask-whole")
    assert deal.current_player == Seat.S
    assert_refused(deal, "AD", "answer")  # S's own card
    assert_refused(deal, "TS", "answer")
    assert_refused(deal, "declare D", "answer")
    assert_refused(deal, "ask-whole", "answer")


def test_anything_after_the_deal_is_over() -> None:
    deal = sweep_deal(" ".join(SWEEP_TRICKS))
    assert deal.is_over()
    for action in ["QH", "AS", "declare S", "ask-whole", "ask-half H", "answer C"]:
        assert_refused(deal, action, "over")


@pytest.mark.parametrize("number", [49, 64, -1])
def test_action_number_out_of_range(number: int) -> None:
    deal = sweep_deal()
    before = snapshot(deal)
    assert not deal.is_legal(number)
    with pytest.raises(IllegalActionError) as info:
        deal.apply(number)
    assert str(number) in info.value.reason
    assert "action" in info.value.reason.lower()
    assert info.value.legal == tuple(deal.legal_actions())
    assert snapshot(deal) == before


def test_refusal_names_the_action_and_lists_legal_ones() -> None:
    deal = trump_deal("6D 8H")
    with pytest.raises(IllegalActionError) as info:
        deal.apply(Action.parse("7H"))
    err = info.value
    assert err.action == Action.parse("7H")
    assert err.legal == (Action.parse("TH"),)
    assert "7H" in str(err) and "TH" in str(err)
    # and the deal goes on normally afterwards
    drive(deal, "TH")
    assert legal(deal) == {"AD", "TD", "KD"}


@pytest.mark.parametrize("seat", [-1, 4, 5, "N", None, True, 1.0])
def test_a_seat_that_is_none_is_refused_not_wrapped_round(seat: object) -> None:
    # -1 once indexed the seats from the end: a deal dealt by "seat -1" was dealt by W.
    deal = sweep_deal()
    calls = [
        lambda: Deal(SWEEP_HANDS, seat),
        lambda: Deal(SWEEP_HANDS, Seat.N, forehand=seat),
        lambda: Deal.shuffled(random.Random(1), seat),
        lambda: deal.hand(seat),
        lambda: deal.hand_mask(seat),
        lambda: deal.refusals(seat),
        lambda: deal.observation(seat),
        lambda: marriage_suits(deal.hand(Seat.N), seat, [], []),
        lambda: marriage_suits(deal.hand(Seat.N), Seat.N, [], [seat]),
    ]
    if seat is None:
        del calls[1]  # no forehand: the player left of the dealer
    for call in calls:
        with pytest.raises(ValueError, match="not a seat"):
            call()


@pytest.mark.parametrize("suit", [-1, 4, "S", True, 0.0])
def test_a_suit_that_is_none_is_refused_not_wrapped_round(suit: object) -> None:
    # -1 once indexed the suits from the end: "trumps -1" were clubs.
    calls = [
        lambda: beats_card(0, 1, suit),
        lambda: trick_winner([0, 27], suit),
        lambda: play_shows(27, [0], suit, 2, Variant()),
        lambda: marriage_suits(SWEEP_HANDS[0], Seat.N, [suit], []),
    ]
    for call in calls:
        with pytest.raises(ValueError, match="not a suit"):
            call()
    with pytest.raises(ValueError, match="not a suit"):
        marriage_suits(SWEEP_HANDS[0], Seat.N, [None], [])
