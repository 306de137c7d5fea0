"""``/api/club``: club mode's accounts (docs/HOSTING.md, "A club"): the first administrator,
signing up with an invitation, signing in and out, the password, invitations, the members
(disabling one), the club's settings, a member's page and records. ``404`` without club mode.

Sign-up, sign-in and set-up come before a session exists: the ``Guard`` refuses them from
another site's page (its ``Origin``), and so only this server's pages can make them. Every
other request that changes something needs the session's CSRF token too (club/deps.py).
"""

from __future__ import annotations

import asyncio
import json

from fastapi import APIRouter, Request, Response

from valtti.web.answers import letter, refusals
from valtti.web.club.accounts import SESSION_COOKIE, Session
from valtti.web.club.deps import ActingAdmin, ActingMember, ClubDep, MaybeClub, SignedIn, VisitorDep
from valtti.web.club.models import (
    ClubSettings,
    Invitation,
    InvitationState,
    Me,
    MemberAnswer,
    MemberPage,
    MemberStatus,
    PasswordChange,
    PlayedAnswer,
    RatingStep,
    SignIn,
    SignUp,
)
from valtti.web.club.ratings import shown
from valtti.web.db.club import Member, PlayedTable
from valtti.web.referee.errors import RoomError
from valtti.web.referee.frames import match_record
from valtti.web.routing import BodyLimitedRoute
from valtti.web.security import client_of

router = APIRouter(prefix="/api/club", tags=["club"], route_class=BodyLimitedRoute)


def _secure(request: Request) -> bool:
    """Whether the cookie is sent over HTTPS only: the page was opened over HTTPS (behind a
    trusted proxy, as it says), or the server's public URL is an https one."""
    public = request.app.state.reach.public_url or ""
    return request.url.scheme == "https" or public.startswith("https://")


def signed_in_answer(request: Request, response: Response, session: Session, member: Member) -> Me:
    """The answer of a sign-in (or sign-up): the member, and the session's cookie set."""
    response.set_cookie(
        SESSION_COOKIE,
        session.token,
        expires=session.expires,
        path="/",
        secure=_secure(request),
        httponly=True,
        samesite="strict",
    )
    return Me(club=True, member=MemberAnswer.of(member), csrf=session.csrf)


@router.get("/me", response_model=Me)
async def me(club: MaybeClub, visitor: VisitorDep) -> Me:
    """Whether this server is a club's, and who is signed in (with the CSRF token the page
    sends back on each change); ``setup``: the club has no member yet."""
    if club is None:
        return Me(club=False)
    if visitor.member is None:
        return Me(club=True, setup=not await asyncio.to_thread(club.store.count))
    return Me(club=True, member=MemberAnswer.of(visitor.member), csrf=visitor.csrf)


@router.post("/setup", response_model=Me, responses=refusals(400, 404, 409))
async def set_up(request: Request, response: Response, club: ClubDep, body: SignUp) -> Me:
    """The club's first member, its administrator, signed in; ``409 set_up`` once it has one."""
    member = await club.accounts.add(body.name, body.password, first=True)
    return signed_in_answer(request, response, await club.accounts.open_session(member), member)


@router.post("/signup", response_model=Me, responses=refusals(400, 404, 409))
async def sign_up(request: Request, response: Response, club: ClubDep, body: SignUp) -> Me:
    """A new member from an invitation's link, signed in."""
    if body.invitation is None:
        raise RoomError("bad_invitation", "signing up needs an invitation's link")
    member = await club.accounts.add(body.name, body.password, invitation=body.invitation)
    return signed_in_answer(request, response, await club.accounts.open_session(member), member)


@router.get("/invitations/{token}", response_model=InvitationState, responses=refusals(404))
async def invitation_open(club: ClubDep, token: str) -> InvitationState:
    """Whether an invitation can still be used (the sign-up page asks before the form)."""
    return InvitationState(open=await club.accounts.invitation_open(token))


@router.post("/signin", response_model=Me, responses=refusals(400, 404, 429))
async def sign_in(request: Request, response: Response, club: ClubDep, body: SignIn) -> Me:
    """Sign in with a name and a password; ``401 bad_sign_in``, or ``429 too_many`` after
    too many failures of the name or from the address (``Retry-After``)."""
    member = await club.accounts.sign_in(body.name, body.password, client_of(request.scope))
    return signed_in_answer(request, response, await club.accounts.open_session(member), member)


@router.post("/signout", response_model=Me)
async def sign_out(
    response: Response, club: ClubDep, visitor: VisitorDep, member: ActingMember
) -> Me:
    """End this session."""
    assert visitor.session is not None
    await club.accounts.sign_out(visitor.session)
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="strict")
    return Me(club=True)


