"""What the routes need, as FastAPI dependencies: the server's tables, a table that exists (or
``404``), a finished one, a valid request for a seat of one, and the limits per client address
on new tables and seats taken.

Each is a type a route names in its signature (``room: TableRoom``); ``create_app`` puts what
they read on ``app.state`` (``rooms`` once the application starts, ``limits``, ``reach``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from valtti.engine import Seat
from valtti.web.answers import Reach
from valtti.web.messages import NewTable, SeatName, TakeSeat
from valtti.web.referee.chat import Limits as ChatLimits
from valtti.web.referee.errors import RoomError
from valtti.web.referee.reviews import Reviews
from valtti.web.referee.room import Room
from valtti.web.referee.rooms import Rooms
from valtti.web.security import PerMinute, client_of


@dataclass(frozen=True, slots=True)
class ClientLimits:
    """The limits per client address that the application keeps (docs/WEB.md, "Security"):
    tables created and seats taken in any minute, and the chat's rates."""

    creations: PerMinute
    joins: PerMinute
    chats: ChatLimits


async def get_rooms(connection: HTTPConnection) -> Rooms:
    """The server's tables."""
    rooms: Rooms = connection.app.state.rooms
    return rooms


async def get_reviews(connection: HTTPConnection) -> Reviews:
    """The server's finished matches' reviews."""
    reviews: Reviews = connection.app.state.reviews
    return reviews


async def get_limits(connection: HTTPConnection) -> ClientLimits:
    limits: ClientLimits = connection.app.state.limits
    return limits


async def get_reach(connection: HTTPConnection) -> Reach:
    reach: Reach = connection.app.state.reach
    return reach


RoomsDep = Annotated[Rooms, Depends(get_rooms)]
ReviewsDep = Annotated[Reviews, Depends(get_reviews)]
LimitsDep = Annotated[ClientLimits, Depends(get_limits)]
ReachDep = Annotated[Reach, Depends(get_reach)]


async def existing_room(rooms: RoomsDep, table_id: str) -> Room:
    """The table ``table_id``; ``RoomError("not_found")`` (404) if there is none."""
    room = await rooms.get(table_id)
    if room is None:
        raise RoomError("not_found", f"no table {table_id!r}")
    return room


TableRoom = Annotated[Room, Depends(existing_room)]


async def finished_room(connection: HTTPConnection, room: TableRoom) -> Room:
    """The table ``table_id`` once its match is over; ``RoomError("not_finished")`` (409)
    before: its record holds every hand. So too while it is a club night's table whose round
    other tables are still playing (web/club/nights.py): the same cards are in play there."""
    if room.status != "finished":
        raise RoomError("not_finished", "the match is not over: its record holds every hand")
    nights = connection.app.state.nights
    if nights is not None and await nights.embargoed(room.id):
        raise RoomError(
            "not_finished", "other tables of the club night still play these deals: wait for them"
        )
    return room


FinishedRoom = Annotated[Room, Depends(finished_room)]


@dataclass(frozen=True, slots=True)
class SeatRequest:
    """A person's request for a seat: the table, the seat and their nickname."""

    room: Room
    seat: Seat
    nickname: str


async def seat_request(
    rooms: RoomsDep, table_id: str, seat: SeatName, body: TakeSeat
) -> SeatRequest:
    """A valid request for a seat of a table that exists: a bad seat or body is refused
    (400) before the table is looked up (404), as ``existing_room`` would otherwise."""
    return SeatRequest(await existing_room(rooms, table_id), seat, body.nickname)


SeatToTake = Annotated[SeatRequest, Depends(seat_request)]


async def admit_creation(request: Request, limits: LimitsDep, body: NewTable) -> NewTable:
    """A valid new table's body, counted against its client address's tables a minute
    (``--tables-per-minute``); ``RoomError("too_many")`` (429) past the limit. A body that is
    refused is not counted."""
    if not limits.creations.admit(client_of(request.scope)):
        raise RoomError("too_many", f"at most {limits.creations.limit} new tables a minute")
    return body


AdmittedTable = Annotated[NewTable, Depends(admit_creation)]


async def admit_join(request: Request, limits: LimitsDep) -> None:
    """Count a seat taken by the client address (``--joins-per-minute``), before anything
    else of the request is looked at; ``RoomError("too_many")`` (429) past the limit."""
    if not limits.joins.admit(client_of(request.scope)):
        raise RoomError("too_many", f"at most {limits.joins.limit} seats taken a minute")
