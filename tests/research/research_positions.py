"""Random deals for the research tests: every position of a random legal deal, in any variant,
with marriages, questions and partners choosing among several marriages made frequent."""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import strategies as st

from valtti.engine import CardSet, Deal, Seat, Variant, marriage_suits
from valtti.engine.actions import ASK_WHOLE
from valtti.engine.variant import SWITCHES

#: Every combination of the variant switches' values.
variants = st.fixed_dictionaries(
    {name: st.sampled_from(values) for name, values in SWITCHES.items()}
).map(lambda d: Variant(**d))


def rich_hands(rng: random.Random) -> list[CardSet]:
    """Hands in which most K+Q pairs sit in one hand, and often two pairs in one hand."""
    deck = list(range(36))
    rng.shuffle(deck)
    hands = [deck[9 * i : 9 * i + 9] for i in range(4)]
    owner = rng.randrange(4)
    for suit in range(4):
        if rng.random() < 0.3:
            continue
        target = hands[owner if rng.random() < 0.6 else rng.randrange(4)]
        for card in (9 * suit + 6, 9 * suit + 5):
            if card in target:
                continue
            holder = next(h for h in hands if card in h)
            spare = [c for c in target if c % 9 not in (5, 6)]
            if not spare:
                continue
            swap = rng.choice(spare)
            target[target.index(swap)] = card
            holder[holder.index(card)] = swap
    return [CardSet(h) for h in hands]


def positions(seed: int, variant: Variant, answer_steps: bool = False) -> Iterator[Deal]:
    """Every position of one random legal deal, its end included (``answer_steps``: ``Deal``'s)."""
    rng = random.Random(seed)
    hands = rich_hands(rng) if seed % 4 else Deal.shuffled(rng, Seat.N).hands
    deal = Deal(hands, Seat(rng.randrange(4)), variant, answer_steps=answer_steps)
    while True:
        yield deal
        if deal.is_over():
            return
        legal = deal.legal_actions()
        # Questions first, half the time: they are what the tensors must hide best.
        asks = [a for a in legal if a >= 40]
        pool = asks if asks and rng.random() < 0.5 else legal
        deal.apply(pool[rng.randrange(len(pool))])


def partner_marriages(deal: Deal) -> int:
    """How many marriages the partner of the seat to move could name, were it asked whole now."""
    seat = deal.current_player
    assert seat is not None
    declared = [m.suit for m in deal.marriages]
    return len(marriage_suits(deal.hand(seat.partner), seat.partner, declared, deal.locked))


def asks_whole_of(deal: Deal, marriages: int) -> bool:
    """Whether the seat to move may ask whole now, its partner holding ``marriages``."""
    return deal.is_legal(ASK_WHOLE) and partner_marriages(deal) == marriages


def plain_move(deal: Deal) -> int:
    """The first legal card, or the first legal action where no card is: a deal played so
    never declares nor asks, and each trick's winner may then ask whole (no trumps)."""
    legal = deal.legal_numbers()
    return next((a for a in legal if a < 36), legal[0])
