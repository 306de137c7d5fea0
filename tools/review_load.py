"""How much a finished match's review slows a computer player at another table of the same web
server (issue 42): ``python tools/review_load.py [--player pimc:hard] [--turns 200]
[--window 10] [--pairs 2] [--cores 0,1] [--mode windows|runs] [--tree DIR]``.

Each run starts a real ``valtti serve`` (one computer players' worker, no delay between moves,
the next deal at once; on ``--cores`` where given, as ``taskset`` pins it) over a database of
its own holding table A, four ``--player`` computer players seeded alike in every run, which
start playing as the server starts, and finished 10-deal matches of computer players alone (the
heuristic player's, seeded) whose reviews (every seat's decisions, the heaviest there are) are
asked for, one after another, as the server starts. A spectator times each of A's turns (the
time from one public action to the next), ``--turns`` of them.

``--mode windows`` (the review in a process of its own): the review's process is paused
(``SIGSTOP``) and let go on (``SIGCONT``) in turn every ``--window`` seconds, so that turns with
the review being made and turns without come from the same minutes of the machine's load; the
second run of a pair begins in the other state, so that each of A's turns (the same seed: the
same decision, the same work) is timed once with the review and once without. A turn that
spans a change is left out. ``--mode runs``: one whole run with the reviews asked for, one
without, of the same turns (for code that makes the review in a computer players' worker,
which cannot be paused alone). ``--tree`` runs the server of another checkout (its ``src``
first on ``PYTHONPATH``): the code before a change.

Besides the turns, each run says the CPU seconds the review's process had (at the lowest
priority it has only what play leaves: on a busy machine, little) and the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import httpx
import psutil
from websockets.sync.client import connect

from valtti.engine import Match, Seat, Variant
from valtti.table import decide_once
from valtti.web.db.rows import SeatRow, TableRow
from valtti.web.db.store import Store
from valtti.web.referee.seats import new_token, token_hash

#: Turns of A left out at the start of each run (the worker's first decisions, the connection).
SKIP = 4
#: Deals in each reviewed match, and how many such matches (reviewed one after another).
DEALS = 10
REVIEWED = 4


@dataclass(frozen=True, slots=True)
class Run:
    """One run: each of A's turns by its ``seq`` (seconds) and whether the review was being made
    through it; the CPU seconds the review's process had; the load average as it began."""

    turns: dict[int, tuple[float, bool]]
    review_cpu: float
    load: float


def ten_deal_match(seed: int) -> Match:
    """The first match of ``DEALS`` deals the heuristic player plays from ``seed`` on."""
    while True:
        match = Match(Variant(), Seat.N)
        rng = random.Random(seed)
        n = 0
        while not match.is_over() and len(match.deals) <= DEALS:
            if match.deal is None or match.deal.is_over():
                match.start_deal(rng=rng)
            seat = match.current_player
            assert seat is not None
            match.apply(decide_once("heuristic", seed * 100_000 + n, match.observation(seat)))
            n += 1
        if match.is_over() and len(match.deals) == DEALS:
            return match
        seed += 1


def table_row(table_id: str, seed: int) -> TableRow:
    return TableRow(
        id=table_id,
        created=datetime.now(UTC),
        variant=Variant(),
        first_dealer=Seat.N,
        seed=seed,
        creator_hash=token_hash(new_token()),
        status="playing",
    )


def make_db(path: Path, player: str, reviewed: list[Match]) -> str:
    """A database with table A (nothing dealt, four ``player``s, seed 1) and B1, B2, … (the
    ``reviewed`` matches, finished, computer players alone)."""
    url = f"sqlite:///{path}"
    store = Store(url)
    try:
        store.create_table(table_row("A", 1), [SeatRow(s, "computer", player, None) for s in Seat])
        for i, match in enumerate(reviewed, 1):
            table_id = f"B{i}"
            seats = [SeatRow(s, "computer", "heuristic", None) for s in Seat]
            store.create_table(table_row(table_id, 1 + i), seats)
            for number, deal in enumerate(match.deals, 1):
                hands = tuple(deal.after(0).hand(s) for s in Seat)
                store.add_deal(table_id, number, deal.dealer, hands)
                for index, action in enumerate(deal.history):
                    store.add_action(table_id, number, index, str(action))
            store.set_status(table_id, "finished")
    finally:
        store.close()
    return url


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def serve(url: str, port: int, cores: str | None, tree: Path | None) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "valtti", "serve", "--port", str(port), "--db", url]
    command += ["--bot-delay", "0", "--bot-workers", "1", "--next-deal-seconds", "0"]
    command += ["--tables-per-minute", "0", "--close-idle-hours", "0"]
    if cores:
        command = ["taskset", "-c", cores, *command]
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree / "src")
    return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def idle_processes(server: subprocess.Popen[bytes]) -> list[psutil.Process]:
    """The server's processes at the lowest priority (``SCHED_IDLE``): the review's."""
    found = []
    for child in psutil.Process(server.pid).children(recursive=True):
        try:
            if os.sched_getscheduler(child.pid) == os.SCHED_IDLE:
                found.append(child)
        except OSError:
            continue
    return found


