"""Type stub for the heuristic player's C (see _heuristic.pyx)."""

from typing_extensions import disjoint_base

from valtti.engine._deal import Deal
from valtti.engine.observation import Observation

@disjoint_base
class Heuristic:
    """The heuristic player's decisions, as action numbers."""

    def __init__(self, seed: int | None = None) -> None: ...
    def choose(
        self, deal: Deal, score: tuple[int, int] = (0, 0), deal_number: int | None = None
    ) -> int: ...
    def playout(
        self,
        deal: Deal,
        score: tuple[int, int] = (0, 0),
        deal_number: int | None = None,
        count: int = 1,
        at_random: int = 0,
    ) -> float: ...
    def decide(self, observation: Observation) -> int: ...
