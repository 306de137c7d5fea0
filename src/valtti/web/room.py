"""One table's live state: its match, seats and connections; apply, persist, broadcast.

A ``Room`` is the referee of one table (docs/WEB.md). Every change goes through its lock, in
this order: check (with the engine), write to the store and wait until it is durable, apply to
the match, then queue for every connection the state its seat may see. ``Rooms`` holds the
rooms of one server, creating, loading and resuming them from the store.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
import random
import secrets
import unicodedata
from collections import OrderedDict, deque
from collections.abc import Coroutine, Iterable, Mapping
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, Final

from valtti.engine import Action, CardSet, Deal, Match, Seat, Variant, deal_hands
from valtti.engine.actions import ActionKind
from valtti.engine.record import Record
from valtti.engine.views import Phase
from valtti.players.registry import make_player
from valtti.table import derive_seed
from valtti.web.bots import PLAYERS, Bots
from valtti.web.store import SeatRow, Store, StoredTable, TableRow, TableStatus

log = logging.getLogger(__name__)

NICKNAME_MAX: Final = 24
#: Frames other than states waiting for one connection beyond which it is closed as too slow.
MAX_QUEUED: Final = 256
#: Messages a connection may send in any one second, and throttles before it is closed.
RATE: Final = 20
THROTTLES: Final = 5
#: Code to close a connection that has kept flooding, and one that cannot keep up.
CLOSE_POLICY: Final = 1008
CLOSE_TOO_SLOW: Final = 1013
#: Summaries of finished tables kept for the lobby (at most as many as it lists, and some).
FINISHED_KEPT: Final = 1000
#: Finished tables kept in memory for their record and replay, the most recently asked for.
FINISHED_ROOMS: Final = 32
#: Failed decisions of a computer player before the ``random`` player decides for it, and the
#: seconds to wait before each new try (also before dealing again after a database error).
BOT_FAILURES: Final = 2
RETRY_SECONDS: Final = 0.5
#: Everyone who may watch a table: the four seats and a spectator.
VIEWERS: Final[tuple[Seat | None, ...]] = (*Seat, None)

_ZERO_WIDTH_JOINER: Final = "\u200d"


class WriteFailed(Exception):
    """The store refused an action: it was not played, and sending it again may succeed."""


class RoomError(Exception):
    """A refused request: the ``code`` and ``message`` of docs/WEB.md, and extra fields."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

    def frame(self) -> str:
        return json.dumps(
            {"type": "error", "code": self.code, "message": self.message, **self.extra}
        )


def token_hash(token: str) -> str:
    """How a token is kept: its SHA-256 in hex, so the store never holds one that works."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def check_nickname(value: object) -> str:
    """The nickname trimmed; ``RoomError("bad_nickname")`` unless 1–24 characters of text."""
    if not isinstance(value, str):
        raise RoomError("bad_nickname", "the nickname must be a string")
    name = value.strip()
    if not 1 <= len(name) <= NICKNAME_MAX:
        raise RoomError("bad_nickname", f"a nickname is 1 to {NICKNAME_MAX} characters")
    # Control, format (bidirectional overrides) and surrogate characters could disguise a name.
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs") and c != _ZERO_WIDTH_JOINER for c in name):
        raise RoomError("bad_nickname", "a nickname cannot hold control characters")
    return name


def check_player(value: object) -> str:
    """A computer player's name as the tables allow it; ``RoomError("bad_player")`` otherwise."""
    name = value.strip().lower() if isinstance(value, str) else None
    if name not in PLAYERS:
        raise RoomError("bad_player", f"unknown computer player {value!r}: one of {PLAYERS}")
    return name


def check_seat(value: object) -> Seat:
    if not isinstance(value, str) or value.upper() not in Seat.__members__:
        raise RoomError("bad_seat", f"not a seat: {value!r} (N, E, S or W)")
    return Seat[value.upper()]


