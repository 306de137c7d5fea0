"""How fast hidden hands are inferred and drawn: ``python tools/sampler_bench.py``."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from valtti.engine import Deal, Seat
from valtti.players.knowledge import infer
from valtti.players.sampler import Sampler


@dataclass(frozen=True, slots=True)
class BenchFigures:
    """Mean costs on random positions, in microseconds, and the resulting draw rate."""

    positions: int
    infer_us: float
    setup_us: float  #: ``Sampler(knowledge)``
    setup_worst_us: float
    sample_us: float

    @property
    def samples_per_s(self) -> float:
        return 1e6 / self.sample_us


def bench(positions: int = 200, samples: int = 1000, seed: int = 0) -> BenchFigures:
    """Time ``infer``, ``Sampler`` and ``sample`` on positions of random legal deals, each seen
    by the player to move, as a search player would."""
    rng = random.Random(seed)
    infer_s = setup_s = sample_s = worst = 0.0
    for i in range(positions):
        deal = Deal.shuffled(rng, Seat(i & 3))
        for _ in range(rng.randrange(45)):
            if deal.is_over():
                break
            legal = deal.legal_actions()
            deal.apply(legal[rng.randrange(len(legal))])
        seat = deal.current_player
        observation = deal.observation(Seat.N if seat is None else seat)
        start = time.perf_counter()
        knowledge = infer(observation)
        inferred = time.perf_counter()
        sampler = Sampler(knowledge)
        ready = time.perf_counter()
        for _ in range(samples):
            sampler.sample(rng)
        done = time.perf_counter()
        infer_s += inferred - start
        setup_s += ready - inferred
        worst = max(worst, ready - inferred)
        sample_s += done - ready
    return BenchFigures(
        positions,
        infer_s / positions * 1e6,
        setup_s / positions * 1e6,
        worst * 1e6,
        sample_s / (positions * samples) * 1e6,
    )


if __name__ == "__main__":
    figures = bench()
    print(
        f"{figures.positions} random positions: infer {figures.infer_us:.0f} µs, "
        f"Sampler() {figures.setup_us:.0f} µs (worst {figures.setup_worst_us:.0f} µs), "
        f"sample {figures.sample_us:.1f} µs "
        f"({figures.samples_per_s:,.0f} samples/s)"
    )
