"""The Alembic migrations of migrations/ (beside this module): their configuration, and the
helper their downgrades use.

No alembic.ini: ``alembic_config`` builds the configuration and hands the migrations a
connection (migrations/env.py). E.g. a new revision is made with
``command.revision(alembic_config(conn), message=…, autogenerate=True)`` on a database at head.
"""

from __future__ import annotations

import sqlite3

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection


def alembic_config(connection: Connection) -> Config:
    """The Alembic configuration of the shipped migrations, running on ``connection``."""
    config = Config()
    config.set_main_option("script_location", "valtti.web.db:migrations")
    config.attributes["connection"] = connection
    return config


def upgrade(connection: Connection) -> None:
    """Run the migrations to head on ``connection``, creating the schema in an empty
    database."""
    command.upgrade(alembic_config(connection), "head")


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
