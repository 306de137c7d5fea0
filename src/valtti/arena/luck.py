"""The luck of the players' own draws, measured so that it can be taken out of a comparison.

Once the cards are duplicated, Marjapussi has no chance left in a deal: what still varies
between two plays of the same cards is the players' own draws (a tie broken, hidden hands
sampled, a beginner's slip). This is AIVAT's idea (Burch et al., 2018) for those draws: at each
decision of a player whose choice depends on the observation and its own generator alone
(``Player.memoryless``), the player is asked again ``redraws`` times, by a copy with a
generator of its own; the luck of the decision is the value of the position after the action
taken less the mean value after the redrawn ones. The taken action and the redrawn ones are
drawn alike, so the luck averages 0 whatever the values, and the game points less the luck of
every decision (``Luck.of_match``) estimate the same difference as the game points alone, with
less variance where the values follow what the players make of a position. Where only some
seats are redrawn (a search player's decisions cost too much to redraw) the luck measured
follows the play less; ``adjusted`` takes out as much of it as the pairs show it explains (a
control variate's coefficient fitted by least squares, from ``FIT`` pairs), so that the
estimate has no more variance than the raw one for want of a good value.

The value of a position is the mean of ``playouts`` playouts of the rest of the deal (in C,
``players._heuristic``), from a seed drawn once for the decision, so that the positions after
two actions are played out alike: ``random``'s seats play at random, as it does, every other
seat by the rules of thumb (the players that slip play much as they do; a search player's
decisions cost far too much to play out). Decisions with one legal action, and those where
every redraw agrees with the action taken, have no luck and cost no playout; a redraw costs one
decision of the player, a distinct action ``playouts`` playouts (half a millisecond each).
"""

from __future__ import annotations

import copy
import dataclasses
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from valtti.engine import Deal, Seat, Team
from valtti.engine.match import Match
from valtti.players._heuristic import Heuristic
from valtti.players.base import Player, RandomPlayer
from valtti.players.registry import make_player, starts_program
from valtti.table import derive_seed

__all__ = ["FIT", "PLAYOUTS", "REDRAWS", "Luck", "adjusted", "coefficient"]

#: Redraws a decision by default: the redrawn actions' mean stands for the player's expected
#: choice, its own variance falling as one over their number; a redraw of a cheap player costs
#: little, as a playout is made once an action, not once a redraw.
REDRAWS: Final = 16
#: Pairs a pairing needs before its own coefficient is fitted (``coefficient``): fitted on
#: fewer, it would make the variance look smaller than it is, and a sequential test stop early.
FIT: Final = 30
#: Playouts a position by default: their mean is the value, its noise added to the estimate
#: at every decision with luck.
PLAYOUTS: Final = 16


@dataclass(frozen=True, slots=True)
class Luck:
    """How a match's luck is measured: ``redraws`` redraws a decision and ``playouts`` playouts
    a position, their generators seeded from ``seed`` (kept apart from the players' own)."""

    redraws: int = REDRAWS
    playouts: int = PLAYOUTS
    seed: int = 0

    def __post_init__(self) -> None:
        if self.redraws < 1 or self.playouts < 1:
            raise ValueError(
                f"the luck needs a redraw and a playout at least, not {self.redraws}, "
                f"{self.playouts}"
            )

    def of_match(self, match: Match, specs: Mapping[Seat, str], first: Team) -> float:
        """The luck of every decision of the match's finished deals, in game points of
        ``first`` less the other team's, summed; ``specs`` the players at the seats (only the
        memoryless are redrawn; a program of its own never is)."""
        copies = {
            seat: make_player(spec, derive_seed(self.seed, "redraw", str(seat)))
            for seat, spec in specs.items()
            if not starts_program(spec)
        }
        try:
            redrawn = {seat: p for seat, p in copies.items() if p.memoryless}
            at_random = sum(1 << seat for seat, p in copies.items() if isinstance(p, RandomPlayer))
            sign = 1 if first is Team.NS else -1
            return sign * sum(
                self._of_deal(match, index, redrawn, at_random)
                for index, deal in enumerate(match.deals)
                if deal.is_over()
            )
        finally:
            for player in copies.values():
                player.close()

    def _of_deal(
        self, match: Match, index: int, players: Mapping[Seat, Player], at_random: int
    ) -> float:
        """The luck of deal ``index``'s decisions, in NS's game points less EW's; the seats of
        the mask ``at_random`` are played out at random."""
        played = match.deals[index]
        score = match.deal_scores[index].before
        deal = played.after(0)
        total = 0.0
        for step, action in enumerate(played.history):
            seat = deal.current_player
            player = None if seat is None else players.get(seat)
            if seat is not None and player is not None and len(deal.legal_numbers()) > 1:
                observation = dataclasses.replace(
                    deal.observation(seat), score=score, deal_number=index + 1
                )
                redrawn = [int(player.choose(observation)) for _ in range(self.redraws)]
                if any(a != action for a in redrawn):
                    rules = Heuristic(derive_seed(self.seed, "playout", index, step))
                    values = {
                        a: self._value(deal, a, rules, score, index + 1, at_random)
                        for a in {action, *redrawn}
                    }
                    total += values[action] - sum(values[a] for a in redrawn) / self.redraws
            deal.apply(action)
        return total

    def _value(
        self,
        deal: Deal,
        action: int,
        rules: Heuristic,
        score: tuple[int, int],
        number: int,
        at_random: int,
    ) -> float:
        """The value after ``action`` in ``deal``: the mean of the playouts, NS less EW. Every
        action's playouts start from the same state of ``rules``' generator."""
        after = deal.copy()
        after.apply(action)
        return copy.copy(rules).playout(after, score, number, self.playouts, at_random)


def coefficient(raw: Sequence[float], luck: Sequence[float]) -> float:
    """How much of the luck to take out of ``raw`` (the pairs' differences, ``luck`` theirs):
    the least-squares slope of ``raw`` on ``luck``, which leaves the least variance (a control
    variate's optimal coefficient); 1, the luck as measured, with fewer than ``FIT`` pairs or
    none of it."""
    if len(raw) < FIT or len(raw) != len(luck):
        return 1.0
    spread = statistics.variance(luck)
    if spread <= 0:
        return 1.0
    return statistics.covariance(raw, luck) / spread


def adjusted(raw: Sequence[float], luck: Sequence[float]) -> list[float]:
    """The pairs' differences less their luck, by ``coefficient``: the same mean as ``raw``
    (the luck's is 0), less variance where the luck follows the play."""
    beta = coefficient(raw, luck)
    return [r - beta * x for r, x in zip(raw, luck, strict=True)]
