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

A ``Reason`` is data, a ``ReasonCode`` with its arguments, like the engine's ``Refusal``:
``str()`` is English, and front ends translate the code (``terminal.hints``).
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, Protocol

from valtti.engine import (
    Action,
    ActionKind,
    Card,
    Deal,
    Observation,
    Seat,
    Suit,
    Team,
    Variant,
    marriage_suits,
    score_deal,
)
from valtti.engine.solver import MAX_GAME_POINTS, DealValue
from valtti.engine.views import DealResult

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


class ReasonCode(StrEnum):
    """What makes an action better or worse than the best alternative; listed in the order in
    which the reason is chosen between two differences that account for as much.

    Arguments each code sets on its ``Reason`` (besides ``seat`` and ``share``): ``card`` for
    ``KEEPS_LAST`` (the mover's card that takes trick 9) and optionally ``GIVES_UP_LAST`` (the
    one that would have); ``suit`` for the marriage codes; ``points`` for ``DECLARES`` and
    ``MAKES_MARRIAGE`` (2 trumps, 1 little trump), ``OVERSHOOTS`` (the score it falls back
    to) and ``WINS_POINTS``/``LOSES_POINTS`` (card points); ``partner`` for
    ``LOCKS_MARRIAGE`` (the partner's marriage rather than the mover's) and ``TAKES_LAST``.
    """

    DECLARES = "declares"  #: declares ``suit``: trumps, 2 points, or a little trump, 1 (4.4)
    LOCKS_MARRIAGE = "locks_marriage"  #: the question's locks break ``suit``'s marriage (4.3)
    REACHES_TARGET = "reaches_target"  #: the team ends exactly on the target (6.3)
    MISSES_TARGET = "misses_target"  #: the team does not reach the target
    OVERSHOOTS = "overshoots"  #: the team goes past the target, back to ``points``
    AVOIDS_OVERSHOOT = "avoids_overshoot"  #: the team does not go past the target (6.2)
    STOPS_OPPONENTS = "stops_opponents"  #: the opponents do not reach the target
    LETS_OPPONENTS_WIN = "lets_opponents_win"  #: the opponents reach the target
    SAVES_PORVOO = "saves_porvoo"  #: the team takes a trick and keeps its score (6.1)
    RISKS_PORVOO = "risks_porvoo"  #: the team takes no trick: its score to 0
    SENDS_TO_PORVOO = "sends_to_porvoo"  #: the opponents take no trick
    FREES_OPPONENTS = "frees_opponents"  #: the opponents escape Porvoo
    MAKES_MARRIAGE = "makes_marriage"  #: the team makes ``suit``'s marriage, ``points``
    MISSES_MARRIAGE = "misses_marriage"  #: the team does not make ``suit``'s marriage
    STOPS_MARRIAGE = "stops_marriage"  #: the opponents do not make ``suit``'s marriage
    ALLOWS_MARRIAGE = "allows_marriage"  #: the opponents make ``suit``'s marriage
    KEEPS_LAST = "keeps_last"  #: the mover's ``card`` takes the last trick (5.1)
    TAKES_LAST = "takes_last"  #: the mover's team takes the last trick
    GIVES_UP_LAST = "gives_up_last"  #: the last trick goes to the opponents
    TAKES_VICTORY = "takes_victory"  #: more than 60 card points (5.1)
    GIVES_UP_VICTORY = "gives_up_victory"  #: the victory point is lost
    WINS_POINTS = "wins_points"  #: the team takes ``points`` card points more
    LOSES_POINTS = "loses_points"  #: the team takes ``points`` card points fewer
    ONLY = "only"  #: the only legal action
    BEST_ON_AVERAGE = "best_on_average"  #: the best, with no one difference standing out
    AS_GOOD = "as_good"  #: as good as the best
    WORSE_ON_AVERAGE = "worse_on_average"  #: worse, with no one difference standing out


#: Which of two differences that account for as much of a gap is the reason.
_PRIORITY: Final = tuple(ReasonCode)
#: The differences that are the action's own doing rather than a consequence of the play.
_OWN_FACTS: Final = (ReasonCode.DECLARES, ReasonCode.LOCKS_MARRIAGE)


