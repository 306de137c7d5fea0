"""The arena: players compared in duplicate matches, on all cores or on a Ray cluster.

Duplicate: each numbered match is played twice with the same dealt hands and dealers, first
with the first player of the pairing as NS, then as EW, so each player holds in one match exactly
the cards the other held in the other, and the luck of the cards cancels. Both halves are played
at a ``Table`` (``valtti.table``) with the same seed, derived from (arena seed, match number),
which gives the first dealer and each deal's cards.

Players are made by ``make_player(spec, seed)`` inside the worker, fresh for every match and
every seat: nothing one of the project's players learnt in one half of a pair can help it in the
other. (A bot that runs as a program of its own could keep notes in a file: docs/PROTOCOL.md
says how to run a competition where none can.)

Whoever knows the arena's seed knows every card of the run, so a bot must learn nothing it could
work the seed out from: by default the seed is drawn afresh (``fresh_seed``) and told only with
the results; a program of its own is seeded from a secret of its match (``MatchJob.secret``),
never from the arena's seed; and a half's record is written only once the other half of its
pair is played.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import multiprocessing
import os
import re
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from valtti.engine import Seat, Team, Variant
from valtti.engine.record import MatchSeeds, Record, RecordMeta
from valtti.players.registry import make_player, starts_program
from valtti.players.stats import Estimate, mean_interval
from valtti.table import Computer, PlayerFault, Table, derive_seed, fresh_seed

BACKENDS: Final = ("process", "ray", "serial")
#: Deals after which a match is stopped and counted as a draw: no match runs forever.
MAX_DEALS: Final = 200

#: Matches submitted to a Ray cluster at a time, the next as one finishes: enough to keep a
#: cluster of as many cores busy, and bounded, however many matches are asked for.
RAY_IN_FLIGHT: Final = 1024

Result = Literal["win", "draw", "loss"]


@dataclass(frozen=True, slots=True)
class MatchJob:
    """One match of a duplicate pair, all a worker needs to play it."""

    pairing: int
    first: str  #: the pairing's first player's spec
    second: str
    number: int  #: the duplicate pair, from 0
    swapped: bool  #: False: ``first`` sits NS (half A); True: ``first`` sits EW (half B)
    seed: int  #: the arena's seed: the cards, and the seeds of the project's own players
    variant: Variant
    max_deals: int
    keep_record: bool
    #: The seeds of the players that run as programs of their own come from this secret.
    secret: int = field(default_factory=fresh_seed, repr=False)

    @property
    def half(self) -> str:
        return "B" if self.swapped else "A"

    def first_team(self) -> Team:
        return Team.EW if self.swapped else Team.NS

    def side(self, seat: Seat) -> int:
        """0 for the first player's seats, 1 for the second's."""
        return 0 if seat.team == self.first_team() else 1

    def spec(self, seat: Seat) -> str:
        return (self.first, self.second)[self.side(seat)]

    @property
    def match_seed(self) -> int:
        """The table's seed: the same in both halves, so both deal the same cards."""
        return derive_seed(self.seed, "match", self.number)

    def player_seed(self, seat: Seat) -> int:
        """A program of its own is seeded from the match's secret: from a seed derived from the
        arena's it could find the arena's seed by trying those it might be, and deal the cards."""
        root = self.secret if starts_program(self.spec(seat)) else self.seed
        return derive_seed(root, "player", self.number, self.half, str(seat))


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """How one match went, from the first player's side (index 0 of the pairs)."""

    job: MatchJob
    result: Result
    deals: int  #: finished deals
    game_points: tuple[int, int]  #: over the finished deals
    capped: bool  #: stopped at ``max_deals``: counted as a draw
    failure: str | None  #: a player's fault that ended the match: that side forfeits
    decisions: tuple[int, int]
    seconds: tuple[float, float]  #: time spent in ``choose``
    slowest: tuple[float, float]  #: the longest single ``choose``, in seconds
    record: str | None  #: the RECORD.md JSON when the job asked for it


