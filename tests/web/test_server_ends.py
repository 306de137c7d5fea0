"""Deal and match ends at a real server: the wait for the people to be ready, the rematch at
the same link, and the table chat (docs/WEB.md)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.web.crafted import store_match
from tests.web.serving import Player, Server, Table, stored_record
from tests.web.test_server_absent import seat_of

from valtti.web.referee.chat import ADDRESS_RATE, HISTORY, RATE

Start = Callable[..., Server]
WAIT_LONG = ["--next-deal-seconds", "600"]


def _sqlite(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'valtti.db'}"


def _state(player: Player, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    return player.until(lambda f: f["type"] == "state" and done(f))


def test_the_next_deal_waits_until_every_person_is_ready(
    tmp_path: Path, start_server: Start
) -> None:
    db = _sqlite(tmp_path)
    table_id, tokens, match = store_match(db, [True], {"N": "Aino", "S": "Eino"})
    server = start_server(db, options=WAIT_LONG)
    north, south = server.socket(table_id, tokens["N"]), server.socket(table_id, tokens["S"])
    spectator = server.socket(table_id)
    before = time.time() * 1000
    state = north.state()
    assert state["deal"] == 1 and state["observation"]["phase"] == "over"
    assert state["between"]["for"] == "deal" and state["between"]["ready"] == ["E", "W"]
    assert state["between"]["at"] > before + 500_000  # some 600 s on
    # The deal's columns say how it was scored, as the engine does.
    assert state["deals"] == [match.deal_summary(0)]
    assert state["deals"][0]["porvoo"] == {"NS": False, "EW": True}
    assert spectator.state()["between"] == state["between"]

    spectator.send({"type": "ready"})
    assert spectator.error()["code"] == "not_seated"
    north.send({"type": "ready"})
    for player in (north, south, spectator):
        seen = _state(player, lambda f: f["between"]["ready"] == ["N", "E", "W"])
        assert seen["deal"] == 1
    north.send({"type": "ready"})  # said twice: still waiting for South
    south.send({"type": "ready"})
    for player in (north, south, spectator):
        dealt = _state(player, lambda f: f["deal"] == 2)
        assert dealt["between"] is None and dealt["observation"]["phase"] != "over"
    south.send({"type": "ready"})
    assert south.error()["code"] == "not_waiting"
    for player in (north, south, spectator):
        player.close()


def test_ready_said_over_and_over_is_told_to_the_others_once(
    tmp_path: Path, start_server: Start
) -> None:
    server, table_id, tokens, north = _two_people_between_deals(tmp_path, start_server)
    south = server.socket(table_id, tokens["S"])
    north.state()
    _state(south, lambda f: f["between"]["ready"] == ["E", "W"])
    north.send({"type": "ready"})
    _state(south, lambda f: f["between"]["ready"] == ["N", "E", "W"])
    for _ in range(10):  # each made every connection of the table a state frame
        north.send({"type": "ready"})
    north.send({"type": "chat", "emote": "good"})
    frames = []
    while not frames or frames[-1]["type"] != "chat":
        frames.append(south.receive())
    assert [f["type"] for f in frames] == ["chat"]
    north.close()
    south.close()


def _two_people_between_deals(
    tmp_path: Path, start_server: Start
) -> tuple[Server, str, dict[str, str], Player]:
    """A table of Aino (N) and Eino (S) after its first deal, waiting long; Aino connected."""
    db = _sqlite(tmp_path)
    table_id, tokens, _ = store_match(db, [True], {"N": "Aino", "S": "Eino"})
    server = start_server(db, options=WAIT_LONG)
    return server, table_id, tokens, server.socket(table_id, tokens["N"])


def test_a_stand_in_is_ready_for_the_person_it_plays_for(
    tmp_path: Path, start_server: Start
) -> None:
    _server, _table_id, _tokens, north = _two_people_between_deals(tmp_path, start_server)
    assert north.state()["between"]["ready"] == ["E", "W"]
    north.send({"type": "ready"})
    _state(north, lambda f: f["between"]["ready"] == ["N", "E", "W"])
    # Eino, who left, is handed to a stand-in: nobody is waited for now.
    north.send({"type": "stand_in", "seat": "S"})
    dealt = _state(north, lambda f: f["deal"] == 2)
    assert dealt["between"] is None
    north.close()


def test_a_person_back_from_a_stand_in_is_waited_for_again(
    tmp_path: Path, start_server: Start
) -> None:
    server, table_id, tokens, north = _two_people_between_deals(tmp_path, start_server)
    north.send({"type": "stand_in", "seat": "S"})
    stood = _state(north, lambda f: seat_of(f, "S")["stand_in"] is not None)
    assert stood["between"]["ready"] == ["E", "S", "W"] and stood["deal"] == 1
    north.close()
    south = server.socket(table_id, tokens["S"])  # Eino is back and Aino away: wait for Aino
    back = _state(south, lambda f: seat_of(f, "S")["stand_in"] is None)
    assert back["deal"] == 1 and back["between"]["ready"] == ["E", "W"]
    south.close()


def test_stand_ins_are_ready_for_people_away_only() -> None:
    from valtti.engine import Seat
    from valtti.web.db.rows import SeatRow
    from valtti.web.referee.ends import Waiting

    def seats(stand_in_north: bool) -> list[SeatRow]:
        north = SeatRow(Seat.N, "human", "A", "h1", "heuristic" if stand_in_north else None)
        south = SeatRow(Seat.S, "human", "B", "h2", "heuristic")
        computer = "computer"
        return [
            north,
            SeatRow(Seat.E, computer, "heuristic", None),
            south,
            SeatRow(Seat.W, computer, "heuristic", None),
        ]

    here = frozenset({Seat.N})
    deal = Waiting("deal", None)
    assert not deal.all_ready(seats(False), here)  # A is here and not ready
    assert json.loads(deal.to_json(seats(False), here))["ready"] == ["E", "S", "W"]
    deal.ready.add(Seat.N)
    assert deal.all_ready(seats(False), here)  # B is away: B's stand-in is ready
    # A, here though a stand-in took the seat when the turn ran out, says ready for it.
    timed_out = Waiting("deal", None)
    assert json.loads(timed_out.to_json(seats(True), here))["ready"] == ["E", "S", "W"]
    assert not timed_out.all_ready(seats(True), here)
    timed_out.ready.add(Seat.N)
    assert timed_out.all_ready(seats(True), here)
    # Everyone away: the deals do not run on with nobody to see them, and no one is shown ready.
    nobody = frozenset[Seat]()
    assert not Waiting("deal", None).all_ready(seats(True), nobody)
    assert json.loads(Waiting("deal", None).to_json(seats(True), nobody))["ready"] == ["E", "W"]
    # A rematch is each person's to ask for, stand-in or not.
    rematch = Waiting("rematch", None, {Seat.N})
    assert not rematch.all_ready(seats(False), here)


def test_the_next_deal_comes_after_its_time_without_anyone_ready(
    tmp_path: Path, start_server: Start
) -> None:
    db = _sqlite(tmp_path)
    table_id, tokens, _ = store_match(db, [True])
    server = start_server(db, options=["--next-deal-seconds", "1"])
    north = server.socket(table_id, tokens["N"])
    first = north.state()
    assert first["deal"] in (1, 2)  # the second after a second, however slow this machine
    dealt = first if first["deal"] == 2 else _state(north, lambda f: f["deal"] == 2)
    assert dealt["between"] is None and dealt["observation"]["hand"]
    north.close()


def test_a_rematch_keeps_the_seats_the_link_and_the_finished_record(
    database_url: str, start_server: Start
) -> None:
    table_id, tokens, match = store_match(database_url, [True, True, False], {"N": "A", "S": "B"})
    assert match.outcome == "NS"
    server = start_server(database_url, options=WAIT_LONG)
    north, south = server.socket(table_id, tokens["N"]), server.socket(table_id, tokens["S"])
    state = north.state()
    assert state["table"]["status"] == "finished" and state["table"]["rematch"] is None
    assert state["between"] == {"for": "rematch", "ready": ["E", "W"], "at": None}

    north.send({"type": "ready"})
    _state(south, lambda f: f["between"]["ready"] == ["N", "E", "W"])
    assert server.http.get(f"/api/tables/{table_id}").json()["rematch"] is None
    south.send({"type": "ready"})
    moved = _state(north, lambda f: f["table"]["rematch"] is not None)
    new_id = moved["table"]["rematch"]
    assert new_id != table_id and moved["between"] is None
    assert _state(south, lambda f: f["table"]["rematch"] is not None)["table"]["rematch"] == new_id
    north.send({"type": "ready"})
    assert north.error()["code"] == "not_waiting"

    # The finished match stays downloadable and replayable at its own id.
    record = server.http.get(f"/api/tables/{table_id}/record")
    assert record.status_code == 200 and len(record.json()["deals"]) == 3
    assert server.http.get(f"/api/tables/{table_id}/replay").status_code == 200
    # The rematch: the same people and computer players, the same tokens, a new match whose
    # first dealer is the one after the last deal's (RULES.md 2.3).
    summary = server.http.get(f"/api/tables/{new_id}").json()
    old = server.http.get(f"/api/tables/{table_id}").json()
    assert [(s["kind"], s["name"]) for s in summary["seats"]] == [
        (s["kind"], s["name"]) for s in old["seats"]
    ]
    assert summary["status"] == "playing" and summary["score"] == {"NS": 0, "EW": 0}
    again = server.socket(new_id, tokens["S"])
    fresh = again.state()
    assert fresh["you"] == "S" and fresh["deal"] == 1
    assert fresh["observation"]["dealer"] == str(match.next_dealer) == "W"
    for player in (north, south, again):
        player.close()

    # After a restart the old link still leads on, and the old record is as it was.
    server.stop()
    server = start_server(database_url, options=WAIT_LONG)
    assert server.http.get(f"/api/tables/{table_id}").json()["rematch"] == new_id
    late = server.socket(table_id, tokens["N"])
    assert late.state()["table"]["rematch"] == new_id
    late.close()
    assert len(stored_record(database_url, table_id).deals) == 3


def test_a_match_of_computer_players_alone_has_no_rematch(
    tmp_path: Path, start_server: Start
) -> None:
    db = _sqlite(tmp_path)
    table_id, _, _ = store_match(db, [True, True, False], people={}, player="random")
    server = start_server(db, options=WAIT_LONG)
    spectator = server.socket(table_id)
    state = spectator.state()
    assert state["table"]["status"] == "finished" and state["between"]["for"] == "rematch"
    spectator.send({"type": "ready"})
    assert spectator.error()["code"] == "not_seated"
    spectator.close()


def _chat_table(server: Server) -> Table:
    return Table.new(server, {"N": "open", "E": "random", "S": "open", "W": "random"})


def test_chat_messages_are_checked(tmp_path: Path, start_server: Start) -> None:
    server = start_server(_sqlite(tmp_path))
    table = _chat_table(server)
    north = table.players["N"]
    bad: list[dict[str, Any]] = [
        {"type": "chat"},
        {"type": "chat", "text": "hi", "emote": "good"},
        {"type": "chat", "text": ""},
        {"type": "chat", "text": "   "},
        {"type": "chat", "text": "x" * 201},
        {"type": "chat", "text": "a\x07b"},
        {"type": "chat", "text": "line\nbreak"},
        {"type": "chat", "text": "line\u2028separator"},
        {"type": "chat", "text": "right to left \u202eevil"},
        {"type": "chat", "text": "isolate \u2066x"},
        {"type": "chat", "text": 5},
        {"type": "chat", "text": None},
        {"type": "chat", "emote": "dance"},
        {"type": "chat", "emote": 1},
    ]
    for message in bad:
        north.send(message)
        error = north.error()
        assert error["code"] == "bad_chat", (message, error)
    table.spectator.send({"type": "chat", "text": "hello"})
    assert table.spectator.error()["code"] == "not_seated"
    # None of those was said, nor counted against the rate.
    for n in range(RATE):
        north.send({"type": "chat", "text": f"  {'y' * 199}{n}  "})
        said = north.until(lambda f: f["type"] == "chat")
        assert said["text"] == "y" * 199 + str(n)
    table.close()


def test_chat_reaches_everyone_as_text_and_is_kept_for_later(
    tmp_path: Path, start_server: Start
) -> None:
    server = start_server(_sqlite(tmp_path))
    table = _chat_table(server)
    table.players["N"].send({"type": "chat", "text": "<b>hi</b> & <script>x</script>"})
    before = time.time() * 1000 - 60_000
    for player in table.everyone:
        said = player.until(lambda f: f["type"] == "chat")
        assert said == {
            "type": "chat",
            "seat": "N",
            "name": "player N",
            "text": "<b>hi</b> & <script>x</script>",
            "at": said["at"],
        }
        assert said["at"] > before
    table.players["S"].send({"type": "chat", "emote": "thanks"})
    for player in table.everyone:
        said = player.until(lambda f: f["type"] == "chat")
        assert (said["seat"], said["name"], said["emote"]) == ("S", "player S", "thanks")
        assert "text" not in said
    later = server.socket(table.id)
    history = later.until(lambda f: f["type"] == "chat_history")
    assert [m.get("text") or m.get("emote") for m in history["messages"]] == [
        "<b>hi</b> & <script>x</script>",
        "thanks",
    ]
    later.close()
    table.close()


def test_chat_is_rate_limited_per_connection_and_per_address(
    tmp_path: Path, start_server: Start
) -> None:
    server = start_server(_sqlite(tmp_path))
    table = _chat_table(server)
    north, south = table.players["N"], table.players["S"]
    for n in range(RATE):
        north.send({"type": "chat", "text": f"n{n}"})
        north.until(lambda f: f["type"] == "chat")
    north.send({"type": "chat", "text": "one too many"})
    error = north.error()
    assert error["code"] == "chat_throttled"
    # Every test client is at 127.0.0.1: one address, with room for ADDRESS_RATE.
    for _ in range(ADDRESS_RATE - RATE):
        south.send({"type": "chat", "emote": "good"})
        own = south.until(lambda f: f["type"] == "error" or f.get("seat") == "S")
        assert own["type"] == "chat"
    second = server.socket(table.id, table.tokens["N"])  # a fresh connection, same address
    second.send({"type": "chat", "text": "from another tab"})
    assert second.error()["code"] == "chat_throttled"
    # The refused were not said; the others were kept, the last HISTORY of them.
    late = server.socket(table.id)
    history = late.until(lambda f: f["type"] == "chat_history")["messages"]
    assert len(history) == ADDRESS_RATE <= HISTORY
    assert all(m.get("text") not in ("one too many", "from another tab") for m in history)
    for player in (second, late):
        player.close()
    table.close()
