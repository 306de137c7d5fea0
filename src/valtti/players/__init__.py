"""Players: the interface and the computer players, from random to search-based."""

from valtti.players.base import Player, RandomPlayer
from valtti.players.registry import make_player, player_names

__all__ = ["Player", "RandomPlayer", "make_player", "player_names"]
