"""Why a move is good: each legal action's value, the share of worlds where it is best, and the
main reason, found by playing out the principal lines of the double-dummy solver.

The PIMC player (``players.pimc``) values every legal action across sampled worlds. To say
*why*, the action is set against the best alternative (the best action against the best one
worth less, every other action against the best), and the worlds in which the two differ most
in value (weight times difference) are played to the deal's end along the solver's principal
line after each, as many as a budget of lines and time allows. What differs between the two
finished deals (the last trick and whose card took it, the victory point, each team's
marriages, Porvoo, the target reached or overshot) is weighed by how much of the value gap it
accounts for, world by world, and the difference that accounts for most is the reason. Facts
about the action itself come from the engine: which marriages a question's locks break
(``marriage_suits`` before and after), what a declaration scores.

What a hint says is ``players.reasons`` (a ``Reason``: a ``ReasonCode`` with its arguments,
English in ``str()``, each front end's words in its catalogue); how two finished lines differ,
and what each difference is worth, is ``players.differences``.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from valtti.engine import Action, Deal, Observation, Seat
from valtti.engine.solver import DealValue
from valtti.players.differences import (
    Args,
    Comparison,
    Difference,
    Line,
    LineOutcome,
    play_line,
)
from valtti.players.reasons import Explanation, Reason, ReasonCode

# Explanation, Reason and ReasonCode are read from here too (terminal.hints).
__all__ = [
    "EXPLAINED_LINES",
    "EXPLAIN_SECONDS",
    "NEGLIGIBLE",
    "OPENING_WORLDS",
    "Estimate",
    "Explanation",
    "Reason",
    "ReasonCode",
    "SolvedWorld",
    "explain",
    "explain_worlds",
]

#: Solver lines played out per explanation, two for each world an action is compared in.
EXPLAINED_LINES: Final = 160
#: Seconds spent on playing worlds out, after the PIMC player's decision.
EXPLAIN_SECONDS: Final = 1.0
#: Where the player's budget solves no world (the first tricks, where its search player
#: decides), the worlds a hint solves at most within the budget's seconds (at least one).
OPENING_WORLDS: Final = 4
#: Below this share of the value gap, no single difference "accounts" for it.
_STANDS_OUT: Final = 0.2
#: Card points a line must win or lose on average for the swing to be a reason.
_SWING_POINTS: Final = 10
#: The action's own facts are its reason when they account for this share of the top's amount.
_OWN_SHARE: Final = 0.5
#: Values closer than this are equal.
_TIE: Final = 1e-9
#: Hints show values to the hundredth: an action worth less than the best by less than half of
#: one is as good as it to the reader, and no one difference should be named as its loss (it
#: said "gives up the last trick" of a move that showed the best move's value).
NEGLIGIBLE: Final = 0.005

#: Which of two differences that account for as much of a gap is the reason.
_PRIORITY: Final = tuple(ReasonCode)
#: The differences that are the action's own doing rather than a consequence of the play.
_OWN_FACTS: Final = (ReasonCode.DECLARES, ReasonCode.LOCKS_MARRIAGE)


class Estimate(Protocol):
    """What an explanation needs of an action's estimate (the PIMC player's ``ActionEstimate``)."""

    @property
    def action(self) -> Action: ...
    @property
    def value(self) -> float: ...
    @property
    def best_share(self) -> float: ...
    @property
    def worlds(self) -> int: ...


class SolvedWorld(Protocol):
    """What an explanation needs of a world the PIMC player solved (its ``World``)."""

    @property
    def weight(self) -> float: ...
    @property
    def values(self) -> Mapping[Action, float]: ...
    def deal(self, observation: Observation) -> Deal: ...


def explain_worlds(
    observation: Observation,
    estimates: Sequence[Estimate],
    worlds: Sequence[SolvedWorld],
    line: Line,
    value: DealValue,
    lines: int = EXPLAINED_LINES,
    seconds: float | None = None,
    line_seconds: float = 0.0,
    clock: Callable[[], float] = time.perf_counter,
) -> list[Explanation]:
    """Each estimate with its reason, in the order of ``estimates`` (best first).

    The best action is set against the best one worth less by ``NEGLIGIBLE`` or more (when
    there is none, nothing stands out); every other against the best, and one within
    ``NEGLIGIBLE`` of the best is as good. Only worlds in
    which the two differ in value account for the gap: for each action, those that account
    for most of it (weight times the difference) are played out first after both actions
    along ``line``, taking turns between the actions, until ``lines`` lines are played; with
    ``seconds``, no pair is begun that would not be played out in that time, judging by the
    lines so far, and before the first by ``line_seconds`` a line (an early position costs the
    solver far more than a late one), seconds of ``clock``. ``value`` values a finished deal
    for NS as the estimates do.
    """
    mover = observation.seat
    if len(estimates) == 1:
        (only,) = estimates
        reason = Reason(ReasonCode.ONLY, mover)
        return [Explanation(only.action, only.value, only.best_share, only.worlds, reason)]
    deadline = None if seconds is None else clock() + seconds
    before = observation.score or (0, 0)
    variant = observation.variant
    compare = Comparison(mover, before, variant, value)
    best = estimates[0]
    worse = next((e for e in estimates if e.value < best.value - NEGLIGIBLE), None)
    pairs: dict[Action, tuple[Estimate, Estimate]] = {}
    if worse is not None:
        pairs[best.action] = (best, worse)
    for e in estimates:
        if e is not best and e.value < best.value - NEGLIGIBLE:
            pairs[e.action] = (e, best)
    total = sum(w.weight for w in worlds) or 1.0

    def telling(mine: Action, other: Action) -> list[int]:
        differ = [i for i, w in enumerate(worlds) if abs(w.values[mine] - w.values[other]) > _TIE]
        return sorted(
            differ,
            key=lambda i: -worlds[i].weight * abs(worlds[i].values[mine] - worlds[i].values[other]),
        )

    order = {a: telling(a, other.action) for a, (_, other) in pairs.items()}
    deals: dict[int, Deal] = {}
    outcomes: dict[tuple[int, Action], LineOutcome] = {}

    def outcome(i: int, action: Action) -> LineOutcome:
        if (i, action) not in outcomes:
            if i not in deals:
                deals[i] = worlds[i].deal(observation)
            outcomes[i, action] = play_line(deals[i], action, line, before, variant)
        return outcomes[i, action]

    seen: dict[Action, list[_Seen]] = {a: [] for a in pairs}
    spent = 0.0  # seconds the lines so far took
    longest = max((len(o) for o in order.values()), default=0)
    turns = [(a, o[rank]) for rank in range(longest) for a, o in order.items() if rank < len(o)]
    for action, i in turns:
        other = pairs[action][1].action
        new = ((i, action) not in outcomes) + ((i, other) not in outcomes)
        if new:
            per_line = spent / len(outcomes) if outcomes else line_seconds
            if len(outcomes) + new > lines or (
                deadline is not None and clock() + new * per_line > deadline
            ):
                continue  # out of lines or time: only pairs already played out are compared
        started = clock()
        mine, theirs = outcome(i, action), outcome(i, other)
        spent += clock() - started
        gap = compare.gap(mine, theirs)
        found = compare.differences(deals[i], action, mine, theirs, gap)
        swing = mine.result.card_points[mover.team] - theirs.result.card_points[mover.team]
        seen[action].append(_Seen(worlds[i].weight / total, found, gap, swing))
    out = []
    for estimate in estimates:
        pair = pairs.get(estimate.action)
        if pair is not None:
            reason = _main_reason(mover, seen[estimate.action], estimate is best)
        elif estimate is best:
            reason = Reason(ReasonCode.BEST_ON_AVERAGE, mover)
        else:
            reason = Reason(ReasonCode.AS_GOOD, mover)
        out.append(
            Explanation(
                estimate.action, estimate.value, estimate.best_share, estimate.worlds, reason
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class _Seen:
    """One world's comparison of an action's line with its alternative's."""

    weight: float  #: the world's share of the weight of all worlds solved
    differences: list[Difference]
    gap: float  #: the action's value less the alternative's, for the mover's team
    swing: int  #: the card points the mover's team takes more


