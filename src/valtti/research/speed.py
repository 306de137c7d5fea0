"""Speed where researchers spend it, in CPU time (``valtti bench``): learner steps of the
batched vector env against those of one env, and the heuristic player's decisions per second
(its C, which the batched tables seat as ``heuristic`` or ``quick``, and the player given
observations).

CPU time (``time.process_time``), not the wall clock: on a machine shared with other jobs the
wall clock counts their time too. The envs need ``valtti[research]`` (imported when measured).
Both envs have random players in the other seats (the batched one is measured against three
heuristic players too) and a learner that plays a random legal action drawn in one numpy
operation from the mask.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import numpy as np

from valtti.engine import Deal, Seat
from valtti.players._heuristic import Heuristic
from valtti.players.heuristic import HeuristicPlayer

__all__ = ["LearnerRates", "QuickFigures", "learner_rates", "quick_figures", "random_positions"]


@dataclass(frozen=True, slots=True)
class LearnerRates:
    """Learner steps per CPU-second: one env, and ``tables`` tables of the batched vector env
    against random opponents and against three heuristic players (their C seated by the
    tables' C)."""

    single: float
    batched: float
    tables: int
    batched_heuristic: float

    @property
    def ratio(self) -> float:
        return self.batched / self.single


def _single_rate(steps: int, seed: int) -> float:
    from valtti.research.gymnasium import MarjapussiEnv

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


def _batched_rate(rounds: int, tables: int, seed: int, opponents: str = "random") -> float:
    from valtti.research.gymnasium import MarjapussiVectorEnv

    env = MarjapussiVectorEnv(num_envs=tables, batched=True, opponents=opponents)
    env.reset(seed=seed)
    noise = np.random.default_rng(seed)
    start = time.process_time()
    for _ in range(rounds):
        masks = env.action_masks()
        env.step((masks * noise.random(masks.shape)).argmax(axis=1))
    return rounds * tables / (time.process_time() - start)


def learner_rates(steps: int = 50_000, tables: int = 64, seed: int = 1) -> LearnerRates:
    """About ``steps`` learner steps of one env, ten times as many batched against random
    opponents, and 300 rounds of the tables against heuristic ones (about a hundredth of the
    speed: every other seat thinks)."""
    return LearnerRates(
        _single_rate(steps, seed),
        _batched_rate(max(1, 10 * steps // tables), tables, seed),
        tables,
        _batched_rate(300, tables, seed, "heuristic"),
    )


def random_positions(count: int, seed: int) -> list[Deal]:
    """``count`` positions of the research episodes (``answer_steps``): a deal shuffled, then 0
    to 39 uniformly random legal actions, kept where someone is to move."""
    rng = random.Random(seed)
    out: list[Deal] = []
    while len(out) < count:
        deal = Deal.shuffled(rng, Seat(rng.randrange(4)), answer_steps=True)
        for _ in range(rng.randrange(40)):
            if deal.is_over():
                break
            legal = deal.legal_numbers()
            deal.apply(legal[rng.randrange(len(legal))])
        if not deal.is_over():
            out.append(deal)
    return out


@dataclass(frozen=True, slots=True)
class QuickFigures:
    """The heuristic player's C on random positions: decisions per CPU-second over every
    position and over those with more than one legal action (each player new, with the
    position's number as its seed), and the ``Player``'s from each position's observation
    (what a table or an environment asks of it)."""

    positions: int
    choices: int  #: positions with more than one legal action
    decisions_per_s: float
    choice_decisions_per_s: float
    player_decisions_per_s: float


def quick_figures(positions: int = 2_000, seed: int = 1) -> QuickFigures:
    """Measure the heuristic player's C on ``random_positions``: its decisions timed in one run
    over all the positions and in another over those with a choice (as it plays in a game, one
    decision after another)."""
    deals = random_positions(positions, seed)
    choices = [i for i, deal in enumerate(deals) if len(deal.legal_numbers()) > 1]
    players = [Heuristic(i) for i in range(len(deals))]
    start = time.process_time()
    for player, deal in zip(players, deals, strict=True):
        player.choose(deal)
    seconds = time.process_time() - start
    players = [Heuristic(i) for i in choices]
    start = time.process_time()
    for player, i in zip(players, choices, strict=True):
        player.choose(deals[i])
    choice_seconds = time.process_time() - start
    views = []
    for deal in deals:
        seat = deal.current_player
        assert seat is not None  # random_positions keeps only positions someone is to move in
        views.append(deal.observation(seat))
    seated = [HeuristicPlayer(i) for i in range(len(deals))]
    start = time.process_time()
    for seat_player, view in zip(seated, views, strict=True):
        seat_player.choose(view)
    player_seconds = time.process_time() - start
    return QuickFigures(
        len(deals),
        len(choices),
        len(deals) / max(seconds, 1e-9),
        len(choices) / max(choice_seconds, 1e-9),
        len(deals) / max(player_seconds, 1e-9),
    )
