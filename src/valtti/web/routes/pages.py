"""The pages: the lobby, a table's page (seat, watch, replay), the rules and the not-found
page, each a static file of web/static. They are no part of the API: the OpenAPI schema leaves
them out."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from fastapi import APIRouter
from fastapi.responses import FileResponse

from valtti.web.deps import TableRoom
from valtti.web.routing import Route

#: The pages' files, served under /static as they are.
STATIC: Final = Path(__file__).parent.parent / "static"

router = APIRouter(include_in_schema=False, route_class=Route)


@router.get("/")
async def lobby_page() -> FileResponse:
    return FileResponse(STATIC / "lobby.html")


@router.get("/t/{table_id}")
async def table_page(room: TableRoom) -> FileResponse:
    """The page of a table that exists; the not-found page otherwise (``TableRoom``)."""
    return FileResponse(STATIC / "table.html")


@router.get("/rules")
async def rules_page() -> FileResponse:
    return FileResponse(STATIC / "rules.html")


def not_found_page() -> FileResponse:
    """404 outside /api/: a heading, a line and a link to the lobby (docs/WEB.md)."""
    return FileResponse(STATIC / "notfound.html", status_code=404)
