"""Finished matches' reviews (docs/REVIEW.md): each made once, in the background as soon as a
match a person played ends (else when first asked for), in the computer players' idle process
at the lowest CPU priority (``Bots.idle``), so that play at every table goes on at its pace;
one review at a time, one someone waits for before those nobody has asked for yet. Each is kept
in the store with its match (served from there, after a restart too) and, for the latest
``KEPT``, in memory."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from datetime import UTC, datetime
from typing import Final

from sqlalchemy.exc import SQLAlchemyError

from valtti.engine import Match, Seat
from valtti.web.db.store import Store
from valtti.web.referee.bots import Bots, review_json
from valtti.web.referee.errors import RoomError
from valtti.web.referee.room import Room

#: Finished matches whose review is kept in memory too (or waits to be made).
KEPT: Final = 64

log = logging.getLogger(__name__)


class Reviews:
    """The reviews of one server's finished matches, over its ``store`` and ``bots``."""

    def __init__(self, store: Store, bots: Bots) -> None:
        self._store = store
        self._bots = bots
        #: Each match's review by its table's id, kept or being made, the latest last.
        self._made: OrderedDict[str, asyncio.Task[str]] = OrderedDict()
        #: The tables whose review someone asked for and has not had yet.
        self._asked: set[str] = set()
        #: Whether a review is being made; the others' turns, in the order they came.
        self._busy = False
        self._waiting: OrderedDict[str, asyncio.Future[None]] = OrderedDict()

    def begin(self, room: Room) -> None:
        """The match of ``room`` has just ended: make its review now, in the background, where
        a person played (a match of computer players alone is reviewed when asked for)."""
        if any(row.kind == "human" for row in room.seats):
            self._task(room).add_done_callback(self._logged)

    async def of(self, room: Room) -> str:
        """The review (JSON) of the people's seats in the finished match of ``room`` (every
        seat's where only computers played): the kept one, else the one being made (first in
        line from now on), else made now and kept. ``RoomError("review_failed")`` when it could
        not be made or read; asking again tries again."""
        self._asked.add(room.id)
        task = self._task(room)
        try:
            # Shielded: a client that leaves does not cancel the review the next one waits for.
            return await asyncio.shield(task)
        except Exception as e:
            log.warning("the review of table %s failed: %r", room.id, e)
            raise RoomError("review_failed", "the review could not be made; ask again") from e

    def close(self) -> None:
        """The server stops: reviews not made yet are dropped (made when next asked for)."""
        for task in self._made.values():
            task.cancel()

    def _task(self, room: Room) -> asyncio.Task[str]:
        """The review of ``room``'s match, kept or being made; begun anew after a failure."""
        task = self._made.get(room.id)
        if task is None or (task.done() and (task.cancelled() or task.exception() is not None)):
            assert room.match is not None
            people = [row.seat for row in room.seats if row.kind == "human"]
            task = asyncio.ensure_future(self._kept_or_made(room.id, room.match, people or None))
            self._made[room.id] = task
            self._forget_oldest()
        self._made.move_to_end(room.id)
        return task

    def _forget_oldest(self) -> None:
        """Keep ``KEPT`` reviews: the oldest beyond are forgotten (the store keeps them), one
        that waits for its turn unasked dropped (made when asked for)."""
        while len(self._made) > KEPT:
            table_id, task = self._made.popitem(last=False)
            if table_id in self._waiting and table_id not in self._asked:
                task.cancel()

    async def _kept_or_made(self, table_id: str, match: Match, seats: list[Seat] | None) -> str:
        try:
            kept = await asyncio.to_thread(self._store.review, table_id)
            if kept is not None:
                return kept
            await self._turn(table_id)
            try:
                # Made meanwhile by a twin of this task (one forgotten while it was made)?
                kept = await asyncio.to_thread(self._store.review, table_id)
                if kept is not None:
                    return kept
                made = await self._bots.idle(review_json, match, seats)
            finally:
                self._next()
        finally:
            self._asked.discard(table_id)
        try:
            await asyncio.to_thread(self._store.add_review, table_id, made, datetime.now(UTC))
        except SQLAlchemyError as e:
            # Served all the same, and kept in memory; a restart makes it again.
            log.warning("the review of table %s was not stored: %r", table_id, e)
        return made

    async def _turn(self, table_id: str) -> None:
        """Wait until no other review is being made and this one is next (``_next``); the
        worker is then this review's until it calls ``_next``."""
        if not self._busy:
            self._busy = True
            return
        ready = asyncio.get_running_loop().create_future()
        self._waiting[table_id] = ready
        try:
            await ready
        except asyncio.CancelledError:
            if self._waiting.get(table_id) is ready:
                del self._waiting[table_id]
            elif ready.done() and not ready.cancelled():
                self._next()  # handed the turn as it was cancelled: hand it on
            raise

    def _next(self) -> None:
        """A review is done: the next one's turn, the first asked for, else the first to come."""
        if not self._waiting:
            self._busy = False
            return
        asked = (table_id for table_id in self._waiting if table_id in self._asked)
        chosen = next(asked, next(iter(self._waiting)))
        self._waiting.pop(chosen).set_result(None)

    @staticmethod
    def _logged(task: asyncio.Task[str]) -> None:
        """A review made in the background that failed is said in the log (asked for, it is
        made again)."""
        if not task.cancelled() and task.exception() is not None:
            log.warning("the review made in the background failed: %r", task.exception())
