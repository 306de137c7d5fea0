"""Deep Monte-Carlo training of the learned player (``valtti train``), in the manner of DouZero.

An action-value network Q(observation tensor) → 49 values (``valtti.players.learned.QNetwork``)
is fitted by mean squared error to Monte-Carlo returns: for every decision with a choice, the
game points the acting seat's team made in that deal minus the other team's (RULES.md 5.1),
mixed (``match_weight``) with what the deal did to the match: the change of the score difference
and reaching the target, in game points (``match_return``; RULES.md 6). The data comes from
self-play: all four seats play the current network, epsilon-greedy, whole matches
(so the score inputs of the tensor take the values they take at a table).

Self-play actors are plain functions on numpy weights (no torch), run in this process
(``--workers 1``), in a pool of local processes, or as Ray tasks (``--backend ray``); the learner
is CPU PyTorch. Between rounds the run is checkpointed into a folder (``--out``): ``model.npz``
(the network, which ``learned:PATH`` seats), ``state.npz`` (the optimiser's moments and the
counters, plain arrays) and ``curve.json`` (the periodic evaluations, in duplicate against fixed
players: ``valtti.arena.run_arena`` on single deals). ``--resume`` continues from the folder.

The parts: ``config`` (the settings), ``selfplay`` (the returns, the actors), ``learner`` (the
network, its optimiser and the checkpoint); here, the run that joins them.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from valtti.research.config import TrainConfig
from valtti.research.episode import OBSERVATION_SIZE
from valtti.research.learner import Learner, Progress
from valtti.research.selfplay import Actors, Batch, match_return, self_play

#: The training's names, importable from here as before the parts split off (docs/RESEARCH.md
#: names ``valtti.research.train.match_return``).
__all__ = ["Batch", "Evaluate", "Progress", "TrainConfig", "match_return", "self_play", "train"]


# -- evaluation -----------------------------------------------------------------------------------

#: An evaluation: the model file in, the figures against each fixed player out (JSON-ready).
#: ``valtti train`` passes the arena's duplicate on the evaluation set (``run_arena`` on single
#: deals): the arena is a front end of its own, which this one does not import.
Evaluate = Callable[[Path], dict[str, Any]]


class Replay:
    """The newest ``size`` decisions, sampled uniformly for minibatches."""

    def __init__(self, size: int) -> None:
        self.observations = np.zeros((size, OBSERVATION_SIZE), np.float32)
        self.actions = np.zeros(size, np.int64)
        self.returns = np.zeros(size, np.float32)
        self.size, self.count, self.at = size, 0, 0

    def add(self, batch: Batch) -> None:
        for k in range(len(batch.actions)):
            self.observations[self.at] = batch.observations[k]
            self.actions[self.at] = batch.actions[k]
            self.returns[self.at] = batch.returns[k]
            self.at = (self.at + 1) % self.size
        self.count = min(self.size, self.count + len(batch.actions))

    def sample(self, rng: np.random.Generator, n: int) -> Iterator[Any]:
        rows = rng.integers(0, self.count, n)
        yield self.observations[rows]
        yield self.actions[rows]
        yield self.returns[rows]


def train(
    config: TrainConfig,
    folder: Path,
    *,
    deals: int | None = None,
    minutes: float | None = None,
    resume: bool = False,
    init: Path | None = None,
    backend: str = "process",
    workers: int = 1,
    address: str | None = None,
    evaluate: Evaluate | None = None,
    report: Callable[[Progress, float, dict[str, Any] | None], None] | None = None,
) -> Progress:
    """Train until ``deals`` self-play deals in all (a resumed run counts its earlier ones) or
    ``minutes`` of this run have passed, checkpointing into ``folder`` after every round and,
    given ``evaluate``, evaluating every ``config.eval_every`` deals and at the end. ``init``
    starts a new run from a model's weights (fine-tuning; not with ``resume``).
    ``report(progress, loss, evaluation or None)`` is called after every round."""
    if deals is None and minutes is None:
        raise ValueError("say how long to train: deals or minutes")
    for name in ("model.npz", "state.npz") if resume else ():
        if not (folder / name).exists():
            raise ValueError(f"nothing to resume in {folder}: no {name}")
    if resume and init is not None:
        raise ValueError("a resumed run goes on from its own model: --init is for a new run")
    if not resume and any((folder / name).exists() for name in ("model.npz", "state.npz")):
        raise ValueError(
            f"{folder} holds a run already: --resume goes on with it; a new run needs another "
            "folder (nothing was changed)"
        )
    learner = Learner(config, folder, resume, init)
    p = learner.progress
    if deals is not None and p.deals >= deals:
        raise ValueError(
            f"the run has {p.deals:,} deals already: give a --deals above that to go on"
        )
    replay = Replay(config.buffer)
    actors = Actors(backend, workers, address)  # a backend it cannot have: no folder made yet
    try:  # now, not at the first checkpoint after a round of self-play
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        actors.close()
        raise ValueError(f"{folder}: the run's folder cannot be made ({e.strerror or e})") from None
    start = time.monotonic()
    base_seconds = p.seconds
    next_eval = (p.deals // config.eval_every + 1) * config.eval_every

    def over() -> bool:
        out_of_deals = deals is not None and p.deals >= deals
        return out_of_deals or (minutes is not None and time.monotonic() - start >= 60 * minutes)

    def round_size() -> int:
        return (
            config.deals_per_round
            if deals is None
            else max(1, min(config.deals_per_round, deals - p.deals))
        )

    try:
        waiting = actors.submit(learner.arrays(), round_size(), _seed(config, p.rounds), config)
        while True:
            batch = waiting()
            p.rounds += 1
            p.deals += batch.deals
            p.decisions += len(batch.actions)
            replay.add(batch)
            last = over()
            if not last:
                # the actors play on with these weights while the learner takes this batch
                waiting = actors.submit(
                    learner.arrays(), round_size(), _seed(config, p.rounds), config
                )
            rng = np.random.default_rng(_seed(config, p.rounds))
            updates = max(
                1, math.ceil(config.replay_ratio * len(batch.actions) / config.batch_size)
            )
            losses = [
                learner.update(*replay.sample(rng, config.batch_size)) for _ in range(updates)
            ]
            p.seconds = base_seconds + time.monotonic() - start
            model = learner.save()
            evaluation = None
            if evaluate is not None and (p.deals >= next_eval or last):
                evaluation = evaluate(model)
                p.curve.append(
                    {
                        "deals": p.deals,
                        "updates": p.updates,
                        "seconds": round(p.seconds),
                        "against": evaluation,
                    }
                )
                next_eval = (p.deals // config.eval_every + 1) * config.eval_every
                learner.save()
            if report is not None:
                report(p, float(np.mean(losses)), evaluation)
            if last:
                return p
    finally:
        actors.close()


def _seed(config: TrainConfig, round_number: int) -> int:
    return config.seed * 1_000_003 + round_number
