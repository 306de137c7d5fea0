"""Passkeys (WebAuthn) for club members (docs/HOSTING.md, "A club"), through py_webauthn: a
signed-in member adds one, a new member signs up with one instead of a password, and anyone
who holds one signs in with it (a discoverable credential: no name typed).

Each ceremony is two requests: its options (with a fresh challenge, kept here for
``CEREMONY_SECONDS`` and used once), then the browser's answer, which py_webauthn checks
against the challenge, this server's origin and relying party (its host name), and for a
sign-in the member's stored public key and signature counter. A failed sign-in counts against
the client address as a wrong password does (``Accounts``).
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final
from urllib.parse import urlsplit

from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from valtti.web.club.accounts import member_name
from valtti.web.club.service import Club
from valtti.web.db.club import Member, Passkey
from valtti.web.referee.errors import RoomError

#: Seconds a ceremony's challenge is good for.
CEREMONY_SECONDS: Final = 300.0
#: Ceremonies waiting at once, at most (the oldest are dropped).
MAX_CEREMONIES: Final = 10_000
RP_NAME: Final = "Valtti"
#: What a credential's id can be (base64url, as stored): anything else is asked of no store.
CREDENTIAL_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,512}")


@dataclass(frozen=True, slots=True)
class RelyingParty:
    """Who the passkeys are for: this server's origin (as the browser shows it) and host."""

    origin: str
    id: str

    @classmethod
    def of(cls, origin: str) -> RelyingParty:
        host = urlsplit(origin).hostname or ""
        return cls(origin, host)


@dataclass(frozen=True, slots=True)
class _Ceremony:
    challenge: bytes
    expires: float
    kind: str  #: "register", "signup" or "signin"
    member_id: int | None = None  #: "register": whose
    name: str | None = None  #: "signup": the new member's name, invitation and handle
    invitation: str | None = None
    handle: str | None = None


