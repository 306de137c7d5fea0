"""Why a move is good: each legal action's value, the share of worlds where it is best, and the
main reason, found by playing out the principal lines of the double-dummy solver.

A hint values every legal action across sampled deals (``coach.appraise``: the PIMC
player's way, within a budget of solver work and from a seed derived from the position, so the
same position gives the same hint anywhere). To say *why*, the action is set against the best
alternative (the best action against the best one worth less, every other action against the
best), and the worlds in which the two differ in value are played to the deal's end along the
hint's line after each (most telling first, as many as a budget of lines allows). What differs
between the two finished deals (the last trick and whose card took it, the victory point, each
team's marriages, Porvoo, the target reached or overshot) is weighed by how much of the value
gap it accounts for, world by world, and the difference that accounts for most is the reason,
with the share of all the hint's deals in which it shows (``Reason.share``, ``Reason.shown``:
a deal not played out counts as not showing it, so that every share of a hint is over the
same deals; certain only where every deal shows it, the one case a front end words it as
certain). Two moves whose values are within about two standard errors of each other are about
equal, as far as the deals can tell: neither gets a decisive reason. Facts about the action
itself come from the engine: which marriages a question's locks break (``marriage_suits``
before and after), what a declaration scores.

What a hint says is ``coach.reasons`` (a ``Reason``: a ``ReasonCode`` with its arguments,
English in ``str()``, each front end's words in its catalogue); how two finished lines differ,
and what each difference is worth, is ``coach.differences``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final, Protocol

from valtti.coach.appraise import Appraisal, appraise, deals_for
from valtti.coach.differences import (
    Args,
    Comparison,
    Difference,
    Line,
    LineOutcome,
    play_line,
)
from valtti.coach.reasons import Explanation, Hint, Reason, ReasonCode
from valtti.engine import Action, Deal, Observation, Seat
from valtti.engine.solver import DealValue
from valtti.players.pimc import ActionEstimate

# Explanation, Hint, Reason and ReasonCode are read from here too (terminal.hints).
__all__ = [
    "CHANCE",
    "EARLY_LINES",
    "EXPLAINED_LINES",
    "LINE_POSITIONS",
    "NEGLIGIBLE",
    "Estimate",
    "Explanation",
    "Hint",
    "Reason",
    "ReasonCode",
    "SolvedWorld",
    "explain",
    "explain_worlds",
]

#: Lines played out per explanation, two for each world an action is compared in (one where
#: the alternative's line was played already): enough for every deal of every action's pair
#: at the hint's most deals, so that a reason's share counts every deal.
EXPLAINED_LINES: Final = 1_000
#: Solver positions the lines of one explanation may search (about a tenth of a second on one
#: core): where lines are dear (trick 3 and 4), a reason's share is of the deals examined.
LINE_POSITIONS: Final = 1_000_000
#: Lines played out in an early position (``appraise.EARLY_TRICKS``), where each costs the
#: solver some milliseconds from the end of trick 3: a share is then of the deals examined.
EARLY_LINES: Final = 64
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
#: Standard errors within which two moves' values are alike, as far as the deals can tell.
CHANCE: Final = 2.0

#: Whether two actions' values are within chance of each other (``Appraisal.error``).
Close = Callable[[Action, Action], bool]

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
    """What an explanation needs of a world valued: a hint's sampled deal (``appraise.Dealt``)
    or one the PIMC player solved (its ``World``)."""

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
    work: tuple[Callable[[], int], int] | None = None,
    close: Close | None = None,
) -> list[Explanation]:
    """Each estimate with its reason, in the order of ``estimates`` (best first).

    The best action is set against the best one worth less by ``NEGLIGIBLE`` or more (when
    there is none, nothing stands out); every other against the best, and one within
    ``NEGLIGIBLE`` of the best is as good. Where ``close`` says two so set are within chance
    of each other, the action is about equal, with no decisive reason. The worlds are examined
    in their order (a sample's order), every pair in turn: only worlds in which the two differ
    in value account for the gap, and there both actions are played out along ``line``, until
    ``lines`` lines are played (a pair that would pass it is examined no further) and, with
    ``work`` (a counter of solver positions and a limit), until the counter has grown by the
    limit. A reason's share is of all the worlds, by weight: one not examined does not show it.
    ``value`` values a finished deal for NS as the estimates do. A single estimate is the only
    legal move: it has no value and no share.
    """
    mover = observation.seat
    if len(estimates) == 1:
        (only,) = estimates
        reason = Reason(ReasonCode.ONLY, mover)
        return [Explanation(only.action, None, None, 0, reason)]
    before = observation.score or (0, 0)
    variant = observation.variant
    compare = Comparison(mover, before, variant, value)
    best = estimates[0]
    worse = next((e for e in estimates if e.value < best.value - NEGLIGIBLE), None)
    pairs: dict[Action, tuple[Estimate, Estimate]] = {}
    alike: set[Action] = set()
    for e, rival in [(best, worse), *((e, best) for e in estimates[1:])]:
        if rival is None or (e.value >= best.value - NEGLIGIBLE and e is not best):
            continue
        if close is not None and close(e.action, rival.action):
            alike.add(e.action)
        else:
            pairs[e.action] = (e, rival)
    total = sum(w.weight for w in worlds) or 1.0
    deals: dict[int, Deal] = {}
    outcomes: dict[tuple[int, Action], LineOutcome] = {}

    def outcome(i: int, action: Action) -> LineOutcome:
        if (i, action) not in outcomes:
            if i not in deals:
                deals[i] = worlds[i].deal(observation)
            outcomes[i, action] = play_line(deals[i], action, line, before, variant)
        return outcomes[i, action]

    start = 0 if work is None else work[0]()

    def spent() -> bool:
        return work is not None and work[0]() - start >= work[1]

    seen: dict[Action, list[_Seen]] = {a: [] for a in pairs}
    stopped: set[Action] = set()
    # The deals in the order they were sampled, every pair in turn: where the lines run out,
    # the deals not examined count as not showing the reason.
    for i, world in enumerate(worlds):
        for action, (_, alternative) in pairs.items():
            if action in stopped:
                continue
            other = alternative.action
            if abs(world.values[action] - world.values[other]) > _TIE:
                new = ((i, action) not in outcomes) + ((i, other) not in outcomes)
                if new and (len(outcomes) + new > lines or spent()):
                    stopped.add(action)  # out of lines: the deals examined so far stand
                    continue
                mine, theirs = outcome(i, action), outcome(i, other)
                gap = compare.gap(mine, theirs)
                found = compare.differences(deals[i], action, mine, theirs, gap)
                swing = mine.result.card_points[mover.team] - theirs.result.card_points[mover.team]
                seen[action].append(_Seen(world.weight / total, found, gap, swing))
            # A deal where the two are worth the same shows no difference that counts.
    out = []
    for estimate in estimates:
        pair = pairs.get(estimate.action)
        if pair is not None:
            reason = _main_reason(mover, seen[estimate.action], estimate is best, len(worlds))
        elif estimate.action in alike:
            reason = Reason(ReasonCode.ABOUT_EQUAL, mover)
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


def _main_reason(mover: Seat, worlds: Sequence[_Seen], is_best: bool, deals: int) -> Reason:
    """The difference that accounts for most of the value gap over the weighted ``worlds``
    compared, on the side of the gap: what the best action gains, what any other loses. The
    action's own fact (a declaration, a lock) is the reason if it accounts for half as much as
    the top; of two that account for as much, the one first in ``_PRIORITY``. Its share is of
    all the hint's ``deals`` (weights adding up to 1), and ``shown`` how many of them show
    it."""
    side = 1.0 if is_best else -1.0
    amount: dict[ReasonCode, float] = defaultdict(float)
    shown: dict[ReasonCode, float] = defaultdict(float)
    count: dict[ReasonCode, int] = defaultdict(int)
    args: dict[ReasonCode, dict[Args, float]] = defaultdict(lambda: defaultdict(float))
    for world in worlds:
        for code in {code for code, _, _ in world.differences}:
            count[code] += 1
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
                deals=deals,
                shown=count[code],
            )
    weight = sum(w.weight for w in worlds)
    swing = sum(w.weight * w.swing for w in worlds) / weight if weight else 0.0
    if side * swing >= _SWING_POINTS:
        code = ReasonCode.WINS_POINTS if swing > 0 else ReasonCode.LOSES_POINTS
        return Reason(code, mover, points=round(abs(swing)))
    return Reason(ReasonCode.BEST_ON_AVERAGE if is_best else ReasonCode.WORSE_ON_AVERAGE, mover)


def explain(observation: Observation, level: str = "hard") -> Hint:
    """Each legal action of the seat to move, best first: its value, the share of the deals
    where it is best and the main reason with the share of the deals that show it; and what
    they rest on.

    The deals and values are ``coach.appraise``'s at ``level``'s budget for the trick
    (``appraise.DEALS``; every possible deal where there are no more), the reasons
    ``explain_worlds``'s: all counted in solver work and seeded from the position, so the
    same position gives the same hint on any machine and under any load. A value is the
    weighted mean change of the mover's team's match equity (its chance of winning the match
    less the opponents', ``players.equity``, from −2 to 2) over the deals. The only legal move
    is explained as such, with nothing valued. ``ValueError`` when the seat is not to move or
    the level is unknown.
    """
    deals = deals_for(level, len(observation.tricks))
    legal = observation.legal_actions
    if not legal:
        raise ValueError(f"{observation.seat} is not to move")
    if len(legal) == 1:
        only = Explanation(legal[0], None, None, 0, Reason(ReasonCode.ONLY, observation.seat))
        return Hint((only,))
    appraisal = appraise(observation, deals)
    count = len(appraisal.deals)
    estimates = sorted(
        (ActionEstimate(a, appraisal.mean(a), appraisal.best_share(a), count) for a in legal),
        key=lambda e: -e.value,
    )
    lines = EXPLAINED_LINES if appraisal.until is None else EARLY_LINES
    work = (lambda: appraisal.solver.searched, LINE_POSITIONS)
    explained = explain_worlds(
        observation,
        estimates,
        appraisal.deals,
        appraisal.line,
        appraisal.value,
        lines,
        work,
        close=within_chance(appraisal),
    )
    best, second = explained[0].action, explained[1].action
    moves = tuple(
        replace(e, error=appraisal.error(e.action, second if e.action == best else best))
        for e in explained
    )
    return Hint(
        moves,
        count,
        appraisal.possible,
        appraisal.exact,
        appraisal.even,
        appraisal.inferred,
        appraisal.fallback,
    )


def within_chance(appraisal: Appraisal) -> Close:
    """Whether two actions' values in ``appraisal`` are within ``CHANCE`` standard errors of
    each other (never where the appraisal is exact: its values are the deals' own)."""

    def close(action: Action, other: Action) -> bool:
        gap = abs(appraisal.mean(action) - appraisal.mean(other))
        return gap < CHANCE * appraisal.error(action, other)

    return close
