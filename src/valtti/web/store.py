"""The web table's database: tables, seats, deals and every accepted action (docs/WEB.md).

One ``Store`` per server process, shared by all threads (the server calls it through
``asyncio.to_thread``, and stores actions through ``submit_action``). SQLite (a file, or
``sqlite://`` in memory for tests) or PostgreSQL through SQLAlchemy Core; the schema is
created and upgraded by the Alembic migrations shipped in ``valtti/web/migrations``, run to
head whenever a ``Store`` opens.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import json
import os
import sqlite3
import sys
import threading
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal, TypeVar

import platformdirs
from alembic import command
from alembic.config import Config
from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    ColumnElement,
    DateTime,
    Dialect,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    Row,
    String,
    Table,
    Text,
    case,
    create_engine,
    event,
    func,
    insert,
    make_url,
    or_,
    select,
    text,
    true,
    update,
)
from sqlalchemy.engine import URL, Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.pool import ConnectionPoolEntry, PoolProxiedConnection, StaticPool
from sqlalchemy.types import TypeDecorator

from valtti.engine import CardSet, Seat, Variant
from valtti.engine.record import DealRecord, Record

TableStatus = Literal["waiting", "playing", "finished"]
SeatKind = Literal["open", "human", "computer"]

#: The URL schemes a ``Store`` opens: SQLite and PostgreSQL (through psycopg 3).
DRIVERS: Final = frozenset(
    {"sqlite", "sqlite+pysqlite", "postgresql", "postgres", "postgresql+psycopg"}
)
_SEAT_NAMES: Final = ("N", "E", "S", "W")
_UNFINISHED: Final[tuple[TableStatus, ...]] = ("waiting", "playing")
#: Milliseconds a connection waits for another's write lock on the SQLite file before failing.
_SQLITE_BUSY_MS: Final = 10_000
#: Seconds without an action after which the store's writing thread ends (Store.submit_action).
_WRITER_IDLE: Final = 5.0
#: The first key of the PostgreSQL advisory lock a sole Store holds (the second: its schema).
_ADVISORY_KEY: Final = 0x76616C74  # "valt"
_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class SeatRow:
    """Who sits at one seat: nobody yet, a person, or a computer player."""

    seat: Seat
    kind: SeatKind
    name: str | None  #: the nickname, or the computer player's name ("search:medium")
    token_hash: str | None  #: sha256 hex of the seat token, people only
    #: The computer player standing in for the person while they are away (``heuristic``), or
    #: ``None`` while the person plays the seat; people only (web/turns.py).
    stand_in: str | None = None


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table as created: its match's variant, first dealer and shuffling seed, and status."""

    id: str
    created: dt.datetime  #: UTC, tz-aware
    variant: Variant
    first_dealer: Seat
    seed: int  #: below 2**53
    creator_hash: str
    status: TableStatus
    #: Seconds each person has for a turn before a stand-in plays it; ``None``: no limit.
    turn_seconds: int | None = None
    #: Whether a seated person may ask for a hint on their turn (docs/WEB.md, Hints).
    hints: bool = True
    #: The table of the rematch that followed this finished match, if one did (docs/WEB.md).
    next_id: str | None = None


@dataclass(frozen=True, slots=True)
class StoredTable:
    """Everything stored about one table."""

    table: TableRow
    seats: tuple[SeatRow, SeatRow, SeatRow, SeatRow]  #: in N, E, S, W order
    #: every stored deal with its actions, each deal naming its dealer; ``None`` before the
    #: first deal. ``record.replay()`` gives the match as it stands.
    record: Record | None


@dataclass(frozen=True, slots=True)
class Listed:
    """One table of the lobby's list: its row and seats, and the times the lobby shows."""

    stored: StoredTable  #: without its record
    finished: dt.datetime | None  #: when its match ended
    seen: dt.datetime | None  #: when the last person connected to it left; None: nobody yet


@dataclass(frozen=True, slots=True)
class Listing:
    """One page of the lobby's list, and how many tables the whole list has."""

    tables: list[Listed]
    total: int


class DatabaseInUse(Exception):
    """Another sole ``Store`` (another server) holds the database."""


class NoSchema(Exception):
    """No schema of PostgreSQL's ``search_path`` exists: there is nowhere to keep the tables."""


class DuplicateAction(Exception):
    """``add_action`` for a (table, deal, index) already stored."""


