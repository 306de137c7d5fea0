"""A finished match's review is kept with it (docs/REVIEW.md), made once and served from the
store after a restart.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("made", sa.DateTime(timezone=True), nullable=False),
        sa.Column("review", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("table_id", name="pk_reviews"),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name="fk_reviews_tables", ondelete="CASCADE"
        ),
    )


def downgrade() -> None:
    op.drop_table("reviews")
