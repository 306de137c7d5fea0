"""The hint of one table: for the seat to move, what the PIMC computer player makes of each
legal move (docs/WEB.md, Hints), made in a worker once per point of the match.

A hint is made from the asking seat's observation alone, and only that seat's connections
are sent it: it tells nobody anything the seat may not know (RULES.md 7). A table makes one
hint at a time: asking at a newer point drops the older point's hint, so asking and playing
fast piles up no work; and ``Bots.hint`` makes few at once for the whole server.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable

from valtti.engine import Observation
from valtti.web.referee.bots import Bots, Moves
from valtti.web.referee.connection import Connection
from valtti.web.referee.errors import RoomError

log = logging.getLogger(__name__)


class Hints:
    """The hint of the latest point a hint was asked at, being made or made."""

    def __init__(self, bots: Bots) -> None:
        self._bots = bots
        self._made: tuple[int, asyncio.Task[Moves]] | None = None

    def ask(self, point: int, observation: Observation) -> asyncio.Task[Moves]:
        """The hint of the seat to move at ``point``: the one asked for already (failed too:
        it is not made again at that point), unless it was dropped; else a new one."""
        made = self._made
        if made is not None and made[0] == point and not made[1].cancelled():
            return made[1]
        self.close()
        task = asyncio.ensure_future(self._bots.hint(observation))
        self._made = (point, task)
        return task

    def close(self) -> None:
        """Drop the hint being made, if any (a newer point, or the room closes)."""
        if self._made is not None:
            self._made[1].cancel()
            self._made = None

    async def send(
        self,
        connection: Connection,
        seq: int,
        point: int,
        moves: asyncio.Task[Moves],
        point_now: Callable[[], int],
        table_id: str,
    ) -> None:
        """Send ``connection`` the hint frame of ``seq`` once ``moves`` (asked at ``point``) are
        made; ``unavailable`` instead when they failed, or were dropped with the workers that
        were replaced while the table (``point_now``) is still at that point."""
        try:
            frame = json.dumps({"type": "hint", "seq": seq, **await asyncio.shield(moves)})
        except asyncio.CancelledError:
            if not moves.cancelled():
                raise  # this task is cancelled: the room closes
            # The hint was dropped: for a newer point (nothing to say), or with the workers
            # that were replaced while it waited.
            if point_now() != point:
                return
        except Exception:
            log.exception("table %s: a hint failed", table_id)
        else:
            connection.send(frame)
            return
        connection.send(RoomError("unavailable", "no hint could be made; ask again").frame())
