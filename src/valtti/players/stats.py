"""Means with confidence intervals, for comparing players over independent samples."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Estimate:
    """A sample mean and its two-sided Student-t confidence interval.

    ``low`` and ``high`` are ``None`` when there are fewer than two samples (no spread to
    estimate); ``mean`` is ``None`` when there are none.
    """

    mean: float | None
    low: float | None
    high: float | None
    samples: int
    confidence: float

    @property
    def half_width(self) -> float | None:
        if self.low is None or self.high is None:
            return None
        return (self.high - self.low) / 2


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> Estimate:
    """The mean of independent ``values`` with a Student-t interval (n − 1 degrees of freedom).

    t rather than normal because arena runs are often a few dozen samples, where the normal
    interval is too narrow.
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence}")
    n = len(values)
    if n == 0:
        return Estimate(None, None, None, 0, confidence)
    mean = statistics.fmean(values)
    if n == 1:
        return Estimate(mean, None, None, 1, confidence)
    # scipy.special rather than scipy.stats: the same quantile at a third of the import time.
    from scipy.special import stdtrit

    t = float(stdtrit(n - 1, (1 + confidence) / 2))
    half = t * statistics.stdev(values) / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n, confidence)
