"""A table may be left out of the lobby's list (a game against the computer: every table made
before is listed), and a table closed before its match ended (by its creator, or after the
time the host sets with nobody at it) says why (NULL: not closed).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from valtti.web.db.migrate import drop_columns

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# As 0005: a constant default, which SQLite adds in place (no batch copying the table).


def upgrade() -> None:
    op.add_column("tables", sa.Column("listed", sa.Boolean(), nullable=False, server_default="1"))
    op.add_column("tables", sa.Column("closed", sa.String(16), nullable=True))


def downgrade() -> None:
    # A closed table would be an unfinished one to an older server, which resumed it.
    op.execute("UPDATE tables SET status = 'finished' WHERE status = 'closed'")
    drop_columns("tables", "listed", "closed")
