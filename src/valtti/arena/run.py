"""Running the arena: every pairing's jobs, in this process, a process pool or on Ray, and
the records."""

from __future__ import annotations

import dataclasses
import itertools
import multiprocessing
import os
import re
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Final

from valtti.arena.match import MAX_DEALS, MatchJob, MatchOutcome, play_match
from valtti.arena.results import ArenaResult, summarize
from valtti.engine import Variant
from valtti.players.policy import Seatable, policy_name
from valtti.players.registry import make_player, release_python, seat_python
from valtti.table import fresh_seed

BACKENDS: Final = ("process", "ray", "serial")

#: Matches submitted to a Ray cluster at a time, the next as one finishes: enough to keep a
#: cluster of as many cores busy, and bounded, however many matches are asked for.
RAY_IN_FLIGHT: Final = 1024


def run_arena(
    players: Sequence[Seatable],
    matches: int,
    seed: int | None = None,
    workers: int | None = None,
    backend: str = "process",
    *,
    variant: Variant | None = None,
    max_deals: int = MAX_DEALS,
    records: Path | None = None,
    address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ArenaResult:
    """Play ``matches`` duplicate pairs for every pairing of ``players`` (round robin).

    ``players``: specs (``make_player``), or Python players, a ``Player`` or a policy
    (``players.policy``), which play in this process (``backend="serial"``) under the name
    ``python:NAME`` (``registry.seat_python``).
    ``seed``: the cards (and the project's own players' seeds); ``None``, a new one that no
    player can guess, given in the result. A seed others know lets a bot look its cards up:
    a fair competition of others' bots keeps it secret until the run is over (docs/PROTOCOL.md).
    ``backend``: ``process`` (a process pool of ``workers``, default one per core), ``ray`` (the
    Ray cluster at ``address``, or a local one; an already initialised Ray is used as it is) or
    ``serial`` (this process). ``records``: a folder to write each match's RECORD.md JSON in
    (``ValueError`` when it holds an earlier run's records of one of these pairings).
    ``progress(done, total)`` is called as matches finish. ``ValueError`` for bad arguments,
    naming the player whose spec cannot be made into a player.
    """
    python = [p for p in players if not isinstance(p, str)]
    if python and backend != "serial":
        raise ValueError(
            f"a Python player ({policy_name(python[0])}) plays in this process: backend='serial'"
        )
    specs = [p if isinstance(p, str) else seat_python(p) for p in players]
    try:
        return _run(
            specs, matches, seed, workers, backend, variant, max_deals, records, address, progress
        )
    finally:
        for spec, given in zip(specs, players, strict=True):
            if not isinstance(given, str):
                release_python(spec)


def _run(
    players: Sequence[str],
    matches: int,
    seed: int | None,
    workers: int | None,
    backend: str,
    variant: Variant | None,
    max_deals: int,
    records: Path | None,
    address: str | None,
    progress: Callable[[int, int], None] | None,
) -> ArenaResult:
    variant = variant or Variant()
    _check(players, matches, max_deals, backend, workers)
    seed_drawn = seed is None
    if seed is None:
        seed = fresh_seed()
    pairings = list(itertools.combinations(range(len(players)), 2))
    total = 2 * matches * len(pairings)
    # Made as they are played: a list of every job would take memory without bound.
    jobs = (
        MatchJob(k, players[a], players[b], i, swapped, seed, variant, max_deals, bool(records))
        for k, (a, b) in enumerate(pairings)
        for i in range(matches)
        for swapped in (False, True)
    )
    folders = [
        f"{k + 1:02d}-{_slug(players[a])}-vs-{_slug(players[b])}"
        for k, (a, b) in enumerate(pairings)
    ]

    def record_path(job: MatchJob) -> Path:
        assert records is not None
        return records / folders[job.pairing] / f"match-{job.number + 1:04d}{job.half}.json"

    if records is not None:
        # An earlier run's records are never overwritten: they may be the only copy.
        kept = next((p for f in folders for p in (records / f).glob("match-*.json")), None)
        if kept is not None:
            raise ValueError(
                f"{records} already holds records of an earlier run ({kept.relative_to(records)})"
                ": give a new folder"
            )
        try:  # now, after every check: a run refused leaves no folder behind
            records.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ValueError(f"{records}: the folder cannot be made ({e.strerror or e})") from None
    if backend == "process":
        # No more processes than matches: the report names the processes that played.
        workers = min(workers or os.cpu_count() or 1, total)
    outcomes: list[MatchOutcome] = []
    # A half's record waits for the other half of its pair: a bot that could read the folder
    # would find there every hand of the match it is playing.
    waiting: dict[tuple[int, int], MatchOutcome] = {}

    def write(outcome: MatchOutcome) -> None:
        assert outcome.record is not None
        path = record_path(outcome.job)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(outcome.record + "\n", encoding="utf-8")

    def done(outcome: MatchOutcome) -> None:
        if records is not None and outcome.record is not None:
            pair = (outcome.job.pairing, outcome.job.number)
            other = waiting.pop(pair, None)
            if other is None:
                waiting[pair] = outcome
            else:
                write(other)
                write(outcome)
            outcome = dataclasses.replace(outcome, record=None)  # kept once, in ``waiting``
        outcomes.append(outcome)
        if progress is not None:
            progress(len(outcomes), total)

    if progress is not None:
        progress(0, total)
    start = time.perf_counter()
    try:
        play_jobs(jobs, done, backend, workers, address)
    finally:
        # A run stopped part-way keeps the records of the halves it played.
        for outcome in waiting.values():
            write(outcome)
    seconds = time.perf_counter() - start
    return ArenaResult(
        tuple(players),
        matches,
        seed,
        variant,
        max_deals,
        backend,
        workers if backend == "process" else None,
        seconds,
        tuple(
            summarize(players[a], players[b], [o for o in outcomes if o.job.pairing == k])
            for k, (a, b) in enumerate(pairings)
        ),
        seed_drawn,
    )


def play_jobs(
    jobs: Iterator[MatchJob],
    done: Callable[[MatchOutcome], None],
    backend: str = "process",
    workers: int | None = None,
    address: str | None = None,
) -> None:
    """Play every job of ``jobs`` on ``backend`` (``run_arena``'s: ``workers`` processes, one
    per core by default, or the Ray cluster at ``address``), calling ``done`` with each outcome
    as it finishes. ``run_arena`` and the leaderboard play through it."""
    if backend == "serial":
        for job in jobs:
            done(play_match(job))
    elif backend == "process":
        _run_pool(jobs, workers or os.cpu_count() or 1, done)
    elif backend == "ray":
        _run_ray(jobs, address, done)
    else:
        raise ValueError(f"unknown backend {backend!r}: known are {', '.join(BACKENDS)}")


def _check(
    players: Sequence[str], matches: int, max_deals: int, backend: str, workers: int | None
) -> None:
    if len(players) < 2:
        raise ValueError("the arena needs at least two players")
    if matches < 1:
        raise ValueError(f"matches must be at least 1, not {matches}")
    if max_deals < 1:
        raise ValueError(f"max_deals must be at least 1, not {max_deals}")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}: known are {', '.join(BACKENDS)}")
    if workers is not None and workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    check_players(players)


