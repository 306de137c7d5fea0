"""What differs between two finished lines of play, and what each difference is worth.

A hint (``coach.explain``) plays an action and its alternative to the deal's end along the
solver's principal line in one world; this module sets the two finished deals side by side: the
last trick and whose card took it, the victory point, each team's marriages, Porvoo, the target
reached or overshot. A match-level difference accounts for the whole value gap of the world;
otherwise each game-point column is put in place of the other line's on its own, and the change
of value is its share. Facts about the action itself come from the engine: which marriages a
question's locks break (``marriage_suits`` before and after), what a declaration scores.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from valtti.coach.reasons import ReasonCode
from valtti.engine import (
    Action,
    ActionKind,
    Card,
    Deal,
    Seat,
    Suit,
    Team,
    Variant,
    marriage_suits,
    score_deal,
)
from valtti.engine.match import Outcome
from valtti.engine.solver import MAX_GAME_POINTS, DealValue
from valtti.engine.views import DealResult

#: A principal line: the actions both teams play from a position to the deal's end.
Line = Callable[[Deal], Sequence[Action]]


@dataclass(frozen=True, slots=True)
class LineOutcome:
    """What one finished line did, as the reasons need it."""

    result: DealResult
    after: tuple[int, int]
    outcome: Outcome  #: how the match stands after it (the engine's ``match_outcome``)
    porvoo: tuple[bool, bool]
    overshoot: tuple[bool, bool]
    last_card: Card | None  #: the card that took trick 9
    last_seat: Seat | None  #: who played it
    marriages: dict[Suit, tuple[Team, int]]


#: A difference between two lines: its code, the value it accounts for, its arguments.
Difference = tuple[ReasonCode, float, "Args"]


@dataclass(frozen=True, slots=True)
class Args:
    """The arguments a difference gives its reason (``reasons.Reason``)."""

    card: Card | None = None
    suit: Suit | None = None
    points: int | None = None
    partner: bool = False


def play_line(
    world: Deal, action: Action, line: Line, before: tuple[int, int], variant: Variant
) -> LineOutcome:
    """``action`` played in ``world``, then ``line`` to the deal's end: what the finished deal
    did, scored from the match score ``before``."""
    deal = world.copy()
    deal.apply(action)
    for a in line(deal):
        deal.apply(a)
    result = deal.result()
    scored = score_deal(before, result, variant)
    last = deal.tricks[-1]
    card = next((c for s, c in last.plays if s == last.winner), None)
    return LineOutcome(
        result,
        scored.after,
        scored.outcome,
        scored.porvoo,
        scored.overshoot,
        card,
        last.winner,
        {m.suit: (m.team, m.points) for m in deal.marriages},
    )


class Comparison:
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
        self.overshoot_to = variant.overshoot_to

    def value(self, result: DealResult) -> float:
        """What a finished deal's result is worth to the mover's team."""
        gp, tricks = result.game_points, result.tricks
        return self.sign * self.deal_value.at(gp[0], gp[1], tricks[0] > 0, tricks[1] > 0)

    def gap(self, mine: LineOutcome, theirs: LineOutcome) -> float:
        return self.value(mine.result) - self.value(theirs.result)

    def differences(
        self, world: Deal, action: Action, mine: LineOutcome, theirs: LineOutcome, gap: float
    ) -> list[Difference]:
        """The differences of ``mine`` from ``theirs`` with the value each accounts for.

        A match-level difference (the target, a draw, overshooting, Porvoo) accounts for the
        whole gap of the world, named as it is on the gap's side (``match_level``); otherwise
        each game-point column is put in place of the other line's on its own, and the change
        of value is its share.
        """
        if not gap:
            return []
        level = self.match_level(mine, theirs, gap > 0)
        if level is not None:
            return [(level[0], gap, level[1])]
        team = self.team
        opp = team.other
        found: list[tuple[ReasonCode, tuple[int, int], Args]] = []
        mine_last, theirs_last = mine.result.last, theirs.result.last
        if mine_last != theirs_last:
            if mine_last is team:
                if mine.last_seat == self.mover:
                    found.append((ReasonCode.KEEPS_LAST, (1, -1), Args(card=mine.last_card)))
                else:
                    found.append((ReasonCode.TAKES_LAST, (1, -1), Args(partner=True)))
            else:
                card = theirs.last_card if theirs.last_seat == self.mover else None
                found.append((ReasonCode.GIVES_UP_LAST, (-1, 1), Args(card=card)))
        mine_victory, theirs_victory = mine.result.victory, theirs.result.victory
        if mine_victory != theirs_victory:
            change = (
                (mine_victory is team) - (theirs_victory is team),
                (mine_victory is opp) - (theirs_victory is opp),
            )
            gained = change[0] - change[1] > 0
            code = ReasonCode.TAKES_VICTORY if gained else ReasonCode.GIVES_UP_VICTORY
            found.append((code, change, Args()))
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
                    found.append((code, change, Args(suit=suit, points=made_points)))
                elif suit in broken:
                    args = Args(suit=suit, partner=broken[suit])
                    found.append((ReasonCode.LOCKS_MARRIAGE, change, args))
                else:
                    found.append((ReasonCode.MISSES_MARRIAGE, change, Args(suit=suit)))
            made_points = made[1] if made is not None and made[0] is opp else 0
            lost_points = lost[1] if lost is not None and lost[0] is opp else 0
            if made_points != lost_points:
                code = (
                    ReasonCode.ALLOWS_MARRIAGE
                    if made_points > lost_points
                    else ReasonCode.STOPS_MARRIAGE
                )
                found.append((code, (0, made_points - lost_points), Args(suit=suit)))
        base = self.value(theirs.result)
        return [
            (code, self.value(_moved(theirs.result, team, change)) - base, args)
            for code, change, args in found
        ]

    def match_level(
        self, mine: LineOutcome, theirs: LineOutcome, better: bool
    ) -> tuple[ReasonCode, Args] | None:
        """How the match stands differently after ``mine`` than after ``theirs``, said on the
        side of the gap (``better``: ``mine`` is worth more to the mover's team): never a
        move made "best" by what is bad for its team. The first that holds: an overshoot (the
        cause before what it causes), a draw against the match going on or another end, a win
        or a loss, an overshoot avoided, Porvoo; ``None`` where the match stands alike."""
        team, opp = self.team, self.team.other
        back = Args(points=self.overshoot_to)
        if mine.overshoot[team] and not theirs.overshoot[team] and not better:
            return ReasonCode.OVERSHOOTS, back
        if mine.overshoot[opp] and not theirs.overshoot[opp] and better:
            return ReasonCode.OPPONENTS_OVERSHOOT, back
        ends, other = mine.outcome, theirs.outcome
        if ends == "draw" and other != "draw":
            return (ReasonCode.SECURES_DRAW if better else ReasonCode.ENDS_IN_DRAW), Args()
        if other == "draw" and ends is None:
            return (ReasonCode.AVOIDS_DRAW if better else ReasonCode.MISSES_DRAW), Args()
        won, lost = str(team), str(opp)
        if ends == won and other != won and better:
            return ReasonCode.REACHES_TARGET, Args()
        if other == won and ends != won and not better:
            return ReasonCode.MISSES_TARGET, Args()
        if ends == lost and other != lost and not better:
            return ReasonCode.LETS_OPPONENTS_WIN, Args()
        if other == lost and ends != lost and better:
            return ReasonCode.STOPS_OPPONENTS, Args()
        if theirs.overshoot[team] and not mine.overshoot[team] and better:
            return ReasonCode.AVOIDS_OVERSHOOT, Args()
        if theirs.overshoot[opp] and not mine.overshoot[opp] and not better:
            return ReasonCode.OPPONENTS_AVOID_OVERSHOOT, Args()
        # Porvoo from 0 costs nothing that the game points do not already say.
        risked = [o.porvoo[team] and self.before[team] > 0 for o in (mine, theirs)]
        if risked[1] and not risked[0] and better:
            return ReasonCode.SAVES_PORVOO, Args()
        if risked[0] and not risked[1] and not better:
            return ReasonCode.RISKS_PORVOO, Args()
        sent = [o.porvoo[opp] and self.before[opp] > 0 for o in (mine, theirs)]
        if sent[0] and not sent[1] and better:
            return ReasonCode.SENDS_TO_PORVOO, Args()
        if sent[1] and not sent[0] and not better:
            return ReasonCode.FREES_OPPONENTS, Args()
        return None


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
