"""What a record's ``meta`` holds, as every program writes and reads it (docs/RECORD.md, "What
each program puts under ``meta``"): one type for the terminal, the arena and the web table.

A record is data from whoever wrote it: reading its ``meta`` never fails, and keys this version
does not know are kept as they were written.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from valtti.engine.cards import Seat

_SEAT_NAMES: Final = ("N", "E", "S", "W")


@dataclass(frozen=True, slots=True)
class MatchSeeds:
    """The seeds of one arena match (RECORD.md, "What each program puts under ``meta``");
    never the arena's own seed, from which a bot could work out the later deals."""

    match: int  #: the match's number, from 1
    half: str  #: ``"A"`` or ``"B"``: which side of the duplicate pair the first player had
    table: int  #: the seed that dealt the cards
    players: Mapping[str, int]  #: each seat's player seed, by seat name

    def to_dict(self) -> dict[str, Any]:
        return {
            "match": self.match,
            "half": self.half,
            "table": self.table,
            "players": dict(self.players),
        }

    @staticmethod
    def from_dict(value: object) -> MatchSeeds | None:
        """The seeds of ``value`` as written, or ``None`` when any part is missing or not of
        its type."""
        if not isinstance(value, dict):
            return None
        match, half, table = _whole(value.get("match")), value.get("half"), value.get("table")
        players = value.get("players")
        if match is None or not isinstance(half, str) or _whole(table) is None:
            return None
        if not isinstance(players, dict) or not all(
            isinstance(k, str) and _whole(v) is not None for k, v in players.items()
        ):
            return None
        assert isinstance(table, int)
        return MatchSeeds(match, half, table, dict(players))


@dataclass(frozen=True, slots=True)
class RecordMeta:
    """What valtti's programs put under a record's ``meta`` (RECORD.md), each key as a field;
    every program writes its record's ``meta`` with ``to_dict`` and reads one with
    ``from_dict``.

    A record's ``meta`` may hold anything, since records come from others: ``from_dict`` never
    fails, a key missing, ``null`` or not of its field's type reads as ``None``, and ``extra``
    keeps, as written, every key it could not read (an unknown key, or a known one of the wrong
    type), so that ``to_dict`` gives back what came in.

    Each program writes some of the fields: the terminal game (``valtti play``) ``program``,
    ``seat``, ``seed``, ``players`` and ``takebacks``; the arena ``players`` (by team),
    ``seeds``, ``capped`` and ``failure``; the web table ``program``, ``table``, ``created``,
    ``seed``, ``players`` and ``seats``.
    """

    program: str | None = None  #: the program that wrote the record: "valtti play", "valtti serve"
    table: str | None = None  #: the web table's id
    created: str | None = None  #: when the web table was made, ISO 8601
    seat: Seat | None = None  #: the terminal game's person
    seed: int | None = None  #: the match seed (cards, and the computer players' decisions)
    #: Who played: by seat name (N, E, S, W) a player spec (the terminal game: the computer
    #: seats) or a nickname (a web table: every seat, null while open); by team name (NS, EW),
    #: the arena's specs.
    players: Mapping[str, str | None] | None = None
    seeds: MatchSeeds | None = None  #: the arena match's seeds
    seats: Mapping[str, str] | None = None  #: a web table's seats' kinds, by seat name
    takebacks: int | None = None  #: the terminal game's take-backs, written when there were any
    #: Whether the arena cut the match off at its deal limit; ``failure`` is written with it.
    capped: bool | None = None
    failure: str | None = None  #: the fault of a player that ended an arena match (or null)
    extra: Mapping[str, Any] = field(default_factory=dict)  #: the keys not read, as written

    def player_at(self, seat: Seat) -> str | None:
        """The player written for ``seat`` (by its seat name), or ``None``."""
        return None if self.players is None else self.players.get(str(seat))

    def to_dict(self) -> dict[str, Any]:
        """The JSON object: the fields that are set, then every key of ``extra`` they do not
        write (``failure`` is written, ``null`` too, whenever ``capped`` is)."""
        out: dict[str, Any] = {}
        for key in _META_KEYS:
            value = getattr(self, key)
            if value is None and not (key == "failure" and self.capped is not None):
                continue
            if isinstance(value, MatchSeeds):
                value = value.to_dict()
            elif isinstance(value, Seat):
                value = str(value)
            elif isinstance(value, Mapping):
                value = dict(value)
            out[key] = value
        for key, value in self.extra.items():
            out.setdefault(key, value)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> RecordMeta:
        """The fields of a record's ``meta`` (``None``: a record without one); never fails."""
        if data is None:
            return cls()
        read: dict[str, Any] = {}
        extra: dict[str, Any] = {}
        for key, value in data.items():
            reader = _META_READERS.get(key)
            field_value = None if reader is None else reader(value)
            if field_value is None:
                extra[key] = value
            else:
                read[key] = field_value
        # What the fields write back as it was (an arena's "failure": null) is no extra key.
        written = cls(**read).to_dict()
        kept = {k: v for k, v in extra.items() if k not in written or written[k] != v}
        return cls(**read, extra=kept)


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _whole(value: object) -> int | None:
    """An int that is no bool, or ``None``."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _flag(value: object) -> bool | None:
    return value if isinstance(value, bool) else None


def _seat_of(value: object) -> Seat | None:
    if not isinstance(value, str):
        return None
    try:
        return Seat.parse(value)
    except ValueError:
        return None


def _names(value: object) -> dict[str, str] | None:
    """An object of strings by string keys, or ``None``."""
    if not isinstance(value, dict):
        return None
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        return None
    return dict(value)


def _players(value: object) -> dict[str, str | None] | None:
    """An object of strings or nulls by string keys, or ``None``."""
    if not isinstance(value, dict):
        return None
    if not all(isinstance(k, str) and isinstance(v, str | None) for k, v in value.items()):
        return None
    return dict(value)


#: How each key of ``RecordMeta`` is read, in the order ``to_dict`` writes them.
_META_READERS: Final[dict[str, Callable[[object], Any]]] = {
    "program": _text,
    "table": _text,
    "created": _text,
    "seat": _seat_of,
    "seed": _whole,
    "players": _players,
    "seeds": MatchSeeds.from_dict,
    "seats": _names,
    "takebacks": _whole,
    "capped": _flag,
    "failure": _text,
}
_META_KEYS: Final = tuple(_META_READERS)
