"""The club of a server in club mode: its accounts, its settings, guests' keys to a table, and
the ratings of finished matches."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import secrets
from datetime import UTC, datetime
from typing import Final, Literal, get_args

from valtti.engine import Team
from valtti.web.club.accounts import Accounts, AccountSettings
from valtti.web.club.ratings import NEW_RATING, Rated, anchor, rate
from valtti.web.db.club import ClubStore
from valtti.web.db.store import Store
from valtti.web.referee.room import Room

log = logging.getLogger(__name__)

#: Who may watch a table: anyone who has its link, or members (and the table's guests) only.
Watchers = Literal["anyone", "members"]
WATCHERS: Final[tuple[Watchers, ...]] = get_args(Watchers)
#: Who may watch until the administrator says otherwise.
DEFAULT_WATCHERS: Final[Watchers] = "members"


class Club:
    """The club of a server in club mode, over the server's ``store``."""

    def __init__(self, store: Store, settings: AccountSettings | None = None) -> None:
        self.store = ClubStore(store)
        self.accounts = Accounts(self.store, settings)
        self._secret = b""

    async def start(self) -> None:
        """Read (or make, once) the club's secret that guests' keys are made with."""
        secret = await asyncio.to_thread(
            self.store.setting_once, "guest_secret", secrets.token_urlsafe(32)
        )
        self._secret = secret.encode()

    async def watchers(self) -> Watchers:
        value = await asyncio.to_thread(self.store.setting, "watchers")
        for w in WATCHERS:
            if w == value:
                return w
        return DEFAULT_WATCHERS

    async def set_watchers(self, watchers: Watchers) -> None:
        await asyncio.to_thread(self.store.set_setting, "watchers", watchers)

    def guest_key(self, table_id: str) -> str:
        """The key a member gives a guest to take a seat at (and watch) the table ``table_id``:
        made from the club's secret, so that it is never stored and works for that table only."""
        mac = hmac.new(self._secret, f"guest:{table_id}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac[:18]).decode()

    def is_guest_key(self, table_id: str, key: str | None) -> bool:
        return key is not None and hmac.compare_digest(self.guest_key(table_id), key)

    async def rate_table(self, room: Room) -> None:
        """Change the ratings of the members who played the finished match of ``room`` (a
        club night's table is rated with its night, not alone; a match no member played, or
        one a team did not win or draw, changes nothing)."""
        match = room.match
        if room.row.deal_limit is not None or match is None or not match.is_over():
            return
        members = await asyncio.to_thread(self.store.table_members, room.id)
        if not members:
            return
        ratings = {m.id: m for m in await asyncio.to_thread(self.store.members, members.values())}
        teams: list[list[Rated]] = [[], []]
        for row in room.seats:
            member = ratings.get(members.get(row.seat, -1))
            if member is not None:
                player = Rated(member.id, member.mu, member.sigma)
            elif row.kind == "computer" and row.name is not None:
                player = Rated(None, *anchor(row.name))
            else:
                player = Rated(None, *NEW_RATING)  # a guest
            teams[int(row.seat) % 2].append(player)
        winner = None if match.is_draw else match.winner
        ranks = [1, 1] if winner is None else [1, 2] if winner == Team.NS else [2, 1]
        changes = rate(teams, ranks, f"table:{room.id}", datetime.now(UTC))
        if changes and not await asyncio.to_thread(self.store.rate, changes):
            log.info("table %s: its ratings were changed already", room.id)
