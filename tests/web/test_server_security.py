"""The web server's defences through its real protocol, against `valtti serve` processes
(docs/WEB.md, "Security"): a huge request head, forged forwarded headers, other sites' requests
and WebSockets, bodies that are not JSON, framing, and the limits per client address.

Every request goes to 127.0.0.1; the other addresses and sites appear only in headers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import psutil
import pytest
from starlette.types import Message, Receive, Scope, Send
from tests.web.serving import ALL_OPEN, FRAME, Server
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from valtti.web.security import MAX_HEAD, Guard, Policy

EVIL = "https://cards.evil.example"
PUBLIC = "https://cards.example.org"


def _start(
    start_server: Callable[..., Server], tmp_path: Path, *options: str, tables: int = 0
) -> Server:
    db_url = f"sqlite:///{tmp_path / 'valtti.db'}"
    return start_server(db_url, tables_per_minute=tables, options=options)


def _socket(
    server: Server, table_id: str, origin: str | None = None, headers: dict[str, str] | None = None
) -> ClientConnection:
    """A WebSocket to the table, sent with this ``Origin`` (none by default) and headers."""
    url = f"ws://127.0.0.1:{server.port}/api/tables/{table_id}/ws"
    ws = connect(
        url,
        origin=None if origin is None else Origin(origin),
        additional_headers=headers,
        open_timeout=FRAME,
        close_timeout=FRAME,
    )
    return ws.__enter__()


def _refused_socket(
    server: Server, table_id: str, origin: str | None = None, headers: dict[str, str] | None = None
) -> InvalidStatus:
    with pytest.raises(InvalidStatus) as refused:
        _socket(server, table_id, origin, headers)
    return refused.value


def _rss(server: Server) -> int:
    assert server.process is not None
    rss: int = psutil.Process(server.process.pid).memory_info().rss
    return rss


# -- the request head ----------------------------------------------------------------------------


def test_a_huge_request_head_is_refused_unread(server: Server) -> None:
    before = _rss(server)
    total = 64 * 1024 * 1024
    sent = 0
    answer = b""
    with socket.create_connection(("127.0.0.1", server.port), timeout=FRAME) as raw:
        raw.sendall(b"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ")
        try:
            while sent < total:
                raw.sendall(b"a" * 65536)
                sent += 65536
        except OSError:
            pass  # the server closed the connection: the rest was never read
        with contextlib.suppress(OSError):  # a reset before the refusal could be read
            answer = raw.recv(4096)
    # The server stopped reading long before the 64 MiB (the kernel's buffers took the rest).
    assert sent < total // 4
    assert answer == b"" or answer.startswith(b"HTTP/1.1 400 ")
    assert _rss(server) - before < 16 * 1024 * 1024
    # A head of ordinary size is served, and the server goes on serving.
    ordinary = server.http.get("/api/tables", headers={"X-Padding": "a" * 8000})
    assert ordinary.status_code == 200


def test_many_headers_over_the_limit_are_refused(server: Server) -> None:
    padding = b"".join(b"X-Padding-%d: %s\r\n" % (i, b"a" * 100) for i in range(200))  # 22 kB
    with socket.create_connection(("127.0.0.1", server.port), timeout=FRAME) as raw:
        raw.sendall(b"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n" + padding + b"\r\n")
        # 431 when the head came in one read (the server refuses it whole), else 400.
        assert raw.recv(4096)[:13] in (b"HTTP/1.1 431 ", b"HTTP/1.1 400 ")
    assert server.http.get("/api/tables").status_code == 200


# -- forwarded headers ---------------------------------------------------------------------------


def test_a_forged_forwarded_header_does_not_escape_the_limit(
    tmp_path: Path, start_server: Callable[..., Server]
) -> None:
    server = _start(start_server, tmp_path, tables=2)
    for i in range(2):
        answer = server.http.post(
            "/api/tables", json={"seats": ALL_OPEN}, headers={"X-Forwarded-For": f"198.51.100.{i}"}
        )
        assert answer.status_code == 201
    forged = server.http.post(
        "/api/tables", json={"seats": ALL_OPEN}, headers={"X-Forwarded-For": "198.51.100.7"}
    )
    assert forged.status_code == 429 and forged.json()["error"] == "too_many"
    assert "--trust-proxy" not in server.log.read_text()


def test_a_trusted_proxy_gives_each_client_its_own_limits(
    tmp_path: Path, start_server: Callable[..., Server]
) -> None:
    server = _start(
        start_server, tmp_path, "--trust-proxy", "--connections-per-address", "2", tables=2
    )
    one, other = {"X-Forwarded-For": "198.51.100.1"}, {"X-Forwarded-For": "198.51.100.2"}
    tables = [server.http.post("/api/tables", json={"seats": ALL_OPEN}, headers=one)]
    tables.append(server.http.post("/api/tables", json={"seats": ALL_OPEN}, headers=one))
    assert [t.status_code for t in tables] == [201, 201]
    third = server.http.post("/api/tables", json={"seats": ALL_OPEN}, headers=one)
    assert third.status_code == 429
    fourth = server.http.post("/api/tables", json={"seats": ALL_OPEN}, headers=other)
    assert fourth.status_code == 201
    # WebSockets count by the forwarded address too, not by the proxy's own (127.0.0.1).
    table_id = tables[0].json()["id"]
    sockets = [_socket(server, table_id, headers=one) for _ in range(2)]
    assert _refused_socket(server, table_id, headers=one).response.status_code == 429
    sockets.append(_socket(server, table_id, headers=other))
    for ws in sockets:
        ws.close()


def test_an_ipv6_client_counts_as_its_64_network(
    tmp_path: Path, start_server: Callable[..., Server]
) -> None:
    # Each of one home's 2^64 addresses had limits of its own: no limit at all.
    server = _start(
        start_server, tmp_path, "--trust-proxy", "--connections-per-address", "1", tables=1
    )
    home, neighbour = "2001:db8:0:7::", "2001:db8:0:8::"

    def client(address: str) -> dict[str, str]:
        return {"X-Forwarded-For": address}

    first = server.http.post("/api/tables", json={"seats": ALL_OPEN}, headers=client(home + "1"))
    assert first.status_code == 201
    again = server.http.post("/api/tables", json={"seats": ALL_OPEN}, headers=client(home + "2"))
    assert again.status_code == 429 and again.json()["error"] == "too_many"
    other = server.http.post(
        "/api/tables", json={"seats": ALL_OPEN}, headers=client(neighbour + "1")
    )
    assert other.status_code == 201
    table_id = first.json()["id"]
    sockets = [_socket(server, table_id, headers=client(home + "1"))]
    assert (
        _refused_socket(server, table_id, headers=client(home + "a:b")).response.status_code == 429
    )
    sockets.append(_socket(server, table_id, headers=client(neighbour + "1")))
    for ws in sockets:
        ws.close()


def test_trust_proxy_takes_the_proxies_named(
    tmp_path: Path, start_server: Callable[..., Server]
) -> None:
    # Only 192.0.2.1 is trusted, and this client is 127.0.0.1: its header is not believed.
    server = _start(start_server, tmp_path, "--trust-proxy", "192.0.2.1", tables=1)
    first = server.http.post(
        "/api/tables", json={"seats": ALL_OPEN}, headers={"X-Forwarded-For": "198.51.100.1"}
    )
    assert first.status_code == 201
    second = server.http.post(
        "/api/tables", json={"seats": ALL_OPEN}, headers={"X-Forwarded-For": "198.51.100.2"}
    )
    assert second.status_code == 429


# -- other sites and bodies ----------------------------------------------------------------------


def test_another_sites_state_changing_requests_are_refused(server: Server) -> None:
    body = {"seats": ALL_OPEN}
    cross = server.http.post("/api/tables", json=body, headers={"Origin": EVIL})
    assert cross.status_code == 403 and cross.json()["error"] == "bad_origin"
    null = server.http.post("/api/tables", json=body, headers={"Origin": "null"})
    assert null.status_code == 403
    # The same origin (a page of this server) and no origin (a program) may.
    same = server.http.post("/api/tables", json=body, headers={"Origin": server.url})
    assert same.status_code == 201
    table_id = same.json()["id"]
    seat = f"/api/tables/{table_id}/seats/N"
    taken = server.http.post(seat, json={"nickname": "Eve"}, headers={"Origin": EVIL})
    assert taken.status_code == 403
    assert server.http.post(seat, json={"nickname": "Aino"}).status_code == 200
    # Reading is not refused: the answers go to nobody but the page that asked.
    assert server.http.get("/api/tables", headers={"Origin": EVIL}).status_code == 200
    summary = server.http.get(f"/api/tables/{table_id}").json()
    assert [s["name"] for s in summary["seats"]] == ["Aino", None, None, None]


def test_a_body_that_is_not_json_is_refused(server: Server) -> None:
    text = '{"seats": {"N": "open", "E": "open", "S": "open", "W": "open"}}'
    kinds = [
        "text/plain",
        "text/plain;charset=UTF-8",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        None,
    ]
    for kind in kinds:
        headers = {} if kind is None else {"Content-Type": kind}
        answer = server.http.post("/api/tables", content=text, headers=headers)
        assert answer.status_code == 415, kind
        assert answer.json()["error"] == "bad_content_type"
    json_kind = {"Content-Type": "application/json; charset=utf-8"}
    assert server.http.post("/api/tables", content=text, headers=json_kind).status_code == 201


def test_another_sites_websocket_is_refused(server: Server) -> None:
    table_id = server.create(ALL_OPEN)["id"]
    refused = _refused_socket(server, table_id, origin=EVIL)
    assert refused.response.status_code == 403
    assert b"bad_origin" in refused.response.body
    for origin in (server.url, None):
        ws = _socket(server, table_id, origin)
        assert json.loads(ws.recv(timeout=FRAME))["type"] == "state"
        ws.close()


def test_with_a_public_url_only_its_pages_may_play(
    tmp_path: Path, start_server: Callable[..., Server]
) -> None:
    server = _start(start_server, tmp_path, "--public-url", f"{PUBLIC}/")
    assert f"people open {PUBLIC}/" in server.log.read_text()
    assert server.http.get("/api/server").json() == {"public_url": PUBLIC, "lan_urls": []}
    body = {"seats": ALL_OPEN}
    own = server.http.post("/api/tables", json=body, headers={"Origin": server.url})
    assert own.status_code == 403
    public = server.http.post("/api/tables", json=body, headers={"Origin": PUBLIC})
    assert public.status_code == 201
    table_id = public.json()["id"]
    assert _refused_socket(server, table_id, origin=server.url).response.status_code == 403
    _socket(server, table_id, origin=PUBLIC).close()
    # Behind the proxy the names are the proxy's to choose.
    named = server.http.get("/api/tables", headers={"Host": "valtti-upstream:8000"})
    assert named.status_code == 200


@pytest.mark.parametrize("url", ["ftp://cards.example.org", "https://example.org/valtti", "x"])
@pytest.mark.serve  # valtti serve processes (refusing to start)
def test_a_public_url_is_an_origin(url: str, tmp_path: Path) -> None:
    command = [sys.executable, "-m", "valtti", "serve", "--public-url", url]
    command += ["--db", f"sqlite:///{tmp_path / 'valtti.db'}"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "--public-url" in done.stderr


# -- framing -------------------------------------------------------------------------------------


def test_pages_are_not_framable_and_say_what_they_are(server: Server) -> None:
    for path in ("/", "/t/anything", "/static/table.js", "/api/tables", "/api/nowhere"):
        headers = server.http.get(path).headers
        policy = headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy, path
        assert headers["x-frame-options"] == "DENY", path
        assert headers["x-content-type-options"] == "nosniff", path
        assert headers["referrer-policy"] == "no-referrer", path
    refused = server.http.post("/api/tables", json={}, headers={"Origin": EVIL})
    assert refused.headers["x-frame-options"] == "DENY"


# -- limits per client address -------------------------------------------------------------------


def test_connections_per_address_are_limited(
    tmp_path: Path, start_server: Callable[..., Server]
) -> None:
    server = _start(start_server, tmp_path, "--connections-per-address", "3")
    table_id = server.create(ALL_OPEN)["id"]
    sockets = [_socket(server, table_id) for _ in range(3)]
    refused = _refused_socket(server, table_id)
    assert refused.response.status_code == 429 and b"too_many" in refused.response.body
    # One closed, the address may open one again (once the server has seen it go).
    sockets.pop().close()
    deadline = time.monotonic() + FRAME
    while True:
        try:
            sockets.append(_socket(server, table_id))
            break
        except InvalidStatus as e:
            assert e.response.status_code == 429 and time.monotonic() < deadline
            time.sleep(0.05)
    for ws in sockets:
        ws.close()


def test_seats_taken_per_address_are_limited(
    tmp_path: Path, start_server: Callable[..., Server]
) -> None:
    server = _start(start_server, tmp_path, "--joins-per-minute", "2")
    table_id = server.create(ALL_OPEN)["id"]
    for seat in ("N", "E"):
        server.join(table_id, seat)
    third = server.http.post(f"/api/tables/{table_id}/seats/S", json={"nickname": "Aino"})
    assert third.status_code == 429 and third.json()["error"] == "too_many"
    summary = server.http.get(f"/api/tables/{table_id}").json()
    assert [s["kind"] for s in summary["seats"]] == ["human", "human", "open", "open"]


def test_the_start_message_says_who_can_open_it(server: Server) -> None:
    log = server.log.read_text()
    assert f"valtti: open http://127.0.0.1:{server.port}/" in log
    assert "only this machine can open it" in log and "--host 0.0.0.0" in log
    assert server.http.get("/api/server").json() == {"public_url": None, "lan_urls": []}


# -- the middleware alone ------------------------------------------------------------------------


async def _hello(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": 1000})
        return
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"hello"})


def _call(scope_type: str, headers: dict[str, str], policy: Policy | None = None) -> list[Message]:
    """What ``Guard`` (with ``policy``, else the default one) in front of ``_hello`` sends for
    one request with these headers."""
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "websocket.connect"} if scope_type == "websocket" else {"type": ""}

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {
        "type": scope_type,
        "method": "GET",
        "path": "/",
        "raw_path": b"/",
        "query_string": b"",
        "scheme": "http" if scope_type == "http" else "ws",
        "headers": [(k.encode(), v.encode()) for k, v in headers.items()],
        "client": ("127.0.0.1", 50000),
        "extensions": {"websocket.http.response": {}},
    }
    asyncio.run(Guard(_hello, policy or Policy())(scope, receive, send))
    return sent


def test_a_complete_head_over_the_limit_is_refused_whole() -> None:
    # In process: a head that reaches the application in one piece, however large.
    padding = {f"x-padding-{i}": "a" * 100 for i in range(MAX_HEAD // 100)}
    start, body = _call("http", padding)
    assert start["status"] == 431 and json.loads(body["body"])["error"] == "too_large"
    assert (b"x-frame-options", b"DENY") in start["headers"]
    start, body = _call("websocket", padding)
    assert start["type"] == "websocket.http.response.start" and start["status"] == 431
    start, body = _call("http", {"x-padding": "a" * 8000})
    assert start["status"] == 200 and body["body"] == b"hello"
    accepted, _ = _call("websocket", {"x-padding": "a" * 8000})
    assert accepted["type"] == "websocket.accept"


# -- other names: DNS rebinding ------------------------------------------------------------------


def test_a_request_to_another_sites_name_is_refused(server: Server) -> None:
    # A page of rebind.evil.example whose name now points at 127.0.0.1 gives its own name in
    # Host (and the same in Origin, which is why the origin check alone lets it in).
    evil = {"Host": f"rebind.evil.example:{server.port}"}
    evil_origin = {**evil, "Origin": f"http://rebind.evil.example:{server.port}"}
    for path in ("/", "/api/tables", "/static/table.js"):
        refused = server.http.get(path, headers=evil)
        assert refused.status_code == 400 and refused.json()["error"] == "bad_host", path
        assert "--public-url" in refused.json()["message"]
    body = {"seats": ALL_OPEN}
    before = server.http.get("/api/tables").json()["total"]
    made = server.http.post("/api/tables", json=body, headers=evil_origin)
    assert made.status_code == 400 and made.json()["error"] == "bad_host"
    assert server.http.get("/api/tables").json()["total"] == before  # nothing was made
    table_id = server.create(ALL_OPEN)["id"]
    # The socket goes to 127.0.0.1; the URL's name is the Host the upgrade gives.
    path = f"/api/tables/{table_id}/ws"
    with pytest.raises(InvalidStatus) as refused:
        connect(
            f"ws://rebind.evil.example:{server.port}{path}",
            sock=socket.create_connection(("127.0.0.1", server.port), timeout=FRAME),
            open_timeout=FRAME,
        )
    assert refused.value.response.status_code == 400
    assert b"bad_host" in refused.value.response.body
    # The server's own names and any address are let in.
    for host in ("localhost", "127.0.0.1", "[::1]", "192.168.1.20", "club.localhost"):
        answer = server.http.get("/api/tables", headers={"Host": f"{host}:{server.port}"})
        assert answer.status_code == 200, host
    with connect(
        f"ws://localhost:{server.port}{path}",
        sock=socket.create_connection(("127.0.0.1", server.port), timeout=FRAME),
        open_timeout=FRAME,
    ) as ws:
        assert json.loads(ws.recv(timeout=FRAME))["type"] == "state"


def test_the_names_a_server_answers_to() -> None:
    import socket

    from valtti.web.reach import own_names

    machine = socket.gethostname().lower()
    assert {"localhost", machine, f"{machine}.local"} <= own_names("127.0.0.1")
    assert "myhost.lan" in own_names("MyHost.lan") and "" not in own_names("0.0.0.0")
    # The middleware alone: a name outside them, or a Host that is no name, is refused.
    hosts = Policy(hosts=frozenset({"localhost"}))
    for host, status in (
        ("localhost:8000", 200),
        ("10.0.0.7", 200),
        ("evil.example", 400),
        ("[bad", 400),
        ("localhost.:8000", 200),  # the name with its root dot
        ("evil.example@localhost", 400),  # no browser sends a user part
    ):
        start, _body = _call("http", {"host": host}, hosts)
        assert start["status"] == status, host
