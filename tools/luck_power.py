"""What taking the players' luck out buys (issue 44): ``python tools/luck_power.py FIRST SECOND
[--pairs N] [--redraws K] [--seed S]``.

FIRST against SECOND on the evaluation set's first ``--pairs`` deal pairs (the leaderboard's:
one deal a half, the seats swapped), each half played as the arena plays it and its luck then
measured from its record (``arena.luck``, ``--redraws`` a decision). Prints the mean difference
a deal raw and less the luck with their standard errors on the same pairs, the variance left,
the CPU seconds a pair of the play and of the luck, and for each estimator the pairs and the
CPU time to tell two players 0.3 game points a deal apart (95 % intervals of ±0.15).
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from valtti.arena.luck import REDRAWS, Luck, adjusted, coefficient
from valtti.arena.match import MatchJob, play_match
from valtti.engine import Seat, Variant
from valtti.engine.record import Record
from valtti.table import derive_seed

#: The half-width of the 95 % intervals that tell two players 0.3 apart.
HALF_WIDTH = 0.15


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--redraws", type=int, default=REDRAWS)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    raw, luck = [], []
    played = measured = 0.0
    for number in range(args.pairs):
        difference = pair_luck = 0.0
        for swapped in (False, True):
            job = MatchJob(
                0, args.first, args.second, number, swapped, args.seed, Variant(), 1, True
            )
            outcome = play_match(job)
            played += outcome.cpu
            assert outcome.record is not None  # the job keeps it
            match = Record.from_json(outcome.record).replay()
            start = time.process_time()
            measure = Luck(args.redraws, seed=derive_seed(args.seed, "luck", number, job.half))
            pair_luck += measure.of_match(
                match, {seat: job.spec(seat) for seat in Seat}, job.first_team()
            )
            measured += time.process_time() - start
            difference += outcome.game_points[0] - outcome.game_points[1]
        raw.append(difference / 2)
        luck.append(pair_luck / 2)
    less = adjusted(raw, luck)
    n = len(raw)
    print(f"{args.first} against {args.second}, {n} deal pairs of seed {args.seed}, "
          f"{args.redraws} redraws a decision")  # fmt: skip
    for name, values, cpu in (("raw", raw, played), ("less the luck", less, played + measured)):
        sd = statistics.stdev(values)
        pairs = math.ceil((1.96 * sd / HALF_WIDTH) ** 2)
        print(
            f"  {name:14} {statistics.fmean(values):+.3f} ± {sd / math.sqrt(n):.3f} a deal "
            f"(σ {sd:.2f} a pair); {cpu / n:.2f} CPU s a pair; to tell 0.3 apart: {pairs} "
            f"pairs, {pairs * cpu / n / 60:.1f} CPU minutes"
        )
    error = statistics.stdev(luck) / math.sqrt(n)
    print(
        f"  the luck: mean {statistics.fmean(luck):+.3f} ± {1.96 * error:.3f} (95 %), "
        f"coefficient {coefficient(raw, luck):.2f}, variance left "
        f"{statistics.variance(less) / statistics.variance(raw):.2f}"
    )


if __name__ == "__main__":
    main()
