"""What a hint rests on: the deals it samples and each legal action's value in each, within a
budget counted in solver work, so that the same position gives the same hint on any machine.

The hidden cards are dealt from a seed derived from the position (``engine.seeds``:
the public history and the seat's own hand), many times over, consistently with everything
public (the exact ``Sampler``); each draw is weighted by how likely the other seats' actual play
was in it (the PIMC player's likelihood), and ``deals`` of them are resampled by weight, so the
deals kept count alike: a value is their plain mean, a share a count among them.

In each deal every legal action is valued for the mover's team in match equity
(``pimc.equity_value``): from trick 3 on by the exact double-dummy solver, each solve within
``NODE_CAP`` positions; in tricks 1 and 2, where a whole deal can take the solver seconds, the
line after the action is played on to the end of trick 3 by the quick player's rules of thumb
(``players.playout``) and solved exactly from there where that takes at most ``PLAYOUT_CAP``
positions, else played on a trick more and solved from there, and so on (its error against
exact solves is in docs/MEASUREMENTS.md). A solve that would pass ``NODE_CAP`` is valued the
early way too, from the end of the trick being played.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from valtti.engine import Action, Deal, Observation
from valtti.engine.seeds import position_seed
from valtti.engine.solver import DealValue, Solver
from valtti.players.knowledge import infer
from valtti.players.likelihood import LearnedLikelihood
from valtti.players.pimc import equity_value
from valtti.players.playout import play_to
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
#: quick player until ``SOLVED_FROM`` tricks are complete, and solved exactly from there.
EARLY_TRICKS: Final = 2
SOLVED_FROM: Final = 3
#: Positions one exact solve may search (about a fortieth of a second on one core).
NODE_CAP: Final = 250_000
#: Positions the solve after a playout may search before the line is played on a trick more:
#: the quick player's play to the end of trick 4 ranks moves about as well as an exact solve
#: from trick 3 at a tenth of the cost, so a solve is worth only what is cheap (MEASUREMENTS.md).
PLAYOUT_CAP: Final = 10_000
#: Draws weighed for each deal kept.
_OVERSAMPLE: Final = 4


@dataclass(frozen=True, slots=True)
class Dealt:
    """One sampled deal: the hands now (N E S W) and each legal action's value in it for the
    mover's team. Every deal weighs the same (``weight`` 1, as ``explain.SolvedWorld`` reads
    it)."""

    hands: Hands
    values: dict[Action, float]
    weight: float = 1.0

    def deal(self, observation: Observation) -> Deal:
        """The whole deal at the observed point."""
        return rebuild(observation, self.hands)


@dataclass(frozen=True, slots=True)
class Appraisal:
    """The deals a hint rests on, and how a line is finished in them (``line``); ``until``:
    the tricks an early position's lines are played to by the quick player (else ``None``);
    ``score`` and ``deal_number``: the observation's, as the quick player reads them."""

    deals: tuple[Dealt, ...]
    value: DealValue
    solver: Solver
    until: int | None
    score: tuple[int, int] = (0, 0)
    deal_number: int | None = None

    def mean(self, action: Action) -> float:
        return sum(d.values[action] for d in self.deals) / len(self.deals)

    def best_share(self, action: Action) -> float:
        """The share of the deals in which ``action`` is best or tied best."""
        best = sum(1 for d in self.deals if d.values[action] >= max(d.values.values()) - 1e-9)
        return best / len(self.deals)

    def line(self, deal: Deal) -> list[Action]:
        """The rest of the deal from ``deal`` (not over) as a hint plays it out, within the
        solver's cap that its values had: in an early position by the quick player to ``until``
        tricks; then the solver's principal line where the position solves within the cap,
        else a trick more by the quick player, and so on (as the values were found)."""
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
    """``deals`` sampled deals for the seat to move in ``observation`` with each legal action's
    value in each (see the module). ``ValueError`` when the seat is not to move."""
    legal = observation.legal_actions
    if not legal:
        raise ValueError(f"{observation.seat} is not to move")
    rng = random.Random(position_seed(observation, "hint"))
    value = equity_value(observation.score or (0, 0), observation.variant)
    solver = solver or Solver()
    kept = _resampled(observation, deals, rng)
    base = rebuild(observation, kept[0])
    score = observation.score or (0, 0)
    until = SOLVED_FROM if len(observation.tricks) < EARLY_TRICKS else None
    valued: dict[Hands, Dealt] = {}
    for hands in kept:
        if hands not in valued:
            deal = base.with_hands(hands)
            valued[hands] = _valued(
                deal, hands, value, solver, until, score, observation.deal_number
            )
    deals_kept = tuple(valued[h] for h in kept)
    return Appraisal(deals_kept, value, solver, until, score, observation.deal_number)


def _resampled(observation: Observation, deals: int, rng: random.Random) -> list[Hands]:
    """``deals`` hidden hands drawn in proportion to the likelihood of the play seen, by
    systematic resampling of ``_OVERSAMPLE`` times as many uniform draws."""
    sampler = Sampler(infer(observation))
    drawn = [sampler.sample(rng) for _ in range(deals * _OVERSAMPLE)]
    if observation.history:
        # Rounded: weights computed in floating point on another machine pick the same deals.
        likely = LearnedLikelihood.self_model().weights(observation, drawn)
        weights = [round(float(w), 9) for w in likely]
    else:
        weights = [1.0] * len(drawn)
    total = sum(weights)
    if total <= 0:  # no draw agrees with the play: cannot happen, but stay legal
        weights, total = [1.0] * len(drawn), float(len(drawn))
    step = total / deals
    point = rng.random() * step
    kept: list[Hands] = []
    reached = 0.0
    for hands, weight in zip(drawn, weights, strict=True):
        reached += weight
        while len(kept) < deals and point < reached:
            kept.append(hands)
            point += step
    while len(kept) < deals:  # rounding at the very end
        kept.append(drawn[-1])
    return kept


def _valued(
    deal: Deal,
    hands: Hands,
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
            return Dealt(hands, dict(solved))
        until = deal.tricks_played + 1
    return Dealt(hands, early_values(deal, value, solver, until, score, deal_number))


def early_values(
    deal: Deal,
    value: DealValue,
    solver: Solver,
    until: int = SOLVED_FROM,
    score: tuple[int, int] = (0, 0),
    deal_number: int | None = None,
) -> dict[Action, float]:
    """Each legal action's value in ``deal`` (not over) for the mover's team, valued early: the
    line after it played on by the quick player (``score``, ``deal_number``: as it reads them)
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
