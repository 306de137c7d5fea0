"""A bot that tries to learn the hidden hands from the arena's seeds (docs/PROTOCOL.md, "A fair
arena"), for tests/arena/test_arena_fairness.py:

1. Its ``match`` message's seed: it tries the arena seeds a person would give (0–63) and the
   first matches, halves and seats, until ``derive_seed(arena seed, "player", …)`` gives that
   seed; the arena seed then deals every card of the run.
2. Its own nine cards: it deals the first deals of those arena seeds' first matches and looks
   its hand up among them.

Each deal it reports (``spy.report``) whether it named the four hands, whether rightly, and
whether it cracked the arena's seed.
"""

from __future__ import annotations

from typing import Any

import spy

from valtti.table.seeds import deal_cards, derive_seed

ARENA_SEEDS = range(64)
MATCHES = range(24)
DEALS = range(1, 4)


def crack_seed(seed: int) -> int | None:
    """The arena seed that ``seed`` was derived from as a player's seed, if it is a small one."""
    for arena in ARENA_SEEDS:
        for number in MATCHES:
            for half in "AB":
                for seat in spy.SEATS:
                    if derive_seed(arena, "player", number, half, seat) == seed:
                        return arena
    return None


def hands(match_seed: int, number: int) -> spy.Hands:
    return tuple(frozenset(hand.tokens()) for hand in deal_cards(match_seed, number))


def dealt_by_small_seeds() -> dict[frozenset[str], spy.Hands]:
    """Every hand of the first deals of the small arena seeds' first matches, with its deal."""
    known = {}
    for arena in ARENA_SEEDS:
        for number in MATCHES:
            for deal in DEALS:
                four = hands(derive_seed(arena, "match", number), deal)
                known.update({hand: four for hand in four})
    return known


def main() -> None:
    known = dealt_by_small_seeds()
    cracked: dict[int | None, int | None] = {}

    def guess(match: dict[str, Any], message: dict[str, Any]) -> spy.Hands | None:
        seed = match.get("seed")
        if seed not in cracked:
            cracked[seed] = None if seed is None else crack_seed(seed)
            spy.report(cracked=cracked[seed] is not None)
        observation = message["observation"]
        own = frozenset(spy.seen_by(observation)[observation["seat"]])
        named = known.get(own)
        arena = cracked[seed]
        if named is None and arena is not None:
            for number in MATCHES:
                four = hands(derive_seed(arena, "match", number), observation["deal_number"])
                if own in four:
                    named = four
        return named

    spy.play("seed attack", guess)


if __name__ == "__main__":
    main()
