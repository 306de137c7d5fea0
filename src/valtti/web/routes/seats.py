"""``POST /api/tables/{id}/seats/{seat}``: a person takes an open seat."""

from __future__ import annotations

from fastapi import APIRouter, Depends

from valtti.web.answers import TakenSeat, letter, refusals
from valtti.web.deps import SeatToTake, admit_join
from valtti.web.routing import BodyLimitedRoute

router = APIRouter(prefix="/api/tables", tags=["seats"], route_class=BodyLimitedRoute)


@router.post(
    "/{table_id}/seats/{seat}",
    dependencies=[Depends(admit_join)],
    responses=refusals(400, 404, 409, 413, 429),
)
async def take_seat(wanted: SeatToTake) -> TakenSeat:
    """The seat's token (body: ``{"nickname": …}``); ``409`` if the seat is taken. Each
    request counts against its client address's seats a minute (``--joins-per-minute``)."""
    token = await wanted.room.join(wanted.seat, wanted.nickname)
    return TakenSeat(token=token, seat=letter(wanted.seat))
