"""Absent players: the turn clock of a table and who stands in for a person who is away.

A table's turn time (``turn_seconds``, chosen at creation; ``None``: no limit) runs for the
person to move while anyone is connected. When it runs out, a computer player (``STAND_IN``)
stands in for that person and plays for them until they are back: until they act, say so
(``back``), or connect again with their token. Any seated person may hand the seat of a person
who is not connected to a stand-in at once, and the creator the seat of anyone. A stand-in
plays only while at least one person is connected to the table, so a table nobody is at waits
as it is. docs/WEB.md, "Absent players", is the contract.

The clock is public: it runs for the seat to move as a spectator sees it, so while a partner
chooses between marriages (RULES.md 7.2) it goes on running for the asker as it did before the
question, and when it runs out then, a stand-in answers for the partner once without marking
them away (the others see the asker act at the end of their time, as they might have).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, Final

from valtti.engine import Seat
from valtti.table import Computer, Occupant
from valtti.web.db.rows import SeatRow

#: The computer player that stands in for an absent person.
STAND_IN: Final = "heuristic"
#: A new table's turn time unless its creator chooses another, and the longest one may choose.
DEFAULT_TURN_SECONDS: Final = 60
MAX_TURN_SECONDS: Final = 3600

#: A timed turn: the public ``seq`` it began at and the seat whose turn it is.
Turn = tuple[int, Seat]


def occupant(row: SeatRow) -> Occupant:
    """Who the seat driver asks at a seat: its computer player, a person's stand-in, or
    ``None`` (a person, or nobody yet)."""
    if row.kind == "computer":
        assert row.name is not None
        return Computer(row.name)
    if row.kind == "human" and row.stand_in is not None:
        return Computer(row.stand_in)
    return None


def is_person(row: SeatRow) -> bool:
    """Whether the seat is a person's who plays it now (no stand-in)."""
    return row.kind == "human" and row.stand_in is None


class TurnClock:
    """The time left of the turn now timed, if any; ``ring(turn)`` is spawned when it is up.

    ``update`` is told after every change which turn should be timed (``None``: none, e.g. a
    computer player's, or nobody is connected). A turn timed again after a pause (a person came
    back to an empty table, or took their seat back from a stand-in) starts with the whole time.
    """

    def __init__(
        self,
        seconds: int | None,
        ring: Callable[[Turn], Coroutine[Any, Any, None]],
        spawn: Callable[[Coroutine[Any, Any, None]], None],
    ) -> None:
        self.seconds = seconds
        self._ring = ring
        self._spawn = spawn
        self._turn: Turn | None = None
        self._deadline = 0.0  #: the event loop's time when the turn is up
        self._timer: asyncio.TimerHandle | None = None

    def update(self, turn: Turn | None) -> None:
        """Time ``turn`` (``None``: no turn) from now, unless it is the turn timed already."""
        if self.seconds is None or turn == self._turn:
            return
        self.cancel()
        self._turn = turn
        if turn is not None:
            loop = asyncio.get_running_loop()
            self._deadline = loop.time() + self.seconds
            self._timer = loop.call_later(self.seconds, self._up, turn)

    def _up(self, turn: Turn) -> None:
        self._timer = None
        self._spawn(self._ring(turn))

    def frame(self) -> dict[str, Any] | None:
        """The state frame's ``clock``: ``{"seat", "seconds", "left"}`` or ``None``."""
        if self._turn is None or self.seconds is None:
            return None
        left = max(0.0, self._deadline - asyncio.get_running_loop().time())
        return {"seat": str(self._turn[1]), "seconds": self.seconds, "left": round(left, 1)}

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
