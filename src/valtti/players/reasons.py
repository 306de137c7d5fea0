"""What a hint says of a move: its ``Reason``, a ``ReasonCode`` with its arguments, and its
``Explanation`` (the move's value, its share of worlds where it is best, the reason).

A ``Reason`` is data, like the engine's ``Refusal``: ``str()`` is English, and front ends
translate the code (``terminal.hints``). Which reason a move has is found by playing lines out
(``players.explain``).
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
    #: The share of the sampled deals in which the difference shows (a deal not played out
    #: counts as not showing it); ``None`` for a reason that is no one difference (the only
    #: move, a comparison of averages, an average of card points).
    share: float | None = None
    #: The sampled deals ``share`` is of (those examined); ``None`` with no share.
    deals: int | None = None

    @property
    def certain(self) -> bool:
        """Whether the reason shows in every sampled deal (or is the rules': the only move)."""
        return self.code is ReasonCode.ONLY or (self.share is not None and self.share >= 1 - 1e-9)

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
        return out


@dataclass(frozen=True, slots=True)
class Explanation:
    """One legal action's estimate and why; the only legal move has no value, share or error
    (``None``) and rests on no deal."""

    action: Action
    value: float | None  #: the mean value for the mover's team over the deals (see ``explain``)
    best_share: float | None  #: the share of the sampled deals where it is best, 0 to 1
    worlds: int  #: the sampled deals the estimate is over
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
