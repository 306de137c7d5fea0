"""Club nights in the store (docs/HOSTING.md, "A club night"): the night, and each round's
tables, stored with those tables' own rows in one transaction, so that a night never has half
a round. The tables themselves are ordinary stored tables (db/store.py): their deals and
actions survive a restart, and so does the night.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError

from valtti.engine import Seat
from valtti.web.db.rows import SeatRow, TableRow
from valtti.web.db.schema import (
    member_seats_table,
    night_tables_table,
    nights_table,
    tables_table,
)
from valtti.web.db.store import Store

NightStatus = Literal["playing", "finished"]


@dataclass(frozen=True, slots=True)
class NightRow:
    """A club night as stored: its settings (``club.nights.NightSettings``'s fields) and
    each entrant slot's player (``{"member": id}`` or ``{"computer": spec}``)."""

    id: str
    created: dt.datetime
    name: str
    host_id: int
    settings: dict[str, Any]
    entrants: list[dict[str, Any]]
    status: NightStatus
    finished: dt.datetime | None


@dataclass(frozen=True, slots=True)
class NightTable:
    """One table of a night's round: the slots at N, E, S, W."""

    round: int
    number: int
    table_id: str
    slots: tuple[int, int, int, int]
    status: str  #: the table's status (db/rows.TableStatus)


@dataclass(frozen=True, slots=True)
class NewRoundTable:
    """A table of a round to store: its row and seats, number, slots, and members by seat."""

    table: TableRow
    seats: Sequence[SeatRow]
    number: int
    slots: tuple[int, int, int, int]
    members: Mapping[Seat, int]


class NightStore:
    """The club nights of the database of ``store``."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create(self, night: NightRow, first: Sequence[NewRoundTable]) -> None:
        """Store a new night with its first round's tables."""
        with self.store.transaction() as connection:
            connection.execute(
                insert(nights_table).values(
                    id=night.id,
                    created=night.created,
                    name=night.name,
                    host_id=night.host_id,
                    settings=json.dumps(night.settings, sort_keys=True),
                    entrants=json.dumps(night.entrants),
                    status=night.status,
                )
            )
            self._insert_round(connection, night.id, 1, first)

    def add_round(self, night_id: str, round_: int, tables: Sequence[NewRoundTable]) -> bool:
        """Store round ``round_``'s tables; ``False`` (nothing stored) if it has them already."""
        try:
            with self.store.transaction() as connection:
                self._insert_round(connection, night_id, round_, tables)
        except IntegrityError:
            return False
        return True

    @staticmethod
    def _insert_round(
        connection: Any, night_id: str, round_: int, tables: Sequence[NewRoundTable]
    ) -> None:
        for t in tables:
            Store.insert_table(connection, t.table, t.seats)
            connection.execute(
                insert(night_tables_table).values(
                    night_id=night_id,
                    round=round_,
                    number=t.number,
                    table_id=t.table.id,
                    seats=json.dumps(list(t.slots)),
                )
            )
            for seat, member_id in t.members.items():
                connection.execute(
                    insert(member_seats_table).values(
                        table_id=t.table.id, seat=str(seat), member_id=member_id
                    )
                )

    def night(self, night_id: str) -> NightRow | None:
        with self.store.snapshot() as connection:
            row = connection.execute(
                select(nights_table).where(nights_table.c.id == night_id)
            ).one_or_none()
        if row is None:
            return None
        return NightRow(
            row.id,
            row.created,
            row.name,
            row.host_id,
            json.loads(row.settings),
            json.loads(row.entrants),
            row.status,
            row.finished,
        )

    def nights(self, limit: int = 50) -> list[NightRow]:
        """The newest nights, newest first."""
        with self.store.snapshot() as connection:
            ids = list(
                connection.scalars(
                    select(nights_table.c.id)
                    .order_by(nights_table.c.created.desc(), nights_table.c.id)
                    .limit(limit)
                )
            )
        return [n for n in (self.night(i) for i in ids) if n is not None]

    def playing(self) -> list[str]:
        with self.store.snapshot() as connection:
            return list(
                connection.scalars(
                    select(nights_table.c.id).where(nights_table.c.status == "playing")
                )
            )

    def tables(self, night_id: str) -> list[NightTable]:
        """Every table of the night so far, by round and number."""
        n, t = night_tables_table.c, tables_table.c
        with self.store.snapshot() as connection:
            return [
                NightTable(r.round, r.number, r.table_id, _four(json.loads(r.seats)), r.status)
                for r in connection.execute(
                    select(n.round, n.number, n.table_id, n.seats, t.status)
                    .join(tables_table, t.id == n.table_id)
                    .where(n.night_id == night_id)
                    .order_by(n.round, n.number)
                )
            ]

    def round_of(self, table_id: str) -> tuple[str, int] | None:
        """The night and round the table is part of, or ``None``."""
        n = night_tables_table.c
        with self.store.snapshot() as connection:
            row = connection.execute(
                select(n.night_id, n.round).where(n.table_id == table_id)
            ).one_or_none()
        return None if row is None else (row.night_id, row.round)

    def unfinished(self, night_id: str, round_: int) -> int:
        """How many tables of the round are still waiting or being played."""
        n, t = night_tables_table.c, tables_table.c
        with self.store.snapshot() as connection:
            return (
                connection.scalar(
                    select(func.count())
                    .select_from(night_tables_table)
                    .join(tables_table, t.id == n.table_id)
                    .where(
                        n.night_id == night_id,
                        n.round == round_,
                        t.status.in_(("waiting", "playing")),
                    )
                )
                or 0
            )

    def finish(self, night_id: str, at: dt.datetime) -> bool:
        """Mark the night finished; whether it was playing (only one caller finishes it)."""
        with self.store.transaction() as connection:
            result = connection.execute(
                update(nights_table)
                .where(nights_table.c.id == night_id, nights_table.c.status == "playing")
                .values(status="finished", finished=at)
            )
            return result.rowcount == 1


def _four(items: Sequence[int]) -> tuple[int, int, int, int]:
    a, b, c, d = items
    return (a, b, c, d)
