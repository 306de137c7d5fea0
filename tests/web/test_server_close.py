"""Tables that leave the lobby (docs/WEB.md): a game against the computer is not listed but is
its player's own (``ids``), a creator closes a table, and an unfinished table nobody has been at
for the host's time (``--close-idle-hours``) is closed, also across a restart."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from typing import Any

import pytest
from tests.web.serving import ALL_OPEN, Server, Site

from valtti.engine import Seat, Variant
from valtti.web.db.rows import SeatRow, TableRow
from valtti.web.db.store import Store
from valtti.web.referee.rooms import MAX_IDS

AGAINST_COMPUTER = {"N": "heuristic", "E": "heuristic", "S": "open", "W": "heuristic"}


def listed_ids(site: Site, **params: Any) -> list[str]:
    answer = site.http.get("/api/tables", params=params)
    assert answer.status_code == 200, answer.text
    return [t["id"] for t in answer.json()["tables"]]


def test_a_game_against_the_computer_is_its_players_own(site: Site) -> None:
    solo = site.create(AGAINST_COMPUTER, seat="S", nickname="Aino", turn_seconds=None)
    friends = site.create(ALL_OPEN, seat="N", nickname="Aino")
    shown = site.create(AGAINST_COMPUTER, seat="S", nickname="Aino", listed=True)
    hidden = site.create(ALL_OPEN, listed=False)
    watched = site.create(dict.fromkeys("NESW", "random"))  # computers alone: for spectators
    summaries = {t: site.http.get(f"/api/tables/{t}").json() for t in (solo["id"], friends["id"])}
    assert summaries[solo["id"]]["listed"] is False and summaries[friends["id"]]["listed"] is True
    everyone = listed_ids(site, status="waiting") + listed_ids(site, status="playing")
    # Nobody can join a game against the computer: the list leaves it out, unless asked.
    assert solo["id"] not in everyone and hidden["id"] not in everyone
    everyone += listed_ids(site, status="finished")
    assert friends["id"] in everyone and shown["id"] in everyone and watched["id"] in everyone
    # A person's own tables, listed or not, by their ids (their browser holds them).
    mine = [solo["id"], friends["id"], hidden["id"], "no-such-table"]
    assert set(listed_ids(site, ids=",".join(mine))) == {solo["id"], friends["id"], hidden["id"]}
    # The link still works: its summary, and watching it.
    assert summaries[solo["id"]]["status"] == "playing"
    for bad in (",".join(["x"] * (MAX_IDS + 1)), "a,,b", "a b", ""):
        answer = site.http.get("/api/tables", params={"ids": bad})
        assert answer.status_code == 400 and answer.json()["error"] == "bad_request", bad
    for bad in (1, "yes", None):
        body = {"variant": {}, "seats": ALL_OPEN, "listed": bad}
        answer = site.http.post("/api/tables", json=body)
        assert (answer.status_code == 201) == (bad is None), (bad, answer.text)


def test_the_creator_closes_a_table(site: Site) -> None:
    made = site.create(
        {"N": "open", "E": "random", "S": "open", "W": "random"}, seat="N", nickname="Aino"
    )
    table_id = made["id"]
    south = site.join(table_id, "S", "Eino")
    me = site.socket(table_id, made["token"])
    playing = me.until(lambda f: f["type"] == "state" and f["table"]["status"] == "playing")
    close = f"/api/tables/{table_id}/close"
    # Only with the creator's token (a seat's is not it).
    for token in ("wrong", south, made["token"]):
        refused = site.http.post(close, json={"creator_token": token})
        assert refused.status_code == 403 and refused.json()["error"] == "not_creator"
    assert site.http.post(close, json={}).status_code == 400
    closed = site.http.post(close, json={"creator_token": made["creator_token"]})
    assert closed.status_code == 200, closed.text
    assert (closed.json()["status"], closed.json()["closed"]) == ("closed", "creator")
    # Everyone at the table is told; nothing more is played there.
    told = me.until(lambda f: f["type"] == "state" and f["table"]["status"] == "closed")
    assert told["table"]["closed"] == "creator" and told["clock"] is None
    legal = playing["observation"]["legal"] or ["AS"]
    me.send({"type": "action", "action": legal[0], "seq": told["seq"]})
    assert me.error()["code"] == "closed"
    me.close()
    # It leaves every list; its summary and page stay.
    assert table_id not in listed_ids(site) + listed_ids(site, status="playing")
    assert table_id not in listed_ids(site, ids=table_id)
    assert site.http.get(f"/api/tables/{table_id}").json()["status"] == "closed"
    assert site.http.get(f"/t/{table_id}").status_code == 200
    again = site.http.post(close, json={"creator_token": made["creator_token"]})
    assert again.status_code == 409 and again.json()["error"] == "closed"
    waiting = site.create(ALL_OPEN)
    site.http.post(f"/api/tables/{waiting['id']}/close", json=waiting)
    taken = site.http.post(f"/api/tables/{waiting['id']}/seats/N", json={"nickname": "Aino"})
    assert taken.status_code == 409 and taken.json()["error"] == "closed"
    unknown = site.http.post("/api/tables/nothing/close", json={"creator_token": "x"})
    assert unknown.status_code == 404


def _stored_waiting(db_url: str, table_id: str, ago: dt.timedelta) -> None:
    store = Store(db_url)
    try:
        store.create_table(
            TableRow(
                table_id,
                dt.datetime.now(dt.UTC) - ago,
                Variant(),
                Seat.N,
                7,
                "c" * 64,
                "waiting",
            ),
            tuple(SeatRow(s, "open", None, None) for s in Seat),
        )
    finally:
        store.close()


def _status(server: Server, table_id: str) -> str:
    status: str = server.http.get(f"/api/tables/{table_id}").json()["status"]
    return status


def test_a_table_nobody_is_at_for_the_hosts_time_is_closed(
    database_url: str, start_server: Callable[..., Server]
) -> None:
    # A table left a day ago is closed as the server starts; one made a minute ago stays.
    _stored_waiting(database_url, "left-yesterday", dt.timedelta(days=1, minutes=1))
    _stored_waiting(database_url, "made-just-now", dt.timedelta(minutes=1))
    server = start_server(database_url)
    assert _status(server, "left-yesterday") == "closed"
    assert server.http.get("/api/tables/left-yesterday").json()["closed"] == "idle"
    assert _status(server, "made-just-now") == "waiting"
    server.stop()

    # With a short time (3.6 s): a table nobody comes to is closed; one a person is at is not,
    # until they leave.
    server = start_server(database_url, options=["--close-idle-hours", "0.001"])
    assert _status(server, "made-just-now") == "closed"
    left = server.create(ALL_OPEN)["id"]
    here = server.create(AGAINST_COMPUTER, seat="S", nickname="Aino", turn_seconds=None)
    person = server.socket(here["id"], here["token"])
    person.state()
    deadline = time.monotonic() + 30
    while _status(server, left) != "closed":
        assert time.monotonic() < deadline, "the idle table was not closed"
        time.sleep(0.2)
    assert _status(server, here["id"]) == "playing"
    person.close()
    while _status(server, here["id"]) != "closed":
        assert time.monotonic() < deadline + 30, "the table left by its person was not closed"
        time.sleep(0.2)


@pytest.mark.parametrize("hours", ["-1", "nan", "inf", "9000"])
def test_the_idle_hours_are_a_number_of_hours(hours: str) -> None:
    from click.testing import CliRunner

    from valtti.cli import main

    result = CliRunner().invoke(main, ["serve", "--close-idle-hours", hours])
    assert result.exit_code == 2 and "--close-idle-hours" in result.output, result.output
