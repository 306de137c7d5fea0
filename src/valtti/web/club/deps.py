"""What club routes need, as FastAPI dependencies: the server's club (or ``404`` when it is
not in club mode), the member a request's session cookie signs in, and that member acting
through a page of this server (its CSRF token in ``X-CSRF-Token``)."""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from valtti.engine import Seat
from valtti.web.club.accounts import CSRF_HEADER, SESSION_COOKIE
from valtti.web.club.service import Club
from valtti.web.db.club import Member
from valtti.web.referee.errors import RoomError


@dataclass(frozen=True, slots=True)
class Visitor:
    """Whoever made a request: a member with their session (its token and CSRF token), or
    nobody signed in (``member`` ``None``)."""

    member: Member | None = None
    session: str | None = None
    csrf: str | None = None


async def get_club_or_none(connection: HTTPConnection) -> Club | None:
    """The server's club; ``None`` unless it runs in club mode."""
    club: Club | None = connection.app.state.club
    return club


async def get_club(club: Annotated[Club | None, Depends(get_club_or_none)]) -> Club:
    """The server's club; ``not_found`` (404) unless it runs in club mode."""
    if club is None:
        raise RoomError("not_found", "this server is not a club's (valtti serve --club)")
    return club


MaybeClub = Annotated[Club | None, Depends(get_club_or_none)]
ClubDep = Annotated[Club, Depends(get_club)]


async def visitor_of(connection: HTTPConnection, club: MaybeClub) -> Visitor:
    """Who the request's session cookie signs in (nobody without club mode)."""
    token = connection.cookies.get(SESSION_COOKIE)
    if club is None or not token:
        return Visitor()
    found = await club.accounts.session(token)
    if found is None:
        return Visitor()
    return Visitor(found[0], token, found[1])


VisitorDep = Annotated[Visitor, Depends(visitor_of)]


def acting(connection: HTTPConnection, visitor: Visitor) -> Member:
    """The signed-in member of a request that changes something: ``not_signed_in`` (401)
    without a session, ``bad_csrf`` (403) unless the request carries the session's CSRF token
    (another site's page can make a browser send the cookie, never the token)."""
    if visitor.member is None or visitor.csrf is None:
        raise RoomError("not_signed_in", "sign in as a member of the club first")
    sent = connection.headers.get(CSRF_HEADER, "")
    if not secrets.compare_digest(sent.encode(), visitor.csrf.encode()):
        raise RoomError("bad_csrf", "the request did not come from this server's page: reload it")
    return visitor.member


async def acting_member(connection: HTTPConnection, visitor: VisitorDep, club: ClubDep) -> Member:
    return acting(connection, visitor)


async def acting_admin(member: Annotated[Member, Depends(acting_member)]) -> Member:
    if not member.admin:
        raise RoomError("not_admin", "only the club's administrators may do this")
    return member


async def signed_in(visitor: VisitorDep, club: ClubDep) -> Member:
    """The signed-in member of a request that only reads: ``not_signed_in`` (401) else."""
    if visitor.member is None:
        raise RoomError("not_signed_in", "sign in as a member of the club first")
    return visitor.member


ActingMember = Annotated[Member, Depends(acting_member)]
ActingAdmin = Annotated[Member, Depends(acting_admin)]
SignedIn = Annotated[Member, Depends(signed_in)]


@dataclass(frozen=True, slots=True)
class Player:
    """Who may create a table or take a seat: anyone without club mode (``club`` ``None``);
    in club mode a member (``member``), or a guest with the table's key (``member`` ``None``)."""

    club: Club | None
    member: Member | None = None


async def club_player(
    connection: HTTPConnection, club: MaybeClub, visitor: VisitorDep, guest: str | None = None
) -> Player:
    """In club mode, the member acting through this server's page (``acting``), or a guest
    whose ``guest`` key (query) is the table's; ``not_signed_in`` (401) for anyone else."""
    if club is None:
        return Player(None)
    table_id = connection.path_params.get("table_id")
    if visitor.member is None and table_id is not None and club.is_guest_key(table_id, guest):
        return Player(club)
    return Player(club, acting(connection, visitor))


ClubPlayer = Annotated[Player, Depends(club_player)]


async def seat_member(player: Player, table_id: str, seat: Seat) -> None:
    """Note that the member of ``player`` (if any) sits at ``seat``: their ratings and
    records count the match."""
    if player.club is not None and player.member is not None:
        await asyncio.to_thread(player.club.store.seat_member, table_id, seat, player.member.id)


async def reserved_for(player: Player, table_id: str, seat: Seat) -> None:
    """``reserved`` (403) when a club night keeps ``seat`` of the table for another member."""
    if player.club is None:
        return
    members = await asyncio.to_thread(player.club.store.table_members, table_id)
    owner = members.get(seat)
    if owner is not None and (player.member is None or player.member.id != owner):
        raise RoomError("reserved", f"seat {seat} is another member's at this club night")
