"""The web table's database (docs/WEB.md, "Persistence"), by job: ``rows`` (what it holds, as
the server sees it), ``schema`` (the SQLAlchemy tables), ``migrate`` and ``migrations/`` (Alembic),
``locks`` (one server per database), ``writer`` (the thread that stores actions) and ``store``
(``Store``, the query API over them)."""
