"""A seat that follows its person, and gentler time-outs (docs/WEB.md, "A seat link", "One
address", "Absent players"): a seat is played by its newest connection and nobody takes it
without its token; pages asked for at another loopback address move to the home address; each
person's time bank (its setting, its migration, its clock); the ask-whole a page is told cannot
succeed."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from alembic import command
from fastapi.testclient import TestClient
from tests.web.serving import ALL_OPEN, Site
from tests.web.test_server_absent import is_state, seat_of
from tests.web.test_store import SEATS, insert_first_revision_table, table_row
from websockets.exceptions import ConnectionClosed

from valtti.engine import Action, Match, Seat, Variant
from valtti.engine.cards import CardSet
from valtti.web.app import create_app
from valtti.web.db.migrate import alembic_config
from valtti.web.db.store import Store
from valtti.web.reach import home_url, moved_to
from valtti.web.referee.frames import Frames
from valtti.web.referee.turns import BANK_TURNS, TurnClock, bank_for

# -- the seat and its token -------------------------------------------------------------------


def two_people(site: Site) -> tuple[str, dict[str, str]]:
    """A table of two people (N, S) and two computer players; its id and the seat tokens."""
    made = site.create(
        {"N": "open", "E": "random", "S": "open", "W": "random"},
        seat="N",
        nickname="Aino",
        turn_seconds=None,
    )
    return made["id"], {"N": made["token"], "S": site.join(made["id"], "S", "Eino")}


def test_a_new_connection_with_the_token_plays_the_seat_and_the_old_one_watches(
    site: Site,
) -> None:
    table_id, tokens = two_people(site)
    laptop = site.socket(table_id, tokens["N"])
    assert laptop.state()["you"] == "N"
    phone = site.socket(table_id, tokens["N"])  # the seat link opened on another device
    assert phone.state()["you"] == "N"
    moved = laptop.until(lambda f: f["type"] == "seat_elsewhere")
    assert moved == {"type": "seat_elsewhere", "seat": "N"}
    watching = laptop.until(is_state)
    assert watching["you"] is None and watching["observation"]["hand"] == []
    # The old page is a spectator now: it cannot act, take the seat back or chat for the seat.
    for message in (
        {"type": "back"},
        {"type": "ready"},
        {"type": "action", "action": "AS"},
        {"type": "chat", "text": "still me?"},
    ):
        laptop.send(message)
        assert laptop.error()["code"] == "not_seated", message
    # The seat is still shown connected: the phone plays it.
    assert seat_of(watching, "N")["connected"] is True
    # Connecting again with the token (the person's "This is my seat") takes it back.
    again = site.socket(table_id, tokens["N"])
    assert again.state()["you"] == "N"
    assert phone.until(lambda f: f["type"] == "seat_elsewhere")["seat"] == "N"
    for player in (laptop, phone, again):
        player.close()


def test_nobody_takes_a_seat_without_its_token(site: Site) -> None:
    table_id, tokens = two_people(site)
    north = site.socket(table_id, tokens["N"])
    assert north.state()["you"] == "N"
    # A wrong token, another seat's token, another table's: none plays N or moves N's page.
    _, other_tokens = two_people(site)
    for wrong in ("x" * 32, tokens["N"][:-1], other_tokens["N"]):
        intruder = site.socket(table_id, wrong)
        with pytest.raises(ConnectionClosed) as closed:
            intruder.receive()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    south = site.socket(table_id, tokens["S"])
    assert south.state()["you"] == "S"
    # A spectator can neither hand N over nor claim it.
    spectator = site.socket(table_id)
    assert spectator.state()["you"] is None
    for message in ({"type": "back"}, {"type": "stand_in", "seat": "N"}):
        spectator.send(message)
        assert spectator.error()["code"] == "not_seated"
    # North was never moved: no seat_elsewhere came, and it still plays N.
    north.send({"type": "ping"})
    north.until(lambda f: f["type"] == "pong")
    assert all(f["type"] != "seat_elsewhere" for f in north.frames)
    for player in (north, south, spectator):
        player.close()


# -- one address --------------------------------------------------------------------------------


def test_the_home_address_is_the_first_lan_one_else_the_printed_one_and_none_behind_a_proxy() -> (
    None
):
    lan = ["192.168.1.20", "10.0.0.5"]
    assert home_url("0.0.0.0", 8000, lan, None, False) == "http://192.168.1.20:8000/"
    assert home_url("0.0.0.0", 8000, [], None, False) == "http://127.0.0.1:8000/"
    assert home_url("127.0.0.1", 18001, [], None, False) == "http://127.0.0.1:18001/"
    assert home_url("::1", 8000, [], None, False) == "http://[::1]:8000/"
    assert home_url("0.0.0.0", 8000, lan, "https://cards.example", False) is None
    assert home_url("127.0.0.1", 8000, [], None, True) is None  # --trust-proxy


def test_only_another_loopback_address_on_the_same_port_moves() -> None:
    home = "http://127.0.0.1:8000/"
    assert moved_to(home, "http://localhost:8000/t/abc?x=1") == "http://127.0.0.1:8000/t/abc?x=1"
    assert moved_to(home, "http://[::1]:8000/") == "http://127.0.0.1:8000/"
    assert moved_to(home, "http://127.0.1.1:8000/rules") == "http://127.0.0.1:8000/rules"
    assert moved_to(home, "http://127.0.0.1:8000/t/abc") is None  # home itself
    assert moved_to(home, "http://localhost:9000/t/abc") is None  # a tunnel's port
    assert moved_to(home, "http://192.168.1.20:8000/t/abc") is None  # not loopback
    lan = "http://192.168.1.20:8000/"
    assert moved_to(lan, "http://localhost:8000/t/abc") == "http://192.168.1.20:8000/t/abc"
    assert moved_to(lan, "http://192.168.1.20:8000/t/abc") is None


@pytest.fixture
def homed(tmp_path: Any) -> Iterator[TestClient]:
    """The application with the home address http://127.0.0.1:8000/."""
    app = create_app(f"sqlite:///{tmp_path / 'valtti.db'}", home="http://127.0.0.1:8000/")
    with TestClient(app, base_url="http://127.0.0.1:8000", follow_redirects=False) as client:
        yield client


