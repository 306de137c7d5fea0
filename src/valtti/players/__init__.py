"""Players: the interface and the computer players, from random to search-based."""

from valtti.players.base import Player, RandomPlayer
from valtti.players.registry import make_player, player_names
from valtti.players.search import hint

__all__ = ["Player", "RandomPlayer", "hint", "make_player", "player_names"]
