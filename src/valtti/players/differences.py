"""What differs between two finished lines of play, and what each difference is worth.

A hint (``players.explain``) plays an action and its alternative to the deal's end along the
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
from valtti.engine.solver import MAX_GAME_POINTS, DealValue
from valtti.engine.views import DealResult
from valtti.players.reasons import ReasonCode

#: A principal line: the actions both teams play from a position to the deal's end.
Line = Callable[[Deal], Sequence[Action]]


@dataclass(frozen=True, slots=True)
class LineOutcome:
    """What one finished line did, as the reasons need it."""

    result: DealResult
    after: tuple[int, int]
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
        self.events = _events(self.team, before, variant)
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

        A match-level difference (the target, overshooting, Porvoo) accounts for the whole gap
        of the world; otherwise each game-point column is put in place of the other line's on
        its own, and the change of value is its share.
        """
        if not gap:
            return []
        team = self.team
        if mine.overshoot[team] and not theirs.overshoot[team]:
            # Said before the target missed: it is why the target is missed.
            return [(ReasonCode.OVERSHOOTS, gap, Args(points=self.overshoot_to))]
        for good, better, worse in self.events:
            if good(mine) != good(theirs):
                return [(better if good(mine) else worse, gap, Args())]
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
_Event = tuple[Callable[[LineOutcome], bool], ReasonCode, ReasonCode]


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