#: The engine's English for each code (``str(reason)``); front ends have their own words.
_ENGLISH: Final = {
    ReasonCode.DECLARES: "declares {suit}: trumps, 2 points",
    ReasonCode.LOCKS_MARRIAGE: "its locks break {whose}'s {suit} marriage",
    ReasonCode.REACHES_TARGET: "{team} reach the target exactly",
    ReasonCode.MISSES_TARGET: "{team} miss the target",
    ReasonCode.OVERSHOOTS: "{team} overshoot the target, back to {points}",
    ReasonCode.AVOIDS_OVERSHOOT: "{team} avoid overshooting the target",
    ReasonCode.STOPS_OPPONENTS: "stops {opponents} reaching the target",
    ReasonCode.LETS_OPPONENTS_WIN: "lets {opponents} reach the target",
    ReasonCode.SAVES_PORVOO: "saves {team} from Porvoo",
    ReasonCode.RISKS_PORVOO: "risks Porvoo for {team}",
    ReasonCode.SENDS_TO_PORVOO: "sends {opponents} to Porvoo",
    ReasonCode.FREES_OPPONENTS: "lets {opponents} escape Porvoo",
    ReasonCode.MAKES_MARRIAGE: "{team} make the {suit} marriage (+{points})",
    ReasonCode.MISSES_MARRIAGE: "{team} miss the {suit} marriage",
    ReasonCode.STOPS_MARRIAGE: "stops {opponents}' {suit} marriage",
    ReasonCode.ALLOWS_MARRIAGE: "lets {opponents} make the {suit} marriage",
    ReasonCode.KEEPS_LAST: "keeps {card} for the last trick",
    ReasonCode.TAKES_LAST: "{team} take the last trick",
    ReasonCode.GIVES_UP_LAST: "gives up the last trick",
    ReasonCode.TAKES_VICTORY: "{team} take the victory point (over 60)",
    ReasonCode.GIVES_UP_VICTORY: "{team} lose the victory point",
    ReasonCode.WINS_POINTS: "{team} win {points} card points more",
    ReasonCode.LOSES_POINTS: "{team} lose {points} card points",
    ReasonCode.ONLY: "the only legal move",
    ReasonCode.BEST_ON_AVERAGE: "the best on average",
    ReasonCode.AS_GOOD: "as good as the best",
    ReasonCode.WORSE_ON_AVERAGE: "worse on average",
}


@dataclass(frozen=True, slots=True)
class Reason:
    """The main reason for an action's value: a code and the facts it names.

    Arguments a code does not use are ``None`` (``partner``: ``False``); see ``ReasonCode``.
    """

    code: ReasonCode
    seat: Seat  #: the player to move, whose action it is
    card: Card | None = None
    suit: Suit | None = None
    points: int | None = None
    partner: bool = False  #: the fact is about the mover's partner, not the mover
    #: The share of the weight of the worlds solved in which the difference shows (a world not
    #: played out counts as not showing it).
    share: float = 1.0

    def __str__(self) -> str:
        if self.code is ReasonCode.DECLARES and self.points == 1:
            text = "declares {suit}: little trump, 1"
        else:
            text = _ENGLISH[self.code]
        team = self.seat.team
        return text.format(
            card=self.card,
            suit=self.suit,
            points=self.points,
            team=team,
            opponents=team.other,
            whose=self.seat.partner if self.partner else self.seat,
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form: ``code``, ``text`` (English), ``share`` and each argument set,
        cards, suits and seats as RECORD.md tokens."""
        out: dict[str, Any] = {"code": str(self.code), "text": str(self), "seat": str(self.seat)}
        if self.card is not None:
            out["card"] = str(self.card)
        if self.suit is not None:
            out["suit"] = str(self.suit)
        if self.points is not None:
            out["points"] = self.points
        if self.partner:
            out["partner"] = True
        out["share"] = round(self.share, 3)
        return out


@dataclass(frozen=True, slots=True)
class Explanation:
    """One legal action's estimate and why."""

    action: Action
    value: float  #: the PIMC player's value for the mover's team (see ``explain``)
    best_share: float  #: the weighted share of sampled worlds where it is best, 0 to 1
    worlds: int  #: the worlds the estimate is over
    reason: Reason

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": str(self.action),
            "value": round(self.value, 4) + 0.0,  # + 0.0: a value just below 0 is 0, not -0
            "best_share": round(self.best_share, 3),
            "worlds": self.worlds,
            "reason": self.reason.to_dict(),
        }


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


#: A principal line: the actions both teams play from a position to the deal's end.
Line = Callable[[Deal], Sequence[Action]]


@dataclass(frozen=True, slots=True)
class _Outcome:
    """What one finished line did, as the reasons need it."""

    result: DealResult
    after: tuple[int, int]
    porvoo: tuple[bool, bool]
    overshoot: tuple[bool, bool]
    last_card: Card | None  #: the card that took trick 9
    last_seat: Seat | None  #: who played it
    marriages: dict[Suit, tuple[Team, int]]


