"""The computer players of one table: when the one to move is asked, in a worker, and what
happens when a decision fails (docs/WEB.md). The seat driver (``valtti.table.Table``) says who
is to move and with which seed; the table's referee plays what they decide."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Final

from valtti.engine import Action, Observation, Seat
from valtti.engine.views import Phase
from valtti.table import Table, decide_once
from valtti.web.referee.bots import Bots

log = logging.getLogger(__name__)

#: Failed decisions of a computer player before the ``random`` player decides for it, and the
#: seconds to wait before each new try.
BOT_FAILURES: Final = 2
RETRY_SECONDS: Final = 0.5

#: Plays a decision: ``(seat, spec, point, action)`` under the table's lock; ``True`` when the
#: point is done with (played, or the table moved on, or someone else decides now), ``False``
#: to decide again.
Play = Callable[[Seat, str, int, Action | None], Awaitable[bool]]


class Computers:
    """Lets the computer player to move decide, once per point of the match (the driver's
    ``point``: the number of actions so far, answers included), each move ``delay`` seconds at
    least but a partner's choice of marriage, which nobody else sees made."""

    def __init__(
        self,
        table_id: str,
        bots: Bots,
        delay: float,
        spawn: Callable[[Coroutine[Any, Any, None]], None],
    ) -> None:
        self.table_id = table_id
        self.bots = bots
        self.delay = delay
        self._spawn = spawn
        self._thinking: int | None = None  #: the point a computer player is deciding at

    def schedule(self, driver: Table, spec: str | None, play: Play) -> None:
        """Let ``spec`` (a computer player, or a person's stand-in; ``None``: nobody) decide
        for the seat to move unless a decision at this point is under way."""
        seat = driver.to_move
        point = driver.point
        if spec is None or seat is None or self._thinking == point:
            return
        self._thinking = point
        observation = driver.match.observation(seat)
        work = self._move(seat, spec, driver.decision_seed(), observation, point, play)
        self._spawn(work)

    def forget(self) -> None:
        """A decision's task failed: let the next ``schedule`` ask again."""
        self._thinking = None

    async def _move(
        self, seat: Seat, spec: str, seed: int, observation: Observation, point: int, play: Play
    ) -> None:
        """Decide for ``seat`` at ``point`` and ``play`` it.

        A decision that fails or is refused is logged and made again after a pause; after
        BOT_FAILURES of them the ``random`` player decides that point instead.
        """
        loop = asyncio.get_running_loop()
        began = loop.time()
        # Nobody but the partner sees a choice of marriages being made (RULES.md 7.2): the
        # others see the asker's turn last until it is, so a delay there would tell them that
        # the partner had one to make.
        delay = 0.0 if observation.phase is Phase.ANSWER else self.delay
        failures = 0
        try:
            while True:
                action: Action | None = None
                if failures < BOT_FAILURES:
                    try:
                        action = await self.bots.decide(spec, seed, observation)
                    except Exception:
                        log.exception(
                            "table %s: %s failed to decide for %s", self.table_id, spec, seat
                        )
                else:
                    log.warning(
                        "table %s: the random player decides for %s after %d failures of %s",
                        self.table_id,
                        seat,
                        failures,
                        spec,
                    )
                    action = decide_once("random", seed, observation)
                # People should see each move: wait out what is left of the delay after thinking.
                await asyncio.sleep(max(0.0, delay - (loop.time() - began)))
                if await play(seat, spec, point, action):
                    return
                failures += 1
                await asyncio.sleep(RETRY_SECONDS)
        finally:
            # Done with (or given up): the same point may be decided again by someone else (a
            # stand-in after its person came back and went again).
            if self._thinking == point:
                self._thinking = None
