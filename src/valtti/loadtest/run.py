"""The load test of the web table: many websocket clients playing at full speed.

Every client is a person at a table as docs/WEB.md describes one: tables are created over HTTP
with four open seats, each seat is taken with a nickname, and each seat opens its own websocket.
As soon as a client's state says it is to move it sends an action chosen at random from
``observation.legal`` with the ``seq`` it saw. When a match finishes its four clients start a new
table, so the number of clients stays the same.

Latency is measured from sending an action to receiving the first state that shows it: at the
client that sent it (*mover*), and at each of the four seats of its table (*seats*, the
broadcast) from the first state whose ``seq`` includes it. An ``answer`` makes no ``seq``: its
mover sees it in the first state out of the ``answer`` phase, and the other seats, which hear of
the ``ask-whole`` only with its answer, count from the answer. Every ``error`` frame answering an
action, unexpected close, failed HTTP request and action left without its state counts as an
error.

Each client also chats as people at a table do: a ``{"type": "chat", "text": …}`` message every
CHAT_INTERVAL seconds or so, each text its own. Its latency is from sending it to the broadcast
``chat`` frame with that text, at each seat of the table. A server without chat answers each with
an ``error`` frame: that is counted as a refused chat, apart from the errors and the actions'
latency. A frame of another type (a server newer than this test) is counted, not an error.

Against a server on this machine (on Linux), each client connects from a loopback address of its
own (127.0.x.y: every 127/8 address is this machine's), as people do from their own devices, so
that the server's limits per client address see one person each.

All clients run in this one process (asyncio), so per message it does only what a client must:
decode the frame, and compare a few fields.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from valtti.loadtest.figures import Chat, Figures, latency

SEATS = ("N", "E", "S", "W")

#: Messages a connection may send in a second before it is throttled (docs/WEB.md).
MESSAGES_PER_SECOND = 20
#: The window the clients keep their messages in: a little over a second, so that jitter on the
#: way to the server never puts 21 of them into one of its seconds.
PACING_WINDOW = 1.1
#: How long an action may wait for its state before it counts as an error.
STATE_TIMEOUT = 10.0
#: How long a server started by the load test has to answer.
SERVER_START_TIMEOUT = 60.0
#: Seconds between one client's chat messages, drawn evenly from this range (the first within
#: the range's low end of the start): a lively table, and well within a chat rate limit.
CHAT_INTERVAL = (2.5, 5.0)


class LoadTestError(Exception):
    """The load test could not run at all (the server did not start or answer)."""


@dataclass
class _Run:
    """What all clients share: the clock, the samples and the errors."""

    url: str
    seed: int
    own_addresses: bool = False  #: each client connects from a loopback address of its own
    go: asyncio.Event = field(default_factory=asyncio.Event)
    deadline: float = 0.0
    actions: int = 0
    tables: int = 0
    matches_finished: int = 0
    mover_ms: list[float] = field(default_factory=list)
    seats_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    chats_sent: int = 0
    chats_answered: int = 0  #: broadcast, or refused
    chat_ms: list[float] = field(default_factory=list)
    chat_refused: list[str] = field(default_factory=list)
    other_frames: Counter[str] = field(default_factory=Counter)


@dataclass
class _Table:
    """One table of the load test: when each of its actions was sent, by the seq it makes."""

    id: str
    sent: dict[int, float] = field(default_factory=dict)
    #: each chat text sent at the table: when, and by whom
    chats: dict[str, tuple[float, _Client]] = field(default_factory=dict)


class _Client:
    """One seat's connection, playing at full speed until the deadline."""

    def __init__(
        self, run: _Run, table: _Table, seat: str, ws: ClientConnection, rng: random.Random
    ) -> None:
        self.run = run
        self.table = table
        self.seat = seat
        self.ws = ws
        self.rng = rng
        self.seen = -1  # the highest seq received
        self.sent_at: float | None = None  # when my action not yet seen in a state was sent
        self.sent_seq = 0  # the seq that action was sent on
        self.answering = False  # whether it is an answer, which makes no seq (docs/WEB.md)
        self.sends: deque[float] = deque(maxlen=MESSAGES_PER_SECOND)
        self.state: dict[str, Any] | None = None
        self.finished = False
        self.chat_rng = random.Random(rng.random())
        self.chatting: str | None = None  # the text of my chat neither broadcast nor refused
        self.chat_at = 0.0  # when it was sent
        self.readied = 0  # the last deal at whose end I said ready

    async def first_state(self) -> None:
        """Wait for the state sent on connect."""
        while self.state is None:
            self._receive(await self.ws.recv())

    async def play(self) -> None:
        """Act until the deadline or the end of the match, then wait for my last action's
        state; every error frame and unexpected close is recorded."""
        try:
            chatter = asyncio.create_task(self._chat())
            try:
                async with asyncio.timeout_at(self.run.deadline):
                    await self._act()
                    while not self.finished:
                        self._receive(await self.ws.recv())
                        await self._act()
            except TimeoutError:
                pass
            finally:
                chatter.cancel()
                with contextlib.suppress(asyncio.CancelledError, ConnectionClosed):
                    await chatter
            if self.sent_at is not None and not self.finished:
                try:
                    async with asyncio.timeout(STATE_TIMEOUT):
                        while self.sent_at is not None and not self.finished:
                            self._receive(await self.ws.recv())
                except TimeoutError:
                    self._error(f"no state for an action within {STATE_TIMEOUT:.0f} s")
        except ConnectionClosed as e:
            self._error(f"connection closed by the server: {_close_text(e)}")

    def _receive(self, raw: str | bytes) -> None:
        now = time.perf_counter()
        message = json.loads(raw)
        kind = message.get("type")
        if kind == "error" and self._chat_refused(message):
            return
        if kind == "error":
            self._error(f"error {message.get('code')}: {message.get('message')}")
            # A refused action changes nothing: wait for the next state, then act on it.
            self.sent_at = None
            self.state = None
            return
        if kind == "chat":
            self._heard(message.get("text"), now)
            return
        if kind != "state":
            self.run.other_frames[str(kind)] += 1
            return
        seq: int = message["seq"]
        if seq > self.seen:
            sent = self.table.sent
            for made in range(self.seen + 1, seq + 1):  # a slow client may skip a seq
                at = sent.get(made)
                if at is not None:
                    self.run.seats_ms.append((now - at) * 1000)
            self.seen = seq
        if self.sent_at is not None and (
            seq > self.sent_seq or (self.answering and message["observation"]["phase"] != "answer")
        ):
            self.run.mover_ms.append((now - self.sent_at) * 1000)
            self.run.actions += 1
            self.sent_at = None
        self.state = message
        if message["table"]["status"] == "finished":
            self.finished = True

    async def _act(self) -> None:
        state = self.state
        if self.sent_at is not None or state is None or self.finished:
            return
        between = state.get("between")
        if between is not None and between["for"] == "deal":
            # The server waits for the people between deals: ready at once, as eager players.
            if self.readied != state["deal"]:
                self.readied = state["deal"]
                await self._pace()
                await self.ws.send('{"type":"ready"}')
            return
        observation = state["observation"]
        if observation is None or observation["to_move"] != state["you"]:
            return
        legal: list[str] = observation["legal"]
        if not legal:
            return
        # Stay under the server's throttle, as a person (however fast) would.
        await self._pace()
        seq: int = state["seq"]
        text = json.dumps({"type": "action", "action": self.rng.choice(legal), "seq": seq})
        self.answering = observation["phase"] == "answer"
        self.sent_seq = seq
        self.sent_at = now = time.perf_counter()
        self.sends[-1] = now
        # An answer leaves seq as it is; the other seats hear of the seq its ask-whole made
        # only now, with the answer (docs/WEB.md), so their latency counts from the answer.
        self.table.sent[seq if self.answering else seq + 1] = now
        await self.ws.send(text)

    async def _pace(self) -> None:
        """Wait as needed to stay under the server's throttle, as a person (however fast)
        would, and count the message about to be sent."""
        if len(self.sends) == MESSAGES_PER_SECOND:
            pause = self.sends[0] + PACING_WINDOW - time.perf_counter()
            if pause > 0:
                await asyncio.sleep(pause)
        self.sends.append(time.perf_counter())

    async def _chat(self) -> None:
        """Send a chat message every CHAT_INTERVAL seconds or so, never while the last one is
        unanswered (so that an error frame is known to answer it: the server answers one
        connection's messages in order)."""
        low, high = CHAT_INTERVAL
        await asyncio.sleep(self.chat_rng.uniform(0, low))
        number = 0
        while not self.finished:
            if self.chatting is None:
                await self._pace()
                number += 1
                text = f"hello {number} from {self.seat} at {self.table.id}"
                self.chatting = text
                self.chat_at = now = self.sends[-1] = time.perf_counter()
                self.table.chats[text] = (now, self)
                self.run.chats_sent += 1
                await self.ws.send(json.dumps({"type": "chat", "text": text}))
            await asyncio.sleep(self.chat_rng.uniform(low, high))

    def _chat_refused(self, message: dict[str, Any]) -> bool:
        """Whether an error frame answers my chat: sent before any action still unanswered."""
        if self.chatting is None or (self.sent_at is not None and self.sent_at < self.chat_at):
            return False
        self.chatting = None
        self.run.chats_answered += 1
        self.run.chat_refused.append(str(message.get("code")))
        return True

    def _heard(self, text: object, now: float) -> None:
        """A chat broadcast reached this seat: its latency, if the load test sent it."""
        sent = self.table.chats.get(text) if isinstance(text, str) else None
        if sent is None:
            return
        at, sender = sent
        self.run.chat_ms.append((now - at) * 1000)
        if sender.chatting == text:  # its first seat to hear it answers the sender
            sender.chatting = None
            self.run.chats_answered += 1

    def _error(self, text: str) -> None:
        self.run.errors.append(f"{text} (table {self.table.id}, seat {self.seat})")


