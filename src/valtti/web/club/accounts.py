"""Club mode's accounts (docs/HOSTING.md, "A club"): the first administrator, invitations,
signing up with a name and a password, signing in and out, sessions, changing the password,
and disabling a member.

Passwords are hashed with Argon2id (argon2-cffi's ``PasswordHasher``, its recommended
parameters) and nothing else; a hash made with weaker parameters than today's is remade at the
next sign-in. A session is a random token in an HttpOnly, SameSite=Strict cookie (Secure over
HTTPS), kept only as its SHA-256, which expires ``session_hours`` after sign-in; with it goes a
CSRF token that pages send back in ``X-CSRF-Token`` on every request that changes something.
Failed sign-ins are limited per name and per client address (``Attempts``).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import deque
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from valtti.web.club.ratings import NEW_RATING
from valtti.web.db.club import ClubStore, Member, NameTaken
from valtti.web.referee.errors import RoomError
from valtti.web.referee.seats import nickname_fault, token_hash, trim_nickname

#: The cookie that holds a session's token.
SESSION_COOKIE: Final = "valtti_session"
#: The header a page sends its session's CSRF token in.
CSRF_HEADER: Final = "x-csrf-token"
PASSWORD_MIN: Final = 8
PASSWORD_MAX: Final = 256
MEMBER_NAME_MAX: Final = 24

_HASHER: Final = PasswordHasher()  # Argon2id, RFC 9106's low-memory recommendation
#: Checked when a name has no password (or no member has it), so that a sign-in takes as long
#: whether or not the name exists.
_NOBODY: Final = _HASHER.hash(secrets.token_urlsafe(16))


def hash_password(password: str) -> str:
    """The password's Argon2id hash (a PHC string: ``$argon2id$v=19$m=…``)."""
    return _HASHER.hash(password)


def password_fault(password: str) -> str | None:
    """Why ``password`` cannot be one, or ``None``."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        return f"a password is {PASSWORD_MIN} to {PASSWORD_MAX} characters"
    return None


@dataclass(frozen=True, slots=True)
class AccountSettings:
    """How long sessions and invitations last, and how many failed sign-ins are allowed."""

    session_hours: float = 24.0 * 14
    invitation_days: float = 7.0
    #: failed sign-ins of one name, and from one client address, in any ``window_seconds``
    failures_per_name: int = 5
    failures_per_address: int = 20
    window_seconds: float = 15 * 60.0


class Attempts:
    """Failed sign-ins in the last window, per key (a name, an address), to refuse guessing."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self._times: dict[str, deque[float]] = {}

    def _recent(self, key: str, now: float) -> deque[float]:
        times = self._times.setdefault(key, deque())
        while times and now - times[0] >= self.window:
            times.popleft()
        return times

    def blocked(self, key: str) -> float:
        """Seconds until ``key`` may try again (0: now)."""
        now = time.monotonic()
        times = self._recent(key, now)
        if len(times) < self.limit:
            return 0.0
        return self.window - (now - times[0])

    def fail(self, key: str) -> None:
        now = time.monotonic()
        if len(self._times) > 10_000:
            self._times = {k: t for k, t in self._times.items() if t and now - t[-1] < self.window}
        self._recent(key, now).append(now)

    def clear(self, key: str) -> None:
        self._times.pop(key, None)


@dataclass(frozen=True, slots=True)
class Session:
    """A signed-in member's session: its token (for the cookie) and CSRF token."""

    token: str
    csrf: str
    expires: datetime


