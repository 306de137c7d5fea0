"""What the web table's database holds, as the rest of the server sees it: a table's row, its
seats, its record, and the lobby's list (docs/WEB.md). ``store.Store`` reads and writes them."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Literal

from valtti.engine import Seat, Variant
from valtti.engine.record import Record

#: A table waits for people, is played, or is over: its match ``finished``, or ``closed``
#: before that (``TableRow.closed`` says why).
TableStatus = Literal["waiting", "playing", "finished", "closed"]
#: The statuses the lobby's list may be filtered by (a closed table is in no list).
ListedStatus = Literal["waiting", "playing", "finished"]
#: Why a table was closed: its creator closed it, or nobody was at it for the host's time.
ClosedBy = Literal["creator", "idle"]
SeatKind = Literal["open", "human", "computer"]


@dataclass(frozen=True, slots=True)
class SeatRow:
    """Who sits at one seat: nobody yet, a person, or a computer player."""

    seat: Seat
    kind: SeatKind
    name: str | None  #: the nickname, or the computer player's name ("search:medium")
    token_hash: str | None  #: sha256 hex of the seat token, people only
    #: The computer player standing in for the person while they are away (``heuristic``), or
    #: ``None`` while the person plays the seat; people only (web/referee/turns.py).
    stand_in: str | None = None


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table as created: its match's variant, first dealer and shuffling seed, and status."""

    id: str
    created: dt.datetime  #: UTC, tz-aware
    variant: Variant
    first_dealer: Seat
    seed: int  #: below 2**53
    creator_hash: str
    status: TableStatus
    #: Seconds each person has for a turn before a stand-in plays it; ``None``: no limit.
    turn_seconds: int | None = None
    #: Whether a seated person may ask for a hint on their turn (docs/WEB.md, Hints).
    hints: bool = True
    #: Seconds of each person's time bank for the match, spent once a turn's time is up
    #: (docs/WEB.md, Absent players); 0 without a turn time.
    time_bank_seconds: int = 0
    #: The table's name as its creator gave it ("Anna's table"); ``None``: none given.
    name: str | None = None
    #: The table of the rematch that followed this finished match, if one did (docs/WEB.md).
    next_id: str | None = None
    #: Whether the lobby lists it (a game against the computer is not listed).
    listed: bool = True
    #: Why the table was closed (status ``closed``), else ``None``.
    closed: ClosedBy | None = None
    #: The match ends after this many deals even if no team is on the target (a club night's
    #: round, docs/HOSTING.md); ``None``: only as the rules end it.
    deal_limit: int | None = None


@dataclass(frozen=True, slots=True)
class StoredTable:
    """Everything stored about one table."""

    table: TableRow
    seats: tuple[SeatRow, SeatRow, SeatRow, SeatRow]  #: in N, E, S, W order
    #: every stored deal with its actions, each deal naming its dealer; ``None`` before the
    #: first deal. ``record.replay()`` gives the match as it stands.
    record: Record | None
    #: The seconds of time bank left of each person who has spent some (docs/WEB.md, Absent
    #: players); a seat not here has the table's whole bank.
    banks: dict[Seat, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Listed:
    """One table of the lobby's list: its row and seats, and the times the lobby shows."""

    stored: StoredTable  #: without its record
    finished: dt.datetime | None  #: when its match ended
    seen: dt.datetime | None  #: when the last person connected to it left; None: nobody yet


@dataclass(frozen=True, slots=True)
class Listing:
    """One page of the lobby's list, and how many tables the whole list has."""

    tables: list[Listed]
    total: int