class Reviews:
    """The reviews of B1, B2, … asked for one after another in a thread of their own (the
    next once one is made), and the CPU seconds their processes had."""

    def __init__(self, http: httpx.Client, server: subprocess.Popen[bytes]) -> None:
        self.http = http
        self.server = server
        self.cpu: dict[int, float] = {}
        self.done = threading.Event()
        threading.Thread(target=self._ask, daemon=True).start()

    def _ask(self) -> None:
        for i in range(1, REVIEWED + 1):
            try:
                self.http.get(f"/api/tables/B{i}/review").raise_for_status()
            except httpx.HTTPError:
                return  # the server stopped
        self.done.set()

    def sample(self) -> list[psutil.Process]:
        """The review's processes now; their CPU seconds noted."""
        processes = idle_processes(self.server)
        for p in processes:
            try:
                times = p.cpu_times()
                self.cpu[p.pid] = times.user + times.system
            except psutil.Error:
                continue
        return processes


def one_run(
    url: str, turns: int, cores: str | None, tree: Path | None, review: bool, window: float | None
) -> Run:
    """``turns`` of A's turns. With ``review``, the reviews are asked for as the server starts;
    with ``window``, their process is paused and let go on in turn every ``window`` seconds
    (``review`` says whether it goes first)."""
    port = free_port()
    load = os.getloadavg()[0]
    server = serve(url, port, cores, tree)
    http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=3600)
    try:
        while True:
            try:
                http.get("/api/tables")
                break
            except httpx.TransportError:
                time.sleep(0.05)
        began = time.monotonic()
        reviews = Reviews(http, server) if review or window else None

        def making(at: float) -> bool:
            """Whether the review runs at ``at`` (by the windows, or throughout)."""
            if window is None:
                return review
            return (int((at - began) / window) % 2 == 0) == review

        seen: list[tuple[int, float, bool]] = []
        paused = False
        with connect(f"ws://127.0.0.1:{port}/api/tables/A/ws", open_timeout=30) as ws:
            while len(seen) < turns + SKIP:
                try:
                    frame = json.loads(ws.recv(timeout=0.2))
                except TimeoutError:
                    frame = None
                now = time.monotonic()
                if reviews is not None and window is not None:
                    pause = not making(now)
                    for process in reviews.sample():
                        process.send_signal(signal.SIGSTOP if pause else signal.SIGCONT)
                    paused = pause
                if frame is None or frame.get("type") != "state":
                    continue
                if frame["table"]["status"] != "playing":
                    break
                if not seen or frame["seq"] > seen[-1][0]:
                    seen.append((frame["seq"], now, not paused if window else review))
        per_turn = {
            seq: (at - seen[i - 1][1], making_now)
            for i, (seq, at, making_now) in enumerate(seen)
            if i > SKIP and seen[i - 1][0] == seq - 1 and seen[i - 1][2] == making_now
        }
        if reviews is not None:
            for process in reviews.sample():
                process.send_signal(signal.SIGCONT)
        cpu = sum(reviews.cpu.values()) if reviews is not None else 0.0
        if reviews is not None and reviews.done.is_set():
            print("(every review was made during the run: later turns had none)", flush=True)
        return Run(per_turn, cpu, load)
    finally:
        server.terminate()
        server.wait(60)
        http.close()


def report(name: str, pairs: list[tuple[float, float]]) -> None:
    """The turns timed with and without the review, the same turns in both."""
    without = [p[0] for p in pairs]
    with_review = [p[1] for p in pairs]
    print(
        f"{name}: {len(pairs)} turns; without the review: mean {statistics.mean(without):.3f} s,"
        f" median {statistics.median(without):.3f} s; with it: mean"
        f" {statistics.mean(with_review):.3f} s, median {statistics.median(with_review):.3f} s;"
        f" {100 * (sum(with_review) / sum(without) - 1):+.1f} %",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--player", default="pimc:hard")
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--window", type=float, default=10.0)
    parser.add_argument("--pairs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mode", choices=["windows", "runs"], default="windows")
    parser.add_argument("--cores", help="taskset's list of cores for the server, e.g. 0,1")
    parser.add_argument("--tree", type=Path, help="run the server of this checkout")
    args = parser.parse_args()
    reviewed = []
    seed = args.seed
    for _ in range(REVIEWED):
        reviewed.append(ten_deal_match(seed))
        seed += 1
    work = Path(tempfile.mkdtemp(prefix="review-load-"))
    template = work / "template.db"
    make_db(template, args.player, reviewed)
    every: list[tuple[float, float]] = []
    try:
        for pair in range(args.pairs):
            runs = []
            for first in (True, False):
                db = work / f"run-{secrets.token_hex(4)}.db"
                shutil.copy(template, db)
                window = args.window if args.mode == "windows" else None
                run = one_run(f"sqlite:///{db}", args.turns, args.cores, args.tree, first, window)
                runs.append(run)
                counted = sum(1 for _t, making in run.turns.values() if making)
                print(
                    f"pair {pair + 1}, run {len(runs)}: load {run.load:.2f}, {len(run.turns)}"
                    f" turns ({counted} with the review); the review's CPU {run.review_cpu:.1f} s",
                    flush=True,
                )
            a, b = runs
            pairs = []
            for seq in sorted(set(a.turns) & set(b.turns)):
                (ta, ma), (tb, mb) = a.turns[seq], b.turns[seq]
                if ma != mb:
                    pairs.append((tb, ta) if ma else (ta, tb))
            report(f"pair {pair + 1}", pairs)
            every += pairs
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report("all", every)


if __name__ == "__main__":
    main()
