"""What a seat infers about the hidden hands (RULES.md 7.3), rule by rule and on random deals.

The deals below are dealt by W, so N leads trick 1. Several start the same way: N leads the
ace of clubs, everyone else follows with their only club, and N wins and may declare or ask.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hidden_hands import VARIANTS, Hands, agrees, all_worlds, deal_of, play, random_game
from valtti.engine import CardSet, Deal, Match, Seat, Suit, Variant
from valtti.players.knowledge import Knowledge, PairConstraint, infer

N, E, S, W = Seat


def cards(text: str) -> CardSet:
    return CardSet.parse(text)


def swap(hands: Sequence[CardSet], x: str, y: str) -> Hands:
    """The hands with cards ``x`` and ``y`` changing places."""
    a, b = cards(x), cards(y)
    swapped = [h - a | b if a & h else h - b | a if b & h else h for h in hands]
    return (swapped[0], swapped[1], swapped[2], swapped[3])


def possible(k: Knowledge, seat: Seat, text: str) -> bool:
    """Whether every card of ``text`` may be in ``seat``'s hand."""
    return cards(text).mask & ~k.possible[seat].mask == 0


def impossible(k: Knowledge, seat: Seat, text: str) -> bool:
    """Whether no card of ``text`` may be in ``seat``'s hand."""
    return cards(text).mask & k.possible[seat].mask == 0


# -- cards, following, trumps ----------------------------------------------------------------------

FOLLOW = (
    "KS 9S 6H 7H 8H 9H 6D 7D 8D",
    "7S 6S JH QH KH TH AH 9D JD",
    "QS JS 8S 6C 7C 8C 9C JC QC",
    "AS TS QD KD TD AD KC TC AC",
)


def test_own_hand_exact_and_played_cards_nowhere() -> None:
    deal = play(deal_of(*FOLLOW), "KS, 7S")
    k = infer(deal.observation(S))
    assert k.possible[S] == k.known[S] == deal.hand(S)
    assert k.unseen == CardSet((1 << 36) - 1) - deal.hand(S) - cards("KS 7S")
    assert k.hand_sizes == (8, 8, 9, 9)
    for seat in (N, E, W):
        assert impossible(k, seat, "KS 7S") and impossible(k, seat, str(deal.hand(S)))
    assert k.voids[S] == frozenset({Suit.H, Suit.D})  # the observer's own voids


def test_not_beating_when_following_shows_no_higher_card() -> None:
    # N leads K♠; E, S cannot beat it (A and 10 beat a king), W must and does with 10♠.
    deal = play(deal_of(*FOLLOW), "KS, 7S, 8S, TS")
    k = infer(deal.observation(N))
    assert impossible(k, E, "AS") and impossible(k, S, "AS")
    assert k.known[W] == cards("AS")  # the only seat left for the ace
    assert possible(k, E, "6S") and possible(k, S, "QS JS")  # lower spades are still open


def test_not_following_shows_a_void() -> None:
    # W leads K♣ after winning trick 1: N and E have no clubs, S follows low.
    deal = play(deal_of(*FOLLOW), "KS, 7S, 8S, TS, KC, 6D, 9D")
    k = infer(deal.observation(S))
    assert Suit.C in k.voids[E] and Suit.C in k.voids[N]
    assert Suit.C not in k.voids[W] and possible(k, W, "AC TC")
    # No trumps yet: a void says nothing about any other suit.
    assert possible(k, E, "AH JD") and Suit.H not in k.voids[E]


def test_first_trick_ace_rule() -> None:
    on = infer(play(deal_of(*FOLLOW, Variant(first_trick_ace="on")), "KS").observation(E))
    off = infer(play(deal_of(*FOLLOW), "KS").observation(E))
    assert impossible(on, N, "AS AD AC")  # AH is E's own
    assert possible(off, N, "AS AD AC")


# N wins trick 1 with the ace of clubs and declares hearts; N then leads a club, E (no clubs, no
# hearts) discards, S trumps with J♥ and W (no clubs, only hearts below the jack) comes last.
TRUMPS = (
    "AC 6C 7C 8C 9C JC KH QH AS",
    "QC 6S 7S 8S 6D 7D 8D 9D JD",
    "KC JH 9H TH AH 9S JS TS QD",
    "TC 6H 7H 8H QS KS KD TD AD",
)
TRUMPED = "AC, QC, KC, TC, declare H, 6C, 6D, JH"


def test_not_trumping_shows_no_trumps() -> None:
    k = infer(play(deal_of(*TRUMPS), TRUMPED).observation(N))
    assert Suit.C in k.voids[E] and Suit.H in k.voids[E]
    assert Suit.C in k.voids[S] and possible(k, S, "TH AH 9H")  # S trumped: may hold more


def test_trumping_under_shows_no_higher_trump() -> None:
    k = infer(play(deal_of(*TRUMPS), TRUMPED + ", 7H").observation(N))
    assert impossible(k, W, "TH AH") and possible(k, W, "9H 6H 8H")
    assert k.known[S] & cards("TH AH") == cards("TH AH")  # E has no hearts, W none above J
    free = infer(
        play(deal_of(*TRUMPS, Variant(must_overtrump=False)), TRUMPED + ", 7H").observation(N)
    )
    assert possible(free, W, "TH AH")  # trumping under was allowed anyway


