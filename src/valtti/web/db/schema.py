"""The web table's database schema as SQLAlchemy Core tables: ``tables``, ``seats``, ``deals``,
``actions`` and ``reviews`` (docs/WEB.md, "Persistence").

A change here needs a new migration in migrations/versions (tests/web/test_store.py checks that
the migrated schema matches these models).
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Dialect,
    Float,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    true,
)
from sqlalchemy.types import TypeDecorator


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


# Constraint names follow one convention so that later migrations can name what they alter.
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
    Column("time_bank_seconds", Integer, nullable=False, server_default="0"),
    Column("name", String(64)),  # NULL: none given
    Column("finished", UTCDateTime()),  # when the match ended (status "finished")
    Column("seen", UTCDateTime()),  # when the last person connected left (None: nobody yet)
    Column("next_id", String(64)),  # the rematch's table, once there is one
    Column("listed", Boolean, nullable=False, server_default=true()),  # in the lobby's list
    Column("closed", String(16)),  # why a closed table was closed: "creator" or "idle"
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
    Column("bank_left", Float),  # seconds of the person's time bank left (NULL: the whole bank)
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

reviews_table = Table(
    "reviews",
    metadata,
    Column("table_id", String(64), primary_key=True),
    Column("made", UTCDateTime(), nullable=False),
    Column("review", Text, nullable=False),  # JSON: coach.review.MatchReview.to_dict()
    ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
)
