"""Alembic's environment: run the migrations on the connection that ``Store`` hands over.

There is no alembic.ini: ``valtti.web.db.migrate.alembic_config`` builds the configuration and
puts the connection in ``config.attributes["connection"]``.
"""

from alembic import context
from sqlalchemy.engine import Connection

from valtti.web.db.schema import metadata

if context.is_offline_mode():
    raise SystemExit("the valtti migrations run on a live connection only (no --sql mode)")

connection = context.config.attributes["connection"]
assert isinstance(connection, Connection)
context.configure(
    connection=connection,
    target_metadata=metadata,
    # SQLite alters most tables by copying them: let autogenerate write batch operations.
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