class Connection:
    """One open WebSocket of a table: its seat (``None``: a spectator) and its frames to send.

    Frames wait here and are sent by the connection's own task, so one slow client holds up
    neither its table nor the others. A state frame replaces the state frame still waiting (a
    client needs only the newest), so a slow client costs one state frame of memory; other
    frames (errors, pongs) are kept in order, and too many of them close the connection.
    """

    def __init__(self, seat: Seat | None = None) -> None:
        self.seat = seat
        self._waiting: deque[str] = deque()
        self._state: str | None = None  #: the state frame in ``_waiting``, if one is
        self._close: int | None = None
        self._ready = asyncio.Event()
        self._recent: deque[float] = deque(maxlen=RATE)
        self.throttles = 0

    @property
    def closing(self) -> bool:
        return self._close is not None

    def send(self, frame: str) -> None:
        """Queue a frame that is not a state frame (an error, a pong)."""
        if self.closing:
            return
        if len(self._waiting) >= MAX_QUEUED:
            # Too far behind to be worth catching up: drop what waits and close.
            self._waiting.clear()
            self._state = None
            self.close(CLOSE_TOO_SLOW)
            return
        self._waiting.append(frame)
        self._ready.set()

    def send_state(self, frame: str) -> None:
        """Queue a state frame in place of the one still waiting, if any."""
        if self.closing:
            return
        if self._state is not None:
            self._waiting.remove(self._state)
        self._state = frame
        self._waiting.append(frame)
        self._ready.set()

    def close(self, code: int) -> None:
        """Close after the frames already queued."""
        if not self.closing:
            self._close = code
            self._ready.set()

    async def next(self) -> str | int:
        """The next frame to send, or the code to close with once none is left."""
        while not self._waiting:
            if self._close is not None:
                return self._close
            self._ready.clear()
            await self._ready.wait()
        frame = self._waiting.popleft()
        if frame is self._state:
            self._state = None
        return frame

    def admit(self, now: float) -> bool:
        """Whether a message received at ``now`` is within the rate (RATE per second)."""
        if len(self._recent) == RATE and now - self._recent[0] < 1.0:
            self.throttles += 1
            return False
        self._recent.append(now)
        return True


