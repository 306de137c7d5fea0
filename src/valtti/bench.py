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
    search_iterations_per_s: float | None = None


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


def search_rate(positions: int, iterations: int, seed: int) -> float:
    """Search-player iterations per second over random positions from every stage of a deal."""
    from valtti.players.search import Budget, SearchPlayer

    rng = random.Random(seed)
    player = SearchPlayer(Budget(iterations, seconds=60.0), seed=seed)
    done = 0
    seconds = 0.0
    for i in range(positions):
        deal = Deal.shuffled(rng, Seat(i & 3))
        for _ in range(i * 37 % 32):
            legal = deal.legal_actions()
            deal.apply(legal[rng.randrange(len(legal))])
        seat = deal.current_player
        assert seat is not None
        start = time.perf_counter()
        player.search(deal.observation(seat))
        seconds += time.perf_counter() - start
        done += player.iterations
    return done / seconds


def run(runs: int = 5, deals: int = 20_000, seed: int = 1, search: bool = True) -> BenchResult:
    """The median of ``runs`` runs of ``deals`` random deals each, and of as many copy runs;
    with ``search``, the median of as many runs of the search player over 20 positions."""
    deal_rates: list[float] = []
    action_rates: list[float] = []
    copies: list[float] = []
    searches: list[float] = []
    for r in range(runs):
        seconds, actions = random_deals(deals, seed + r)
        deal_rates.append(deals / seconds)
        action_rates.append(actions / seconds)
        copies.append(copy_time(100_000, seed + r))
        if search:
            searches.append(search_rate(20, 2_000, seed + r))
    return BenchResult(
        deals_per_s=statistics.median(deal_rates),
        actions_per_s=statistics.median(action_rates),
        copy_us=statistics.median(copies) * 1e6,
        runs=runs,
        deals_per_run=deals,
        search_iterations_per_s=statistics.median(searches) if search else None,
    )
