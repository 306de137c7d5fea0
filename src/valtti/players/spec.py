"""What is wrong with a player's name, as data: the registry and the players' level parsers
raise it, and front ends say it in their language."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

__all__ = ["PlayerSpecError", "PlayerSpecFault"]


class PlayerSpecFault(StrEnum):
    """What is wrong with a player's name, as data (front ends say it in their language)."""

    UNKNOWN_PLAYER = "unknown_player"  #: ``player``: the spec as given; ``known``: the names
    UNKNOWN_LEVEL = "unknown_level"  #: ``player``, the ``level`` given, ``known``: the levels
    NO_LEVELS = "no_levels"  #: ``player`` takes no level
    #: ``player`` (the spec as given) would start a program, and it was read from others (a
    #: record's ``meta``, a web request): ``registry.untrusted_spec``.
    STARTS_PROGRAM = "starts_program"


class PlayerSpecError(ValueError):
    """A player name ``make_player`` cannot make: its English text, its ``fault`` and the
    ``player``, ``level`` and ``known`` names the fault uses."""

    def __init__(
        self,
        fault: PlayerSpecFault,
        player: str,
        level: str | None = None,
        known: Sequence[str] = (),
    ) -> None:
        self.fault = fault
        self.player = player
        self.level = level
        self.known = tuple(known)
        names = ", ".join(self.known)
        super().__init__(
            f"unknown player {player!r}: known are {names}"
            if fault is PlayerSpecFault.UNKNOWN_PLAYER
            else f"unknown {player} level {level!r}: levels are {names}"
            if fault is PlayerSpecFault.UNKNOWN_LEVEL
            else f"{player!r} starts a program, which a player named by others never does"
            if fault is PlayerSpecFault.STARTS_PROGRAM
            else f"the {player} player has no levels"
        )
