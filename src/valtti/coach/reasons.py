"""What a hint says: of each move its ``Reason``, a ``ReasonCode`` with its arguments, and its
``Explanation`` (the move's value, its share of deals where it is best, the reason); of the whole
its ``Hint`` (the moves, and the deals they rest on).

A ``Reason`` is data, like the engine's ``Refusal``: ``str()`` is English, and front ends
translate the code (``terminal.hints``). Which reason a move has is found by playing lines out
(``coach.explain``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from valtti.engine import Action, Card, Seat, Suit


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
    OVERSHOOTS = "overshoots"  #: the team goes past the target, back to ``points`` (6.2)
    OPPONENTS_OVERSHOOT = "opponents_overshoot"  #: the opponents go past it, back to ``points``
    REACHES_TARGET = "reaches_target"  #: the team alone ends on the target: it wins (6.3)
    MISSES_TARGET = "misses_target"  #: the team does not win where it would have
    STOPS_OPPONENTS = "stops_opponents"  #: the opponents do not win where they would have
    LETS_OPPONENTS_WIN = "lets_opponents_win"  #: the opponents alone end on the target
    SECURES_DRAW = "secures_draw"  #: the match ends drawn, better than going on (6.3)
    ENDS_IN_DRAW = "ends_in_draw"  #: the match ends drawn, worse than going on
    AVOIDS_DRAW = "avoids_draw"  #: the match goes on, better than a draw
    MISSES_DRAW = "misses_draw"  #: the match goes on, worse than a draw
    AVOIDS_OVERSHOOT = "avoids_overshoot"  #: the team does not go past the target
    OPPONENTS_AVOID_OVERSHOOT = "opponents_avoid_overshoot"  #: the opponents do not go past it
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
    #: within about two standard errors of the best (the best: of the next): alike, as far as
    #: the deals can tell
    ABOUT_EQUAL = "about_equal"
    WORSE_ON_AVERAGE = "worse_on_average"  #: worse, with no one difference standing out


#: The engine's English for each code (``str(reason)``); front ends have their own words.
_ENGLISH: Final = {
    ReasonCode.DECLARES: "declares {suit}: trumps, 2 points",
    ReasonCode.LOCKS_MARRIAGE: "its locks break {whose}'s {suit} marriage",
    ReasonCode.OVERSHOOTS: "{team} overshoot the target, back to {points}",
    ReasonCode.OPPONENTS_OVERSHOOT: "{opponents} overshoot the target, back to {points}",
    ReasonCode.REACHES_TARGET: "{team} reach the target exactly",
    ReasonCode.MISSES_TARGET: "{team} miss the target",
    ReasonCode.STOPS_OPPONENTS: "stops {opponents} reaching the target",
    ReasonCode.LETS_OPPONENTS_WIN: "lets {opponents} reach the target",
    ReasonCode.SECURES_DRAW: "the match ends in a draw",
    ReasonCode.ENDS_IN_DRAW: "the match ends in a draw",
    ReasonCode.AVOIDS_DRAW: "the match goes on instead of ending in a draw",
    ReasonCode.MISSES_DRAW: "the match goes on instead of ending in a draw",
    ReasonCode.AVOIDS_OVERSHOOT: "{team} avoid overshooting the target",
    ReasonCode.OPPONENTS_AVOID_OVERSHOOT: "{opponents} avoid overshooting the target",
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
    ReasonCode.ABOUT_EQUAL: "about equal: the difference is within chance",
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
    #: The weighted share of the hint's deals in which the difference shows (a deal not played
    #: out counts as not showing it); ``None`` for a reason that is no one difference (the
    #: only move, a comparison of averages, an average of card points).
    share: float | None = None
    #: The hint's deals, all that its values rest on; ``None`` with no share.
    deals: int | None = None
    #: How many of them show the difference; ``None`` with no share.
    shown: int | None = None

    @property
    def certain(self) -> bool:
        """Whether the reason shows in every deal the hint rests on (or is the rules': the
        only move)."""
        return self.code is ReasonCode.ONLY or (
            self.shown is not None and self.deals is not None and self.shown == self.deals
        )

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
        """A JSON-ready form: ``code``, ``text`` (English), ``certain``, ``share`` and each
        argument set, cards, suits and seats as RECORD.md tokens."""
        out: dict[str, Any] = {
            "code": str(self.code),
            "text": str(self),
            "seat": str(self.seat),
            "certain": self.certain,
        }
        if self.card is not None:
            out["card"] = str(self.card)
        if self.suit is not None:
            out["suit"] = str(self.suit)
        if self.points is not None:
            out["points"] = self.points
        if self.partner:
            out["partner"] = True
        if self.share is not None:
            out["share"] = round(self.share, 3)
            out["deals"] = self.deals
            out["shown"] = self.shown
        return out


@dataclass(frozen=True, slots=True)
class Explanation:
    """One legal action's estimate and why; the only legal move has no value, share or error
    (``None``) and rests on no deal."""

    action: Action
    value: float | None  #: the mean value for the mover's team over the deals (see ``explain``)
    #: the weighted share of the deals where it is best, 0 to 1, a tie shared among the moves
    #: tied (the moves' shares add up to 1)
    best_share: float | None
    worlds: int  #: the deals the estimate is over
    reason: Reason
    #: The standard error of the mean of its value less the best move's (the best move's: less
    #: the second's) over the deals: two moves closer than about twice this are alike.
    error: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form; ``value``, ``best_share`` and ``error`` are ``null`` for the only
        legal move."""
        return {
            "action": str(self.action),
            # + 0.0: a value just below 0 is 0, not -0
            "value": None if self.value is None else round(self.value, 4) + 0.0,
            "best_share": None if self.best_share is None else round(self.best_share, 3),
            "worlds": self.worlds,
            "error": None if self.error is None else round(self.error, 4) + 0.0,
            "reason": self.reason.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class Hint:
    """Every legal move explained, best first, and what the values rest on.

    ``deals``: the deals valued; ``possible``: how many agree with what the seat knows (0 for
    the only move, where nothing is valued); ``exact``: every possible deal was valued;
    ``even``: the deals weigh alike (else a share is weighted by how likely the play seen makes
    each deal, ``inferred``); ``fallback``: no deal drawn agreed with the play under the model
    of it, and they were weighted alike instead (it should never be).
    """

    moves: tuple[Explanation, ...]
    deals: int = 0
    possible: int = 0
    exact: bool = False
    even: bool = True
    inferred: bool = False
    fallback: bool = False

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form: ``moves`` (each ``Explanation.to_dict``) and the facts above."""
        return {
            "moves": [m.to_dict() for m in self.moves],
            "deals": self.deals,
            "possible": self.possible,
            "exact": self.exact,
            "even": self.even,
            "inferred": self.inferred,
            "fallback": self.fallback,
        }
