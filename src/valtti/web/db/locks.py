"""One server per database: the lock a sole ``Store`` holds until it closes (docs/WEB.md,
"Running a server"). On a SQLite file an exclusive ``flock`` of ``PATH.lock`` beside it, on
PostgreSQL a session advisory lock (per schema) on a connection of its own."""

from __future__ import annotations

import errno
import os
import sys
from typing import Final

from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

#: The first key of the PostgreSQL advisory lock a sole Store holds (the second: its schema).
_ADVISORY_KEY: Final = 0x76616C74  # "valt"


class DatabaseInUse(Exception):
    """Another sole ``Store`` (another server) holds the database."""


class NoSchema(Exception):
    """No schema of PostgreSQL's ``search_path`` exists: there is nowhere to keep the tables."""


def lock_beside(database: str) -> int:
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


def advisory_lock(engine: Engine) -> Connection:
    """A connection of its own holding this schema's advisory lock, or ``DatabaseInUse``
    (``NoSchema`` when the ``search_path`` names no schema that exists)."""
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
