"""Marjapussi as a Gymnasium environment: one learner seat against three computer players.

Importing this module registers ``valtti/Marjapussi-v0``::

    import gymnasium, valtti.research.gymnasium
    env = gymnasium.make("valtti/Marjapussi-v0", opponents="heuristic")
    obs, info = env.reset(seed=1)
    while True:
        action = env.action_space.sample(env.unwrapped.action_masks().astype("int8"))
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

The observation is the learner's observation tensor (float32, docs/TENSORS.md; or, by
``observation_type``, its information state or a dict of both), the action one of the 49 action
numbers (``valtti.engine.actions``), ``action_masks()`` the legal ones (bool; every action once
the episode is over, for Gymnasium's next-step autoreset, which ignores that step's action).
``full_state=True`` puts the full-state tensor relative to the learner (for a centralised
critic) in ``info["state"]``; ``state()`` gives it too. The other three seats are players by
name as ``valtti.players.make_player`` takes them (``random``, ``heuristic``, ``search:easy``…),
``Player`` objects (lent: never closed here) or policies (``valtti.players.policy``: a callable
given the seat's tensor, of the learner's ``observation_type``, and its mask): ``opponents`` is
one of them for all three or three for the seats to the learner's left, opposite (its partner)
and right. They play until the learner is to move again. A partner answering "yes" to an
ask-whole names the marriage as a step of its own, forced (one legal action) where it holds one
(``Deal``'s ``answer_steps``, as in every environment here): the learner, as that partner, takes
it in either case. With ``reward="points"`` the reward comes at the end: for a deal, the
learner's team's game points minus the other team's; for a match, +1, -1, or 0 for a draw. With
``reward="equity"`` it is the change of the team's match equity (``players.equity``) over each
deal, in the step in which the deal ends. An illegal action ends the episode with reward
``ILLEGAL_PENALTY`` (-10) and ``info["illegal"]`` holding the refusal; the deal is left as it
was. Every random draw (cards, first dealer, the learner's seat when ``seat=None``, the
opponents' seeds) comes from ``self.np_random``.

``gymnasium.make_vec("valtti/Marjapussi-v0", num_envs=N, vectorization_mode="vector_entry_point")``
gives ``MarjapussiVectorEnv``: N tables stepped in one process, observations written straight
into one batch, episodes reset in the step that ends them (``AutoresetMode.SAME_STEP``, the last
observation in ``info["final_obs"]``, the learner's seat in the new one in ``info["seat"]``).
``reset(seed=[s0, s1, …])`` gives each table a stream of its own, which its later resets go
on with; ``reset(seed=s)`` is ``reset(seed=[s, s + 1, …])``, as Gymnasium's ``SyncVectorEnv``
seeds its environments.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space, create_empty_array

from valtti.engine import Seat
from valtti.players.policy import (
    Seatable,
    ViewKind,
)
from valtti.research.batched import BatchedTables, action_numbers
from valtti.research.episode import (
    INFORMATION_STATE_SIZE,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    STATE_SIZE,
    EpisodeKind,
    RewardKind,
    VariantArg,
    action_number,
    is_int,
    seed_number,
)
from valtti.research.learnertable import ILLEGAL_PENALTY, LearnerTable

ENV_ID = "valtti/Marjapussi-v0"

__all__ = [
    "ENV_ID",
    "ILLEGAL_PENALTY",
    "LearnerTable",
    "MarjapussiEnv",
    "MarjapussiVectorEnv",
    "observation_space",
]


def _render_mode(mode: str | None) -> str | None:
    """``render_mode`` as given, if the tables can draw it: ``None`` or ``"ansi"`` (text)."""
    if mode not in (None, "ansi"):
        raise ValueError(f"render_mode must be None or 'ansi', not {mode!r}")
    return mode


def observation_space(kind: ViewKind) -> spaces.Space[Any]:
    """The space of one seat's view of ``kind`` (``players.policy.ViewKind``)."""
    observation = spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32)
    information = spaces.Box(0.0, 1.0, (INFORMATION_STATE_SIZE,), np.float32)
    if kind == "observation":
        return observation
    if kind == "information_state":
        return information
    return spaces.Dict({"observation": observation, "information_state": information})


