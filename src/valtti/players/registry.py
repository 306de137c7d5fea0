"""Players by name, as the command line and the tables write them: ``random``, ``search:hard``…"""

from __future__ import annotations

from collections.abc import Callable

from valtti.players.base import Player, RandomPlayer


def _random(level: str | None, seed: int | None) -> Player:
    if level is not None:
        raise ValueError("the random player has no levels")
    return RandomPlayer(seed)


#: name → factory taking (level or None, seed); factories import their module when called.
_FACTORIES: dict[str, Callable[[str | None, int | None], Player]] = {
    "random": _random,
}


def player_names() -> list[str]:
    return sorted(_FACTORIES)


def make_player(spec: str, seed: int | None = None) -> Player:
    """A player from ``name`` or ``name:level``; ``ValueError`` names the known players."""
    name, _, level = spec.strip().lower().partition(":")
    factory = _FACTORIES.get(name)
    if factory is None:
        raise ValueError(f"unknown player {spec!r}: known are {', '.join(player_names())}")
    return factory(level or None, seed)
