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

The observation is the learner's observation tensor (float32, docs/TENSORS.md), the action one
of the 49 action numbers (``valtti.engine.actions``), ``action_masks()`` the legal ones (bool).
The other three seats are players by name as ``valtti.players.make_player`` takes them
(``random``, ``heuristic``, ``search:easy``…): ``opponents`` is one name for all three or three
names for the seats to the learner's left, opposite (its partner) and right. They play until the
learner is to move again. A partner answering "yes" to an ask-whole names the marriage as a step
of its own, forced (one legal action) where it holds one (``Deal``'s ``answer_steps``, as in
every environment here): the learner, as that partner, takes it in either case. The reward
comes at the end: for a deal, the learner's team's game points minus the other team's; for a
match, +1, -1, or 0 for a draw. An illegal action ends the
episode with reward ``ILLEGAL_PENALTY`` (-10) and ``info["illegal"]`` holding the refusal; the
deal is left as it was. Every random draw (cards, first dealer, the learner's seat when
``seat=None``, the opponents' seeds) comes from ``self.np_random``.

``gymnasium.make_vec("valtti/Marjapussi-v0", num_envs=N, vectorization_mode="vector_entry_point")``
gives ``MarjapussiVectorEnv``: N tables stepped in one process, observations written straight
into one batch, episodes reset in the step that ends them (``AutoresetMode.SAME_STEP``, the last
observation in ``info["final_obs"]``, the learner's seat in the new one in ``info["seat"]``).
``reset(seed=[s0, s1, …])`` gives each table a stream of its own, which its later resets go
on with.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from valtti.engine import Seat
from valtti.players.base import Player
from valtti.players.registry import make_player
from valtti.research.episode import (
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    Episode,
    EpisodeKind,
    VariantArg,
    action_number,
    is_int,
    seed_number,
)

ILLEGAL_PENALTY = -10.0
ENV_ID = "valtti/Marjapussi-v0"

__all__ = ["ENV_ID", "ILLEGAL_PENALTY", "LearnerTable", "MarjapussiEnv", "MarjapussiVectorEnv"]


def _opponent_specs(opponents: str | Sequence[str]) -> tuple[str, str, str]:
    if isinstance(opponents, str):
        return (opponents, opponents, opponents)
    if len(opponents) != 3:
        raise ValueError("opponents is one player name or three (left, partner, right)")
    return (opponents[0], opponents[1], opponents[2])


def _seat(seat: Seat | int | str | None) -> Seat | None:
    """The learner's fixed seat; ``ValueError`` for anything but a seat, its number or name."""
    if seat is None or isinstance(seat, Seat):
        return seat
    if isinstance(seat, str):
        return Seat.parse(seat)
    if not is_int(seat) or not 0 <= seat <= 3:
        raise ValueError(f"seat is N, E, S, W or 0 to 3, not {seat!r}")
    return Seat(int(seat))


def _render_mode(mode: str | None) -> str | None:
    """``render_mode`` as given, if the tables can draw it: ``None`` or ``"ansi"`` (text)."""
    if mode not in (None, "ansi"):
        raise ValueError(f"render_mode must be None or 'ansi', not {mode!r}")
    return mode


class LearnerTable:
    """One episode seen from the learner's seat: the three other seats play until the learner
    is to move. The engine-level core of ``MarjapussiEnv`` and its vector form."""

    def __init__(
        self,
        opponents: str | Sequence[str] = "random",
        seat: Seat | int | str | None = None,
        episode: EpisodeKind = "deal",
        variant: VariantArg = None,
    ) -> None:
        self.specs = _opponent_specs(opponents)
        for spec in set(self.specs):
            make_player(spec, 0).close()  # a bad name fails here, not in reset
        self.fixed_seat = _seat(seat)
        self.kind: EpisodeKind = episode
        self.variant = variant
        self.rng = random.Random(0)
        self.episode = Episode(self.rng, episode, variant)
        self.seat = 0
        self.over = True  #: no episode is being played: reset() starts one
        #: per seat: the player, or None for the learner and for "random" (drawn from ``rng``)
        self.players: list[Player | None] = [None, None, None, None]

    def reset(self, np_random: np.random.Generator) -> None:
        self.rng = random.Random(int(np_random.integers(2**63)))
        self.seat = int(self.rng.randrange(4) if self.fixed_seat is None else self.fixed_seat)
        self.close()
        for offset, spec in zip((1, 2, 3), self.specs, strict=True):
            player = None if spec == "random" else make_player(spec, self.rng.getrandbits(32))
            self.players[(self.seat + offset) & 3] = player
        self.episode = Episode(self.rng, self.kind, self.variant)
        self.over = False
        self._others()

    def _others(self) -> None:
        """Let the other seats play until the learner is to move or the episode is over."""
        episode = self.episode
        while True:
            seat = episode.current_player
            if seat is None or seat == self.seat:
                return
            player = self.players[seat]
            if player is None:
                mask = episode.legal_mask()
                for _ in range(self.rng.randrange(mask.bit_count())):
                    mask &= mask - 1
                episode.apply((mask & -mask).bit_length() - 1)
            else:
                episode.apply(player.choose(episode.match.observation(Seat(seat))))

    def step(self, action: int) -> tuple[float, bool, str | None]:
        """Play the learner's action: (reward, episode over, refusal if it was illegal);
        ``RuntimeError`` when no episode is being played (before reset, or after its end)."""
        if self.over:
            raise RuntimeError("the episode is over (or not begun): call reset() first")
        episode = self.episode
        if not episode.is_legal(action):
            self.over = True
            refusal = episode.deal.refusal(action)
            return ILLEGAL_PENALTY, True, str(refusal)
        episode.apply(action)
        self._others()
        if episode.is_over():
            self.over = True
            return episode.returns()[self.seat & 1], True, None
        return 0.0, False, None

    def observation(self, out: Any = None) -> Any:
        return self.episode.observation(self.seat, out)

    def action_mask(self) -> np.ndarray:
        mask = self.episode.legal_mask() if self.episode.current_player == self.seat else 0
        return np.array([mask >> a & 1 for a in range(NUM_ACTIONS)], dtype=bool)

    def close(self) -> None:
        for i, player in enumerate(self.players):
            if player is not None:
                player.close()
                self.players[i] = None


class MarjapussiEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One learner seat (see the module); options as ``LearnerTable``'s, and ``render_mode``
    ``"ansi"`` for the table as text."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 - Gymnasium's

    def __init__(
        self,
        opponents: str | Sequence[str] = "random",
        seat: Seat | int | str | None = None,
        episode: EpisodeKind = "deal",
        variant: VariantArg = None,
        render_mode: str | None = None,
    ) -> None:
        self.render_mode = _render_mode(render_mode)
        self.table = LearnerTable(opponents, seat, episode, variant)
        self.observation_space = spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.table.reset(self.np_random)
        return self.table.observation(), {"seat": str(Seat(self.table.seat))}

    def step(
        self, action: np.int64 | int
    ) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        reward, over, refusal = self.table.step(action_number(action))
        info: dict[str, Any] = {} if refusal is None else {"illegal": refusal}
        return self.table.observation(), reward, over, False, info

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as 49 bools (all False once the episode is over)."""
        return self.table.action_mask()

    def render(self) -> str | None:
        return self.table.episode.render() if self.render_mode == "ansi" else None

    def close(self) -> None:
        self.table.close()


class MarjapussiVectorEnv(VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` learner tables in one process (see the module); options as
    ``LearnerTable``'s, and ``render_mode`` ``"ansi"`` for each table as text."""

    metadata = {  # noqa: RUF012 - Gymnasium's
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": ["ansi"],
    }

    def __init__(self, num_envs: int = 1, render_mode: str | None = None, **options: Any) -> None:
        if not is_int(num_envs) or num_envs < 1:
            raise ValueError(f"num_envs is an int of 1 or more, not {num_envs!r}")
        self.render_mode = _render_mode(render_mode)
        self.num_envs = num_envs
        self.tables = [LearnerTable(**options) for _ in range(num_envs)]
        self.single_observation_space = spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._obs = np.zeros((num_envs, OBSERVATION_SIZE), np.float32)
        #: each table's random stream, which its resets draw from: ``np_random`` for all, or
        #: after a list of seeds each table's own (None until the first reset)
        self._streams: list[np.random.Generator] | None = None

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
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
            if seed is not None or self._streams is None:
                self._streams = [self.np_random] * self.num_envs
        for table, stream, obs in zip(self.tables, self._streams, self._obs, strict=True):
            table.reset(stream)
            table.observation(obs)
        return self._obs.copy(), {"seat": self._seats(), "_seat": np.ones(self.num_envs, bool)}

    def _seats(self) -> np.ndarray:
        """The learner's seat at each table, by name."""
        return np.array([str(Seat(t.seat)) for t in self.tables])

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        n = self.num_envs
        if np.shape(actions) != (n,):
            raise ValueError(f"one action a table: {n}, not shape {np.shape(actions)}")
        # every action checked before any table moves: a bad one leaves all tables as they were
        numbers = [action_number(a) for a in actions]
        rewards = np.zeros(n, np.float64)
        over = np.zeros(n, bool)
        final = np.zeros((n, OBSERVATION_SIZE), np.float32)
        illegal = np.zeros(n, bool)
        streams = self._streams
        if streams is None:
            raise RuntimeError("the tables have not been reset: call reset() first")
        for i, table in enumerate(self.tables):
            rewards[i], over[i], refusal = table.step(numbers[i])
            if over[i]:
                illegal[i] = refusal is not None
                table.observation(final[i])
                table.reset(streams[i])
            table.observation(self._obs[i])
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
        return self._obs.copy(), rewards, over, np.zeros(n, bool), info

    def action_masks(self) -> np.ndarray:
        """The legal actions of each table, shape (num_envs, 49), bool."""
        return np.stack([t.action_mask() for t in self.tables])

    def render(self) -> tuple[str, ...] | None:
        """Each table as text with ``render_mode="ansi"``, else ``None``."""
        if self.render_mode != "ansi":
            return None
        return tuple(t.episode.render() for t in self.tables)

    def close_extras(self, **kwargs: Any) -> None:
        for table in self.tables:
            table.close()


gymnasium.register(
    id=ENV_ID,
    entry_point="valtti.research.gymnasium:MarjapussiEnv",
    vector_entry_point="valtti.research.gymnasium:MarjapussiVectorEnv",
)