@router.post("/password", response_model=Me, responses=refusals(400, 403))
async def change_password(
    club: ClubDep, visitor: VisitorDep, member: ActingMember, body: PasswordChange
) -> Me:
    """Change the password (the current one given); every other session of the member ends."""
    assert visitor.session is not None
    await club.accounts.change_password(member, body.current, body.new, visitor.session)
    return Me(club=True, member=MemberAnswer.of(member), csrf=visitor.csrf)


@router.post("/invitations", response_model=Invitation, status_code=201, responses=refusals(403))
async def invite(request: Request, club: ClubDep, admin: ActingAdmin) -> Invitation:
    """A new invitation (administrators): its link signs one person up."""
    token, expires = await club.accounts.invite(admin)
    return Invitation(
        link=f"{request.base_url}club?invitation={token}", token=token, expires=expires.isoformat()
    )


@router.get("/members", response_model=list[MemberAnswer], responses=refusals(403))
async def members(club: ClubDep, member: SignedIn) -> list[MemberAnswer]:
    """The club's members, best rated first (members only)."""
    return [MemberAnswer.of(m) for m in await asyncio.to_thread(club.store.members)]


@router.post(
    "/members/{member_id}/status", response_model=MemberAnswer, responses=refusals(403, 404)
)
async def member_status(
    club: ClubDep, admin: ActingAdmin, member_id: int, body: MemberStatus
) -> MemberAnswer:
    """Disable a member (signed out everywhere, cannot sign in) or enable one again
    (administrators; not themselves)."""
    if member_id == admin.id:
        raise RoomError("bad_request", "an administrator cannot disable themselves")
    if not await asyncio.to_thread(club.store.set_disabled, member_id, body.disabled):
        raise RoomError("not_found", f"no member {member_id}")
    found = await asyncio.to_thread(club.store.member, member_id)
    assert found is not None
    return MemberAnswer.of(found)


@router.get("/settings", response_model=ClubSettings)
async def settings(club: ClubDep) -> ClubSettings:
    return ClubSettings(watchers=await club.watchers())


@router.post("/settings", response_model=ClubSettings, responses=refusals(400, 403))
async def change_settings(club: ClubDep, admin: ActingAdmin, body: ClubSettings) -> ClubSettings:
    """Who may watch a table: ``anyone`` with its link, or ``members`` (administrators)."""
    await club.set_watchers(body.watchers)
    return body


async def _member(club: ClubDep, member_id: int) -> Member:
    found = await asyncio.to_thread(club.store.member, member_id)
    if found is None:
        raise RoomError("not_found", f"no member {member_id}")
    return found


@router.get("/members/{member_id}", response_model=MemberPage, responses=refusals(403, 404))
async def member_page(
    request: Request, club: ClubDep, viewer: SignedIn, member_id: int
) -> MemberPage:
    """A member's rating, its history, and the finished matches behind it (members only)."""
    member = await _member(club, member_id)
    history = await asyncio.to_thread(club.store.rating_history, member_id)
    tables = await _released_tables(request, club, member_id)
    return MemberPage(
        member=MemberAnswer.of(member),
        history=[
            RatingStep(
                at=h.at.isoformat(),
                source=h.source,
                before=shown(h.mu_before, h.sigma_before),
                after=shown(h.mu_after, h.sigma_after),
            )
            for h in history
        ],
        tables=[
            PlayedAnswer(
                id=t.table_id,
                seat=letter(t.seat),
                name=t.name,
                finished=None if t.finished is None else t.finished.isoformat(),
            )
            for t in tables
        ],
    )


async def _released_tables(request: Request, club: ClubDep, member_id: int) -> list[PlayedTable]:
    """The member's finished tables whose records anyone may see: not a club night's table
    whose round other tables are still playing (web/club/nights.py)."""
    nights = request.app.state.nights
    tables = await asyncio.to_thread(club.store.member_tables, member_id)
    return [t for t in tables if not await nights.embargoed(t.table_id)]


@router.get("/members/{member_id}/records", responses=refusals(403, 404))
async def member_records(
    request: Request, club: ClubDep, viewer: SignedIn, member_id: int
) -> Response:
    """Every finished match the member played, as RECORD.md records in one JSON list (an
    attachment), newest first."""
    member = await _member(club, member_id)
    records = []
    for played in await _released_tables(request, club, member_id):
        stored = await asyncio.to_thread(request.app.state.rooms.store.load, played.table_id)
        if stored is not None and stored.record is not None:
            match = stored.record.replay()
            records.append(match_record(stored.table, stored.seats, match).to_dict())
    name = "".join(c if c.isalnum() else "-" for c in member.name)
    return Response(
        json.dumps(records),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="valtti-{name}-records.json"'},
    )
