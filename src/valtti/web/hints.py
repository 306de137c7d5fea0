"""The hints of one table: for the seat to move, what the hard computer player makes of each
legal move (docs/WEB.md, Hints), made once per seat and point of the match, in a worker.

A hint is made from the asking seat's observation alone, and only that seat's connections
are sent it: it tells nobody anything the seat may not know (RULES.md 7).
"""

from __future__ import annotations

import asyncio
from typing import Any

from valtti.engine import Observation, Seat
from valtti.web.bots import Bots

Moves = list[dict[str, Any]]


class Hints:
    """The hint being made, or made, for each seat at its latest point."""

    def __init__(self, bots: Bots) -> None:
        self._bots = bots
        self._made: dict[Seat, tuple[int, asyncio.Future[Moves]]] = {}

    def ask(
        self, seat: Seat, point: int, seed: int, observation: Observation
    ) -> asyncio.Future[Moves]:
        """The hint for ``seat`` to move at ``point``: the one begun already, unless it failed
        (then it is made again), else a new one from ``observation``."""
        made = self._made.get(seat)
        if made is not None and made[0] == point:
            future = made[1]
            if not future.done() or (not future.cancelled() and future.exception() is None):
                return future
        future = asyncio.ensure_future(self._bots.hint(seed, observation))
        self._made[seat] = (point, future)
        return future
