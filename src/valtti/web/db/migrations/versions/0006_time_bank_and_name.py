"""A table gives each person a time bank for the match (none for the tables made before), and
may have a name (the tables made before have none).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from valtti.web.db.migrate import drop_columns

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# As 0005: a constant default, which SQLite adds in place (no batch copying the table).


def upgrade() -> None:
    op.add_column(
        "tables",
        sa.Column("time_bank_seconds", sa.Integer(), nullable=False, server_default="0"),
    )
    op.add_column("tables", sa.Column("name", sa.String(64), nullable=True))


def downgrade() -> None:
    drop_columns("tables", "time_bank_seconds", "name")
