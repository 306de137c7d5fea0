"""A bot that tries to learn the hidden hands from the arena's seeds (docs/PROTOCOL.md, "A fair
arena"), for tests/test_arena_fairness.py. It plays the first legal action; what it is for is
the attacks a bot of others could make:

1. Its ``match`` message's seed: it tries the arena seeds a person would give (0–63) and the
   first matches, halves and seats, until ``derive_seed(arena seed, "player", …)`` gives that
   seed; the arena seed then deals every card of the run.
2. Its own nine cards: it deals the first deals of those arena seeds' first matches and looks
   its hand up among them.

For each deal it appends a JSON line to the file named by its first argument: whether it named
the four hands, and, once the deal is over and every card has been seen, whether they were
right.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from valtti.table.seeds import deal_cards, derive_seed

SEATS = "NESW"
ARENA_SEEDS = range(64)
MATCHES = range(24)
DEALS = range(1, 4)

Hands = tuple[frozenset[str], ...]  # N E S W


def crack_seed(seed: int) -> int | None:
    """The arena seed that ``seed`` was derived from as a player's seed, if it is a small one."""
    for arena in ARENA_SEEDS:
        for number in MATCHES:
            for half in "AB":
                for seat in SEATS:
                    if derive_seed(arena, "player", number, half, seat) == seed:
                        return arena
    return None


def hands(match_seed: int, number: int) -> Hands:
    return tuple(frozenset(hand.tokens()) for hand in deal_cards(match_seed, number))


def dealt_by_small_seeds() -> dict[frozenset[str], Hands]:
    """Every hand of the first deals of the small arena seeds' first matches, with its deal."""
    known = {}
    for arena in ARENA_SEEDS:
        for number in MATCHES:
            for deal in DEALS:
                four = hands(derive_seed(arena, "match", number), deal)
                known.update({hand: four for hand in four})
    return known


def played_hands(observation: dict[str, Any]) -> Hands:
    """The four hands as the deal's nine tricks showed them."""
    held: list[set[str]] = [set(), set(), set(), set()]
    for trick in observation["tricks"]:
        first = SEATS.index(trick["leader"])
        for i, card in enumerate(trick["cards"]):
            held[(first + i) % 4].add(card)
    return tuple(frozenset(h) for h in held)


def main() -> None:
    report = open(sys.argv[1], "a", encoding="utf-8")  # noqa: SIM115 (the bot's whole life)
    known = dealt_by_small_seeds()
    arena: int | None = None
    named: Hands | None = None
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            print(json.dumps({"type": "hello", "protocol": 1, "name": "seed attack"}), flush=True)
        elif kind == "match":
            arena = None if message["seed"] is None else crack_seed(message["seed"])
        elif kind == "deal":
            own = frozenset(message["observation"]["hand"])
            named = known.get(own)
            if named is None and arena is not None:
                for number in MATCHES:
                    four = hands(derive_seed(arena, "match", number), message["number"])
                    if own in four:
                        named = four
        elif kind == "act":
            print(json.dumps({"action": message["legal"][0]}), flush=True)
        elif kind == "deal_end":
            right = named is not None and named == played_hands(message["observation"])
            print(
                json.dumps(
                    {"cracked": arena is not None, "named": named is not None, "right": right}
                ),
                file=report,
                flush=True,
            )
        elif kind == "quit":
            return


if __name__ == "__main__":
    main()
