"""Between deals and after a match: who of the seated people is ready to go on (docs/WEB.md).

After a deal the next one is dealt once every seated person has said ``ready`` or at ``at``
(a wall-clock time, some seconds on); after a match a rematch begins once every seated person
has said ``ready``, with no time limit. Computer players are always ready, and so, for the next
deal, is a stand-in for a person who is away (not connected), unless every person is away
(nobody would see the deals go by). A person who is here says ready, stand-in or not.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Final, Literal

from valtti.engine import Match, Seat
from valtti.web.db.rows import SeatRow, TableRow

#: Seconds from the end of a deal to the next deal when not everybody says ready sooner.
NEXT_DEAL_SECONDS: Final = 20.0


@dataclass(slots=True)
class Waiting:
    """A table waiting to go on: to the next ``deal`` or to a ``rematch``."""

    kind: Literal["deal", "rematch"]
    at: float | None  #: the wall-clock time (``time.time()``) the next deal starts; or never
    ready: set[Seat] = field(default_factory=set)  #: the people who said ready
    #: Its time has come (the room's timer says so: a clock read again could differ).
    due: bool = False

    def all_ready(self, seats: Sequence[SeatRow], connected: frozenset[Seat]) -> bool:
        """Whether every seated person is ready (a table of computer players never is for a
        rematch, which only a person asks for; see the module for stand-ins and ``connected``,
        the seats with a connection)."""
        return all(self._is_ready(r, seats, connected) for r in seats) and (
            self.kind == "deal" or any(r.kind == "human" for r in seats)
        )

    def _is_ready(self, row: SeatRow, seats: Sequence[SeatRow], connected: frozenset[Seat]) -> bool:
        if row.kind != "human" or row.seat in self.ready:
            return row.kind != "open"
        away = row.stand_in is not None and row.seat not in connected
        someone_here = any(
            r.kind == "human" and (r.stand_in is None or r.seat in connected) for r in seats
        )
        return self.kind == "deal" and away and someone_here

    def to_json(self, seats: Sequence[SeatRow], connected: frozenset[Seat]) -> str:
        """The state frame's ``between`` (docs/WEB.md): ``ready`` lists every seat that is,
        computer players and stand-ins for people away included, in N E S W order."""
        ready = [str(r.seat) for r in seats if self._is_ready(r, seats, connected)]
        at = None if self.at is None else round(self.at * 1000)
        return json.dumps({"for": self.kind, "ready": ready, "at": at})


def rematch_of(
    finished: TableRow, match: Match, table_id: str, seed: int, created: datetime
) -> TableRow:
    """The table of the rematch of ``finished`` (whose match is ``match``): its variant,
    creator, name, turn time, time bank, hints and whether the lobby lists it, a new seed, and
    as first dealer the one the rules give after the match's last deal (RULES.md 2.3)."""
    return TableRow(
        id=table_id,
        created=created,
        variant=finished.variant,
        first_dealer=match.next_dealer,
        seed=seed,
        creator_hash=finished.creator_hash,
        status="waiting",
        turn_seconds=finished.turn_seconds,
        hints=finished.hints,
        time_bank_seconds=finished.time_bank_seconds,
        name=finished.name,
        listed=finished.listed,
    )
