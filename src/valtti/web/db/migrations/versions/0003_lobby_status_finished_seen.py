"""The lobby: when each match ended and when its last person left; an index by status.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from valtti.web.db.migrate import drop_columns

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # batch: SQLite alters a table by copying it.
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("finished", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("seen", sa.DateTime(timezone=True), nullable=True))
    # A match finished before this revision: its creation is the best time known.
    op.execute("UPDATE tables SET finished = created WHERE status = 'finished'")
    op.create_index("ix_tables_status_created", "tables", ["status", "created"])


def downgrade() -> None:
    op.drop_index("ix_tables_status_created", table_name="tables")
    drop_columns("tables", "seen", "finished")
