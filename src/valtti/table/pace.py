"""The pace of the host's computer players at a table where a program sits.

A bot can time the host: a player that answers a forced move at once and thinks over a choice
tells the bot, by when its next message comes, that a hidden hand held a single legal card (a
void, the last card of a suit), and a longer think that it had more to choose from. So at such
a table each decision of a computer player in the host takes at least as long as nearly all of
that player's recent decisions at that trick of a deal in this process (``QUANTILE`` of the last
``WINDOW``): a forced move then takes as long as a choice. A decision longer than that is not
held back; what it tells is that it was among the longest, so a choice (at most one decision
in fifty). A quantile rather than the longest, so that one slow moment (a busy machine, the
first decision of a process) does not slow every later decision.
"""

from __future__ import annotations

import bisect
import math
import time
from collections import deque
from collections.abc import Callable
from typing import Final

#: The share of a player's recent decisions at a trick that a held decision lasts as long as.
QUANTILE: Final = 0.98
#: The recent decisions of a player at a trick that its pace is taken from.
WINDOW: Final = 512


class Pace:
    """Each player's (by its spec) recent decision times at each trick of a deal."""

    def __init__(self, sleep: Callable[[float], None] = time.sleep) -> None:
        self.sleep = sleep
        self._recent: dict[tuple[str, int], deque[float]] = {}
        self._sorted: dict[tuple[str, int], list[float]] = {}

    def hold(self, spec: str, trick: int, elapsed: float) -> None:
        """Wait until the decision of ``spec`` at ``trick`` (tricks played before it), which
        has taken ``elapsed`` seconds, has taken as long as ``floor``; then count it."""
        wait = self.floor(spec, trick) - elapsed
        if wait > 0:
            self.sleep(wait)
        key = (spec, trick)
        recent = self._recent.setdefault(key, deque())
        ordered = self._sorted.setdefault(key, [])
        if len(recent) == WINDOW:
            del ordered[bisect.bisect_left(ordered, recent.popleft())]
        recent.append(elapsed)
        bisect.insort(ordered, elapsed)

    def floor(self, spec: str, trick: int) -> float:
        """How long a decision of ``spec`` at ``trick`` takes at least: the ``QUANTILE`` of its
        recent ones, the longest of fewer than fifty (0 before any)."""
        ordered = self._sorted.get((spec, trick))
        if not ordered:
            return 0.0
        return ordered[math.ceil(QUANTILE * (len(ordered) - 1))]


#: The pace every table of this process keeps: each match a worker plays learns from the last.
PACE: Final = Pace()