class Room:
    """The referee of one table: seats, match, connections; every change under ``lock``.

    ``seq`` counts the match's public actions: every accepted action but ``answer`` (which of
    several marriages a partner chose is private, RULES.md 7.2). While a partner chooses (the
    ANSWER phase) only that seat is told of the ``ask-whole``: every other connection keeps the
    state from before it until the answer is given.
    """

    def __init__(self, stored: StoredTable, rooms: Rooms) -> None:
        self.table: TableRow = stored.table
        self.seats: list[SeatRow] = list(stored.seats)
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self._rooms = rooms
        self._store = rooms.store
        self._thinking: int | None = None  #: the point a computer player is deciding at
        self._replay: str | None = None  #: the finished match's replay, once asked for
        self._variant = self.table.variant.changes()
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False  #: the server is stopping: no new work
        self.match: Match | None = None
        self.seq = 0
        self._count = 0  #: every action of the match, answers included: its points
        #: While a partner chooses: each viewer's state from before the ``ask-whole``.
        self._held: dict[Seat | None, str] | None = None
        self._columns = DealColumns()  #: of ``match``
        #: ``summary()`` encoded, and what it was encoded for (``_summary_json``).
        self._summary: tuple[tuple[object, ...], str] | None = None
        self._load(stored.record)

    def _load(self, record: Record | None) -> None:
        self.match = None if record is None else record.replay()
        self._columns = DealColumns()
        histories = [] if self.match is None else [d.history for d in self.match.deals]
        self._count = sum(len(h) for h in histories)
        self.seq = sum(1 for h in histories for a in h if a.kind is not ActionKind.ANSWER)
        self._held = None
        if record is not None and self._answering() is not None:
            # Stopped while a partner chooses: the others saw the match before the ask-whole.
            last = record.deals[-1]
            deals = [*record.deals[:-1], replace(last, actions=last.actions[:-1])]
            before = Record(record.variant, deals).replay()
            self._held = _bodies(before, VIEWERS, self.seq - 1, DealColumns())

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
        """Play ``token`` for the connection's seat (docs/WEB.md: each refusal a RoomError)."""
        async with self.lock:
            seat = connection.seat
            if seat is None:
                raise RoomError("not_seated", "a spectator cannot act")
            deal = self._deal_in_play()
            if seq is not None and seq != self.seq:
                raise RoomError("stale", f"the table is at {self.seq} actions, not {seq}")
            answering = self._answering()
            if answering is not None and seat != answering:
                # Naming who is to move would tell that a partner is choosing a marriage.
                raise RoomError("not_your_turn", "wait for the next state of the table")
            if deal.current_player != seat:
                raise RoomError("not_your_turn", f"{deal.current_player} is to move, not {seat}")
            try:
                action = Action.parse(token)
            except ValueError as e:
                raise self._illegal(str(e)) from None
            reason = deal.why_illegal(action)
            if reason is not None:
                raise self._illegal(reason)
            try:
                await self._apply(action)
            except WriteFailed as e:
                log.error("table %s: storing %s for %s failed: %s", self.id, action, seat, e)
                raise RoomError("unavailable", "the move could not be saved; send it again") from e

    async def replace(self, seat: Seat, player: str, creator_token: str) -> None:
        """Hand an open or a person's seat to a computer player, for the table's creator."""
        async with self.lock:
            if not secrets.compare_digest(token_hash(creator_token), self.table.creator_hash):
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
            was = self._connected(seat)
            self.connections.add(connection)
            if seat is not None and not was:
                self._broadcast()  # the seat shows as connected now
            else:
                connection.send_state(self._frames()[seat])

    async def disconnect(self, connection: Connection) -> None:
        async with self.lock:
            self.connections.discard(connection)
            if connection.seat is not None and not self._connected(connection.seat):
                self._broadcast()
            self._retire_if_idle()

    def _retire_if_idle(self) -> None:
        """A finished table that nobody watches leaves the live tables (``Rooms.retire``)."""
        if self.status == "finished" and not self.connections:
            self._rooms.retire(self)

    def seat_of(self, token: str) -> Seat | None:
        """The seat ``token`` plays, or ``None``."""
        digest = token_hash(token)
        for row in self.seats:
            if row.token_hash is not None and secrets.compare_digest(row.token_hash, digest):
                return row.seat
        return None

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
            self._retire_if_idle()
        else:
            await self._start_deal(self.match)

    async def _go_on(self) -> None:
        """``_settle``; when the store fails, log it and try again a little later."""
        try:
            await self._settle()
        except Exception:
            log.exception("table %s: a write failed; trying again", self.id)
            self._spawn(self._retry())

    async def _retry(self) -> None:
        await asyncio.sleep(RETRY_SECONDS)
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
        # Before an ask-whole, what everyone sees, kept in case the partner gets to choose.
        before = None
        if action.kind is ActionKind.ASK_WHOLE:
            before = _bodies(match, VIEWERS, self.seq, self._columns)
        match.apply(action)
        self._count += 1
        if action.kind is not ActionKind.ANSWER:
            self.seq += 1
        answering = self._answering()
        self._held = None if answering is None else before
        if cancelled:
            raise asyncio.CancelledError
        if answering is None:
            await self._go_on()
        self._broadcast(answering)
        self._schedule_computer()

    def _answering(self) -> Seat | None:
        """The partner choosing which marriage to name (the ANSWER phase), or ``None``."""
        deal = None if self.match is None else self.match.deal
        if deal is None or deal.phase is not Phase.ANSWER:
            return None
        return deal.current_player

    def _deal_in_play(self) -> Deal:
        if self.status == "waiting":
            raise RoomError("waiting", "the table has not started: a seat is still open")
        if self.status == "finished":
            raise RoomError("finished", "the match is over")
        deal = None if self.match is None else self.match.deal
        if deal is None or deal.is_over():
            raise RoomError("not_your_turn", "the next deal is not dealt yet")
        return deal

    def _illegal(self, reason: str) -> RoomError:
        assert self.match is not None
        return RoomError("illegal", reason, legal=[str(a) for a in self.match.legal_actions()])

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
            self._thinking = None
            self._spawn(self._retry())

    def _schedule_computer(self) -> None:
        """Let the computer player to move (if any) decide, once per point of the match."""
        match = self.match
        if self.status != "playing" or match is None or self._thinking == self._count:
            return
        seat = match.current_player
        if seat is None or self.seats[seat].kind != "computer":
            return
        self._thinking = self._count
        self._spawn(self._computer_move(seat, self._count))

    async def _computer_move(self, seat: Seat, count: int) -> None:
        """Play the decision of the computer player at ``seat`` at point ``count``.

        A decision that fails or is illegal is logged and made again after a pause; after
        BOT_FAILURES of them the ``random`` player decides that point instead.
        """
        match = self.match
        row = self.seats[seat]
        assert match is not None and row.name is not None
        seed = derive_seed(self.table.seed, "decision", str(seat), count)
        observation = match.observation(seat)
        loop = asyncio.get_running_loop()
        began = loop.time()
        failures = 0
        while True:
            action: Action | None = None
            if failures < BOT_FAILURES:
                try:
                    action = await self._rooms.bots.decide(row.name, seed, observation)
                except Exception:
                    log.exception("table %s: %s failed to decide for %s", self.id, row.name, seat)
            else:
                log.warning(
                    "table %s: the random player decides for %s after %d failures of %s",
                    self.id,
                    seat,
                    failures,
                    row.name,
                )
                fallback = make_player("random", seed)
                try:
                    action = fallback.choose(observation)
                finally:
                    fallback.close()
            # People should see each move: wait out what is left of the delay after thinking.
            await asyncio.sleep(max(0.0, self._rooms.bot_delay - (loop.time() - began)))
            async with self.lock:
                if self._count != count or self.seats[seat] != row:
                    return  # the table moved on (or the seat changed hands) meanwhile
                if action is not None:
                    deal = match.deal
                    assert deal is not None
                    reason = deal.why_illegal(action)
                    if reason is None:
                        await self._apply(action)
                        return
                    log.error("table %s: %s chose %s: %s", self.id, row.name, action, reason)
            failures += 1
            await asyncio.sleep(RETRY_SECONDS)

    # -- what each connection sees ---------------------------------------------------------------

    def _connected(self, seat: Seat | None) -> bool:
        return any(c.seat == seat for c in self.connections)

    def summary(self) -> dict[str, Any]:
        """The table's summary (docs/WEB.md)."""
        match = self.match
        score = (0, 0) if match is None else match.score
        winner = None
        if match is not None and match.is_over():
            winner = "draw" if match.is_draw else str(match.winner)
        return {
            "id": self.id,
            "created": self.table.created.isoformat(),
            "status": self.status,
            "variant": self._variant,
            "seats": [
                {
                    "seat": str(row.seat),
                    "kind": row.kind,
                    "name": row.name,
                    "connected": row.kind == "computer"
                    or (row.kind == "human" and self._connected(row.seat)),
                }
                for row in self.seats
            ],
            "score": {"NS": score[0], "EW": score[1]},
            "winner": winner,
            "deals": 0 if match is None else len(match.deals),
        }

    def _summary_json(self) -> str:
        """``json.dumps(self.summary())``, encoded again only when something it shows may
        have changed: the status, a seat, who is connected, or a deal's start or end (the
        score, the winner and the number of deals change only then)."""
        match = self.match
        deal = None if match is None else match.deal
        shown = (
            self.status,
            tuple(self.seats),
            frozenset(c.seat for c in self.connections),
            0 if match is None else len(match.deals),
            deal is not None and deal.is_over(),
        )
        if self._summary is None or self._summary[0] != shown:
            self._summary = (shown, json.dumps(self.summary()))
        return self._summary[1]

    def _frames(self) -> dict[Seat | None, str]:
        """The state frame of each seat with a connection, and of a spectator if one watches.

        Each is built once per change, however many connections share it, and the parts that
        all seats share are encoded once. While a partner chooses, the others get their state
        from before the ask-whole.
        """
        viewers = {c.seat for c in self.connections}
        answering = self._answering()
        if answering is None or self._held is None:
            bodies = _bodies(self.match, viewers, self.seq, self._columns)
        else:
            bodies = {v: self._held[v] for v in viewers if v != answering}
            if answering in viewers:
                bodies |= _bodies(self.match, (answering,), self.seq, self._columns)
        head = f'{{"type":"state","table":{self._summary_json()},'
        return {viewer: head + body for viewer, body in bodies.items()}

    def _broadcast(self, only: Seat | None = None) -> None:
        """Send each connection its state (``only``: the connections of that seat alone)."""
        if not self.connections:
            return
        frames = self._frames()
        for connection in self.connections:
            if only is None or connection.seat == only:
                connection.send_state(frames[connection.seat])

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
            steps = await asyncio.to_thread(self.replay_steps)
            self._replay = json.dumps({"steps": steps})
        return self._replay

    def replay_steps(self) -> list[dict[str, Any]]:
        """One step at the start of each deal and one after each action (docs/WEB.md)."""
        assert self.match is not None
        record = self.record()
        match = Match(record.variant, self.table.first_dealer)
        steps: list[dict[str, Any]] = []
        seq = 0

        def step(number: int, action: str | None) -> None:
            deal = match.deal
            assert deal is not None
            steps.append(
                {
                    "deal": number,
                    "seq": seq,
                    "action": action,
                    "hands": {str(s): deal.hand(s).tokens() for s in Seat},
                    "observation": json.loads(observations_json(match, (None,))[None]),
                    "deals": match.summary()["deals"],
                }
            )

        for number, deal_record in enumerate(record.deals, start=1):
            match.start_deal(deal_record.hands)
            step(number, None)
            for token in deal_record.actions:
                action = Action.parse(token)
                match.apply(action)
                if action.kind is not ActionKind.ANSWER:
                    seq += 1
                step(number, token)
        return steps


