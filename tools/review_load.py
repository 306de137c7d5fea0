"""How much a finished match's review slows a computer player at another table of the same web
server (issue 42): ``python tools/review_load.py [--player pimc:hard] [--turns 120] [--pairs 3]
[--cores 0,1] [--tree DIR]``.

Each run starts a real ``valtti serve`` (one computer players' worker, no delay between moves,
the next deal at once; on ``--cores`` where given, as ``taskset`` pins it) over a database of
its own holding two tables: A, four ``--player`` computer players seeded alike in every run,
which start playing as the server starts, and B, a finished 10-deal match of computer players
alone (the heuristic player's, seeded). A spectator times each of A's turns as its state comes
(the time from one public action to the next). In a run *with* the review, B's review (every
seat's decisions, the heaviest there is) is asked for as the server starts and A's turns are
timed until it is made (at most ``--turns``, and not past A's match), with the CPU time the
review's process had meanwhile (at the lowest priority it has only what play leaves: on a busy
machine, little); the run *without* it that follows times the same turns of A, with nothing
else asked (the same seed: the same decisions, the same work). A pair is one of each.
``--tree`` runs the server of another checkout (its ``src`` first on ``PYTHONPATH``): the code
before a change.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import shutil
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
from valtti.web.seats import new_token, token_hash

#: Turns of A left out at the start of each run (the worker's first decisions, the connection).
SKIP = 4
#: Deals in B's match.
DEALS = 10


@dataclass(frozen=True, slots=True)
class Run:
    """One run: each of A's turns by its ``seq`` (seconds); with the review, the CPU seconds its
    process had while they were timed, and how long it took where it was made meanwhile."""

    turns: dict[int, float]
    review_cpu: float | None = None
    review_s: float | None = None


def ten_deal_match(seed: int) -> tuple[Match, int]:
    """The first match of ``DEALS`` deals the heuristic player plays from ``seed`` on, and its
    seed."""
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
            return match, seed
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


def make_db(path: Path, player: str, b_match: Match) -> str:
    """A database with table A (nothing dealt, four ``player``s, seed 1) and B (``b_match``,
    finished, computer players alone)."""
    url = f"sqlite:///{path}"
    store = Store(url)
    try:
        store.create_table(table_row("A", 1), [SeatRow(s, "computer", player, None) for s in Seat])
        store.create_table(
            table_row("B", 2), [SeatRow(s, "computer", "heuristic", None) for s in Seat]
        )
        for number, deal in enumerate(b_match.deals, 1):
            store.add_deal("B", number, deal.dealer, tuple(deal.after(0).hand(s) for s in Seat))
            for index, action in enumerate(deal.history):
                store.add_action("B", number, index, str(action))
        store.set_status("B", "finished")
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


def idle_cpu(server: subprocess.Popen[bytes]) -> float:
    """The CPU seconds of the server's processes at the lowest priority (``SCHED_IDLE``, else
    niceness 19): the review's."""
    total = 0.0
    for child in psutil.Process(server.pid).children(recursive=True):
        try:
            idle = os.sched_getscheduler(child.pid) == os.SCHED_IDLE or child.nice() == 19
            if idle:
                times = child.cpu_times()
                total += times.user + times.system
        except (psutil.Error, OSError):
            continue
    return total


def one_run(
    url: str, turns: int, review: bool, cores: str | None, tree: Path | None, last: int | None
) -> Run:
    """A's turns (at most ``turns``, none past seq ``last``), with B's review asked for as the
    server starts (until it is made) or without."""
    port = free_port()
    server = serve(url, port, cores, tree)
    http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=600)
    made: list[float] = []
    try:
        while True:
            try:
                http.get("/api/tables")
                break
            except httpx.TransportError:
                time.sleep(0.05)
        began = time.monotonic()

        def ask() -> None:
            try:
                http.get("/api/tables/B/review").raise_for_status()
                made.append(time.monotonic() - began)
            except httpx.HTTPError:
                pass  # the server stopped first

        if review:
            threading.Thread(target=ask, daemon=True).start()
        seen: dict[int, float] = {}
        cpu = 0.0
        with connect(f"ws://127.0.0.1:{port}/api/tables/A/ws", open_timeout=30) as ws:
            while len(seen) < turns + SKIP and not (review and made):
                frame = json.loads(ws.recv(timeout=120))
                if frame.get("type") != "state":
                    continue
                seq = frame["seq"]
                if frame["table"]["status"] != "playing" or (last is not None and seq > last):
                    break
                seen.setdefault(seq, time.monotonic())
                if review:
                    cpu = max(cpu, idle_cpu(server))
        times = sorted(seen.items())
        per_turn = {
            seq: at - times[i - 1][1]
            for i, (seq, at) in enumerate(times)
            if i > SKIP and times[i - 1][0] == seq - 1
        }
        if not review:
            return Run(per_turn)
        return Run(per_turn, cpu, made[0] if made else None)
    finally:
        server.terminate()
        server.wait(60)
        http.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--player", default="pimc:hard")
    parser.add_argument("--turns", type=int, default=120)
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cores", help="taskset's list of cores for the server, e.g. 0,1")
    parser.add_argument("--tree", type=Path, help="run the server of this checkout")
    args = parser.parse_args()
    b_match, b_seed = ten_deal_match(args.seed)
    print(
        f"B: the heuristic player's match of seed {b_seed}, {len(b_match.deals)} deals", flush=True
    )
    work = Path(tempfile.mkdtemp(prefix="review-load-"))
    template = work / "template.db"
    make_db(template, args.player, b_match)
    rows = []
    try:
        for pair in range(args.pairs):
            runs: dict[bool, Run] = {}
            # With the review first: the run without stops at the last turn it timed.
            for review in (True, False):
                db = work / f"run-{secrets.token_hex(4)}.db"
                shutil.copy(template, db)
                load = os.getloadavg()[0]
                last = None if review else max(runs[True].turns, default=None)
                runs[review] = one_run(
                    f"sqlite:///{db}", args.turns, review, args.cores, args.tree, last
                )
                run = runs[review]
                print(
                    f"pair {pair + 1}, {'with' if review else 'without'} the review: load"
                    f" {load:.2f}, {len(run.turns)} turns; the review's CPU {run.review_cpu} s,"
                    f" made in {run.review_s} s",
                    flush=True,
                )
            common = sorted(set(runs[True].turns) & set(runs[False].turns))
            without = [runs[False].turns[s] for s in common]
            with_review = [runs[True].turns[s] for s in common]
            rows.append((without, with_review))
            print(
                f"pair {pair + 1}: {len(common)} turns, mean without {statistics.mean(without):.3f}"
                f" s, with {statistics.mean(with_review):.3f} s: "
                f"{100 * (sum(with_review) / sum(without) - 1):+.1f} %",
                flush=True,
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    every_without = [t for row in rows for t in row[0]]
    every_with = [t for row in rows for t in row[1]]
    print(
        f"all: {len(every_with)} turns; without: mean {statistics.mean(every_without):.3f} s,"
        f" median {statistics.median(every_without):.3f} s; with the review: mean"
        f" {statistics.mean(every_with):.3f} s, median {statistics.median(every_with):.3f} s;"
        f" {100 * (sum(every_with) / sum(every_without) - 1):+.1f} %"
    )


if __name__ == "__main__":
    main()
