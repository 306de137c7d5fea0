"""Type stub for the learner tables in C (see _batch.pyx)."""

from collections.abc import Sequence
from typing import Any

from typing_extensions import disjoint_base

from valtti.engine._deal import Deal
from valtti.engine.cards import Seat
from valtti.engine.variant import Variant

BATCH_PLAYERS: dict[str, int]

@disjoint_base
class Tables:
    """``n`` learner tables stepped in C; arrays are numpy's."""

    def __init__(
        self,
        n: int,
        opponents: Sequence[str],
        seat: Seat | int | None,
        variant: Variant | None,
        illegal_reward: float,
    ) -> None: ...
    def __len__(self) -> int: ...
    def reset(self, which: Any, seeds: Any, obs: Any, masks: Any) -> None: ...
    def step(
        self, actions: Any, obs: Any, masks: Any, rewards: Any, over: Any, illegal: Any, final: Any
    ) -> int: ...
    def seats(self) -> list[int]: ...
    def deal(self, i: int) -> Deal: ...
