"""Fixtures of the web table's tests: databases, real ``valtti serve`` processes, and the
application in this process.

``server`` is one server for the whole session (each test makes its own tables there);
``start_server`` starts servers a test owns, on a database it chooses, to kill and restart.
Either makes a test ``serve`` (the full tier, CONTRIBUTING.md). ``site`` and ``start_site`` are
their like for tests of the application itself: each such test runs on the application in this
process (``App``, the fast tier) and again on a real server (``serve``).
``database_url`` is an empty SQLite file or, when VALTTI_TEST_POSTGRES_URL names a database the
tests may create schemas in, an empty PostgreSQL schema (skipped without it, failed under
CI=true; marked ``postgres``).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
from sqlalchemy import create_engine, make_url, text
from tests.web.serving import App, Server, Site


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the session on a SQLite file, computer players without delay."""
    db = tmp_path_factory.mktemp("server") / "valtti.db"
    started = Server(f"sqlite:///{db}").start()
    yield started
    started.stop()


@pytest.fixture
def start_server() -> Iterator[Callable[..., Server]]:
    """Start servers (``start_server(db_url, bot_delay=0.0, tables_per_minute=0,
    options=())``, ``options`` more ``valtti serve`` options), each stopped after the test."""
    servers: list[Server] = []

    def start(
        db_url: str, bot_delay: float = 0.0, tables_per_minute: int = 0, options: Sequence[str] = ()
    ) -> Server:
        servers.append(Server(db_url, bot_delay, tables_per_minute, options).start())
        return servers[-1]

    yield start
    for s in servers:
        s.stop()


#: Where a test of the application runs: in this process, and on a real ``valtti serve``.
SITES = ["app", pytest.param("serve", marks=pytest.mark.serve)]


@pytest.fixture(scope="session", params=SITES)
def site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Site]:
    """One site for the session: the application in this process, or the session's
    ``server``."""
    if request.param == "serve":
        yield request.getfixturevalue("server")
        return
    db = tmp_path_factory.mktemp("app") / "valtti.db"
    started = App(f"sqlite:///{db}").start()
    yield started
    started.stop()


@pytest.fixture(params=SITES)
def start_site(request: pytest.FixtureRequest) -> Iterator[Callable[..., Site]]:
    """Start sites a test owns (``start_site(db_url, tables_per_minute=0)``), each stopped
    after the test: applications in this process, or servers (``start_server``)."""
    if request.param == "serve":
        yield request.getfixturevalue("start_server")
        return
    apps: list[App] = []

    def start(db_url: str, tables_per_minute: int = 0) -> Site:
        apps.append(App(db_url, tables_per_minute=tables_per_minute).start())
        return apps[-1]

    yield start
    for app in apps:
        app.stop()


def postgres_url() -> Iterator[str]:
    """A URL whose connections use a fresh PostgreSQL schema, dropped afterwards."""
    base = os.environ.get("VALTTI_TEST_POSTGRES_URL")
    if not base:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but VALTTI_TEST_POSTGRES_URL is not set: PostgreSQL is tested")
        pytest.skip("PostgreSQL tests need VALTTI_TEST_POSTGRES_URL (postgresql://user:pw@host/db)")
    schema = f"valtti_test_{uuid.uuid4().hex}"
    admin = create_engine(
        make_url(base).set(drivername="postgresql+psycopg"), isolation_level="AUTOCOMMIT"
    )
    with admin.connect() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield (
            make_url(base)
            .update_query_dict({"options": f"-csearch_path={schema}"})
            .render_as_string(hide_password=False)
        )
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database: a SQLite file, or a PostgreSQL schema of its own."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'valtti.db'}"
    else:
        yield from postgres_url()
