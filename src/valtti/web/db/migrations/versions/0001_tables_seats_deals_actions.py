"""Tables, their seats, their deals and every accepted action.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("variant", sa.Text(), nullable=False),
        sa.Column("first_dealer", sa.String(1), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("creator_hash", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_tables"),
    )
    op.create_index("ix_tables_created", "tables", ["created"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("seat", sa.String(1), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.PrimaryKeyConstraint("table_id", "seat", name="pk_seats"),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name="fk_seats_tables", ondelete="CASCADE"
        ),
    )
    op.create_table(
        "deals",
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("dealer", sa.String(1), nullable=False),
        sa.Column("hands", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "number", name="pk_deals"),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name="fk_deals_tables", ondelete="CASCADE"
        ),
    )
    op.create_table(
        "actions",
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("deal", sa.Integer(), nullable=False),
        sa.Column("idx", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "deal", "idx", name="pk_actions"),
        sa.ForeignKeyConstraint(
            ["table_id", "deal"],
            ["deals.table_id", "deals.number"],
            name="fk_actions_deals",
            ondelete="CASCADE",
        ),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_table("deals")
    op.drop_table("seats")
    op.drop_index("ix_tables_created", table_name="tables")
    op.drop_table("tables")