def check_players(players: Sequence[str]) -> None:
    """Make each player of ``players`` once and close it: ``ValueError`` naming the first spec
    that cannot be made into a player, before any game is played."""
    for spec in dict.fromkeys(players):
        try:
            make_player(spec, 0).close()
        except Exception as e:
            raise ValueError(f"player {spec!r}: {e}") from None


def _slug(spec: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", spec).strip("_") or "player"


#: In a pool process: whether Ctrl-C (SIGINT) has come, after which it starts no match.
_interrupted = False


def _on_interrupt(signum: int, frame: object) -> None:
    """The first SIGINT ends the match being played (its bots closed, as after a fault); a
    second would break off that closing and leave bots running, so it is let pass."""
    global _interrupted
    if not _interrupted:
        _interrupted = True
        raise KeyboardInterrupt


def _start_pool_process() -> None:
    signal.signal(signal.SIGINT, _on_interrupt)


def _play_in_pool(job: MatchJob) -> MatchOutcome:
    # The pool hands a process its next job before the last is done: after Ctrl-C, one queued
    # so would start fresh bots and wait out their time limit before the arena could end.
    if _interrupted:
        raise KeyboardInterrupt
    return play_match(job)


def _run_pool(jobs: Iterator[MatchJob], workers: int, done: Callable[[MatchOutcome], None]) -> None:
    # spawn, not fork: the caller may run threads (a progress bar) that fork would copy mid-lock.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_start_pool_process
    ) as pool:
        # A few jobs a process in flight, the next submitted as one finishes: every match
        # submitted at once would hold a future for each in memory.
        pending = {pool.submit(_play_in_pool, job) for job in itertools.islice(jobs, 2 * workers)}
        try:
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    done(future.result())
                    job = next(jobs, None)
                    if job is not None:
                        pending.add(pool.submit(_play_in_pool, job))
        except BaseException as e:
            if isinstance(e, KeyboardInterrupt):
                # Ctrl-C at a terminal reaches the pool's processes too; a SIGINT sent to this
                # process alone is passed on, so that no match plays on unseen.
                for process in list((pool._processes or {}).values()):
                    if process.pid is not None:
                        os.kill(process.pid, signal.SIGINT)
            pool.shutdown(cancel_futures=True)
            raise


def _run_ray(
    jobs: Iterator[MatchJob], address: str | None, done: Callable[[MatchOutcome], None]
) -> None:
    try:
        import ray
    except ImportError:
        raise ValueError("the ray backend needs Ray: pip install 'valtti[ray]'") from None
    started = not ray.is_initialized()
    if started:
        try:
            ray.init(address=address)
        except (ConnectionError, RuntimeError) as e:  # what ray says of a cluster not there
            raise ValueError(f"no Ray cluster at {address}: {e}") from None
    try:
        task = ray.remote(play_match)
        pending = [task.remote(job) for job in itertools.islice(jobs, RAY_IN_FLIGHT)]
        while pending:
            finished, pending = ray.wait(pending, num_returns=1)
            for ref in finished:
                done(ray.get(ref))
                pending += [task.remote(job) for job in itertools.islice(jobs, 1)]
    finally:
        if started:
            ray.shutdown()