def _close_text(e: ConnectionClosed) -> str:
    if e.rcvd is None:
        return "no close frame"
    return f"code {e.rcvd.code} {e.rcvd.reason}".rstrip()


def _http(method: str, url: str, body: dict[str, Any] | None = None) -> Any:
    """One JSON request, straight to the server (never through a proxy)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=30) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as e:
        detail = e.read().decode(errors="replace")[:200]
        raise LoadTestError(f"{method} {url}: HTTP {e.code} {detail}") from None
    except (urllib.error.URLError, OSError) as e:
        raise LoadTestError(f"{method} {url}: {e}") from None


async def _new_table(run: _Run, group: int) -> tuple[_Table, dict[str, str]]:
    """Create a table with four open seats and take each seat: the table and the seat tokens."""
    created = await asyncio.to_thread(
        _http,
        "POST",
        f"{run.url}/api/tables",
        {
            "variant": {},
            "seats": dict.fromkeys(SEATS, "open"),
            "nickname": f"load{group}",
            "seat": None,
        },
    )
    table = _Table(str(created["id"]))
    tokens = {}
    for seat in SEATS:
        taken = await asyncio.to_thread(
            _http,
            "POST",
            f"{run.url}/api/tables/{table.id}/seats/{seat}",
            {"nickname": f"load{group}{seat}"},
        )
        tokens[seat] = str(taken["token"])
    run.tables += 1
    return table, tokens


def client_address(number: int) -> str:
    """The loopback address client ``number`` (from 0) connects from: 127.0.1.1, 127.0.1.2 …"""
    high, low = divmod(number, 250)
    return f"127.0.{1 + high}.{1 + low}"


def _own_addresses(url: str) -> bool:
    """Whether clients can connect from loopback addresses of their own: the server is at an
    IPv4 loopback address, and Linux gives this machine every 127/8 address."""
    try:
        host = ipaddress.ip_address(urllib.parse.urlsplit(url).hostname or "")
    except ValueError:  # a name: it may resolve to an IPv6 address
        return False
    return sys.platform == "linux" and host.version == 4 and host.is_loopback


async def _connect(
    run: _Run, table: _Table, tokens: dict[str, str], seed: str, group: int
) -> list[_Client]:
    base = "ws" + run.url.removeprefix("http")
    clients = []
    for number, seat in enumerate(SEATS, start=group * len(SEATS)):
        query = urllib.parse.urlencode({"token": tokens[seat]})
        local: dict[str, Any] = {}
        if run.own_addresses:
            local["local_addr"] = (client_address(number), 0)
        ws = await connect(
            f"{base}/api/tables/{table.id}/ws?{query}",
            proxy=None,
            ping_interval=None,
            open_timeout=30,
            max_queue=None,
            **local,
        )
        clients.append(_Client(run, table, seat, ws, random.Random(f"{seed}:{seat}")))
    await asyncio.gather(*(c.first_state() for c in clients))
    return clients


async def _group(run: _Run, group: int, ready: Callable[[], None]) -> None:
    """Four clients at one table after another until the deadline."""
    first = True
    loop = asyncio.get_running_loop()
    number = 0
    while first or loop.time() < run.deadline:
        table, tokens = await _new_table(run, group)
        clients = await _connect(run, table, tokens, f"{run.seed}:{group}:{number}", group)
        number += 1
        if first:
            ready()
            await run.go.wait()
            first = False
        try:
            await asyncio.gather(*(c.play() for c in clients))
        finally:
            await asyncio.gather(*(c.ws.close() for c in clients))
        if any(c.finished for c in clients):
            run.matches_finished += 1


async def _drive(
    url: str, clients: int, seconds: float, seed: int, cpu_of_server: Callable[[], float | None]
) -> Figures:
    run = _Run(url.rstrip("/"), seed, _own_addresses(url))
    groups = clients // len(SEATS)
    loop = asyncio.get_running_loop()
    waiting = groups
    all_ready = asyncio.Event()

    def ready() -> None:
        nonlocal waiting
        waiting -= 1
        if waiting == 0:
            all_ready.set()

    # Far in the future until every client is connected; then the clock starts.
    run.deadline = loop.time() + 10**9
    tasks = [asyncio.create_task(_group(run, g, ready)) for g in range(groups)]
    setup = asyncio.create_task(all_ready.wait())
    done, _ = await asyncio.wait([setup, *tasks], return_when=asyncio.FIRST_COMPLETED)
    if setup not in done:
        setup.cancel()
        await _cancel(tasks)
        await _raise_first(done)
    generator_before = _own_cpu()
    server_before = cpu_of_server()
    started = time.perf_counter()
    run.deadline = loop.time() + seconds
    run.go.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            run.errors.append(str(result) or type(result).__name__)
    elapsed = time.perf_counter() - started
    server_after = cpu_of_server()
    return Figures(
        url=run.url,
        clients=clients,
        seconds=min(elapsed, seconds),
        actions=run.actions,
        tables=run.tables,
        matches_finished=run.matches_finished,
        mover=latency(run.mover_ms),
        seats=latency(run.seats_ms),
        errors=run.errors,
        generator_cpu_s=_own_cpu() - generator_before,
        server_cpu_s=None
        if server_before is None or server_after is None
        else server_after - server_before,
        chat=Chat(
            run.chats_sent,
            latency(run.chat_ms),
            run.chat_refused,
            run.chats_sent - run.chats_answered,
        ),
        other_frames=dict(run.other_frames),
    )


async def _cancel(tasks: Sequence[asyncio.Task[None]]) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def _raise_first(done: set[asyncio.Task[Any]]) -> None:
    for task in done:
        error = task.exception()
        if error is not None:
            raise LoadTestError(f"setting up the tables: {error}")


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _process_cpu(pid: int) -> float | None:
    """User and system CPU seconds of a process and all its descendants (Linux /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    children: dict[int, list[int]] = {}
    cpu: dict[int, float] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return None
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        # Fields after the parenthesised command name: state ppid … utime stime (14, 15).
        fields = stat[stat.rindex(")") + 2 :].split()
        children.setdefault(int(fields[1]), []).append(int(entry))
        cpu[int(entry)] = (int(fields[11]) + int(fields[12])) / ticks
    if pid not in cpu:
        return None
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        total += cpu.get(p, 0.0)
        todo.extend(children.get(p, []))
    return total


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def own_server() -> Iterator[tuple[str, int]]:
    """``valtti serve`` in a subprocess on a free port with a temporary SQLite database, no
    pause before computer moves and no limit per client address on new tables, seats taken and
    WebSockets (the other limits as a host has them): its URL and process id, until the block
    ends."""
    with tempfile.TemporaryDirectory(prefix="valtti-loadtest-") as folder:
        port = _free_port()
        url = f"http://127.0.0.1:{port}"
        log_path = Path(folder, "server.log")
        command = [
            sys.executable,
            "-m",
            "valtti",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{Path(folder, 'loadtest.db')}",
            "--bot-delay",
            "0",
            "--tables-per-minute",
            "0",
            "--joins-per-minute",
            "0",
            "--connections-per-address",
            "0",
        ]
        with open(log_path, "wb") as log:
            server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        try:
            _wait_until_up(url, server, log_path)
            yield url, server.pid
        finally:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def _wait_until_up(url: str, server: subprocess.Popen[bytes], log_path: Path) -> None:
    give_up = time.monotonic() + SERVER_START_TIMEOUT
    while True:
        if server.poll() is not None:
            log = log_path.read_text(errors="replace")[-2000:]
            raise LoadTestError(f"valtti serve exited with status {server.returncode}:\n{log}")
        try:
            _http("GET", f"{url}/api/tables")
            return
        except LoadTestError:
            if time.monotonic() > give_up:
                raise LoadTestError(
                    f"valtti serve did not answer within {SERVER_START_TIMEOUT:.0f} s"
                ) from None
        time.sleep(0.1)


def _run_loop(main: Awaitable[Figures]) -> Figures:
    async def wrapped() -> Figures:
        return await main

    try:
        import uvloop  # installed with uvicorn[standard] where it runs: a cheaper event loop
    except ImportError:
        return asyncio.run(wrapped())
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(wrapped())


def run(url: str | None, clients: int, seconds: float, seed: int) -> Figures:
    """Drive ``clients`` clients (a multiple of four) for ``seconds`` against the server at
    ``url``, or against a server of our own when ``url`` is None. Raises LoadTestError when the
    server cannot be started or the tables cannot be set up."""
    if clients < len(SEATS) or clients % len(SEATS):
        raise ValueError("the number of clients must be a positive multiple of 4")
    if url is not None:
        return _run_loop(_drive(url, clients, seconds, seed, lambda: None))
    with own_server() as (own_url, pid):
        return _run_loop(_drive(own_url, clients, seconds, seed, lambda: _process_cpu(pid)))
