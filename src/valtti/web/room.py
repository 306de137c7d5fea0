"""One table's live state: its match, seats and connections; apply, persist, broadcast.

A ``Room`` is the referee of one table (docs/WEB.md). Every change goes through its lock, in
this order: check (with the engine), write to the store and wait until it is durable, apply to
the match, then queue for every connection the state its seat may see. ``Rooms`` holds the
rooms of one server, creating, loading and resuming them from the store.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import random
import secrets
import unicodedata
from collections import OrderedDict, deque
from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, Final

from valtti.engine import Action, Match, Seat, Variant, deal_hands
from valtti.engine.record import Record
from valtti.players.arena import derive_seed
from valtti.web.bots import PLAYERS, Bots
from valtti.web.store import SeatRow, Store, StoredTable, TableRow, TableStatus

log = logging.getLogger(__name__)

NICKNAME_MAX: Final = 24
#: Frames queued for one connection beyond which it is too slow to follow and is closed.
MAX_QUEUED: Final = 256
#: Messages a connection may send in any one second, and throttles before it is closed.
RATE: Final = 20
THROTTLES: Final = 5
#: Code to close a connection that has kept flooding, and one that cannot keep up.
CLOSE_POLICY: Final = 1008
CLOSE_TOO_SLOW: Final = 1013
#: Summaries of finished tables kept for the lobby (at most as many as it lists, and some).
FINISHED_KEPT: Final = 1000

_ZERO_WIDTH_JOINER: Final = "\u200d"


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

    Frames are queued, and sent by the connection's own task, so one slow client holds up
    neither its table nor the others.
    """

    def __init__(self, seat: Seat | None) -> None:
        self.seat = seat
        self.outbox: asyncio.Queue[str | int] = asyncio.Queue()
        self._recent: deque[float] = deque(maxlen=RATE)
        self.throttles = 0
        self.closing = False

    def send(self, frame: str) -> None:
        if self.closing:
            return
        if self.outbox.qsize() >= MAX_QUEUED:
            # Too far behind to be worth catching up: drop what waits and close.
            while not self.outbox.empty():
                self.outbox.get_nowait()
            self.close(CLOSE_TOO_SLOW)
        else:
            self.outbox.put_nowait(frame)

    def close(self, code: int) -> None:
        """Close after the frames already queued (an ``int`` in the outbox is a close code)."""
        if not self.closing:
            self.closing = True
            self.outbox.put_nowait(code)

    def admit(self, now: float) -> bool:
        """Whether a message received at ``now`` is within the rate (RATE per second)."""
        if len(self._recent) == RATE and now - self._recent[0] < 1.0:
            self.throttles += 1
            return False
        self._recent.append(now)
        return True


