"""The quick player: the heuristic player's rules of thumb in C, fast enough to train against.

``engine.Quick`` weighs each card and declaration as ``players.heuristic`` does, from what the
seat may know alone (its hand and the public record), with the heuristic's own numbers; what it
reads of the hidden hands is less (voids and cards a play proves absent, declared marriages'
cards held, no pair constraints) and its count of the last tricks draws hands of its own, so it
plays as ``heuristic`` on most decisions, not all (docs/MEASUREMENTS.md). The research vector
env seats it in C (``batched=True``); here it is given a deal at the observed point, its hidden
hands drawn to agree with the observation, whose hidden cards it never reads.
"""

from __future__ import annotations

import random

from valtti.engine import ACTIONS, Action, Observation
from valtti.engine._deal import Quick
from valtti.players.base import Player
from valtti.players.sampler import sample_hands
from valtti.players.worlds import rebuild

__all__ = ["QuickPlayer"]


class QuickPlayer(Player):
    """``heuristic``'s rules of thumb in C (see the module); ``seed`` seeds its generator."""

    name = "quick"

    def __init__(self, seed: int | None = None) -> None:
        self.quick = Quick(seed)
        self.rng = random.Random(seed)  # the hidden hands it is given, which it never reads

    def choose(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        if not legal:
            raise ValueError(f"{observation.seat} has no action to choose: it is not its turn")
        if len(legal) == 1:
            return legal[0]
        # The sampler is exact: every draw agrees with the observation and replays.
        deal = rebuild(observation, sample_hands(observation, self.rng))
        score = observation.score or (0, 0)
        return ACTIONS[self.quick.choose(deal, score, observation.deal_number)]
