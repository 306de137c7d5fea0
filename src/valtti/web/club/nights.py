"""Club nights at play (docs/HOSTING.md, "A club night"): a night's rounds seated and started,
the next round once every table of one has finished, the standings, the night's ratings, and
what is kept from whom until every table has played a deal.

Every table of a round is an ordinary table (web/room.py, driven by ``valtti.table``) with
the round's seed, so that each deals the same cards in the same order, and a deal limit, so
that each plays the round's deals and no more. A round's tables are stored with the night in
one transaction, the next round only once (``NightStore.add_round``): a restart, or a kill,
resumes the tables as any table, and ``resume`` seats a round that was due.

Nothing of a round's deals leaves a table before every table of the round has finished: its
record, replay and review, its spectators and a member's records are refused (``embargoed``)
while any table of its round is unfinished, and the standings count a deal only once every
table has played it (or will not).
"""

from __future__ import annotations

import asyncio
import csv
import io
import logging
import secrets
from collections.abc import Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any

from valtti.engine import Seat, Variant
from valtti.table import first_dealer, fresh_seed
from valtti.web.club.duplicate import (
    ScoredDeal,
    TableDeal,
    entrant_of,
    entrants,
    score_deal,
    seating,
    standings,
)
from valtti.web.club.models import NewNight
from valtti.web.club.ratings import Rated, anchor, rate
from valtti.web.club.service import Club
from valtti.web.db.club import Member
from valtti.web.db.nights import NewRoundTable, NightRow, NightStore, NightTable
from valtti.web.db.rows import SeatRow, TableRow
from valtti.web.db.store import Store
from valtti.web.referee.errors import RoomError
from valtti.web.referee.room import Room
from valtti.web.referee.rooms import TABLE_ID, Rooms
from valtti.web.referee.seats import new_token, token_hash

log = logging.getLogger(__name__)


