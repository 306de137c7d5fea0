"""Engine speed: random legal deals and state copies through the public API."""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass
from typing import Any

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


@dataclass(frozen=True)
class SolverResult:
    """The double-dummy solver: positions searched per second, and the mean milliseconds of a
    full ``solve`` (every legal action's exact value) from the start of trick 1 to 9."""

    nodes_per_s: float
    solve_ms: tuple[float, ...]
    deals: int


def solver_rates(deals: int = 3, seed: int = 1) -> SolverResult:
    """Solve (for game points) the start of every trick of ``deals`` deals played forward at
    random, each from an emptied transposition table."""
    from valtti.engine import DealValue, Solver

    rng = random.Random(seed)
    solver = Solver()
    value = DealValue.game_points()
    times: list[list[float]] = [[] for _ in range(9)]
    nodes = 0
    for i in range(deals):
        deal = Deal.shuffled(rng, Seat(i & 3))
        for trick in range(9):
            while deal.tricks_played < trick:
                legal = deal.legal_actions()
                deal.apply(legal[rng.randrange(len(legal))])
            solver.clear()
            start = time.perf_counter()
            solver.solve(deal, value)
            times[trick].append(time.perf_counter() - start)
            nodes += solver.nodes
    seconds = sum(sum(t) for t in times)
    return SolverResult(nodes / seconds, tuple(statistics.mean(t) * 1e3 for t in times), deals)


# -- the research front ends (valtti.research) ---------------------------------------------------


@dataclass(frozen=True)
class TensorCost:
    """Microseconds per call, writing into a caller's buffer."""

    observation_us: float
    information_state_us: float
    state_us: float


def tensor_costs(positions: int = 200, calls: int = 100, seed: int = 1) -> TensorCost:
    """The median cost of each tensor over random positions of random deals."""
    import numpy as np

    from valtti.engine import tensors

    rng = random.Random(seed)
    kinds = (
        (tensors.observation_tensor, tensors.OBSERVATION_SIZE),
        (tensors.information_state_tensor, tensors.INFORMATION_STATE_SIZE),
        (tensors.state_tensor, tensors.STATE_SIZE),
    )
    costs: list[list[float]] = [[], [], []]
    for i in range(positions):
        deal = Deal.shuffled(rng, Seat(i & 3))
        for _ in range(rng.randrange(40)):
            if deal.is_over():
                break
            legal = deal.legal_actions()
            deal.apply(legal[rng.randrange(len(legal))])
        seat = Seat(i % 4)
        for k, (encode, size) in enumerate(kinds):
            out = np.zeros(size, np.float32)
            start = time.perf_counter()
            for _ in range(calls):
                encode(deal, seat, out)
            costs[k].append((time.perf_counter() - start) / calls * 1e6)
    obs, info, state = (statistics.median(c) for c in costs)
    return TensorCost(obs, info, state)


def pettingzoo_rate(turns: int = 20_000, seed: int = 1) -> float:
    """Turns per second of ``valtti.research.pettingzoo.env()`` (its usual wrappers), each
    agent playing a uniformly random legal action read from its ``action_mask``."""
    from valtti.research.pettingzoo import env as make_env

    rng = random.Random(seed)
    env = make_env()
    env.reset(seed=seed)
    done = 0
    start = time.perf_counter()
    while done < turns:
        for _agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[int(rng.random() * len(legal))]))
            done += 1
        env.reset()
    return done / (time.perf_counter() - start)


def gymnasium_vector_rate(steps: int = 20_000, num_envs: int = 16, seed: int = 1) -> float:
    """Learner steps per second of the vector form of ``valtti/Marjapussi-v0`` against random
    players, the learner playing a random legal action drawn in one numpy operation."""
    import gymnasium
    import numpy as np

    from valtti.research.gymnasium import ENV_ID

    envs = gymnasium.make_vec(ENV_ID, num_envs=num_envs, vectorization_mode="vector_entry_point")
    envs.reset(seed=seed)
    vec: Any = envs.unwrapped
    noise = np.random.default_rng(seed)
    rounds = max(1, steps // num_envs)
    start = time.perf_counter()
    for _ in range(rounds):
        masks = vec.action_masks()
        envs.step((masks * noise.random(masks.shape)).argmax(axis=1))
    seconds = time.perf_counter() - start
    envs.close()
    return rounds * num_envs / seconds


def openspiel_rate(games: int = 500, seed: int = 1) -> float:
    """Random games (chance nodes included) per second of ``python_marjapussi`` through pyspiel."""
    import pyspiel

    import valtti.research.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game("python_marjapussi")
    draw = random.Random(seed).random
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(draw() * len(state.chance_outcomes())))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(draw() * len(legal))])
    return games / (time.perf_counter() - start)


@dataclass(frozen=True)
class ResearchResult:
    """The research front ends' speed and, measured in the same run, the engine's own."""

    tensors: TensorCost
    engine_deals_per_s: float
    engine_actions_per_s: float
    pettingzoo_turns_per_s: float | None
    gymnasium_vector_steps_per_s: float | None
    openspiel_games_per_s: float | None
    missing: str | None = None  #: why the environments were not measured


def run_research(seed: int = 1, scale: float = 1.0) -> ResearchResult:
    """Measure the tensors and, where the research extra is installed, each environment."""
    seconds, actions = random_deals(int(5_000 * scale) or 1, seed)
    deals = int(5_000 * scale) or 1
    costs = tensor_costs(positions=int(200 * scale) or 1, seed=seed)
    try:
        import gymnasium  # noqa: F401
        import pettingzoo  # noqa: F401
        import pyspiel  # noqa: F401
    except ImportError as error:
        return ResearchResult(
            costs,
            deals / seconds,
            actions / seconds,
            None,
            None,
            None,
            missing=f"{error.name} is not installed: pip install 'valtti[research]'",
        )
    return ResearchResult(
        costs,
        deals / seconds,
        actions / seconds,
        pettingzoo_rate(int(20_000 * scale) or 1, seed),
        gymnasium_vector_rate(int(20_000 * scale) or 16, seed=seed),
        openspiel_rate(int(500 * scale) or 1, seed),
    )
