"""Running the arena: every pairing's jobs, in this process, a process pool or on Ray, the
records and the bots' log.

Where a program (``external:``) plays, the run keeps to a fair competition's rules
(docs/PROTOCOL.md, A fair arena): each copy in a sandbox of its own (``players.sandbox``) that
shows none of the run's files, no two matches on the same cards played at once (copies of a bot
at the same time could otherwise tell each other their hands), and the records published only
when the run ends (every pairing deals the same cards).
"""

from __future__ import annotations

import collections
import itertools
import multiprocessing
import os
import re
import shutil
import signal
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import IO, Final

from valtti.arena.luck import adjusted
from valtti.arena.match import MAX_DEALS, MatchJob, MatchOutcome, play_match
from valtti.arena.results import ArenaResult, summarize
from valtti.arena.sequential import Sprt, Verdict
from valtti.engine import Variant
from valtti.players.policy import Seatable, policy_name
from valtti.players.registry import make_player, release_python, seat_python, starts_program
from valtti.players.sandbox import SANDBOX, Sandbox
from valtti.table import fresh_seed

BACKENDS: Final = ("process", "ray", "serial")

#: Matches submitted to a Ray cluster at a time, the next as one finishes: enough to keep a
#: cluster of as many cores busy, and bounded, however many matches are asked for.
RAY_IN_FLIGHT: Final = 1024
#: Where a run keeps its records until it ends, inside ``--records`` (private to its user).
UNPUBLISHED: Final = ".unpublished"
#: The bots' log in ``--records`` when no other is named.
BOT_LOG: Final = "bots.log"


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
    bot_log: Path | None = None,
    sandbox: Sandbox = SANDBOX,
    sequential: Sprt | None = None,
    address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    redraws: int = 0,
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
    (``ValueError`` when it holds an earlier run's records of one of these pairings), published
    there when the run ends, also when it is stopped. ``bot_log``: the file the programs'
    standard error is appended to, a line each (default: ``bots.log`` in ``records``).
    ``sandbox``: where programs (``external:``) run; the run's records and log are kept from
    them. ``sequential``: every pairing played a pair at a time in turn, and no more pairs of a
    pairing once this test's answer is clear (``matches`` at most). ``redraws``: each decision
    of a memoryless player redrawn so many times to measure the players' luck and take it out
    of the difference (``arena.luck``; 0, the default: raw duplicate). ``progress(done, total)``
    is called as matches finish. ``ValueError`` for bad arguments, naming the player whose spec
    cannot be made into a player.
    """
    python = [p for p in players if not isinstance(p, str)]
    if python and backend != "serial":
        raise ValueError(
            f"a Python player ({policy_name(python[0])}) plays in this process: backend='serial'"
        )
    specs = [p if isinstance(p, str) else seat_python(p) for p in players]
    if bot_log is None and records is not None:
        bot_log = records / BOT_LOG
    sandbox = sandbox.keeping(records, bot_log)
    try:
        return _run(
            specs,
            matches,
            seed,
            workers,
            backend,
            variant,
            max_deals,
            records,
            bot_log,
            sandbox,
            sequential,
            address,
            progress,
            redraws,
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
    bot_log: Path | None,
    sandbox: Sandbox,
    sequential: Sprt | None,
    address: str | None,
    progress: Callable[[int, int], None] | None,
    redraws: int,
) -> ArenaResult:
    variant = variant or Variant()
    if redraws < 0:
        raise ValueError(f"redraws must be 0 or more, not {redraws}")
    _check(players, matches, max_deals, backend, workers, sandbox)
    seed_drawn = seed is None
    if seed is None:
        seed = fresh_seed()
    pairings = list(itertools.combinations(range(len(players)), 2))
    total = 2 * matches * len(pairings)
    halves: dict[tuple[int, int], list[MatchOutcome]] = {}
    pairs: dict[int, list[float]] = {k: [] for k in range(len(pairings))}  # each pair's difference
    luck: dict[int, list[float]] = {k: [] for k in range(len(pairings))}  # and its luck

    def verdict(pairing: int) -> Verdict:
        if sequential is None:
            return None
        kept = pairs[pairing] if redraws == 0 else adjusted(pairs[pairing], luck[pairing])
        return sequential.verdict(kept)

    # Made as they are played: a list of every job would take memory without bound. With a
    # sequential test a pair of every pairing in turn, none of a pairing already decided.
    order = (
        ((k, i) for i in range(matches) for k in range(len(pairings)))
        if sequential is not None
        else ((k, i) for k in range(len(pairings)) for i in range(matches))
    )
    jobs = (
        MatchJob(
            k,
            players[pairings[k][0]],
            players[pairings[k][1]],
            i,
            swapped,
            seed,
            variant,
            max_deals,
            bool(records),
            sandbox,
            redraws=redraws,
        )
        for k, i in order
        if verdict(k) is None
        for swapped in (False, True)
    )
    folders = [
        f"{k + 1:02d}-{_slug(players[a])}-vs-{_slug(players[b])}"
        for k, (a, b) in enumerate(pairings)
    ]

    def name(job: MatchJob) -> str:
        return f"{folders[job.pairing]}/match-{job.number + 1:04d}{job.half}"

    publish = None if records is None else _Records(records, folders)
    log = None if bot_log is None else BotLog(bot_log)
    if backend == "process":
        # No more processes than matches: the report names the processes that played.
        workers = min(workers or os.cpu_count() or 1, total)
    outcomes: list[MatchOutcome] = []

    def done(outcome: MatchOutcome) -> None:
        if publish is not None and outcome.record is not None:
            publish.keep(name(outcome.job), outcome.record)
        if log is not None:
            log.write(name(outcome.job), outcome.error_log)
        outcomes.append(outcome.without_record())
        both = halves.setdefault((outcome.job.pairing, outcome.job.number), [])
        both.append(outcome)
        if len(both) == 2:
            deals = sum(o.deals for o in both)
            gained = sum(o.game_points[0] - o.game_points[1] for o in both)
            pairs[outcome.job.pairing].append(gained / deals if deals else 0.0)
            lucky = sum(o.luck or 0.0 for o in both)
            luck[outcome.job.pairing].append(lucky / deals if deals else 0.0)
            del halves[(outcome.job.pairing, outcome.job.number)]
        if progress is not None:
            progress(len(outcomes), total)

    if progress is not None:
        progress(0, total)
    start = time.perf_counter()
    try:
        play_jobs(jobs, done, backend, workers, address, apart=_seats_program(players))
    finally:
        # A run stopped part-way publishes the records of the matches it played.
        if publish is not None:
            publish.publish()
        if log is not None:
            log.close()
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
        str(sandbox) if _seats_program(players) else None,
        sequential,
        tuple(verdict(k) for k in range(len(pairings))),
        redraws,
    )


class _Records:
    """A run's records: each kept, as its match ends, in a folder of the records that only the
    run's user may open (``UNPUBLISHED``), and moved to its place when the run ends. Every
    pairing deals the same cards: a record in view would show a bot the hands of a match it
    has still to play."""

    def __init__(self, folder: Path, pairings: Sequence[str]) -> None:
        # An earlier run's records are never overwritten: they may be the only copy.
        hidden = folder / UNPUBLISHED
        kept = next(
            (p for f in pairings for p in (folder / f).glob("match-*.json")),
            next(hidden.rglob("match-*.json"), None) if hidden.is_dir() else None,
        )
        if kept is not None:
            raise ValueError(
                f"{folder} already holds records of an earlier run ({kept.relative_to(folder)})"
                ": give a new folder"
            )
        try:  # now, after every check: a run refused leaves no folder behind
            folder.mkdir(parents=True, exist_ok=True)
            hidden.mkdir(mode=0o700, exist_ok=True)
            hidden.chmod(0o700)
        except OSError as e:
            raise ValueError(f"{folder}: the folder cannot be made ({e.strerror or e})") from None
        self.folder = folder
        self.hidden = hidden

    def keep(self, name: str, record: str) -> None:
        path = self.hidden / f"{name}.json"
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        path.write_text(record + "\n", encoding="utf-8")

    def publish(self) -> None:
        """Move every record kept to its place, and the private folder away."""
        for path in sorted(self.hidden.rglob("*.json")):
            place = self.folder / path.relative_to(self.hidden)
            place.parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, place)
        shutil.rmtree(self.hidden, ignore_errors=True)


class BotLog:
    """The file what programs write on their standard error is appended to, made at its first
    line and readable by its user only: a bot may have written what it saw of a deal."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: IO[str] | None = None

    def write(self, match: str, lines: Sequence[str]) -> None:
        """Append ``lines`` of the match named ``match``, each on a line of its own after it."""
        if not lines:
            return
        if self._file is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT
            self._file = os.fdopen(os.open(self.path, flags, 0o600), "a", encoding="utf-8")
        self._file.writelines(f"{match} {line}\n" for line in lines)
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()


def _seats_program(players: Sequence[str]) -> bool:
    return any(starts_program(p) for p in players)


def play_jobs(
    jobs: Iterator[MatchJob],
    done: Callable[[MatchOutcome], None],
    backend: str = "process",
    workers: int | None = None,
    address: str | None = None,
    *,
    apart: bool = False,
) -> None:
    """Play every job of ``jobs`` on ``backend`` (``run_arena``'s: ``workers`` processes, one
    per core by default, or the Ray cluster at ``address``), calling ``done`` with each outcome
    as it finishes. ``apart``: never two matches on the same cards at once (where a program
    plays). ``run_arena`` and the leaderboard play through it."""
    queue = _Queue(jobs, apart)
    if backend == "serial":
        while (job := queue.next()) is not None:
            done(play_match(job))
            queue.finished(job)
    elif backend == "process":
        _run_pool(queue, workers or os.cpu_count() or 1, done)
    elif backend == "ray":
        _run_ray(queue, address, done)
    else:
        raise ValueError(f"unknown backend {backend!r}: known are {', '.join(BACKENDS)}")


class _Queue:
    """The jobs still to play, handed out so that with ``apart`` no two of the same cards
    (``MatchJob.match_seed``) are in play at once: the two halves of a pair, and the same pair
    of every pairing, deal the same cards, and copies of one bot playing them at the same time
    could tell each other their hands through whatever they share (the machine's load, a lock
    on a file both may read)."""

    #: Jobs read ahead of the next to find one whose cards are not in play.
    LOOKAHEAD: Final = 4096

    def __init__(self, jobs: Iterator[MatchJob], apart: bool) -> None:
        self._jobs = jobs
        self._apart = apart
        self._waiting: collections.deque[MatchJob] = collections.deque()
        self._in_play: collections.Counter[Hashable] = collections.Counter()

    def _key(self, job: MatchJob) -> Hashable:
        return job.match_seed if self._apart else id(job)

    def next(self) -> MatchJob | None:
        """A job to play now, or ``None`` when none is left or every one left waits for a job
        in play (there is always one to play while none is in play)."""
        for i, job in enumerate(self._waiting):
            if self._key(job) not in self._in_play:
                del self._waiting[i]
                return self._start(job)
        while len(self._waiting) < self.LOOKAHEAD:
            read = next(self._jobs, None)
            if read is None:
                return None
            if self._key(read) not in self._in_play:
                return self._start(read)
            self._waiting.append(read)
        return None

    def _start(self, job: MatchJob) -> MatchJob:
        self._in_play[self._key(job)] += 1
        return job

    def finished(self, job: MatchJob) -> None:
        key = self._key(job)
        self._in_play[key] -= 1
        if self._in_play[key] <= 0:
            del self._in_play[key]


def _check(
    players: Sequence[str],
    matches: int,
    max_deals: int,
    backend: str,
    workers: int | None,
    sandbox: Sandbox,
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
    check_players(players, sandbox)


def check_players(players: Sequence[str], sandbox: Sandbox = SANDBOX) -> None:
    """Make each player of ``players`` once (a program in ``sandbox``) and close it:
    ``ValueError`` naming the first spec that cannot be made into a player, before any game is
    played."""
    for spec in dict.fromkeys(players):
        try:
            make_player(spec, 0, sandbox=sandbox).close()
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


def _run_pool(queue: _Queue, workers: int, done: Callable[[MatchOutcome], None]) -> None:
    # spawn, not fork: the caller may run threads (a progress bar) that fork would copy mid-lock.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_start_pool_process
    ) as pool:
        # A few jobs a process in flight, the next submitted as one finishes: every match
        # submitted at once would hold a future for each in memory.
        playing: dict[Future[MatchOutcome], MatchJob] = {}

        def submit() -> None:
            while len(playing) < 2 * workers and (job := queue.next()) is not None:
                playing[pool.submit(_play_in_pool, job)] = job

        try:
            submit()
            while playing:
                finished, _ = wait(playing, return_when=FIRST_COMPLETED)
                for future in finished:
                    job = playing.pop(future)
                    outcome = future.result()
                    queue.finished(job)
                    done(outcome)
                submit()
        except BaseException as e:
            if isinstance(e, KeyboardInterrupt):
                # Ctrl-C at a terminal reaches the pool's processes too; a SIGINT sent to this
                # process alone is passed on, so that no match plays on unseen.
                for process in list((pool._processes or {}).values()):
                    if process.pid is not None:
                        os.kill(process.pid, signal.SIGINT)
            pool.shutdown(cancel_futures=True)
            raise


def _run_ray(queue: _Queue, address: str | None, done: Callable[[MatchOutcome], None]) -> None:
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
        playing: dict[object, MatchJob] = {}

        def submit() -> None:
            while len(playing) < RAY_IN_FLIGHT and (job := queue.next()) is not None:
                playing[task.remote(job)] = job

        submit()
        while playing:
            finished, _ = ray.wait(list(playing), num_returns=1)
            for ref in finished:
                job = playing.pop(ref)
                outcome = ray.get(ref)
                queue.finished(job)
                done(outcome)
            submit()
    finally:
        if started:
            ray.shutdown()
