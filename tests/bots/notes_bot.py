"""Copies of one bot that leave each other notes (tests/test_arena_fairness.py): each writes its
seat and nine cards, with the deal's number and dealer, to a file of its own in a folder of the
machine's /tmp (``notes=FOLDER``, its first argument, so that each run has its own), and reads
every note there. Two halves of a duplicate pair deal the same cards with the teams swapped, so
the copies of one bot hold all four seats between them: a copy that finds notes of the same deal
of hands that, with its own, make the whole deck, and agree with what each seat has played,
names every hand."""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path
from typing import Any

import spy

NOTES = Path(sys.argv[1].partition("=")[2] if len(sys.argv) > 1 else "/tmp/valtti-notes")


def guess(match: dict[str, Any], message: dict[str, Any]) -> spy.Hands | None:
    observation = message["observation"]
    me = observation["seat"]
    seen = spy.seen_by(observation)
    own = frozenset(seen[me])
    deal = [observation["deal_number"], observation["dealer"]]
    try:
        NOTES.mkdir(parents=True, exist_ok=True)
        (NOTES / f"{me}-{''.join(sorted(own))}.json").write_text(
            json.dumps({"seat": me, "hand": sorted(own), "deal": deal})
        )
        notes = [json.loads(p.read_text()) for p in NOTES.glob("*.json")]
    except (OSError, ValueError):
        return None
    notes = [n for n in notes if n["deal"] == deal]
    others = [s for s in spy.SEATS if s != me]
    by_seat = {
        s: {frozenset(n["hand"]) for n in notes if n["seat"] == s and seen[s] <= set(n["hand"])}
        for s in others
    }
    deck = {f"{r}{s}" for r in "6789TJQKA" for s in "SHDC"}
    for first, second in itertools.combinations(others, 2):
        for a, b in itertools.product(by_seat[first], by_seat[second]):
            rest = deck - own - a - b
            if len(rest) == 9 and not a & b and not (a | b) & own:
                third = next(s for s in others if s not in (first, second))
                if seen[third] <= rest:
                    hands = {me: own, first: a, second: b, third: frozenset(rest)}
                    return tuple(hands[s] for s in spy.SEATS)
    return None


if __name__ == "__main__":
    spy.play("notes attack", guess)
