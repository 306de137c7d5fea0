"""Club mode's store (docs/HOSTING.md, "A club"): members, invitations, sessions, passkeys, the
club's settings, which member sat where, and rating changes, in the server's database beside
its tables (the ``Store``'s, through its transactions). Every method commits before it
returns; secrets are kept only as their SHA-256 (a session's, an invitation's), passwords only
as Argon2 hashes (web/club/accounts.py makes them).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Row, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from valtti.engine import Seat
from valtti.web.db.schema import (
    club_settings_table,
    invitations_table,
    member_seats_table,
    members_table,
    passkeys_table,
    rating_changes_table,
    sessions_table,
    tables_table,
)
from valtti.web.db.store import Store


class _Unused(Exception):
    """The invitation a sign-up came with is used, expired or none."""


class NameTaken(ValueError):
    """A member of that name (case aside) exists already."""


@dataclass(frozen=True, slots=True)
class Member:
    """A member of the club as the pages see one (never their password's hash)."""

    id: int
    name: str
    admin: bool
    disabled: bool
    created: dt.datetime
    mu: float  #: the OpenSkill rating's mean (web/club/ratings.py)
    sigma: float  #: and its uncertainty
    handle: str  #: the WebAuthn user handle of the member's passkeys


@dataclass(frozen=True, slots=True)
class Passkey:
    """A member's WebAuthn credential (web/club/passkeys.py)."""

    credential_id: str  #: base64url
    member_id: int
    public_key: str  #: base64url of the COSE key
    sign_count: int


@dataclass(frozen=True, slots=True)
class PlayedTable:
    """A finished table a member sat at: its id, the seat, its name, when it ended."""

    table_id: str
    seat: Seat
    name: str | None
    finished: dt.datetime | None


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One change of a member's rating, by a match (``table:ID``) or a night (``night:ID``)."""

    member_id: int
    at: dt.datetime
    source: str
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


def name_key(name: str) -> str:
    """What two names that are the same member's agree on: the name case-folded."""
    return name.casefold()


def _member(row: Row[Any]) -> Member:
    return Member(
        row.id, row.name, row.admin, row.disabled, row.created, row.mu, row.sigma, row.handle
    )


class ClubStore:
    """The club's members and what belongs to them, in the database of ``store``."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- members -------------------------------------------------------------------------------

    def count(self) -> int:
        """How many members there are (disabled ones too)."""
        with self.store.snapshot() as connection:
            return connection.scalar(select(func.count()).select_from(members_table)) or 0

    def add_member(
        self,
        name: str,
        password_hash: str | None,
        rating: tuple[float, float],
        handle: str,
        *,
        admin: bool = False,
        invitation: str | None = None,
        now: dt.datetime,
    ) -> Member | None:
        """A new member; ``admin`` only as asked. With ``invitation`` (an invitation's hash)
        only while that invitation is unused and unexpired, which it uses; ``None`` when it is
        not. ``NameTaken`` for a name in use."""
        try:
            with self.store.transaction() as connection:
                inserted = connection.execute(
                    insert(members_table).values(
                        name=name,
                        name_key=name_key(name),
                        password_hash=password_hash,
                        admin=admin,
                        disabled=False,
                        created=now,
                        mu=rating[0],
                        sigma=rating[1],
                        handle=handle,
                    )
                ).inserted_primary_key
                assert inserted is not None
                member_id = inserted[0]
                if invitation is not None:
                    i = invitations_table.c
                    used = connection.execute(
                        update(invitations_table)
                        .where(i.token_hash == invitation, i.used_by.is_(None), i.expires > now)
                        .values(used_by=member_id)
                    )
                    if used.rowcount != 1:
                        raise _Unused  # rolls the new member back
                row = connection.execute(
                    select(members_table).where(members_table.c.id == member_id)
                ).one()
                return _member(row)
        except _Unused:
            return None
        except IntegrityError:
            raise NameTaken(name) from None

    def member(self, member_id: int) -> Member | None:
        with self.store.snapshot() as connection:
            row = connection.execute(
                select(members_table).where(members_table.c.id == member_id)
            ).one_or_none()
            return None if row is None else _member(row)

    def member_by_name(self, name: str) -> tuple[Member, str | None] | None:
        """The member called ``name`` (case aside) and their password's hash."""
        with self.store.snapshot() as connection:
            row = connection.execute(
                select(members_table).where(members_table.c.name_key == name_key(name))
            ).one_or_none()
            return None if row is None else (_member(row), row.password_hash)

    def member_by_handle(self, handle: str) -> Member | None:
        with self.store.snapshot() as connection:
            row = connection.execute(
                select(members_table).where(members_table.c.handle == handle)
            ).one_or_none()
            return None if row is None else _member(row)

    def members(self, ids: Iterable[int] | None = None) -> list[Member]:
        """Every member (or those of ``ids``), by rating, best first."""
        query = select(members_table).order_by(
            (members_table.c.mu - 3 * members_table.c.sigma).desc(), members_table.c.id
        )
        if ids is not None:
            query = query.where(members_table.c.id.in_(list(ids)))
        with self.store.snapshot() as connection:
            return [_member(r) for r in connection.execute(query)]

    def password_hash(self, member_id: int) -> str | None:
        with self.store.snapshot() as connection:
            return connection.scalar(
                select(members_table.c.password_hash).where(members_table.c.id == member_id)
            )

    def set_password(self, member_id: int, password_hash: str, keep_session: str) -> None:
        """Change the member's password, and end every session of theirs but ``keep_session``
        (a hash): whoever knew the old one is signed out."""
        with self.store.transaction() as connection:
            connection.execute(
                update(members_table)
                .where(members_table.c.id == member_id)
                .values(password_hash=password_hash)
            )
            s = sessions_table.c
            connection.execute(
                delete(sessions_table).where(s.member_id == member_id, s.token_hash != keep_session)
            )

    def set_disabled(self, member_id: int, disabled: bool) -> bool:
        """Disable (and sign out everywhere) or enable a member; whether there is one."""
        with self.store.transaction() as connection:
            result = connection.execute(
                update(members_table)
                .where(members_table.c.id == member_id)
                .values(disabled=disabled)
            )
            if disabled:
                connection.execute(
                    delete(sessions_table).where(sessions_table.c.member_id == member_id)
                )
            return result.rowcount == 1

    def set_admin(self, member_id: int) -> bool:
        """Make a member an administrator; whether there is one."""
        with self.store.transaction() as connection:
            result = connection.execute(
                update(members_table).where(members_table.c.id == member_id).values(admin=True)
            )
            return result.rowcount == 1

    # -- invitations and sessions --------------------------------------------------------------

    def add_invitation(
        self, token_hash: str, by_member: int, now: dt.datetime, expires: dt.datetime
    ) -> None:
        with self.store.transaction() as connection:
            connection.execute(
                insert(invitations_table).values(
                    token_hash=token_hash, created=now, expires=expires, by_member=by_member
                )
            )

    def invitation_open(self, token_hash: str, now: dt.datetime) -> bool:
        """Whether the invitation exists, unused and unexpired."""
        i = invitations_table.c
        with self.store.snapshot() as connection:
            found = connection.scalar(
                select(func.count())
                .select_from(invitations_table)
                .where(i.token_hash == token_hash, i.used_by.is_(None), i.expires > now)
            )
            return bool(found)

    def add_session(
        self, token_hash: str, member_id: int, csrf: str, now: dt.datetime, expires: dt.datetime
    ) -> None:
        with self.store.transaction() as connection:
            # Expired sessions go as new ones come: the table holds only live ones, and some.
            connection.execute(delete(sessions_table).where(sessions_table.c.expires <= now))
            connection.execute(
                insert(sessions_table).values(
                    token_hash=token_hash,
                    member_id=member_id,
                    created=now,
                    expires=expires,
                    csrf=csrf,
                )
            )

    def session(self, token_hash: str, now: dt.datetime) -> tuple[Member, str] | None:
        """The member of an unexpired session of an enabled member, and its CSRF token."""
        s = sessions_table.c
        with self.store.snapshot() as connection:
            row = connection.execute(
                select(members_table, s.csrf)
                .join(sessions_table, s.member_id == members_table.c.id)
                .where(
                    s.token_hash == token_hash, s.expires > now, members_table.c.disabled.is_(False)
                )
            ).one_or_none()
            return None if row is None else (_member(row), row.csrf)

    def end_session(self, token_hash: str) -> None:
        with self.store.transaction() as connection:
            connection.execute(
                delete(sessions_table).where(sessions_table.c.token_hash == token_hash)
            )

    # -- settings ------------------------------------------------------------------------------

    def setting(self, name: str) -> str | None:
        with self.store.snapshot() as connection:
            return connection.scalar(
                select(club_settings_table.c.value).where(club_settings_table.c.name == name)
            )

    def set_setting(self, name: str, value: str) -> None:
        with self.store.transaction() as connection:
            c = club_settings_table.c
            if (
                connection.execute(
                    update(club_settings_table).where(c.name == name).values(value=value)
                ).rowcount
                == 0
            ):
                connection.execute(insert(club_settings_table).values(name=name, value=value))

    def setting_once(self, name: str, value: str) -> str:
        """The setting ``name``, set to ``value`` first if it has none (a secret made once)."""
        with self.store.transaction() as connection:
            c = club_settings_table.c
            found = connection.scalar(select(c.value).where(c.name == name))
            if found is not None:
                return str(found)
            connection.execute(insert(club_settings_table).values(name=name, value=value))
            return value

    # -- passkeys ------------------------------------------------------------------------------

    def add_passkey(self, key: Passkey, now: dt.datetime) -> None:
        with self.store.transaction() as connection:
            connection.execute(
                insert(passkeys_table).values(
                    credential_id=key.credential_id,
                    member_id=key.member_id,
                    public_key=key.public_key,
                    sign_count=key.sign_count,
                    created=now,
                )
            )

    def passkey(self, credential_id: str) -> Passkey | None:
        with self.store.snapshot() as connection:
            row = connection.execute(
                select(passkeys_table).where(passkeys_table.c.credential_id == credential_id)
            ).one_or_none()
            if row is None:
                return None
            return Passkey(row.credential_id, row.member_id, row.public_key, row.sign_count)

    def passkeys(self, member_id: int) -> list[Passkey]:
        with self.store.snapshot() as connection:
            return [
                Passkey(r.credential_id, r.member_id, r.public_key, r.sign_count)
                for r in connection.execute(
                    select(passkeys_table).where(passkeys_table.c.member_id == member_id)
                )
            ]

    def set_sign_count(self, credential_id: str, count: int) -> None:
        with self.store.transaction() as connection:
            connection.execute(
                update(passkeys_table)
                .where(passkeys_table.c.credential_id == credential_id)
                .values(sign_count=count)
            )

    # -- seats and ratings ---------------------------------------------------------------------

    def seat_member(self, table_id: str, seat: Seat, member_id: int) -> None:
        """Note that the member sits at ``seat`` of the table (replacing whoever did)."""
        with self.store.transaction() as connection:
            m = member_seats_table.c
            connection.execute(
                delete(member_seats_table).where(m.table_id == table_id, m.seat == str(seat))
            )
            connection.execute(
                insert(member_seats_table).values(
                    table_id=table_id, seat=str(seat), member_id=member_id
                )
            )

    def table_members(self, table_id: str) -> dict[Seat, int]:
        """The member at each seat of the table that has one."""
        m = member_seats_table.c
        with self.store.snapshot() as connection:
            return {
                Seat.parse(r.seat): r.member_id
                for r in connection.execute(
                    select(m.seat, m.member_id).where(m.table_id == table_id)
                )
            }

    def member_tables(self, member_id: int, limit: int = 200) -> list[PlayedTable]:
        """The finished tables the member sat at, newest first."""
        m, t = member_seats_table.c, tables_table.c
        with self.store.snapshot() as connection:
            return [
                PlayedTable(r.table_id, Seat.parse(r.seat), r.name, r.finished)
                for r in connection.execute(
                    select(m.table_id, m.seat, t.name, t.finished)
                    .join(tables_table, t.id == m.table_id)
                    .where(m.member_id == member_id, t.status == "finished")
                    .order_by(t.created.desc(), t.id.desc())
                    .limit(limit)
                )
            ]

    def rate(self, changes: Sequence[RatingChange]) -> bool:
        """Apply the rating changes of one match or night, at once; ``False`` (nothing
        changed) if that source changed a rating already."""
        try:
            with self.store.transaction() as connection:
                for c in changes:
                    connection.execute(
                        insert(rating_changes_table).values(
                            member_id=c.member_id,
                            at=c.at,
                            source=c.source,
                            mu_before=c.mu_before,
                            sigma_before=c.sigma_before,
                            mu_after=c.mu_after,
                            sigma_after=c.sigma_after,
                        )
                    )
                    connection.execute(
                        update(members_table)
                        .where(members_table.c.id == c.member_id)
                        .values(mu=c.mu_after, sigma=c.sigma_after)
                    )
        except IntegrityError:
            return False
        return True

    def rating_history(self, member_id: int) -> list[RatingChange]:
        """The member's rating changes, oldest first."""
        r = rating_changes_table.c
        with self.store.snapshot() as connection:
            return [
                RatingChange(
                    x.member_id,
                    x.at,
                    x.source,
                    x.mu_before,
                    x.sigma_before,
                    x.mu_after,
                    x.sigma_after,
                )
                for x in connection.execute(
                    select(rating_changes_table)
                    .where(r.member_id == member_id)
                    .order_by(r.at, r.id)
                )
            ]
