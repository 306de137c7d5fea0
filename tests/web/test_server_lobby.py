"""The lobby's list over HTTP (order, filters, pages, idle tables, finished ones ageing out but
reachable by their link) on SQLite and PostgreSQL, and the 404 answers of unknown tables and
routes (docs/WEB.md)."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from typing import Any

from tests.web.serving import ALL_OPEN, Server
from tests.web.test_store import play_and_store

from valtti.engine import Match, Seat, Variant
from valtti.web.db.rows import SeatRow, TableRow
from valtti.web.db.store import Store
from valtti.web.referee.rooms import IDLE_AFTER, LISTED_AFTER_FINISH, PAGE_SIZE

OPEN = tuple(SeatRow(s, "open", None, None) for s in Seat)
PEOPLE = tuple(SeatRow(s, "human", f"P{s}", f"{int(s)}" * 64) for s in Seat)
COMPUTERS = tuple(SeatRow(s, "computer", "random", None) for s in Seat)


def _stored_tables(db_url: str) -> dt.datetime:
    """Tables as a server that ran for a while left them, up to now; now.

    Now is taken here, not when the module is imported: a long test session would otherwise
    age a table made "a minute ago" past IDLE_AFTER.
    """
    now = dt.datetime.now(dt.UTC)

    def _row(table_id: str, ago: dt.timedelta, status: str) -> TableRow:
        return TableRow(table_id, now - ago, Variant(), Seat.N, 7, "c" * 64, status)  # type: ignore[arg-type]

    store = Store(db_url)
    hour = dt.timedelta(hours=1)
    store.create_table(_row("waiting-new", dt.timedelta(minutes=1), "waiting"), OPEN)
    store.create_table(_row("waiting-old", 3 * hour, "waiting"), OPEN)  # nobody ever came
    store.create_table(_row("playing-left", 2 * hour, "playing"), PEOPLE)
    store.set_seen("playing-left", now - IDLE_AFTER - dt.timedelta(minutes=1))
    store.create_table(_row("playing-here", 4 * hour, "playing"), PEOPLE)
    store.set_seen("playing-here", now - dt.timedelta(minutes=1))
    for table_id, ended in (
        ("finished-new", hour),
        ("finished-old", LISTED_AFTER_FINISH + hour),
    ):
        store.create_table(_row(table_id, ended + hour, "playing"), COMPUTERS)
        play_and_store(store, table_id, Match(Variant(), Seat.N), random.Random(table_id))
        store.set_status(table_id, "finished", at=now - ended)
    store.close()
    return now


def _listed(server: Server, **params: Any) -> dict[str, Any]:
    answer = server.http.get("/api/tables", params=params)
    assert answer.status_code == 200, answer.text
    listed: dict[str, Any] = answer.json()
    return listed


def _ids(listed: dict[str, Any]) -> list[str]:
    return [t["id"] for t in listed["tables"]]


def test_the_list_waiting_first_idle_tables_marked_old_finished_ones_aged_out(
    database_url: str, start_server: Callable[..., Server]
) -> None:
    now = _stored_tables(database_url)
    server = start_server(database_url)
    listed = _listed(server)
    assert _ids(listed) == [
        "waiting-new",
        "waiting-old",
        "playing-left",
        "playing-here",
        "finished-new",
    ]
    assert (listed["status"], listed["page"], listed["pages"], listed["total"]) == (None, 1, 1, 5)
    idle = {t["id"]: t["idle"] for t in listed["tables"]}
    assert idle == {
        "waiting-new": False,
        "waiting-old": True,
        "playing-left": True,
        "playing-here": False,
        "finished-new": False,
    }
    for status, ids in (
        ("waiting", ["waiting-new", "waiting-old"]),
        ("playing", ["playing-left", "playing-here"]),
        ("finished", ["finished-new"]),
    ):
        filtered = _listed(server, status=status)
        assert _ids(filtered) == ids and filtered["total"] == len(ids)
        assert filtered["status"] == status

    # Aged out of the list, but its link, summary, record and replay all answer.
    old = "finished-old"
    page = server.http.get(f"/t/{old}")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    summary = server.http.get(f"/api/tables/{old}").json()
    assert summary["status"] == "finished" and summary["winner"] is not None
    assert server.http.get(f"/api/tables/{old}/record").json()["deals"]
    assert server.http.get(f"/api/tables/{old}/replay").json()["steps"]

    # Someone comes to the idle waiting table: it is no longer idle, nor once they leave.
    watcher = server.socket("waiting-old")
    watcher.state()
    assert {t["id"]: t["idle"] for t in _listed(server)["tables"]}["waiting-old"] is False
    watcher.close()
    assert {t["id"]: t["idle"] for t in _listed(server)["tables"]}["waiting-old"] is False
    store = Store(database_url)
    try:
        seen = {t.stored.table.id: t.seen for t in store.listing("waiting").tables}
    finally:
        store.close()
    assert seen["waiting-old"] is not None and seen["waiting-old"] > now


def test_pages_of_the_list(database_url: str, start_server: Callable[..., Server]) -> None:
    server = start_server(database_url)
    made = [server.create(ALL_OPEN)["id"] for _ in range(PAGE_SIZE + 3)]
    newest_first = made[::-1]
    first, second = _listed(server, page=1), _listed(server, page=2)
    assert _ids(first) == newest_first[:PAGE_SIZE] and _ids(second) == newest_first[PAGE_SIZE:]
    assert (first["pages"], first["total"], second["page"]) == (2, PAGE_SIZE + 3, 2)
    beyond = _listed(server, page=3)
    assert beyond["tables"] == [] and beyond["pages"] == 2
    assert _listed(server, status="finished", page=1)["tables"] == []
    for params in ({"status": "lost"}, {"page": "0"}, {"page": "x"}):
        answer = server.http.get("/api/tables", params=params)
        assert answer.status_code == 400 and answer.json()["error"] == "bad_request", params


def test_unknown_tables_and_routes_answer_404(server: Server) -> None:
    for path in ("/t/no-such-table", "/nowhere", "/t/", "/static/no-such.js"):
        answer = server.http.get(path)
        assert answer.status_code == 404, path
        assert "text/html" in answer.headers["content-type"], path
        assert 'id="notfound"' in answer.text and 'href="/"' in answer.text, path
        assert answer.headers["x-frame-options"], path  # hardened as every page
    for path in ("/api/nowhere", "/api/tables/no-such-table", "/api/tables/x/seats/N/more"):
        answer = server.http.get(path)
        assert answer.status_code == 404, path
        body = answer.json()
        assert body["error"] == "not_found" and body["message"], path
        assert set(body) == {"error", "message"}, path
