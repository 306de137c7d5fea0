"""The tables of one server: created here, or loaded from the store when first needed."""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from valtti.engine import Seat, Variant
from valtti.table import first_dealer, fresh_seed
from valtti.web.db.rows import Listed, ListedStatus, SeatRow, StoredTable, TableRow
from valtti.web.db.store import Store
from valtti.web.referee.bots import Bots
from valtti.web.referee.room import Room
from valtti.web.referee.seats import new_token, token_hash

log = logging.getLogger(__name__)

#: Summaries of finished tables kept for the lobby (at most as many as it lists, and some).
FINISHED_KEPT: Final = 1000
#: Finished tables kept in memory for their record and replay, the most recently asked for.
FINISHED_ROOMS: Final = 32
#: Tables on one page of the lobby's list (docs/WEB.md).
PAGE_SIZE: Final = 10
#: An unfinished table nobody has been connected to for this long is listed as idle.
IDLE_AFTER: Final = timedelta(minutes=10)
#: A finished table leaves the lobby's list this long after its match ended (its link, record
#: and replay stay).
LISTED_AFTER_FINISH: Final = timedelta(days=1)
#: Unfinished tables nobody has been connected to for this long are closed, by default
#: (``valtti serve --close-idle-hours``).
CLOSE_IDLE_AFTER: Final = timedelta(hours=24)
#: How often the server looks for such tables, at most.
SWEEP_SECONDS: Final = 60.0
#: A person's own tables the lobby may ask for at once (``GET /api/tables?ids=…``).
MAX_IDS: Final = 50
#: What a table id can be: this server makes them with ``secrets.token_urlsafe``. Anything
#: else (a NUL, which PostgreSQL cannot even compare) is no table's, unasked of the store.
TABLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")


