"""The referee of a table (valtti.web.referee.room) in this process, where its store and its
computer players can be made to fail: it never stalls, and never differs from what its store
holds."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import threading
import warnings
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from valtti.engine import Action, Match, Observation, Seat, Variant
from valtti.players.registry import make_player
from valtti.web.app import create_app
from valtti.web.db.rows import SeatRow, TableRow
from valtti.web.db.store import Store
from valtti.web.referee import computer as computer_module
from valtti.web.referee import connection as connection_module
from valtti.web.referee import rooms as rooms_module
from valtti.web.referee.connection import Connection
from valtti.web.referee.room import Room
from valtti.web.referee.rooms import Rooms

ALL_RANDOM = dict.fromkeys(Seat, "random")
#: Seconds a test waits for the room to get somewhere.
PATIENCE = 20.0


class Bots:
    """Computer players deciding in this process, through ``decide`` (a random player's
    choice by default)."""

    def __init__(self, decide: Callable[[str, int, Observation], Action] | None = None) -> None:
        self.calls = 0
        self._decide = decide or _random

    async def decide(self, player: str, seed: int, observation: Observation) -> Action:
        self.calls += 1
        return self._decide(player, seed, observation)


def _random(player: str, seed: int, observation: Observation) -> Action:
    return make_player("random", seed).choose(observation)


def run(test: Callable[[Rooms], Awaitable[None]], store: Store, bots: Bots | None = None) -> None:
    """Run ``test`` on a ``Rooms`` of ``store`` without delay, closing it afterwards."""

    async def main() -> None:
        rooms = Rooms(store, bots or Bots(), 0.0)  # type: ignore[arg-type]
        try:
            await test(rooms)
        finally:
            rooms.close()

    asyncio.run(main())


async def until(done: Callable[[], bool]) -> None:
    async with asyncio.timeout(PATIENCE):
        while not done():
            await asyncio.sleep(0.01)


def points(room: Room) -> int:
    assert room.match is not None
    return sum(len(d.history) for d in room.match.deals)


def assert_as_stored(store: Store, room: Room) -> None:
    """The room's match is the one its store holds."""
    stored = store.load(room.id)
    assert stored is not None and stored.record is not None and room.match is not None
    again = stored.record.replay()
    assert [d.history for d in again.deals] == [d.history for d in room.match.deals]
    assert stored.table.status == room.status


@pytest.fixture
def store() -> Any:
    opened = Store("sqlite://")
    yield opened
    opened.close()


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(computer_module, "RETRY_SECONDS", 0.01)


def _fail(player: str, seed: int, observation: Observation) -> Action:
    raise RuntimeError("the worker died")


def _illegal(player: str, seed: int, observation: Observation) -> Action:
    return Action.parse("answer H")  # never legal while cards are played


@pytest.mark.parametrize("decide", [_fail, _illegal])
def test_a_failing_computer_player_is_retried_then_replaced_by_random(
    store: Store,
    decide: Callable[[str, int, Observation], Action],
    caplog: pytest.LogCaptureFixture,
) -> None:
    bots = Bots(decide)

    async def test(rooms: Rooms) -> None:
        room, _, _ = await rooms.create(Variant(), ALL_RANDOM, None)
        await until(lambda: points(room) >= 3)
        # Two tries of the player for each point, then the random player decided.
        assert bots.calls >= 3 * computer_module.BOT_FAILURES
        assert_as_stored(store, room)

    with caplog.at_level(logging.WARNING, logger="valtti.web.referee.computer"):
        run(test, store, bots)
    assert "the random player decides for" in caplog.text


