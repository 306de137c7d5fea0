"""A sequential comparison of two players: duplicate pairs are played until the answer is
clear, as chess engines are tested (fishtest's SPRT), rather than a number fixed beforehand.

Wald's sequential probability ratio test on the pairs' differences (game points per deal of the
first player minus the second's), taken as normal with the variance the pairs so far show: the
hypotheses are "the first is no better than the second by ``low``" and "better by ``high``" or
more. After each pair the log-likelihood ratio of the two is set against Wald's bounds for the
error rates ``alpha`` (saying better when it is not) and ``beta`` (missing a difference of
``high``); the test ends when it crosses one. Testing "worse by ``high``" is the same test with
the players swapped, so ``Sprt`` runs both and ends when both have ended: with the answer
"first better", "second better" or "within ``high`` of each other".
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

__all__ = ["MIN_PAIRS", "Sprt", "Verdict"]

#: Pairs before a verdict: the variance of fewer is too rough to trust. The pairs' differences
#: have heavy tails (a marriage found or missed), and less the luck more so: on the board of
#: issue 44, club against heuristic stopped "even" after 20 pairs whose spread was 0.28 game
#: points a deal where 150 pairs show 0.46.
MIN_PAIRS: Final = 30

#: What a sequential comparison found: the first player better, the second better, the two
#: within the margin of each other, or nothing yet.
Verdict = Literal["first", "second", "even"] | None


@dataclass(frozen=True, slots=True)
class Sprt:
    """The test: hypotheses a difference of ``low`` and of ``high`` (game points a deal, the
    first player's minus the second's, either way round), error rates ``alpha`` and ``beta``."""

    low: float = 0.0
    high: float = 0.3
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not 0 <= self.low < self.high:
            raise ValueError(f"a sequential test needs 0 ≤ low < high, not {self.low}, {self.high}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError("the error rates must be between 0 and 0.5")

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's bounds on the log-likelihood ratio: below the first, accept ``low``; above
        the second, accept ``high``."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def ratio(self, differences: Sequence[float], sign: int = 1) -> float:
        """The log-likelihood ratio of a difference of ``high`` against ``low`` (``sign`` -1:
        of the second player's being better), the pairs' variance as known."""
        n = len(differences)
        if n < 2:
            return 0.0
        variance = statistics.variance(differences) or 1e-9
        total = sign * sum(differences)
        # For normal pairs: sum over pairs of ((x - low)^2 - (x - high)^2) / (2 variance).
        return (self.high - self.low) * (total - n * (self.low + self.high) / 2) / variance

    def verdict(self, differences: Sequence[float]) -> Verdict:
        """The answer the pairs' ``differences`` give so far, or ``None`` to play on."""
        if len(differences) < MIN_PAIRS:
            return None
        lower, upper = self.bounds
        up, down = self.ratio(differences, 1), self.ratio(differences, -1)
        if up >= upper:
            return "first"
        if down >= upper:
            return "second"
        if up <= lower and down <= lower:
            return "even"
        return None
