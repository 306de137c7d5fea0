"""The pages: the lobby, a table's page (seat, watch, replay), the rules and the not-found
page, each a static file of web/static. They are no part of the API: the OpenAPI schema leaves
them out."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, RedirectResponse

from valtti.web.deps import TableRoom
from valtti.web.reach import moved_to
from valtti.web.routing import Route

#: The pages' files, served under /static as they are.
STATIC: Final = Path(__file__).parent.parent / "static"

router = APIRouter(include_in_schema=False, route_class=Route)


def _page(request: Request, name: str) -> FileResponse | RedirectResponse:
    """The page ``name``, or a redirect to it at the server's home address when it was asked
    for at another loopback address (``reach.moved_to``; docs/WEB.md, One address)."""
    home: str | None = request.app.state.home
    there = None if home is None else moved_to(home, str(request.url))
    if there is not None:
        return RedirectResponse(there, status_code=307)
    return FileResponse(STATIC / name)


@router.get("/", response_model=None)
async def lobby_page(request: Request) -> FileResponse | RedirectResponse:
    return _page(request, "lobby.html")


@router.get("/t/{table_id}", response_model=None)
async def table_page(request: Request, room: TableRoom) -> FileResponse | RedirectResponse:
    """The page of a table that exists; the not-found page otherwise (``TableRoom``)."""
    return _page(request, "table.html")


@router.get("/rules", response_model=None)
async def rules_page(request: Request) -> FileResponse | RedirectResponse:
    return _page(request, "rules.html")


@router.get("/club", response_model=None)
async def club_page(request: Request) -> FileResponse | RedirectResponse:
    """Club mode's page: set up, sign up, sign in, the account, members and invitations."""
    return _page(request, "club.html")


@router.get("/club/nights/{night_id}", response_model=None)
async def night_page(request: Request, night_id: str) -> FileResponse | RedirectResponse:
    """A club night's standings, live while it is played and printable once it is over."""
    return _page(request, "night.html")


@router.get("/club/members/{member_id}", response_model=None)
async def member_page(request: Request, member_id: int) -> FileResponse | RedirectResponse:
    """A member's rating, its history and their matches."""
    return _page(request, "member.html")


def not_found_page() -> FileResponse:
    """404 outside /api/: a heading, a line and a link to the lobby (docs/WEB.md)."""
    return FileResponse(STATIC / "notfound.html", status_code=404)
