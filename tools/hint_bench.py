"""How long a hint takes, trick by trick, inside a process and as the command ``valtti hint``,
how many are exact, and how far its early evaluation is from exact solves (issues 34 and 42):
``OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 nice python tools/hint_bench.py [--positions 207]
[--errors 40] [--command] [--seed 1]`` (one thread: the likelihood's numpy would otherwise
spread a hint over several cores).

Positions: random deals at random match scores, played on by random legal actions to each
trick in turn, each seen by the seat to move where it has two or more legal actions. The hint
is ``coach.explain.explain(observation, "hard")`` timed on the wall clock and in this
process's CPU time (run it alone on one core, or under ``nice`` on a shared machine and say so:
there the CPU time is the fairer figure); ``exact`` counts the hints that rest on every
possible deal (``Hint.exact``).

With ``--command``, as many positions again, each a record of a match (its first deals played
at random, so at a random score) stopped in the trick, are hinted by ``python -m valtti hint
FILE`` in a process of its own, as a user runs it (without the thread settings above: the
command sets its own), timed on the wall clock and in the child's CPU time, and by ``explain``
in this process on the same positions; a command's start-up is its CPU less the hint's inside.

The early evaluation (``coach.appraise.early_values``: in tricks 1-2 each action's line played
on by the quick player to the end of trick 3 and solved from there, a trick later where that
solve would pass ``appraise.PLAYOUT_CAP``) is set against the exact
double-dummy value of every legal action in the real deal of ``--errors`` positions of tricks
1-2, in match equity for the mover's team: the mean and the worst error of an action's value,
and the regret of the action the early values rank first (the exact value lost by it).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from valtti.coach.appraise import early_values
from valtti.coach.explain import explain
from valtti.engine import Deal, Match, Observation, Seat, Variant
from valtti.engine.record import Record
from valtti.engine.solver import Solver
from valtti.players.pimc import equity_value


@dataclass(frozen=True, slots=True)
class TrickTimes:
    """Milliseconds a hint took in one trick: on the wall clock, and of this process's CPU time
    (what a loaded machine's other processes do not add to)."""

    trick: int
    positions: int
    p50_ms: float
    p95_ms: float
    max_ms: float
    cpu_p50_ms: float
    cpu_p95_ms: float
    cpu_max_ms: float
    deals: int  #: the fewest deals a hint of this trick rested on
    exact: int  #: the hints that rest on every possible deal


@dataclass(frozen=True, slots=True)
class CommandTimes:
    """Milliseconds ``valtti hint`` took in one trick as a command (the child's CPU time and
    the wall clock), the hint inside this process on the same positions, and the command's
    start-up (its CPU less the hint's inside, the median over the positions)."""

    trick: int
    positions: int
    cpu_p50_ms: float
    cpu_p95_ms: float
    cpu_max_ms: float
    p50_ms: float
    p95_ms: float
    inside_cpu_p50_ms: float
    inside_cpu_p95_ms: float
    startup_p50_ms: float
    exact: int


@dataclass(frozen=True, slots=True)
class EarlyError:
    positions: int
    actions: int
    mean: float
    worst: float
    mean_regret: float
    worst_regret: float


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def position(rng: random.Random, trick: int) -> Observation | None:
    """A random position in ``trick`` (1 to 9) where the seat to move has a choice, seen by it,
    or ``None`` where the random play passed it by."""
    target = Variant().target
    deal = Deal.shuffled(rng, Seat(rng.randrange(4)))
    score = (rng.randrange(target), rng.randrange(target))
    while not deal.is_over():
        seat = deal.current_player
        assert seat is not None
        legal = deal.legal_actions()
        if deal.tricks_played + 1 == trick and len(legal) > 1 and rng.random() < 0.4:
            return deal.observation(seat).with_score(score)
        if deal.tricks_played + 1 > trick:
            return None
        deal.apply(legal[rng.randrange(len(legal))])
    return None


def warm_up() -> None:
    """One hint, not timed: what a process's first hint loads (the self-model, the table of
    match equity) is no hint's own cost (a command's start-up counts it)."""
    rng = random.Random(0)
    while (observation := position(rng, 5)) is None:
        pass
    explain(observation, "hard")


def hint_times(positions: int, seed: int) -> list[TrickTimes]:
    rng = random.Random(seed)
    per_trick = -(-positions // 9)
    out = []
    for trick in range(1, 10):
        took: list[float] = []
        cpu: list[float] = []
        fewest = 10**9
        exact = 0
        while len(took) < per_trick:
            observation = position(rng, trick)
            if observation is None:
                continue
            started, started_cpu = time.perf_counter(), time.process_time()
            hint = explain(observation, "hard")
            took.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)
            fewest = min(fewest, hint.deals or 10**9)
            exact += hint.exact
        out.append(
            TrickTimes(
                trick,
                len(took),
                1000 * _quantile(took, 0.5),
                1000 * _quantile(took, 0.95),
                1000 * max(took),
                1000 * _quantile(cpu, 0.5),
                1000 * _quantile(cpu, 0.95),
                1000 * max(cpu),
                fewest,
                exact,
            )
        )
    return out


def match_position(rng: random.Random, trick: int) -> Match | None:
    """A match whose first 0 to 2 deals were played at random (a random score), stopped in
    ``trick`` of the next where the seat to move has a choice; ``None`` where random play passed
    it by or ended the match."""
    match = Match(Variant(), Seat(rng.randrange(4)))
    for _ in range(rng.randrange(3)):
        deal = match.start_deal(rng=rng)
        while not deal.is_over():
            legal = match.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
        if match.is_over():
            return None
    deal = match.start_deal(rng=rng)
    while not deal.is_over():
        legal = match.legal_actions()
        if deal.tricks_played + 1 == trick and len(legal) > 1 and rng.random() < 0.4:
            return match
        if deal.tricks_played + 1 > trick:
            return None
        match.apply(legal[rng.randrange(len(legal))])
    return None


#: What the bench's own environment sets and a user's does not: left out of the command's.
THREAD_SETTINGS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def command_hint(path: Path) -> tuple[float, float]:
    """``python -m valtti hint`` on the record at ``path``, in a process of its own: seconds on
    the wall clock and of the child's CPU."""
    env = {k: v for k, v in os.environ.items() if k not in THREAD_SETTINGS}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "valtti", "hint", str(path)],
        check=True,
        stdout=subprocess.DEVNULL,
        env=env,
    )
    took = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return took, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def command_times(positions: int, seed: int) -> list[CommandTimes]:
    """``valtti hint`` as a command and ``explain`` in this process, on the same records."""
    rng = random.Random(seed)
    per_trick = -(-positions // 9)
    out = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "position.json"
        for trick in range(1, 10):
            took: list[float] = []
            cpu: list[float] = []
            inside: list[float] = []
            exact = 0
            while len(took) < per_trick:
                match = match_position(rng, trick)
                if match is None:
                    continue
                seat = match.current_player
                assert seat is not None
                path.write_text(Record.of_match(match).to_json(), "utf-8")
                wall, child = command_hint(path)
                started = time.process_time()
                hint = explain(match.observation(seat), "hard")
                inside.append(time.process_time() - started)
                took.append(wall)
                cpu.append(child)
                exact += hint.exact
            startup = [c - i for c, i in zip(cpu, inside, strict=True)]
            out.append(
                CommandTimes(
                    trick,
                    len(took),
                    1000 * _quantile(cpu, 0.5),
                    1000 * _quantile(cpu, 0.95),
                    1000 * max(cpu),
                    1000 * _quantile(took, 0.5),
                    1000 * _quantile(took, 0.95),
                    1000 * _quantile(inside, 0.5),
                    1000 * _quantile(inside, 0.95),
                    1000 * _quantile(startup, 0.5),
                    exact,
                )
            )
    return out


def early_error(positions: int, seed: int) -> EarlyError:
    """The early evaluation against exact solves in the real deals of positions of tricks 1-2."""
    rng = random.Random(seed)
    errors: list[float] = []
    regrets: list[float] = []
    exact_solver, early_solver = Solver(), Solver()
    done = 0
    while done < positions:
        observation = position(rng, 1 + done % 2)
        if observation is None:
            continue
        done += 1
        value = equity_value(observation.score or (0, 0), observation.variant)
        deal = _real_deal(observation, rng)
        exact = dict(exact_solver.solve(deal, value))
        score = observation.score or (0, 0)
        early = early_values(
            deal, value, early_solver, score=score, deal_number=observation.deal_number
        )
        errors.extend(abs(early[a] - exact[a]) for a in exact)
        chosen = max(early, key=lambda a: early[a])
        regrets.append(max(exact.values()) - exact[chosen])
    return EarlyError(
        positions,
        len(errors),
        statistics.mean(errors),
        max(errors),
        statistics.mean(regrets),
        max(regrets),
    )


def _real_deal(observation: Observation, rng: random.Random) -> Deal:
    """One deal that agrees with ``observation`` (the hidden hands as a sampler deals them):
    every position of the bench is a real deal's, so this is as good as the real one."""
    from valtti.players.knowledge import infer
    from valtti.players.sampler import Sampler
    from valtti.players.worlds import rebuild

    return rebuild(observation, Sampler(infer(observation)).sample(rng))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=207, help="hints timed, over 9 tricks")
    parser.add_argument("--errors", type=int, default=40, help="positions of tricks 1-2 solved")
    parser.add_argument(
        "--command", action="store_true", help="also time `valtti hint` as a command"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    args = parser.parse_args()
    warm_up()
    times = hint_times(args.positions, args.seed)
    commands = command_times(args.positions, args.seed + 2) if args.command else None
    error = early_error(args.errors, args.seed + 1) if args.errors else None  # 0: times only
    if args.json:
        early = None if error is None else asdict(error)
        command = None if commands is None else [asdict(c) for c in commands]
        print(json.dumps({"times": [asdict(t) for t in times], "command": command, "early": early}))
        return
    print("trick positions  wall: p50 p95  max (ms)  cpu: p50  p95  max (ms)  fewest deals  exact")
    for t in times:
        print(
            f"{t.trick:5} {t.positions:9} {t.p50_ms:9.0f} {t.p95_ms:4.0f} {t.max_ms:4.0f} "
            f"{t.cpu_p50_ms:14.0f} {t.cpu_p95_ms:4.0f} {t.cpu_max_ms:4.0f} {t.deals:13} "
            f"{t.exact:6}"
        )
    if commands is not None:
        print(
            "valtti hint as a command: trick positions  cpu: p50  p95  max  wall: p50  p95  "
            "inside cpu: p50  p95  start-up p50 (ms)  exact"
        )
        for c in commands:
            print(
                f"{c.trick:31} {c.positions:9} {c.cpu_p50_ms:9.0f} {c.cpu_p95_ms:4.0f} "
                f"{c.cpu_max_ms:4.0f} {c.p50_ms:10.0f} {c.p95_ms:4.0f} {c.inside_cpu_p50_ms:16.0f} "
                f"{c.inside_cpu_p95_ms:4.0f} {c.startup_p50_ms:18.0f} {c.exact:6}"
            )
    if error is None:
        return
    print(
        f"early evaluation, {error.positions} positions of tricks 1-2, {error.actions} actions: "
        f"error mean {error.mean:.4f} worst {error.worst:.3f} match equity; regret of its "
        f"first choice mean {error.mean_regret:.4f} worst {error.worst_regret:.3f}"
    )


if __name__ == "__main__":
    main()
