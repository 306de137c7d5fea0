"""The thread that stores a server's actions (``Store.submit_action``): a write-behind writer
on a connection of its own, committing together the actions that arrive while it commits.
"""

from __future__ import annotations

import contextlib
import threading
from concurrent.futures import Future
from typing import Final

from sqlalchemy import Dialect
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.pool import PoolProxiedConnection

#: Seconds without an action after which the writing thread ends.
_WRITER_IDLE: Final = 5.0


class DuplicateAction(Exception):
    """``add_action`` for a (table, deal, index) already stored."""


ActionRow = tuple[str, int, int, str]  #: table_id, deal, idx, token


class ActionWriter:
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
        self._pending: list[tuple[ActionRow, Future[None]]] = []
        self._wake = threading.Condition()  #: guards the three below
        self._thread: threading.Thread | None = None
        self._closed = False  #: no thread waits for more work

    def submit(self, row: ActionRow) -> Future[None]:
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

    def _write(self, batch: list[tuple[ActionRow, Future[None]]]) -> None:
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

    def _commit(self, rows: list[ActionRow]) -> None:
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
    error: Exception, sql: str, rows: list[ActionRow], dialect: Dialect, lost: bool
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


def _is_duplicate_key(error: IntegrityError) -> bool:
    """Whether the statement broke a primary key or unique constraint (not a foreign key)."""
    original = error.orig
    # PostgreSQL's unique_violation; SQLite's SQLITE_CONSTRAINT_PRIMARYKEY and _UNIQUE.
    return getattr(original, "sqlstate", None) == "23505" or getattr(
        original, "sqlite_errorcode", None
    ) in (1555, 2067)
