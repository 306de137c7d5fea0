"""Players' strengths from the margins of their duplicate pairs: game points a deal over one
player's, fitted to every pairing at once, with intervals from the fit (``margins``)."""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

__all__ = ["Margin", "margins"]


@dataclass(frozen=True, slots=True)
class Margin:
    """A player's strength in game points a deal over the anchor's, from the margins of its
    duplicate pairs, with its standard error and 95 % interval (normal)."""

    value: float
    error: float
    low: float
    high: float


#: Pairs a pairing needs for its own variance; one with fewer takes the pooled variance (that
#: of fewer is too rough: an interval from it may not hold; ``sequential.MIN_PAIRS``).
OWN_VARIANCE: Final = 30


def margins(
    count: int, pairs: Mapping[tuple[int, int], Sequence[float]], anchor: int = 0
) -> list[Margin | None]:
    """Each of ``count`` players' strength over ``anchor`` (0) in game points a deal, from each
    pairing's pairs' differences (``(i, j)`` → the game points a deal of i less j's, one a
    pair): weighted least squares of ``r_i - r_j`` on each pairing's mean, weighted by its
    precision (the pairs over their variance: the pairing's own from ``OWN_VARIANCE`` pairs,
    else the pooled), the errors from the fit's covariance. ``None`` for a player no pairing
    joins to the anchor."""
    played = {key: list(values) for key, values in pairs.items() if values}
    spread = [statistics.variance(v) for v in played.values() if len(v) >= 2]
    pooled = statistics.fmean(spread) if spread else 1.0
    free = [i for i in range(count) if i != anchor]
    column = {player: k for k, player in enumerate(free)}
    rows, means, weights = [], [], []
    for (i, j), values in played.items():
        row = np.zeros(len(free))
        if i != anchor:
            row[column[i]] += 1.0
        if j != anchor:
            row[column[j]] -= 1.0
        variance = statistics.variance(values) if len(values) >= OWN_VARIANCE else pooled
        rows.append(row)
        means.append(statistics.fmean(values))
        weights.append(len(values) / max(variance, 1e-9))
    out: list[Margin | None] = [None] * count
    out[anchor] = Margin(0.0, 0.0, 0.0, 0.0)
    if not rows:
        return out
    design, w = np.array(rows), np.array(weights)
    information = design.T @ (design * w[:, None])
    # A player joined to the anchor by no pairing has no row of its own to be fitted by.
    joined = _joined(count, played, anchor)
    keep = [column[p] for p in free if p in joined]
    if not keep:
        return out
    information = information[np.ix_(keep, keep)]
    target = (design[:, keep] * w[:, None]).T @ np.array(means)
    covariance = np.linalg.inv(information)
    fitted = covariance @ target
    for k, index in enumerate(keep):
        player = free[index]
        error = float(np.sqrt(covariance[k, k]))
        value = float(fitted[k])
        out[player] = Margin(value, error, value - Z95 * error, value + Z95 * error)
    return out


#: The normal quantile of a two-sided 95 % interval.
Z95: Final = 1.959963984540054


def _joined(count: int, pairs: Mapping[tuple[int, int], object], anchor: int) -> set[int]:
    """The players a chain of pairings joins to ``anchor``."""
    joined, frontier = {anchor}, [anchor]
    while frontier:
        player = frontier.pop()
        for i, j in pairs:
            for a, b in ((i, j), (j, i)):
                if a == player and b not in joined:
                    joined.add(b)
                    frontier.append(b)
    return joined
