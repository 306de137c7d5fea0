"""``quick``: the heuristic player's other name, from when its C was a copy of a Python player.

The research tables seat it by either name; records and leaderboards that name ``quick`` keep
it apart.
"""

from __future__ import annotations

from valtti.players.heuristic import HeuristicPlayer

__all__ = ["QuickPlayer"]


class QuickPlayer(HeuristicPlayer):
    """``HeuristicPlayer`` under the name ``quick``."""

    name = "quick"