def play_match(job: MatchJob) -> MatchOutcome:
    """Play one match of the arena; a player's fault ends it as a forfeit, never the arena."""
    seats = {seat: Computer(job.spec(seat), job.player_seed(seat)) for seat in Seat}
    table = Table(seats, job.match_seed, variant=job.variant)
    match = table.match
    fault: PlayerFault | None = None
    try:
        table.sit_down()
        table.run(job.max_deals)
    except PlayerFault as e:
        fault = e
    finally:
        # Every kept player is closed, also after a fault (the other bots get ``quit``); the
        # first fault is the one that ended the match.
        closing = table.close()
        fault = fault or closing
    first = job.first_team()
    finished = [d for d in match.deals if d.is_over()]
    points = [sum(d.result().game_points[t] for d in finished) for t in (first, first.other)]
    if fault is not None:
        result: Result = "loss" if job.side(fault.seat) == 0 else "win"
    elif match.winner is not None:
        result = "win" if match.winner == first else "loss"
    else:
        result = "draw"
    capped = fault is None and not match.is_over()
    failure = None if fault is None else str(fault)
    record = None
    if job.keep_record:
        meta = RecordMeta(
            players={str(t): job.spec(t.seats[0]) for t in Team},
            # Not the arena's seed: a bot that read this record would know every later deal.
            seeds=MatchSeeds(
                match=job.number + 1,
                half=job.half,
                table=job.match_seed,
                players={str(s): job.player_seed(s) for s in Seat},
            ),
            capped=capped,
            failure=failure,
        )
        record = Record.of_match(match, meta).to_json()
    clocks = [[table.clocks[s] for s in Seat if job.side(s) == side] for side in (0, 1)]
    decisions = [sum(c.decisions for c in side) for side in clocks]
    seconds = [sum(c.seconds for c in side) for side in clocks]
    slowest = [max(c.slowest for c in side) for side in clocks]
    return MatchOutcome(
        job,
        result,
        len(finished),
        (points[0], points[1]),
        capped,
        failure,
        (decisions[0], decisions[1]),
        (seconds[0], seconds[1]),
        (slowest[0], slowest[1]),
        record,
    )


@dataclass(frozen=True, slots=True)
class PlayerFigures:
    """One player's totals over a pairing."""

    spec: str
    decisions: int
    seconds: float  #: spent in ``choose``
    slowest: float  #: the longest single decision, in seconds
    game_points: int
    deals: int

    @property
    def decisions_per_s(self) -> float | None:
        return self.decisions / self.seconds if self.seconds > 0 else None

    @property
    def ms_per_decision(self) -> float | None:
        return 1000 * self.seconds / self.decisions if self.decisions else None

    @property
    def game_points_per_deal(self) -> float | None:
        return self.game_points / self.deals if self.deals else None


@dataclass(frozen=True, slots=True)
class PairingResult:
    """Two players' duplicate matches: counts for the first player and the point difference.

    ``difference`` is the game points per deal of the first player minus the second's. Its unit
    of independence is the duplicate pair: each pair gives one sample, its two matches' total
    difference over their total deals, and the interval is Student t over the pairs.
    """

    first: PlayerFigures
    second: PlayerFigures
    wins: int
    draws: int  #: capped matches included
    losses: int  #: forfeits included
    capped: int
    failures: tuple[str, ...]
    difference: Estimate

    @property
    def matches(self) -> int:
        return self.wins + self.draws + self.losses

    def to_dict(self, single_deals: bool = False) -> dict[str, Any]:
        """The pairing in ``arena --json``; of ``single_deals`` the deals played, without
        matches won, drawn, lost or capped: no match ends in one deal."""
        d = self.difference
        counts: dict[str, Any] = (
            {"deals": self.first.deals}
            if single_deals
            else {
                "matches": self.matches,
                "wins": self.wins,
                "draws": self.draws,
                "losses": self.losses,
                "capped": self.capped,
            }
        )
        return {
            "first": self.first.spec,
            "second": self.second.spec,
            **counts,
            "failures": list(self.failures),
            "difference": {
                "mean": d.mean,
                "low": d.low,
                "high": d.high,
                "confidence": d.confidence,
                "pairs": d.samples,
                "method": "student-t over duplicate pairs",
            },
            "players": [
                {
                    "spec": p.spec,
                    "deals": p.deals,
                    "game_points": p.game_points,
                    "game_points_per_deal": p.game_points_per_deal,
                    "decisions": p.decisions,
                    "seconds": p.seconds,
                    "decisions_per_s": p.decisions_per_s,
                    "ms_per_decision": p.ms_per_decision,
                    "slowest_decision_ms": 1000 * p.slowest,
                }
                for p in (self.first, self.second)
            ],
        }


def summarize(first: str, second: str, outcomes: Sequence[MatchOutcome]) -> PairingResult:
    """The figures of one pairing from its matches' outcomes (in any order)."""
    pairs: dict[int, list[MatchOutcome]] = {}
    for outcome in outcomes:
        pairs.setdefault(outcome.job.number, []).append(outcome)
    samples = []
    # In pair order, not the order the matches finished in: the same figures for any workers.
    for _, pair in sorted(pairs.items()):
        deals = sum(o.deals for o in pair)
        if len(pair) == 2 and deals:
            samples.append(sum(o.game_points[0] - o.game_points[1] for o in pair) / deals)
    figures = [
        PlayerFigures(
            spec,
            sum(o.decisions[side] for o in outcomes),
            sum(o.seconds[side] for o in outcomes),
            max((o.slowest[side] for o in outcomes), default=0.0),
            sum(o.game_points[side] for o in outcomes),
            sum(o.deals for o in outcomes),
        )
        for side, spec in enumerate((first, second))
    ]
    ordered = sorted(outcomes, key=lambda o: (o.job.number, o.job.swapped))
    return PairingResult(
        figures[0],
        figures[1],
        wins=sum(o.result == "win" for o in outcomes),
        draws=sum(o.result == "draw" for o in outcomes),
        losses=sum(o.result == "loss" for o in outcomes),
        capped=sum(o.capped for o in outcomes),
        failures=tuple(
            f"match {o.job.number + 1}{o.job.half}: {o.failure}" for o in ordered if o.failure
        ),
        difference=mean_interval(samples),
    )


