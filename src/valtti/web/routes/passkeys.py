"""``/api/club/passkeys``: passkeys (WebAuthn) of club members (web/club/passkeys.py): a
signed-in member adds one, a new member signs up with one, anyone signs in with one. Each
ceremony is its options, then the browser's answer. ``404`` without club mode."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from starlette.requests import HTTPConnection

from valtti.web.answers import refusals
from valtti.web.club.deps import ActingMember, ClubDep
from valtti.web.club.models import Me, PasskeyAnswer, PasskeyOptions, PasskeySignUp
from valtti.web.club.passkeys import Passkeys, RelyingParty
from valtti.web.routes.club import signed_in_answer
from valtti.web.routing import BodyLimitedRoute
from valtti.web.security import client_of

router = APIRouter(prefix="/api/club/passkeys", tags=["passkeys"], route_class=BodyLimitedRoute)


async def get_passkeys(connection: HTTPConnection, club: ClubDep) -> Passkeys:
    passkeys: Passkeys = connection.app.state.passkeys
    return passkeys


PasskeysDep = Annotated[Passkeys, Depends(get_passkeys)]


def relying_party(request: Request) -> RelyingParty:
    """This server as the browser sees it: its public URL, else the origin of the request."""
    public = request.app.state.reach.public_url
    if public:
        return RelyingParty.of(public)
    return RelyingParty.of(f"{request.url.scheme}://{request.headers.get('host', '')}")


@router.post("/register/options", response_model=PasskeyOptions, responses=refusals(401, 403))
async def register_options(
    request: Request, passkeys: PasskeysDep, member: ActingMember
) -> PasskeyOptions:
    """Options for the signed-in member to add a passkey."""
    return PasskeyOptions(**await passkeys.register_options(relying_party(request), member))


@router.post("/register", responses=refusals(400, 401, 403))
async def register(
    request: Request, passkeys: PasskeysDep, member: ActingMember, body: PasskeyAnswer
) -> dict[str, bool]:
    """Keep the passkey the browser made; ``400 bad_passkey`` when it does not check out."""
    await passkeys.register(relying_party(request), member, body.ceremony, body.credential)
    return {"added": True}


@router.post("/signup/options", response_model=PasskeyOptions, responses=refusals(400, 409))
async def signup_options(
    request: Request, passkeys: PasskeysDep, body: PasskeySignUp
) -> PasskeyOptions:
    """Options for a new member to sign up with a passkey instead of a password."""
    made = await passkeys.signup_options(relying_party(request), body.invitation, body.name)
    return PasskeyOptions(**made)


@router.post("/signup", response_model=Me, responses=refusals(400, 409))
async def signup(
    request: Request, response: Response, club: ClubDep, passkeys: PasskeysDep, body: PasskeyAnswer
) -> Me:
    """The new member, signed in, with the passkey the browser made."""
    member = await passkeys.signup(relying_party(request), body.ceremony, body.credential)
    return signed_in_answer(request, response, await club.accounts.open_session(member), member)


@router.post("/signin/options", response_model=PasskeyOptions)
async def signin_options(request: Request, passkeys: PasskeysDep) -> PasskeyOptions:
    """Options to sign in with a passkey of this club (the browser offers those it holds)."""
    return PasskeyOptions(**passkeys.signin_options(relying_party(request)))


@router.post("/signin", response_model=Me, responses=refusals(400, 429))
async def signin(
    request: Request, response: Response, club: ClubDep, passkeys: PasskeysDep, body: PasskeyAnswer
) -> Me:
    """Sign in with a passkey; ``400 bad_passkey``, ``429 too_many`` as for a password."""
    member = await passkeys.signin(
        relying_party(request), body.ceremony, body.credential, client_of(request.scope)
    )
    return signed_in_answer(request, response, await club.accounts.open_session(member), member)
