"""Real ``valtti serve`` processes for the web table's tests, the application in this process
(``App``, the same API through FastAPI's TestClient), and WebSocket clients to either."""

from __future__ import annotations

import json
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import warnings
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import anyio
import httpx
from anyio.streams.memory import MemoryObjectReceiveStream
from starlette.types import Message
from websockets.exceptions import ConnectionClosed
from websockets.frames import Close
from websockets.sync.client import ClientConnection, connect

from valtti.engine import Action, Seat
from valtti.engine.actions import ActionKind
from valtti.engine.record import Record
from valtti.web import reach
from valtti.web.app import create_app
from valtti.web.club.accounts import AccountSettings
from valtti.web.db.store import Store
from valtti.web.security import Policy

with warnings.catch_warnings():
    # Starlette would rather its client were httpx2's (not installed): httpx's works the same.
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient, WebSocketTestSession

SEATS = ("N", "E", "S", "W")
ALL_OPEN = dict.fromkeys(SEATS, "open")

#: Seconds to wait for a server to answer, and for one frame.
STARTUP = 30.0
FRAME = 10.0
#: The server's limit of messages in one second; the window clients keep them in, with a margin.
RATE = 20
RATE_WINDOW = 1.05


def is_public(action: Action) -> bool:
    """Whether ``action`` counts in a state's ``seq``: every action but ``answer`` (which of
    several marriages a partner chose is private, docs/WEB.md)."""
    return action.kind is not ActionKind.ANSWER


def stored_record(db_url: str, table_id: str) -> Record:
    """The table's match as the server stored it: the truth the tests check frames against."""
    store = Store(db_url)
    try:
        stored = store.load(table_id)
    finally:
        store.close()
    assert stored is not None and stored.record is not None
    return stored.record


def hands_by_seq(record: Record) -> dict[int, dict[str, set[str]]]:
    """Each seat's true hand at each seq of the stored match.

    At a seq where a deal ends the server has dealt the next one already, so that is the deal.
    """
    match = record.replay()
    out: dict[int, dict[str, set[str]]] = {}
    seq = 0
    for deal in match.deals:
        for n in range(len(deal.history) + 1):
            if n and is_public(deal.history[n - 1]):
                seq += 1
            at = deal.after(n)
            out[seq] = {str(s): set(at.hand(s).tokens()) for s in Seat}
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Site:
    """What a test talks to: a web table's HTTP API (``http``, at ``url``) and WebSockets to
    its tables, over the database at ``db_url``."""

    db_url: str
    url: str
    http: httpx.Client

    def create(self, seats: dict[str, str], **body: Any) -> dict[str, Any]:
        """A new table (POST /api/tables) with these seats; its answer."""
        answer = self.http.post("/api/tables", json={"variant": {}, "seats": seats, **body})
        assert answer.status_code == 201, answer.text
        created: dict[str, Any] = answer.json()
        return created

    def join(self, table_id: str, seat: str, nickname: str = "Aino") -> str:
        answer = self.http.post(f"/api/tables/{table_id}/seats/{seat}", json={"nickname": nickname})
        assert answer.status_code == 200, answer.text
        token: str = answer.json()["token"]
        return token

    def socket(self, table_id: str, token: str | None = None) -> Player:
        raise NotImplementedError