def observations_json(match: Match, seats: Iterable[Seat | None]) -> dict[Seat | None, str]:
    """``match.observation(seat).to_dict()`` as JSON for each of ``seats`` (``None``: a
    spectator, who sees what the seats but the one to move see, with ``"seat": null``, no
    hand and no legal actions).

    Seats' observations differ only in the seat, its hand and its legal actions, so the rest
    is taken from one observation and encoded once (a test holds this to the engine's).
    """
    deal = match.deal
    assert deal is not None
    to_move = deal.current_player
    if deal.phase is not Phase.ANSWER:
        return _views_json(match, Seat.N if to_move is None else to_move, seats)
    # Only the partner choosing a marriage sees this phase, every other seat the deal before
    # the ask-whole (RULES.md 7.2): their views differ in more than seat, hand and legal.
    assert to_move is not None
    out: dict[Seat | None, str] = {}
    for seat in seats:
        out |= _views_json(match, to_move.partner if seat is None else seat, (seat,))
    return out


def _views_json(match: Match, source: Seat, seats: Iterable[Seat | None]) -> dict[Seat | None, str]:
    """The views of ``seats`` built from ``source``'s observation, whose legal actions are
    its own: for seats whose observations differ from it only in seat, hand and legal."""
    deal = match.deal
    assert deal is not None
    public = match.observation(source).to_dict()
    legal = json.dumps(public.pop("legal"))
    del public["seat"], public["hand"]
    rest = json.dumps(public)[1:]
    out: dict[Seat | None, str] = {}
    for seat in seats:
        if seat is None:
            out[seat] = f'{{"seat":null,"hand":[],"legal":[],{rest}'
        else:
            hand = _hand_json(deal.hand_mask(seat))
            mine = legal if seat == source else "[]"
            out[seat] = f'{{"seat":"{seat}","hand":{hand},"legal":{mine},{rest}'
    return out