@dataclass(frozen=True)
class ArenaResult:
    """Everything an arena run found, pairing by pairing (round robin, list order)."""

    players: tuple[str, ...]
    matches: int  #: duplicate pairs per pairing: twice as many matches
    seed: int
    variant: Variant
    max_deals: int
    backend: str
    workers: int | None  #: processes of the process backend: at most one per match
    seconds: float
    pairings: tuple[PairingResult, ...] = field(default=())
    seed_drawn: bool = False  #: the seed was drawn at random (``fresh_seed``), not given

    @property
    def single_deals(self) -> bool:
        """Whether the matches were single deals (``max_deals`` 1, ``arena --deals``): then
        they are compared by game points only, as no match ends in one deal."""
        return self.max_deals == 1

    def to_dict(self) -> dict[str, Any]:
        """The ``arena --json`` object (docs/RESEARCH.md, "The arena"): ``mode`` ``"matches"``, with
        ``matches`` (duplicate pairs) and ``max_deals``, or ``"deals"``, with ``deals``
        (duplicate deal pairs) and no match counts."""
        size: dict[str, Any] = (
            {"mode": "deals", "deals": self.matches}
            if self.single_deals
            else {"mode": "matches", "matches": self.matches, "max_deals": self.max_deals}
        )
        return {
            "players": list(self.players),
            **size,
            "seed": self.seed,
            "variant": self.variant.changes(),
            "backend": self.backend,
            "workers": self.workers,
            "seconds": self.seconds,
            "pairings": [p.to_dict(self.single_deals) for p in self.pairings],
        }

    def report(self) -> str:
        """The figures as text, one block per pairing."""
        where = self.backend
        if self.backend == "process":
            where = _many(self.workers or 0, "process", "processes")
        pairs = _many(self.matches, "duplicate pair", "duplicate pairs")
        played = f"{2 * self.matches} matches"
        if self.single_deals:
            pairs = _many(self.matches, "duplicate deal pair", "duplicate deal pairs")
            played = f"{2 * self.matches} single deals: the evaluation set"
        lines = [
            f"{len(self.players)} players, {pairs} per pairing ({played}), "
            f"seed {self.seed}, variant {self.variant}, {where}, {self.seconds:.1f} s"
        ]
        if self.seed_drawn:
            lines.append(f"(a new seed, secret until now: --seed {self.seed} deals the same again)")
        for p in self.pairings:
            a, b = p.first.spec, p.second.spec
            d = p.difference
            outcome = (
                "  single deals: no match ends in one, so they are compared by game points"
                if self.single_deals
                else f"  matches won/drawn/lost by {a}: {p.wins}/{p.draws}/{p.losses}"
                f" ({p.capped} stopped at {self.max_deals} deals, counted as draws)"
            )
            lines += [
                "",
                f"{a} vs {b}",
                outcome,
                f"  game points per deal, {a} − {b}: {_number(d.mean, '+.3f')}  "
                + (
                    f"{d.confidence:.0%} CI [{_number(d.low, '+.3f')}, {_number(d.high, '+.3f')}]"
                    f" (Student t over {d.samples} duplicate pairs)"
                    if d.low is not None
                    else f"(no interval from {_many(d.samples, 'pair', 'pairs')})"
                ),
            ]
            width = max(len(a), len(b))
            for f in (p.first, p.second):
                lines.append(
                    f"  {f.spec:<{width}}  {_number(f.game_points_per_deal, '.3f')} game points"
                    f" per deal, {_number(f.decisions_per_s, ',.0f')} decisions/s"
                    f" ({_number(f.ms_per_decision, '.1f')} ms each on average,"
                    f" the slowest {1000 * f.slowest:.0f} ms)"
                )
            if p.failures:
                lines.append(f"  failures ({len(p.failures)}, each a forfeit):")
                lines += [f"    {failure}" for failure in p.failures]
        return "\n".join(lines)


def _many(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def _number(value: float | None, spec: str) -> str:
    if value is None or math.isnan(value):
        return "n/a"
    shown = format(value, spec)
    # A value just below 0 shows as 0, not "-0.000".
    return shown if any(d in shown for d in "123456789") else format(0.0, spec)


def run_arena(
    players: Sequence[str],
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
        if backend == "serial":
            for job in jobs:
                done(play_match(job))
        elif backend == "process":
            assert workers is not None
            _run_pool(jobs, workers, done)
        else:
            _run_ray(jobs, address, done)
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