def test_a_failed_write_between_deals_is_tried_again(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    add_deal = store.add_deal
    failures = []

    def flaky(table_id: str, number: int, *rest: Any) -> None:
        if number == 2 and not failures:
            failures.append(number)
            raise OSError("the database is gone for a moment")
        add_deal(table_id, number, *rest)

    monkeypatch.setattr(store, "add_deal", flaky)

    async def test(rooms: Rooms) -> None:
        room, _, _ = await rooms.create(Variant(), ALL_RANDOM, None)
        await until(lambda: room.match is not None and len(room.match.deals) >= 2)
        assert failures == [2]
        await until(lambda: points(room) >= 40)
        async with room.lock:
            assert_as_stored(store, room)

    run(test, store)


def test_a_failed_action_write_is_tried_again(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    submit_action = store.submit_action
    failures = []

    def flaky(table_id: str, deal: int, index: int, token: str) -> Future[None]:
        if index == 3 and not failures:
            failures.append(index)
            return failed(OSError("the database is gone for a moment"))
        return submit_action(table_id, deal, index, token)

    monkeypatch.setattr(store, "submit_action", flaky)

    async def test(rooms: Rooms) -> None:
        room, _, _ = await rooms.create(Variant(), ALL_RANDOM, None)
        await until(lambda: points(room) >= 6)
        assert failures == [3]
        async with room.lock:
            assert_as_stored(store, room)

    run(test, store)


def test_a_shutdown_during_a_write_still_plays_the_stored_action(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    submit_action = store.submit_action
    writing, release = threading.Event(), threading.Event()
    later = ThreadPoolExecutor(1)

    def slow(table_id: str, deal: int, index: int, token: str) -> Future[None]:
        if index != 2:
            return submit_action(table_id, deal, index, token)
        writing.set()

        def write() -> None:
            release.wait(PATIENCE)
            submit_action(table_id, deal, index, token).result()

        return later.submit(write)

    monkeypatch.setattr(store, "submit_action", slow)

    async def test(rooms: Rooms) -> None:
        room, _, _ = await rooms.create(Variant(), ALL_RANDOM, None)
        await until(writing.is_set)
        room.close()  # cancels the computer player's move, in the middle of its write
        await asyncio.sleep(0.05)
        release.set()
        await until(lambda: points(room) == 3)
        await asyncio.sleep(0.05)
        assert points(room) == 3
        assert_as_stored(store, room)

    run(test, store)
    later.shutdown()


def finished_tables(store: Store, count: int) -> list[str]:
    """Store ``count`` finished tables, each a match of random actions; their ids."""
    ids = []
    for number in range(count):
        table_id = f"done{number}"
        store.create_table(
            TableRow(table_id, datetime.now(UTC), Variant(), Seat.N, number, "x", "finished"),
            [SeatRow(s, "computer", "random", None) for s in Seat],
        )
        match = Match(Variant(), Seat.N)
        rng = random.Random(number)
        while not match.is_over():
            match.start_deal(rng=rng)
            deal = match.deal
            assert deal is not None
            store.add_deal(table_id, len(match.deals), deal.dealer, deal.initial_hands)
            while not deal.is_over():
                action = rng.choice(match.legal_actions())
                store.add_action(table_id, len(match.deals), len(deal.history), str(action))
                match.apply(action)
        ids.append(table_id)
    return ids


def test_finished_tables_are_kept_only_while_recently_asked_for(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rooms_module, "FINISHED_ROOMS", 2)
    ids = finished_tables(store, 4)
    load = store.load
    loaded: list[str] = []

    def counting(table_id: str) -> Any:
        loaded.append(table_id)
        return load(table_id)

    monkeypatch.setattr(store, "load", counting)

    async def test(rooms: Rooms) -> None:
        for table_id in ids:
            room = await rooms.get(table_id)
            assert room is not None and room.status == "finished"
        assert loaded == ids
        await rooms.get(ids[3])  # among the two kept
        assert loaded == ids
        await rooms.get(ids[0])  # let go, loaded again
        assert loaded == [*ids, ids[0]]

    run(test, store)


def test_the_lobby_reads_no_actions_twice(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = finished_tables(store, 3)
    load = store.load
    loaded: list[str] = []

    def counting(table_id: str) -> Any:
        loaded.append(table_id)
        return load(table_id)

    def every_action(limit: int = 200) -> Any:
        raise AssertionError("the lobby read every table's actions")

    monkeypatch.setattr(store, "load", counting)
    monkeypatch.setattr(store, "tables", every_action)

    async def test(rooms: Rooms) -> None:
        room, _, _ = await rooms.create(Variant(), dict.fromkeys(Seat), None)
        first = (await rooms.listing())["tables"]
        assert [s["id"] for s in first] == [room.id, *reversed(ids)]
        assert [s["status"] for s in first] == ["waiting", "finished", "finished", "finished"]
        assert all(s["winner"] is not None and s["deals"] > 1 for s in first[1:])
        assert sorted(loaded) == ids  # each finished table's match once, for its summary
        assert (await rooms.listing())["tables"] == first
        assert sorted(loaded) == ids

    run(test, store)


def test_a_slow_connection_keeps_only_the_newest_state() -> None:
    async def test() -> None:
        connection = Connection()
        connection.send_state("state 1")
        connection.send('{"type":"pong"}')
        for number in range(2, 1000):
            connection.send_state(f"state {number}")
        connection.send('{"type":"error"}')
        frames = [await connection.next() for _ in range(3)]
        assert frames == ['{"type":"pong"}', "state 999", '{"type":"error"}']
        connection.send_state("state 1000")
        assert await connection.next() == "state 1000"
        assert not connection.closing
        for _ in range(connection_module.MAX_QUEUED + 1):
            connection.send('{"type":"pong"}')
        assert await connection.next() == connection_module.CLOSE_TOO_SLOW

    asyncio.run(test())


def test_a_seat_handed_over_as_its_person_connects_is_theirs_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The token is looked up under the lock: the stand-in the creator gave the seat just
    before leaves it to the person who connects (the creator never locks a person out)."""
    app = create_app(f"sqlite:///{tmp_path / 'valtti.db'}", bot_delay=0.0, bot_workers=1)
    connect = Room.connect
    creator = {}

    async def handed_over_first(self: Room, connection: Connection, token: str | None) -> None:
        # The creator hands the seat to a stand-in just as its person connects.
        await self.replace(Seat.E, "random", creator["token"])
        await connect(self, connection, token)

    with warnings.catch_warnings():
        # Starlette asks for httpx2 with its test client; httpx is what is installed.
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    with TestClient(app) as client:
        created = client.post(
            "/api/tables",
            json={"seats": dict.fromkeys("NESW", "open"), "seat": "E", "nickname": "Aino"},
        ).json()
        creator["token"] = created["creator_token"]
        monkeypatch.setattr(Room, "connect", handed_over_first)
        with client.websocket_connect(
            f"/api/tables/{created['id']}/ws?token={created['token']}"
        ) as ws:
            state = json.loads(ws.receive_text())
            assert state["you"] == "E"
            assert state["table"]["seats"][1] | {"connected": True} == {
                "seat": "E",
                "kind": "human",
                "name": "Aino",
                "connected": True,
                "stand_in": None,
            }


def test_a_move_the_store_cannot_take_is_refused_and_can_be_sent_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'valtti.db'}", bot_delay=0.0, bot_workers=1)
    submit_action = Store.submit_action
    failures: list[str] = []

    def flaky(self: Store, table_id: str, deal: int, index: int, token: str) -> Future[None]:
        if not failures:
            failures.append(token)
            return failed(OSError("the disk is full for a moment"))
        return submit_action(self, table_id, deal, index, token)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Starlette's test client asks for httpx2
        from starlette.testclient import TestClient

    with TestClient(app) as client:
        seats = {"N": "open", "E": "open", "S": "open", "W": "open"}
        created = client.post("/api/tables", json={"seats": seats, "seat": "N", "nickname": "A"})
        table = created.json()["id"]
        tokens = {"N": created.json()["token"]}
        for seat in "ESW":
            joined = client.post(f"/api/tables/{table}/seats/{seat}", json={"nickname": seat})
            tokens[seat] = joined.json()["token"]
        with client.websocket_connect(f"/api/tables/{table}/ws") as watcher:
            to_move = watcher.receive_json()["observation"]["to_move"]
        with client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[to_move]}") as mover:
            before = mover.receive_json()
            card = before["observation"]["legal"][0]
            monkeypatch.setattr(Store, "submit_action", flaky)
            mover.send_json({"type": "action", "action": card, "seq": before["seq"]})
            error = mover.receive_json()
            assert error["type"] == "error" and error["code"] == "unavailable", error
            assert failures == [card]
            mover.send_json({"type": "action", "action": card, "seq": before["seq"]})
            after = mover.receive_json()
            assert after["seq"] == before["seq"] + 1
            assert card not in after["observation"]["hand"]


def failed(error: Exception) -> Future[None]:
    """A write that failed with ``error``, as ``Store.submit_action`` gives it."""
    future: Future[None] = Future()
    future.set_exception(error)
    return future
