"""A server killed with SIGKILL and started again on the same database loses no accepted action.

On SQLite, and on PostgreSQL when VALTTI_TEST_POSTGRES_URL is set (docs/WEB.md, Persistence).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from tests.web.serving import SEATS, Server, Table


def test_a_killed_server_resumes_every_acknowledged_action(
    database_url: str, start_server: Callable[..., Server]
) -> None:
    rng = random.Random(7)
    server = start_server(database_url)
    table = Table.new(server)
    for _ in range(13):  # into the fourth trick of the first deal
        table.play(rng)
    # Every action so far was broadcast to all: acknowledged. One more is sent, and the server
    # killed at once: it may or may not have been stored, but never half.
    before = {s: table.latest(s)["observation"] for s in SEATS}
    mover = table.to_move()
    table.players[mover].send(
        {"type": "action", "action": before[mover]["legal"][0], "seq": table.seq}
    )
    server.kill()
    table.close()

    server = start_server(database_url)
    again = {s: server.socket(table.id, t) for s, t in table.tokens.items()}
    states = {s: p.state() for s, p in again.items()}
    seq = states["N"]["seq"]
    assert seq in (table.seq, table.seq + 1)
    assert all(state["seq"] == seq and state["deal"] == 1 for state in states.values())
    if seq == table.seq:
        for s in SEATS:
            assert states[s]["observation"] == before[s]
    else:
        assert states["N"]["observation"]["history"][-1] == before[mover]["legal"][0]
        for s in SEATS:
            assert states[s]["observation"]["history"][:-1] == before[s]["history"]
    for p in again.values():
        p.close()
    # Play goes on.
    resumed = Table(server, table.id, table.tokens)
    assert resumed.seq == seq
    for _ in range(5):
        resumed.play(rng)
    assert resumed.seq == seq + 5
    resumed.close()


def test_computer_players_go_on_after_a_restart(
    database_url: str, start_server: Callable[..., Server]
) -> None:
    # The computer players wait long enough for the kill to come first.
    server = start_server(database_url, bot_delay=60.0)
    created = server.create({"N": "random", "E": "random", "S": "random", "W": "random"})
    summary = server.http.get(f"/api/tables/{created['id']}").json()
    assert summary["status"] == "playing"
    server.kill()
    server = start_server(database_url)
    watcher = server.socket(created["id"])
    state = watcher.state()
    while state["seq"] < 5:
        state = watcher.state(state["seq"] + 1)
    watcher.close()
