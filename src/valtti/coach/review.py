"""A review of finished play: for each decision, the value of the move played against the best
move on what the seat knew then, and against the best with every hand open; the costliest
decisions of each deal with the better move and its reason; what each team lost.

On what the seat knew: the hint's evaluation of the seat's observation (``coach.appraise``,
repeatable: the same record gives the same review). With every hand open: the exact
double-dummy value of each legal action in the real deal (the engine's ``Solver``), solved
within ``OPEN_HAND_POSITIONS`` positions a decision, so that a review of a match takes about a
minute: a decision past that is "not solved" (its open-hand values ``None``), never guessed.
Both are changes of the mover's team's match equity, as hints are. A decision with one legal
move is no decision. Each decision also gives NS's match equity after the move played, on what
its seat knew (``Reviewed.equity``: the match's before the deal plus the move's value), so that
a deal's play can be drawn as a line, and a mark by what it lost (``MARKS``: ?!, ?, ??). The
reason for a costly decision is ``explain_worlds``'s, set between the better move and the one
played in the deals the seat's evaluation sampled: one engine of explanations for hints and
reviews; the front ends render ``MatchReview`` only.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import Any, Final, overload

from valtti.coach.appraise import Appraisal, appraise, deals_for
from valtti.coach.explain import NEGLIGIBLE, explain_worlds, within_chance
from valtti.coach.reasons import Reason
from valtti.engine import Action, Deal, Match, Observation, Seat, Team
from valtti.engine.solver import Solver
from valtti.players.equity import match_equity
from valtti.players.pimc import ActionEstimate

__all__ = [
    "COSTLIEST",
    "MARKS",
    "OPEN_HAND_POSITIONS",
    "DealReview",
    "MatchReview",
    "Reviewed",
    "review",
]

#: The costliest decisions marked in each deal.
COSTLIEST: Final = 3

#: The marks of a decision by what it lost on what its seat knew, in match equity (the chance
#: of winning the match less the opponents', −2 to 2), as chess players mark their moves: an
#: inaccuracy, a mistake, a blunder; the largest threshold reached (docs/REVIEW.md).
MARKS: Final = ((0.2, "??"), (0.08, "?"), (0.03, "?!"))

#: The positions one decision's open-hand solve may search (about 5 s on one core of the
#: reference machine). Nearly every decision needs far fewer; a deal's first lead may need
#: hundreds of times more (docs/MEASUREMENTS.md, Reviews).
OPEN_HAND_POSITIONS: Final = 50_000_000


@dataclass(frozen=True, slots=True)
class Reviewed:
    """One decision: ``step`` is its place in the deal's actions (from 1), ``trick`` the trick
    it was made in. ``value`` and ``best_value`` are the move played and the best move
    (``best``) on what the seat knew, over ``deals`` sampled deals; ``exact`` and
    ``exact_best_value`` the move played and the best (``exact_best``) with every hand open,
    all three ``None`` where that was not solved within ``OPEN_HAND_POSITIONS``.
    ``reason``: why ``best`` is better, for the costliest decisions (else ``None``)."""

    deal: int
    step: int
    trick: int
    seat: Seat
    played: Action
    best: Action
    value: float
    best_value: float
    deals: int
    exact: float | None
    exact_best: Action | None
    exact_best_value: float | None
    reason: Reason | None = None
    #: ``deals`` are every deal possible for what the seat knew (the hint's ``exact``)
    every_deal: bool = False
    even: bool = True  #: the deals weigh alike (else by how likely the play made each)
    #: NS's match equity after the move played, on what the seat knew (−1 to 1: NS's chance of
    #: winning the match less EW's)
    equity: float = 0.0

    @property
    def mark(self) -> str | None:
        """``??``, ``?`` or ``?!`` by ``loss`` (``MARKS``), else ``None``."""
        return next((mark for least, mark in MARKS if self.loss >= least), None)

    @property
    def loss(self) -> float:
        """What the move played lost on what the seat knew (≥ 0)."""
        return max(0.0, self.best_value - self.value)

    @property
    def exact_loss(self) -> float | None:
        """What the move played lost with every hand open (≥ 0); ``None`` if not solved."""
        if self.exact is None or self.exact_best_value is None:
            return None
        return max(0.0, self.exact_best_value - self.exact)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "deal": self.deal,
            "step": self.step,
            "trick": self.trick,
            "seat": str(self.seat),
            "played": str(self.played),
            "best": str(self.best),
            "value": _rounded(self.value),
            "best_value": _rounded(self.best_value),
            "loss": _rounded(self.loss),
            "deals": self.deals,
            "every_deal": self.every_deal,
            "even": self.even,
            "equity": _rounded(self.equity),
            "mark": self.mark,
            "exact": _rounded(self.exact),
            "exact_best": None if self.exact_best is None else str(self.exact_best),
            "exact_best_value": _rounded(self.exact_best_value),
            "exact_loss": _rounded(self.exact_loss),
        }
        if self.reason is not None:
            out["reason"] = self.reason.to_dict()
        return out


@overload
def _rounded(value: float) -> float: ...
@overload
def _rounded(value: float | None) -> float | None: ...
def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4) + 0.0  # + 0.0: never -0


def _named(lost: tuple[float, float]) -> dict[str, float]:
    """Each team's loss, rounded, as ``{"NS": …, "EW": …}``."""
    return Team.named((_rounded(lost[0]), _rounded(lost[1])))


