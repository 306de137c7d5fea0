"""Seeds from parts, the same in every process and on every machine; and the seed of a position
as one seat knows it.

``derive_seed`` is the project's one seed function (``valtti.table.seeds`` derives a match's
seeds with it). ``position_seed`` seeds what is computed for a seat from its knowledge alone,
a hint: the same position gives the same seed wherever it is met (a game, a web table, a
record), and it is made of nothing that seat may not know.
"""

from __future__ import annotations

import hashlib

from valtti.engine.observation import Observation


def derive_seed(*parts: object) -> int:
    """A seed from ``parts`` (ints and strings: write a seat as ``str(seat)``), the same everywhere.

    53 bits, so that a bot reading the seed from JSON as a double (JavaScript) gets it exactly.
    """
    digest = hashlib.sha256(repr(parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 11


def position_seed(observation: Observation, what: str) -> int:
    """The seed of ``what`` (``"hint"``) at the position ``observation`` shows its seat: the
    rules, the match score, the dealer, the public actions of the deal so far, whether an
    answer is awaited, and the seat's own hand. Which deal of a match it is does not count: the
    same position is the same hint."""
    return derive_seed(
        what,
        repr(observation.variant),
        observation.score or (0, 0),
        str(observation.dealer),
        str(observation.seat),
        observation.hand.tokens(),
        [str(a) for a in observation.history],
        str(observation.phase),
        None if observation.asker is None else str(observation.asker),
    )
