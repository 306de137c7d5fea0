"""A finished match's record (RECORD.md) and replay, each made once and sent as it is."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from valtti.web.answers import MatchRecord, Replay, refusals
from valtti.web.deps import FinishedRoom
from valtti.web.routing import BodyLimitedRoute

router = APIRouter(prefix="/api/tables", tags=["records"], route_class=BodyLimitedRoute)


@router.get("/{table_id}/record", response_model=MatchRecord, responses=refusals(404, 409))
async def record(room: FinishedRoom) -> Response:
    """The match as a RECORD.md file (an attachment), once it is over: it holds every hand."""
    return Response(
        room.record().to_json(),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="valtti-{room.id}.json"'},
    )


@router.get("/{table_id}/replay", response_model=Replay, responses=refusals(404, 409))
async def replay(room: FinishedRoom) -> Response:
    """One step at the start of each deal and one after each action, every hand shown."""
    return Response(await room.replay_json(), media_type="application/json")
