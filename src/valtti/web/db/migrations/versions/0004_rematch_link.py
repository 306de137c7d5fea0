"""A finished table names the table of its rematch.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from valtti.web.db.migrate import drop_columns

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("next_id", sa.String(64), nullable=True))


def downgrade() -> None:
    drop_columns("tables", "next_id")
