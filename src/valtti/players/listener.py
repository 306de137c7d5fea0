"""Optional hooks a player may implement to hear how the match around it goes.

A host (the arena, a table) calls them on players that have them (``isinstance(player,
MatchListener)``); ``Player.choose`` alone is enough to play. The external-bot player uses them
to tell its program about matches and deals (docs/PROTOCOL.md).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from valtti.engine import Observation, Seat, Variant
from valtti.engine.match import Outcome

__all__ = ["MatchListener", "Outcome"]


@runtime_checkable
class MatchListener(Protocol):
    def match_started(self, variant: Variant, seat: Seat) -> None:
        """A new match in which this player sits at ``seat``."""

    def deal_started(self, observation: Observation) -> None:
        """A new deal: the seat's observation before anyone has acted."""

    def deal_ended(self, observation: Observation, score: tuple[int, int]) -> None:
        """The deal is over: the seat's last observation and the match score after the deal."""

    def match_ended(self, score: tuple[int, int], winner: Outcome) -> None:
        """The match is over (or stopped, ``winner`` ``None``) with this final score."""
