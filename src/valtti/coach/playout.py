"""A fast rule-based playout: how a hint finishes the first tricks of a line cheaply before the
exact solver takes over (``coach.appraise``).

Every seat plays as the heuristic player (its C, ``players._heuristic``: a few microseconds a
decision), each from what it may know alone, its hand and the public record: the hidden cards
of the deal it is given are never read. Its generator is seeded alike for every playout, so the
same position gives the same line. Against exact solves it ranks a hint's moves better than
rules of thumb with every hand open did (docs/MEASUREMENTS.md).
"""

from __future__ import annotations

from typing import Final

from valtti.engine import ACTIONS, Action, Deal
from valtti.players._heuristic import Heuristic

__all__ = ["play_to"]

#: The seed of the heuristic player's generator in every playout.
_SEED: Final = 34


def play_to(
    deal: Deal, tricks: int, score: tuple[int, int] = (0, 0), deal_number: int | None = None
) -> list[Action]:
    """Play ``deal`` on as the heuristic player would (``score``: the match score before the
    deal, ``deal_number``: which deal of the match, as ``Observation`` has them) until
    ``tricks`` tricks are complete and the next has no card yet (its window, if any, still
    open), or the deal is over; the actions played."""
    player = Heuristic(_SEED)
    played = []
    while not deal.is_over():
        trick = deal.current_trick
        if deal.tricks_played >= tricks and trick is not None and not trick.cards:
            break
        # The player answers a position with one legal action at once.
        action = ACTIONS[player.choose(deal, score, deal_number)]
        deal.apply(action)
        played.append(action)
    return played