class DealColumns:
    """The public columns of one match's deals as JSON: ``match.summary()["deals"]`` encoded
    by ``json.dumps``, to the byte, as a state frame carries them.

    A scored deal's columns never change, so each is encoded once; only the deal in play is
    built again for each state.
    """

    def __init__(self) -> None:
        self._scored: list[str] = []  #: each scored deal's columns, encoded

    def json(self, match: Match) -> str:
        """The columns of ``match``, the match this was first asked about (or a later
        state of it)."""
        scores = match.deal_scores
        while len(self._scored) < len(scores):
            self._scored.append(json.dumps(match.deal_summary(len(self._scored))))
        in_play = [
            json.dumps(match.deal_summary(i)) for i in range(len(self._scored), len(match.deals))
        ]
        # json.dumps separates a list's items with ", ".
        return f"[{', '.join([*self._scored, *in_play])}]"


@functools.lru_cache(maxsize=4096)
def _hand_json(mask: int) -> str:
    """The hand of ``mask`` (a ``CardSet``'s) as JSON, encoded once: a hand stays the same in
    every state of its table until its seat plays a card."""
    return json.dumps(CardSet(mask).tokens())


def _bodies(
    match: Match | None, viewers: Iterable[Seat | None], seq: int, columns: DealColumns
) -> dict[Seat | None, str]:
    """For each viewer, its state frame after ``"table": summary,`` (docs/WEB.md);
    ``columns``: the match's."""
    if match is None or match.deal is None:
        tail = '"deal":0,"observation":null,"last_trick":null,"deals":[]}'
        return {v: f'"seq":{seq},"you":{_seat_json(v)},{tail}' for v in viewers}
    tail = (
        f'"deal":{len(match.deals)},"last_trick":{json.dumps(_last_trick(match))},'
        f'"deals":{columns.json(match)}}}'
    )
    views = observations_json(match, viewers)
    return {v: f'"seq":{seq},"you":{_seat_json(v)},"observation":{views[v]},{tail}' for v in views}


