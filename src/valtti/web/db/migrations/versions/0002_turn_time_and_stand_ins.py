"""Each table's turn time, and the computer player standing in for an absent person.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from valtti.web.db.migrate import drop_columns

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Tables made before turn times have none (NULL: no limit), as they were created.
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("turn_seconds", sa.Integer(), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("stand_in", sa.String(64), nullable=True))


def downgrade() -> None:
    drop_columns("seats", "stand_in")
    drop_columns("tables", "turn_seconds")
