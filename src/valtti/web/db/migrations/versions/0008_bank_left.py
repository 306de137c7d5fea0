"""Each person's time bank left is kept with their seat, so that a restarted server gives
nobody back the bank they spent (NULL: the table's whole bank, as for the seats before).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from valtti.web.db.migrate import drop_columns

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("bank_left", sa.Float(), nullable=True))


def downgrade() -> None:
    drop_columns("seats", "bank_left")