#: A difference between two lines: its code, the value it accounts for, its arguments.
_Difference = tuple[ReasonCode, float, "_Args"]


@dataclass(frozen=True, slots=True)
class _Args:
    card: Card | None = None
    suit: Suit | None = None
    points: int | None = None
    partner: bool = False


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
    compare = _Comparison(mover, before, variant, value)
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
    outcomes: dict[tuple[int, Action], _Outcome] = {}

    def outcome(i: int, action: Action) -> _Outcome:
        if (i, action) not in outcomes:
            if i not in deals:
                deals[i] = worlds[i].deal(observation)
            outcomes[i, action] = _play(deals[i], action, line, before, variant)
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
    differences: list[_Difference]
    gap: float  #: the action's value less the alternative's, for the mover's team
    swing: int  #: the card points the mover's team takes more


def _play(
    world: Deal, action: Action, line: Line, before: tuple[int, int], variant: Variant
) -> _Outcome:
    deal = world.copy()
    deal.apply(action)
    for a in line(deal):
        deal.apply(a)
    result = deal.result()
    scored = score_deal(before, result, variant)
    last = deal.tricks[-1]
    card = next((c for s, c in last.plays if s == last.winner), None)
    return _Outcome(
        result,
        scored.after,
        scored.porvoo,
        scored.overshoot,
        card,
        last.winner,
        {m.suit: (m.team, m.points) for m in deal.marriages},
    )


class _Comparison:
    """What differs between the lines of two actions in one world, and what each difference is
    worth to the mover's team."""

    def __init__(
        self, mover: Seat, before: tuple[int, int], variant: Variant, value: DealValue
    ) -> None:
        self.mover = mover
        self.team = mover.team
        self.before = before
        self.deal_value = value
        self.sign = 1.0 if self.team is Team.NS else -1.0
        self.events = _events(self.team, before, variant)
        self.overshoot_to = variant.overshoot_to

    def value(self, result: DealResult) -> float:
        """What a finished deal's result is worth to the mover's team."""
        gp, tricks = result.game_points, result.tricks
        return self.sign * self.deal_value.at(gp[0], gp[1], tricks[0] > 0, tricks[1] > 0)

    def gap(self, mine: _Outcome, theirs: _Outcome) -> float:
        return self.value(mine.result) - self.value(theirs.result)

    def differences(
        self, world: Deal, action: Action, mine: _Outcome, theirs: _Outcome, gap: float
    ) -> list[_Difference]:
        """The differences of ``mine`` from ``theirs`` with the value each accounts for.

        A match-level difference (the target, overshooting, Porvoo) accounts for the whole gap
        of the world; otherwise each game-point column is put in place of the other line's on
        its own, and the change of value is its share.
        """
        if not gap:
            return []
        team = self.team
        if mine.overshoot[team] and not theirs.overshoot[team]:
            # Said before the target missed: it is why the target is missed.
            return [(ReasonCode.OVERSHOOTS, gap, _Args(points=self.overshoot_to))]
        for good, better, worse in self.events:
            if good(mine) != good(theirs):
                return [(better if good(mine) else worse, gap, _Args())]
        opp = team.other
        found: list[tuple[ReasonCode, tuple[int, int], _Args]] = []
        mine_last, theirs_last = mine.result.last, theirs.result.last
        if mine_last != theirs_last:
            if mine_last is team:
                if mine.last_seat == self.mover:
                    found.append((ReasonCode.KEEPS_LAST, (1, -1), _Args(card=mine.last_card)))
                else:
                    found.append((ReasonCode.TAKES_LAST, (1, -1), _Args(partner=True)))
            else:
                card = theirs.last_card if theirs.last_seat == self.mover else None
                found.append((ReasonCode.GIVES_UP_LAST, (-1, 1), _Args(card=card)))
        mine_victory, theirs_victory = mine.result.victory, theirs.result.victory
        if mine_victory != theirs_victory:
            change = (
                (mine_victory is team) - (theirs_victory is team),
                (mine_victory is opp) - (theirs_victory is opp),
            )
            gained = change[0] - change[1] > 0
            code = ReasonCode.TAKES_VICTORY if gained else ReasonCode.GIVES_UP_VICTORY
            found.append((code, change, _Args()))
        broken = _broken(world, action)
        for suit in Suit:
            made, lost = mine.marriages.get(suit), theirs.marriages.get(suit)
            if made == lost:
                continue
            made_points = made[1] if made is not None and made[0] is team else 0
            lost_points = lost[1] if lost is not None and lost[0] is team else 0
            if made_points != lost_points:
                change = (made_points - lost_points, 0)
                if made_points > lost_points:
                    declares = action.kind is ActionKind.DECLARE and action.suit == suit
                    code = ReasonCode.DECLARES if declares else ReasonCode.MAKES_MARRIAGE
                    found.append((code, change, _Args(suit=suit, points=made_points)))
                elif suit in broken:
                    args = _Args(suit=suit, partner=broken[suit])
                    found.append((ReasonCode.LOCKS_MARRIAGE, change, args))
                else:
                    found.append((ReasonCode.MISSES_MARRIAGE, change, _Args(suit=suit)))
            made_points = made[1] if made is not None and made[0] is opp else 0
            lost_points = lost[1] if lost is not None and lost[0] is opp else 0
            if made_points != lost_points:
                code = (
                    ReasonCode.ALLOWS_MARRIAGE
                    if made_points > lost_points
                    else ReasonCode.STOPS_MARRIAGE
                )
                found.append((code, (0, made_points - lost_points), _Args(suit=suit)))
        base = self.value(theirs.result)
        return [
            (code, self.value(_moved(theirs.result, team, change)) - base, args)
            for code, change, args in found
        ]


