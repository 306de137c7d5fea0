"""The search player: single-observer information-set Monte Carlo tree search (SO-ISMCTS).

Each iteration deals the hidden cards anew, consistently with everything public (the sampler),
walks the one tree of the observer's information set with UCB over the actions legal in that
world (counting how often each was available), plays the rest of the deal out, and scores it
as a change of the match score. The action visited most is played.
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from valtti.engine import (
    NUM_CARDS,
    Action,
    Deal,
    Observation,
    Variant,
)
from valtti.engine.actions import ACTIONS, DECLARE
from valtti.engine.solver import DealValue
from valtti.players.base import Player
from valtti.players.knowledge import infer
from valtti.players.sampler import Sampler
from valtti.players.spec import PlayerSpecError, PlayerSpecFault
from valtti.players.worlds import rebuild

_DECLARE_MASK = 0xF << DECLARE
_CARD_MASK = (1 << NUM_CARDS) - 1


@dataclass(frozen=True, slots=True)
class Budget:
    """How long one decision may search: iterations, and a time cap in seconds."""

    iterations: int
    seconds: float


LEVELS: dict[str, Budget] = {
    "easy": Budget(iterations=300, seconds=0.2),
    "medium": Budget(iterations=2_000, seconds=0.5),
    "hard": Budget(iterations=10_000, seconds=1.0),
}


class _Node:
    __slots__ = ("action", "avail", "children", "expanded", "parent", "team", "total", "visits")

    def __init__(self, parent: _Node | None, action: int, team: int) -> None:
        self.parent = parent
        self.action = action
        self.team = team  # the team of the player who took ``action``
        self.children: dict[int, _Node] = {}
        self.expanded = 0  # mask of the actions in children
        self.visits = 0
        self.avail = 1
        self.total = 0.0


#: ``DealValue.match`` with the plain default equity, built once per match score and variant.
match_value = functools.lru_cache(maxsize=64)(DealValue.match)


def deal_value(deal: Deal, before: tuple[int, int], variant: Variant) -> tuple[float, float]:
    """How good a finished deal is for NS and for EW: ``DealValue.match``'s plain default, the
    change of the match score difference with reaching the target alone worth the most."""
    value = match_value(before, variant)(deal)
    return value, -value


def rollout(deal: Deal, rng: random.Random) -> None:
    """Play to the end: marriages declared at once, no questions, cards at random."""
    draw = rng.random
    while not deal.is_over():
        mask = deal.legal_mask()
        declare = mask & _DECLARE_MASK
        if declare:
            deal.apply((declare & -declare).bit_length() - 1)
            continue
        if mask & _CARD_MASK:
            mask &= _CARD_MASK
        k = int(draw() * mask.bit_count())
        for _ in range(k):
            mask &= mask - 1
        deal.apply((mask & -mask).bit_length() - 1)


#: What a finished deal is worth to NS, given the match score before it and the variant.
DealValuer = Callable[[tuple[int, int], Variant], DealValue]


class SearchPlayer(Player):
    """Information-set MCTS within a budget of iterations and seconds per decision.

    ``value`` says what a finished deal is worth (by default ``DealValue.match``'s plain
    default, the change of the score difference); ``evaluate`` reports means in its terms.
    """

    def __init__(
        self,
        budget: Budget,
        seed: int | None = None,
        exploration: float = 0.7,
        name: str = "search",
        value: DealValuer = match_value,
    ) -> None:
        self.budget = budget
        self.rng = random.Random(seed)
        self.exploration = exploration
        self.name = name
        self.value = value
        self.iterations = 0  #: iterations of the last decision

    def choose(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        if len(legal) == 1:
            self.iterations = 0
            return legal[0]
        root = self.search(observation)
        best = max(root.children.values(), key=lambda n: n.visits)
        return ACTIONS[best.action]

    def evaluate(self, observation: Observation) -> list[tuple[Action, float, int]]:
        """Each legal action with its mean value for the observer's team and its visits."""
        root = self.search(observation)
        out = [
            (ACTIONS[n.action], n.total / n.visits, n.visits)
            for n in root.children.values()
            if n.visits
        ]
        return sorted(out, key=lambda t: -t[2])

    def search(self, observation: Observation) -> _Node:
        sampler = Sampler(infer(observation))
        rng = self.rng
        base = rebuild(observation, sampler.sample(rng))
        value_of = self.value(observation.score or (0, 0), observation.variant)
        root = _Node(None, -1, -1)
        c = self.exploration
        deadline = time.perf_counter() + self.budget.seconds
        iterations = 0
        while iterations < self.budget.iterations:
            if iterations & 63 == 0 and time.perf_counter() > deadline:
                break
            iterations += 1
            deal = base.with_hands(sampler.sample(rng))
            node = root
            # Selection and expansion.
            while not deal.is_over():
                mask = deal.legal_mask()
                player = deal.current_player
                assert player is not None
                untried = mask & ~node.expanded
                if untried:
                    k = int(rng.random() * untried.bit_count())
                    for _ in range(k):
                        untried &= untried - 1
                    action = (untried & -untried).bit_length() - 1
                    child = _Node(node, action, player & 1)
                    node.children[action] = child
                    node.expanded |= 1 << action
                    deal.apply(action)
                    node = child
                    break
                best = None
                best_score = -math.inf
                for a, child in node.children.items():
                    if mask >> a & 1:
                        child.avail += 1
                        score = child.total / child.visits + c * math.sqrt(
                            math.log(child.avail) / child.visits
                        )
                        if score > best_score:
                            best_score = score
                            best = child
                assert best is not None
                deal.apply(best.action)
                node = best
            rollout(deal, rng)
            value = value_of(deal)
            values = (value, -value)
            n: _Node | None = node
            while n is not None:
                n.visits += 1
                if n.team >= 0:
                    n.total += values[n.team]
                n = n.parent
        self.iterations = iterations
        return root


def make_search_player(level: str | None, seed: int | None) -> Player:
    level = (level or "medium").lower()
    if level not in LEVELS:
        raise PlayerSpecError(PlayerSpecFault.UNKNOWN_LEVEL, "search", level, list(LEVELS))
    return SearchPlayer(LEVELS[level], seed, name=f"search:{level}")
