"""Who is connected to a table, as its connections were last told: a connection coming or
going is sent to the others at most once in each PRESENCE_SECONDS, and only when the connected
seats they would be shown differ from those last sent (docs/WEB.md), so that nobody can
multiply a table's traffic by connecting and disconnecting."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, Final

from valtti.engine import Seat

#: The shortest time between two broadcasts of who is connected: however often connections
#: come and go, the others get at most one presence frame in each such interval, and one
#: only when the connected seats they would show differ from those last sent.
PRESENCE_SECONDS: Final = 0.25


class Presence:
    """The presence frames of one room: ``connected`` says who is connected now, ``broadcast``
    sends every connection its state (under ``lock``), and ``spawn`` runs a later one."""

    def __init__(
        self,
        lock: asyncio.Lock,
        connected: Callable[[], frozenset[Seat]],
        broadcast: Callable[[], None],
        spawn: Callable[[Coroutine[Any, Any, None]], None],
    ) -> None:
        self._lock = lock
        self._connected = connected
        self._broadcast = broadcast
        self._spawn = spawn
        #: The connected seats the last state frames showed (``shown``), when presence was
        #: last sent, and whether a presence frame waits for its interval.
        self.shown: frozenset[Seat] = frozenset()
        self._at = -PRESENCE_SECONDS
        self._due = False

    def changed(self) -> None:
        """A connection came or went (under the lock): tell the others who is connected, now
        or at the end of the interval (the latest change then)."""
        if self._due or self._connected() == self.shown:
            return
        wait = self._at + PRESENCE_SECONDS - asyncio.get_running_loop().time()
        if wait <= 0:
            self._send()
        else:
            self._due = True
            self._spawn(self._later(wait))

    async def _later(self, wait: float) -> None:
        await asyncio.sleep(wait)
        async with self._lock:
            self._due = False
            if self._connected() != self.shown:
                self._send()

    def _send(self) -> None:
        self._at = asyncio.get_running_loop().time()
        # While a partner chooses, the others still get the state from before the question.
        self._broadcast()
