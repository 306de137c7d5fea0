"""A finished match's review (docs/REVIEW.md): each person's decisions against the best on what
their seat knew and with every hand open, each deal's costliest marked with the better move and
its reason (``coach.review``), made once and kept with the match (``web.referee.reviews``), with the
marks' thresholds (``coach.review.MARKS``) for a page's legend."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from valtti.coach.review import MARKS
from valtti.web.answers import refusals
from valtti.web.deps import FinishedRoom, ReviewsDep
from valtti.web.routing import BodyLimitedRoute

router = APIRouter(prefix="/api/tables", tags=["review"], route_class=BodyLimitedRoute)


class Mark(BaseModel):
    """A decision is marked ``mark`` where it lost ``loss`` or more on what its seat knew (and
    less than the next mark's), in match equity."""

    mark: str
    loss: float


class MatchReview(BaseModel):
    """``GET /api/tables/{id}/review``: ``coach.review.MatchReview.to_dict()``, and the
    ``marks`` a decision's ``mark`` is given by, largest first. ``unsolved``: the decisions not
    solved with every hand open within the review's budget (absent, so 0, in reviews kept from
    before the budget)."""

    seats: list[str]
    deals: list[dict[str, Any]]
    lost: dict[str, float]
    exact_lost: dict[str, float]
    unsolved: int = 0
    marks: list[Mark]


#: ``MatchReview.marks``.
MARKS_JSON: list[dict[str, Any]] = [{"mark": mark, "loss": loss} for loss, mark in MARKS]


@router.get("/{table_id}/review", response_model=MatchReview, responses=refusals(404, 409, 503))
async def get_review(room: FinishedRoom, reviews: ReviewsDep) -> JSONResponse:
    """The review of the people's seats (every seat's where only computers played), made once
    (as the match ended, where a person played); ``503 review_failed`` when it could not be
    made (asking again tries again)."""
    review = json.loads(await reviews.of(room))
    return JSONResponse({**review, "marks": MARKS_JSON})
