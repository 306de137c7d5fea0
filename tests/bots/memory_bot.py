"""A bot that reads the host's memory (tests/arena/test_arena_fairness.py): it scans the writable
memory of its parent process (``/proc/PPID/mem``, the arena's worker when it runs unconfined)
for the engine's four 9-card hands, four 64-bit masks side by side that share no card and make
the whole deck, its own among them at its seat."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import spy

from valtti.engine import CardSet

DECK = (1 << 36) - 1
#: Bytes read of any one mapping: the engine's state is in the heap, not in huge mappings.
MAPPING_LIMIT = 256 << 20


def scan(pid: int, own: int, seat: int) -> tuple[int, ...] | None:
    with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/mem", "rb", 0) as mem:
        for line in maps:
            fields = line.split()
            start, end = (int(x, 16) for x in fields[0].split("-"))
            if "rw" not in fields[1] or end - start > MAPPING_LIMIT:
                continue
            try:
                mem.seek(start)
                data = mem.read(end - start)
            except OSError:
                continue
            words = np.frombuffer(data[: len(data) // 8 * 8], dtype="<u8")
            for i in np.flatnonzero(words == own):
                first = int(i) - seat
                if first < 0 or first + 4 > len(words):
                    continue
                four = tuple(int(w) for w in words[first : first + 4])
                union = 0
                for hand in four:
                    if hand & union or hand.bit_count() != 9:
                        break
                    union |= hand
                else:
                    if union == DECK:
                        return four
    return None


def guess(match: dict[str, Any], message: dict[str, Any]) -> spy.Hands | None:
    observation = message["observation"]
    seat = spy.SEATS.index(observation["seat"])
    own = CardSet.parse(" ".join(spy.seen_by(observation)[observation["seat"]])).mask
    four = scan(os.getppid(), own, seat)
    if four is None:
        return None
    return tuple(frozenset(CardSet(mask).tokens()) for mask in four)


if __name__ == "__main__":
    spy.play("memory attack", guess)
