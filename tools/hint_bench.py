"""How long a hint takes, trick by trick, and how far its early evaluation is from exact solves
(issue 34): ``OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 nice python tools/hint_bench.py
[--positions 207] [--errors 40] [--seed 1]`` (one thread: the likelihood's numpy would
otherwise spread a hint over several cores).

Positions: random deals at random match scores, played on by random legal actions to each
trick in turn, each seen by the seat to move where it has two or more legal actions. The hint
is ``players.explain.explain(observation, "hard")`` timed on the wall clock and in this
process's CPU time (run it alone on one core, or under ``nice`` on a shared machine and say so:
there the CPU time is the fairer figure).

The early evaluation (``players.appraise.early_values``: in tricks 1-2 each action's line played
on by the quick player to the end of trick 3 and solved from there, a trick later where that
solve would pass ``appraise.PLAYOUT_CAP``) is set against the exact
double-dummy value of every legal action in the real deal of ``--errors`` positions of tricks
1-2, in match equity for the mover's team: the mean and the worst error of an action's value,
and the regret of the action the early values rank first (the exact value lost by it).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from dataclasses import asdict, dataclass

from valtti.engine import Deal, Observation, Seat, Variant
from valtti.engine.solver import Solver
from valtti.players.appraise import early_values
from valtti.players.explain import explain
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


def hint_times(positions: int, seed: int) -> list[TrickTimes]:
    rng = random.Random(seed)
    per_trick = -(-positions // 9)
    out = []
    for trick in range(1, 10):
        took: list[float] = []
        cpu: list[float] = []
        fewest = 10**9
        while len(took) < per_trick:
            observation = position(rng, trick)
            if observation is None:
                continue
            started, started_cpu = time.perf_counter(), time.process_time()
            hint = explain(observation, "hard")
            took.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)
            fewest = min(fewest, hint.deals or 10**9)
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
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    args = parser.parse_args()
    times = hint_times(args.positions, args.seed)
    error = early_error(args.errors, args.seed + 1) if args.errors else None  # 0: times only
    if args.json:
        early = None if error is None else asdict(error)
        print(json.dumps({"times": [asdict(t) for t in times], "early": early}))
        return
    print("trick positions   wall: p50 p95  max (ms)   cpu: p50  p95  max (ms)  fewest deals")
    for t in times:
        print(
            f"{t.trick:5} {t.positions:9} {t.p50_ms:10.0f} {t.p95_ms:4.0f} {t.max_ms:4.0f} "
            f"{t.cpu_p50_ms:15.0f} {t.cpu_p95_ms:4.0f} {t.cpu_max_ms:4.0f} {t.deals:13}"
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
