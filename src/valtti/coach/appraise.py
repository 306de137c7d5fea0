"""What a hint rests on: the deals it values and each legal action's value in each, within a
budget counted in solver work, so that the same position gives the same hint on any machine.

The deals are the hidden hands that agree with everything public (the exact ``Sampler``), each
weighted by how likely the other seats' actual play was in it (the PIMC player's likelihood).
Where there are no more of them than the hint's budget of ``deals``, every one is valued: the
hint is exact for that model of play. Otherwise ``_OVERSAMPLE`` times the budget are drawn
without replacement, from a seed derived from the position (``engine.seeds``: the public
history and the seat's own hand), and ``deals`` drawn from those by weight (systematic
resampling); a deal drawn twice is valued once and weighs twice. A value is the weighted mean
over the deals, a share a weighted share.

In each deal every legal action is valued for the mover's team in match equity
(``pimc.equity_value``): from trick 3 on by the exact double-dummy solver, each solve within
``NODE_CAP`` positions; in tricks 1 and 2, where a whole deal can take the solver seconds, the
line after the action is played on to the end of trick 3 by the heuristic player's rules of thumb
(``coach.playout``) and solved exactly from there where that takes at most ``PLAYOUT_CAP``
positions, else played on a trick more and solved from there, and so on (its error against
exact solves is in docs/MEASUREMENTS.md). A solve that would pass ``NODE_CAP`` is valued the
early way too, from the end of the trick being played.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Final

from valtti.coach.playout import play_to
from valtti.engine import Action, Deal, Observation
from valtti.engine.seeds import position_seed
from valtti.engine.solver import DealValue, Solver
from valtti.players.knowledge import infer
from valtti.players.likelihood import LearnedLikelihood
from valtti.players.pimc import equity_value
from valtti.players.sampler import Hands, Sampler
from valtti.players.worlds import rebuild

__all__ = [
    "DEALS",
    "EARLY_TRICKS",
    "NODE_CAP",
    "PLAYOUT_CAP",
    "SOLVED_FROM",
    "Appraisal",
    "Dealt",
    "appraise",
    "deals_for",
    "early_values",
]

#: The deals a hint samples at each level, per trick (1 to 9): at least 16 everywhere.
DEALS: Final[dict[str, tuple[int, ...]]] = {
    "easy": (16, 16, 16, 16, 16, 16, 16, 16, 16),
    "medium": (16, 16, 16, 24, 32, 32, 32, 32, 32),
    "hard": (16, 16, 16, 32, 48, 48, 48, 48, 48),
}


def deals_for(level: str, tricks_played: int) -> int:
    """The deals a hint at ``level`` samples with ``tricks_played`` tricks complete;
    ``ValueError`` for an unknown level."""
    if level not in DEALS:
        raise ValueError(f"unknown level {level!r}: levels are {', '.join(DEALS)}")
    return DEALS[level][min(tricks_played, 8)]


#: A position before this many tricks are complete is valued early: each line played on by the
#: heuristic player until ``SOLVED_FROM`` tricks are complete, and solved exactly from there.
EARLY_TRICKS: Final = 2
SOLVED_FROM: Final = 3
#: Positions one exact solve may search (about a fortieth of a second on one core).
NODE_CAP: Final = 250_000
#: Positions the solve after a playout may search before the line is played on a trick more:
#: the heuristic player's play to the end of trick 4 ranks moves about as well as an exact solve
#: from trick 3 at a tenth of the cost, so a solve is worth only what is cheap (MEASUREMENTS.md).
PLAYOUT_CAP: Final = 10_000
#: Draws weighed for each deal kept.
_OVERSAMPLE: Final = 4
#: Values closer than this are equal.
_TIE: Final = 1e-9


@dataclass(frozen=True, slots=True)
class Dealt:
    """One deal valued: the hands now (N E S W), each legal action's value in it for the
    mover's team, and its weight (the deals' weights add up to 1)."""

    hands: Hands
    values: dict[Action, float]
    weight: float = 1.0

    def deal(self, observation: Observation) -> Deal:
        """The whole deal at the observed point."""
        return rebuild(observation, self.hands)


@dataclass(frozen=True, slots=True)
class Appraisal:
    """The deals a hint rests on, and how a line is finished in them (``line``); ``until``:
    the tricks an early position's lines are played to by the heuristic player (else ``None``);
    ``score`` and ``deal_number``: the observation's, as the heuristic player reads them.

    ``possible``: how many deals agree with what the seat knows; ``exact``: every one of them
    is among ``deals``. ``inferred``: the deals are weighted by the likelihood of the play seen
    (not where nothing has been played yet). ``fallback``: no deal drawn agreed with the play
    under the likelihood, and they were weighted alike instead (it should never be: the true
    deal always agrees; a hint says so where it is).
    """

    deals: tuple[Dealt, ...]
    value: DealValue
    solver: Solver
    until: int | None
    score: tuple[int, int] = (0, 0)
    deal_number: int | None = None
    possible: int = 0
    exact: bool = False
    inferred: bool = False
    fallback: bool = False

    def mean(self, action: Action) -> float:
        """The weighted mean of ``action``'s value over the deals."""
        return sum(d.weight * d.values[action] for d in self.deals)

    def best_share(self, action: Action) -> float:
        """The weighted share of the deals in which ``action`` is best, a tie shared among the
        actions tied: the shares of all the actions add up to 1."""
        share = 0.0
        for d in self.deals:
            top = max(d.values.values())
            best = [a for a, v in d.values.items() if v >= top - _TIE]
            if action in best:
                share += d.weight / len(best)
        return min(1.0, share)  # the weights add up to 1 give or take the last bit

    @property
    def even(self) -> bool:
        """Whether every deal weighs the same."""
        return max(d.weight for d in self.deals) - min(d.weight for d in self.deals) < 1e-12

    def error(self, action: Action, other: Action) -> float:
        """The standard error of the weighted mean of ``action``'s value less ``other``'s: how
        far apart two moves' values may be by the luck of the draw; 0 where the hint is exact
        or rests on one deal."""
        if self.exact or len(self.deals) < 2:
            return 0.0
        gaps = [(d.weight, d.values[action] - d.values[other]) for d in self.deals]
        mean = sum(w * g for w, g in gaps)
        # The weighted variance of the gaps, with the effective number of deals for the mean.
        variance = sum(w * (g - mean) ** 2 for w, g in gaps)
        effective = 1.0 / sum(w * w for w, _ in gaps)
        if effective <= 1:
            return 0.0
        return math.sqrt(variance * effective / (effective - 1) / effective)

    def line(self, deal: Deal) -> list[Action]:
        """The rest of the deal from ``deal`` (not over) as a hint plays it out, within the
        solver's cap that its values had: in an early position by the heuristic player to ``until``
        tricks; then the solver's principal line where the position solves within the cap,
        else a trick more by the heuristic player, and so on (as the values were found)."""
        copy = deal.copy()
        if self.until is None:
            played: list[Action] = []
            until, cap = copy.tricks_played, NODE_CAP
        else:
            played = play_to(copy, self.until, self.score, self.deal_number)
            until, cap = self.until, PLAYOUT_CAP
        while not copy.is_over():
            if self.solver.solve_within(copy, self.value, cap) is not None:
                return [*played, *self.solver.line(copy, self.value)]
            until += 1
            played += play_to(copy, until, self.score, self.deal_number)
        return played


