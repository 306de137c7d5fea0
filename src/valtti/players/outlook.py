"""The heuristic player's outlook on the match: what the points it may make in this deal are
worth to its team's standing, and what it plays for in the rest of the deal.

What a deal's points do to the match is the engine's (``match_score_after``: Porvoo, overshoot,
the target, a draw). Near the target the player aims at exactly the game points it needs (more
send the team back to ``overshoot_to``), leaving the victory point or the last trick to the other
team when it must: a ``Plan`` says what a card point is then worth (``players.heuristic``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from valtti.engine import (
    DECK_POINTS,
    HALF_DECK_POINTS,
    Observation,
    Outcome,
    Team,
    match_score_after,
    takes_victory,
)

#: Card points one game point is worth when the match is far from the target.
GAME_POINT: Final = 40.0
#: How much nearer a team's chance of the match is per game point nearer the target.
STEP: Final = 0.04
#: What a drawn match is worth (a win is 1, a loss 0): the player plays to win.
_DRAW: Final = 0.25
#: The chances of the last trick without and with the victory point, by the aims (play for the
#: victory point, play for the last trick), as measured in play against the random player: the
#: two go together, since both come from taking tricks.
_LAST_ODDS: Final = {
    (1, 1): (0.52, 0.86),
    (1, 0): (0.33, 0.66),
    (0, 1): (0.34, 0.41),
    (0, 0): (0.19, 0.43),
}
#: Share of the card points still out the team takes when shedding them and when playing for them,
#: and the spread of its card points at the end per square root of the points still out.
_SHARE: Final = (0.455, 0.59)
_SPREAD: Final = 2.1
#: The chance that a marriage held now is made later in the deal.
_LATER: Final = 0.6
#: How much better in standing new aims must be before they replace those of the deal's start.
_MARGIN: Final = 0.03


def _normal(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _bell(x: float) -> float:
    return math.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)


@dataclass(frozen=True, slots=True)
class Plan:
    """What the team plays for in the rest of the deal.

    ``points``: what one card point is worth now, in card points far from the target: what it
    adds to the chance of the victory point (over half the card points) times what that is
    worth when the last
    trick goes as aimed; 0 once the victory point is settled, negative when it would overshoot.
    """

    value: float  #: the expected standing in the match, 0 (lost) to 1 (won)
    points: float


class Outlook:
    """The match around the deal: the team's standing as a function of the points it makes.

    What a deal's points do to the match is the engine's (``match_score_after``: Porvoo,
    overshoot, the target, a draw); the standing is 1 when the team has won, 0 when the other
    team has, ``_DRAW`` for a draw, and otherwise leans by ``STEP`` per game point of distance
    between the scores. Aims are whether to play for the victory point and for the last trick,
    or to leave them.
    """

    def __init__(self, observation: Observation, team: Team) -> None:
        self.variant = observation.variant
        self.team = team
        self.score = observation.score or (0, 0)
        result = observation.result
        self.marriages = result.marriage_points
        ours, theirs = result.card_points[team], result.card_points[team.other]
        #: Whether the victory point is decided: taken, or out of reach.
        self.settled = takes_victory(ours) or not takes_victory(DECK_POINTS - theirs)
        won = 1.0 if takes_victory(ours) else 0.0
        #: By aim (0 shed card points, 1 take them): the chance of the victory point now and at
        #: the start of the deal, and what one card point more adds to it now.
        self.victory, self.density = ((won, won), (0.0, 0.0))
        self.prior = self.victory
        if not self.settled:
            self.victory, self.density = self._victory(ours, DECK_POINTS - ours - theirs)
            self.prior, _ = self._victory(0, DECK_POINTS)
        #: ``_after`` by its arguments: the same few outcomes are weighed over and over.
        self._afters: dict[tuple[int, int, int], float] = {}

    @staticmethod
    def _victory(ours: int, left: int) -> tuple[tuple[float, float], tuple[float, float]]:
        """The chances of the victory point (more than half the card points) when shedding
        them and when taking them, and their rise per card point, with ``ours`` taken and
        ``left`` still out."""
        spread = _SPREAD * math.sqrt(left) + 1.0
        shed, take = ((ours + share * left - (HALF_DECK_POINTS + 0.5)) / spread for share in _SHARE)
        return (_normal(shed), _normal(take)), (_bell(shed) / spread, _bell(take) / spread)

    def standing(self, after: tuple[int, int], outcome: Outcome) -> float:
        """The standing when the match score becomes ``after`` (by team) with ``outcome``, as
        the engine scores a deal (``match_score_after``)."""
        if outcome == "draw":
            return _DRAW
        if outcome is not None:
            return 1.0 if outcome == self.team.name else 0.0
        return 0.5 + STEP * (after[self.team] - after[self.team.other])

    def _after(self, extra: int, victory: int, last: int) -> float:
        """The standing when the team makes ``extra`` marriage points and the victory and last
        trick go as given (each to the other team when not to this one), both teams taking a
        trick."""
        key = (extra, victory, last)
        standing = self._afters.get(key)
        if standing is None:
            team = self.team
            points = [0, 0]
            points[team] = self.marriages[team] + extra + victory + last
            points[team.other] = self.marriages[team.other] + (1 - victory) + (1 - last)
            after, outcome = match_score_after(
                self.score, (points[0], points[1]), (True, True), self.variant
            )
            standing = self._afters[key] = self.standing(after, outcome)
        return standing

    def _expect(self, extra: int, p_victory: float, lasts: tuple[float, float]) -> float:
        """The expected standing; ``lasts``: the chances of the last trick without and with the
        victory point."""
        value = 0.0
        for victory, pv in ((0, 1.0 - p_victory), (1, p_victory)):
            pl = lasts[victory]
            value += pv * (
                pl * self._after(extra, victory, 1) + (1 - pl) * self._after(extra, victory, 0)
            )
        return value

    def _value(self, extra: int, more: int, aims: tuple[int, int], victory: float) -> float:
        """The expected standing with ``extra`` marriage points made and ``more`` to make."""
        lasts = _LAST_ODDS[aims]
        value = self._expect(extra + more, victory, lasts)
        if more:
            # Marriages still to make need a window, and may be broken first.
            value = _LATER * value + (1.0 - _LATER) * self._expect(extra, victory, lasts)
        return value

    def _aims(
        self, victory: tuple[float, float], extra: int, later: int
    ) -> tuple[float, tuple[int, int], int]:
        """The best (value, aims, marriage points to add)."""
        best: tuple[float, tuple[int, int], int] = (-1.0, (1, 1), 0)
        for aims in _LAST_ODDS:
            for more in range(later, -1, -1):
                value = self._value(extra, more, aims, victory[aims[0]])
                if value > best[0] + 1e-12:
                    best = (value, aims, more)
        return best

    def plan(self, extra: int, later: int) -> Plan:
        """The best plan after making ``extra`` marriage points now, with up to ``later`` more
        marriage points the team may still choose to make in this deal.

        The aims chosen from the odds at the start of the deal stand unless the card points
        taken since make others clearly better: both partners then aim alike, and the aims do not
        sway with every trick.
        """
        value, aims, more = self._aims(self.victory, extra, later)
        _, steady_aims, steady_more = self._aims(self.prior, extra, later)
        steady = self._value(extra, steady_more, steady_aims, self.victory[steady_aims[0]])
        if value < steady + _MARGIN:
            value, aims, more = steady, steady_aims, steady_more
        points = 0.0
        if not self.settled:
            # A card point counts as much as it moves the chance of the victory point, and that
            # as much as the victory point is worth when the last trick goes as aimed.
            made = extra + more
            stake = self._after(made, 1, aims[1]) - self._after(made, 0, aims[1])
            points = stake / STEP * self.density[aims[0]] * GAME_POINT
        return Plan(value, points)
