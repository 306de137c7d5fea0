"""Slow and idle clients (slowloris) against real `valtti serve` processes (docs/WEB.md,
"Security"): a connection that does not send a whole request within ``--request-seconds`` is
closed, and one client address may hold only ``--http-connections-per-address`` connections
that are not WebSockets, so that a normal client is served while many slow ones are open, even
by a server with few file descriptors.

The slow connections come from loopback addresses of their own (127.0.x.y: every 127/8 address
is this machine's on Linux), the normal client from 127.0.0.1.
"""

from __future__ import annotations

import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from tests.web.serving import ALL_OPEN, FRAME, Server

#: ``--request-seconds`` of the server that closes slow connections.
LIMIT = 1.0
#: How much later than LIMIT a slow connection may be closed: the server's timer and this
#: test's polling, on a busy machine.
LATE = 1.5

HEAD = b"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
#: What each slow client sends one byte at a time, well within every size limit.
SLOW = {
    "nothing": b"",
    "a head": HEAD + b"X-Padding: " + b"a" * 1000,
    "a body": b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n" + b" " * 1000,
    "a websocket handshake": b"GET /api/tables/x/ws HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nX-Padding: " + b"a" * 1000,
    # A whole request first: the limit holds for every request of a kept-alive connection.
    "a second request": HEAD + b"\r\n" + HEAD + b"X-Padding: " + b"a" * 1000,
}

pytestmark = [
    pytest.mark.serve,  # real servers (Server), and clients on real sockets
    pytest.mark.skipif(
        sys.platform != "linux", reason="clients of their own addresses: 127/8 is Linux's"
    ),
]


def _server(tmp_path: Path, *options: str, open_files: tuple[int, int] | None = None) -> Server:
    return Server(
        f"sqlite:///{tmp_path / 'valtti.db'}", options=options, open_files=open_files
    ).start()


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for s in started:
        s.stop()


def _connect(server: Server, source: str) -> socket.socket:
    raw = socket.create_connection(("127.0.0.1", server.port), FRAME, (source, 0))
    raw.setblocking(False)
    return raw


def _closed(raw: socket.socket) -> bool:
    """Whether the server closed ``raw`` (reading and dropping whatever it answered)."""
    while True:
        try:
            if not raw.recv(65536):
                return True
        except BlockingIOError:
            return False
        except ConnectionError:
            return True


def test_a_request_that_does_not_arrive_whole_in_time_is_closed(
    tmp_path: Path, servers: list[Server]
) -> None:
    servers.append(_server(tmp_path, "--request-seconds", str(LIMIT)))
    server = servers[0]
    table_id = server.create(ALL_OPEN)["id"]
    player = server.socket(table_id)  # a WebSocket is past its request: no limit
    player.receive()
    started = time.monotonic()
    slow = {what: _connect(server, f"127.0.9.{i + 1}") for i, what in enumerate(SLOW)}
    steady = _connect(server, "127.0.9.99")  # a whole request every 0.1 s, kept alive
    sent = dict.fromkeys(SLOW, 0)
    closed_after: dict[str, float] = {}
    while len(closed_after) < len(slow) and time.monotonic() - started < LIMIT + LATE:
        assert not _closed(steady)
        steady.send(HEAD + b"\r\n")
        for what, raw in slow.items():
            if what in closed_after:
                continue
            if _closed(raw):
                closed_after[what] = time.monotonic() - started
                continue
            data = SLOW[what]
            # A whole request at once, then one byte every 0.1 s: sending never resets the limit.
            step = len(HEAD) + 2 if what == "a second request" and not sent[what] else 1
            if sent[what] < len(data):
                raw.send(data[sent[what] : sent[what] + step])
                sent[what] += step
        time.sleep(0.1)
    for raw in [*slow.values(), steady]:
        raw.close()
    assert closed_after.keys() == SLOW.keys(), f"never closed: {set(SLOW) - set(closed_after)}"
    for what, seconds in closed_after.items():
        assert LIMIT - 0.1 <= seconds <= LIMIT + LATE, (what, seconds)
    # The kept-alive connection was served past the limit, and the WebSocket open all along
    # still plays.
    player.send({"type": "ping"})
    assert player.until(lambda f: f["type"] == "pong")
    player.close()


def test_a_normal_client_is_served_while_many_slow_ones_are_open(
    tmp_path: Path, servers: list[Server]
) -> None:
    # 400 connections that never send anything from 20 addresses, at a server that may open
    # 256 files: 8 from each address are held, the others closed at once, and 160 held
    # connections leave the server files to serve a normal client with.
    per_address = 8
    servers.append(
        _server(
            tmp_path,
            "--http-connections-per-address",
            str(per_address),
            "--request-seconds",
            "60",
            open_files=(256, 256),
        )
    )
    server = servers[0]
    slow = {
        f"127.0.8.{a}": [_connect(server, f"127.0.8.{a}") for _ in range(20)] for a in range(1, 21)
    }
    held: dict[str, list[socket.socket]] = {}
    deadline = time.monotonic() + FRAME
    while time.monotonic() < deadline:
        held = {a: [r for r in sockets if not _closed(r)] for a, sockets in slow.items()}
        if all(len(h) <= per_address for h in held.values()):
            break
        time.sleep(0.1)
    assert {a: len(h) for a, h in held.items()} == dict.fromkeys(slow, per_address)
    # A normal client loads the lobby, takes a seat and plays over its WebSocket.
    assert server.http.get("/").status_code == 200
    table_id = server.create(ALL_OPEN)["id"]
    token = server.join(table_id, "N")
    player = server.socket(table_id, token)
    assert player.state()["seq"] == 0
    player.close()
    # The slow ones were open all the while.
    assert not any(_closed(r) for h in held.values() for r in h)
    for sockets in slow.values():
        for raw in sockets:
            raw.close()


def test_the_server_opens_as_many_files_as_the_system_lets_it(
    tmp_path: Path, servers: list[Server]
) -> None:
    # A soft limit of 256 (1024 is common) under a hard one of 4096: each connection is a file.
    servers.append(_server(tmp_path, open_files=(256, 4096)))
    process = servers[0].process
    assert process is not None
    assert psutil.Process(process.pid).rlimit(psutil.RLIMIT_NOFILE) == (4096, 4096)
