"""RULES.md sections 2 and 3: the deal, the lead, winning tricks and what may be played."""

from __future__ import annotations

import pytest

from helpers import (
    TRUMP_HANDS,
    TRUMP_OPENING,
    autoplay,
    cards_legal,
    cs,
    drive,
    hands_of,
    legal,
    make_deal,
    play_pattern,
    split_last,
    sweep,
    trump_deal,
)
from valtti.engine import Card, Deal, Match, Phase, Seat, Suit, Variant

# -- 2. Deal and lead ---------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", list(Seat))
def test_forehand_is_left_of_dealer(dealer: Seat) -> None:
    deal = Deal(TRUMP_HANDS, dealer)
    assert deal.dealer == dealer
    assert deal.forehand == dealer.left
    assert deal.current_player == dealer.left
    assert deal.phase == Phase.PLAY


def test_next_dealer_is_this_deals_forehand() -> None:
    match = Match(Variant(), Seat.S)
    dealers = []
    forehands = []
    for _ in range(5):
        dealers.append(match.next_dealer)
        deal = play_pattern(match, split_last(2) if len(dealers) % 2 else sweep(0))
        forehands.append(deal.forehand)
        assert deal.dealer == dealers[-1]
    assert dealers == [Seat.S, Seat.W, Seat.N, Seat.E, Seat.S]
    assert forehands == [Seat.W, Seat.N, Seat.E, Seat.S, Seat.W]
    assert match.next_dealer == forehands[-1]


def test_every_deal_starts_without_trumps() -> None:
    match = Match(Variant(), Seat.W)
    first = play_pattern(match, sweep(2))
    assert first.trump == Suit.S
    second = match.start_deal(TRUMP_HANDS)
    assert second.trump is None
    assert second.trump_team is None
    assert second.events == ()
    assert Deal(TRUMP_HANDS, Seat.W).trump is None


# -- 3. Tricks: order, winner -------------------------------------------------------------------


def test_play_goes_clockwise_and_the_winner_leads_next() -> None:
    deal = make_deal(TRUMP_HANDS, "W")
    order = []
    for card in ["AS", "6S", "7S", "TS"]:
        order.append(deal.current_player)
        drive(deal, card)
    assert order == [Seat.N, Seat.E, Seat.S, Seat.W]
    assert deal.tricks[0].winner == Seat.N
    assert deal.current_player == Seat.N
    # Trick 2 is won by S (see below) and S leads trick 3.
    drive(deal, "declare H 6D 8H TH AD")
    assert deal.tricks[1].winner == Seat.S
    assert deal.current_player == Seat.S
    assert deal.current_trick.leader == Seat.S
    assert len(deal.tricks) == 2


def test_no_trumps_highest_card_of_led_suit_wins_not_a_higher_other_suit() -> None:
    hands = (
        cs("9S AS TS KS QS JS AH KH QH"),
        cs("AD TD KD QD JD 9D 8D 7D 6D"),
        cs("6S AC TC KC QC JC 9C 8C 7C"),
        cs("8S 7S 6C TH JH 9H 8H 7H 6H"),
    )
    deal = make_deal(hands, "W", "9S AD")
    # E's AD, the highest card so far, is not of the led suit: the 9S still wins.
    assert deal.winning_card == Card.parse("9S")
    drive(deal, "6S")
    assert deal.winning_card == Card.parse("9S")
    assert legal(deal) == {"8S", "7S"}
    drive(deal, "8S")
    assert deal.trump is None
    assert deal.tricks[0].winner == Seat.N


def test_higher_card_of_led_suit_takes_over() -> None:
    hands = (
        cs("9S AH KH QH JH 9H 8H 7H 6H"),
        cs("AD TD KD QD JD 9D 8D 7D 6D"),
        cs("6S AC TC KC QC JC 9C 8C 7C"),
        cs("8S 7S AS TS KS QS JS 6C TH"),
    )
    deal = make_deal(hands, "W", "9S AD 6S")
    assert legal(deal) == {"AS", "TS", "KS", "QS", "JS"}
    drive(deal, "JS")
    assert deal.tricks[0].winner == Seat.W
    assert deal.current_player == Seat.W


def test_trump_beats_higher_cards_of_led_suit_and_highest_trump_wins() -> None:
    deal = trump_deal("6D")
    assert deal.winning_card == Card.parse("6D")
    drive(deal, "8H")  # E trumps
    assert deal.winning_card == Card.parse("8H")
    drive(deal, "TH")  # S overtrumps
    assert deal.winning_card == Card.parse("TH")
    drive(deal, "AD")  # W's ace of the led suit does not beat a trump
    assert deal.winning_card is None  # the trick is complete
    assert deal.tricks[1].cards == tuple(Card.parse(c) for c in ("6D", "8H", "TH", "AD"))
    assert deal.tricks[1].winner == Seat.S


