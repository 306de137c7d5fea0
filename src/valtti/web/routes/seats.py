"""``POST /api/tables/{id}/seats/{seat}``: a person takes an open seat."""

from __future__ import annotations

from fastapi import APIRouter, Depends

from valtti.web.answers import TakenSeat, letter, refusals
from valtti.web.club.deps import ClubPlayer, reserved_for, seat_member
from valtti.web.deps import SeatToTake, admit_join
from valtti.web.routing import BodyLimitedRoute

router = APIRouter(prefix="/api/tables", tags=["seats"], route_class=BodyLimitedRoute)


@router.post(
    "/{table_id}/seats/{seat}",
    dependencies=[Depends(admit_join)],
    responses=refusals(400, 401, 403, 404, 409, 413, 429),
)
async def take_seat(wanted: SeatToTake, player: ClubPlayer) -> TakenSeat:
    """The seat's token (body: ``{"nickname": …}``); ``409`` if the seat is taken. Each
    request counts against its client address's seats a minute (``--joins-per-minute``).
    In club mode only a member (seated under their member's name) or a guest with the
    table's key (``?guest=``) may (``401 not_signed_in``), and a club night's seat is its
    member's (``403 reserved``)."""
    nickname = wanted.nickname if player.member is None else player.member.name
    await reserved_for(player, wanted.room.id, wanted.seat)
    token = await wanted.room.join(wanted.seat, nickname)
    await seat_member(player, wanted.room.id, wanted.seat)
    return TakenSeat(token=token, seat=letter(wanted.seat))
