"""The referee of one table: its match, seats and connections; check, persist, apply, tell.

Every change goes through the room's lock, in this order: check (with the engine, against
the position the acting seat may see), write to the store and wait until it is durable, apply
to the match, then queue for every connection the state its seat may see (docs/WEB.md).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, Coroutine
from dataclasses import replace
from datetime import datetime
from typing import Any

from valtti.engine import Action, ActionKind, Match, Refusal, RefusalCode, Seat
from valtti.engine.record import Record
from valtti.engine.views import Phase
from valtti.table import Table
from valtti.web.db.rows import ClosedBy, SeatRow, StoredTable, TableRow, TableStatus
from valtti.web.db.store import Store
from valtti.web.referee import computer
from valtti.web.referee.bots import Bots
from valtti.web.referee.chat import Chat
from valtti.web.referee.checks import deal_in_play, illegal, seen_in_play
from valtti.web.referee.computer import Computers
from valtti.web.referee.connection import Connection, move_seat
from valtti.web.referee.ends import Waiting, rematch_of
from valtti.web.referee.errors import RoomError, WriteFailed
from valtti.web.referee.frames import Frames, match_record, replay_steps, table_summary
from valtti.web.referee.hints import Hints
from valtti.web.referee.presence import Presence
from valtti.web.referee.seats import is_token_of, new_token, seat_of, token_hash
from valtti.web.referee.turns import (
    STAND_IN,
    Stood,
    Turn,
    TurnClock,
    is_person,
    occupant,
    timed_turn,
)

log = logging.getLogger(__name__)


class Room:
    """The referee of one table: seats, match, connections; every change under ``lock``.

    A viewer's ``seq`` counts the public actions of the match it may see, as the engine counts
    them (``seen.public_action_count()``, RULES.md 7.2). While a partner chooses (the ANSWER
    phase) every other seat and a spectator see the match before the ``ask-whole``
    (``Match.seen_by``), and each of their actions is answered as it would have been then.
    ``on_idle`` is called with the room once it is finished and nobody watches it,
    ``on_finished`` once, as its match ends (its review is made then: web/referee/reviews.py).

    ``row`` is the table as the store keeps it (``db.rows.TableRow``: id, variant, seed,
    status, turn time, hints, rematch), ``seats`` its seats' rows; ``table`` is the match's
    seat driver (``valtti.table.Table``): it says who is to move, deals, and gives each
    decision its seed; the room decides who decides (a person's socket, a computer player, a
    person's stand-in: web/referee/turns.py) and when.
    """

    def __init__(
        self,
        stored: StoredTable,
        store: Store,
        bots: Bots,
        bot_delay: float,
        on_idle: Callable[[Room], None],
        next_deal_seconds: float = 0.0,
        on_finished: Callable[[Room], None] = lambda room: None,
    ) -> None:
        self.row: TableRow = stored.table  #: the table's row in the store
        self.seats: list[SeatRow] = list(stored.seats)
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self._store = store
        self._on_idle = on_idle
        self._on_finished = on_finished
        self._replay: str | None = None  #: the finished match's replay, once asked for
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False  #: the server is stopping: no new work
        self._computers = Computers(self.row.id, bots, bot_delay, self._spawn)
        self._clock = TurnClock(
            self.row.turn_seconds,
            self.row.time_bank_seconds,
            self._turn_over,
            self._spawn,
            left=stored.banks,
        )
        #: The point at which a stand-in makes one decision for a person out of time who keeps
        #: the seat: one still connected, or a partner answering for the asker (turns.py).
        self._one_move: int | None = None
        self._stood = Stood()  #: the moves made so
        self._frames = Frames()  #: of ``match``
        self._presence = Presence(self.lock, self._connected, self._broadcast, self._spawn)
        match = (
            Match(self.row.variant, self.row.first_dealer)
            if stored.record is None
            else stored.record.replay()
        )
        #: The seat driver of the match.
        self.table = Table({r.seat: occupant(r) for r in self.seats}, self.row.seed, match)
        #: Seconds from a deal's end to the next deal (0: at once, nobody is asked).
        self.next_deal_seconds = next_deal_seconds
        #: Between deals, or after a match that has no rematch yet: who is ready (ends.py).
        self.waiting: Waiting | None = None
        if self.status == "finished" and self.row.next_id is None and self.row.deal_limit is None:
            self.waiting = Waiting("rematch", None)
        self.chat = Chat()  #: the table's recent chat (chat.py)
        self._hints = Hints(bots)

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def status(self) -> TableStatus:
        return self.row.status

    @property
    def match(self) -> Match | None:
        """The match, once its first deal is dealt."""
        match = self.table.match
        return match if match.deals else None

    # -- changes -------------------------------------------------------------------------------

    async def begin(self) -> None:
        """Start a new table that has no open seat, or go on after a restart (deal the next
        deal if the store stops between two, mark a match over if it is); then let a computer
        player to move think."""
        async with self.lock:
            await self._go_on()
            self._changed()

    async def join(self, seat: Seat, nickname: str) -> str:
        """Seat a person; their token. ``RoomError("taken")`` unless the seat is open."""
        async with self.lock:
            self._refuse_ended()
            if self.seats[seat].kind != "open":
                raise RoomError("taken", f"seat {seat} is taken")
            token = new_token()
            await self._seat(SeatRow(seat, "human", nickname, token_hash(token)))
            await self._go_on()
            self._changed(broadcast=True)
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
            await self._reclaim(seat)  # whoever acts is back
            seen, deal, _ = seen_in_play(self.status, self.match, seat, seq)
            if deal.current_player != seat:
                raise RoomError("not_your_turn", f"{deal.current_player} is to move, not {seat}")
            try:
                action = Action.parse(token)
            except ValueError as e:
                refused = Refusal(RefusalCode.NOT_AN_ACTION, seat, given=token)
                raise illegal(deal, refused, str(e)) from None
            refusal = deal.refusal(action)
            if refusal is not None:
                raise illegal(deal, refusal)
            if seen is not self.match:
                # The seat whose ask-whole waits for its answer: it has asked already.
                raise RoomError("not_your_turn", "wait for the next state of the table")
            try:
                await self._apply(action)
            except WriteFailed as e:
                log.error("table %s: storing %s for %s failed: %s", self.id, action, seat, e)
                raise RoomError("unavailable", "the move could not be saved; send it again") from e

    async def hint(self, connection: Connection, seq: int | None) -> None:
        """Send the connection's seat, on its turn, the hint frame of docs/WEB.md once it is
        made (the connection's messages are read on meanwhile); each refusal a RoomError.

        Asking is being here: a stand-in for the seat leaves, as when the person acts.
        """
        async with self.lock:
            seat = connection.seat
            if seat is None:
                raise RoomError("not_seated", "a spectator cannot ask for a hint")
            if not self.row.hints:
                raise RoomError("no_hints", "this table gives no hints")
            seen, deal, shown = seen_in_play(self.status, self.match, seat, seq)
            if seen is not self.match or deal.current_player != seat:
                raise RoomError("not_your_turn", "a hint is for your own turn")
            await self._reclaim(seat)
            point = self.table.point
            moves = self._hints.ask(point, self.match.observation(seat))
        self._spawn(
            self._hints.send(connection, shown, point, moves, lambda: self.table.point, self.id)
        )

    async def replace(self, seat: Seat, player: str, creator_token: str) -> None:
        """For the table's creator: give an open seat to a computer player for good, or a
        person's seat to ``player`` as a stand-in until the person is back (the creator
        never locks a person out)."""
        async with self.lock:
            if not is_token_of(creator_token, self.row.creator_hash):
                raise RoomError("not_creator", "only the table's creator can replace a seat")
            self._refuse_ended()
            row = self.seats[seat]
            if row.kind == "computer":
                raise RoomError("bad_seat", f"seat {seat} is a computer player already")
            if row.kind == "human":
                if row.stand_in is not None:
                    raise RoomError("bad_seat", f"a computer player stands in at {seat} already")
                await self._seat(replace(row, stand_in=player))
            else:
                await self._seat(SeatRow(seat, "computer", player, None))
            await self._go_on()
            self._changed(broadcast=True)

    async def stand_in(self, connection: Connection, seat: Seat) -> None:
        """For any seated person: hand the seat of a person who is not connected to a stand-in
        at once (docs/WEB.md, "Absent players")."""
        async with self.lock:
            if connection.seat is None:
                raise RoomError("not_seated", "only a seated person can hand a seat over")
            self._refuse_ended()
            row = self.seats[seat]
            if not is_person(row):
                raise RoomError("bad_seat", f"seat {seat} is not played by a person now")
            if seat in self._connected():
                raise RoomError("present", f"the person at {seat} is here")
            await self._seat_or_say(replace(row, stand_in=STAND_IN), "handed over")
            await self._go_on()  # between deals, the stand-in may be the last one waited for
            self._changed(broadcast=True)

    def _refuse_ended(self) -> None:
        """``RoomError("finished")`` or ``("closed")`` once the table is over."""
        if self.status == "finished":
            raise RoomError("finished", "the match is over")
        if self.status == "closed":
            raise RoomError("closed", "the table is closed")

    async def close_table(self, creator_token: str) -> None:
        """For the table's creator: close the table before its match ends (docs/WEB.md);
        ``not_creator``, ``finished``, ``closed``, or ``unavailable`` when the store did not
        take it (nothing changes)."""
        async with self.lock:
            if not is_token_of(creator_token, self.row.creator_hash):
                raise RoomError("not_creator", "only the table's creator can close it")
            self._refuse_ended()
            try:
                await self._close("creator")
            except Exception as e:
                log.error("table %s: storing that it is closed failed: %s", self.id, e)
                raise RoomError("unavailable", "the table could not be closed; try again") from e

    async def close_if_idle(self) -> bool:
        """Close the table, which nobody has been at for the host's time (``Rooms``), if it is
        unfinished and nobody is connected to it now; whether it was."""
        async with self.lock:
            if self.status not in ("waiting", "playing") or self.connections:
                return False
            await self._close("idle")
            return True

    async def _close(self, why: ClosedBy) -> None:
        """Store the table closed, then close it here: nothing more is played or waited for,
        and everyone is told (under the lock)."""
        await asyncio.to_thread(self._store.close_table, self.id, why)
        self.row = replace(self.row, status="closed", closed=why)
        self.waiting = None
        self._time_turn(None)
        self._changed(broadcast=True)
        self._retire_if_idle()

    async def back(self, connection: Connection) -> None:
        """The connection's person takes their seat back from a stand-in (if one stands in)."""
        async with self.lock:
            if connection.seat is None:
                raise RoomError("not_seated", "a spectator has no seat to take back")
            await self._reclaim(connection.seat)

    async def _reclaim(self, seat: Seat) -> None:
        """The person at ``seat`` is back: their stand-in leaves (under the lock);
        ``RoomError("unavailable")`` when the store cannot take it (nothing changes)."""
        row = self.seats[seat]
        if row.kind == "human" and row.stand_in is not None:
            await self._seat_or_say(replace(row, stand_in=None), "taken back")
            self._changed(broadcast=True)

    async def _turn_over(self, turn: Turn) -> None:
        """The turn time and bank of ``turn`` are up: a stand-in plays one move for a person
        who is connected (or a partner answering), every move for one who is not (turns.py)."""
        async with self.lock:
            if self._timed_turn() != turn:
                return  # the table moved on meanwhile
            await asyncio.to_thread(self._keep_bank, turn[1], 0.0)
            answering = self._answering()
            if answering is None and turn[1] not in self._connected():
                await self._seat(replace(self.seats[turn[1]], stand_in=STAND_IN))
                self._changed(broadcast=True)
            elif answering is None or is_person(self.seats[answering]):
                self._one_move = self.table.point
                self._changed(broadcast=True)  # the clock frame shows the bank spent

    async def connect(self, connection: Connection, token: str | None) -> None:
        """Add a connection that plays the seat of ``token`` (a spectator without one); the
        seat's connections until now watch from then on, told so (``seat_elsewhere``).

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
            moved = [] if seat is None else move_seat(self.connections, seat)
            connection.seat = seat
            self.connections.add(connection)
            if moved:
                spectator = self._states()[None]
                for old in moved:
                    old.send_state(spectator)
            try:
                # The person is back: ``_reclaim`` tells everyone, this connection included.
                reclaimed = seat is not None and self.seats[seat].stand_in is not None
                if reclaimed:
                    assert seat is not None
                    await self._reclaim(seat)
            except RoomError:
                reclaimed = False  # the stand-in stays until the person acts or says so
            if not reclaimed:
                connection.send_state(self._states()[seat])
            if self.chat.history:
                connection.send(self.chat.history_frame())
            self._presence.changed()
            self._changed()

    async def disconnect(self, connection: Connection) -> None:
        async with self.lock:
            self.connections.discard(connection)
            self._presence.changed()
            self._changed()
            self._retire_if_idle()

    def _retire_if_idle(self) -> None:
        """A finished or closed table that nobody watches leaves the live tables
        (``on_idle``)."""
        if self.status in ("finished", "closed") and not self.connections:
            self._on_idle(self)

    def seat_of(self, token: str) -> Seat | None:
        """The seat ``token`` plays, or ``None``."""
        return seat_of(self.seats, token)

    def close(self) -> None:
        """The server is stopping: no new work; the bank the turn timed now has spent is
        stored (``_keep_bank``)."""
        self._closed = True
        settled = self._clock.settle()
        if settled is not None:
            self._keep_bank(*settled)
        self._hints.close()
        for task in self._tasks:
            task.cancel()

    def _time_turn(self, turn: Turn | None) -> None:
        """Time ``turn`` (``TurnClock.update``); the bank the turn timed until then spent is
        stored without holding up the table."""
        settled = self._clock.update(turn)
        if settled is not None:
            self._spawn(asyncio.to_thread(self._keep_bank, *settled))

    def _keep_bank(self, seat: Seat, left: float) -> None:
        """Store the bank ``seat`` has ``left``; a failure is logged (the clock in memory is
        right, only a restart would give some of it back)."""
        try:
            self._store.set_bank(self.id, seat, left)
        except Exception as e:
            log.warning("table %s: storing the time bank of %s failed: %s", self.id, seat, e)

    async def _seat(self, row: SeatRow) -> None:
        await asyncio.to_thread(self._store.update_seat, self.id, row)
        self.seats[row.seat] = row
        self.table.seats[row.seat] = occupant(row)

    async def _seat_or_say(self, row: SeatRow, done: str) -> None:
        """``_seat(row)`` for a person's request: a failed write is ``RoomError("unavailable")``
        (the seat could not be ``done``; nothing changes)."""
        try:
            await self._seat(row)
        except Exception as e:
            log.error("table %s: storing seat %s failed: %s", self.id, row.seat, e)
            raise RoomError("unavailable", f"the seat could not be {done}; try again") from e

    async def _set_status(self, status: TableStatus) -> None:
        await asyncio.to_thread(self._store.set_status, self.id, status)
        self.row = replace(self.row, status=status)

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
        if self._over():
            await self._set_status("finished")
            # A club night's round has no rematch: the night seats the next round.
            self.waiting = Waiting("rematch", None) if self.row.deal_limit is None else None
            self._on_finished(self)
            self._retire_if_idle()
        elif self.table.needs_deal and (self.match is None or self._deal_due()):
            # The first deal at once; each next one once the players are ready (or in time).
            await self._start_deal()
            self.waiting = None

    def _over(self) -> bool:
        """Whether the match is over: by the rules, or its last deal of ``row.deal_limit``
        played."""
        match = self.table.match
        limit = self.row.deal_limit
        if match.is_over():
            return True
        deal = match.deal
        return (
            limit is not None and len(match.deals) >= limit and deal is not None and deal.is_over()
        )

    def _deal_due(self) -> bool:
        """Whether the next deal is dealt now: at once without a pause; else once every
        seated person is ready or its time has come (the deal's end starts the wait)."""
        if self.next_deal_seconds <= 0:
            return True
        waiting = self.waiting
        if waiting is None or waiting.kind != "deal":
            waiting = self.waiting = Waiting("deal", time.time() + self.next_deal_seconds)
            self._spawn(self._deal_later(waiting))
        return waiting.due or waiting.all_ready(self.seats, self._connected())

    async def _deal_later(self, waiting: Waiting) -> None:
        """Deal the next deal at ``waiting.at`` unless it was dealt sooner."""
        await asyncio.sleep(self.next_deal_seconds)
        async with self.lock:
            if self.waiting is waiting:
                waiting.due = True
                await self._go_on()
                self._changed(broadcast=True)

    async def ready(self, connection: Connection) -> bool:
        """The connection's person is ready for the next deal, or for a rematch; whether
        every seated person now is for a rematch (``Rooms.rematch`` makes it)."""
        async with self.lock:
            seat = connection.seat
            if seat is None:
                raise RoomError("not_seated", "a spectator is not waited for")
            if self.status == "closed":
                raise RoomError("closed", "the table is closed")
            waiting = self.waiting
            if waiting is None:
                raise RoomError("not_waiting", "nothing waits for the players to be ready")
            await self._reclaim(seat)  # saying ready is being here: a stand-in leaves
            # Said again, it changes nothing the others would be told of: sending it over and
            # over must not make the table's every connection a state frame each time.
            again = seat in waiting.ready
            waiting.ready.add(seat)
            if waiting.kind == "deal":
                await self._go_on()
            self._changed(broadcast=not again or self.waiting is not waiting)
            return waiting.kind == "rematch" and waiting.all_ready(self.seats, self._connected())

    async def rematch(self, table_id: str, seed: int, created: datetime) -> StoredTable | None:
        """Store the rematch of this finished match, once every seated person is ready for
        it: a new table ``table_id`` with the same seats and creator, whose first dealer is
        the one the rules give after this match's last deal (RULES.md 2.3); ``None`` if it is
        not due (or made already). The others hear of it from ``announce()``."""
        async with self.lock:
            waiting = self.waiting
            ready = waiting is not None and waiting.all_ready(self.seats, self._connected())
            if waiting is None or waiting.kind != "rematch" or not ready:
                return None
            assert self.match is not None
            row = rematch_of(self.row, self.match, table_id, seed, created)
            seats = (self.seats[0], self.seats[1], self.seats[2], self.seats[3])
            try:
                await asyncio.to_thread(self._store.create_rematch, self.id, row, seats)
            except Exception as e:
                log.exception("table %s: storing its rematch failed", self.id)
                raise RoomError("unavailable", "the rematch could not be saved; ask again") from e
            self.row = replace(self.row, next_id=table_id)
            self.waiting = None
            return StoredTable(row, seats, None)

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
            self._changed(broadcast=True)

    async def _start_deal(self) -> None:
        """Deal the next deal from the table's seed; its hands are stored before any action."""
        match = self.table.match
        number = len(match.deals) + 1
        hands = self.table.hands(number)
        await asyncio.to_thread(self._store.add_deal, self.id, number, match.next_dealer, hands)
        self.table.start_deal()

    async def _apply(self, action: Action) -> None:
        """Store a legal action, durably, then play it and tell those who may know of it.

        A cancellation (a shutdown) while the action is being written waits for the write
        and plays the action if it was stored, so the room never falls behind its store.
        """
        match = self.table.match
        assert match.deal is not None
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
        self.table.apply(action)
        # The bank the turn spent is kept before anyone hears of the move that ended it.
        settled = self._clock.update(self._timed_turn())
        if settled is not None:
            await asyncio.to_thread(self._keep_bank, *settled)
        answering = self._answering()
        if cancelled:
            raise asyncio.CancelledError
        if answering is None:
            await self._go_on()
        # While a partner chooses, only its connections may hear of the ask-whole.
        self._broadcast(answering)
        self._changed()

    def _answering(self) -> Seat | None:
        """The partner choosing which marriage to name (the ANSWER phase), or ``None``."""
        deal = None if self.match is None else self.match.deal
        if deal is None or deal.phase is not Phase.ANSWER:
            return None
        return deal.current_player

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
            self._time_turn(None)  # a turn whose end failed to be stored starts again
            self._spawn(self._retry())

    def _changed(self, *, broadcast: bool = False) -> None:
        """After any change (under the lock): tell everyone if ``broadcast``, time the turn
        now to be timed, and let whoever decides for the seat to move (if not a person's
        socket) decide."""
        if broadcast:
            self._broadcast()
        self._time_turn(self._timed_turn())
        seat = self.table.to_move
        if self.status == "playing" and seat is not None:
            self._computers.schedule(self.table, self._decider(seat), self._play_computer)

    def _people_here(self) -> bool:
        """Whether a person is connected to a seat of theirs."""
        return any(self.seats[s].kind == "human" for s in self._connected())

    def _decider(self, seat: Seat) -> str | None:
        """The computer player that decides for ``seat`` now: the seat's, or the stand-in of
        its person while someone is connected; ``None``: the person decides."""
        occupant = self.table.seats[seat]
        if occupant is None:
            return STAND_IN if self._one_move == self.table.point else None
        if self.seats[seat].kind == "human" and not self._people_here():
            return None  # a stand-in does not play for nobody
        return occupant.spec

    def _timed_turn(self) -> Turn | None:
        if self.status != "playing" or self.row.turn_seconds is None:
            return None
        return timed_turn(self.table.match, self.seats, self._people_here())

    async def _play_computer(
        self, seat: Seat, spec: str, point: int, action: Action | None
    ) -> bool:
        """Play the decision of ``spec`` for ``seat`` at ``point``, if the table is still there
        and ``spec`` still decides for it (``Computers``' ``Play``)."""
        async with self.lock:
            if self.status != "playing":
                return True  # closed meanwhile
            if self.table.point != point or self._decider(seat) != spec:
                return True  # the table moved on (or the seat changed hands) meanwhile
            if action is None:
                return False
            deal = deal_in_play(self.status, self.match)
            reason = deal.why_illegal(action)
            if reason is None:
                # A stand-in's move at a person's seat (none stands in): they ran out of time.
                stood = self.table.seats[seat] is None and action.kind is not ActionKind.ANSWER
                made = self._stood.mark(self.table.match) if stood else None
                try:
                    await self._apply(action)
                except BaseException:
                    if made is not None:
                        self._stood.forget(made)
                    raise
                return True
            log.error("table %s: %s chose %s: %s", self.id, spec, action, reason)
            return False

    # -- what each connection sees ---------------------------------------------------------------

    def _connected(self) -> frozenset[Seat]:
        return frozenset(c.seat for c in self.connections if c.seat is not None)

    def summary(self) -> dict[str, Any]:
        """The table's summary (docs/WEB.md)."""
        return table_summary(self.row, self.seats, self.match, self._connected())

    def _states(self) -> dict[Seat | None, str]:
        """The state frame of each seat with a connection, and of a spectator if one watches;
        each built once per change, however many connections share it."""
        viewers = {c.seat for c in self.connections}
        summary = self._frames.summary_json(self.row, self.seats, self.match, self._connected())
        self._time_turn(self._timed_turn())  # the frames show the turn timed now
        clock = json.dumps(self._clock.frame())
        waiting = self.waiting
        between = "null" if waiting is None else waiting.to_json(self.seats, self._connected())
        stood = self._stood.json(self.match)
        return self._frames.states(summary, self.match, viewers, clock, between, stood)

    def _broadcast(self, only: Seat | None = None) -> None:
        """Send each connection its state (``only``: the connections of that seat alone)."""
        if not self.connections:
            return
        frames = self._states()
        for connection in self.connections:
            if only is None or connection.seat == only:
                connection.send_state(frames[connection.seat])
        if only is None:
            self._presence.shown = self._connected()

    # -- finished matches ------------------------------------------------------------------------

    def record(self) -> Record:
        """The match as a RECORD.md record, its players and the table under ``meta``."""
        assert self.match is not None
        return match_record(self.row, self.seats, self.match)

    async def replay_json(self) -> str:
        """``{"steps": replay_steps()}`` as JSON, made once (a finished match does not change)."""
        if self._replay is None:
            assert self.match is not None
            steps = await asyncio.to_thread(replay_steps, self.match)
            self._replay = json.dumps({"steps": steps})
        return self._replay