def _moved(result: DealResult, team: Team, change: tuple[int, int]) -> DealResult:
    """``result`` with ``change`` added to the game points of ``team`` and of the other."""
    points = list(result.game_points)
    points[team] = min(MAX_GAME_POINTS, max(0, points[team] + change[0]))
    points[team.other] = min(MAX_GAME_POINTS, max(0, points[team.other] + change[1]))
    return DealResult(
        result.tricks,
        result.card_points,
        result.marriage_points,
        result.last,
        (points[0], points[1]),
        result.victory,
    )


def _broken(world: Deal, action: Action) -> dict[Suit, bool]:
    """The marriages that the locks of the question ``action`` break in ``world``, each with
    whether it is the partner's (RULES.md 4.3); the engine says which marriages are eligible."""
    if action.kind not in (ActionKind.ASK_WHOLE, ActionKind.ASK_HALF):
        return {}
    mover = world.current_player
    assert mover is not None  # a legal action has a mover
    after = world.copy()
    after.apply(action)
    declared_before = [m.suit for m in world.marriages]
    declared_after = [m.suit for m in after.marriages]
    out: dict[Suit, bool] = {}
    for seat, partner in ((mover.partner, True), (mover, False)):
        eligible = marriage_suits(world.hand(seat), seat, declared_before, world.locked)
        still = marriage_suits(after.hand(seat), seat, declared_after, after.locked)
        for suit in set(eligible) - set(still) - set(declared_after):
            out[suit] = partner
    return out


#: One match-level fact: whether a finished line has its good side, and the codes for having
#: the good side where the other line has the bad, and the other way round.
_Event = tuple[Callable[[_Outcome], bool], ReasonCode, ReasonCode]


def _events(team: Team, before: tuple[int, int], variant: Variant) -> list[_Event]:
    """The match-level facts, most decisive first."""
    opp = team.other
    target = variant.target
    # Porvoo from 0 costs nothing that the game points do not already say.
    return [
        (lambda o: o.after[team] == target, ReasonCode.REACHES_TARGET, ReasonCode.MISSES_TARGET),
        (
            lambda o: o.after[opp] != target,
            ReasonCode.STOPS_OPPONENTS,
            ReasonCode.LETS_OPPONENTS_WIN,
        ),
        (lambda o: not o.overshoot[team], ReasonCode.AVOIDS_OVERSHOOT, ReasonCode.OVERSHOOTS),
        (
            lambda o: not (o.porvoo[team] and before[team] > 0),
            ReasonCode.SAVES_PORVOO,
            ReasonCode.RISKS_PORVOO,
        ),
        (
            lambda o: o.porvoo[opp] and before[opp] > 0,
            ReasonCode.SENDS_TO_PORVOO,
            ReasonCode.FREES_OPPONENTS,
        ),
    ]


def _main_reason(mover: Seat, worlds: Sequence[_Seen], is_best: bool) -> Reason:
    """The difference that accounts for most of the value gap over the weighted ``worlds``, on
    the side of the gap: what the best action gains, what any other loses. The action's own
    fact (a declaration, a lock) is the reason if it accounts for half as much as the top; of
    two that account for as much, the one first in ``_PRIORITY``."""
    side = 1.0 if is_best else -1.0
    amount: dict[ReasonCode, float] = defaultdict(float)
    shown: dict[ReasonCode, float] = defaultdict(float)
    args: dict[ReasonCode, dict[_Args, float]] = defaultdict(lambda: defaultdict(float))
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