class Passkeys:
    """The WebAuthn ceremonies of a club."""

    def __init__(self, club: Club) -> None:
        self.club = club
        self._ceremonies: dict[str, _Ceremony] = {}

    def _start(self, ceremony: _Ceremony) -> str:
        now = time.monotonic()
        self._ceremonies = {k: c for k, c in self._ceremonies.items() if c.expires > now}
        while len(self._ceremonies) >= MAX_CEREMONIES:
            del self._ceremonies[next(iter(self._ceremonies))]
        key = secrets.token_urlsafe(16)
        self._ceremonies[key] = ceremony
        return key

    def _take(self, key: str, kind: str) -> _Ceremony:
        ceremony = self._ceremonies.pop(key, None)
        if ceremony is None or ceremony.kind != kind or ceremony.expires <= time.monotonic():
            raise RoomError("bad_passkey", "the passkey's request expired: try again")
        return ceremony

    def _registration(
        self, rp: RelyingParty, handle: str, name: str, ceremony: _Ceremony, known: list[Passkey]
    ) -> dict[str, Any]:
        options = generate_registration_options(
            rp_id=rp.id,
            rp_name=RP_NAME,
            user_name=name,
            user_id=handle.encode(),
            challenge=ceremony.challenge,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
            exclude_credentials=[
                PublicKeyCredentialDescriptor(id=base64url_to_bytes(k.credential_id)) for k in known
            ],
        )
        return {"ceremony": self._start(ceremony), "options": _json(options)}

    async def register_options(self, rp: RelyingParty, member: Member) -> dict[str, Any]:
        """Options for the signed-in ``member`` to add a passkey."""
        known = await asyncio.to_thread(self.club.store.passkeys, member.id)
        ceremony = _Ceremony(secrets.token_bytes(32), _until(), "register", member_id=member.id)
        return self._registration(rp, member.handle, member.name, ceremony, known)

    async def register(
        self, rp: RelyingParty, member: Member, key: str, credential: dict[str, Any]
    ) -> None:
        ceremony = self._take(key, "register")
        if ceremony.member_id != member.id:
            raise RoomError("bad_passkey", "the passkey's request was another member's")
        passkey = _verified(rp, ceremony, credential, member.id)
        await asyncio.to_thread(self.club.store.add_passkey, passkey, datetime.now(UTC))

    async def signup_options(self, rp: RelyingParty, invitation: str, name: str) -> dict[str, Any]:
        """Options for a new member to sign up with a passkey (the invitation checked now
        and again when it is used)."""
        name = member_name(name)
        if not await self.club.accounts.invitation_open(invitation):
            raise RoomError("bad_invitation", "this invitation is used, expired or unknown")
        if await asyncio.to_thread(self.club.store.member_by_name, name) is not None:
            raise RoomError("name_taken", f"a member is called {name!r} already")
        handle = secrets.token_urlsafe(32)
        ceremony = _Ceremony(
            secrets.token_bytes(32),
            _until(),
            "signup",
            name=name,
            invitation=invitation,
            handle=handle,
        )
        return self._registration(rp, handle, name, ceremony, [])

    async def signup(self, rp: RelyingParty, key: str, credential: dict[str, Any]) -> Member:
        ceremony = self._take(key, "signup")
        assert ceremony.name is not None and ceremony.handle is not None
        passkey = _verified(rp, ceremony, credential, 0)
        member = await self.club.accounts.add(
            ceremony.name, None, invitation=ceremony.invitation, handle=ceremony.handle
        )
        await asyncio.to_thread(
            self.club.store.add_passkey,
            Passkey(passkey.credential_id, member.id, passkey.public_key, passkey.sign_count),
            datetime.now(UTC),
        )
        return member

    def signin_options(self, rp: RelyingParty) -> dict[str, Any]:
        """Options to sign in with any passkey of this club the browser holds."""
        ceremony = _Ceremony(secrets.token_bytes(32), _until(), "signin")
        options = generate_authentication_options(
            rp_id=rp.id,
            challenge=ceremony.challenge,
            user_verification=UserVerificationRequirement.PREFERRED,
        )
        return {"ceremony": self._start(ceremony), "options": _json(options)}

    async def signin(
        self, rp: RelyingParty, key: str, credential: dict[str, Any], address: str
    ) -> Member:
        """The member whose passkey answered; ``bad_passkey`` (counted against the address)
        for anything else."""
        accounts = self.club.accounts
        accounts.refuse_if_blocked(address)
        ceremony = self._take(key, "signin")
        raw = credential.get("rawId") or credential.get("id")
        found = None
        if isinstance(raw, str) and CREDENTIAL_ID.fullmatch(raw):
            found = await asyncio.to_thread(self.club.store.passkey, raw)
        member = None
        if found is not None:
            try:
                verified = verify_authentication_response(
                    credential=credential,
                    expected_challenge=ceremony.challenge,
                    expected_rp_id=rp.id,
                    expected_origin=rp.origin,
                    credential_public_key=base64url_to_bytes(found.public_key),
                    credential_current_sign_count=found.sign_count,
                )
            except (WebAuthnException, ValueError, KeyError, TypeError):
                verified = None  # a malformed answer is a wrong one
            if verified is not None:
                await asyncio.to_thread(
                    self.club.store.set_sign_count, found.credential_id, verified.new_sign_count
                )
                member = await asyncio.to_thread(self.club.store.member, found.member_id)
        if member is None or member.disabled:
            accounts.failed(address)
            raise RoomError("bad_passkey", "that passkey is no member's of this club")
        return member


def _until() -> float:
    return time.monotonic() + CEREMONY_SECONDS


def _json(options: Any) -> dict[str, Any]:
    parsed: dict[str, Any] = json.loads(options_to_json(options))
    return parsed


def _verified(
    rp: RelyingParty, ceremony: _Ceremony, credential: dict[str, Any], member_id: int
) -> Passkey:
    try:
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=ceremony.challenge,
            expected_rp_id=rp.id,
            expected_origin=rp.origin,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError) as e:
        raise RoomError("bad_passkey", f"the passkey could not be checked: {e}") from None
    return Passkey(
        bytes_to_base64url(verified.credential_id),
        member_id,
        bytes_to_base64url(verified.credential_public_key),
        verified.sign_count,
    )