class UTCDateTime(TypeDecorator[dt.datetime]):
    """A point in time, stored as UTC and read back tz-aware in UTC on every backend.

    SQLite keeps no zone (it would silently drop one) and PostgreSQL answers in the session's
    zone, so both directions convert.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: dt.datetime | None, dialect: Dialect) -> dt.datetime | None:
        if value is None:
            return None
        value = value.astimezone(dt.UTC)  # create_table refuses naive times
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(
        self, value: dt.datetime | None, dialect: Dialect
    ) -> dt.datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=dt.UTC)
        return value.astimezone(dt.UTC)


# The models. A change here needs a new migration in migrations/versions (test_store checks that
# the migrated schema matches these). Constraint names follow one convention so that later
# migrations can name what they alter.
metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "fk": "fk_%(table_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

tables_table = Table(
    "tables",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("created", UTCDateTime(), nullable=False),
    Column("variant", Text, nullable=False),  # JSON of Variant.changes()
    Column("first_dealer", String(1), nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("creator_hash", String(64), nullable=False),
    Column("status", String(16), nullable=False),
    Column("turn_seconds", Integer),  # NULL: no turn time
    Column("hints", Boolean, nullable=False, server_default=true()),
    Column("finished", UTCDateTime()),  # when the match ended (status "finished")
    Column("seen", UTCDateTime()),  # when the last person connected left (None: nobody yet)
    Column("next_id", String(64)),  # the rematch's table, once there is one
    Index(None, "created"),
    # The lobby lists by status, newest first (Store.listing).
    Index(None, "status", "created"),
)

seats_table = Table(
    "seats",
    metadata,
    Column("table_id", String(64), nullable=False),
    Column("seat", String(1), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("name", String(64)),
    Column("token_hash", String(64)),
    Column("stand_in", String(64)),  # the computer player standing in for an absent person
    PrimaryKeyConstraint("table_id", "seat"),
    ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
)

deals_table = Table(
    "deals",
    metadata,
    Column("table_id", String(64), nullable=False),
    Column("number", Integer, nullable=False),  # from 1
    Column("dealer", String(1), nullable=False),
    Column("hands", Text, nullable=False),  # JSON: {"N": [card tokens], "E": …} as in RECORD.md
    PrimaryKeyConstraint("table_id", "number"),
    ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
)

actions_table = Table(
    "actions",
    metadata,
    Column("table_id", String(64), nullable=False),
    Column("deal", Integer, nullable=False),
    Column("idx", Integer, nullable=False),  # from 0 within the deal
    Column("token", String(32), nullable=False),
    PrimaryKeyConstraint("table_id", "deal", "idx"),
    # An action can only be stored after its deal's hands.
    ForeignKeyConstraint(
        ["table_id", "deal"], ["deals.table_id", "deals.number"], ondelete="CASCADE"
    ),
)


def alembic_config(connection: Connection) -> Config:
    """The Alembic configuration of the shipped migrations, running on ``connection``.

    No alembic.ini: e.g. a new revision is made with
    ``command.revision(alembic_config(conn), message=…, autogenerate=True)`` on a database at head.
    """
    config = Config()
    config.set_main_option("script_location", "valtti.web:migrations")
    config.attributes["connection"] = connection
    return config


def drop_columns(table: str, *columns: str) -> None:
    """In a migration's downgrade: drop ``columns`` of ``table`` in place.

    Never by a batch: on SQLite a batch copies the table and drops the old one, and that drop
    deletes every row whose foreign key cascades from it (a table's seats, deals, actions).
    SQLite drops a column in place since 3.35.
    """
    from alembic import op

    sqlite = op.get_bind().dialect.name == "sqlite"
    if sqlite and sqlite3.sqlite_version_info < (3, 35):
        raise RuntimeError(
            "downgrading needs SQLite 3.35 or later to drop a column; "
            f"this is {sqlite3.sqlite_version}"
        )
    for column in columns:
        if sqlite:
            op.execute(f'ALTER TABLE "{table}" DROP COLUMN "{column}"')
        else:
            op.drop_column(table, column)


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
            self._lock_file = _lock_beside(file)
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
                self._lock_connection = _advisory_lock(self.engine)
            with self._writing() as connection:
                command.upgrade(alembic_config(connection), "head")
        except BaseException:
            if self._lock_connection is not None:
                self._lock_connection.close()
            self.engine.dispose()
            raise
        self._actions = _ActionWriter(self.engine, self._write_lock)

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

    def create_table(self, table: TableRow, seats: Sequence[SeatRow]) -> None:
        """Store a new table with its four seats.

        ``ValueError`` unless each seat is given once and ``table.created`` has a time zone.
        """
        with self._writing() as connection:
            self._insert_table(connection, table, seats)

    @staticmethod
    def _insert_table(connection: Connection, table: TableRow, seats: Sequence[SeatRow]) -> None:
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
                "next_id": table.next_id,
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
            self._insert_table(connection, table, seats)

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
    ) -> Listing:
        """One page of the lobby's list: the tables of ``status`` (None: all), waiting ones
        first, then playing, then finished, each newest first; a finished table only if its
        match ended (or, not known, the table was created) at or after ``finished_since``
        (None: every one). ``limit`` tables from
        ``offset``, with their seats but no records, and the number in the whole list.

        Filtered, ordered and paged in SQL (the index on status and created): three queries,
        reading no deal or action.
        """
        t = tables_table.c
        where: list[ColumnElement[bool]] = []
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


_ActionRow = tuple[str, int, int, str]  #: table_id, deal, idx, token


class _ActionWriter:
    """The thread that stores actions, on a connection of its own.

    Each action's future is done once the transaction holding it is committed. Actions that
    arrive while a transaction commits wait and go together in the next one, so under load
    many moves share one commit; when one of a batch fails (a duplicate, a missing deal), the
    batch is written again one action per transaction so that only its own caller hears of it.

    The connection is the driver's own (SQLAlchemy's ``raw_connection``), used with plain SQL:
    one executemany and a commit per batch, with none of the per-statement work of a
    SQLAlchemy ``Connection``.
    """

    def __init__(self, engine: Engine, lock: contextlib.AbstractContextManager[object]) -> None:
        self._engine = engine
        self._lock = lock  #: held for each transaction: the store's SQLite write lock
        dialect = engine.dialect
        self._sqlite = dialect.name == "sqlite"
        mark = "?" if dialect.paramstyle == "qmark" else "%s"  # SQLite's, psycopg's
        marks = ", ".join([mark] * 4)
        self._sql = f"INSERT INTO actions (table_id, deal, idx, token) VALUES ({marks})"
        self._connection: PoolProxiedConnection | None = None  #: the thread's
        self._pending: list[tuple[_ActionRow, Future[None]]] = []
        self._wake = threading.Condition()  #: guards the three below
        self._thread: threading.Thread | None = None
        self._closed = False  #: no thread waits for more work

    def submit(self, row: _ActionRow) -> Future[None]:
        future: Future[None] = Future()
        with self._wake:
            self._pending.append((row, future))
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="valtti-actions", daemon=True
                )
                self._thread.start()
            self._wake.notify()
        return future

    def close(self) -> None:
        """Write what is submitted, then stop the thread and give back its connection.

        From then on each batch ends its thread once written (a closed store still works, as
        an engine does after ``dispose``)."""
        with self._wake:
            self._closed = True
            thread = self._thread
            self._wake.notify()
        if thread is not None:
            thread.join()

    def _run(self) -> None:
        """Write batches until idle for _WRITER_IDLE seconds (or closed), then end.

        Ending when idle gives the connection back to the pool and lets a Store nobody closed
        be collected; the next ``submit`` starts a new thread.
        """
        while True:
            with self._wake:
                if not self._pending and not self._closed:
                    self._wake.wait(_WRITER_IDLE)
                batch, self._pending = self._pending, []
                if not batch:  # idle, or closed with everything written
                    if self._connection is not None:
                        self._connection.close()
                        self._connection = None
                    self._thread = None
                    return
            # A future cancelled before its write is not written: nobody waits for it.
            self._write([(row, f) for row, f in batch if f.set_running_or_notify_cancel()])

    def _write(self, batch: list[tuple[_ActionRow, Future[None]]]) -> None:
        if not batch:
            return
        try:
            self._commit([row for row, _ in batch])
        except Exception as e:
            if len(batch) == 1:
                batch[0][1].set_exception(e)
                return
            for row, future in batch:
                try:
                    self._commit([row])
                except Exception as alone:
                    future.set_exception(alone)
                else:
                    future.set_result(None)
            return
        for _, future in batch:
            future.set_result(None)

    def _commit(self, rows: list[_ActionRow]) -> None:
        """Insert ``rows`` in one transaction; failing as ``add_action`` does.

        Like the pool's pre-ping, a connection found lost before the commit was sent (e.g. the
        database restarted since the last batch) is replaced and the batch tried once more on a
        new one: nothing of it was committed. A commit that fails may have committed, so it is
        not tried again.
        """
        dbapi_error = self._engine.dialect.loaded_dbapi.Error
        for attempt in (1, 2):
            with self._lock:
                fresh = self._connection is None
                if self._connection is None:
                    self._connection = self._engine.raw_connection()
                connection = self._connection
                committing = False
                try:
                    cursor = connection.cursor()
                    try:
                        if self._sqlite:
                            cursor.execute("BEGIN")  # the connection autocommits otherwise
                        cursor.executemany(self._sql, rows)
                        committing = True
                        connection.commit()
                    finally:
                        cursor.close()
                    return
                except dbapi_error as e:
                    lost = self._engine.dialect.is_disconnect(e, connection.dbapi_connection, None)
                    if lost or not _rolled_back(connection):
                        self._discard(lost)
                    if lost and not committing and not fresh and attempt == 1:
                        continue
                    raise _translate(e, self._sql, rows, self._engine.dialect, lost) from None
                except BaseException:
                    self._discard(lost=False)
                    raise

    def _discard(self, lost: bool) -> None:
        """Give up the connection (lost, or in a state not known): the next batch takes one.

        A lost one is invalidated; any other goes back to the pool, which rolls it back (an
        in-memory SQLite database lives in its one connection, which must stay open).
        """
        if self._connection is not None:
            if lost:
                self._connection.invalidate()
            else:
                self._connection.close()
            self._connection = None


def _rolled_back(connection: PoolProxiedConnection) -> bool:
    """Roll back after a failed statement; whether that worked."""
    try:
        connection.rollback()
    except Exception:
        return False
    return True


def _translate(
    error: Exception, sql: str, rows: list[_ActionRow], dialect: Dialect, lost: bool
) -> Exception:
    """A driver's error storing actions as ``add_action`` raises it: ``DuplicateAction`` for an
    index already stored, SQLAlchemy's exception (e.g. ``IntegrityError``) otherwise."""
    wrapped = DBAPIError.instance(
        sql,
        rows,
        error,
        dialect.loaded_dbapi.Error,
        dialect=dialect,
        connection_invalidated=lost,
    )
    # Only an action written alone reaches its caller: a failed batch is written again so.
    if len(rows) == 1 and isinstance(wrapped, IntegrityError) and _is_duplicate_key(wrapped):
        table_id, deal, index, _ = rows[0]
        return DuplicateAction(f"table {table_id}: deal {deal} already has action {index}")
    return wrapped