@dataclass(frozen=True, slots=True)
class DealReview:
    """One deal's decisions in order, its costliest (largest loss first) and each team's sums
    of ``loss`` and ``exact_loss`` (``lost``, ``exact_lost``: NS, EW; the latter over the
    decisions solved with every hand open, all but ``unsolved``)."""

    number: int
    decisions: tuple[Reviewed, ...]
    costliest: tuple[Reviewed, ...]
    #: NS's match equity as the deal began (the match score's): where its line starts
    equity: float = 0.0

    @property
    def lost(self) -> tuple[float, float]:
        return _sums(self.decisions, exact=False)

    @property
    def exact_lost(self) -> tuple[float, float]:
        return _sums(self.decisions, exact=True)

    @property
    def unsolved(self) -> int:
        """The decisions not solved with every hand open within ``OPEN_HAND_POSITIONS``."""
        return sum(d.exact is None for d in self.decisions)

    def to_dict(self) -> dict[str, Any]:
        return {
            "deal": self.number,
            "equity": _rounded(self.equity),
            "decisions": [d.to_dict() for d in self.decisions],
            "costliest": [d.to_dict() for d in self.costliest],
            "lost": _named(self.lost),
            "exact_lost": _named(self.exact_lost),
            "unsolved": self.unsolved,
        }


@dataclass(frozen=True, slots=True)
class MatchReview:
    """Every deal reviewed, and each team's sums over the match."""

    deals: tuple[DealReview, ...]
    seats: tuple[Seat, ...]  #: the seats whose decisions were reviewed

    @property
    def lost(self) -> tuple[float, float]:
        return _sums([d for r in self.deals for d in r.decisions], exact=False)

    @property
    def exact_lost(self) -> tuple[float, float]:
        return _sums([d for r in self.deals for d in r.decisions], exact=True)

    @property
    def unsolved(self) -> int:
        """The decisions not solved with every hand open, over the match."""
        return sum(r.unsolved for r in self.deals)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seats": [str(s) for s in self.seats],
            "deals": [d.to_dict() for d in self.deals],
            "lost": _named(self.lost),
            "exact_lost": _named(self.exact_lost),
            "unsolved": self.unsolved,
        }


def _sums(decisions: Collection[Reviewed], exact: bool) -> tuple[float, float]:
    lost = [0.0, 0.0]
    for d in decisions:
        lost[d.seat.team] += (d.exact_loss or 0.0) if exact else d.loss
    return lost[0], lost[1]


