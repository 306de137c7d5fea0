"""Every seed of a match, from the match seed by one function.

A match is reproducible from one integer: the first dealer, each deal's cards and each computer
decision have a seed of their own, ``derive_seed(match seed, what, where…)``. The same parts give
the same seed in every process, on every machine and every run.

Whoever knows a match's seed knows every hand of it: a seed nobody chose is ``fresh_seed()``.
"""

from __future__ import annotations

import random
import secrets

from valtti.engine import CardSet, Seat, deal_hands

# The one seed function lives in the engine, where a player may seed from a position too.
from valtti.engine.seeds import derive_seed as derive_seed


def fresh_seed() -> int:
    """A seed from the operating system's randomness, of ``derive_seed``'s 53 bits: too many to
    try, so that nobody, a bot at the table included, can guess it or work it out from a seed
    derived from it."""
    return secrets.randbits(53)


def first_dealer(seed: int) -> Seat:
    """The dealer of the first deal of the match with ``seed``."""
    return Seat(random.Random(derive_seed(seed, "first dealer")).randrange(4))


def deal_cards(seed: int, number: int) -> tuple[CardSet, ...]:
    """The hands N E S W of deal ``number`` (from 1) of the match with ``seed``."""
    return deal_hands(random.Random(derive_seed(seed, "deal", number)))


def decision_seed(seed: int, seat: Seat, point: int) -> int:
    """The seed of the decision of ``seat`` at ``point``: the number of actions of the whole
    match before it (every deal's, ``answer`` included)."""
    return derive_seed(seed, "decision", str(seat), point)