def appraise(observation: Observation, deals: int, solver: Solver | None = None) -> Appraisal:
    """At most ``deals`` deals for the seat to move in ``observation``, every possible one
    where there are no more, with each legal action's value in each (see the module).
    ``ValueError`` when the seat is not to move."""
    legal = observation.legal_actions
    if not legal:
        raise ValueError(f"{observation.seat} is not to move")
    value = equity_value(observation.score or (0, 0), observation.variant)
    solver = solver or Solver()
    sampler = Sampler(infer(observation))
    exact = sampler.count <= deals
    if exact:
        drawn = [sampler.world(n) for n in range(sampler.count)]
    else:
        rng = random.Random(position_seed(observation, "hint"))
        numbers = rng.sample(range(sampler.count), min(sampler.count, deals * _OVERSAMPLE))
        drawn = [sampler.world(n) for n in numbers]
    inferred = bool(observation.history)
    likely = _likelihoods(observation, drawn) if inferred else [1.0] * len(drawn)
    fallback = sum(likely) <= 0
    if fallback:
        likely = [1.0] * len(drawn)
    if exact:
        total = sum(likely)
        weighted = [(h, w / total) for h, w in zip(drawn, likely, strict=True)]
    else:
        weighted = _resampled(drawn, likely, deals, rng)
    base = rebuild(observation, weighted[0][0])
    score = observation.score or (0, 0)
    until = SOLVED_FROM if len(observation.tricks) < EARLY_TRICKS else None
    valued = tuple(
        _valued(base.with_hands(hands), hands, weight, value, solver, until, score,
                observation.deal_number)
        for hands, weight in weighted
    )  # fmt: skip
    return Appraisal(
        valued,
        value,
        solver,
        until,
        score,
        observation.deal_number,
        possible=sampler.count,
        exact=exact,
        inferred=inferred and not fallback,
        fallback=fallback,
    )