def _lock_beside(database: str) -> int:
    """An open ``DATABASE.lock`` this process holds an exclusive ``flock`` of (the kernel drops
    it when the process ends, even killed), or ``DatabaseInUse``. No lock on Windows.

    The lock is beside the file itself, so that a second name for it (a symbolic link, a
    path through ``..``) finds it held."""
    path = f"{os.path.realpath(database)}.lock"
    folder = os.path.dirname(path)
    if not os.path.isdir(folder):  # else the error would name the lock file, not what is missing
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), folder)
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    if sys.platform != "win32":
        import fcntl

        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(descriptor)
            raise DatabaseInUse(
                f"another valtti server is using it (it holds {path}); one server per database"
            ) from None
        except BaseException:
            os.close(descriptor)
            raise
    return descriptor


def _advisory_lock(engine: Engine) -> Connection:
    """A connection of its own holding this schema's advisory lock, or ``DatabaseInUse``."""
    connection = engine.connect().execution_options(isolation_level="AUTOCOMMIT")
    try:
        if connection.execute(text("SELECT current_schema()")).scalar_one() is None:
            path = connection.execute(text("SHOW search_path")).scalar_one()
            raise NoSchema(
                f"no schema of its search_path ({path}) exists: create it (CREATE SCHEMA) "
                "or name one that does"
            )
        held = connection.execute(
            text("SELECT pg_try_advisory_lock(:key, hashtext(current_schema()))"),
            {"key": _ADVISORY_KEY},
        ).scalar_one()
    except BaseException:
        connection.close()
        raise
    if not held:
        connection.close()
        raise DatabaseInUse(
            "another valtti server is using it (it holds the advisory lock); "
            "one server per database"
        )
    return connection


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


def _is_duplicate_key(error: IntegrityError) -> bool:
    """Whether the statement broke a primary key or unique constraint (not a foreign key)."""
    original = error.orig
    # PostgreSQL's unique_violation; SQLite's SQLITE_CONSTRAINT_PRIMARYKEY and _UNIQUE.
    return getattr(original, "sqlstate", None) == "23505" or getattr(
        original, "sqlite_errorcode", None
    ) in (1555, 2067)


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
    for r in connection.execute(select(seats_table).where(seats_table.c.table_id.in_(ids))):
        seats[r.table_id].append(
            SeatRow(Seat.parse(r.seat), r.kind, r.name, r.token_hash, r.stand_in)
        )
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
            next_id=row.next_id,
        )
        record = Record(variant, deals[row.id]) if deals[row.id] else None
        out.append(StoredTable(table, _four(sorted(seats[row.id], key=lambda s: s.seat)), record))
    return out


def _four(items: Iterable[_T]) -> tuple[_T, _T, _T, _T]:
    a, b, c, d = items
    return (a, b, c, d)