def _main_reason(mover: Seat, worlds: Sequence[_Seen], is_best: bool) -> Reason:
    """The difference that accounts for most of the value gap over the weighted ``worlds``, on
    the side of the gap: what the best action gains, what any other loses. The action's own
    fact (a declaration, a lock) is the reason if it accounts for half as much as the top; of
    two that account for as much, the one first in ``_PRIORITY``."""
    side = 1.0 if is_best else -1.0
    amount: dict[ReasonCode, float] = defaultdict(float)
    shown: dict[ReasonCode, float] = defaultdict(float)
    args: dict[ReasonCode, dict[Args, float]] = defaultdict(lambda: defaultdict(float))
    for world in worlds:
        for code, value, code_args in world.differences:
            amount[code] += world.weight * value
            shown[code] += world.weight
            args[code][code_args] += world.weight
    # The gap of the worlds compared: what their differences can account for.
    compared = sum(w.weight * w.gap for w in worlds)
    standing = [
        (round(side * a, 9), -_PRIORITY.index(code), code)
        for code, a in amount.items()
        if side * a > _TIE
    ]
    if standing:
        top, _, code = max(standing)
        # What the action itself does (a declaration, a question's locks) comes before the
        # consequences it shares the gap with: the last trick lost for want of trumps.
        own = [(a, p, c) for a, p, c in standing if c in _OWN_FACTS and a >= _OWN_SHARE * top]
        if own:
            top, _, code = max(own)
        if top >= _STANDS_OUT * abs(compared):
            chosen = max(args[code].items(), key=lambda kv: kv[1])[0]
            return Reason(
                code,
                mover,
                card=chosen.card,
                suit=chosen.suit,
                points=chosen.points,
                partner=chosen.partner,
                share=min(1.0, shown[code]),
            )
    weight = sum(w.weight for w in worlds)
    swing = sum(w.weight * w.swing for w in worlds) / weight if weight else 0.0
    if side * swing >= _SWING_POINTS:
        code = ReasonCode.WINS_POINTS if swing > 0 else ReasonCode.LOSES_POINTS
        return Reason(code, mover, points=round(abs(swing)))
    return Reason(ReasonCode.BEST_ON_AVERAGE if is_best else ReasonCode.WORSE_ON_AVERAGE, mover)


