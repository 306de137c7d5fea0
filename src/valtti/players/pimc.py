"""The PIMC player: Perfect-Information Monte Carlo with inference from the play.

For a decision it deals the hidden cards many times, consistently with everything public (the
exact ``Sampler``), weights each world by how likely the other seats' actual play was in it
(``players.likelihood``; by default under a model of this player's own play, fitted by
imitation: ``LearnedLikelihood.self_model``), keeps the heaviest, solves each exactly with all
hands open (the engine's double-dummy ``Solver``) for the match value of the deal
(``DealValue.match`` with ``players.equity``: near the target a team may need fewer points, not
more), and plays the action of best weighted mean value across the worlds. At ``hard`` that
value is blended with the search player's estimate of each action (``PimcBudget.blend``): the
two err differently, and their mean plays better than PIMC's alone.

``evaluate`` returns each legal action's estimate (``ActionEstimate``), best first, and keeps
what explains it in ``PimcPlayer.last``: every world solved, its hands, weight and the value
of each action in it (``Decision``).
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from valtti.engine import Action, Deal, Observation, Variant
from valtti.engine.solver import DealValue, Solver
from valtti.players.base import Player
from valtti.players.equity import match_equity
from valtti.players.knowledge import infer
from valtti.players.likelihood import LearnedLikelihood, Likelihood
from valtti.players.sampler import Hands, Sampler
from valtti.players.search import Budget, SearchPlayer
from valtti.players.spec import PlayerSpecError, PlayerSpecFault
from valtti.players.worlds import rebuild

__all__ = ["LEVELS", "ActionEstimate", "Decision", "PimcBudget", "PimcPlayer", "World"]

#: Values closer than this count as equal (the best action of a world may be several).
_TIE = 1e-9
#: Positions the solver is taken to search a second until it has been timed: a decision's
#: solves are given up where they would run past its time cap. ``valtti bench`` measures 10–12
#: million on a quiet core; about half that keeps the cap on a machine loaded twice over. After
#: each solve long enough to time, the player counts with the rate it saw (``PimcPlayer.rate``).
NODES_PER_SECOND = 6_000_000
#: Positions a solve must search before its rate is trusted (a few milliseconds' worth).
_TIMED_POSITIONS = 20_000
#: Visits of the blended search to an action after which its mean value is trusted.
_TRIED = 30


@functools.lru_cache(maxsize=64)
def equity_value(before: tuple[int, int], variant: Variant) -> DealValue:
    """What a deal is worth to NS for the match standing at ``before``: the change of match
    equity (``DealValue.match`` with ``players.equity``), as the solver values it here."""
    return DealValue.match(before, variant, match_equity(variant))


@dataclass(frozen=True, slots=True)
class PimcBudget:
    """How much one decision may solve.

    ``worlds``: per trick (1 to 9), the worlds solved at most; 0 where a whole deal is still too
    dear to solve, where the decision is the search player's within ``opening``. ``seconds``:
    a time cap: no world is begun that, costing as much as the dearest one so far, would end
    after it (at least one world is always solved). ``oversample``: worlds drawn for each one
    solved when inferring, of which the heaviest are kept. ``blend``: where worlds are solved,
    the weight of the search player's estimates (within ``opening``'s iterations and what is
    left of ``decision`` seconds) beside PIMC's; 0: PIMC's alone.
    """

    worlds: tuple[int, int, int, int, int, int, int, int, int]
    seconds: float
    opening: Budget
    oversample: int = 4
    blend: float = 0.0
    decision: float = 0.0

    def worlds_at(self, tricks_played: int) -> int:
        return self.worlds[min(tricks_played, 8)]


# PIMC and the search player err differently: from trick 3 on, a prototype adding the two
# estimates gained +0.11 game points and +0.029 match value a position [+0.012, +0.046] over
# PIMC's alone, in 400 positions played twice with the teams swapped (tools/phase_duel.py,
# docs/MEASUREMENTS.md). PIMC's cap leaves the search its share of the second.
# Solving a whole deal for the match takes the solver about 0.1–3 s in trick 1 (median 0.35 s)
# and up to 1.2 s in trick 2 (median 0.1 s), 5–45 ms a world in trick 3 and under 5 ms from
# trick 4 on (one core). In tricks 1–2 only 1 to 6 worlds would fit in the hard cap, and
# deciding there by so few measured no better than the search player (docs/MEASUREMENTS.md).
# Twice the worlds of trick 3 and after (the cap binding where they cost too much) scored
# +0.10 game points a deal over 400 single-deal pairs against the budget before.
LEVELS: dict[str, PimcBudget] = {
    "easy": PimcBudget((0, 0, 0, 4, 8, 8, 8, 8, 8), 0.2, Budget(300, 0.2), oversample=3),
    "medium": PimcBudget((0, 0, 4, 16, 24, 24, 24, 24, 24), 0.45, Budget(2_000, 0.45)),
    # The last world solved may end after the cap: the caps keep a decision under 1 s.
    "hard": PimcBudget(
        (0, 0, 16, 64, 128, 128, 128, 128, 128),
        0.6,
        Budget(10_000, 0.8),
        blend=1.0,
        decision=0.95,
    ),
}


@dataclass(frozen=True, slots=True)
class ActionEstimate:
    """One legal action across the worlds solved, for the mover's team.

    ``value``: the weighted mean match value (the change of NS's, here the mover's, match
    equity, from −2 to 2), or once ``PimcPlayer.blended``, its mean with the search player's;
    ``best_share``: the weighted share of worlds in which it is best or tied best; ``worlds``:
    the worlds solved.
    """

    action: Action
    value: float
    best_share: float
    worlds: int


@dataclass(frozen=True, slots=True)
class World:
    """One world solved: the hands now (N E S W), its weight (relative, > 0), and each legal
    action's exact value in it for the mover's team."""

    hands: Hands
    weight: float
    values: dict[Action, float]

    def deal(self, observation: Observation) -> Deal:
        """The whole deal of this world at the observed point."""
        return rebuild(observation, self.hands)


@dataclass(frozen=True, slots=True)
class Decision:
    """What one ``evaluate`` saw: the estimates, best first, and the worlds behind them."""

    estimates: tuple[ActionEstimate, ...]
    worlds: tuple[World, ...]
    drawn: int  #: worlds drawn before weighting and keeping the heaviest
    #: no world drawn agreed with the play under the likelihood, and they were weighted alike
    #: instead (it should never be: the true deal always agrees); counted in ``fallbacks``
    fallback: bool = False


class PimcPlayer(Player):
    """Plays the action of best weighted mean value over solved worlds (see the module).

    Where the budget solves no world (the first tricks) the search player decides. Deterministic
    for a seed as long as the time caps do not bind; ``evaluate`` always, with ``repeatable``.
    ``inference=False`` weights every world drawn the same (uniform worlds).
    """

    def __init__(
        self,
        budget: PimcBudget,
        seed: int | None = None,
        inference: bool = True,
        name: str = "pimc",
        likelihood: Likelihood | None = None,
        repeatable: bool = False,
    ) -> None:
        self.budget = budget
        self.rng = random.Random(seed)
        self.inference = inference
        self.name = name
        self.likelihood = likelihood or (LearnedLikelihood.self_model() if inference else None)
        self.solver = Solver()
        #: The seconds the budget is counted in: the machine's, or with ``repeatable`` the
        #: solver's positions at ``NODES_PER_SECOND`` (the same worlds for a seed, whatever
        #: the machine's speed or load). A test may put a fake clock here.
        self.repeatable = repeatable
        self.clock: Callable[[], float] = self._positions if repeatable else time.perf_counter
        #: Positions the solver searches a second on ``self.clock``, as last timed: on a slow or
        #: loaded machine fewer, so that a solve given up at the cap ends near it, not past it.
        #: With ``repeatable`` it stays ``NODES_PER_SECOND``.
        self.rate = float(NODES_PER_SECOND)
        self.opening = SearchPlayer(budget.opening, self.rng.randrange(1 << 62))
        #: The search player whose estimates are blended with PIMC's, valuing a deal for the
        #: match as the solver does; ``None`` where the budget does not blend.
        self.second = (
            SearchPlayer(budget.opening, self.rng.randrange(1 << 62), value=equity_value)
            if budget.blend
            else None
        )
        #: The last decision evaluated (``None`` before the first, or after a forced move).
        self.last: Decision | None = None
        #: Decisions whose worlds were weighted alike because the likelihood gave every world
        #: drawn nothing (``Decision.fallback``).
        self.fallbacks = 0

    def _positions(self) -> float:
        return self.solver.searched / NODES_PER_SECOND

    def choose(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        if len(legal) == 1 or not self.budget.worlds_at(len(observation.tricks)):
            self.last = None
            return legal[0] if len(legal) == 1 else self.opening.choose(observation)
        started = self.clock()
        deadline = started + self.budget.seconds
        estimates = self.evaluate(observation, deadline)
        if self.last is not None and self.last.worlds:
            if self.budget.blend:
                left = self.budget.decision - (self.clock() - started)
                estimates = self.blended(observation, estimates, left)
            return estimates[0].action
        # Not even one world could be solved in time: the search player decides in what is left.
        opening = self.opening.budget
        left = max(deadline - self.clock(), 0.05)
        self.opening.budget = Budget(opening.iterations, min(left, opening.seconds))
        try:
            return self.opening.choose(observation)
        finally:
            self.opening.budget = opening

    def evaluate(
        self, observation: Observation, deadline: float | None = None
    ) -> list[ActionEstimate]:
        """Each legal action's estimate, best value first (``ActionEstimate``).

        Without a ``deadline`` (an instant of ``self.clock``) it solves worlds within the
        budget's seconds and always at least one, even in the tricks where ``choose`` leaves the
        decision to the search player (a whole deal can take the solver seconds there). With
        one, as ``choose`` does, no solve runs past it: the worlds may be none.
        """
        legal = observation.legal_actions
        if not legal:
            raise ValueError(f"{observation.seat} is not to move")
        bounded = deadline is not None
        if deadline is None:
            deadline = self.clock() + self.budget.seconds
        weighted, drawn, fallback = self.worlds(observation)
        self.fallbacks += fallback
        base = rebuild(observation, weighted[0][0])
        value = equity_value(observation.score or (0, 0), observation.variant)
        total = {a: 0.0 for a in legal}
        best = {a: 0.0 for a in legal}
        solved: list[World] = []
        mass = 0.0
        slowest = 0.0  # the dearest world so far: the next may cost as much
        for hands, weight in weighted:
            start = self.clock()
            if solved and start + slowest > deadline:
                break
            world = base.with_hands(hands)
            limit = int(max(deadline - start, 0.0) * self.rate) + 1 if bounded else 0
            solved_here = self.solver.solve_within(world, value, limit)
            took = self.clock() - start
            if self.solver.nodes >= _TIMED_POSITIONS and took > 0 and not self.repeatable:
                self.rate = self.solver.nodes / took
            if solved_here is None:
                break  # this world would have run past the deadline
            values = {a: v for a, v in solved_here if a in total}
            slowest = max(slowest, took)
            top = max(values.values())
            for a, v in values.items():
                total[a] += weight * v
                if v >= top - _TIE:
                    best[a] += weight
            mass += weight
            solved.append(World(hands, weight, values))
        if not solved:
            estimates = [ActionEstimate(a, 0.0, 0.0, 0) for a in legal]
        else:
            estimates = sorted(
                (ActionEstimate(a, total[a] / mass, best[a] / mass, len(solved)) for a in legal),
                key=lambda e: -e.value,
            )
        self.last = Decision(tuple(estimates), tuple(solved), drawn, fallback)
        return estimates

    def blended(
        self, observation: Observation, estimates: list[ActionEstimate], seconds: float
    ) -> list[ActionEstimate]:
        """``estimates`` (PIMC's) with each value the weighted mean of PIMC's and the search
        player's (weight ``budget.blend``), best value first. The search has its budget's
        iterations within ``seconds`` (at least 0.05; with ``repeatable`` the iterations alone
        bound it). An action it tried fewer than ``_TRIED`` times counts at the least of its
        trusted values; if it trusts none, PIMC's estimates stand. ``last`` keeps the result.
        ``ValueError`` where the budget does not blend."""
        if self.second is None:
            raise ValueError("this player's budget does not blend (blend is 0)")
        budget = self.budget.opening
        # Repeatable: the iterations alone bound the search, so that a seed searches alike on
        # any machine (on this one 10,000 take about a quarter of a second).
        cap = 60.0 if self.repeatable else min(budget.seconds, max(seconds, 0.05))
        self.second.budget = Budget(budget.iterations, cap)
        means = {
            action: mean
            for action, mean, visits in self.second.evaluate(observation)
            if visits >= _TRIED
        }
        if not means:
            return estimates
        least = min(means.values())
        weight = self.budget.blend
        out = sorted(
            (
                replace(e, value=(e.value + weight * means.get(e.action, least)) / (1 + weight))
                for e in estimates
            ),
            key=lambda e: -e.value,
        )
        if self.last is not None:
            self.last = replace(self.last, estimates=tuple(out))
        return out

    def worlds(self, observation: Observation) -> tuple[list[tuple[Hands, float]], int, bool]:
        """The worlds to solve, heaviest first, with their weights; how many were drawn; and
        whether the likelihood gave them all nothing, so that they are weighted alike.

        Equal worlds drawn more than once are solved once, their weights added.
        """
        sampler = Sampler(infer(observation))
        want = max(1, self.budget.worlds_at(len(observation.tricks)))
        likelihood = self.likelihood if self.inference else None
        draws = want * (self.budget.oversample if likelihood is not None else 1)
        counts: dict[Hands, int] = {}
        for _ in range(draws):
            hands = sampler.sample(self.rng)
            counts[hands] = counts.get(hands, 0) + 1
        unique = list(counts)
        if likelihood is None:
            weights = [float(counts[h]) for h in unique]
        else:
            likely = likelihood.weights(observation, unique)
            weights = [counts[h] * float(w) for h, w in zip(unique, likely, strict=True)]
        order = sorted(range(len(unique)), key=lambda i: -weights[i])[:want]
        kept = [(unique[i], weights[i]) for i in order if weights[i] > 0]
        if not kept:  # no world drawn agrees with the play: should never be, and is counted
            return [(unique[i], float(counts[unique[i]])) for i in order], draws, True
        return kept, draws, False


#: What may follow a level in a spec, each at most once, in either order: ``-uniform`` weights
#: worlds uniformly (no inference); ``-repeatable`` counts time in solver positions
#: (``PimcPlayer(repeatable=True)``), so that a seed plays the same whatever the machine's load.
SUFFIXES = ("uniform", "repeatable")


def make_pimc_player(level: str | None, seed: int | None) -> Player:
    """``pimc:LEVEL[-uniform][-repeatable]``, LEVEL ``easy|medium|hard``: ``pimc:hard-uniform``."""
    spec = (level or "hard").lower()
    name, *rest = spec.split("-")
    if name not in LEVELS or len(set(rest)) < len(rest) or not set(rest) <= set(SUFFIXES):
        more = ("", "-uniform", "-repeatable", "-uniform-repeatable")
        options = [f"{lv}{m}" for lv in LEVELS for m in more]
        raise PlayerSpecError(PlayerSpecFault.UNKNOWN_LEVEL, "pimc", level, options)
    return PimcPlayer(
        LEVELS[name],
        seed,
        inference="uniform" not in rest,
        name=f"pimc:{spec}",
        repeatable="repeatable" in rest,
    )