class Accounts:
    """The club's accounts over its store; every method that waits on the store or on Argon2
    runs it in a thread. Refusals are ``RoomError``s with the codes of docs/WEB.md."""

    def __init__(self, store: ClubStore, settings: AccountSettings | None = None) -> None:
        self.store = store
        self.settings = settings or AccountSettings()
        self._by_name = Attempts(self.settings.failures_per_name, self.settings.window_seconds)
        self._by_address = Attempts(
            self.settings.failures_per_address, self.settings.window_seconds
        )

    async def add(
        self,
        name: str,
        password: str | None,
        *,
        admin: bool = False,
        invitation: str | None = None,
        first: bool = False,
        handle: str | None = None,
    ) -> Member:
        """A new member (``first``: only while the club has none, as its administrator);
        ``invitation``: the token of an open invitation, used up by it; ``password``
        ``None``: one who signs in with passkeys (``handle``: their WebAuthn user handle)."""
        name = member_name(name)
        hashed = None
        if password is not None:
            fault = password_fault(password)
            if fault is not None:
                raise RoomError("bad_password", fault)
            hashed = await asyncio.to_thread(hash_password, password)
        if first and await asyncio.to_thread(self.store.count) > 0:
            raise RoomError("set_up", "the club has its administrator already: sign in")
        try:
            member = await asyncio.to_thread(
                lambda: self.store.add_member(
                    name,
                    hashed,
                    NEW_RATING,
                    handle or secrets.token_urlsafe(32),
                    admin=admin or first,
                    invitation=None if invitation is None else token_hash(invitation),
                    now=datetime.now(UTC),
                )
            )
        except NameTaken:
            raise RoomError("name_taken", f"a member is called {name!r} already") from None
        if member is None:
            raise RoomError("bad_invitation", "this invitation is used, expired or unknown")
        return member

    async def invite(self, by: Member) -> tuple[str, datetime]:
        """A new invitation's token and when it expires."""
        token = secrets.token_urlsafe(24)
        now = datetime.now(UTC)
        expires = now + timedelta(days=self.settings.invitation_days)
        await asyncio.to_thread(self.store.add_invitation, token_hash(token), by.id, now, expires)
        return token, expires

    async def invitation_open(self, token: str) -> bool:
        return await asyncio.to_thread(
            self.store.invitation_open, token_hash(token), datetime.now(UTC)
        )

    async def sign_in(self, name: str, password: str, address: str) -> Member:
        """The member whose name and password these are; ``too_many`` (with ``retry_after``)
        once the name or the address failed too often lately, ``bad_sign_in`` otherwise
        (the same answer for an unknown name, a wrong password and a disabled member)."""
        key = f"name:{name.strip().casefold()}"
        _refuse_for(max(self._by_name.blocked(key), self._by_address.blocked(address)))
        # A name no member could have is not asked of the store (PostgreSQL refuses a NUL).
        trimmed = trim_nickname(name)
        named = nickname_fault(trimmed, MEMBER_NAME_MAX) is None
        found = await asyncio.to_thread(self.store.member_by_name, trimmed) if named else None
        member, hashed = (None, None) if found is None else found
        ok = await asyncio.to_thread(_verify, hashed, password)
        if member is None or not ok or member.disabled:
            self._by_name.fail(key)
            self._by_address.fail(address)
            raise RoomError("bad_sign_in", "that name and password are not a member's")
        self._by_name.clear(key)
        assert hashed is not None
        if _HASHER.check_needs_rehash(hashed):
            new = await asyncio.to_thread(hash_password, password)
            await asyncio.to_thread(self.store.set_password, member.id, new, "")
        return member

    def refuse_if_blocked(self, address: str) -> None:
        """``too_many`` while the address has failed to sign in too often lately."""
        _refuse_for(self._by_address.blocked(address))

    def failed(self, address: str) -> None:
        """Count a failed sign-in from the address (a passkey's: no name)."""
        self._by_address.fail(address)

    async def open_session(self, member: Member) -> Session:
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        now = datetime.now(UTC)
        expires = now + timedelta(hours=self.settings.session_hours)
        await asyncio.to_thread(
            self.store.add_session, token_hash(token), member.id, csrf, now, expires
        )
        return Session(token, csrf, expires)

    async def session(self, token: str) -> tuple[Member, str] | None:
        """The member of a live session and its CSRF token; ``None`` for an expired or unknown
        one, or a disabled member's."""
        return await asyncio.to_thread(self.store.session, token_hash(token), datetime.now(UTC))

    async def sign_out(self, token: str) -> None:
        await asyncio.to_thread(self.store.end_session, token_hash(token))

    async def change_password(self, member: Member, old: str, new: str, session: str) -> None:
        """Change the member's password (the old one checked); their other sessions end."""
        fault = password_fault(new)
        if fault is not None:
            raise RoomError("bad_password", fault)
        hashed = await asyncio.to_thread(self.store.password_hash, member.id)
        # A member who has only passkeys sets a first password without one.
        if hashed is not None and not await asyncio.to_thread(_verify, hashed, old):
            raise RoomError("bad_sign_in", "the current password is not right")
        new_hash = await asyncio.to_thread(hash_password, new)
        await asyncio.to_thread(self.store.set_password, member.id, new_hash, token_hash(session))


def _refuse_for(wait: float) -> None:
    if wait > 0:
        raise RoomError(
            "too_many",
            "too many failed sign-ins: wait a while and try again",
            retry_after=int(wait) + 1,
        )


def _verify(hashed: str | None, password: str) -> bool:
    try:
        return _HASHER.verify(hashed or _NOBODY, password) and hashed is not None
    except (VerificationError, InvalidHashError):
        return False


def member_name(name: str) -> str:
    """A member's name as given, trimmed; ``bad_name`` unless it is one (as a nickname)."""
    trimmed = trim_nickname(name)
    fault = nickname_fault(trimmed, MEMBER_NAME_MAX, "a member's name")
    if fault is not None:
        raise RoomError("bad_name", fault)
    return trimmed