class MarjapussiEnv(gymnasium.Env[Any, np.int64]):
    """One learner seat (see the module); options as ``LearnerTable``'s, ``full_state`` to give
    the full-state tensor in ``info["state"]`` after every reset and step, and ``render_mode``
    ``"ansi"`` for the table as text."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 - Gymnasium's

    def __init__(
        self,
        opponents: Seatable | Sequence[Seatable] = "random",
        seat: Seat | int | str | None = None,
        episode: EpisodeKind = "deal",
        variant: VariantArg = None,
        render_mode: str | None = None,
        observation_type: ViewKind = "observation",
        reward: RewardKind = "points",
        full_state: bool = False,
    ) -> None:
        self.render_mode = _render_mode(render_mode)
        self.table = LearnerTable(opponents, seat, episode, variant, observation_type, reward)
        self.full_state = bool(full_state)
        self.observation_space = observation_space(self.table.view_kind)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        #: the full-state tensor's space, of ``state()`` and ``info["state"]``
        self.state_space = spaces.Box(0.0, 1.0, (STATE_SIZE,), np.float32)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self.table.reset(self.np_random)
        info: dict[str, Any] = {"seat": str(Seat(self.table.seat))}
        return self.table.observation(), self._with_state(info)

    def step(self, action: np.int64 | int) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        reward, over, refusal = self.table.step(action_number(action))
        info: dict[str, Any] = {} if refusal is None else {"illegal": refusal}
        return self.table.observation(), reward, over, False, self._with_state(info)

    def _with_state(self, info: dict[str, Any]) -> dict[str, Any]:
        if self.full_state:
            info["state"] = self.table.state()
        return info

    def state(self) -> np.ndarray:
        """The full-state tensor relative to the learner's seat (docs/TENSORS.md): every hand,
        for a centralised critic; never the learner's to act on."""
        return np.asarray(self.table.state())

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as 49 bools (all True once the episode is over: see
        ``LearnerTable.action_mask``)."""
        return self.table.action_mask()

    def render(self) -> str | None:
        return self.table.episode.render() if self.render_mode == "ansi" else None

    def close(self) -> None:
        self.table.close()


class MarjapussiVectorEnv(VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` learner tables in one process (see the module); options as
    ``LearnerTable``'s, and ``render_mode`` ``"ansi"`` for each table as text.

    ``full_state=True`` puts each table's full-state tensor, relative to its learner, in
    ``info["state"]`` (num_envs × 2264) after every reset and step, as ``MarjapussiEnv`` does.

    ``batched=True`` steps all tables in one call in C (``valtti.research.batched``): the same
    episodes from the same seeds, many times faster, for the options it takes (and no
    ``render_mode``; ``tables`` is then empty)."""

    metadata = {  # noqa: RUF012 - Gymnasium's
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": ["ansi"],
    }

    def __init__(
        self,
        num_envs: int = 1,
        render_mode: str | None = None,
        batched: bool = False,
        full_state: bool = False,
        **options: Any,
    ) -> None:
        if not is_int(num_envs) or num_envs < 1:
            raise ValueError(f"num_envs is an int of 1 or more, not {num_envs!r}")
        if batched and full_state:
            raise ValueError("batched tables give no full state: full_state=False")
        self.full_state = bool(full_state)
        self.render_mode = _render_mode(render_mode)
        self.num_envs = num_envs
        self.tables = [LearnerTable(**options) for _ in range(1 if batched else num_envs)]
        self.single_observation_space = observation_space(self.tables[0].view_kind)
        #: the tables in C with ``batched``, which then play every episode
        self._batch: BatchedTables | None = None
        if batched:
            if render_mode is not None:
                raise ValueError("batched tables draw nothing: render_mode=None")
            self._batch = BatchedTables(num_envs, self.tables.pop(), ILLEGAL_PENALTY)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._obs = create_empty_array(self.single_observation_space, num_envs, np.zeros)
        #: each table's random stream, which its resets draw from: ``np_random`` for all until
        #: seeded, then each table's own (None until the first reset)
        self._streams: list[np.random.Generator] | None = None

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if is_int(seed):
            # As Gymnasium's SyncVectorEnv seeds its environments: table i with seed + i.
            seed = [seed_number(seed) + i for i in range(self.num_envs)]
        if isinstance(seed, list):  # one a table, as Gymnasium's vector environments take them
            if len(seed) != self.num_envs:
                raise ValueError(f"{len(seed)} seeds for {self.num_envs} tables")
            # Each table goes on with its own stream: np_random, seeded with seed[0] too,
            # would deal table 0's episodes again to the tables it reset.
            seeds = [seed_number(s) for s in seed]
            self._streams = [np.random.default_rng(s) for s in seeds]
            super().reset(seed=seeds[0])
        else:
            super().reset(seed=seed)
            if self._streams is None:  # an int seed was made a list above
                self._streams = [self.np_random] * self.num_envs
        if self._batch is not None:
            self._batch.reset(self._streams, self._obs)
        for i, (table, stream) in enumerate(zip(self.tables, self._streams, strict=False)):
            table.reset(stream)
            table.observation(_row(self._obs, i))
        info = {"seat": self._seats(), "_seat": np.ones(self.num_envs, bool)}
        return _copy(self._obs), self._with_states(info)

    def _with_states(self, info: dict[str, Any]) -> dict[str, Any]:
        if self.full_state:
            info["state"] = np.stack([t.state() for t in self.tables])
            info["_state"] = np.ones(self.num_envs, bool)
        return info

    def _seats(self) -> np.ndarray:
        """The learner's seat at each table, by name."""
        if self._batch is not None:
            return self._batch.seats()
        return np.array([str(Seat(t.seat)) for t in self.tables])

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        n = self.num_envs
        if np.shape(actions) != (n,):
            raise ValueError(f"one action a table: {n}, not shape {np.shape(actions)}")
        # every action checked before any table moves: a bad one leaves all tables as they were
        numbers: Any = (
            action_numbers(actions)
            if self._batch is not None
            else [action_number(a) for a in actions]
        )
        streams = self._streams
        if streams is None:
            raise RuntimeError("the tables have not been reset: call reset() first")
        if self._batch is not None:
            rewards, over, final, illegal = self._batch.step(numbers, streams, self._obs)
        else:
            rewards, over, final, illegal = self._step_tables(numbers, streams)
        info: dict[str, Any] = {}
        if over.any():
            # the ended episodes' last observations and refusals, and, as reset() says it,
            # the learner's seat in each table's new episode
            info = {
                "final_obs": final,
                "_final_obs": over,
                "illegal": illegal,
                "_illegal": over,
                "seat": self._seats(),
                "_seat": over,
            }
        return _copy(self._obs), rewards, over, np.zeros(n, bool), self._with_states(info)

    def _step_tables(
        self, numbers: list[int], streams: list[np.random.Generator]
    ) -> tuple[np.ndarray, np.ndarray, Any, np.ndarray]:
        """Step each table, resetting those whose episode ends: (rewards, ended, their last
        views, ended by an illegal action)."""
        n = self.num_envs
        rewards = np.zeros(n, np.float64)
        over = np.zeros(n, bool)
        final = create_empty_array(self.single_observation_space, n, np.zeros)
        illegal = np.zeros(n, bool)
        for i, table in enumerate(self.tables):
            rewards[i], over[i], refusal = table.step(numbers[i])
            if over[i]:
                illegal[i] = refusal is not None
                table.observation(_row(final, i))
                table.reset(streams[i])
            table.observation(_row(self._obs, i))
        return rewards, over, final, illegal

    def action_masks(self) -> np.ndarray:
        """The legal actions of each table, shape (num_envs, 49), bool: a table reset in the
        step that ended its episode gives its new episode's."""
        if self._batch is not None:
            return self._batch.action_masks()
        return np.stack([t.action_mask() for t in self.tables])

    def render(self) -> tuple[str, ...] | None:
        """Each table as text with ``render_mode="ansi"``, else ``None``."""
        if self.render_mode != "ansi":
            return None
        return tuple(t.episode.render() for t in self.tables)

    def close_extras(self, **kwargs: Any) -> None:
        for table in self.tables:
            table.close()


def _row(batch: Any, i: int) -> Any:
    """Row ``i`` of a batch of views (a dict of batches for ``"both"``), to write into."""
    return {k: v[i] for k, v in batch.items()} if isinstance(batch, dict) else batch[i]


def _copy(batch: Any) -> Any:
    return {k: v.copy() for k, v in batch.items()} if isinstance(batch, dict) else batch.copy()


gymnasium.register(
    id=ENV_ID,
    entry_point="valtti.research.gymnasium:MarjapussiEnv",
    vector_entry_point="valtti.research.gymnasium:MarjapussiVectorEnv",
)