def _seat_json(seat: Seat | None) -> str:
    return "null" if seat is None else f'"{seat}"'


def _last_trick(match: Match) -> dict[str, Any] | None:
    """The match's latest completed trick, which may be the previous deal's last."""
    for deal in reversed(match.deals):
        if deal.tricks:
            t = deal.tricks[-1]
            return {
                "number": t.number,
                "leader": str(t.leader),
                "cards": [str(c) for c in t.cards],
                "winner": None if t.winner is None else str(t.winner),
            }
    return None


class Rooms:
    """The tables of one server: created here, or loaded from the store when first needed.

    Unfinished tables stay in memory; finished ones only while someone watches them, and then
    the FINISHED_ROOMS most recently asked for (for their record and replay).
    """

    def __init__(self, store: Store, bots: Bots, bot_delay: float) -> None:
        self.store = store
        self.bots = bots
        self.bot_delay = bot_delay
        self._rooms: dict[str, Room] = {}
        self._finished_rooms: OrderedDict[str, Room] = OrderedDict()
        self._loading = asyncio.Lock()
        #: Summaries of finished tables not held as live rooms: they no longer change.
        self._finished: OrderedDict[str, dict[str, Any]] = OrderedDict()

    async def resume(self) -> int:
        """Load every unfinished table and let it go on; how many there were."""
        ids = await asyncio.to_thread(self.store.unfinished)
        for table_id in ids:
            room = await self.get(table_id)
            if room is not None:
                await room.resume()
        return len(ids)

    async def create(
        self,
        variant: Variant,
        players: Mapping[Seat, str | None],
        creator: tuple[Seat, str] | None,
    ) -> tuple[Room, str, str | None]:
        """A new table: ``players`` gives each seat's computer player or ``None`` (open);
        ``creator`` the seat and nickname the creator takes. The room, the creator's token and
        the creator's seat token (or ``None``)."""
        seed = secrets.randbits(53)
        creator_token = new_token()
        table = TableRow(
            id=secrets.token_urlsafe(8),
            created=datetime.now(UTC),
            variant=variant,
            first_dealer=Seat(random.Random(derive_seed(seed, "first dealer")).randrange(4)),
            seed=seed,
            creator_hash=token_hash(creator_token),
            status="waiting",
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
        room = Room(StoredTable(table, seats, None), self)
        self._rooms[table.id] = room
        await room.begin()
        return room, creator_token, seat_token

    async def get(self, table_id: str) -> Room | None:
        room = self._live(table_id)
        if room is not None:
            return room
        async with self._loading:
            room = self._live(table_id)
            if room is None:
                stored = await asyncio.to_thread(self.store.load, table_id)
                if stored is None:
                    return None
                room = Room(stored, self)
                if room.status == "finished":
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

    async def summaries(self) -> list[dict[str, Any]]:
        """Every table's summary, newest first, as the lobby lists them.

        One query of tables and seats; a finished table's match is loaded once for its
        summary, which is kept.
        """
        listed = await asyncio.to_thread(self.store.listing)
        out = []
        for s in listed:
            room = self._live(s.table.id)
            if room is not None:
                out.append(room.summary())
            elif s.table.id in self._finished:
                out.append(self._finished[s.table.id])
            elif s.table.status == "finished":
                stored = await asyncio.to_thread(self.store.load, s.table.id)
                assert stored is not None
                summary = Room(stored, self).summary()
                self._remember(summary)
                out.append(summary)
            else:
                # A table this server holds no room for (another process made it): no match.
                out.append(Room(s, self).summary())
        return out

    def retire(self, room: Room) -> None:
        """Let a finished room that nobody watches leave the live tables."""
        if self._rooms.get(room.id) is room:
            del self._rooms[room.id]
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
