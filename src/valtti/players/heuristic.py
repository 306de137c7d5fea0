"""The heuristic player: a good club player's rules of thumb, from the observation alone.

The rules of thumb are written once, in C (``players/_heuristic.pyx``, which says what they
are): this module seats them. It reads what the play so far shows about the hidden hands, turns
that into odds that a card takes its trick, weighs every legal card and declaration in card
points against the match score, and from trick 5 on counts the rest of the deal out over hidden
hands drawn to agree with everything seen. It reads the seat's hand and the public record,
never another hand; its ties and draws come from its own generator, seeded with its seed.
``quick`` is its other name (``players.quick``).
"""

from __future__ import annotations

from valtti.engine import ACTIONS, Action, Observation
from valtti.players._heuristic import Heuristic
from valtti.players.base import Player

__all__ = ["HeuristicPlayer"]


class HeuristicPlayer(Player):
    """A club player's rules of thumb (see the module); ``seed`` seeds its generator."""

    name = "heuristic"
    memoryless = True

    def __init__(self, seed: int | None = None) -> None:
        self.decisions = Heuristic(seed)

    def choose(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        if not legal:
            raise ValueError(f"{observation.seat} has no action to choose: it is not its turn")
        if len(legal) == 1:
            return legal[0]
        return ACTIONS[self.decisions.decide(observation)]
