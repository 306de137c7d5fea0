"""Speed where researchers spend it, in CPU time (``valtti bench``): learner steps of the
batched vector env against those of one env.

CPU time (``time.process_time``), not the wall clock: on a machine shared with other jobs the
wall clock counts their time too. Both envs have random players in the other seats and a
learner that plays a random legal action drawn in one numpy operation from the mask.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from valtti.research.gymnasium import MarjapussiEnv, MarjapussiVectorEnv

__all__ = ["LearnerRates", "learner_rates"]


@dataclass(frozen=True, slots=True)
class LearnerRates:
    """Learner steps per CPU-second: one env, and ``tables`` tables of the batched vector env."""

    single: float
    batched: float
    tables: int

    @property
    def ratio(self) -> float:
        return self.batched / self.single


def _single_rate(steps: int, seed: int) -> float:
    env = MarjapussiEnv()
    env.reset(seed=seed)
    noise = np.random.default_rng(seed)
    start = time.process_time()
    for _ in range(steps):
        mask = env.action_masks()
        _, _, over, _, _ = env.step(int((mask * noise.random(mask.shape)).argmax()))
        if over:
            env.reset()
    return steps / (time.process_time() - start)


def _batched_rate(rounds: int, tables: int, seed: int) -> float:
    env = MarjapussiVectorEnv(num_envs=tables, batched=True)
    env.reset(seed=seed)
    noise = np.random.default_rng(seed)
    start = time.process_time()
    for _ in range(rounds):
        masks = env.action_masks()
        env.step((masks * noise.random(masks.shape)).argmax(axis=1))
    return rounds * tables / (time.process_time() - start)


def learner_rates(steps: int = 50_000, tables: int = 64, seed: int = 1) -> LearnerRates:
    """About ``steps`` learner steps of one env, and ten times as many batched."""
    return LearnerRates(
        _single_rate(steps, seed),
        _batched_rate(max(1, 10 * steps // tables), tables, seed),
        tables,
    )