def test_discarding_over_a_trump_when_trumping_is_optional() -> None:
    variant = Variant(must_trump_if_cannot_overtrump=False)
    k = infer(play(deal_of(*TRUMPS, variant), TRUMPED + ", KD").observation(N))
    assert Suit.C in k.voids[W]
    assert impossible(k, W, "TH AH")  # holding a higher trump would have forced one
    assert possible(k, W, "6H 8H 9H")  # lower trumps did not


def test_following_a_trumped_trick_low_shows_nothing_more() -> None:
    # S leads Q♦, W beats it with K♦, N trumps: E may then follow with any diamond.
    deal = play(deal_of(*TRUMPS), TRUMPED + ", 7H, QD, KD, QH, 7D")
    k = infer(deal.observation(N))
    assert possible(k, E, "TD AD")


# -- declarations, questions, answers --------------------------------------------------------------

HALF_YES = (
    "AC 6C 7C 8C 9C JC KH 9H AS",
    "QC 6S 7S 8S 6D 7D 8D 9D JD",
    "KC JH QH TH AH 9S JS TS QD",
    "TC 6H 7H 8H QS KS KD TD AD",
)
HALF_NO = (
    "AC 6C 7C 8C 9C JC KH 9H AS",
    "QC 6S 7S 8S 6D 7D 8D QH JD",
    "KC JH 9D TH AH 9S JS TS QD",
    "TC 6H 7H 8H QS KS KD TD AD",
)
WON_FIRST = "AC, QC, KC, TC"
HEARTS = cards("KH QH")


def test_declare_shows_the_marriage_while_unplayed() -> None:
    deal = play(deal_of(*TRUMPS), "AC, QC, KC, TC, declare H")
    assert infer(deal.observation(E)).known[N] == HEARTS
    play(deal, "KH, 6S, TH, 6H")  # trumps led: S beats the king, W cannot
    k = infer(deal.observation(E))
    assert k.known[N] == cards("QH")
    assert impossible(k, W, "AH")


def test_ask_half_yes_seen_by_each_seat() -> None:
    deal = play(deal_of(*HALF_YES), WON_FIRST + ", ask-half H")
    opponent = infer(deal.observation(E))
    assert opponent.constraints == (PairConstraint(N, HEARTS, frozenset({1})),)
    assert impossible(opponent, W, "KH QH")
    assert possible(opponent, N, "KH QH") and possible(opponent, S, "KH QH")
    assert not opponent.known[N] & HEARTS and not opponent.known[S] & HEARTS
    asker = infer(deal.observation(N))
    assert asker.known[S] & HEARTS == cards("QH") and not asker.constraints
    partner = infer(deal.observation(S))
    assert partner.known[N] & HEARTS == cards("KH") and not partner.constraints


def test_ask_half_yes_settles_when_the_asker_plays_its_card() -> None:
    deal = play(deal_of(*HALF_YES), WON_FIRST + ", ask-half H, KH")
    k = infer(deal.observation(E))
    assert k.known[S] & HEARTS == cards("QH") and not k.constraints


def test_ask_half_no_seen_by_each_seat() -> None:
    deal = play(deal_of(*HALF_NO), WON_FIRST + ", ask-half H")
    exactly_one = (PairConstraint(N, HEARTS, frozenset({1})),)
    for seat in (S, W):  # the partner and the opponent without either card
        k = infer(deal.observation(seat))
        assert k.constraints == exactly_one
        assert impossible(k, S, "KH QH")
        assert possible(k, N, "KH QH")
    holder = infer(deal.observation(E))  # holds Q♥, so N must hold K♥
    assert holder.known[N] & HEARTS == cards("KH") and not holder.constraints
    play(deal, "KH")
    k = infer(deal.observation(W))
    assert impossible(k, N, "QH") and not k.constraints


def test_ask_whole_yes_shows_the_named_marriage() -> None:
    hands = (
        "AC 6C 7C 8C 9C JC KH 9H AS",
        "QC 6S 7S 8S 6D 7D 8D 9D JD",
        "KC JH QH TH AH 9S JS KD QD",
        "TC 6H 7H 8H QS KS TS TD AD",
    )
    deal = play(deal_of(*hands), WON_FIRST + ", ask-whole")
    assert deal.events[-1].yes and deal.events[-1].suit is Suit.D
    assert infer(deal.observation(E)).known[S] == cards("KD QD")


def test_ask_whole_no_from_an_unlocked_partner() -> None:
    # N wins tricks 1 and 2 (nobody else has a club left) and then asks.
    deal = play(deal_of(*HALF_NO), WON_FIRST + ", 6C, 6D, 9D, QS, ask-whole")
    not_both = frozenset({0, 1})
    # For W: K♣ is played, Q♠ too, K♦ is W's own: only S's hearts are in question.
    k = infer(deal.observation(W))
    assert k.constraints == (PairConstraint(S, HEARTS, not_both),)
    both = swap(deal.hands, "KH", "TH")  # S takes K♥ from N
    both = swap(both, "QH", "JH")  # and Q♥ from E
    assert not k.consistent(both) and not agrees(deal.observation(W), both)
    one = swap(deal.hands, "KH", "TH")
    assert k.consistent(one) and agrees(deal.observation(W), one)
    # For E, who holds Q♥: only the diamonds.
    assert infer(deal.observation(E)).constraints == (PairConstraint(S, cards("KD QD"), not_both),)


