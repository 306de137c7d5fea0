"""The computer players of one table: who is asked to decide, when, and what happens when a
decision fails (docs/WEB.md). The table's referee plays what they decide."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, Final

from valtti.engine import Action, Match, Seat
from valtti.players.registry import make_player
from valtti.table import derive_seed
from valtti.web.bots import Bots
from valtti.web.store import SeatRow

log = logging.getLogger(__name__)

#: Failed decisions of a computer player before the ``random`` player decides for it, and the
#: seconds to wait before each new try.
BOT_FAILURES: Final = 2
RETRY_SECONDS: Final = 0.5

#: Plays a decision: ``(seat, row, point, action)`` under the table's lock; ``True`` when the
#: point is done with (played, or the table moved on), ``False`` to decide again.
Play = Callable[[Seat, SeatRow, int, Action | None], Awaitable[bool]]


class Computers:
    """Lets the computer player to move decide, once per point of the match (``point``: the
    number of actions so far, answers included), each move ``delay`` seconds at least."""

    def __init__(
        self,
        table_id: str,
        seed: int,
        bots: Bots,
        delay: float,
        spawn: Callable[[Coroutine[Any, Any, None]], None],
    ) -> None:
        self.table_id = table_id
        self.seed = seed
        self.bots = bots
        self.delay = delay
        self._spawn = spawn
        self._thinking: int | None = None  #: the point a computer player is deciding at

    def schedule(
        self, match: Match | None, seats: Sequence[SeatRow], point: int, play: Play
    ) -> None:
        """Let the computer player to move (if any) decide at ``point`` unless one does."""
        if match is None or self._thinking == point:
            return
        seat = match.current_player
        if seat is None or seats[seat].kind != "computer":
            return
        self._thinking = point
        self._spawn(self._move(match, seat, seats[seat], point, play))

    def forget(self) -> None:
        """A decision's task failed: let the next ``schedule`` ask again."""
        self._thinking = None

    async def _move(self, match: Match, seat: Seat, row: SeatRow, point: int, play: Play) -> None:
        """Decide for ``seat`` at ``point`` and ``play`` it.

        A decision that fails or is refused is logged and made again after a pause; after
        BOT_FAILURES of them the ``random`` player decides that point instead.
        """
        assert row.name is not None
        seed = derive_seed(self.seed, "decision", str(seat), point)
        observation = match.observation(seat)
        loop = asyncio.get_running_loop()
        began = loop.time()
        failures = 0
        while True:
            action: Action | None = None
            if failures < BOT_FAILURES:
                try:
                    action = await self.bots.decide(row.name, seed, observation)
                except Exception:
                    log.exception(
                        "table %s: %s failed to decide for %s", self.table_id, row.name, seat
                    )
            else:
                log.warning(
                    "table %s: the random player decides for %s after %d failures of %s",
                    self.table_id,
                    seat,
                    failures,
                    row.name,
                )
                fallback = make_player("random", seed)
                try:
                    action = fallback.choose(observation)
                finally:
                    fallback.close()
            # People should see each move: wait out what is left of the delay after thinking.
            await asyncio.sleep(max(0.0, self.delay - (loop.time() - began)))
            if await play(seat, row, point, action):
                return
            failures += 1
            await asyncio.sleep(RETRY_SECONDS)
