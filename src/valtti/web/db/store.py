"""The web table's store: tables, seats, deals, every accepted action, and finished matches'
reviews (docs/WEB.md).

One ``Store`` per server process, shared by all threads (the server calls it through
``asyncio.to_thread``, and stores actions through ``submit_action``). SQLite (a file, or
``sqlite://`` in memory for tests) or PostgreSQL through SQLAlchemy Core, over the tables of
``schema``; the schema is created and upgraded by the Alembic migrations (``migrate``), run to
head whenever a ``Store`` opens. A sole ``Store`` (a server's) holds the database (``locks``);
actions are written by a thread of its own (``writer``).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import threading
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Final, TypeVar

import platformdirs
from sqlalchemy import (
    ColumnElement,
    Row,
    case,
    create_engine,
    event,
    func,
    insert,
    make_url,
    or_,
    select,
    update,
)
from sqlalchemy.engine import URL, Connection
from sqlalchemy.pool import ConnectionPoolEntry, StaticPool

from valtti.engine import CardSet, Seat, Variant
from valtti.engine.record import DealRecord, Record
from valtti.web.db import migrate
from valtti.web.db.locks import advisory_lock, lock_beside
from valtti.web.db.rows import (
    ClosedBy,
    Listed,
    Listing,
    SeatRow,
    StoredTable,
    TableRow,
    TableStatus,
)
from valtti.web.db.schema import (
    actions_table,
    deals_table,
    reviews_table,
    seats_table,
    tables_table,
)
from valtti.web.db.writer import ActionWriter

#: The URL schemes a ``Store`` opens: SQLite and PostgreSQL (through psycopg 3).
DRIVERS: Final = frozenset(
    {"sqlite", "sqlite+pysqlite", "postgresql", "postgres", "postgresql+psycopg"}
)
_SEAT_NAMES: Final = ("N", "E", "S", "W")
_UNFINISHED: Final[tuple[TableStatus, ...]] = ("waiting", "playing")
#: Milliseconds a connection waits for another's write lock on the SQLite file before failing.
_SQLITE_BUSY_MS: Final = 10_000
_T = TypeVar("_T")


class Store:
    """The tables of one database. Every method is thread-safe and commits before it returns.

    ``engine`` is the SQLAlchemy engine, for tools and checks that need the database itself.
    """

    def __init__(self, url: str, *, sole: bool = False) -> None:
        """Open ``sqlite:///path``, ``sqlite://`` (in memory) or ``postgresql://…``.

        Runs the migrations to head, creating the schema in an empty database. ``sole``: hold
        the database against every other sole ``Store`` until ``close`` (one server per
        database), else raise ``DatabaseInUse``: on a SQLite file an exclusive ``flock`` of
        ``PATH.lock`` beside it, on PostgreSQL a session advisory lock (per schema) on a
        connection of its own. A ``Store`` that is not sole (a tool, a check) takes no lock.
        """
        parsed = make_url(url)
        self._lock_file: int | None = None
        self._lock_connection: Connection | None = None
        file = parsed.database if parsed.get_backend_name() == "sqlite" else None
        if sole and file not in (None, "", ":memory:"):
            self._lock_file = lock_beside(file)
        try:
            self._open(parsed, sole)
        except BaseException:
            if self._lock_file is not None:
                os.close(self._lock_file)
            raise

    def _open(self, parsed: URL, sole: bool) -> None:
        if parsed.drivername in ("postgresql", "postgres"):
            parsed = parsed.set(drivername="postgresql+psycopg")
        # Serialises this process's writers on SQLite, which allows one writer at a time anyway:
        # waiting on a Python lock wakes at once, where SQLite's busy handler polls with sleeps
        # of up to 100 ms — too slow for add_action's latency. PostgreSQL locks rows itself.
        self._write_lock: contextlib.AbstractContextManager[object] = contextlib.nullcontext()
        self._read_lock: contextlib.AbstractContextManager[object] = contextlib.nullcontext()
        if parsed.get_backend_name() == "sqlite":
            self._write_lock = threading.Lock()
            if parsed.database in (None, "", ":memory:"):
                # One in-memory database lives in one connection: share it, one user at a time.
                self._read_lock = self._write_lock
                self.engine = create_engine(
                    parsed, poolclass=StaticPool, connect_args={"check_same_thread": False}
                )
            else:
                # A file: SQLAlchemy's default QueuePool, connections shared across threads.
                self.engine = create_engine(parsed)
            event.listen(self.engine, "connect", _sqlite_connect)
            event.listen(self.engine, "begin", _sqlite_begin)
            self._reading_engine = self.engine
        else:
            # pre_ping: a pooled connection survives a database restart.
            self.engine = create_engine(parsed, pool_pre_ping=True)
            # The few queries of load() and tables() see one snapshot.
            self._reading_engine = self.engine.execution_options(isolation_level="REPEATABLE READ")
        try:
            if sole and parsed.get_backend_name() == "postgresql":
                self._lock_connection = advisory_lock(self.engine)
            with self._writing() as connection:
                migrate.upgrade(connection)
        except BaseException:
            if self._lock_connection is not None:
                self._lock_connection.close()
            self.engine.dispose()
            raise
        self._actions = ActionWriter(self.engine, self._write_lock)

    @staticmethod
    def default_url() -> str:
        """The SQLite file ``valtti.db`` in the user's data directory, which this creates."""
        directory = Path(platformdirs.user_data_dir("valtti", appauthor=False))
        directory.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{directory / 'valtti.db'}"

    @contextlib.contextmanager
    def _writing(self) -> Iterator[Connection]:
        """A transaction committed on leaving (rolled back on an exception)."""
        with self._write_lock, self.engine.begin() as connection:
            yield connection

    @contextlib.contextmanager
    def _reading(self) -> Iterator[Connection]:
        """A connection whose queries all see one snapshot of the database."""
        with self._read_lock, self._reading_engine.connect() as connection:
            yield connection

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A write transaction on the database, committed on leaving (rolled back on an
        exception), for the stores of other resources over the same database (db/club.py)."""
        with self._writing() as connection:
            yield connection

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[Connection]:
        """A connection whose queries all see one snapshot of the database."""
        with self._reading() as connection:
            yield connection

    def create_table(self, table: TableRow, seats: Sequence[SeatRow]) -> None:
        """Store a new table with its four seats.

        ``ValueError`` unless each seat is given once and ``table.created`` has a time zone.
        """
        with self._writing() as connection:
            self.insert_table(connection, table, seats)

    @staticmethod
    def insert_table(connection: Connection, table: TableRow, seats: Sequence[SeatRow]) -> None:
        """Insert ``table`` and its seats in the transaction of ``connection`` (``transaction``);
        ``ValueError`` as ``create_table``."""
        if sorted(s.seat for s in seats) != list(Seat):
            raise ValueError(f"a table needs each of N, E, S, W once, not {seats!r}")
        if table.created.utcoffset() is None:
            raise ValueError(f"a naive time cannot be stored: {table.created!r} (give it a zone)")
        connection.execute(
            insert(tables_table),
            {
                "id": table.id,
                "created": table.created,
                "variant": json.dumps(table.variant.changes(), sort_keys=True),
                "first_dealer": str(table.first_dealer),
                "seed": table.seed,
                "creator_hash": table.creator_hash,
                "status": table.status,
                "turn_seconds": table.turn_seconds,
                "hints": table.hints,
                "time_bank_seconds": table.time_bank_seconds,
                "name": table.name,
                "next_id": table.next_id,
                "listed": table.listed,
                "closed": table.closed,
                "deal_limit": table.deal_limit,
            },
        )
        connection.execute(insert(seats_table), [_seat_values(table.id, s) for s in seats])

    def create_rematch(self, finished_id: str, table: TableRow, seats: Sequence[SeatRow]) -> None:
        """Store ``table`` as the rematch of the finished table ``finished_id`` (whose
        ``next_id`` it becomes), in one transaction. ``KeyError`` unless that table is finished
        and has no rematch yet; ``ValueError`` as ``create_table``."""
        with self._writing() as connection:
            result = connection.execute(
                update(tables_table)
                .where(
                    tables_table.c.id == finished_id,
                    tables_table.c.status == "finished",
                    tables_table.c.next_id.is_(None),
                )
                .values(next_id=table.id)
            )
            if result.rowcount != 1:
                raise KeyError(finished_id)
            self.insert_table(connection, table, seats)

    def update_seat(self, table_id: str, seat: SeatRow) -> None:
        """Replace who sits at ``seat.seat`` (``KeyError`` for an unknown table)."""
        values = _seat_values(table_id, seat)
        with self._writing() as connection:
            result = connection.execute(
                update(seats_table)
                .where(seats_table.c.table_id == table_id, seats_table.c.seat == values["seat"])
                .values(
                    kind=seat.kind,
                    name=seat.name,
                    token_hash=seat.token_hash,
                    stand_in=seat.stand_in,
                )
            )
            if result.rowcount != 1:
                raise KeyError(table_id)

    def set_bank(self, table_id: str, seat: Seat, seconds: float) -> None:
        """Keep the seconds of time bank the person at ``seat`` has left for the match (an
        unknown table is ignored)."""
        with self._writing() as connection:
            connection.execute(
                update(seats_table)
                .where(seats_table.c.table_id == table_id, seats_table.c.seat == str(seat))
                .values(bank_left=seconds)
            )

    def set_status(self, table_id: str, status: TableStatus, at: dt.datetime | None = None) -> None:
        """Set a table's status (``KeyError`` for an unknown table); "finished" also sets when
        the match ended: ``at``, or now."""
        values: dict[str, Any] = {"status": status}
        if status == "finished":
            values["finished"] = at or dt.datetime.now(dt.UTC)
        with self._writing() as connection:
            result = connection.execute(
                update(tables_table).where(tables_table.c.id == table_id).values(**values)
            )
            if result.rowcount != 1:
                raise KeyError(table_id)

    def close_table(self, table_id: str, why: ClosedBy) -> bool:
        """Close an unfinished table (status ``closed``, ``why`` kept); whether it was (a
        finished or closed table, or an unknown one, is left as it is)."""
        with self._writing() as connection:
            result = connection.execute(
                update(tables_table)
                .where(tables_table.c.id == table_id, tables_table.c.status.in_(_UNFINISHED))
                .values(status="closed", closed=why)
            )
            return result.rowcount == 1

    def idle(self, since: dt.datetime) -> list[str]:
        """The ids of the unfinished tables nobody has been connected to since ``since``: the
        last connection closed before it, or nobody ever came and the table was made before
        it; oldest first."""
        t = tables_table.c
        with self._reading() as connection:
            return list(
                connection.scalars(
                    select(t.id)
                    .where(t.status.in_(_UNFINISHED), func.coalesce(t.seen, t.created) < since)
                    .order_by(t.created, t.id)
                )
            )

    def set_seen(self, table_id: str, at: dt.datetime) -> None:
        """Note that the last person connected to the table left at ``at`` (the lobby shows a
        table nobody has been at for long as idle); an unknown table is ignored."""
        with self._writing() as connection:
            connection.execute(
                update(tables_table).where(tables_table.c.id == table_id).values(seen=at)
            )

    def add_deal(self, table_id: str, number: int, dealer: Seat, hands: Sequence[CardSet]) -> None:
        """Store deal ``number`` (from 1) with its dealer and the four hands as dealt, N E S W."""
        if len(hands) != 4:
            raise ValueError(f"a deal has four hands, not {len(hands)}")
        text = json.dumps({name: h.tokens() for name, h in zip(_SEAT_NAMES, hands, strict=True)})
        with self._writing() as connection:
            connection.execute(
                insert(deals_table),
                {"table_id": table_id, "number": number, "dealer": str(dealer), "hands": text},
            )

    def add_action(self, table_id: str, deal: int, index: int, token: str) -> None:
        """Store action ``index`` (from 0) of deal ``deal``; durable when this returns.

        ``DuplicateAction`` when that index is already stored; SQLAlchemy's ``IntegrityError``
        when the deal is not stored (its hands come first). ``submit_action``, waited for.
        """
        self.submit_action(table_id, deal, index, token).result()

    def submit_action(self, table_id: str, deal: int, index: int, token: str) -> Future[None]:
        """Start storing an action as ``add_action`` does; done once it is durable (or failed,
        with ``add_action``'s exceptions). Never blocks: the hot path of every move.

        Actions are written by one thread of the store, which commits together those that
        arrive while it commits others (a group commit: one transaction for many moves).
        """
        return self._actions.submit((table_id, deal, index, token))

    def load(self, table_id: str) -> StoredTable | None:
        """The table with its seats and record, or ``None`` if there is no such table."""
        with self._reading() as connection:
            row = connection.execute(
                select(tables_table).where(tables_table.c.id == table_id)
            ).one_or_none()
            if row is None:
                return None
            return _gather(connection, [row])[0]

    def add_review(self, table_id: str, review: str, made: dt.datetime) -> None:
        """Keep the finished match's ``review`` (JSON, docs/REVIEW.md), made at ``made``: once,
        an ``IntegrityError`` for a second."""
        with self._writing() as connection:
            connection.execute(
                insert(reviews_table).values(table_id=table_id, made=made, review=review)
            )

    def review(self, table_id: str) -> str | None:
        """The review kept for the table (``add_review``), or ``None``."""
        with self._reading() as connection:
            return connection.execute(
                select(reviews_table.c.review).where(reviews_table.c.table_id == table_id)
            ).scalar_one_or_none()

    def tables(self, limit: int = 200) -> list[StoredTable]:
        """The newest ``limit`` tables, newest first, with their seats and records.

        Four queries however many tables and actions there are.
        """
        with self._reading() as connection:
            rows = connection.execute(
                select(tables_table)
                .order_by(tables_table.c.created.desc(), tables_table.c.id.desc())
                .limit(limit)
            ).all()
            return _gather(connection, rows)

    def listing(
        self,
        status: TableStatus | None = None,
        *,
        finished_since: dt.datetime | None = None,
        offset: int = 0,
        limit: int = 20,
        ids: Sequence[str] | None = None,
    ) -> Listing:
        """One page of the lobby's list: the listed tables of ``status`` (None: all), waiting
        ones first, then playing, then finished, each newest first; a finished table only if
        its match ended (or, not known, the table was created) at or after ``finished_since``
        (None: every one); a closed one never. ``ids``: these tables instead of the listed
        ones (a person's own, listed or not). ``limit`` tables from ``offset``, with their
        seats but no records, and the number in the whole list.

        Filtered, ordered and paged in SQL (the index on status and created): three queries,
        reading no deal or action.
        """
        t = tables_table.c
        where: list[ColumnElement[bool]] = [t.status != "closed"]
        where.append(t.listed.is_(True) if ids is None else t.id.in_(ids))
        if status is not None:
            where.append(t.status == status)
        if finished_since is not None:
            ended = func.coalesce(t.finished, t.created)  # a table stored finished: created
            where.append(or_(t.status != "finished", ended >= finished_since))
        rank = case({"waiting": 0, "playing": 1}, value=t.status, else_=2)
        with self._reading() as connection:
            total = connection.scalar(select(func.count()).select_from(tables_table).where(*where))
            rows = connection.execute(
                select(tables_table)
                .where(*where)
                .order_by(rank, t.created.desc(), t.id.desc())
                .offset(offset)
                .limit(limit)
            ).all()
            stored = _gather(connection, rows, records=False)
        return Listing(
            [Listed(s, row.finished, row.seen) for s, row in zip(stored, rows, strict=True)],
            total or 0,
        )

    def unfinished(self) -> list[str]:
        """The ids of the tables waiting or playing, oldest first: the ones to resume at start."""
        with self._reading() as connection:
            return list(
                connection.scalars(
                    select(tables_table.c.id)
                    .where(tables_table.c.status.in_(_UNFINISHED))
                    .order_by(tables_table.c.created, tables_table.c.id)
                )
            )

    def close(self) -> None:
        """Finish writing the actions submitted, then close every pooled connection."""
        self._actions.close()
        if self._lock_connection is not None:
            # Closing the session (dispose) ends its advisory lock.
            self._lock_connection.invalidate()
            self._lock_connection = None
        self.engine.dispose()
        if self._lock_file is not None:
            os.close(self._lock_file)
            self._lock_file = None


def _sqlite_connect(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
    # WAL with synchronous=NORMAL: a commit is in the WAL file when it returns, so it survives
    # the process being killed (even SIGKILL), which is what a restarted server relies on; only
    # a power loss or OS crash could lose the last commits. Far faster than FULL's fsync each.
    cursor = dbapi_connection.cursor()
    for pragma in (
        "journal_mode=WAL",
        "synchronous=NORMAL",
        "foreign_keys=ON",
        f"busy_timeout={_SQLITE_BUSY_MS}",
    ):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()
    # Let SQLAlchemy emit BEGIN (_sqlite_begin) instead of Python's sqlite3 module, which emits
    # none before a SELECT: the reads of load() then share one snapshot.
    dbapi_connection.isolation_level = None


def _sqlite_begin(connection: Connection) -> None:
    connection.exec_driver_sql("BEGIN")


def _seat_values(table_id: str, seat: SeatRow) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "seat": str(Seat(seat.seat)),
        "kind": seat.kind,
        "name": seat.name,
        "token_hash": seat.token_hash,
        "stand_in": seat.stand_in,
    }


def _gather(
    connection: Connection, rows: Sequence[Row[Any]], records: bool = True
) -> list[StoredTable]:
    """The stored tables of ``rows`` of ``tables``, in their order, with one query per kind
    (``records=False``: without their deals and actions, each ``record`` ``None``)."""
    if not rows:
        return []
    ids = [row.id for row in rows]
    seats: dict[str, list[SeatRow]] = defaultdict(list)
    banks: dict[str, dict[Seat, float]] = defaultdict(dict)
    for r in connection.execute(select(seats_table).where(seats_table.c.table_id.in_(ids))):
        seat = Seat.parse(r.seat)
        seats[r.table_id].append(SeatRow(seat, r.kind, r.name, r.token_hash, r.stand_in))
        if r.bank_left is not None:
            banks[r.table_id][seat] = r.bank_left
    actions: dict[tuple[str, int], list[str]] = defaultdict(list)
    deals: dict[str, list[DealRecord]] = defaultdict(list)
    if records:
        for r in connection.execute(
            select(actions_table.c.table_id, actions_table.c.deal, actions_table.c.token)
            .where(actions_table.c.table_id.in_(ids))
            .order_by(actions_table.c.table_id, actions_table.c.deal, actions_table.c.idx)
        ):
            actions[r.table_id, r.deal].append(r.token)
        for r in connection.execute(
            select(deals_table)
            .where(deals_table.c.table_id.in_(ids))
            .order_by(deals_table.c.table_id, deals_table.c.number)
        ):
            hands = json.loads(r.hands)
            deals[r.table_id].append(
                DealRecord(
                    hands=_four(CardSet.parse(hands[name]) for name in _SEAT_NAMES),
                    actions=actions[r.table_id, r.number],
                    dealer=Seat.parse(r.dealer),
                )
            )
    out = []
    for row in rows:
        variant = Variant.from_mapping(json.loads(row.variant))
        table = TableRow(
            id=row.id,
            created=row.created,
            variant=variant,
            first_dealer=Seat.parse(row.first_dealer),
            seed=row.seed,
            creator_hash=row.creator_hash,
            status=row.status,
            turn_seconds=row.turn_seconds,
            hints=row.hints,
            time_bank_seconds=row.time_bank_seconds,
            name=row.name,
            next_id=row.next_id,
            listed=row.listed,
            closed=row.closed,
            deal_limit=row.deal_limit,
        )
        record = Record(variant, deals[row.id]) if deals[row.id] else None
        seated = _four(sorted(seats[row.id], key=lambda s: s.seat))
        out.append(StoredTable(table, seated, record, banks[row.id]))
    return out


def _four(items: Iterable[_T]) -> tuple[_T, _T, _T, _T]:
    a, b, c, d = items
    return (a, b, c, d)