def test_pages_at_another_loopback_name_move_home_and_the_api_does_not(
    homed: TestClient,
) -> None:
    made = homed.post("/api/tables", json={"seats": ALL_OPEN}).json()
    at_localhost = {"Host": "localhost:8000"}
    for path in ("/", f"/t/{made['id']}", "/rules", "/rules?lang=fi"):
        for method in ("GET", "HEAD"):
            answer = homed.request(method, path, headers=at_localhost)
            assert answer.status_code == 307, (method, path)
            assert answer.headers["location"] == f"http://127.0.0.1:8000{path}"
        assert homed.get(path).status_code == 200  # at home it is served
    for path in ("/api/tables", f"/api/tables/{made['id']}", "/api/server", "/static/table.js"):
        assert homed.get(path, headers=at_localhost).status_code == 200, path
    with homed.websocket_connect(f"/api/tables/{made['id']}/ws", headers=at_localhost) as ws:
        assert json.loads(ws.receive_text())["type"] == "state"
    # Another port is a tunnel's or a proxy's: it stays.
    assert homed.get("/", headers={"Host": "localhost:9000"}).status_code == 200


# -- the time bank ------------------------------------------------------------------------------


def test_a_table_keeps_its_time_bank_two_turns_by_default(site: Site) -> None:
    default = site.create(ALL_OPEN, turn_seconds=30)
    summary = site.http.get(f"/api/tables/{default['id']}").json()
    assert summary["time_bank_seconds"] == BANK_TURNS * 30 == bank_for(30, None)
    given = site.create(ALL_OPEN, turn_seconds=30, time_bank_seconds=0)
    assert site.http.get(f"/api/tables/{given['id']}").json()["time_bank_seconds"] == 0
    untimed = site.create(ALL_OPEN, turn_seconds=None, time_bank_seconds=90)
    assert site.http.get(f"/api/tables/{untimed['id']}").json()["time_bank_seconds"] == 0
    for bad in (-1, 7201, 1.5, "60", True, False):
        answer = site.http.post("/api/tables", json={"seats": ALL_OPEN, "time_bank_seconds": bad})
        assert answer.status_code == 400 and answer.json()["error"] == "bad_request", bad
        assert "time_bank_seconds" in answer.json()["message"]


def test_the_clock_frame_shows_the_bank(site: Site) -> None:
    made = site.create(
        {"N": "open", "E": "random", "S": "random", "W": "random"},
        seat="N",
        nickname="Aino",
        turn_seconds=600,
        time_bank_seconds=45,
    )
    me = site.socket(made["id"], made["token"])
    mine = me.until(lambda f: is_state(f) and f["clock"] is not None)
    assert mine["clock"]["seat"] == "N" and mine["clock"]["seconds"] == 600
    assert mine["clock"]["bank"] == 45.0  # the bank runs only once the turn's time is up
    assert mine["table"]["time_bank_seconds"] == 45
    me.close()


class _Clockwork:
    """A TurnClock on an event loop whose time a test sets (``now``): the timers it asks for are
    read, never waited on."""

    def __init__(self, seconds: int, bank: int) -> None:
        self.loop = asyncio.new_event_loop()
        self.now = 1000.0
        self.loop.time = lambda: self.now  # type: ignore[method-assign]
        self.rung: list[tuple[int, Seat]] = []

        async def ring(turn: tuple[int, Seat]) -> None:
            self.rung.append(turn)

        self.clock = TurnClock(seconds, bank, ring, lambda work: work.close())

    def run(self, call: Any) -> Any:
        async def inside() -> Any:
            return call()

        return self.loop.run_until_complete(inside())

    def due(self) -> float:
        """When the turn timed now rings: its time and its seat's bank after it."""
        timer = self.clock._timer
        assert timer is not None
        return timer.when()