class Room:
    """The referee of one table: seats, match, connections; every change under ``lock``."""

    def __init__(self, stored: StoredTable, rooms: Rooms) -> None:
        self.table: TableRow = stored.table
        self.seats: list[SeatRow] = list(stored.seats)
        self.match: Match | None = None if stored.record is None else stored.record.replay()
        self.seq = 0 if self.match is None else sum(len(d.history) for d in self.match.deals)
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self._rooms = rooms
        self._store = rooms.store
        self._thinking: int | None = None  #: the seq a computer player is deciding at
        self._replay: str | None = None  #: the finished match's replay, once asked for
        self._variant = self.table.variant.changes()
        self._tasks: set[asyncio.Task[None]] = set()

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
            if self.status == "waiting":
                await self._start_if_full()
            elif self.status == "playing":
                if self.match is None:
                    await self._start()
                else:
                    await self._after_action()
            self._schedule_computer()

    async def begin(self) -> None:
        """Start a new table that has no open seat."""
        async with self.lock:
            await self._start_if_full()
            self._schedule_computer()

    async def join(self, seat: Seat, nickname: str) -> str:
        """Seat a person; their token. ``RoomError("taken")`` unless the seat is open."""
        async with self.lock:
            if self.seats[seat].kind != "open":
                raise RoomError("taken", f"seat {seat} is taken")
            token = new_token()
            await self._seat(SeatRow(seat, "human", nickname, token_hash(token)))
            await self._start_if_full()
            self._broadcast()
            self._schedule_computer()
            return token

    async def act(self, connection: Connection, token: str, seq: int | None) -> None:
        """Play ``token`` for the connection's seat (docs/WEB.md: each refusal a RoomError)."""
        async with self.lock:
            seat = connection.seat
            if seat is None:
                raise RoomError("not_seated", "a spectator cannot act")
            match = self._match_in_play()
            if seq is not None and seq != self.seq:
                raise RoomError("stale", f"the table is at {self.seq} actions, not {seq}")
            deal = match.deal
            assert deal is not None
            if deal.current_player != seat:
                raise RoomError("not_your_turn", f"{deal.current_player} is to move, not {seat}")
            try:
                action = Action.parse(token)
            except ValueError as e:
                raise self._illegal(str(e)) from None
            reason = deal.why_illegal(action)
            if reason is not None:
                raise self._illegal(reason)
            await self._apply(action)

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
            await self._start_if_full()
            self._broadcast()
            self._schedule_computer()

    async def connect(self, connection: Connection) -> None:
        async with self.lock:
            was = self._connected(connection.seat)
            self.connections.add(connection)
            if connection.seat is not None and not was:
                self._broadcast()  # the seat shows as connected now
            else:
                connection.send(self._frames()[connection.seat])

    async def disconnect(self, connection: Connection) -> None:
        async with self.lock:
            self.connections.discard(connection)
            if connection.seat is not None and not self._connected(connection.seat):
                self._broadcast()
            self._retire_if_idle()

    def _retire_if_idle(self) -> None:
        """A finished table that nobody watches leaves memory (it is loaded again if asked)."""
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
        for task in self._tasks:
            task.cancel()

    async def _seat(self, row: SeatRow) -> None:
        await asyncio.to_thread(self._store.update_seat, self.id, row)
        self.seats[row.seat] = row

    async def _set_status(self, status: TableStatus) -> None:
        await asyncio.to_thread(self._store.set_status, self.id, status)
        self.table = replace(self.table, status=status)

    async def _start_if_full(self) -> None:
        if self.status == "waiting" and all(s.kind != "open" for s in self.seats):
            await self._start()

    async def _start(self) -> None:
        if self.status != "playing":
            await self._set_status("playing")
        self.match = Match(self.table.variant, self.table.first_dealer)
        await self._start_deal()

    async def _start_deal(self) -> None:
        """Deal the next deal from the table's seed; its hands are stored before any action."""
        match = self.match
        assert match is not None
        number = len(match.deals) + 1
        hands = deal_hands(random.Random(derive_seed(self.table.seed, "deal", number)))
        await asyncio.to_thread(self._store.add_deal, self.id, number, match.next_dealer, hands)
        match.start_deal(hands)

    async def _apply(self, action: Action) -> None:
        """Store a legal action, durably, then play it and tell everyone."""
        match = self.match
        assert match is not None and match.deal is not None
        index = len(match.deal.history)
        await asyncio.to_thread(
            self._store.add_action, self.id, len(match.deals), index, str(action)
        )
        match.apply(action)
        self.seq += 1
        await self._after_action()
        self._broadcast()
        self._schedule_computer()

    async def _after_action(self) -> None:
        """The next deal right after one ends; the table finished when the match is over."""
        match = self.match
        assert match is not None and match.deal is not None
        if not match.deal.is_over():
            return
        if match.is_over():
            await self._set_status("finished")
            self._retire_if_idle()
        else:
            await self._start_deal()

    def _match_in_play(self) -> Match:
        if self.status == "waiting":
            raise RoomError("waiting", "the table has not started: a seat is still open")
        if self.status == "finished":
            raise RoomError("finished", "the match is over")
        assert self.match is not None
        return self.match

    def _illegal(self, reason: str) -> RoomError:
        assert self.match is not None
        return RoomError("illegal", reason, legal=[str(a) for a in self.match.legal_actions()])

    # -- computer players ----------------------------------------------------------------------

    def _schedule_computer(self) -> None:
        """Let the computer player to move (if any) decide, once per point of the match."""
        match = self.match
        if self.status != "playing" or match is None or self._thinking == self.seq:
            return
        seat = match.current_player
        if seat is None or self.seats[seat].kind != "computer":
            return
        self._thinking = self.seq
        task = asyncio.create_task(self._computer_move(seat, self.seq))
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: a computer move failed", self.id, exc_info=task.exception())

    async def _computer_move(self, seat: Seat, seq: int) -> None:
        match = self.match
        assert match is not None
        player = self.seats[seat].name
        assert player is not None
        loop = asyncio.get_running_loop()
        began = loop.time()
        seed = derive_seed(self.table.seed, "decision", str(seat), seq)
        action = await self._rooms.bots.decide(player, seed, match.observation(seat))
        # People should see each move: wait out what is left of the delay after thinking.
        await asyncio.sleep(max(0.0, self._rooms.bot_delay - (loop.time() - began)))
        async with self.lock:
            if self.seq != seq or self.seats[seat] != SeatRow(seat, "computer", player, None):
                return  # the table moved on (or the seat changed hands) while it thought
            deal = match.deal
            assert deal is not None
            reason = deal.why_illegal(action)
            if reason is not None:
                log.error("table %s: %s chose %s: %s", self.id, player, action, reason)
                return
            await self._apply(action)

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

    def _frames(self) -> dict[Seat | None, str]:
        """The state frame of each seat with a connection, and of a spectator if one watches.

        Each is built once per change, however many connections share it, and the parts that
        all seats share are encoded once.
        """
        seats = {c.seat for c in self.connections}
        match = self.match
        head = f'{{"type":"state","table":{json.dumps(self.summary())},"seq":{self.seq},'
        if match is None or match.deal is None:
            tail = '"deal":0,"observation":null,"last_trick":null,"deals":[]}'
            return {seat: f'{head}"you":{_seat_json(seat)},{tail}' for seat in seats}
        tail = (
            f'"deal":{len(match.deals)},"last_trick":{json.dumps(_last_trick(match))},'
            f'"deals":{json.dumps(match.summary()["deals"])}}}'
        )
        views = observations_json(match, seats)
        return {
            seat: f'{head}"you":{_seat_json(seat)},"observation":{views[seat]},{tail}'
            for seat in seats
        }

    def _broadcast(self) -> None:
        if not self.connections:
            return
        frames = self._frames()
        for connection in self.connections:
            connection.send(frames[connection.seat])

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
            spectator = match.observation(Seat.N).to_dict()
            spectator.update(seat=None, hand=[], legal=[])
            steps.append(
                {
                    "deal": number,
                    "seq": seq,
                    "action": action,
                    "hands": {str(s): deal.hand(s).tokens() for s in Seat},
                    "observation": spectator,
                    "deals": match.summary()["deals"],
                }
            )

        for number, deal_record in enumerate(record.deals, start=1):
            match.start_deal(deal_record.hands)
            step(number, None)
            for token in deal_record.actions:
                match.apply(Action.parse(token))
                seq += 1
                step(number, token)
        return steps


