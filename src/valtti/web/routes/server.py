"""``GET /api/server``: where people and friends on the local network open this server."""

from __future__ import annotations

from fastapi import APIRouter

from valtti.web.answers import Reach
from valtti.web.deps import ReachDep
from valtti.web.routing import Route

router = APIRouter(prefix="/api/server", tags=["server"], route_class=Route)


@router.get("")
async def server_reach(reach: ReachDep) -> Reach:
    """The origin people open the server at (``--public-url``), and the addresses friends on
    the local network can open (``--host 0.0.0.0``; else none)."""
    return reach
