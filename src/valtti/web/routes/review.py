"""A finished match's review (docs/REVIEW.md): each person's decisions against the best on what
their seat knew and with every hand open, each deal's costliest marked with the better move and
its reason (``players.review``). Made once, in a computer players' worker so that the server's
play is not held up, one review at a time, and kept with the finished match (the latest
``KEPT`` matches reviewed, in memory)."""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from typing import Any, Final
from weakref import WeakKeyDictionary

from fastapi import APIRouter
from fastapi.responses import Response
from pydantic import BaseModel

from valtti.engine import Match, Seat
from valtti.players.review import review
from valtti.web.answers import refusals
from valtti.web.bots import Bots
from valtti.web.deps import FinishedRoom, RoomsDep
from valtti.web.routing import BodyLimitedRoute

router = APIRouter(prefix="/api/tables", tags=["review"], route_class=BodyLimitedRoute)

#: Finished matches whose review is kept.
KEPT: Final = 64
#: The level the review values each decision at (as the web's hint).
REVIEW_LEVEL: Final = "hard"


class MatchReview(BaseModel):
    """``GET /api/tables/{id}/review``: ``players.review.MatchReview.to_dict()``."""

    seats: list[str]
    deals: list[dict[str, Any]]
    lost: dict[str, float]
    exact_lost: dict[str, float]


#: Each finished match's review by its table's id, made or being made, the latest asked last.
_made: OrderedDict[str, asyncio.Task[str]] = OrderedDict()
#: One review at a time, per event loop (a semaphore belongs to one).
_one_at_a_time: WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    WeakKeyDictionary()
)


def review_json(match: Match, seats: list[Seat] | None) -> str:
    """The review of ``seats`` (every seat: ``None``) in ``match`` as JSON (in a worker)."""
    return json.dumps(review(match, seats, REVIEW_LEVEL).to_dict(), ensure_ascii=False)


async def _review(bots: Bots, match: Match, seats: list[Seat] | None) -> str:
    loop = asyncio.get_running_loop()
    slot = _one_at_a_time.setdefault(loop, asyncio.Semaphore(1))
    async with slot:
        return await bots.run(review_json, match, seats)


@router.get("/{table_id}/review", response_model=MatchReview, responses=refusals(404, 409))
async def get_review(room: FinishedRoom, rooms: RoomsDep) -> Response:
    """The review of the people's seats (every seat where only computers played), made once."""
    task = _made.get(room.id)
    if task is None or (task.done() and (task.cancelled() or task.exception() is not None)):
        assert room.match is not None
        people = [row.seat for row in room.seats if row.kind == "human"]
        task = asyncio.ensure_future(_review(rooms.bots, room.match, people or None))
        _made[room.id] = task
        while len(_made) > KEPT:
            _made.popitem(last=False)
    _made.move_to_end(room.id)
    return Response(await asyncio.shield(task), media_type="application/json")