class Nights:
    """The club nights of a server in club mode."""

    def __init__(self, store: Store, rooms: Rooms, club: Club) -> None:
        self.store = NightStore(store)
        self.tables = store
        self.rooms = rooms
        self.club = club
        self._advancing = asyncio.Lock()  #: one round is seated at a time
        self._tasks: set[asyncio.Task[None]] = set()

    # -- setting one up and playing it ---------------------------------------------------------

    async def create(self, host: Member, body: NewNight) -> NightRow:
        """A new night, its first round seated and begun; ``bad_member`` for a member who is
        none (or is disabled)."""
        found = {m.id: m for m in await asyncio.to_thread(self.club.store.members, body.members)}
        for member_id in body.members:
            member = found.get(member_id)
            if member is None or member.disabled:
                raise RoomError("bad_member", f"no member {member_id} who may play")
        slots: list[dict[str, Any]] = [{"member": m} for m in body.members]
        slots += [{"computer": body.computer}] * (4 * body.tables - len(slots))
        settings = {
            "tables": body.tables,
            "rounds": body.rounds,
            "deals": body.deals,
            "movement": body.movement,
            "computer": body.computer,
            "variant": body.variant.changes(),
            "turn_seconds": body.turn_seconds,
        }
        night = NightRow(
            secrets.token_urlsafe(8),
            datetime.now(UTC),
            body.name,
            host.id,
            settings,
            slots,
            "playing",
            None,
        )
        first = self._round_tables(night, 1)
        await asyncio.to_thread(self.store.create, night, first)
        await self._begin(first)
        return night

    def _round_tables(self, night: NightRow, round_: int) -> list[NewRoundTable]:
        """Round ``round_``'s tables, unstored: one fresh seed for all of them."""
        s = night.settings
        seed = fresh_seed()
        out = []
        for number, slots in enumerate(seating(s["movement"], s["tables"], round_), start=1):
            seats = []
            members: dict[Seat, int] = {}
            for seat, slot in zip(Seat, slots, strict=True):
                entrant = night.entrants[slot]
                if "member" in entrant:
                    members[seat] = entrant["member"]
                    seats.append(SeatRow(seat, "open", None, None))
                else:
                    seats.append(SeatRow(seat, "computer", entrant["computer"], None))
            row = TableRow(
                id=secrets.token_urlsafe(8),
                created=datetime.now(UTC),
                variant=Variant.from_mapping(s["variant"]),
                first_dealer=first_dealer(seed),
                seed=seed,
                creator_hash=token_hash(new_token()),  # nobody's: the night closes no table
                status="waiting",
                turn_seconds=s["turn_seconds"],
                hints=False,  # a hint is a computer's advice: not at a tournament
                name=f"{night.name} · {round_}/{number}"[:40],
                listed=False,
                deal_limit=s["deals"],
            )
            out.append(NewRoundTable(row, seats, number, slots, members))
        return out

    async def _begin(self, tables: Sequence[NewRoundTable]) -> None:
        for t in tables:
            room = await self.rooms.get(t.table.id)
            if room is not None:
                await room.begin()

    def finished(self, room: Room) -> None:
        """A table's match ended (``Rooms.on_finished``): rate it, or, at a night, seat the
        next round (or end the night) once every table of its round has finished."""
        task = asyncio.get_running_loop().create_task(self._after(room))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _after(self, room: Room) -> None:
        try:
            found = await self.round_of(room.id)
            if found is None:
                await self.club.rate_table(room)
            else:
                await self._advance(*found)
        except Exception:
            log.exception("table %s: what follows its end failed", room.id)

    async def resume(self) -> None:
        """Seat each night's next round that was due when the server stopped."""
        for night_id in await asyncio.to_thread(self.store.playing):
            tables = await asyncio.to_thread(self.store.tables, night_id)
            if tables:
                await self._advance(night_id, max(t.round for t in tables))

    async def _advance(self, night_id: str, round_: int) -> None:
        """Once every table of ``round_`` has finished: seat and begin the next round, or end
        the night and rate it."""
        async with self._advancing:
            if await asyncio.to_thread(self.store.unfinished, night_id, round_):
                return
            night = await asyncio.to_thread(self.store.night, night_id)
            if night is None or night.status != "playing":
                return
            if round_ < night.settings["rounds"]:
                tables = self._round_tables(night, round_ + 1)
                if await asyncio.to_thread(self.store.add_round, night_id, round_ + 1, tables):
                    await self._begin(tables)
                return
            if await asyncio.to_thread(self.store.finish, night_id, datetime.now(UTC)):
                await self._rate(night)

    # -- what may be seen ----------------------------------------------------------------------

    async def round_of(self, table_id: str) -> tuple[str, int] | None:
        """The night and round of the table, or ``None`` (also for what is no table id)."""
        if not TABLE_ID.fullmatch(table_id):
            return None
        return await asyncio.to_thread(self.store.round_of, table_id)

    async def embargoed(self, table_id: str) -> bool:
        """Whether the table is a night's whose round other tables are still playing: its
        deals are then kept from everyone but its players."""
        found = await self.round_of(table_id)
        if found is None:
            return False
        return bool(await asyncio.to_thread(self.store.unfinished, *found))

    # -- standings -----------------------------------------------------------------------------

    async def night(self, night_id: str) -> NightRow:
        """The night ``night_id``; ``not_found`` when there is none (or it is no night id,
        which is never asked of the store: PostgreSQL cannot compare a NUL)."""
        night = None
        if TABLE_ID.fullmatch(night_id):
            night = await asyncio.to_thread(self.store.night, night_id)
        if night is None:
            raise RoomError("not_found", f"no club night {night_id!r}")
        return night

    async def scored(self, night: NightRow) -> tuple[list[NightTable], list[ScoredDeal]]:
        """The night's tables, and its deals that every table of their round has played (or
        will not play), scored."""
        tables = await asyncio.to_thread(self.store.tables, night.id)
        played = await asyncio.to_thread(_played, self.tables, [t.table_id for t in tables])
        scored = []
        for round_ in sorted({t.round for t in tables}):
            here = [t for t in tables if t.round == round_]
            for deal in range(1, night.settings["deals"] + 1):
                results = []
                released = True
                for t in here:
                    points = played.get(t.table_id, {}).get(deal)
                    if points is not None:
                        results.append(TableDeal(t.number, t.slots, points))
                    elif t.status in ("waiting", "playing"):
                        released = False
                if released and results:
                    scored.append(score_deal(round_, deal, results))
        return tables, scored

    async def standings(self, night_id: str) -> dict[str, Any]:
        """The night's standings (docs/HOSTING.md): settings, entrants best first, each table,
        and each compared deal's results and matchpoints."""
        night = await self.night(night_id)
        tables, scored = await self.scored(night)
        names = await self._names(night)
        computers = self._computers(night)
        s = night.settings
        ranked = standings(s["movement"], s["tables"], scored)
        return {
            "id": night.id,
            "name": night.name,
            "status": night.status,
            "created": night.created.isoformat(),
            "finished": None if night.finished is None else night.finished.isoformat(),
            "settings": s,
            "round": max((t.round for t in tables), default=0),
            "standings": [
                {
                    # Equal percentages share a place ("2="), as the ratings take them.
                    "place": 1 + sum(other.percent > st.percent for other in ranked),
                    "tied": sum(other.percent == st.percent for other in ranked) > 1,
                    "entrant": st.entrant,
                    "names": names[st.entrant],
                    "computers": computers[st.entrant],
                    "members": self._members_of(night, st.entrant),
                    "matchpoints": st.matchpoints,
                    "top": st.top,
                    "percent": st.percent,
                    "game_points": st.game_points,
                    "deals": st.deals,
                }
                for st in ranked
            ],
            "tables": [
                {
                    "round": t.round,
                    "number": t.number,
                    "id": t.table_id,
                    "status": t.status,
                    "seats": {str(seat): t.slots[seat] for seat in Seat},
                    "players": {
                        str(seat): self._slot_name(night, names, t.slots[seat]) for seat in Seat
                    },
                    "computers": {
                        str(seat): night.entrants[t.slots[seat]].get("computer") for seat in Seat
                    },
                }
                for t in tables
            ],
            "deals": [
                {
                    "round": d.round,
                    "deal": d.deal,
                    "top": d.top,
                    "results": [
                        {**asdict(r), "ns_mp": mp[0], "ew_mp": mp[1]}
                        for r, mp in zip(d.results, d.matchpoints, strict=True)
                    ],
                }
                for d in scored
            ],
        }

    async def csv(self, night_id: str) -> str:
        """The standings as CSV: place, names, matchpoints, top, percent, game points."""
        data = await self.standings(night_id)
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["place", "names", "matchpoints", "top", "percent", "game_points"])
        for row in data["standings"]:
            writer.writerow(
                [
                    f"{row['place']}=" if row["tied"] else row["place"],
                    " & ".join(row["names"]),
                    row["matchpoints"],
                    row["top"],
                    row["percent"],
                    row["game_points"],
                ]
            )
        return out.getvalue()

    def _members_of(self, night: NightRow, entrant: int) -> list[int]:
        s = night.settings
        return [
            e["member"]
            for slot, e in enumerate(night.entrants)
            if "member" in e and entrant_of(s["movement"], slot) == entrant
        ]

    async def _names(self, night: NightRow) -> dict[int, list[str]]:
        """Each entrant's players' names (a member's name, or the computer player's)."""
        ids = [e["member"] for e in night.entrants if "member" in e]
        members = {m.id: m.name for m in await asyncio.to_thread(self.club.store.members, ids)}
        s = night.settings
        names: dict[int, list[str]] = {e: [] for e in range(entrants(s["movement"], s["tables"]))}
        for slot, e in enumerate(night.entrants):
            name = members.get(e["member"], "?") if "member" in e else e["computer"]
            names[entrant_of(s["movement"], slot)].append(name)
        return names

    def _computers(self, night: NightRow) -> dict[int, list[str | None]]:
        """Each entrant's players as ``_names`` lists them: the computer player's spec, or
        ``None`` for a member (the pages name a computer player by its level)."""
        s = night.settings
        count = entrants(s["movement"], s["tables"])
        out: dict[int, list[str | None]] = {e: [] for e in range(count)}
        for slot, e in enumerate(night.entrants):
            out[entrant_of(s["movement"], slot)].append(e.get("computer"))
        return out

    def _slot_name(self, night: NightRow, names: dict[int, list[str]], slot: int) -> str:
        s = night.settings
        entrant = entrant_of(s["movement"], slot)
        if s["movement"] == "pairs":
            return names[entrant][slot % 2]
        return names[entrant][0]

    async def seat_of(self, night_id: str, member: Member) -> tuple[Room, Seat] | None:
        """The member's table and seat in the night's latest round, or ``None``."""
        night = await self.night(night_id)
        tables = await asyncio.to_thread(self.store.tables, night_id)
        if not tables:
            return None
        latest = max(t.round for t in tables)
        for t in tables:
            if t.round != latest:
                continue
            for seat in Seat:
                entrant = night.entrants[t.slots[seat]]
                if entrant.get("member") == member.id:
                    room = await self.rooms.get(t.table_id)
                    return None if room is None else (room, seat)
        return None

    # -- ratings -------------------------------------------------------------------------------

    async def _rate(self, night: NightRow) -> None:
        """The members' rating changes from the night's final standings: each entrant a team
        (a pair, or one player), placed by percentage (equal percentages tie)."""
        _, scored = await self.scored(night)
        s = night.settings
        ranked = standings(s["movement"], s["tables"], scored)
        ids = [e["member"] for e in night.entrants if "member" in e]
        members = {m.id: m for m in await asyncio.to_thread(self.club.store.members, ids)}
        teams: list[list[Rated]] = []
        ranks: list[float] = []
        for st in ranked:
            team = []
            for slot, e in enumerate(night.entrants):
                if entrant_of(s["movement"], slot) != st.entrant:
                    continue
                member = members.get(e.get("member", -1))
                if member is not None:
                    team.append(Rated(member.id, member.mu, member.sigma))
                else:
                    team.append(Rated(None, *anchor(e.get("computer", "heuristic"))))
            teams.append(team)
            ranks.append(-st.percent)
        changes = rate(teams, ranks, f"night:{night.id}", datetime.now(UTC))
        if changes:
            await asyncio.to_thread(self.club.store.rate, changes)


def _played(store: Store, ids: Sequence[str]) -> dict[str, dict[int, tuple[int, int]]]:
    """The game points NS and EW made in each deal (by number, from 1) each of the tables
    ``ids`` has played to its end."""
    out: dict[str, dict[int, tuple[int, int]]] = {}
    for table_id in ids:
        stored = store.load(table_id)
        if stored is None or stored.record is None:
            continue
        match = stored.record.replay()
        out[table_id] = {
            number: (d.result().game_points[0], d.result().game_points[1])
            for number, d in enumerate(match.deals, start=1)
            if d.is_over()
        }
    return out