def test_ask_whole_no_from_a_locked_partner_shows_nothing() -> None:
    deal = play(deal_of(*HALF_NO), WON_FIRST + ", ask-half H, 6C, 6D, 9D, QS, ask-whole")
    k = infer(deal.observation(W))
    assert k.constraints == (PairConstraint(N, HEARTS, frozenset({1})),)  # the ask-half's only


def test_pending_answer_shows_nothing_but_the_named_marriage() -> None:
    hands = (
        "AC 6C 7C 8C 9C JC KH 9H AS",
        "QC 6S 7S 8S 6D 7D 8D 9D JD",
        "KC KD QD KS QS JH TH AH QH",
        "TC 6H 7H 8H 9S JS TS TD AD",
    )
    deal = play(deal_of(*hands), WON_FIRST + ", ask-whole")
    assert deal.current_player is S  # S chooses which marriage to name
    before = infer(play(deal_of(*hands), WON_FIRST).observation(E))
    k = infer(deal.observation(E))
    assert k == before  # that S has a choice is private (RULES.md 7.2)
    one_marriage = swap(deal.hands, "KS", "9S")  # W takes K♠ from S
    assert k.consistent(one_marriage) and agrees(deal.observation(E), one_marriage)
    play(deal, "answer D")
    k = infer(deal.observation(E))
    assert k.known[S] == cards("KD QD")  # the other marriage stays private
    assert possible(k, W, "KS QS")


def test_club_ace_holder_leads_the_first_deal_of_a_match() -> None:
    match = Match(Variant(first_forehand="club_ace_holder"))
    deal = match.start_deal(rng=random.Random(3))
    ace = cards("AC")
    observer = next(s for s in Seat if s != deal.forehand)
    assert infer(match.observation(observer)).known[deal.forehand] == ace
    assert not infer(deal.observation(observer)).known[deal.forehand]  # no score: not known
    deal.playout(random.Random(4))
    second = match.start_deal(rng=random.Random(5))
    observer = next(s for s in Seat if ace not in second.hand(s))
    assert not infer(match.observation(observer)).known[second.forehand]


# -- the whole check, and bad input ----------------------------------------------------------------


def test_consistent_checks_every_part() -> None:
    deal = play(deal_of(*HALF_YES), WON_FIRST + ", ask-half H")
    k = infer(deal.observation(E))
    truth = deal.hands
    assert k.consistent(truth)
    assert k.consistent(swap(truth, "KH", "QH"))  # either of N and S may hold the king
    assert not k.consistent(truth[:3])
    assert not k.consistent(swap(truth, "KH", "TH"))  # the pair constraint: S both, N none
    assert not k.consistent(swap(truth, "6S", "QS"))  # the observer's hand is exact
    assert not k.consistent(swap(truth, "QH", "6H"))  # W cannot hold Q♥
    assert not k.consistent([truth[0], truth[1], truth[2] | cards("6H"), truth[3] - cards("6H")])
    assert not k.consistent([truth[0], truth[1], truth[2], truth[2]])


def test_a_contradictory_observation_is_refused() -> None:
    deal = play(deal_of(*FOLLOW), "KS, 7S")
    bad = dataclasses.replace(deal.observation(S), hand_sizes=(8, 8, 9, 10))
    with pytest.raises(ValueError, match="contradicts"):
        infer(bad)


# -- random deals ----------------------------------------------------------------------------------

RANDOM = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@RANDOM
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(VARIANTS), rich=st.booleans())
def test_the_true_hands_are_always_consistent(seed: int, variant: Variant, rich: bool) -> None:
    for deal in random_game(seed, variant, rich):
        for seat in Seat:
            assert infer(deal.observation(seat)).consistent(deal.hands)


@settings(RANDOM, max_examples=25)
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(VARIANTS), rich=st.booleans())
def test_consistent_is_exactly_what_the_public_record_allows(
    seed: int, variant: Variant, rich: bool
) -> None:
    """Late in random deals, every world of the right sizes is judged by the knowledge exactly
    as by replaying the public record on it: nothing public is missed, nothing is invented."""
    for step, deal in enumerate(random_game(seed, variant, rich)):
        if sum(len(h) for h in deal.hands) > 12 or step % 2:
            continue
        observation = deal.observation(Seat(step // 2 % 4))
        k = infer(observation)
        for world in all_worlds(observation):
            assert k.consistent(world) == agrees(observation, world), world


def test_deal_without_hidden_cards() -> None:
    deal = Deal.shuffled(random.Random(0), Seat.N)
    deal.playout(random.Random(1))
    k = infer(deal.observation(E))
    assert k.hand_sizes == (0, 0, 0, 0) and not k.unseen and k.consistent(deal.hands)
