"""A bot that times the host (tests/arena/test_arena_fairness.py): between its answer and the host's
next message the other seats act, and a computer player that answers a forced move at once but
thinks over a choice would tell by the length of that gap whether a hidden hand had a single
legal card (a void in the suit led, a last card).

It plays the first legal action, measures each gap (``time.monotonic``, from just after its
answer to just after the next message arrives) and, at the deal's end, when every hand is
known, replays the deal with valtti's engine to tell which opponents' moves in each gap were
forced. Each gap with an opponent's move in it is reported (``spy.report``): its length, the
trick of each opponent's move in it (public) and whether one of them was forced, leaving out
gaps with a move whose forcing everyone knew (a seat's last card). The test then asks how much
better the length tells the two apart than what is public does.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import spy

from valtti.engine import Action, CardSet, Deal, Seat, Variant


def forced_moves(
    match: dict[str, Any], end: dict[str, Any]
) -> list[tuple[str, int, bool | None]] | None:
    """Each public action of the deal: its seat, the tricks played before it, and whether it
    was that seat's only legal one, ``None`` where everyone knew it was (the seat's last card);
    ``None`` where the public history does not replay (an answer kept private)."""
    observation = end["observation"]
    hands = spy.played_hands(observation)
    deal = Deal(
        [CardSet.parse(" ".join(sorted(hand))) for hand in hands],
        Seat.parse(observation["dealer"]),
        Variant.from_mapping(match["variant"]),
    )
    moves = []
    try:
        for token in observation["history"]:
            seat = deal.current_player
            assert seat is not None
            known = len(deal.hand(seat)) == 1
            forced = None if known else len(deal.legal_actions()) == 1
            moves.append((str(seat), deal.tricks_played, forced))
            deal.apply(Action.parse(token))
    except (ValueError, AssertionError):
        return None
    return moves


def main() -> None:
    match: dict[str, Any] = {}
    gaps: list[tuple[float, int, int]] = []  # seconds, the history's length before and after
    answered: tuple[float, int] | None = None  # when, and the history's length with the answer
    for line in sys.stdin:
        arrived = time.monotonic()
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            spy.send({"type": "hello", "protocol": 1, "name": "timing attack"})
        elif kind == "match":
            match = message
        elif kind == "deal":
            gaps, answered = [], None
        elif kind in ("act", "deal_end"):
            length = len(message["observation"]["history"])
            if answered is not None:
                gaps.append((arrived - answered[0], answered[1], length))
            if kind == "act":
                spy.send({"action": message["legal"][0]})
                answered = (time.monotonic(), length + 1)
            else:
                answered = None
                moves = forced_moves(match, message)
                me = message["observation"]["seat"]
                mine = "NS" if me in "NS" else "EW"
                for seconds, before, after in gaps if moves is not None else ():
                    theirs = [(t, f) for s, t, f in moves[before:after] if s not in mine]
                    if theirs and all(f is not None for _, f in theirs):
                        tricks = [t for t, _ in theirs]
                        spy.report(
                            gap=round(seconds, 6), forced=any(f for _, f in theirs), tricks=tricks
                        )
        elif kind == "quit":
            return


if __name__ == "__main__":
    main()
