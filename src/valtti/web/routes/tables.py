"""``/api/tables``: the lobby's list (or a person's own tables), a new table, a table's
summary, and closing it."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from valtti.web.answers import CreatedTable, TableList, TableSummary, letter, refusals
from valtti.web.club.deps import ClubPlayer, MaybeClub, VisitorDep, seat_member
from valtti.web.db.rows import ListedStatus
from valtti.web.deps import AdmittedTable, RoomsDep, TableRoom
from valtti.web.messages import CloseTable
from valtti.web.referee.errors import RoomError
from valtti.web.referee.rooms import MAX_IDS, TABLE_ID
from valtti.web.routing import BodyLimitedRoute

router = APIRouter(prefix="/api/tables", tags=["tables"], route_class=BodyLimitedRoute)


@router.get("", response_model=TableList, responses=refusals(400, 401))
async def list_tables(
    request: Request,
    rooms: RoomsDep,
    club: MaybeClub,
    visitor: VisitorDep,
    status: ListedStatus | None = None,
    page: Annotated[int, Query(ge=1, le=1_000_000)] = 1,
    ids: Annotated[str | None, Query(max_length=MAX_IDS * 65)] = None,
) -> dict[str, Any]:
    """One page of the lobby's list: waiting tables first, then playing, then finished (for a
    day after their end), each newest first, ``rooms.PAGE_SIZE`` a page; a table its
    creator left out of the list (a game against the computer) and a closed one are not in
    it. ``ids`` (comma-separated, at most ``rooms.MAX_IDS``): these tables instead, listed or
    not, in the same order on one page (a person's own, which their browser knows). In club
    mode the list is the members' (``401 not_signed_in`` for anyone else) unless the club lets
    anyone watch: its tables' names and scores are the club's, as watching them is."""
    wanted = None if ids is None else table_ids(ids)
    members_only = club is not None and await club.watchers() != "anyone"
    if members_only and wanted is None and visitor.member is None:
        raise RoomError("not_signed_in", "the club's tables are listed to its members")
    nights = request.app.state.nights
    if wanted is not None and nights is not None:
        # A club night's table whose round others still play says nothing of its score.
        wanted = [i for i in wanted if not await nights.embargoed(i)]
    return await rooms.listing(status, page, wanted)


def table_ids(text: str) -> list[str]:
    """The table ids of ``ids``; ``bad_request`` for more than MAX_IDS or one that is none."""
    found = text.split(",")
    if len(found) > MAX_IDS or not all(TABLE_ID.fullmatch(i) for i in found):
        raise RoomError("bad_request", f"ids are at most {MAX_IDS} table ids, comma-separated")
    return found


@router.post("", status_code=201, responses=refusals(400, 401, 403, 413, 429))
async def create_table(
    request: Request, rooms: RoomsDep, player: ClubPlayer, body: AdmittedTable
) -> CreatedTable:
    """A new table; the creator may take a seat at once (``seat``, with ``nickname``). In club
    mode only a member may (``401 not_signed_in``), seated under their member's name; the
    answer then has the key to give guests (``guest_link``)."""
    creator = body.creator
    member = player.member
    if creator is not None and member is not None:
        creator = (creator[0], member.name)
    room, creator_token, token = await rooms.create(
        body.variant,
        body.seats,
        creator,
        body.turn_seconds,
        body.hints,
        body.bank,
        body.name,
        body.in_lobby,
    )
    if creator is not None and member is not None:
        await seat_member(player, room.id, creator[0])
    guest = None if player.club is None else player.club.guest_key(room.id)
    return CreatedTable(
        id=room.id,
        link=f"{request.base_url}t/{room.id}",
        token=token,
        creator_token=creator_token,
        seat=None if creator is None else letter(creator[0]),
        guest_link=None if guest is None else f"{request.base_url}t/{room.id}?guest={guest}",
    )


@router.get("/{table_id}", response_model=TableSummary, responses=refusals(404, 409))
async def table_summary(request: Request, room: TableRoom) -> dict[str, Any]:
    """The table's summary; ``409 not_finished`` for a club night's table while other tables
    of its round still play its deals (its score would tell of them)."""
    nights = request.app.state.nights
    if nights is not None and await nights.embargoed(room.id):
        raise RoomError("not_finished", "other tables of the club night still play these deals")
    return room.summary()


@router.post(
    "/{table_id}/close", response_model=TableSummary, responses=refusals(400, 403, 404, 409)
)
async def close_table(room: TableRoom, body: CloseTable) -> dict[str, Any]:
    """The table's creator closes it before its match ends: nothing more is played, and it
    leaves the lobby; ``403 not_creator`` for another token, ``409 finished`` or ``closed``."""
    await room.close_table(body.creator_token)
    return room.summary()
