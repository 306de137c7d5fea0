"""Bradley–Terry ratings from duplicate pairs, on the Elo scale, with bootstrap intervals.

A duplicate pair (the same cards played twice, the seats swapped) is one game between two
players: the one with more game points over its two deals wins it, equal points are a draw,
counted half a win each. The strengths are Bradley–Terry's (P(i beats j) = p_i / (p_i + p_j)),
fitted by Hunter's MM iterations with one virtual draw for every two players that met, so that a
player who won every pair still has a finite rating; they are given as Elo points,
``400 log10(p_i / p_anchor)``, the anchor at 0. The interval of each rating is the 2.5th to
97.5th percentile over bootstrap resamples of each pairing's pairs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["Rating", "bradley_terry", "ratings"]

#: The pairs' outcomes by pairing: (i, j) → each pair's score for i (1, 0.5 or 0).
Games = Mapping[tuple[int, int], Sequence[float]]


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating in Elo points (the anchor at 0) and its bootstrap interval."""

    elo: float
    low: float
    high: float


def bradley_terry(count: int, games: Games, anchor: int = 0) -> np.ndarray:
    """Each of ``count`` players' rating in Elo points from ``games`` (see the module)."""
    wins = np.zeros((count, count))
    for (i, j), scores in games.items():
        won = float(sum(scores))
        wins[i, j] += won + 0.5  # one virtual draw a pairing
        wins[j, i] += len(scores) - won + 0.5
    played = wins + wins.T
    total = wins.sum(axis=1)
    strength = np.ones(count)
    for _ in range(10_000):
        ratio = played / (strength[:, None] + strength[None, :])
        np.fill_diagonal(ratio, 0.0)
        denominator = ratio.sum(axis=1)
        # a player who met no one keeps its strength: it has nothing to be fitted to
        new = np.where(denominator > 0, total / np.where(denominator > 0, denominator, 1), strength)
        new /= new[anchor]
        if np.allclose(new, strength, rtol=1e-12, atol=0):
            strength = new
            break
        strength = new
    return 400 * np.log10(strength)


def ratings(
    count: int, games: Games, anchor: int = 0, resamples: int = 200, seed: int = 0
) -> list[Rating]:
    """Each player's rating with its 95 % bootstrap interval (``resamples`` resamples of each
    pairing's pairs, drawn from ``seed``: the same games give the same intervals)."""
    elo = bradley_terry(count, games, anchor)
    rng = np.random.default_rng(seed)
    drawn = np.empty((resamples, count))
    for r in range(resamples):
        resampled = {
            key: [scores[k] for k in rng.integers(len(scores), size=len(scores))]
            for key, scores in games.items()
            if scores
        }
        drawn[r] = bradley_terry(count, resampled, anchor)
    low, high = np.percentile(drawn, [2.5, 97.5], axis=0)
    return [
        Rating(float(e), float(lo), float(hi)) for e, lo, hi in zip(elo, low, high, strict=True)
    ]