def observations_json(match: Match, seats: Iterable[Seat | None]) -> dict[Seat | None, str]:
    """``match.observation(seat).to_dict()`` as JSON for each of ``seats`` (``None``: a
    spectator, with ``"seat": null``, no hand and no legal actions).

    Seats' observations differ only in the seat, its hand and its legal actions, so the rest
    is taken from one observation and encoded once (a test holds this to the engine's).
    """
    deal = match.deal
    assert deal is not None
    to_move = deal.current_player
    public = match.observation(Seat.N if to_move is None else to_move).to_dict()
    legal = json.dumps(public.pop("legal"))
    del public["seat"], public["hand"]
    rest = json.dumps(public)[1:]
    out: dict[Seat | None, str] = {}
    for seat in seats:
        if seat is None:
            out[seat] = f'{{"seat":null,"hand":[],"legal":[],{rest}'
        else:
            hand = json.dumps(deal.hand(seat).tokens())
            mine = legal if seat == to_move else "[]"
            out[seat] = f'{{"seat":"{seat}","hand":{hand},"legal":{mine},{rest}'
    return out


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
    """The tables of one server: created here, or loaded from the store when first needed."""

    def __init__(self, store: Store, bots: Bots, bot_delay: float) -> None:
        self.store = store
        self.bots = bots
        self.bot_delay = bot_delay
        self._rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()
        #: Summaries of finished tables not held as rooms: they no longer change.
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
        room = self._rooms.get(table_id)
        if room is not None:
            return room
        async with self._loading:
            room = self._rooms.get(table_id)
            if room is None:
                stored = await asyncio.to_thread(self.store.load, table_id)
                if stored is None:
                    return None
                room = Room(stored, self)
                self._rooms[table_id] = room
            return room

    async def summaries(self) -> list[dict[str, Any]]:
        """Every table's summary, newest first, as the lobby lists them."""
        stored = await asyncio.to_thread(self.store.tables)
        out = []
        for s in stored:
            room = self._rooms.get(s.table.id)
            if room is not None:
                out.append(room.summary())
            elif s.table.id in self._finished:
                out.append(self._finished[s.table.id])
            else:
                summary = Room(s, self).summary()
                if s.table.status == "finished":
                    self._remember(summary)
                out.append(summary)
        return out

    def retire(self, room: Room) -> None:
        """Let a finished room go, keeping its summary for the lobby."""
        self._rooms.pop(room.id, None)
        self._remember(room.summary())

    def _remember(self, summary: dict[str, Any]) -> None:
        self._finished[summary["id"]] = summary
        if len(self._finished) > FINISHED_KEPT:
            self._finished.popitem(last=False)

    def close(self) -> None:
        for room in self._rooms.values():
            room.close()
