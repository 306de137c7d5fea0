"""The players the project ships, the levels people choose from, and how strong each is.

The one list the arena's leaderboard ranks, the web's tables offer and the terminal names. The
levels are named for people (beginner, club, expert), each a shipped player; their strengths
are the leaderboard's (``valtti leaderboard --strengths``, kept in ``data/strengths.json``):
game points a deal over the club level's player (``club``) on the same cards, with a 95 %
interval.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Final

__all__ = [
    "LEVELS",
    "OFFERED",
    "SHIPPED",
    "Level",
    "Measured",
    "Strength",
    "level_player",
    "strengths",
]

#: Every player the project ships, weakest first as they were last measured.
SHIPPED: Final = (
    "random",
    "beginner",
    "club",
    "heuristic",
    "quick",
    "learned",
    "search:easy",
    "search:medium",
    "search:hard",
    "pimc:easy",
    "pimc:medium",
    "pimc:hard",
)

#: The shipped players a table offers for a seat: each at most a second a decision on one core
#: (p95), so that the web's workers serve them without slowing a table. ``quick`` is
#: ``heuristic`` by its other name; ``pimc:easy`` and ``pimc:medium`` are slower than
#: ``search`` at its levels and no stronger (docs/LEADERBOARD.md).
OFFERED: Final = tuple(p for p in SHIPPED if p not in {"quick", "pimc:easy", "pimc:medium"})


@dataclass(frozen=True, slots=True)
class Level:
    """A level people choose by name, and the shipped player behind it."""

    name: str  #: "beginner", "club", "expert": its name in English (front ends translate it)
    player: str  #: the shipped player's spec


#: The levels offered to people, weakest first: neighbours apart by at least 0.3 game points a
#: deal (docs/LEADERBOARD.md).
LEVELS: Final = (
    Level("beginner", "beginner"),
    Level("club", "club"),
    Level("expert", "search:hard"),
)


@dataclass(frozen=True, slots=True)
class Strength:
    """A player's game points a deal over ``club`` (0 for it), with a 95 % interval
    (``None`` for the reference)."""

    player: str
    points: float
    low: float | None
    high: float | None


@dataclass(frozen=True, slots=True)
class Measured:
    """The leaderboard's strengths, by spec, and the date of that leaderboard."""

    date: str
    players: Mapping[str, Strength]


def level_player(name: str) -> str:
    """The player behind the level ``name`` (any case), or ``name`` itself where it names no
    level: ``level_player("expert")`` is ``"search:hard"``."""
    key = name.strip().lower()
    return next((level.player for level in LEVELS if level.name == key), name)


@functools.cache
def strengths() -> Measured:
    """The shipped players' strengths as the leaderboard last measured them."""
    text = resources.files("valtti.players").joinpath("data/strengths.json").read_text("utf-8")
    data = json.loads(text)
    rows = data["players"]
    return Measured(
        data["date"],
        {r["player"]: Strength(r["player"], r["points"], r["low"], r["high"]) for r in rows},
    )
