"""Shared by the knowledge and sampler tests: random deals and the engine as the judge of worlds.

A *world* is a guess at the four hands now. Whether it agrees with an observation is decided
here without the code under test: the public history is replayed on it by the engine
(``worlds.rebuild``), and the replayed deal must show the observer the very same observation.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Iterator

from valtti.engine import Action, CardSet, Deal, Observation, Seat, Variant
from valtti.engine.variant import SWITCHES
from valtti.players.worlds import rebuild

Hands = tuple[CardSet, CardSet, CardSet, CardSet]

#: Every combination of the variant switches.
VARIANTS = [
    Variant(**dict(zip(SWITCHES, values, strict=True)))
    for values in itertools.product(*SWITCHES.values())
]


def deal_of(n: str, e: str, s: str, w: str, variant: Variant | None = None) -> Deal:
    """A deal with the given hands, dealt by W so that N leads trick 1."""
    return Deal([CardSet.parse(h) for h in (n, e, s, w)], Seat.W, variant)


def play(deal: Deal, tokens: str) -> Deal:
    """Apply comma-separated action tokens; returns the deal."""
    for token in tokens.split(","):
        deal.apply(Action.parse(token))
    return deal


def marriage_rich_hands(rng: random.Random) -> Hands:
    """Random hands in which most K+Q pairs sit in one hand, so that declarations, questions
    with both answers and partners with several marriages come up often."""
    deck = list(range(36))
    rng.shuffle(deck)
    hands = [deck[9 * i : 9 * i + 9] for i in range(4)]
    for suit in range(4):
        king, queen = 9 * suit + 6, 9 * suit + 5
        at_king = next(h for h in hands if king in h)
        at_queen = next(h for h in hands if queen in h)
        spare = [c for c in at_king if c % 9 < 5]
        if at_king is not at_queen and spare and rng.random() < 0.7:
            swap = rng.choice(spare)
            at_king[at_king.index(swap)] = queen
            at_queen[at_queen.index(queen)] = swap
    return (CardSet(hands[0]), CardSet(hands[1]), CardSet(hands[2]), CardSet(hands[3]))


def random_game(seed: int, variant: Variant, rich: bool) -> Iterator[Deal]:
    """Every position of one random legal deal, from the first action to the end."""
    rng = random.Random(seed)
    hands = marriage_rich_hands(rng) if rich else Deal.shuffled(rng, Seat.N).hands
    deal = Deal(hands, Seat(rng.randrange(4)), variant)
    while True:
        yield deal
        if deal.is_over():
            return
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])


def agrees(observation: Observation, hands: Hands) -> bool:
    """Whether the public history replays on ``hands`` and shows the observer the same view."""
    try:
        seen = rebuild(observation, hands).observation(observation.seat)
    except ValueError:
        return False
    if not observation.legal_actions:
        # A seat to move with nothing to do: it asked whole and its partner chooses which
        # marriage to name, while the seat sees the deal before its question (RULES.md 7.2).
        seen = dataclasses.replace(seen, legal_actions=())
    return seen == observation


def all_worlds(observation: Observation) -> Iterator[Hands]:
    """Every way to give the unseen cards to the other seats in their hand sizes."""
    seat = observation.seat
    hidden = [s for s in Seat if s != seat]
    unseen = CardSet(((1 << 36) - 1) & ~observation.hand.mask & ~observation.played().mask)
    a, b, _ = (observation.hand_sizes[s] for s in hidden)
    for first in itertools.combinations(unseen, a):
        rest = unseen - CardSet(first)
        for second in itertools.combinations(rest, b):
            hands = [observation.hand] * 4
            hands[hidden[0]] = CardSet(first)
            hands[hidden[1]] = CardSet(second)
            hands[hidden[2]] = rest - CardSet(second)
            yield (hands[0], hands[1], hands[2], hands[3])
