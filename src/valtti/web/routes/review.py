"""A finished match's review (docs/REVIEW.md): each person's decisions against the best on what
their seat knew and with every hand open, each deal's costliest marked with the better move and
its reason (``players.review``), made once and kept with the match (``web.reviews``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response
from pydantic import BaseModel

from valtti.web.answers import refusals
from valtti.web.deps import FinishedRoom, ReviewsDep
from valtti.web.routing import BodyLimitedRoute

router = APIRouter(prefix="/api/tables", tags=["review"], route_class=BodyLimitedRoute)


class MatchReview(BaseModel):
    """``GET /api/tables/{id}/review``: ``players.review.MatchReview.to_dict()``. ``unsolved``:
    the decisions not solved with every hand open within the review's budget (absent, so 0,
    in reviews kept from before the budget)."""

    seats: list[str]
    deals: list[dict[str, Any]]
    lost: dict[str, float]
    exact_lost: dict[str, float]
    unsolved: int = 0


@router.get("/{table_id}/review", response_model=MatchReview, responses=refusals(404, 409, 503))
async def get_review(room: FinishedRoom, reviews: ReviewsDep) -> Response:
    """The review of the people's seats (every seat's where only computers played), made once;
    ``503 review_failed`` when it could not be made (asking again tries again)."""
    return Response(await reviews.of(room), media_type="application/json")