class Server(Site):
    """A ``valtti serve`` process on a free port of this machine, with its HTTP client."""

    def __init__(
        self,
        db_url: str,
        bot_delay: float = 0.0,
        tables_per_minute: int = 0,
        options: Sequence[str] = (),
        open_files: tuple[int, int] | None = None,
    ) -> None:
        self.db_url = db_url
        self.bot_delay = bot_delay
        self.tables_per_minute = tables_per_minute  #: 0: the tests make tables at will
        #: More ``valtti serve`` options; by default no limit per client address, which every
        #: test client shares.
        #: And the next deal at once: a test of the wait between deals asks for one.
        self.options = [
            "--joins-per-minute",
            "0",
            "--connections-per-address",
            "0",
            "--http-connections-per-address",
            "0",
            "--next-deal-seconds",
            "0",
            *options,
        ]
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.http = httpx.Client(base_url=self.url, timeout=FRAME)
        #: The process's limits of open files (and so connections), soft and hard; ``None``:
        #: this one's.
        self.open_files = open_files
        self.process: subprocess.Popen[bytes] | None = None
        self.log = Path(tempfile.mkdtemp(prefix="valtti-serve-")) / "serve.log"

    def start(self) -> Server:
        """Start and wait until it answers (it has resumed every unfinished table by then)."""
        command = [sys.executable, "-m", "valtti", "serve", "--port", str(self.port)]
        command += ["--db", self.db_url, "--bot-delay", str(self.bot_delay), "--bot-workers", "1"]
        command += ["--tables-per-minute", str(self.tables_per_minute), *self.options]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                preexec_fn=None if self.open_files is None else self._limit_files,
            )
        deadline = time.monotonic() + STARTUP
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"valtti serve exited:\n{self.log.read_text()}"
            try:
                self.http.get("/api/tables")
                return self
            except httpx.TransportError:
                time.sleep(0.1)
        raise AssertionError(f"valtti serve did not answer within {STARTUP} s")

    def _limit_files(self) -> None:
        import resource

        assert self.open_files is not None
        resource.setrlimit(resource.RLIMIT_NOFILE, self.open_files)

    def kill(self) -> None:
        """SIGKILL: no shutdown of any kind."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(STARTUP)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(STARTUP)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.http.close()

    def socket(self, table_id: str, token: str | None = None) -> Player:
        query = "" if token is None else f"?token={token}"
        url = f"ws://127.0.0.1:{self.port}/api/tables/{table_id}/ws{query}"
        # Entered as a context (closed by Player.close), as websockets 17 asks of connect().
        return Player(connect(url, open_timeout=FRAME, close_timeout=FRAME).__enter__())


class App(Site):
    """The web table's application in this process, through FastAPI's ``TestClient``: the
    API of ``Server`` (the same routes, frames and refusals, computer players in a worker
    process), without a ``valtti serve`` process, a port or uvicorn in between. For tests of
    what the application does; what serving adds (request heads, slow clients, the start
    message and the log, signals and restarts, real sockets' timing) is ``Server``'s.

    The same options as ``Server`` gives ``valtti serve``: no limits per client address, the
    next deal at once, and the names of a server on 127.0.0.1.
    """

    def __init__(
        self,
        db_url: str,
        bot_delay: float = 0.0,
        tables_per_minute: int = 0,
        next_deal_seconds: float = 0.0,
        club: AccountSettings | None = None,
    ) -> None:
        self.db_url = db_url
        #: Where the client says it is: nothing listens there.
        self.url = "http://127.0.0.1:8000"
        policy = Policy(None, 0, 0, reach.own_names("127.0.0.1"))
        application = create_app(
            db_url,
            bot_delay=bot_delay,
            bot_workers=1,
            tables_per_minute=tables_per_minute,
            policy=policy,
            next_deal_seconds=next_deal_seconds,
            club=club,
        )
        self.http = TestClient(application, base_url=self.url)
        self.sockets: list[_TestSocket] = []  #: every WebSocket opened, closed by ``stop``

    def start(self) -> App:
        """Start the application (open its database, resume its unfinished tables)."""
        self.http.__enter__()
        return self

    def stop(self) -> None:
        """Close the WebSockets a test left open (the application waits for them), then
        stop the application."""
        for socket_ in self.sockets:
            socket_.close()
        self.http.__exit__(None, None, None)

    def socket(self, table_id: str, token: str | None = None) -> Player:
        assert isinstance(self.http, TestClient)
        query = "" if token is None else f"?token={token}"
        # A whole URL: the client's own base for WebSockets is another name (testserver).
        url = f"ws{self.url.removeprefix('http')}/api/tables/{table_id}/ws{query}"
        session = self.http.websocket_connect(url)
        self.sockets.append(_TestSocket(session.__enter__()))
        return Player(self.sockets[-1])


async def _receive(stream: MemoryObjectReceiveStream[Message], timeout: float | None) -> Message:
    with anyio.fail_after(timeout):
        return await stream.receive()


class _TestSocket:
    """A TestClient WebSocket as ``Player`` uses a websockets connection: ``recv`` with a
    timeout (``TimeoutError``), and ``ConnectionClosed`` (with the code received) once the
    application closed it."""

    def __init__(self, session: WebSocketTestSession) -> None:
        self.session = session
        self.closed: Close | None = None  #: the application's close frame, once received
        self.open = True  #: until ``close``

    def send(self, data: str | bytes) -> None:
        if isinstance(data, str):
            self.session.send_text(data)
        else:
            self.session.send_bytes(data)

    def recv(self, timeout: float | None = None) -> str | bytes:
        if self.closed is None:
            # The session's own receive has no timeout: a frame that never comes would hang.
            message = self.session.portal.call(_receive, self.session._send_rx, timeout)
            if message["type"] != "websocket.close":
                text: str | None = message.get("text")
                data: str | bytes = message["bytes"] if text is None else text
                return data
            self.closed = Close(message.get("code", 1000), message.get("reason") or "")
        raise ConnectionClosed(self.closed, None)

    def close(self) -> None:
        if self.open:
            self.open = False
            self.session.__exit__(None, None, None)


class Player:
    """One WebSocket to a table, keeping every frame it received."""

    def __init__(self, ws: ClientConnection | _TestSocket) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self._sent: deque[float] = deque(maxlen=RATE)

    def send(self, message: dict[str, Any] | str | bytes, paced: bool = True) -> None:
        """Send a text frame (a dict as JSON), or a binary frame of ``bytes``.

        ``paced``: wait as needed to stay within the server's 20 messages a second.
        """
        if paced and len(self._sent) == RATE:
            time.sleep(max(0.0, self._sent[0] + RATE_WINDOW - time.monotonic()))
        self._sent.append(time.monotonic())
        self.ws.send(json.dumps(message) if isinstance(message, dict) else message)

    def receive(self, timeout: float = FRAME) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.frames.append(frame)
        return frame

    def until(
        self, done: Callable[[dict[str, Any]], bool], timeout: float = FRAME
    ) -> dict[str, Any]:
        """Receive frames until one satisfies ``done`` (each within ``timeout``); that one."""
        while True:
            frame = self.receive(timeout)
            if done(frame):
                return frame

    def state(self, seq: int | None = None) -> dict[str, Any]:
        """The next state frame (whose seq is at least ``seq``)."""
        return self.until(lambda f: f["type"] == "state" and (seq is None or f["seq"] >= seq))

    def error(self) -> dict[str, Any]:
        return self.until(lambda f: f["type"] == "error")

    def close(self) -> None:
        self.ws.close()


class Table:
    """A table of people at the server, each with an open WebSocket, and a spectator."""

    def __init__(self, server: Site, table_id: str, tokens: dict[str, str]) -> None:
        self.server = server
        self.id = table_id
        self.tokens = tokens
        self.creator_token = ""  # known when this test created the table
        self.players = {s: server.socket(table_id, t) for s, t in tokens.items()}
        self.spectator = server.socket(table_id)
        self.everyone = [*self.players.values(), self.spectator]
        # Connecting changes the summary (who is connected): wait until everyone sees it all.
        for p in self.everyone:
            p.until(lambda f: f["type"] == "state" and _all_connected(f, list(tokens)))
        self.seq: int = self.spectator.frames[-1]["seq"]

    @classmethod
    def new(cls, server: Site, seats: dict[str, str] | None = None) -> Table:
        """A new table whose open seats are taken by people (all four by default)."""
        created = server.create(seats or ALL_OPEN)
        people = [s for s, kind in (seats or ALL_OPEN).items() if kind == "open"]
        tokens = {s: server.join(created["id"], s, f"player {s}") for s in people}
        table = cls(server, created["id"], tokens)
        table.creator_token = created["creator_token"]
        return table

    def latest(self, seat: str) -> dict[str, Any]:
        return next(f for f in reversed(self.players[seat].frames) if f["type"] == "state")

    def to_move(self) -> str:
        state = next(f for f in reversed(self.spectator.frames) if f["type"] == "state")
        to_move: str = state["observation"]["to_move"]
        return to_move

    def play(self, rng: random.Random) -> dict[str, Any]:
        """The person to move plays a random legal action (and, if it is an ``ask-whole`` that
        lets the partner choose, the partner a random answer); the mover's next state once
        everyone has it."""
        seat = self.to_move()
        action = rng.choice(self.latest(seat)["observation"]["legal"])
        self.players[seat].send({"type": "action", "action": action, "seq": self.seq})
        self.seq += 1
        seen: dict[int, dict[str, Any]] = {}
        if action == "ask-whole":
            partner = self.players[SEATS[(SEATS.index(seat) + 2) % 4]]
            frame = partner.state(self.seq)
            if frame["observation"]["phase"] == "answer":
                # Only the partner hears of the question until it answers (an unseen seq).
                answer = rng.choice(frame["observation"]["legal"])
                partner.send({"type": "action", "action": answer, "seq": self.seq})
            else:
                seen[id(partner)] = frame
        states = [seen.get(id(p)) or p.until(lambda f: _after(f, self.seq)) for p in self.everyone]
        assert all(s["seq"] == self.seq for s in states)
        return self.latest(seat)

    def close(self) -> None:
        for p in self.everyone:
            p.close()


def _after(frame: dict[str, Any], seq: int) -> bool:
    """Whether ``frame`` is a state at ``seq`` or later in which no partner is choosing."""
    return (
        frame["type"] == "state"
        and frame["seq"] >= seq
        and frame["observation"]["phase"] != "answer"
    )


def _all_connected(frame: dict[str, Any], seats: list[str]) -> bool:
    return all(s["connected"] for s in frame["table"]["seats"] if s["seat"] in seats)
