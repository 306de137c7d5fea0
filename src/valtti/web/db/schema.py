"""The web table's database schema as SQLAlchemy Core tables: ``tables``, ``seats``, ``deals``,
``actions`` and ``reviews`` (docs/WEB.md, "Persistence"), and club mode's members, sign-ins,
ratings and club nights (docs/HOSTING.md, "A club").

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
    false,
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
    Column("deal_limit", Integer),  # the match ends after this many deals (NULL: by the rules)
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


# -- club mode (docs/HOSTING.md, "A club"): members, their sign-ins, and club nights ----------

members_table = Table(
    "members",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False),
    Column("name_key", String(64), nullable=False, unique=True),  # the name case-folded
    Column("password_hash", Text),  # Argon2id (argon2-cffi's PHC string); NULL: passkeys only
    Column("admin", Boolean, nullable=False, server_default=false()),
    Column("disabled", Boolean, nullable=False, server_default=false()),
    Column("created", UTCDateTime(), nullable=False),
    Column("mu", Float, nullable=False),  # the OpenSkill rating (web/club/ratings.py)
    Column("sigma", Float, nullable=False),
    # A passkey's WebAuthn user handle (random, not the id: it must not identify the member).
    Column("handle", String(64), nullable=False, unique=True),
)

invitations_table = Table(
    "invitations",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("created", UTCDateTime(), nullable=False),
    Column("expires", UTCDateTime(), nullable=False),
    Column("by_member", Integer, nullable=False),
    Column("used_by", Integer),  # the member who signed up with it
    ForeignKeyConstraint(["by_member"], ["members.id"], ondelete="CASCADE"),
)

sessions_table = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("member_id", Integer, nullable=False),
    Column("created", UTCDateTime(), nullable=False),
    Column("expires", UTCDateTime(), nullable=False),
    Column("csrf", String(64), nullable=False),  # the token pages send back (X-CSRF-Token)
    ForeignKeyConstraint(["member_id"], ["members.id"], ondelete="CASCADE"),
    Index(None, "member_id"),
)

passkeys_table = Table(
    "passkeys",
    metadata,
    Column("credential_id", String(512), primary_key=True),  # base64url
    Column("member_id", Integer, nullable=False),
    Column("public_key", Text, nullable=False),  # base64url of the COSE key
    Column("sign_count", Integer, nullable=False),
    Column("created", UTCDateTime(), nullable=False),
    ForeignKeyConstraint(["member_id"], ["members.id"], ondelete="CASCADE"),
    Index(None, "member_id"),
)

club_settings_table = Table(
    "club_settings",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", Text, nullable=False),
)

member_seats_table = Table(
    "member_seats",
    metadata,
    Column("table_id", String(64), nullable=False),
    Column("seat", String(1), nullable=False),
    Column("member_id", Integer, nullable=False),
    PrimaryKeyConstraint("table_id", "seat"),
    ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
    ForeignKeyConstraint(["member_id"], ["members.id"], ondelete="CASCADE"),
    Index(None, "member_id"),
)

nights_table = Table(
    "nights",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("created", UTCDateTime(), nullable=False),
    Column("name", String(64), nullable=False),
    Column("host_id", Integer, nullable=False),
    Column("settings", Text, nullable=False),  # JSON: web/club/duplicate.NightSettings
    Column("entrants", Text, nullable=False),  # JSON: each entrant's member id or computer
    Column("status", String(16), nullable=False),  # "playing" or "finished"
    Column("finished", UTCDateTime()),
    ForeignKeyConstraint(["host_id"], ["members.id"], ondelete="CASCADE"),
)

night_tables_table = Table(
    "night_tables",
    metadata,
    Column("night_id", String(64), nullable=False),
    Column("round", Integer, nullable=False),  # from 1
    Column("number", Integer, nullable=False),  # the table's number in the round, from 1
    Column("table_id", String(64), nullable=False, unique=True),
    Column("seats", Text, nullable=False),  # JSON: the entrant at N, E, S, W
    PrimaryKeyConstraint("night_id", "round", "number"),
    ForeignKeyConstraint(["night_id"], ["nights.id"], ondelete="CASCADE"),
    ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
)

rating_changes_table = Table(
    "rating_changes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("member_id", Integer, nullable=False),
    Column("at", UTCDateTime(), nullable=False),
    Column("source", String(64), nullable=False),  # "table:ID" or "night:ID"
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    ForeignKeyConstraint(["member_id"], ["members.id"], ondelete="CASCADE"),
    # A match or night changes a member's rating once.
    Index(None, "member_id", "source", unique=True),
)