def review(
    match: Match,
    seats: Collection[Seat] | None = None,
    level: str = "hard",
    numbers: Collection[int] | None = None,
) -> MatchReview:
    """Review every decision of ``seats`` (default: every seat) in the deals of ``match``
    numbered ``numbers`` (from 1; default: every deal, an unfinished last one up to where it
    stops), at ``level``'s number of deals a hint samples. ``ValueError`` for an unknown
    level."""
    deals_for(level, 0)  # an unknown level is refused before any work
    chosen = tuple(Seat) if seats is None else tuple(sorted(set(seats)))
    solver = Solver()
    reviews = []
    again = Match(match.variant, match.first_dealer)
    for number, played_deal in enumerate(match.deals, start=1):
        before = again.score
        now = again.start_deal(played_deal.initial_hands)
        wanted = numbers is None or number in numbers
        decisions: list[tuple[Reviewed, Appraisal, Observation]] = []
        for step, played in enumerate(played_deal.history, start=1):
            seat = now.current_player
            assert seat is not None
            if wanted and seat in chosen and len(now.legal_actions()) > 1:
                # The observation with the match score and deal number, as a hint has it.
                observation = again.observation(seat)
                decisions.append(_decision(number, step, observation, now, played, level, solver))
            again.apply(played)
        if wanted:
            start = match_equity(again.variant)(before)
            reviews.append(_deal_review(number, decisions, start))
    return MatchReview(tuple(reviews), chosen)


def _decision(
    number: int,
    step: int,
    observation: Observation,
    deal: Deal,
    played: Action,
    level: str,
    solver: Solver,
) -> tuple[Reviewed, Appraisal, Observation]:
    """One decision valued on what its seat knew and with every hand open (``deal``, the real
    deal at that point, is unchanged). The solver starts empty for each decision: what it kept
    from another would change where its caps bind, and a decision's review would then depend
    on which others were reviewed (a hint at the position starts empty too)."""
    trick = len(observation.tricks) + 1
    solver.clear()
    appraisal = appraise(observation, deals_for(level, trick - 1), solver)
    means = {a: appraisal.mean(a) for a in observation.legal_actions}
    best = max(observation.legal_actions, key=lambda a: (means[a], a == played))
    solved = solver.solve_within(deal, appraisal.value, OPEN_HAND_POSITIONS)
    exact = dict(solved) if solved is not None else {}
    exact_best = max(exact, key=lambda a: (exact[a], a == played)) if exact else None
    reviewed = Reviewed(
        number,
        step,
        trick,
        observation.seat,
        played,
        best,
        means[played],
        means[best],
        len(appraisal.deals),
        exact.get(played),
        exact_best,
        None if exact_best is None else exact[exact_best],
        every_deal=appraisal.exact,
        even=appraisal.even,
        equity=_ns_equity(observation, means[played]),
    )
    return reviewed, appraisal, observation


def _ns_equity(observation: Observation, value: float) -> float:
    """NS's match equity after a move worth ``value`` to its mover's team: the match's before
    the deal (the observation's score) and the deal's change of it."""
    before = match_equity(observation.variant)(observation.score or (0, 0))
    return before + (value if observation.seat.team is Team.NS else -value)


def _deal_review(
    number: int, decisions: list[tuple[Reviewed, Appraisal, Observation]], equity: float
) -> DealReview:
    """The deal's decisions, and its costliest with the reason the better move is better."""
    ranked = sorted(decisions, key=lambda d: (-d[0].loss, -(d[0].exact_loss or 0.0), d[0].step))
    costly = [d for d in ranked if d[0].loss >= NEGLIGIBLE][:COSTLIEST]
    costliest = tuple(
        _with_reason(reviewed, appraisal, observation)
        for reviewed, appraisal, observation in costly
    )
    return DealReview(number, tuple(d[0] for d in decisions), costliest, equity)


def _with_reason(reviewed: Reviewed, appraisal: Appraisal, observation: Observation) -> Reviewed:
    """``reviewed`` with the reason its better move is better than the move played, found as a
    hint finds it, between the two moves alone."""
    n = len(appraisal.deals)
    estimates = [
        ActionEstimate(reviewed.best, reviewed.best_value, appraisal.best_share(reviewed.best), n),
        ActionEstimate(reviewed.played, reviewed.value, appraisal.best_share(reviewed.played), n),
    ]
    explained = explain_worlds(
        observation,
        estimates,
        appraisal.deals,
        appraisal.line,
        appraisal.value,
        close=within_chance(appraisal),
    )
    return replace(reviewed, reason=explained[0].reason)