def explain(
    observation: Observation,
    level: str = "hard",
    seed: int | None = None,
    lines: int = EXPLAINED_LINES,
    seconds: float = EXPLAIN_SECONDS,
    repeatable: bool = False,
) -> list[Explanation]:
    """Each legal action of the seat to move, best first, from the PIMC player at ``level``:
    its value, the share of sampled worlds where it is best, and the main reason, found by
    playing out at most ``lines`` solver lines in the worlds the player solved, within
    ``seconds`` after the player's own decision (``explain_worlds``; where the solver is slow,
    early in a deal, few or none are, and the reasons say only how the values compare).

    ``value`` is the PIMC player's: the expected change of the mover's team's match equity
    (its chance of winning the match less the opponents', ``players.equity``), from −2 to 2;
    where the level blends the search player's estimate with PIMC's, their weighted mean (the
    reasons and best shares stay PIMC's, found in its worlds). ``repeatable`` counts the seconds
    in solver positions (``PimcPlayer``): for a seed, the same hint on any machine.
    ``ValueError`` when the seat is not to move or the level is unknown.
    """
    from valtti.players.pimc import LEVELS, PimcPlayer, equity_value

    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: levels are {', '.join(LEVELS)}")
    # The match equity first: computing it once a process is not the player's decision time.
    value = equity_value(observation.score or (0, 0), observation.variant)
    budget = LEVELS[level]
    dear = not budget.worlds_at(len(observation.tricks))
    player = PimcPlayer(budget.at_least(OPENING_WORLDS), seed, repeatable=repeatable)
    started = player.clock()
    estimates = player.evaluate(observation)
    if budget.blend and not dear and player.last is not None and player.last.worlds:
        left = budget.decision - (player.clock() - started)
        estimates = player.blended(observation, estimates, left)
    decision = player.last
    solved = () if decision is None else decision.worlds
    # Where the player's budget solves worlds, lines are cheap; where a whole deal is too dear
    # for it (the first tricks), a line costs about what solving a world did.
    per_line = (player.clock() - started) / max(1, len(solved)) if dear else 0.0
    return explain_worlds(
        observation,
        estimates,
        solved,
        lambda deal: player.solver.line(deal, value),
        value,
        lines,
        seconds,
        per_line,
        player.clock,
    )
