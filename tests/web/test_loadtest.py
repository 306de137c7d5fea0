"""The load test command: its percentiles, and a short run against a server it starts itself."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.web.serving import Server

from valtti.loadtest.figures import Figures, latency
from valtti.loadtest.run import _Client, _own_addresses, _Run, _Table, client_address


def test_percentiles_of_known_numbers() -> None:
    figures = latency([float(x) for x in range(101, 0, -1)])  # 101 … 1, out of order
    assert (figures.count, figures.p50, figures.p90, figures.p99, figures.max) == (
        101,
        51.0,
        91.0,
        100.0,
        101.0,
    )
    # Between ranks the value is interpolated: the p90 of 0 and 10 is 9.
    assert latency([0.0, 10.0]).p90 == pytest.approx(9.0)


def test_percentiles_of_one_sample_and_of_none() -> None:
    assert latency([7.5]).to_dict() == {"count": 1, "p50": 7.5, "p90": 7.5, "p99": 7.5, "max": 7.5}
    assert latency([]).to_dict() == {"count": 0, "p50": None, "p90": None, "p99": None, "max": None}


@pytest.mark.parametrize(
    ("tables", "matches", "said"),
    [(1, 1, "4 (1 table, 1 match finished)"), (2, 0, "4 (2 tables, 0 matches finished)")],
)
def test_the_report_counts_in_words(tables: int, matches: int, said: str) -> None:
    none = latency([])
    figures = Figures("http://x", 4, 1.0, 0, tables, matches, none, none, [], 0.0, None)
    assert figures.report().splitlines()[1] == f"clients   {said}"


@pytest.mark.serve  # the command starts a server of its own
def test_a_short_run_against_its_own_server_plays_without_errors() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "valtti", "loadtest", "--clients", "8", "--seconds", "3", "--json"],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    figures = json.loads(done.stdout)
    assert figures["clients"] == 8
    assert figures["tables"] >= 2
    assert figures["actions"] > 0
    assert figures["actions_per_s"] > 0
    assert figures["errors"] == 0, figures["error_messages"]
    for where in ("mover", "seats"):
        measured = figures["latency_ms"][where]
        assert measured["count"] > 0
        assert 0 < measured["p50"] <= measured["p90"] <= measured["p99"] <= measured["max"]
    # Every action is heard at the four seats of its table, the mover's included.
    assert figures["latency_ms"]["seats"]["count"] >= 4 * figures["actions"] * 0.9
    assert figures["cpu_s"]["server"] is not None
    # The clients chatted too; each chat was broadcast or refused (a server without chat), but
    # for at most one per client still on its way at the end.
    chat = figures["chat"]
    assert chat["sent"] > 0
    assert 0 <= chat["unanswered"] <= 8
    answered = chat["sent"] - chat["unanswered"]
    assert answered > 0
    if chat["latency_ms"]["count"]:
        assert chat["latency_ms"]["p50"] <= chat["latency_ms"]["p99"]
    else:
        assert chat["refused"] == answered


def test_each_client_connects_from_an_address_of_its_own(
    tmp_path: Path, start_server: Callable[..., Server]
) -> None:
    """Against a server that lets one address open one WebSocket, 8 clients still play."""
    server = start_server(
        f"sqlite:///{tmp_path / 'valtti.db'}", options=["--connections-per-address", "1"]
    )
    command = [sys.executable, "-m", "valtti", "loadtest", "--url", server.url]
    done = subprocess.run(
        [*command, "--clients", "8", "--seconds", "2", "--json"],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    figures = json.loads(done.stdout)
    assert figures["actions"] > 0 and figures["errors"] == 0, figures["error_messages"]
    assert [client_address(n) for n in (0, 1, 249, 250)] == [
        "127.0.1.1",
        "127.0.1.2",
        "127.0.1.250",
        "127.0.2.1",
    ]
    assert _own_addresses("http://127.0.0.1:8000") == (sys.platform == "linux")
    assert not _own_addresses("http://localhost:8000")
    assert not _own_addresses("http://192.168.1.20:8000")


class _Socket:
    """Where a client's messages would go: nowhere (the tests hand it frames themselves)."""

    async def send(self, text: str) -> None:
        pass


def _clients() -> tuple[_Run, list[_Client]]:
    run = _Run("http://nowhere", 1)
    table = _Table("t1")
    clients = [
        _Client(run, table, seat, _Socket(), random.Random(seat))  # type: ignore[arg-type]
        for seat in "NESW"
    ]
    return run, clients


def test_a_chat_broadcast_is_timed_at_every_seat_and_answers_its_sender() -> None:
    run, clients = _clients()
    north = clients[0]
    north.table.chats["hello 1 from N at t1"] = (time.perf_counter(), north)
    north.chatting, north.chat_at = "hello 1 from N at t1", time.perf_counter()
    frame = json.dumps({"type": "chat", "seat": "N", "text": "hello 1 from N at t1"})
    for client in clients:
        client._receive(frame)
    assert north.chatting is None
    assert run.chats_answered == 1 and len(run.chat_ms) == 4 and run.errors == []
    # A chat nobody here sent, and a frame of a type not known here, are no errors.
    clients[1]._receive(json.dumps({"type": "chat", "seat": "E", "text": "hi"}))
    clients[1]._receive(json.dumps({"type": "timer", "seat": "E"}))
    assert len(run.chat_ms) == 4 and run.errors == [] and run.other_frames == {"timer": 1}


def test_an_error_answers_the_older_of_a_chat_and_an_action() -> None:
    run, (north, *_) = _clients()
    refused = json.dumps({"type": "error", "code": "bad_message", "message": "unknown type"})
    # The chat went first: the error is its refusal, and the action still waits for its state.
    north.chatting, north.chat_at = "hello 1", 1.0
    north.sent_at = 2.0
    north._receive(refused)
    assert run.chat_refused == ["bad_message"] and run.errors == []
    assert north.chatting is None and north.sent_at == 2.0
    # The action went first: the error refuses the action, and the chat is still unanswered.
    north.chatting, north.chat_at = "hello 2", 3.0
    north._receive(json.dumps({"type": "error", "code": "stale", "message": "old seq"}))
    assert run.chat_refused == ["bad_message"] and len(run.errors) == 1
    assert north.chatting == "hello 2" and north.sent_at is None
