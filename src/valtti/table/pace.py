"""The pace of the host's computer players at a table where a program sits.

A bot can time the host: a player that answers a forced move at once and thinks over a choice
tells the bot, by when its next message comes, that a hidden hand held a single legal card (a
void, the last card of a suit). So at such a table each decision of a computer player in the
host takes at least as long as the longest that player has taken at that trick of a deal in
this process: a forced move then takes as long as a choice. A decision longer than every
earlier one is not held back, so what it can tell is only that it is the longest yet.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final


class Pace:
    """The longest decision so far of each player (by its spec) at each trick of a deal."""

    def __init__(self, sleep: Callable[[float], None] = time.sleep) -> None:
        self.sleep = sleep
        self._longest: dict[tuple[str, int], float] = {}

    def hold(self, spec: str, trick: int, elapsed: float) -> None:
        """Wait until the decision of ``spec`` at ``trick`` (tricks played before it), which
        has taken ``elapsed`` seconds, has taken as long as the longest of its kind so far."""
        key = (spec, trick)
        longest = self._longest.get(key, 0.0)
        if elapsed >= longest:
            self._longest[key] = elapsed
        else:
            self.sleep(longest - elapsed)

    def longest(self, spec: str, trick: int) -> float:
        """The longest decision of ``spec`` at ``trick`` so far, in seconds (0 before any)."""
        return self._longest.get((spec, trick), 0.0)


#: The pace every table of this process keeps: each match a worker plays learns from the last.
PACE: Final = Pace()
