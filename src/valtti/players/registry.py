"""Players by name, as the command line and the tables write them: ``random``, ``search:hard``…

A Python object may be seated by name too, in this process only: ``seat_python(obj)`` gives it
a name ``python:NAME`` that ``make_player`` makes (a ``Player`` lent, never closed by the table;
a policy, ``players.policy``, as a ``PolicyPlayer``) until ``release_python(name)``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from valtti.players.base import Player, RandomPlayer
from valtti.players.sandbox import SANDBOX, Sandbox
from valtti.players.spec import PlayerSpecError, PlayerSpecFault

__all__ = [
    "make_player",
    "player_names",
    "release_python",
    "seat_python",
    "starts_program",
    "untrusted_spec",
]

#: The Python objects seated by name in this process (``seat_python``), by their level.
_PYTHON: dict[str, object] = {}


def _random(level: str | None, seed: int | None) -> Player:
    if level is not None:
        raise PlayerSpecError(PlayerSpecFault.NO_LEVELS, "random")
    return RandomPlayer(seed)


def _beginner(level: str | None, seed: int | None) -> Player:
    from valtti.players.beginner import BeginnerPlayer

    if level is not None:
        raise PlayerSpecError(PlayerSpecFault.NO_LEVELS, "beginner")
    return BeginnerPlayer(seed)


def _club(level: str | None, seed: int | None) -> Player:
    from valtti.players.beginner import ClubPlayer

    if level is not None:
        raise PlayerSpecError(PlayerSpecFault.NO_LEVELS, "club")
    return ClubPlayer(seed)


def _external(command: str | None, seed: int | None, sandbox: Sandbox = SANDBOX) -> Player:
    from valtti.players.external import ExternalPlayer, bot_command

    if command is None:
        raise ValueError("external needs the bot's command: external:path/to/bot.py")
    return ExternalPlayer(bot_command(command), seed, sandbox=sandbox)


def _heuristic(level: str | None, seed: int | None) -> Player:
    from valtti.players.heuristic import HeuristicPlayer

    if level is not None:
        raise PlayerSpecError(PlayerSpecFault.NO_LEVELS, "heuristic")
    return HeuristicPlayer(seed)


def _learned(path: str | None, seed: int | None) -> Player:
    from valtti.players.learned import LearnedPlayer

    return LearnedPlayer.from_spec(path, seed)


def _pimc(level: str | None, seed: int | None) -> Player:
    from valtti.players.pimc import make_pimc_player

    return make_pimc_player(level, seed)


def _quick(level: str | None, seed: int | None) -> Player:
    from valtti.players.quick import QuickPlayer

    if level is not None:
        raise PlayerSpecError(PlayerSpecFault.NO_LEVELS, "quick")
    return QuickPlayer(seed)


def _search(level: str | None, seed: int | None) -> Player:
    from valtti.players.search import make_search_player

    return make_search_player(level, seed)


def _python(level: str | None, seed: int | None) -> Player:
    from valtti.players.policy import LentPlayer, PolicyPlayer, plays

    held = _PYTHON.get(level or "")
    if plays(held):
        return LentPlayer(held)
    if callable(held):
        return PolicyPlayer(held, f"python:{level}", seed)
    seated = ", ".join(sorted(_PYTHON)) or "none"
    raise ValueError(f"no Python player {level!r} is seated in this process ({seated})")


def seat_python(player: object, name: str | None = None) -> str:
    """A spec, ``python:NAME``, that makes ``player`` (a ``Player`` or a policy) in this
    process; ``NAME`` from ``name`` or the object's (``policy_name``), made unique.
    ``TypeError`` for anything else."""
    from valtti.players.policy import plays, policy_name

    if not plays(player) and not callable(player):
        raise TypeError(f"a Python player is a Player or a policy (a callable), not {player!r}")
    base = re.sub(r"[^A-Za-z0-9._-]+", "_", name or policy_name(player)).strip("_") or "policy"
    level, n = base, 1
    while level in _PYTHON:
        n += 1
        level = f"{base}-{n}"
    _PYTHON[level] = player
    return f"python:{level}"


def release_python(spec: str) -> None:
    """Forget the Python player ``spec`` (``seat_python``'s); nothing if it is not seated."""
    name, _, level = spec.partition(":")
    if name == "python":
        _PYTHON.pop(level, None)


#: name → factory taking (level or None, seed); factories import their module when called.
_FACTORIES: dict[str, Callable[[str | None, int | None], Player]] = {
    "random": _random,
    "beginner": _beginner,
    "club": _club,
    "external": _external,
    "heuristic": _heuristic,
    "learned": _learned,
    "pimc": _pimc,
    "python": _python,
    "quick": _quick,
    "search": _search,
}


def player_names() -> list[str]:
    """The names a person may type; ``python`` is not one: only code seats it
    (``seat_python``)."""
    return sorted(name for name in _FACTORIES if name != "python")


def starts_program(spec: str) -> bool:
    """Whether making the player ``spec`` would start a program (``external:COMMAND``).

    Specs read from others (a record's ``meta``, a web request) must never do that: they go
    through ``untrusted_spec``.
    """
    name, _, _level = spec.strip().partition(":")
    return name.strip().lower() == "external"


def untrusted_spec(spec: str) -> str:
    """``spec``, read from others (a record's ``meta``, a web request), if it may be made:
    ``PlayerSpecError`` (``STARTS_PROGRAM``) for one that would start a program. The one check
    that a record or a request never starts a program: every host that reads a spec from
    others asks here (or makes it with ``make_player(..., trusted=False)``), and only a
    person's own options (the command line) may name a program."""
    if starts_program(spec):
        raise PlayerSpecError(PlayerSpecFault.STARTS_PROGRAM, spec)
    return spec


def make_player(
    spec: str, seed: int | None = None, *, trusted: bool = True, sandbox: Sandbox = SANDBOX
) -> Player:
    """A player from ``name`` or ``name:level``; ``ValueError`` names the known players.

    The name is case-insensitive; the level is passed on as written, since for ``external`` it
    is a command line (``external:path/to/bot.py``, docs/PROTOCOL.md), started in ``sandbox``.
    ``trusted=False`` for a spec read from others: one that would start a program is refused
    (``untrusted_spec``).
    """
    if not trusted:
        untrusted_spec(spec)
    name, _, level = spec.strip().partition(":")
    factory = _FACTORIES.get(name.strip().lower())
    if factory is None:
        raise PlayerSpecError(PlayerSpecFault.UNKNOWN_PLAYER, spec, known=player_names())
    if factory is _external:
        return _external(level.strip() or None, seed, sandbox)
    return factory(level.strip() or None, seed)
