"""``valtti serve`` refuses to start with one line and an exit status, never a traceback: a
database it cannot open or another server holds (one server per database), an address it cannot
listen on, a --trust-proxy entry that is no address (docs/WEB.md, Running a server).

PostgreSQL runs when VALTTI_TEST_POSTGRES_URL is set, as in test_store.py.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import make_url
from tests.web.serving import Server, free_port

from valtti.cli import main
from valtti.web.db.locks import DatabaseInUse
from valtti.web.db.store import Store


def serve(*options: str) -> Result:
    return CliRunner().invoke(main, ["serve", "--port", str(free_port()), *options])


def refused(result: Result, status: int) -> str:
    """The one line a refused start printed (after click's usage lines for status 2)."""
    assert result.exit_code == status, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    assert "in a browser" not in result.output
    lines = result.output.strip().splitlines()
    if status == 2:
        assert lines[-1].startswith("Error: Invalid value for")
    else:
        assert len(lines) == 1, result.output
    return lines[-1]


def test_a_second_sole_store_is_refused_until_the_first_closes(database_url: str) -> None:
    first = Store(database_url, sole=True)
    try:
        with pytest.raises(DatabaseInUse, match="one server per database"):
            Store(database_url, sole=True)
        Store(database_url).close()  # a tool's store takes no lock
    finally:
        first.close()
    Store(database_url, sole=True).close()


def test_a_sqlite_file_by_another_path_is_the_same_database(tmp_path: Path) -> None:
    (tmp_path / "dir").mkdir()
    (tmp_path / "link.db").symlink_to(tmp_path / "valtti.db")
    first = Store(f"sqlite:///{tmp_path / 'valtti.db'}", sole=True)
    try:
        for other in ("link.db", "dir/../valtti.db"):
            with pytest.raises(DatabaseInUse, match="one server per database"):
                Store(f"sqlite:///{tmp_path / other}", sole=True)
    finally:
        first.close()


def test_a_second_server_on_a_database_refuses_to_start(
    database_url: str, start_server: Callable[..., Server]
) -> None:
    start_server(database_url)
    line = refused(serve("--db", database_url), 3)
    assert line.startswith("valtti: cannot open the database ")
    assert "another valtti server is using it" in line
    password = make_url(database_url).password
    assert not password or f":{password}@" not in line


@pytest.fixture
def random_bytes(tmp_path: Path) -> Path:
    path = tmp_path / "noise.db"
    path.write_bytes(bytes(range(256)) * 16)
    return path


@pytest.mark.parametrize(
    ("url", "status", "why"),
    [
        ("notaurl", 2, "not a database URL"),
        ("mysql://a@b/c", 2, "only SQLite"),
        ("sqlite:////proc/nope/x.db", 3, "No such file or directory: /proc/nope"),
        ("sqlite:///{tmp}", 3, "unable to open database file"),
        ("sqlite:///{noise}", 3, "file is not a database"),
    ],
)
def test_a_database_that_cannot_be_opened_is_one_line(
    url: str, status: int, why: str, tmp_path: Path, random_bytes: Path
) -> None:
    url = url.format(tmp=tmp_path, noise=random_bytes)
    line = refused(serve("--db", url), status)
    assert why in line
    assert not line.endswith(".lock")  # what is missing is the folder, not the lock file


@pytest.mark.parametrize("url", ["", " "])
@pytest.mark.serve  # valtti serve processes (refusing to start)
def test_an_empty_database_url_is_refused(url: str) -> None:
    """``--db ""`` started a server on the default database, as if no --db were given."""
    command = [sys.executable, "-m", "valtti", "serve", "--port", str(free_port()), "--db", url]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Invalid value for --db: an empty URL: give sqlite:///PATH or " in done.stderr
    assert "in a browser" not in done.stdout


@pytest.fixture
def postgres_base() -> Iterator[str]:
    base = os.environ.get("VALTTI_TEST_POSTGRES_URL")
    if not base:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but VALTTI_TEST_POSTGRES_URL is not set: PostgreSQL is tested")
        pytest.skip("PostgreSQL tests need VALTTI_TEST_POSTGRES_URL")
    yield base


@pytest.mark.postgres
def test_a_wrong_postgresql_password_is_one_line_with_the_password_masked(
    postgres_base: str,
) -> None:
    url = make_url(postgres_base).set(password="not-the-password-42")
    line = refused(serve("--db", url.render_as_string(hide_password=False)), 3)
    assert "password authentication failed" in line
    assert "not-the-password-42" not in line
    assert ":***@" in line


@pytest.mark.postgres
def test_a_postgresql_schema_that_does_not_exist_is_said_so(postgres_base: str) -> None:
    # It was "another valtti server is using it": the lock of no schema is never taken.
    url = make_url(postgres_base).update_query_dict({"options": "-csearch_path=valtti_no_such"})
    line = refused(serve("--db", url.render_as_string(hide_password=False)), 3)
    assert "no schema of its search_path (valtti_no_such) exists" in line
    assert "another valtti server" not in line


def test_a_port_in_use_is_one_line_before_any_address(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(
            main, ["serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'v.db'}"]
        )
    line = refused(result, 3)
    assert line == f"valtti: cannot listen on 127.0.0.1 port {port}: Address already in use"
    # The database was given back: a server may start on it.
    Store(f"sqlite:///{tmp_path / 'v.db'}", sole=True).close()


def test_a_host_that_is_no_address_is_a_usage_error(tmp_path: Path) -> None:
    line = refused(serve("--host", "999.1.1.1", "--db", f"sqlite:///{tmp_path / 'v.db'}"), 2)
    assert "--host" in line


@pytest.mark.parametrize("proxies", ["notanip", "127.0.0.1,", "10.0.0.1/8", "127.0.0.1,proxy"])
def test_a_trust_proxy_entry_that_is_no_address_or_network_is_a_usage_error(
    proxies: str, tmp_path: Path
) -> None:
    result = serve("--trust-proxy", proxies, "--db", f"sqlite:///{tmp_path / 'v.db'}")
    assert "--trust-proxy" in refused(result, 2)
    assert not (tmp_path / "v.db").exists()  # refused before the database is opened


def serve_on_a_taken_port(*options: str) -> Result:
    """``valtti serve`` on a port in use: options it took would fail the start, not hang it."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        return CliRunner().invoke(main, ["serve", "--port", port, *options])


@pytest.mark.parametrize("option", ["--next-deal-seconds", "--bot-delay"])
@pytest.mark.parametrize("seconds", ["inf", "nan", "-1", "1e9"])
def test_a_wait_that_is_no_number_of_seconds_is_a_usage_error(
    option: str, seconds: str, tmp_path: Path
) -> None:
    # --next-deal-seconds inf started, and at each deal's end no state frame could be made.
    result = serve_on_a_taken_port(option, seconds, "--db", f"sqlite:///{tmp_path / 'v.db'}")
    assert option in refused(result, 2)
    assert not (tmp_path / "v.db").exists()


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:"])
def test_a_database_in_memory_is_a_usage_error(url: str) -> None:
    # It served, and a restart lost every table.
    line = refused(serve_on_a_taken_port("--db", url), 2)
    assert "a database in memory, whose tables a restart loses" in line
    assert f"--db: {url} is a database in memory" in line  # as written, not sqlite:///%3Amemory%3A


@pytest.mark.parametrize(
    "url",
    ["postgresql://u:secret-42@host:notaport/db", "postgresql://u:secret-42@host:/db"],
)
def test_a_database_url_whose_port_is_no_number_is_a_usage_error(url: str) -> None:
    """SQLAlchemy reads such a port with ``int()``: its ValueError went out as a traceback,
    exit status 1, the URL with its password in the traceback's lines."""
    result = serve("--db", url)
    line = refused(result, 2)
    assert "not a database URL: its port is not a number" in line
    assert "secret-42" not in result.output
