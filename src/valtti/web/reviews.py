"""Finished matches' reviews (docs/REVIEW.md): each made once, in a computer players' worker so
that the server's play is not held up and one review at a time, then kept in the store with its
match (served from there after a restart) and, for the latest ``KEPT`` asked, in memory."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from datetime import UTC, datetime
from typing import Final

from sqlalchemy.exc import SQLAlchemyError

from valtti.engine import Match, Seat
from valtti.web.bots import Bots, review_json
from valtti.web.db.store import Store
from valtti.web.errors import RoomError
from valtti.web.room import Room

#: Finished matches whose review is kept in memory too.
KEPT: Final = 64

log = logging.getLogger(__name__)


class Reviews:
    """The reviews of one server's finished matches, over its ``store`` and ``bots``."""

    def __init__(self, store: Store, bots: Bots) -> None:
        self._store = store
        self._bots = bots
        #: Each match's review by its table's id, kept or being made, the latest asked last.
        self._made: OrderedDict[str, asyncio.Task[str]] = OrderedDict()
        self._one_at_a_time = asyncio.Semaphore(1)

    async def of(self, room: Room) -> str:
        """The review (JSON) of the people's seats in the finished match of ``room`` (every
        seat's where only computers played): the kept one, else made now and kept.
        ``RoomError("review_failed")`` when it could not be made or read; asking again tries
        again."""
        task = self._made.get(room.id)
        if task is None or (task.done() and (task.cancelled() or task.exception() is not None)):
            assert room.match is not None
            people = [row.seat for row in room.seats if row.kind == "human"]
            task = asyncio.ensure_future(self._kept_or_made(room.id, room.match, people or None))
            self._made[room.id] = task
            while len(self._made) > KEPT:
                self._made.popitem(last=False)
        self._made.move_to_end(room.id)
        try:
            # Shielded: a client that leaves does not cancel the review the next one waits for.
            return await asyncio.shield(task)
        except Exception as e:
            log.warning("the review of table %s failed: %r", room.id, e)
            raise RoomError("review_failed", "the review could not be made; ask again") from e

    async def _kept_or_made(self, table_id: str, match: Match, seats: list[Seat] | None) -> str:
        kept = await asyncio.to_thread(self._store.review, table_id)
        if kept is not None:
            return kept
        async with self._one_at_a_time:
            made = await self._bots.run(review_json, match, seats)
        try:
            await asyncio.to_thread(self._store.add_review, table_id, made, datetime.now(UTC))
        except SQLAlchemyError as e:
            # Served all the same, and kept in memory; a restart makes it again.
            log.warning("the review of table %s was not stored: %r", table_id, e)
        return made
