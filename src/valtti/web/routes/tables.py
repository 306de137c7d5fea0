"""``/api/tables``: the lobby's list, a new table, and a table's summary."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from valtti.web.answers import CreatedTable, TableList, TableSummary, letter, refusals
from valtti.web.db.rows import TableStatus
from valtti.web.deps import AdmittedTable, RoomsDep, TableRoom
from valtti.web.routing import BodyLimitedRoute

router = APIRouter(prefix="/api/tables", tags=["tables"], route_class=BodyLimitedRoute)


@router.get("", response_model=TableList, responses=refusals(400))
async def list_tables(
    rooms: RoomsDep,
    status: TableStatus | None = None,
    page: Annotated[int, Query(ge=1, le=1_000_000)] = 1,
) -> dict[str, Any]:
    """One page of the lobby's list: waiting tables first, then playing, then finished (for a
    day after their end), each newest first, ``rooms.PAGE_SIZE`` a page."""
    return await rooms.listing(status, page)


@router.post("", status_code=201, responses=refusals(400, 413, 429))
async def create_table(request: Request, rooms: RoomsDep, body: AdmittedTable) -> CreatedTable:
    """A new table; the creator may take a seat at once (``seat``, with ``nickname``)."""
    creator = body.creator
    room, creator_token, token = await rooms.create(
        body.variant,
        body.seats,
        creator,
        body.turn_seconds,
        body.hints,
        body.bank,
        body.name,
    )
    return CreatedTable(
        id=room.id,
        link=f"{request.base_url}t/{room.id}",
        token=token,
        creator_token=creator_token,
        seat=None if creator is None else letter(creator[0]),
    )


@router.get("/{table_id}", response_model=TableSummary, responses=refusals(404))
async def table_summary(room: TableRoom) -> dict[str, Any]:
    return room.summary()
