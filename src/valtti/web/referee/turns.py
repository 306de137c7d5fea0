"""Absent players: the turn clock of a table and who stands in for a person who is away.

A table's turn time (``turn_seconds``, chosen at creation; ``None``: no limit) runs for the
person to move while anyone is connected. When it runs out, the person's time bank for the
match (``time_bank_seconds``) runs down; when that is spent too, a computer player
(``STAND_IN``) plays: one move for a person who is still connected, who keeps the seat, and for
one who is not, every move until they are back: until they act, say so (``back``), or connect
again with their token. Any seated person may hand the seat of a person
who is not connected to a stand-in at once, and the creator the seat of anyone. A stand-in
plays only while at least one person is connected to the table, so a table nobody is at waits
as it is. docs/WEB.md, "Absent players", is the contract.

A move a stand-in makes for a person who keeps the seat is marked (``Stood``): every state frame
says which of the deal's public actions were made so (``timed_out``), so that each page says
"time ran out — the computer played A♥ for you" where it tells the move.

The clock is public: it runs for the seat to move as a spectator sees it, so while a partner
chooses between marriages (RULES.md 7.2) it goes on running for the asker as it did before the
question, and when it runs out then, a stand-in answers for the partner once without marking
them away (the others see the asker act at the end of their time, as they might have).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any, Final

from valtti.engine import Match, Seat
from valtti.table import Computer, Occupant
from valtti.web.db.rows import SeatRow

#: The computer player that stands in for an absent person.
STAND_IN: Final = "heuristic"
#: A new table's turn time unless its creator chooses another, and the longest one may choose.
DEFAULT_TURN_SECONDS: Final = 60
MAX_TURN_SECONDS: Final = 3600
#: A time bank is this many turns' worth unless the creator chooses another, at most MAX_BANK.
BANK_TURNS: Final = 2
MAX_BANK_SECONDS: Final = 7200

#: A timed turn: the public ``seq`` it began at and the seat whose turn it is.
Turn = tuple[int, Seat]


def bank_for(turn_seconds: int | None, given: int | None) -> int:
    """Each person's time bank at a table with ``turn_seconds``: ``given``, else BANK_TURNS
    turns' worth (at most MAX_BANK_SECONDS); none without a turn time."""
    if turn_seconds is None:
        return 0
    if given is not None:
        return given
    return min(BANK_TURNS * turn_seconds, MAX_BANK_SECONDS)


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


def timed_turn(match: Match, seats: Sequence[SeatRow], people_here: bool) -> Turn | None:
    """The turn the clock runs for in a match being played with a turn time: the seat to move
    as a spectator sees it, when that is a person playing it and anyone is connected."""
    deal = match.deal
    if deal is None or deal.is_over() or not people_here:
        return None
    seen = match.seen_by(None)
    seat = seen.current_player
    if seat is None or not is_person(seats[seat]):
        return None
    return (seen.public_action_count(), seat)


class TurnClock:
    """The time left of the turn now timed, if any, and each seat's time bank for the match;
    ``ring(turn)`` is spawned when the turn's time and then its seat's bank are up.

    ``update`` is told after every change which turn should be timed (``None``: none, e.g. a
    computer player's, or nobody is connected). A turn timed again after a pause (a person came
    back to an empty table, or took their seat back from a stand-in) starts with the whole turn
    time; the bank spent before the pause stays spent.

    Each seat's bank starts as ``bank``, or as ``left`` gives it (what the store kept). What a
    turn spent of it is for the table to keep across a restart: ``update`` and ``settle`` say
    it as they end a turn's timing; a bank run out is 0 when ``ring`` is called.
    """

    def __init__(
        self,
        seconds: int | None,
        bank: int,
        ring: Callable[[Turn], Coroutine[Any, Any, None]],
        spawn: Callable[[Coroutine[Any, Any, None]], None],
        left: Mapping[Seat, float] | None = None,
    ) -> None:
        self.seconds = seconds
        self._ring = ring
        self._spawn = spawn
        self._turn: Turn | None = None
        self._start = 0.0  #: the event loop's time when the turn timed now began
        self._timer: asyncio.TimerHandle | None = None
        #: Each seat's bank left, not counting the turn timed now.
        whole = float(bank if seconds is not None else 0)
        self._banks = {s: min(whole, (left or {}).get(s, whole)) for s in Seat}

    def update(self, turn: Turn | None) -> tuple[Seat, float] | None:
        """Time ``turn`` (``None``: no turn) from now, unless it is the turn timed already;
        the turn timed until now spends its seat's bank for the time it ran over (``settle``:
        what it says is returned)."""
        if self.seconds is None or turn == self._turn:
            return None
        settled = self.settle()
        self._turn = turn
        if turn is not None:
            loop = asyncio.get_running_loop()
            self._start = loop.time()
            self._timer = loop.call_later(self.seconds + self._banks[turn[1]], self._up, turn)
        return settled

    def _over(self) -> float:
        """How long the turn timed now has run past the turn time."""
        assert self.seconds is not None
        return max(0.0, asyncio.get_running_loop().time() - self._start - self.seconds)

    def _bank_left(self) -> float:
        assert self._turn is not None
        return max(0.0, self._banks[self._turn[1]] - self._over())

    def settle(self) -> tuple[Seat, float] | None:
        """End the timing of the turn timed now (if any), its seat's bank spent for the time
        it ran over; the seat and its bank left when it spent some, else ``None``."""
        if self._turn is None:
            return None
        self.cancel()
        seat = self._turn[1]
        left = self._bank_left()
        self._turn = None
        if left >= self._banks[seat]:
            return None
        self._banks[seat] = left
        return seat, left

    def _up(self, turn: Turn) -> None:
        self._timer = None
        self._banks[turn[1]] = 0.0
        self._spawn(self._ring(turn))

    def frame(self) -> dict[str, Any] | None:
        """The state frame's ``clock``: ``{"seat", "seconds", "left", "bank"}`` or ``None``:
        the turn time left, then the seat's bank left (which runs once ``left`` is 0)."""
        if self._turn is None or self.seconds is None:
            return None
        now = asyncio.get_running_loop().time()
        left = max(0.0, self._start + self.seconds - now)
        return {
            "seat": str(self._turn[1]),
            "seconds": self.seconds,
            "left": round(left, 1),
            "bank": round(self._bank_left(), 1),
        }

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class Stood:
    """The public actions a stand-in made for a person who kept the seat (out of time while
    connected), by deal (from 1) and index in the deal's public history; kept in memory only
    (a restarted server forgets them)."""

    def __init__(self) -> None:
        self._moves: set[tuple[int, int]] = set()

    def mark(self, match: Match) -> tuple[int, int]:
        """Mark the action about to be played in ``match``'s deal (not an ``answer``, which is
        private); the mark, to ``forget`` if it is not played after all."""
        deal = match.deal
        assert deal is not None
        made = (len(match.deals), len(deal.public_history))
        self._moves.add(made)
        return made

    def forget(self, made: tuple[int, int]) -> None:
        self._moves.discard(made)

    def json(self, match: Match | None) -> str:
        """The state frame's ``timed_out``: the indices in the latest deal's public history of
        its marked actions that a spectator may know of (RULES.md 7.2), as JSON."""
        deal = None if match is None else match.deal
        if match is None or deal is None:
            return "[]"
        seen = match.seen_by(None).deal
        shown = 0 if seen is None else len(seen.public_history)
        number = len(match.deals)
        return json.dumps(sorted(i for d, i in self._moves if d == number and i < shown))
