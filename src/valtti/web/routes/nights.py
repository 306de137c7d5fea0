"""``/api/club/nights``: club nights (docs/HOSTING.md, "A club night"): a new one, the list,
a night's standings as JSON and CSV, and a member's seat in its current round. ``404``
without club mode."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from starlette.requests import HTTPConnection

from valtti.web.answers import letter, refusals
from valtti.web.club.deps import ActingMember, ClubDep, VisitorDep
from valtti.web.club.models import NewNight, NightSeat, TableNight
from valtti.web.club.nights import Nights
from valtti.web.referee.errors import RoomError
from valtti.web.routing import BodyLimitedRoute

router = APIRouter(prefix="/api/club/nights", tags=["nights"], route_class=BodyLimitedRoute)


async def get_nights(connection: HTTPConnection, club: ClubDep) -> Nights:
    nights: Nights = connection.app.state.nights
    return nights


NightsDep = Annotated[Nights, Depends(get_nights)]


async def may_watch(club: ClubDep, visitor: VisitorDep) -> None:
    """Standings are the club's: members only, unless anyone may watch (its setting)."""
    if visitor.member is None and await club.watchers() != "anyone":
        raise RoomError("not_signed_in", "sign in as a member of the club first")


Watching = Depends(may_watch)


@router.post("", status_code=201, responses=refusals(400, 403))
async def create_night(
    request: Request, nights: NightsDep, host: ActingMember, body: NewNight
) -> dict[str, Any]:
    """A new night, its first round seated and begun; its standings."""
    night = await nights.create(host, body)
    standings = await nights.standings(night.id)
    return {**standings, "link": f"{request.base_url}club/nights/{night.id}"}


@router.get("", dependencies=[Watching])
async def list_nights(nights: NightsDep) -> list[dict[str, Any]]:
    """The newest nights, newest first."""
    found = await asyncio.to_thread(nights.store.nights)
    return [
        {"id": n.id, "name": n.name, "status": n.status, "created": n.created.isoformat()}
        for n in found
    ]


@router.get("/{night_id}", dependencies=[Watching], responses=refusals(404))
async def night_standings(nights: NightsDep, night_id: str) -> dict[str, Any]:
    """The night's standings: settings, entrants best first, tables, and every deal compared
    so far (a deal only once every table of its round has played it)."""
    return await nights.standings(night_id)


@router.get("/{night_id}/results.csv", dependencies=[Watching], responses=refusals(404))
async def night_csv(nights: NightsDep, night_id: str) -> Response:
    """The standings as CSV (an attachment)."""
    text = await nights.csv(night_id)
    return Response(
        text,
        media_type="text/csv",
        headers={"Content-Disposition": f'attachment; filename="valtti-night-{night_id}.csv"'},
    )


@router.post("/{night_id}/seat", response_model=NightSeat, responses=refusals(404, 409))
async def take_night_seat(nights: NightsDep, member: ActingMember, night_id: str) -> NightSeat:
    """The member takes their seat of the night's current round: its table and token
    (``409 taken`` once they took it: their page keeps the token; ``404`` when the member
    plays no seat of it)."""
    found = await nights.seat_of(night_id, member)
    if found is None:
        raise RoomError("not_found", "you have no seat in this round")
    room, seat = found
    token = await room.join(seat, member.name)
    return NightSeat(table=room.id, token=token, seat=letter(seat))


@router.get(
    "/table/{table_id}", response_model=TableNight, dependencies=[Watching], responses=refusals(404)
)
async def night_of_table(nights: NightsDep, table_id: str) -> TableNight:
    """The club night a table is part of (its page links back to it), and whether its round
    is over everywhere (its replay and record then open); ``404`` for a table of none."""
    found = await nights.round_of(table_id)
    if found is None:
        raise RoomError("not_found", f"table {table_id!r} is no club night's")
    return TableNight(night=found[0], round=found[1], released=not await nights.embargoed(table_id))