class Rooms:
    """The tables of one server: created here, or loaded from the store when first needed.

    Unfinished tables stay in memory; finished ones only while someone watches them, and then
    the FINISHED_ROOMS most recently asked for (for their record and replay).
    """

    def __init__(
        self,
        store: Store,
        bots: Bots,
        bot_delay: float,
        next_deal_seconds: float = 0.0,
        close_idle_after: timedelta | None = CLOSE_IDLE_AFTER,
        on_finished: Callable[[Room], None] = lambda room: None,
    ) -> None:
        self.store = store
        self.next_deal_seconds = next_deal_seconds
        #: How long an unfinished table may have nobody connected before it is closed (None:
        #: never).
        self.close_idle_after = close_idle_after
        self.bots = bots
        self.bot_delay = bot_delay
        #: Called with a room as its match ends (its review is begun: web/referee/reviews.py).
        self.on_finished = on_finished
        self._rooms: dict[str, Room] = {}
        self._finished_rooms: OrderedDict[str, Room] = OrderedDict()
        self._loading = asyncio.Lock()
        #: Summaries of finished tables not held as live rooms: they no longer change.
        self._finished: OrderedDict[str, dict[str, Any]] = OrderedDict()
        #: When the last person connected to a live table left, as this server saw it.
        self._seen: dict[str, datetime] = {}

    def _room(self, stored: StoredTable) -> Room:
        return Room(
            stored,
            self.store,
            self.bots,
            self.bot_delay,
            self.retire,
            self.next_deal_seconds,
            self.on_finished,
        )

    async def resume(self) -> int:
        """Load every unfinished table and let it go on; how many there were."""
        ids = await asyncio.to_thread(self.store.unfinished)
        for table_id in ids:
            room = await self.get(table_id)
            if room is not None:
                await room.begin()
        return len(ids)

    async def create(
        self,
        variant: Variant,
        players: Mapping[Seat, str | None],
        creator: tuple[Seat, str] | None,
        turn_seconds: int | None = None,
        hints: bool = True,
        time_bank_seconds: int = 0,
        name: str | None = None,
        listed: bool = True,
    ) -> tuple[Room, str, str | None]:
        """A new table: ``players`` gives each seat's computer player or ``None`` (open);
        ``creator`` the seat and nickname the creator takes; ``turn_seconds`` each person's
        time for a turn (``None``: no limit); ``hints`` whether people may ask for hints;
        ``time_bank_seconds`` each person's time bank for the match; ``name`` its name;
        ``listed`` whether the lobby lists it. The room, the creator's token and the creator's
        seat token (or ``None``)."""
        seed = fresh_seed()
        creator_token = new_token()
        table = TableRow(
            id=secrets.token_urlsafe(8),
            created=datetime.now(UTC),
            variant=variant,
            first_dealer=first_dealer(seed),
            seed=seed,
            creator_hash=token_hash(creator_token),
            status="waiting",
            turn_seconds=turn_seconds,
            hints=hints,
            time_bank_seconds=time_bank_seconds if turn_seconds is not None else 0,
            name=name,
            listed=listed,
        )
        seat_token = None
        rows = []
        for seat in Seat:
            player = players.get(seat)
            if creator is not None and creator[0] == seat:
                seat_token = new_token()
                rows.append(SeatRow(seat, "human", creator[1], token_hash(seat_token)))
            elif player is None:
                rows.append(SeatRow(seat, "open", None, None))
            else:
                rows.append(SeatRow(seat, "computer", player, None))
        seats = (rows[0], rows[1], rows[2], rows[3])
        await asyncio.to_thread(self.store.create_table, table, seats)
        room = self._room(StoredTable(table, seats, None))
        self._rooms[table.id] = room
        await room.begin()
        return room, creator_token, seat_token

    async def rematch(self, room: Room) -> None:
        """Begin the rematch of ``room``'s finished match, once it is due (``Room.rematch``):
        a new table with its seats, chat and creator, live before its link is announced."""
        stored = await room.rematch(secrets.token_urlsafe(8), fresh_seed(), datetime.now(UTC))
        if stored is None:
            return
        new = self._room(stored)
        new.chat = room.chat
        self._rooms[new.id] = new
        await new.begin()
        await room.announce()

    async def get(self, table_id: str) -> Room | None:
        """The table ``table_id``, loaded from the store if need be; ``None`` if none is."""
        if not TABLE_ID.fullmatch(table_id):
            return None
        room = self._live(table_id)
        if room is not None:
            return room
        async with self._loading:
            room = self._live(table_id)
            if room is None:
                stored = await asyncio.to_thread(self.store.load, table_id)
                if stored is None:
                    return None
                room = self._room(stored)
                if room.status in ("finished", "closed"):
                    self._keep_finished(room)
                else:
                    self._rooms[table_id] = room
            return room

    def _live(self, table_id: str) -> Room | None:
        room = self._rooms.get(table_id)
        if room is None:
            room = self._finished_rooms.get(table_id)
            if room is not None:
                self._finished_rooms.move_to_end(table_id)
        return room

    async def listing(
        self,
        status: ListedStatus | None = None,
        page: int = 1,
        ids: Sequence[str] | None = None,
    ) -> dict[str, Any]:
        """Page ``page`` (from 1) of the lobby's list (docs/WEB.md): the listed tables of
        ``status`` (None: all), waiting first, then playing, then finished, each newest first;
        finished tables until LISTED_AFTER_FINISH after their end; closed ones never. ``ids``:
        those tables, listed or not, in the same order (a person's own), on one page. Each
        summary says whether the table is ``idle``: unfinished, and nobody connected to it for
        IDLE_AFTER.

        Three queries (the count, the tables, their seats); a finished table's match is loaded
        once for its summary, which is kept.
        """
        now = datetime.now(UTC)
        listing = await asyncio.to_thread(
            self.store.listing,
            status,
            finished_since=now - LISTED_AFTER_FINISH,
            offset=(page - 1) * PAGE_SIZE,
            limit=PAGE_SIZE if ids is None else MAX_IDS,
            ids=ids,
        )
        out = []
        for listed in listing.tables:
            summary = await self._summary(listed.stored)
            out.append({**summary, "idle": self._idle(listed, now)})
        size = PAGE_SIZE if ids is None else MAX_IDS
        return {
            "tables": out,
            "status": status,
            "page": page,
            "pages": max(1, -(-listing.total // size)),
            "total": listing.total,
        }

    async def _summary(self, stored: StoredTable) -> dict[str, Any]:
        room = self._live(stored.table.id)
        if room is not None:
            return room.summary()
        known = self._finished.get(stored.table.id)
        if known is not None:
            return known
        if stored.table.status in ("finished", "closed"):
            loaded = await asyncio.to_thread(self.store.load, stored.table.id)
            assert loaded is not None
            summary = self._room(loaded).summary()
            self._remember(summary)
            return summary
        # A table this server holds no room for (another process made it): no match.
        return self._room(stored).summary()

    def _idle(self, listed: Listed, now: datetime) -> bool:
        table = listed.stored.table
        if table.status in ("finished", "closed"):
            return False
        room = self._live(table.id)
        if room is not None and room.connections:
            return False
        seen = self._seen.get(table.id) or listed.seen or table.created
        return now - seen >= IDLE_AFTER

    async def left(self, room: Room) -> None:
        """A connection to ``room`` closed: when nobody is left, note the time (the lobby's
        idle tables), in memory and in the store."""
        if room.connections:
            return
        now = datetime.now(UTC)
        self._seen[room.id] = now
        try:
            await asyncio.to_thread(self.store.set_seen, room.id, now)
        except Exception as e:  # the lobby's idle mark only: the table itself is unharmed
            log.warning("table %s: storing when its last connection closed failed: %s", room.id, e)

    async def close_idle(self) -> int:
        """Close every unfinished table nobody has been connected to for ``close_idle_after``
        (docs/WEB.md, "Idle tables"); how many were closed."""
        if self.close_idle_after is None:
            return 0
        since = datetime.now(UTC) - self.close_idle_after
        closed = 0
        for table_id in await asyncio.to_thread(self.store.idle, since):
            seen = self._seen.get(table_id)
            if seen is not None and seen >= since:
                continue  # the store's time was not written: this server's is the truth
            room = await self.get(table_id)
            if room is not None and await room.close_if_idle():
                log.info(
                    "table %s: closed, nobody was at it for %s", table_id, self.close_idle_after
                )
                closed += 1
        return closed

    async def sweep(self) -> None:
        """Close idle tables (``close_idle``) now and then, until cancelled: at least every
        SWEEP_SECONDS, and four times within the idle time."""
        if self.close_idle_after is None:
            return
        every = max(1.0, min(SWEEP_SECONDS, self.close_idle_after.total_seconds() / 4))
        while True:
            await asyncio.sleep(every)
            try:
                await self.close_idle()
            except Exception:
                log.exception("closing idle tables failed; trying again later")

    def retire(self, room: Room) -> None:
        """Let a finished or closed room that nobody watches leave the live tables."""
        if self._rooms.get(room.id) is room:
            del self._rooms[room.id]
        self._seen.pop(room.id, None)
        self._keep_finished(room)

    def _keep_finished(self, room: Room) -> None:
        self._remember(room.summary())
        self._finished_rooms[room.id] = room
        self._finished_rooms.move_to_end(room.id)
        if len(self._finished_rooms) > FINISHED_ROOMS:
            self._finished_rooms.popitem(last=False)

    def _remember(self, summary: dict[str, Any]) -> None:
        self._finished[summary["id"]] = summary
        if len(self._finished) > FINISHED_KEPT:
            self._finished.popitem(last=False)

    def close(self) -> None:
        for room in self._rooms.values():
            room.close()
