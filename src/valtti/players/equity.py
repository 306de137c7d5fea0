"""Match equity: what a match score is worth to NS, the objective near the target.

A team at 9 of 10 wants exactly one game point: three would send it back to 7 (RULES.md 6.2).
``match_equity(variant)`` says what each match score is worth: NS's chance of winning the
match minus EW's (+1 NS has won, −1 EW has, 0 even or a draw), with every deal from then on
drawn from one table of deal outcomes. The table (``data/outcomes.json``, written by
``python tools/equity_table.py``) holds how often each outcome class came up in
heuristic matches: (game points NS, game points EW, NS took a trick, EW took a trick),
symmetric between the teams. The match is then a Markov chain over the scores, with cycles
(overshoot, Porvoo), whose values are the solution of one linear system: the fixed point value
iteration converges to, found exactly.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from importlib import resources

import numpy as np

from valtti.engine import DealResult, Variant, score_deal

Score = tuple[int, int]
Outcome = tuple[int, int, bool, bool]

__all__ = ["Equity", "match_equity", "outcomes"]


@lru_cache(maxsize=1)
def outcomes() -> tuple[tuple[Outcome, float], ...]:
    """The shipped deal outcome classes with their probabilities (summing to 1)."""
    text = (resources.files("valtti.players") / "data" / "outcomes.json").read_text()
    rows = json.loads(text)["outcomes"]
    total = sum(int(row[4]) for row in rows)
    return tuple(((int(ns), int(ew), bool(a), bool(b)), int(n) / total) for ns, ew, a, b, n in rows)


def _after(before: Score, outcome: Outcome, variant: Variant) -> Score:
    ns, ew, took_ns, took_ew = outcome
    # Only the tricks (taken or not) and the game points matter to the match score.
    result = DealResult(
        tricks=(int(took_ns), int(took_ew)),
        card_points=(0, 0),
        marriage_points=(0, 0),
        last=None,
        game_points=(ns, ew),
    )
    return score_deal(before, result, variant).after


class Equity:
    """NS's match equity of every score of one variant: call it with a score (NS, EW)."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        target = variant.target
        size = target + 1
        draw = variant.both_on_target == "draw"
        values = np.zeros((size, size))
        open_states: list[Score] = []
        for a in range(size):
            for b in range(size):
                if (a == target) != (b == target):
                    values[a, b] = 1.0 if a == target else -1.0
                elif not (a == b == target and draw):
                    open_states.append((a, b))
        index = {s: i for i, s in enumerate(open_states)}
        n = len(open_states)
        # v = P v + r over the open states: (I - P) v = r.
        system = np.eye(n)
        reward = np.zeros(n)
        for i, state in enumerate(open_states):
            for outcome, p in outcomes():
                after = _after(state, outcome, variant)
                j = index.get(after)
                if j is None:
                    reward[i] += p * values[after]
                else:
                    system[i, j] -= p
        solved = np.linalg.solve(system, reward)
        for state, v in zip(open_states, solved, strict=True):
            values[state] = v
        # The table is symmetric: remove what rounding leaves of any asymmetry.
        self.values = np.clip((values - values.T) / 2, -1.0, 1.0)

    def __call__(self, score: Score) -> float:
        """NS's equity at ``score`` (NS, EW), each from 0 to the target."""
        a, b = score
        target = self.variant.target
        if not (0 <= a <= target and 0 <= b <= target):
            raise ValueError(f"no match score {score} with target {target}")
        return float(self.values[a, b])


def match_equity(variant: Variant) -> Callable[[Score], float]:
    """The ``Equity`` of ``variant``, computed once per target, overshoot and draw rule."""
    return _equity(variant.target, variant.overshoot_to, variant.both_on_target)


@lru_cache(maxsize=16)
def _equity(target: int, overshoot_to: int, both_on_target: str) -> Equity:
    return Equity(
        Variant(target=target, overshoot_to=overshoot_to, both_on_target=both_on_target)  # type: ignore[arg-type]
    )