def _likelihoods(observation: Observation, drawn: list[Hands]) -> list[float]:
    """How likely the play seen makes each deal drawn, rounded: weights computed in floating
    point on another machine pick the same deals."""
    likely = LearnedLikelihood.self_model().weights(observation, drawn)
    return [round(float(w), 9) for w in likely]


def _resampled(
    drawn: list[Hands], weights: list[float], deals: int, rng: random.Random
) -> list[tuple[Hands, float]]:
    """``deals`` of ``drawn`` (each distinct) drawn in proportion to ``weights`` by systematic
    resampling; each deal once, in the order drawn, weighing the times it was drawn over
    ``deals``."""
    total = sum(weights)
    step = total / deals
    point = rng.random() * step
    times: dict[Hands, int] = {}
    reached = 0.0
    for hands, weight in zip(drawn, weights, strict=True):
        reached += weight
        while sum(times.values()) < deals and point < reached:
            times[hands] = times.get(hands, 0) + 1
            point += step
    kept = sum(times.values())
    if kept < deals:  # rounding at the very end
        last = next(h for h, w in reversed(list(zip(drawn, weights, strict=True))) if w > 0)
        times[last] = times.get(last, 0) + deals - kept
    return [(hands, n / deals) for hands, n in times.items()]


def _valued(
    deal: Deal,
    hands: Hands,
    weight: float,
    value: DealValue,
    solver: Solver,
    until: int | None,
    score: tuple[int, int],
    deal_number: int | None,
) -> Dealt:
    """Each legal action's value in ``deal`` for the mover's team: exactly, or with ``until``
    early (see the module)."""
    if until is None:
        solved = solver.solve_within(deal, value, NODE_CAP)
        if solved is not None:
            return Dealt(hands, dict(solved), weight)
        until = deal.tricks_played + 1
    return Dealt(hands, early_values(deal, value, solver, until, score, deal_number), weight)


def early_values(
    deal: Deal,
    value: DealValue,
    solver: Solver,
    until: int = SOLVED_FROM,
    score: tuple[int, int] = (0, 0),
    deal_number: int | None = None,
) -> dict[Action, float]:
    """Each legal action's value in ``deal`` (not over) for the mover's team, valued early: the
    line after it played on by the heuristic player (``score``, ``deal_number``: as it reads them)
    until ``until`` tricks are complete and solved exactly from there within ``PLAYOUT_CAP``
    positions, else played on a trick more, and so on."""
    mover = deal.current_player
    assert mover is not None
    sign = 1.0 if mover.team == 0 else -1.0
    values = {}
    for action in deal.legal_actions():
        after = deal.copy()
        after.apply(action)
        values[action] = sign * _played_on(after, value, solver, until, score, deal_number)
    return values


def _played_on(
    deal: Deal,
    value: DealValue,
    solver: Solver,
    until: int,
    score: tuple[int, int],
    deal_number: int | None,
) -> float:
    """NS's value of ``deal`` played on as ``early_values`` says (``deal`` is played on)."""
    while True:
        play_to(deal, until, score, deal_number)
        if deal.is_over():
            return value(deal)
        solved = solver.solve_within(deal, value, PLAYOUT_CAP)
        if solved is not None:
            best = max(v for _, v in solved)
            mover = deal.current_player
            assert mover is not None
            return best if mover.team == 0 else -best
        until += 1