def test_trump_led_highest_trump_wins() -> None:
    deal = trump_deal("QH AH 7H 6H")
    assert deal.tricks[1].winner == Seat.E


# -- 3.2 what may be played ---------------------------------------------------------------------


def test_leader_may_play_any_card_even_holding_trumps() -> None:
    deal = trump_deal()
    assert deal.current_player == Seat.N
    assert cards_legal(deal) == {str(c) for c in deal.hand(Seat.N)}
    assert len(cards_legal(deal)) == 8


def test_leader_of_trick_1_may_play_any_card() -> None:
    deal = make_deal(TRUMP_HANDS, "W")
    assert legal(deal) == {str(c) for c in TRUMP_HANDS[0]}


def test_3_2a_follow_and_beat_the_led_suit_when_possible() -> None:
    # No trumps; N leads 9S; E holds KS 7S 6S: only the king beats the nine.
    hands = hands_of(N="9S", E="KS 7S 6S", S="8S", W="AS", void={"N": "S", "E": "S", "S": "S"})
    deal = make_deal(hands, "W", "9S")
    assert legal(deal) == {"KS"}


def test_3_2a_follow_any_card_of_led_suit_when_none_beats() -> None:
    hands = hands_of(N="KS", E="QS 7S 6S AD", void={"E": "S"})
    deal = make_deal(hands, "W", "KS")
    assert legal(deal) == {"QS", "7S", "6S"}


def test_3_2a_led_suit_is_trump_must_beat() -> None:
    deal = trump_deal("QH")
    assert legal(deal) == {"AH"}  # E holds AH 8H: only the ace beats the queen


def test_3_2a_led_suit_is_trump_cannot_beat_any_trump() -> None:
    deal = trump_deal("QH AH")
    assert legal(deal) == {"TH", "7H"}  # S cannot beat the ace: any heart, no other suit
    drive(deal, "7H")
    assert legal(deal) == {"9H", "JH", "6H"}


def test_3_2a_trick_trumped_any_card_of_led_suit() -> None:
    deal = trump_deal("6D 8H TH")
    assert deal.current_player == Seat.W
    # W holds AD TD KD, which beat the 6D, but the trick is trumped: any diamond, no trump.
    assert legal(deal) == {"AD", "TD", "KD"}


def test_3_2b_void_must_trump_any_trump_beats_a_non_trump() -> None:
    deal = trump_deal("6D")
    assert legal(deal) == {"AH", "8H"}


def test_3_2b_void_must_overtrump_when_possible() -> None:
    deal = trump_deal("6D 8H")
    assert legal(deal) == {"TH"}


def test_3_2b_void_cannot_overtrump_any_trump() -> None:
    deal = trump_deal("6D AH")
    assert legal(deal) == {"TH", "7H"}


def test_3_2c_void_without_trumps_set_any_card() -> None:
    deal = make_deal(TRUMP_HANDS, "W", "6D")
    assert deal.trump is None
    assert legal(deal) == {str(c) for c in TRUMP_HANDS[1]}  # E has no diamond


def test_3_2c_void_holding_no_trump_any_card() -> None:
    hands = hands_of(N="AS KH QH 6D", E="7D", S="8D", void={"W": "HD"})
    deal = make_deal(hands, "W", "AS")
    autoplay(deal, 3)
    drive(deal, "declare H 6D")
    autoplay(deal, 2)
    assert deal.current_player == Seat.W
    assert deal.trump == Suit.H
    assert legal(deal) == {str(c) for c in deal.hand(Seat.W)}
    assert len(legal(deal)) == 8


def test_3_3_must_beat_partners_card_when_following() -> None:
    # N leads KS, E cannot follow; S (N's partner) holds AS and 6S: must beat the partner.
    hands = hands_of(N="KS", E="", S="AS 6S", void={"E": "S", "S": "S", "W": "S"})
    deal = make_deal(hands, "W", "KS")
    autoplay(deal, 1)
    assert deal.winning_card == Card.parse("KS")
    assert legal(deal) == {"AS"}


def test_3_3_must_overtrump_partners_trump() -> None:
    hands = (
        cs("AS KH QH 6D 7D 8D 9D JD QD"),
        cs("6S 9H 8H AC TC KC QC JC 9C"),
        cs("7S TH 7H 8C 7C 6C 8S 9S JS"),
        cs("TS KS QS AH JH 6H AD TD KD"),
    )
    deal = make_deal(hands, "W", TRUMP_OPENING + " QH")
    assert legal(deal) == {"9H", "8H"}
    drive(deal, "8H")
    assert deal.winning_card == Card.parse("QH")  # N's, S's partner's
    assert legal(deal) == {"TH"}
    drive(deal, "TH")
    assert legal(deal) == {"AH"}  # W must beat too