def test_the_bank_runs_after_the_turn_and_what_a_turn_takes_stays_spent() -> None:
    work = _Clockwork(seconds=10, bank=30)
    try:
        work.run(lambda: work.clock.update((0, Seat.N)))
        assert work.due() == 1000 + 10 + 30  # the stand-in only once the bank is spent too
        work.now = 1005
        assert work.run(work.clock.frame) == {"seat": "N", "seconds": 10, "left": 5.0, "bank": 30.0}
        work.now = 1022  # 12 s into the bank
        assert work.run(work.clock.frame) == {"seat": "N", "seconds": 10, "left": 0.0, "bank": 18.0}
        work.run(lambda: work.clock.update((1, Seat.E)))  # N acted in time of the bank
        assert work.due() == 1022 + 10 + 30  # E's bank is E's own
        work.now = 1025
        work.run(lambda: work.clock.update((2, Seat.N)))
        assert work.due() == 1025 + 10 + 18  # N has what it left
        assert work.run(work.clock.frame)["bank"] == 18.0
        # A pause (nobody connected) keeps the bank spent so far; the turn starts whole again.
        work.now = 1040
        work.run(lambda: work.clock.update(None))
        work.run(lambda: work.clock.update((2, Seat.N)))
        assert work.due() == 1040 + 10 + 13
    finally:
        work.run(work.clock.cancel)
        work.loop.close()


def test_a_table_keeps_the_name_it_was_given(site: Site) -> None:
    named = site.create(ALL_OPEN, name="  Annan pöytä ")
    assert site.http.get(f"/api/tables/{named['id']}").json()["name"] == "Annan pöytä"
    plain = site.create(ALL_OPEN)
    assert site.http.get(f"/api/tables/{plain['id']}").json()["name"] is None
    listed = site.http.get("/api/tables", params={"status": "waiting"}).json()["tables"]
    assert {t["id"]: t["name"] for t in listed}[named["id"]] == "Annan pöytä"
    for bad in ("", "   ", "x" * 41, "a\nb", "\u202eevil", 7, ["a"]):
        answer = site.http.post("/api/tables", json={"seats": ALL_OPEN, "name": bad})
        assert answer.status_code == 400 and answer.json()["error"] == "bad_name", bad


# -- the migration --------------------------------------------------------------------------


def test_tables_made_before_have_no_bank_nor_name_and_both_round_trip(database_url: str) -> None:
    store = Store(database_url)
    try:
        with store.engine.begin() as connection:
            command.downgrade(alembic_config(connection), "0005")
            insert_first_revision_table(connection, "older", "2026-12-01 12:00:00+00:00", "waiting")
            command.upgrade(alembic_config(connection), "head")
        older = store.load("older")
        assert older is not None and len(older.seats) == 4
        assert older.table.time_bank_seconds == 0 and older.table.name is None
        with store.engine.begin() as connection:
            command.downgrade(alembic_config(connection), "0005")
            assert connection.exec_driver_sql("SELECT count(*) FROM seats").scalar() == 4
            command.upgrade(alembic_config(connection), "head")
        row = table_row("banked", turn_seconds=30, time_bank_seconds=75, name="Annan pöytä")
        store.create_table(row, SEATS)
        loaded = store.load("banked")
        assert loaded is not None and loaded.table == row
    finally:
        store.close()


# -- a question that cannot succeed ----------------------------------------------------------

#: N wins trick 1 and asks whole; S holds no marriage and says no; N wins trick 2.
HANDS = (
    "AC 6C 7C 8C 9C JC KH 9H AS",
    "QC 6S 7S 8S 6D 7D 8D QH JD",
    "KC JH 9D TH AH 9S JS TS QD",
    "TC 6H 7H 8H QS KS KD TD AD",
)


def futile_of(match: Match) -> dict[Seat | None, list[str]]:
    viewers: list[Seat | None] = [*Seat, None]
    frames = Frames().states("{}", match, viewers)
    return {v: json.loads(frame)["futile"] for v, frame in frames.items()}


def test_the_state_says_a_second_ask_whole_cannot_succeed() -> None:
    match = Match(Variant(), Seat.W)
    match.start_deal([CardSet.parse(h) for h in HANDS])
    for token in ("AC", "QC", "KC", "TC"):
        match.apply(Action.parse(token))
    assert futile_of(match) == {v: [] for v in [*Seat, None]}  # S might hold a marriage
    for token in ("ask-whole", "AS", "6S", "9S", "QS"):
        match.apply(Action.parse(token))
    assert match.deal is not None and match.deal.current_player is Seat.N
    assert any(str(a) == "ask-whole" for a in match.deal.legal_actions())
    shown = futile_of(match)
    assert shown[Seat.N] == ["ask-whole"]
    assert all(shown[v] == [] for v in (Seat.E, Seat.S, Seat.W, None))
