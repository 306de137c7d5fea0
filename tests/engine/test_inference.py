"""What the engine says the public record proves (``engine.constraints``, RULES.md 7.3).

Rule by rule on small cases, then on random deals of every variant: the constraints hold for
the true hands, every seat's observation proves the same, a play proves exactly what legality
says, and the knowledge settled from them is what the old hand-written derivation gave
(``old_knowledge``, a frozen copy kept as the reference).
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import old_knowledge
from hidden_hands import deal_of, play
from strategies import marriage_hands, variants
from valtti.engine import (
    ActionKind,
    Card,
    CardSet,
    Deal,
    Match,
    Observation,
    PairConstraint,
    Phase,
    Seat,
    Suit,
    Variant,
    beats_card,
    constraints,
    deal_hands,
    marriage_suits,
    play_shows,
    trick_winner,
    window_actions,
)
from valtti.engine.variant import SWITCHES
from valtti.players.knowledge import Knowledge, infer

N, E, S, W = Seat
H, C = Suit.H, Suit.C


def cards(text: str) -> CardSet:
    return CardSet.parse(text)


def card(text: str) -> int:
    return Card.parse(text)


# -- trick winning ---------------------------------------------------------------------------------


def test_beats_card_follows_rules_3_1() -> None:
    assert beats_card(card("AS"), card("TS"), None)
    assert not beats_card(card("TS"), card("AS"), None)
    assert not beats_card(card("6H"), card("9S"), None)  # another suit, no trumps
    assert beats_card(card("6H"), card("AS"), H)  # a trump over a non-trump
    assert not beats_card(card("AS"), card("6H"), H)
    assert beats_card(card("7H"), card("6H"), H) and not beats_card(card("6H"), card("7H"), H)


def test_trick_winner_is_the_position_of_the_winning_card() -> None:
    assert trick_winner([card("9S")], None) == 0
    assert trick_winner([card(c) for c in ("9S", "6H", "AS", "7S")], H) == 1  # worked case 2
    assert trick_winner([card(c) for c in ("9S", "6H", "AS", "7S")], None) == 2
    assert trick_winner([card(c) for c in ("AC", "JH", "QH")], H) == 2  # worked case 3


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="no winner"):
        trick_winner([], None)
    for bad in (36, -1, True, "AS"):
        with pytest.raises(ValueError, match="not a card"):
            beats_card(bad, 0, None)
    with pytest.raises(TypeError, match="Variant"):
        play_shows(0, [], None, 1, "default")


# -- what a play proves ---------------------------------------------------------------------------

DEFAULT = Variant()


def shows(played: str, before: str, trump: Suit | None, variant: Variant = DEFAULT) -> CardSet:
    return play_shows(card(played), [card(c) for c in before.split()], trump, 2, variant)


def test_following_under_shows_no_card_that_beats() -> None:
    assert shows("6S", "9S", None) == cards("JS QS KS TS AS")  # worked case 1
    assert shows("JS", "9S", None) == CardSet()  # it beat the nine
    assert shows("7S", "9S 6H", H) == CardSet()  # 3.2a: the trick was trumped, any spade


def test_not_following_shows_a_void_and_no_trumps() -> None:
    assert shows("6D", "AC", None) == CardSet(C.mask)
    assert shows("6D", "AC", H) == CardSet(C.mask | H.mask)
    assert shows("6H", "AC", H) == CardSet(C.mask)  # it trumped
    assert shows("6D", "AH", H) == CardSet(H.mask)  # trumps led: the void is all


def test_over_a_trumped_trick_each_switch_counts() -> None:
    # Worked case 4: T hearts, N leads A clubs, E trumps with the queen.
    assert shows("9H", "AC QH", H) == cards("KH TH AH") | CardSet(C.mask)
    assert shows("9H", "AC QH", H, Variant(must_overtrump=False)) == CardSet(C.mask)
    assert shows("AD", "AC QH", H) == CardSet(C.mask | H.mask)
    optional = Variant(must_trump_if_cannot_overtrump=False)
    assert shows("AD", "AC QH", H, optional) == cards("KH TH AH") | CardSet(C.mask)
    both = Variant(must_overtrump=False, must_trump_if_cannot_overtrump=False)
    assert shows("AD", "AC QH", H, both) == cards("KH TH AH") | CardSet(C.mask)


def test_the_first_trick_ace() -> None:
    on = Variant(first_trick_ace="on")
    aces = cards("AS AH AD AC")
    assert play_shows(card("KS"), [], None, 1, on) == aces
    assert play_shows(card("AS"), [], None, 1, on) == CardSet()
    assert play_shows(card("KS"), [], None, 2, on) == CardSet()
    assert play_shows(card("KS"), [], None, 1, DEFAULT) == CardSet()


# -- what declarations, questions and answers prove ----------------------------------------------


HALF_NO = (
    "AC 6C 7C 8C 9C JC KH 9H AS",
    "QC 6S 7S 8S 6D 7D 8D QH JD",
    "KC JH 9D TH AH 9S JS TS QD",
    "TC 6H 7H 8H QS KS KD TD AD",
)


def test_ask_half_no_shows_exactly_one_and_partner_neither() -> None:
    deal = play(deal_of(*HALF_NO), "AC, QC, KC, TC, ask-half H")
    public = constraints(deal.observation(W))
    hearts = cards("KH QH")
    assert public.pairs == (PairConstraint(N, hearts, frozenset({1})),)
    assert hearts.mask & ~public.absent[S].mask == 0
    assert public.holds(deal.hands)
    play(deal, "KH")  # the asker shows its card: it held no queen, and the pair is settled
    public = constraints(deal.observation(W))
    assert not public.pairs and cards("QH").mask & ~public.absent[N].mask == 0


def test_declare_shows_the_unplayed_marriage_cards() -> None:
    hands = (
        "AC 6C 7C 8C 9C JC KH QH AS",
        "QC 6S 7S 8S 6D 7D 8D 9D JD",
        "KC JH 9H TH AH 9S JS TS QD",
        "TC 6H 7H 8H QS KS KD TD AD",
    )
    deal = play(deal_of(*hands), "AC, QC, KC, TC, declare H")
    assert constraints(deal.observation(E)).present[N] == cards("KH QH")
    play(deal, "KH")
    assert constraints(deal.observation(E)).present[N] == cards("QH")


def test_the_club_ace_is_known_on_the_first_deal_of_a_match_only() -> None:
    match = Match(Variant(first_forehand="club_ace_holder"))
    deal = match.start_deal(rng=random.Random(3))
    first = match.observation(deal.forehand.left)
    assert first.deal_number == 1
    assert constraints(first).present[deal.forehand] == cards("AC")
    assert not constraints(deal.observation(deal.forehand.left)).present[deal.forehand]
    # The number decides, not the score: before, a 0-0 score was taken for the first deal.
    second = dataclasses.replace(first, deal_number=2, score=(0, 0))
    assert not constraints(second).present[deal.forehand]
    assert not infer(second).known[deal.forehand]
    alone = dataclasses.replace(deal.observation(deal.forehand.left), deal_number=1)
    assert infer(alone).known[deal.forehand] == cards("AC")


def test_window_actions_are_those_a_window_allows() -> None:
    hands = (
        "AC 6C 7C 8C 9C JC KH QH AS",
        "QC 6S 7S 8S 6D 7D 8D 9D JD",
        "KC JH 9H TH AH 9S JS TS QD",
        "TC 6H 7H 8H QS KS KD TD AD",
    )
    deal = deal_of(*hands)
    before = [str(a) for a in window_actions(deal.observation(N))]
    assert before == ["declare H", "ask-whole"]  # what N could do if it won a trick
    play(deal, "AC, QC, KC, TC")
    assert [str(a) for a in window_actions(deal.observation(N))] == before
    play(deal, "declare H")
    # Hearts are declared and NS made trumps (not_trump_team): nothing is left for N.
    assert window_actions(deal.observation(N)) == []
    # W holds K+Q of spades and the king of diamonds without the queen.
    assert [str(a) for a in window_actions(deal.observation(W))] == [
        "declare S",
        "ask-whole",
        "ask-half D",
    ]


def test_marriage_suits_are_the_undeclared_pairs_of_an_unlocked_seat() -> None:
    hand = cards("KS QS KH QH KD 6C")
    assert marriage_suits(hand, N, [], []) == [Suit.S, H]
    assert marriage_suits(hand, N, [Suit.S], [E]) == [H]
    assert marriage_suits(hand, N, [], [N]) == []
    assert marriage_suits(hand.mask, S, [H], [N]) == [Suit.S]


# -- random deals of every variant -----------------------------------------------------------------

#: Every value of every switch, each drawn with the others at random.
SWITCH_VALUES = [(name, value) for name, values in SWITCHES.items() for value in values]
RANDOM = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
hands_st = st.one_of(
    marriage_hands().map(lambda hs: [CardSet.parse(h) for h in hs]),
    st.integers(0, 2**64 - 1).map(lambda seed: list(deal_hands(random.Random(seed)))),
)
choices_st = st.lists(st.integers(0, 2**16 - 1), min_size=60, max_size=60)


def as_old(k: Knowledge) -> tuple[object, ...]:
    """The fields of a knowledge, with its pair constraints as plain tuples."""
    return (
        k.observer,
        k.unseen,
        k.hand_sizes,
        k.possible,
        k.known,
        k.voids,
        tuple((c.seat, c.cards, c.counts) for c in k.constraints),
    )


def assert_like_old(observation: Observation) -> None:
    old = old_knowledge.infer(observation)
    assert as_old(infer(observation)) == (
        old.observer,
        old.unseen,
        old.hand_sizes,
        old.possible,
        old.known,
        old.voids,
        tuple((c.seat, c.cards, c.counts) for c in old.constraints),
    )


@pytest.mark.parametrize(("switch", "value"), SWITCH_VALUES)
@RANDOM
@given(
    variant=variants,
    dealer=st.sampled_from(list(Seat)),
    first=hands_st,
    second=hands_st,
    choices=choices_st,
)
def test_constraints_hold_agree_between_seats_and_lose_nothing(
    switch: str,
    value: object,
    variant: Variant,
    dealer: Seat,
    first: list[CardSet],
    second: list[CardSet],
    choices: list[int],
) -> None:
    """Through two deals of a match, at every position: the constraints hold for the true
    hands; all four seats' observations prove the same; the knowledge each seat settles from
    them equals the old derivation's; a window offers what the window's legal actions are."""
    variant = dataclasses.replace(variant, **{switch: value})
    match = Match(variant, dealer)
    for hands in (first, second):
        deal = match.start_deal(hands)
        step = 0
        while True:
            observations = [match.observation(seat) for seat in Seat]
            public = [constraints(o) for o in observations]
            assert public[1:] == public[:1] * 3
            assert public[0].holds(deal.hands)
            for observation in observations:
                assert_like_old(observation)
            mover = deal.current_player
            if deal.phase is Phase.DECLARATION:
                assert mover is not None
                opened = [a for a in deal.legal_actions() if a.kind is not ActionKind.PLAY]
                assert window_actions(observations[mover]) == opened
            if deal.is_over():
                break
            legal = deal.legal_actions()
            deal.apply(legal[choices[step % len(choices)] % len(legal)])
            step += 1
        if match.is_over():
            break


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=variants, dealer=st.sampled_from(list(Seat)), hands=hands_st, choices=choices_st)
def test_a_play_proves_exactly_what_legality_says(
    variant: Variant, dealer: Seat, hands: list[CardSet], choices: list[int]
) -> None:
    """For the player to move and any unplayed card: given the card, a hand may play it exactly
    when it holds none of what ``play_shows`` says the play proves. Checked on the true hand
    and on hands with the card swapped in from another seat (``Deal.with_hands``)."""
    deal = Deal(hands, dealer, variant)
    rng = random.Random(choices[0])
    step = 0
    while not deal.is_over():
        mover = deal.current_player
        assert mover is not None
        if deal.phase is not Phase.ANSWER:
            trick = deal.current_trick
            assert trick is not None
            now = deal.hands
            for c in CardSet(sum(h.mask for h in now)):
                shown = play_shows(c, trick.cards, deal.trump, trick.number, variant)
                holder = next(s for s in Seat if c in now[s])
                mine = list(now[mover])
                outs = [c] if holder == mover else rng.sample(mine, min(2, len(mine)))
                for out in outs:
                    swapped = list(now)
                    swapped[mover] = now[mover] - CardSet([out]) | CardSet([c])
                    swapped[holder] = now[holder] - CardSet([c]) | CardSet([out])
                    hand = swapped[mover].mask
                    assert deal.with_hands(swapped).is_legal(c) == (not hand & shown.mask)
        legal = deal.legal_actions()
        deal.apply(legal[choices[step % len(choices)] % len(legal)])
        step += 1
