"""The referee of one table: its match, seats and connections; check, persist, apply, tell.

Every change goes through the room's lock, in this order: check (with the engine, against
the position the acting seat may see), write to the store and wait until it is durable, apply
to the match, then queue for every connection the state its seat may see (docs/WEB.md).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import Callable, Coroutine
from dataclasses import replace
from datetime import datetime
from typing import Any, Final

from valtti.engine import Action, Deal, Match, Refusal, RefusalCode, Seat, deal_hands
from valtti.engine.actions import ActionKind
from valtti.engine.record import Record
from valtti.engine.views import Phase
from valtti.table import derive_seed
from valtti.web import computer
from valtti.web.bots import Bots
from valtti.web.chat import Chat
from valtti.web.computer import Computers
from valtti.web.connection import Connection
from valtti.web.ends import Waiting, rematch_of
from valtti.web.errors import RoomError, WriteFailed
from valtti.web.frames import Frames, replay_steps, table_summary
from valtti.web.seats import is_token_of, new_token, seat_of, token_hash
from valtti.web.store import SeatRow, Store, StoredTable, TableRow, TableStatus

log = logging.getLogger(__name__)

#: The shortest time between two broadcasts of who is connected: however often connections
#: come and go, the others get at most one presence frame in each such interval, and one
#: only when the connected seats they would show differ from those last sent.
PRESENCE_SECONDS: Final = 0.25


class Room:
    """The referee of one table: seats, match, connections; every change under ``lock``.

    ``seq`` counts the match's public actions: every accepted action but ``answer`` (which of
    several marriages a partner chose is private, RULES.md 7.2). While a partner chooses (the
    ANSWER phase) every other seat and a spectator see the match before the ``ask-whole``
    (``Match.seen_by``), and each of their actions is answered as it would have been then.
    ``on_idle`` is called with the room once it is finished and nobody watches it.
    """

    def __init__(
        self,
        stored: StoredTable,
        store: Store,
        bots: Bots,
        bot_delay: float,
        on_idle: Callable[[Room], None],
        next_deal_seconds: float = 0.0,
    ) -> None:
        self.table: TableRow = stored.table
        self.seats: list[SeatRow] = list(stored.seats)
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self._store = store
        self._on_idle = on_idle
        self._replay: str | None = None  #: the finished match's replay, once asked for
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False  #: the server is stopping: no new work
        self._computers = Computers(self.table.id, self.table.seed, bots, bot_delay, self._spawn)
        self._frames = Frames()  #: of ``match``
        #: The connected seats the last state frames showed, when presence was last sent, and
        #: whether a presence frame waits for its interval.
        self._shown: frozenset[Seat] = frozenset()
        self._presence_at = -PRESENCE_SECONDS
        self._presence_due = False
        self.match: Match | None = None if stored.record is None else stored.record.replay()
        histories = [] if self.match is None else [d.history for d in self.match.deals]
        self._count = sum(len(h) for h in histories)  #: every action, answers included
        self.seq = sum(1 for h in histories for a in h if a.kind is not ActionKind.ANSWER)
        #: Seconds from a deal's end to the next deal (0: at once, nobody is asked).
        self.next_deal_seconds = next_deal_seconds
        #: Between deals, or after a match that has no rematch yet: who is ready (ends.py).
        self.waiting: Waiting | None = None
        if self.status == "finished" and self.table.next_id is None:
            self.waiting = Waiting("rematch", None)
        self.chat = Chat()  #: the table's recent chat (chat.py)

    @property
    def id(self) -> str:
        return self.table.id

    @property
    def status(self) -> TableStatus:
        return self.table.status

    # -- changes -------------------------------------------------------------------------------

    async def resume(self) -> None:
        """Go on after a restart: deal the next deal if the store stops between two deals,
        mark a match over if it is, and let a computer player to move think."""
        async with self.lock:
            await self._go_on()
            self._schedule_computer()

    async def begin(self) -> None:
        """Start a new table that has no open seat."""
        async with self.lock:
            await self._go_on()
            self._schedule_computer()

    async def join(self, seat: Seat, nickname: str) -> str:
        """Seat a person; their token. ``RoomError("taken")`` unless the seat is open."""
        async with self.lock:
            if self.seats[seat].kind != "open":
                raise RoomError("taken", f"seat {seat} is taken")
            token = new_token()
            await self._seat(SeatRow(seat, "human", nickname, token_hash(token)))
            await self._go_on()
            self._broadcast()
            self._schedule_computer()
            return token

    async def act(self, connection: Connection, token: str, seq: int | None) -> None:
        """Play ``token`` for the connection's seat (docs/WEB.md: each refusal a RoomError).

        The action is checked against the match the seat may see, so a seat that may not
        know that a partner is choosing a marriage is answered exactly as before the question.
        """
        async with self.lock:
            seat = connection.seat
            if seat is None:
                raise RoomError("not_seated", "a spectator cannot act")
            self._deal_in_play()
            assert self.match is not None
            seen = self.match.seen_by(seat)
            deal = seen.deal
            assert deal is not None
            shown = self._seq_seen_in(seen)
            if seq is not None and seq != shown:
                raise RoomError("stale", f"the table is at {shown} actions, not {seq}")
            if deal.current_player != seat:
                raise RoomError("not_your_turn", f"{deal.current_player} is to move, not {seat}")
            try:
                action = Action.parse(token)
            except ValueError as e:
                refused = Refusal(RefusalCode.NOT_AN_ACTION, seat, given=token)
                raise self._illegal(deal, refused, str(e)) from None
            refusal = deal.refusal(action)
            if refusal is not None:
                raise self._illegal(deal, refusal)
            if seen is not self.match:
                # The seat whose ask-whole waits for its answer: it has asked already.
                raise RoomError("not_your_turn", "wait for the next state of the table")
            try:
                await self._apply(action)
            except WriteFailed as e:
                log.error("table %s: storing %s for %s failed: %s", self.id, action, seat, e)
                raise RoomError("unavailable", "the move could not be saved; send it again") from e

    async def replace(self, seat: Seat, player: str, creator_token: str) -> None:
        """Hand an open or a person's seat to a computer player, for the table's creator."""
        async with self.lock:
            if not is_token_of(creator_token, self.table.creator_hash):
                raise RoomError("not_creator", "only the table's creator can replace a seat")
            if self.status == "finished":
                raise RoomError("finished", "the match is over")
            if self.seats[seat].kind == "computer":
                raise RoomError("bad_seat", f"seat {seat} is a computer player already")
            await self._seat(SeatRow(seat, "computer", player, None))
            for connection in self.connections:
                if connection.seat == seat:
                    connection.seat = None  # the person's token no longer plays the seat
            await self._go_on()
            self._broadcast()
            self._schedule_computer()

    async def connect(self, connection: Connection, token: str | None) -> None:
        """Add a connection that plays the seat of ``token`` (a spectator without one).

        The token is looked up under the lock, so a seat handed to a computer player
        meanwhile is not played by its old token. ``RoomError("bad_token")`` for a token that
        plays no seat.
        """
        async with self.lock:
            seat = None
            if token:
                seat = self.seat_of(token)
                if seat is None:
                    raise RoomError("bad_token", "this token plays no seat of the table")
            connection.seat = seat
            self.connections.add(connection)
            connection.send_state(self._states()[seat])
            if self.chat.history:
                connection.send(self.chat.history_frame())
            self._presence_changed()

    async def disconnect(self, connection: Connection) -> None:
        async with self.lock:
            self.connections.discard(connection)
            self._presence_changed()
            self._retire_if_idle()

    def _retire_if_idle(self) -> None:
        """A finished table that nobody watches leaves the live tables (``on_idle``)."""
        if self.status == "finished" and not self.connections:
            self._on_idle(self)

    def seat_of(self, token: str) -> Seat | None:
        """The seat ``token`` plays, or ``None``."""
        return seat_of(self.seats, token)

    def close(self) -> None:
        self._closed = True
        for task in self._tasks:
            task.cancel()

    async def _seat(self, row: SeatRow) -> None:
        await asyncio.to_thread(self._store.update_seat, self.id, row)
        self.seats[row.seat] = row

    async def _set_status(self, status: TableStatus) -> None:
        await asyncio.to_thread(self._store.set_status, self.id, status)
        self.table = replace(self.table, status=status)

    async def _settle(self) -> None:
        """Whatever comes next without a player: start a full table, deal the next deal after
        one ends, mark the table finished when the match is over. Each write comes before the
        change in memory, so a failed one leaves the room as the store has it."""
        if self.status == "waiting":
            if all(s.kind != "open" for s in self.seats):
                await self._set_status("playing")
            else:
                return
        if self.status != "playing":
            return
        if self.match is None:
            match = Match(self.table.variant, self.table.first_dealer)
            await self._start_deal(match)
            self.match = match
            return
        deal = self.match.deal
        assert deal is not None
        if not deal.is_over():
            return
        if self.match.is_over():
            await self._set_status("finished")
            self.waiting = Waiting("rematch", None)
            self._retire_if_idle()
        elif self._deal_due():
            await self._start_deal(self.match)
            self.waiting = None

    def _deal_due(self) -> bool:
        """Whether the next deal is dealt now: at once without a pause; else once every
        seated person is ready or its time has come (the deal's end starts the wait)."""
        if self.next_deal_seconds <= 0:
            return True
        waiting = self.waiting
        if waiting is None or waiting.kind != "deal":
            waiting = self.waiting = Waiting("deal", time.time() + self.next_deal_seconds)
            self._spawn(self._deal_later(waiting))
        return waiting.due or waiting.all_ready(self.seats)

    async def _deal_later(self, waiting: Waiting) -> None:
        """Deal the next deal at ``waiting.at`` unless it was dealt sooner."""
        await asyncio.sleep(self.next_deal_seconds)
        async with self.lock:
            if self.waiting is waiting:
                waiting.due = True
                await self._go_on()
                self._broadcast()
                self._schedule_computer()

    async def ready(self, connection: Connection) -> bool:
        """The connection's person is ready for the next deal, or for a rematch; whether
        every seated person now is for a rematch (``Rooms.rematch`` makes it)."""
        async with self.lock:
            seat = connection.seat
            if seat is None:
                raise RoomError("not_seated", "a spectator is not waited for")
            waiting = self.waiting
            if waiting is None:
                raise RoomError("not_waiting", "nothing waits for the players to be ready")
            waiting.ready.add(seat)
            if waiting.kind == "deal":
                await self._go_on()
                self._schedule_computer()
            self._broadcast()
            return waiting.kind == "rematch" and waiting.all_ready(self.seats)

    async def rematch(self, table_id: str, seed: int, created: datetime) -> StoredTable | None:
        """Store the rematch of this finished match, once every seated person is ready for
        it: a new table ``table_id`` with the same seats and creator, whose first dealer is
        the one the rules give after this match's last deal (RULES.md 2.3); ``None`` if it is
        not due (or made already). The others hear of it from ``announce()``."""
        async with self.lock:
            waiting = self.waiting
            if waiting is None or waiting.kind != "rematch" or not waiting.all_ready(self.seats):
                return None
            assert self.match is not None
            table = rematch_of(self.table, self.match, table_id, seed, created)
            seats = (self.seats[0], self.seats[1], self.seats[2], self.seats[3])
            try:
                await asyncio.to_thread(self._store.create_rematch, self.id, table, seats)
            except Exception as e:
                log.exception("table %s: storing its rematch failed", self.id)
                raise RoomError("unavailable", "the rematch could not be saved; ask again") from e
            self.table = replace(self.table, next_id=table_id)
            self.waiting = None
            return StoredTable(table, seats, None)

    async def announce(self) -> None:
        """Tell every connection the table's state (after a rematch: where it goes on)."""
        async with self.lock:
            self._broadcast()

    async def _go_on(self) -> None:
        """``_settle``; when the store fails, log it and try again a little later."""
        try:
            await self._settle()
        except Exception:
            log.exception("table %s: a write failed; trying again", self.id)
            self._spawn(self._retry())

    async def _retry(self) -> None:
        await asyncio.sleep(computer.RETRY_SECONDS)
        async with self.lock:
            await self._go_on()
            self._broadcast()
            self._schedule_computer()

    async def _start_deal(self, match: Match) -> None:
        """Deal the next deal from the table's seed; its hands are stored before any action."""
        number = len(match.deals) + 1
        hands = deal_hands(random.Random(derive_seed(self.table.seed, "deal", number)))
        await asyncio.to_thread(self._store.add_deal, self.id, number, match.next_dealer, hands)
        match.start_deal(hands)

    async def _apply(self, action: Action) -> None:
        """Store a legal action, durably, then play it and tell those who may know of it.

        A cancellation (a shutdown) while the action is being written waits for the write
        and plays the action if it was stored, so the room never falls behind its store.
        """
        match = self.match
        assert match is not None and match.deal is not None
        write = asyncio.wrap_future(
            self._store.submit_action(
                self.id, len(match.deals), len(match.deal.history), str(action)
            )
        )
        cancelled = False
        while not write.done():
            try:
                await asyncio.shield(write)
            except asyncio.CancelledError:
                cancelled = True
            except Exception:
                break  # the write failed: below
        failure = write.exception()
        if failure is not None:
            raise WriteFailed(failure) from failure  # nothing is played
        match.apply(action)
        self._count += 1
        if action.kind is not ActionKind.ANSWER:
            self.seq += 1
        answering = self._answering()
        if cancelled:
            raise asyncio.CancelledError
        if answering is None:
            await self._go_on()
        # While a partner chooses, only its connections may hear of the ask-whole.
        self._broadcast(answering)
        self._schedule_computer()

    def _answering(self) -> Seat | None:
        """The partner choosing which marriage to name (the ANSWER phase), or ``None``."""
        deal = None if self.match is None else self.match.deal
        if deal is None or deal.phase is not Phase.ANSWER:
            return None
        return deal.current_player

    def _seq_seen_in(self, seen: Match) -> int:
        """The ``seq`` of the match as ``seen`` by a viewer: an ask-whole it may not know of
        yet is not counted."""
        assert self.match is not None
        if seen is self.match:
            return self.seq
        return self.seq - 1

    def _deal_in_play(self) -> Deal:
        if self.status == "waiting":
            raise RoomError("waiting", "the table has not started: a seat is still open")
        if self.status == "finished":
            raise RoomError("finished", "the match is over")
        deal = None if self.match is None else self.match.deal
        if deal is None or deal.is_over():
            raise RoomError("not_your_turn", "the next deal is not dealt yet")
        return deal

    def _illegal(self, deal: Deal, refusal: Refusal, message: str | None = None) -> RoomError:
        """The ``illegal`` error in ``deal`` (as the seat sees it): ``message`` (by default the
        refusal's English), the legal tokens, and the refusal's code and arguments for the page
        to say in its language."""
        return RoomError(
            "illegal",
            str(refusal) if message is None else message,
            legal=[str(a) for a in deal.legal_actions()],
            refusal=refusal.to_dict(),
        )

    # -- computer players ----------------------------------------------------------------------

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        if self._closed:
            work.close()
            return
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            # E.g. the store failed to take a computer player's action: think again later.
            log.error("table %s: a task failed; trying again", self.id, exc_info=task.exception())
            self._computers.forget()
            self._spawn(self._retry())

    def _schedule_computer(self) -> None:
        """Let the computer player to move (if any) decide, once per point of the match."""
        if self.status == "playing":
            self._computers.schedule(self.match, self.seats, self._count, self._play_computer)

    async def _play_computer(
        self, seat: Seat, row: SeatRow, count: int, action: Action | None
    ) -> bool:
        """Play a computer player's decision at point ``count``, if the table is still there
        (``Computers``' ``Play``)."""
        async with self.lock:
            if self._count != count or self.seats[seat] != row:
                return True  # the table moved on (or the seat changed hands) meanwhile
            if action is None:
                return False
            deal = self._deal_in_play()
            reason = deal.why_illegal(action)
            if reason is None:
                await self._apply(action)
                return True
            log.error("table %s: %s chose %s: %s", self.id, row.name, action, reason)
            return False

    # -- what each connection sees ---------------------------------------------------------------

    def _connected(self) -> frozenset[Seat]:
        return frozenset(c.seat for c in self.connections if c.seat is not None)

    def summary(self) -> dict[str, Any]:
        """The table's summary (docs/WEB.md)."""
        return table_summary(self.table, self.seats, self.match, self._connected())

    def _states(self) -> dict[Seat | None, str]:
        """The state frame of each seat with a connection, and of a spectator if one watches;
        each built once per change, however many connections share it."""
        viewers = {c.seat for c in self.connections}
        summary = self._frames.summary_json(self.table, self.seats, self.match, self._connected())
        between = "null" if self.waiting is None else self.waiting.to_json(self.seats)
        return self._frames.states(summary, self.match, self.seq, viewers, between)

    def _broadcast(self, only: Seat | None = None) -> None:
        """Send each connection its state (``only``: the connections of that seat alone)."""
        if not self.connections:
            return
        frames = self._states()
        for connection in self.connections:
            if only is None or connection.seat == only:
                connection.send_state(frames[connection.seat])
        if only is None:
            self._shown = self._connected()

    def _presence_changed(self) -> None:
        """A connection came or went: tell the others who is connected, at most once in each
        PRESENCE_SECONDS (the latest change at the end of the interval), so that nobody can
        multiply the table's traffic by connecting and disconnecting."""
        if self._presence_due or self._connected() == self._shown:
            return
        wait = self._presence_at + PRESENCE_SECONDS - asyncio.get_running_loop().time()
        if wait <= 0:
            self._send_presence()
        else:
            self._presence_due = True
            self._spawn(self._presence_later(wait))

    async def _presence_later(self, wait: float) -> None:
        await asyncio.sleep(wait)
        async with self.lock:
            self._presence_due = False
            if self._connected() != self._shown:
                self._send_presence()

    def _send_presence(self) -> None:
        self._presence_at = asyncio.get_running_loop().time()
        # While a partner chooses, the others still get the state from before the question.
        self._broadcast()

    # -- finished matches ------------------------------------------------------------------------

    def record(self) -> Record:
        """The match as a RECORD.md record, its players and the table under ``meta``."""
        assert self.match is not None
        return Record.of_match(
            self.match,
            {
                "program": "valtti serve",
                "table": self.id,
                "created": self.table.created.isoformat(),
                "seed": self.table.seed,
                "players": {str(r.seat): r.name for r in self.seats},
                "seats": {str(r.seat): r.kind for r in self.seats},
            },
        )

    async def replay_json(self) -> str:
        """``{"steps": replay_steps()}`` as JSON, made once (a finished match does not change)."""
        if self._replay is None:
            assert self.match is not None
            steps = await asyncio.to_thread(replay_steps, self.match)
            self._replay = json.dumps({"steps": steps})
        return self._replay
