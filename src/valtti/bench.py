"""Engine speed: random legal deals and state copies through the public API."""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

from valtti.engine import Deal, Seat


@dataclass(frozen=True)
class BenchResult:
    deals_per_s: float
    actions_per_s: float
    copy_us: float
    runs: int
    deals_per_run: int


def random_deals(deals: int, seed: int) -> tuple[float, int]:
    """Play ``deals`` uniformly random legal deals; return (seconds, actions applied)."""
    rng = random.Random(seed)
    draw = rng.random
    actions = 0
    start = time.perf_counter()
    for i in range(deals):
        deal = Deal.shuffled(rng, Seat(i & 3))
        while not deal.is_over():
            legal = deal.legal_actions()
            deal.apply(legal[int(draw() * len(legal))])
            actions += 1
    return time.perf_counter() - start, actions


def copy_time(copies: int, seed: int) -> float:
    """Seconds per ``Deal.copy()`` of a deal in its fifth trick."""
    rng = random.Random(seed)
    deal = Deal.shuffled(rng, Seat.N)
    while deal.tricks_played < 4:
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    copy = deal.copy
    start = time.perf_counter()
    for _ in range(copies):
        copy()
    return (time.perf_counter() - start) / copies


def run(runs: int = 5, deals: int = 20_000, seed: int = 1) -> BenchResult:
    """The median of ``runs`` runs of ``deals`` random deals each, and of as many copy runs."""
    deal_rates: list[float] = []
    action_rates: list[float] = []
    copies: list[float] = []
    for r in range(runs):
        seconds, actions = random_deals(deals, seed + r)
        deal_rates.append(deals / seconds)
        action_rates.append(actions / seconds)
        copies.append(copy_time(100_000, seed + r))
    return BenchResult(
        deals_per_s=statistics.median(deal_rates),
        actions_per_s=statistics.median(action_rates),
        copy_us=statistics.median(copies) * 1e6,
        runs=runs,
        deals_per_run=deals,
    )
