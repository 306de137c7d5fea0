"""The vector env's tables stepped in C: ``MarjapussiVectorEnv(num_envs, batched=True)``.

``research._batch.Tables`` plays every table of the batch in one call: the learner's actions,
then the other seats until each learner is to move again, writing observations and masks into
arrays allocated once. It deals, seats and plays exactly as ``LearnerTable`` does from the same
seeds (the package's generator, ``engine.SplitMix``, in C and in Python), so a batched vector
env gives the same observations, masks, rewards and terminations as the Python one. It takes
deals (``episode="deal"``) and the players of ``BATCH_PLAYERS`` in the other seats.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from valtti.engine import Seat
from valtti.research._batch import BATCH_PLAYERS, Tables
from valtti.research.episode import (
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    action_number,
    episode_seeds,
    variant_of,
)

if TYPE_CHECKING:
    from valtti.research.learnertable import LearnerTable

__all__ = ["BATCH_PLAYERS", "BatchedTables", "action_numbers"]

_SEAT_NAMES = np.array([str(s) for s in Seat])
_ENOUGH = NUM_ACTIONS  # any number at or over it is as illegal as NUM_ACTIONS


def action_numbers(actions: Sequence[object] | np.ndarray) -> np.ndarray:
    """The actions as int64, each checked as ``action_number`` checks it (``TypeError`` for
    anything but an int); an integer array is taken as it is."""
    if isinstance(actions, np.ndarray) and actions.dtype.kind in "iu":
        return actions.astype(np.int64)
    # out of range stays out of range, without overflowing int64
    return np.array([min(action_number(a), _ENOUGH) for a in actions], np.int64)


class BatchedTables:
    """``num_envs`` tables with the options of ``table`` (opponents, seat, variant), in C;
    ``illegal_reward`` the reward of an illegal action (the env's ``ILLEGAL_PENALTY``).

    ``ValueError`` for options it does not take: a match, another observation type than
    ``observation``, another reward than ``points``, an opponent not named in
    ``BATCH_PLAYERS``."""

    def __init__(self, num_envs: int, table: LearnerTable, illegal_reward: float) -> None:
        whos = [o.who for o in table.others]
        names = [w for w in whos if isinstance(w, str) and w in BATCH_PLAYERS]
        refused = [
            f"episode={table.kind!r}" if table.kind != "deal" else "",
            f"observation_type={table.view_kind!r}" if table.view_kind != "observation" else "",
            f"reward={table.reward!r}" if table.reward != "points" else "",
            "opponents other than " + ", ".join(BATCH_PLAYERS) if len(names) < 3 else "",
        ]
        if any(refused):
            raise ValueError(
                f"batched tables play deals for the observation and points, against "
                f"{', '.join(BATCH_PLAYERS)}; not {'; '.join(r for r in refused if r)}: "
                "batched=False plays those"
            )
        self.num_envs = num_envs
        variant = variant_of(table.variant)
        self.tables = Tables(num_envs, tuple(names), table.fixed_seat, variant, illegal_reward)
        self._masks = np.zeros((num_envs, NUM_ACTIONS), np.uint8)
        self._shared = True  #: one stream for every table (``reset`` says)

    def reset(self, streams: Sequence[np.random.Generator], obs: Any) -> None:
        """Deal every table afresh, each from its stream (the streams of the steps after it
        too), into ``obs``."""
        self._shared = all(s is streams[0] for s in streams)
        self._reset(np.arange(self.num_envs, dtype=np.int64), streams, obs)

    def _reset(self, which: np.ndarray, streams: Sequence[np.random.Generator], obs: Any) -> None:
        # One seed a table, drawn in table order as LearnerTable.reset draws it; a stream all
        # tables share gives the same numbers in one draw as in one draw a table.
        if self._shared:
            seeds = episode_seeds(streams[0], len(which))
        else:
            seeds = np.concatenate([episode_seeds(streams[i], 1) for i in which])
        self.tables.reset(which, seeds, obs, self._masks)

    def step(
        self, numbers: np.ndarray, streams: Sequence[np.random.Generator], obs: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Play one action a table (``action_numbers``) and reset the tables whose episode
        ended: (rewards, ended, their last observations, ended by an illegal action)."""
        n = self.num_envs
        rewards = np.zeros(n, np.float64)
        over = np.zeros(n, np.uint8)
        illegal = np.zeros(n, np.uint8)
        final = np.zeros((n, OBSERVATION_SIZE), np.float32)
        if self.tables.step(numbers, obs, self._masks, rewards, over, illegal, final):
            self._reset(np.flatnonzero(over).astype(np.int64), streams, obs)
        return rewards, over.view(bool), final, illegal.view(bool)

    def action_masks(self) -> np.ndarray:
        """Each table's legal actions, (num_envs, 49) bool."""
        return self._masks.astype(bool)

    def seats(self) -> np.ndarray:
        """The learner's seat at each table, by name."""
        return np.take(_SEAT_NAMES, self.tables.seats())
