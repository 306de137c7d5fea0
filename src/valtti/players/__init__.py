"""Players: the interface and the computer players, from random to search-based.

``make_player`` and ``player_names`` (``registry``, which reaches every player and the sandbox
of external ones) are imported when first asked for: what needs only some players (the
coach's hint, ``valtti.coach``) is then imported without the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from valtti.players.base import Player, RandomPlayer

if TYPE_CHECKING:
    from valtti.players.registry import make_player, player_names

__all__ = ["Player", "RandomPlayer", "make_player", "player_names"]


def __getattr__(name: str) -> Any:
    if name in ("make_player", "player_names"):
        from valtti.players import registry

        return getattr(registry, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
