"""The table chat: short texts and quick emotes from the seated people (docs/WEB.md).

Seated people write, everyone at the table (spectators too) reads. Each message is
broadcast as ``{"type": "chat", …}`` to the table's connections and kept among the table's
last HISTORY (in memory), which a connection gets on connect as one ``chat_history`` frame
(when anything was said).
A connection may send RATE chat messages in any WINDOW seconds, and one client address (a
family behind one router may share it) ADDRESS_RATE.
"""

from __future__ import annotations

import json
import time
import weakref
from collections import defaultdict, deque
from collections.abc import Iterable, Sequence
from typing import Final

from valtti.web.db.rows import SeatRow
from valtti.web.referee.connection import Connection
from valtti.web.referee.errors import RoomError

#: The quick emotes, by name; each page says them in its own language.
EMOTES: Final = ("good", "thanks", "oops", "wow", "hurry")
#: The longest text, in characters after trimming.
MAX_TEXT: Final = 200
#: Messages kept for those who connect later.
HISTORY: Final = 50
#: Chat messages one connection, and one client address, may send in any WINDOW seconds.
RATE: Final = 5
ADDRESS_RATE: Final = 10
WINDOW: Final = 10.0
#: Addresses remembered before those idle for a WINDOW are forgotten.
ADDRESSES_KEPT: Final = 10_000


def _full(sent: deque[float], now: float) -> bool:
    return len(sent) == sent.maxlen and now - sent[0] < WINDOW


class Limits:
    """The chat rate of every connection and client address of one server."""

    def __init__(self) -> None:
        self._addresses: defaultdict[str, deque[float]] = defaultdict(
            lambda: deque(maxlen=ADDRESS_RATE)
        )
        self._connections: weakref.WeakKeyDictionary[Connection, deque[float]] = (
            weakref.WeakKeyDictionary()
        )

    def admit(self, connection: Connection, address: str, now: float) -> None:
        """Count a chat message; ``RoomError("chat_throttled")`` past either rate (then it
        is not counted)."""
        mine = self._connections.setdefault(connection, deque(maxlen=RATE))
        shared = self._addresses[address]
        if _full(mine, now) or _full(shared, now):
            raise RoomError(
                "chat_throttled",
                f"at most {RATE} chat messages in {WINDOW:g} seconds ({ADDRESS_RATE} from one "
                "address)",
            )
        mine.append(now)
        shared.append(now)
        if len(self._addresses) > ADDRESSES_KEPT:
            for idle in [a for a, v in self._addresses.items() if now - v[-1] >= WINDOW]:
                del self._addresses[idle]


class Chat:
    """One table's recent chat."""

    def __init__(self) -> None:
        self._history: deque[str] = deque(maxlen=HISTORY)

    @property
    def history(self) -> bool:
        """Whether anything was said (a connection is sent the history only then)."""
        return bool(self._history)

    def post(
        self,
        connection: Connection,
        seats: Sequence[SeatRow],
        text: str | None,
        emote: str | None,
        everyone: Iterable[Connection],
    ) -> None:
        """Broadcast the connection's person's ``text`` or ``emote`` to ``everyone``
        (``RoomError("not_seated")`` for a spectator) and keep it."""
        seat = connection.seat
        if seat is None:
            raise RoomError("not_seated", "spectators read the chat; the seated write")
        said = {"text": text} if emote is None else {"emote": emote}
        frame = json.dumps(
            {
                "type": "chat",
                "seat": str(seat),
                "name": seats[seat].name,
                **said,
                "at": round(time.time() * 1000),
            }
        )
        self._history.append(frame)
        for other in everyone:
            other.send(frame)

    def history_frame(self) -> str:
        """``{"type": "chat_history", "messages": [chat, …]}``, oldest first."""
        return f'{{"type":"chat_history","messages":[{",".join(self._history)}]}}'
