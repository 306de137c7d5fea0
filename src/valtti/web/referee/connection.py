"""One open WebSocket of a table: its seat, the frames waiting for it, and its message rate."""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Iterable
from typing import Final

from valtti.engine import Seat

#: Frames other than states waiting for one connection beyond which it is closed as too slow.
MAX_QUEUED: Final = 256
#: Messages a connection may send in any one second, and throttles before it is closed.
RATE: Final = 20
THROTTLES: Final = 5
#: Code to close a connection that has kept flooding, and one that cannot keep up.
CLOSE_POLICY: Final = 1008
CLOSE_TOO_SLOW: Final = 1013


class Connection:
    """One open WebSocket of a table: its seat (``None``: a spectator) and its frames to send.

    Frames wait here and are sent by the connection's own task, so one slow client holds up
    neither its table nor the others. A state frame replaces the state frame still waiting (a
    client needs only the newest), so a slow client costs one state frame of memory; other
    frames (errors, pongs) are kept in order, and too many of them close the connection.
    """

    def __init__(self, seat: Seat | None = None) -> None:
        self.seat = seat
        self._waiting: deque[str] = deque()
        self._state: str | None = None  #: the state frame in ``_waiting``, if one is
        self._close: int | None = None
        self._ready = asyncio.Event()
        self._recent: deque[float] = deque(maxlen=RATE)
        self.throttles = 0

    @property
    def closing(self) -> bool:
        return self._close is not None

    def send(self, frame: str) -> None:
        """Queue a frame that is not a state frame (an error, a pong)."""
        if self.closing:
            return
        if len(self._waiting) >= MAX_QUEUED:
            # Too far behind to be worth catching up: drop what waits and close.
            self._waiting.clear()
            self._state = None
            self.close(CLOSE_TOO_SLOW)
            return
        self._waiting.append(frame)
        self._ready.set()

    def send_state(self, frame: str) -> None:
        """Queue a state frame in place of the one still waiting, if any."""
        if self.closing:
            return
        if self._state is not None:
            self._waiting.remove(self._state)
        self._state = frame
        self._waiting.append(frame)
        self._ready.set()

    def close(self, code: int) -> None:
        """Close after the frames already queued."""
        if not self.closing:
            self._close = code
            self._ready.set()

    async def next(self) -> str | int:
        """The next frame to send, or the code to close with once none is left."""
        while not self._waiting:
            if self._close is not None:
                return self._close
            self._ready.clear()
            await self._ready.wait()
        frame = self._waiting.popleft()
        if frame is self._state:
            self._state = None
        return frame

    def admit(self, now: float) -> bool:
        """Whether a message received at ``now`` is within the rate (RATE per second)."""
        if len(self._recent) == RATE and now - self._recent[0] < 1.0:
            self.throttles += 1
            return False
        self._recent.append(now)
        return True


def move_seat(connections: Iterable[Connection], seat: Seat) -> list[Connection]:
    """The connections of ``seat``, made spectators and told so (``seat_elsewhere``): a new
    connection with the seat's token plays it from now on (docs/WEB.md)."""
    moved = [c for c in connections if c.seat == seat]
    for old in moved:
        old.seat = None
        old.send(json.dumps({"type": "seat_elsewhere", "seat": str(seat)}))
    return moved
