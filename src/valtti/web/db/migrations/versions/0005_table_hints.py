"""A table says whether its people may ask for hints (on for the tables made before).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from valtti.web.db.migrate import drop_columns

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Not a batch, which on SQLite would copy the table and drop the old one, deleting every seat,
# deal and action with it (``drop_columns``): with a constant default SQLite adds it in place.


def upgrade() -> None:
    op.add_column("tables", sa.Column("hints", sa.Boolean(), nullable=False, server_default="1"))


def downgrade() -> None:
    drop_columns("tables", "hints")
