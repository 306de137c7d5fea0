"""Self-play for ``valtti train``: the actors that gather the learner's data.

Every decision with a choice in whole matches of four seats playing the current network,
epsilon-greedy, with its Monte-Carlo return (``match_return``). Actors are plain functions on
numpy weights (no torch), run in this process, in a pool of local processes, or as Ray tasks
(``Actors``).
"""

from __future__ import annotations

import multiprocessing
import random
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from valtti.engine import NUM_ACTIONS, Deal, Variant
from valtti.players.learned import QNetwork

# The value of a finished deal for the match, NS's and EW's; one import to switch when it moves
# into the engine (engine.solver.DealValue.match).
from valtti.players.search import deal_value
from valtti.research.episode import OBSERVATION_SIZE, Episode

if TYPE_CHECKING:
    from valtti.research.config import TrainConfig

#: A network's weights as numpy arrays by name (``QNetwork.arrays()``: ``w0``, ``b0``, ...).
Arrays = dict[str, npt.NDArray[Any]]


def match_return(
    deal: Deal, before: tuple[int, int], variant: Variant, match_weight: float
) -> tuple[float, float]:
    """The return of a finished deal for NS and for EW: ``1 − match_weight`` of its game-point
    difference (RULES.md 5.1) plus ``match_weight`` of what it did to the match from the score
    ``before`` it: the change of the score difference, the overshoot included, and the target
    reached worth the target (``deal_value`` × target, in game points; RULES.md 6)."""
    ns, ew = deal.result().game_points
    points = float(ns - ew)
    if match_weight:
        match = deal_value(deal, before, variant)[0] * variant.target
        points = (1.0 - match_weight) * points + match_weight * match
    # From zero, not ``-points``: a deal worth nothing is +0.0 to both teams, never -0.0 (a zero
    # with the sign of a loss; ``episode.deal_returns`` keeps it so too).
    return 0.0 + points, 0.0 - points


@dataclass
class Batch:
    """Decisions from self-play: each row's observation, action taken and return."""

    observations: npt.NDArray[np.float32]
    actions: npt.NDArray[np.int64]
    returns: npt.NDArray[np.float32]
    deals: int
    points: float  #: the sum over the deals of |NS − EW| game points, for the log

    @staticmethod
    def join(parts: list[Batch]) -> Batch:
        return Batch(
            np.concatenate([p.observations for p in parts]),
            np.concatenate([p.actions for p in parts]),
            np.concatenate([p.returns for p in parts]),
            sum(p.deals for p in parts),
            sum(p.points for p in parts),
        )


def self_play(
    arrays: Arrays,
    deals: int,
    seed: int,
    epsilon: float,
    tables: int = 64,
    match_weight: float = 0.0,
) -> Batch:
    """Play ``deals`` deals of self-play with the network ``arrays`` (``QNetwork.arrays()``),
    ``tables`` at a time, in whole matches, and return every decision that had a choice with its
    return (``match_return``)."""
    net = network_of(arrays)
    rng = random.Random(seed)
    episodes = [Episode(random.Random(rng.getrandbits(64)), "match") for _ in range(tables)]
    #: per table, the current deal's decisions: (observation, action, team of the actor)
    pending: list[list[tuple[npt.NDArray[np.float32], int, int]]] = [[] for _ in episodes]
    observations: list[npt.NDArray[np.float32]] = []
    actions: list[int] = []
    returns: list[float] = []
    buffer = np.zeros((tables, OBSERVATION_SIZE), np.float32)
    mask = np.zeros((tables, NUM_ACTIONS), np.int8)
    finished = 0
    points = 0.0
    while finished < deals:
        for i, ep in enumerate(episodes):
            seat = ep.current_player
            assert seat is not None
            ep.observation(seat, buffer[i])
            ep.action_mask(seat, mask[i])
        values = net.values(buffer)
        values[mask == 0] = -np.inf
        best = values.argmax(axis=1)
        for i, ep in enumerate(episodes):
            legal = np.flatnonzero(mask[i])
            action = int(best[i])
            seat = ep.current_player
            assert seat is not None
            if len(legal) > 1:
                if rng.random() < epsilon:
                    action = int(legal[rng.randrange(len(legal))])
                pending[i].append((buffer[i].copy(), action, seat % 2))
            deal, before = ep.deal, ep.score
            ep.apply(action)
            if deal.is_over():
                ns, ew = deal.result().game_points
                by_team = match_return(deal, before, ep.variant, match_weight)
                for obs, a, team in pending[i]:
                    observations.append(obs)
                    actions.append(a)
                    returns.append(by_team[team])
                pending[i].clear()
                finished += 1
                points += abs(ns - ew)
                if ep.is_over():
                    episodes[i] = Episode(random.Random(rng.getrandbits(64)), "match")
    empty = np.zeros((0, OBSERVATION_SIZE), np.float32)
    return Batch(
        np.stack(observations) if observations else empty,
        np.asarray(actions, np.int64),
        np.asarray(returns, np.float32),
        finished,
        points,
    )


def network_of(arrays: Arrays) -> QNetwork:
    count = len(arrays) // 2
    return QNetwork([(arrays[f"w{i}"], arrays[f"b{i}"]) for i in range(count)])


# -- actors ---------------------------------------------------------------------------------------

BACKENDS = ("process", "ray")


class Actors:
    """Self-play in this process (one worker), a pool of local processes, or Ray tasks."""

    def __init__(self, backend: str, workers: int, address: str | None = None) -> None:
        if backend not in BACKENDS:
            raise ValueError(f"unknown backend {backend!r}: known are {', '.join(BACKENDS)}")
        if workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        self.backend, self.workers = backend, workers
        self.pool: ProcessPoolExecutor | None = None
        self.ray: Any = None
        self.task: Any = None
        self.started_ray = False
        if backend == "ray":
            try:
                import ray
            except ImportError:
                raise ValueError("the ray backend needs Ray: pip install 'valtti[ray]'") from None
            self.ray = ray
            if not ray.is_initialized():
                try:
                    ray.init(address=address)
                except (ConnectionError, RuntimeError) as e:  # a cluster not there
                    raise ValueError(f"no Ray cluster at {address}: {e}") from None
                self.started_ray = True
            self.task = ray.remote(self_play)
        elif workers > 1:
            # spawn, not fork: the learner runs torch threads that fork would copy mid-lock.
            context = multiprocessing.get_context("spawn")
            self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)

    def submit(
        self, arrays: Arrays, deals: int, seed: int, config: TrainConfig
    ) -> Callable[[], Batch]:
        """Start ``deals`` deals of self-play; the returned function waits for their batch."""
        shares = [deals // self.workers + (k < deals % self.workers) for k in range(self.workers)]
        jobs = [
            (arrays, n, seed * 1000 + k, config.epsilon, config.tables, config.match_weight)
            for k, n in enumerate(shares)
            if n
        ]
        if self.ray is not None:
            refs = [self.task.remote(*job) for job in jobs]
            return lambda: Batch.join(self.ray.get(refs))
        if self.pool is not None:
            futures: list[Future[Batch]] = [self.pool.submit(self_play, *job) for job in jobs]
            return lambda: Batch.join([f.result() for f in futures])
        batch = Batch.join([self_play(*job) for job in jobs])
        return lambda: batch

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
        if self.started_ray:
            self.ray.shutdown()
