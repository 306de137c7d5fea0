"""Club mode (docs/HOSTING.md, "A club"): members with their sign-ins (sessions, passkeys),
invitations, the club's settings, which member sat at which seat, rating changes, and club
nights with their tables; a table may end after a number of deals (a club night's round).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06
"""

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

from valtti.web.db.migrate import drop_columns

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _time(name: str, nullable: bool = False) -> sa.Column[Any]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _fk(column: str, table: str, owner: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column], [f"{table}.id"], name=f"fk_{owner}_{table}", ondelete="CASCADE"
    )


def upgrade() -> None:
    op.add_column("tables", sa.Column("deal_limit", sa.Integer(), nullable=True))
    op.create_table(
        "club_settings",
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_club_settings"),
    )
    op.create_table(
        "members",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False),
        sa.Column("password_hash", sa.Text(), nullable=True),
        sa.Column("admin", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("disabled", sa.Boolean(), server_default=sa.false(), nullable=False),
        _time("created"),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("handle", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_members"),
        sa.UniqueConstraint("handle", name="uq_members_handle"),
        sa.UniqueConstraint("name_key", name="uq_members_name_key"),
    )
    op.create_table(
        "invitations",
        sa.Column("token_hash", sa.String(64), nullable=False),
        _time("created"),
        _time("expires"),
        sa.Column("by_member", sa.Integer(), nullable=False),
        sa.Column("used_by", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["by_member"], ["members.id"], name="fk_invitations_members", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("token_hash", name="pk_invitations"),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        _time("created"),
        _time("expires"),
        sa.Column("csrf", sa.String(64), nullable=False),
        _fk("member_id", "members", "sessions"),
        sa.PrimaryKeyConstraint("token_hash", name="pk_sessions"),
    )
    op.create_index("ix_sessions_member_id", "sessions", ["member_id"])
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(512), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("public_key", sa.Text(), nullable=False),
        sa.Column("sign_count", sa.Integer(), nullable=False),
        _time("created"),
        _fk("member_id", "members", "passkeys"),
        sa.PrimaryKeyConstraint("credential_id", name="pk_passkeys"),
    )
    op.create_index("ix_passkeys_member_id", "passkeys", ["member_id"])
    op.create_table(
        "member_seats",
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("seat", sa.String(1), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        _fk("member_id", "members", "member_seats"),
        _fk("table_id", "tables", "member_seats"),
        sa.PrimaryKeyConstraint("table_id", "seat", name="pk_member_seats"),
    )
    op.create_index("ix_member_seats_member_id", "member_seats", ["member_id"])
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        _time("at"),
        sa.Column("source", sa.String(64), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        _fk("member_id", "members", "rating_changes"),
        sa.PrimaryKeyConstraint("id", name="pk_rating_changes"),
    )
    op.create_index(
        "ix_rating_changes_member_id_source",
        "rating_changes",
        ["member_id", "source"],
        unique=True,
    )
    op.create_table(
        "nights",
        sa.Column("id", sa.String(64), nullable=False),
        _time("created"),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("host_id", sa.Integer(), nullable=False),
        sa.Column("settings", sa.Text(), nullable=False),
        sa.Column("entrants", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        _time("finished", nullable=True),
        sa.ForeignKeyConstraint(
            ["host_id"], ["members.id"], name="fk_nights_members", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_nights"),
    )
    op.create_table(
        "night_tables",
        sa.Column("night_id", sa.String(64), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("seats", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["night_id"], ["nights.id"], name="fk_night_tables_nights", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name="fk_night_tables_tables", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("night_id", "round", "number", name="pk_night_tables"),
        sa.UniqueConstraint("table_id", name="uq_night_tables_table_id"),
    )


def downgrade() -> None:
    for table in (
        "night_tables",
        "nights",
        "rating_changes",
        "member_seats",
        "passkeys",
        "sessions",
        "invitations",
        "members",
        "club_settings",
    ):
        op.drop_table(table)
    drop_columns("tables", "deal_limit")
