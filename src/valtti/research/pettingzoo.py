"""Marjapussi as a PettingZoo AEC environment: four agents (the seats N E S W), one deal or a
whole match per episode.

::

    from valtti.research import pettingzoo as marjapussi
    env = marjapussi.env(episode="deal", variant="target=12")
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else \\
            env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Each agent observes ``{"observation": float32[OBSERVATION_SIZE], "action_mask": int8[49]}``
(docs/TENSORS.md; the mask is all 0 except for the agent to move; ``observation_type=
"information_state"`` puts the information state under ``"observation"``, ``"both"`` adds it as
``"information_state"``) over the fixed 49-action space (``valtti.engine.actions``). The agent
to move is the engine's: the winner of a trick leads the next, a partner answering "yes" to an
ask-whole names the marriage as a step of its own, forced (one legal action) where it holds one,
so that the turn tells others only the "yes" (RULES.md 7.2; ``Deal``'s ``answer_steps``).
Rewards come at the end of the episode: for a deal, each agent gets its team's game points minus
the other team's; for a match, +1, -1, or 0 for a draw (``reward="equity"``: the change of its
team's match equity, deal by deal). ``max_cycles`` truncates every agent after that many cycles
(four steps each), as PettingZoo's own environments do; ``None``, the default, never.
``render()`` shows the table as text (``render_mode="ansi"``: returned, ``"human"``: printed).
``state()`` is the full-state tensor relative to N. ``env()`` ends the episode with reward -1
for an illegal action (PettingZoo's ``TerminateIllegalWrapper``); ``raw_env`` raises
``IllegalActionError`` and stays unchanged. ``parallel_env()`` is the turn-based parallel form:
every agent sends an action each step and only the mover's counts. Both are registered in
PettingZoo's registry on import: ``pettingzoo.make("aec", "valtti/marjapussi-v0")`` and
``pettingzoo.make("parallel", "valtti/marjapussi-v0")``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, register
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from valtti.players.policy import ViewKind, check_view_kind
from valtti.research.episode import (
    INFORMATION_STATE_SIZE,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    STATE_SIZE,
    Episode,
    EpisodeKind,
    RewardKind,
    VariantArg,
    action_number,
    check_reward,
    is_int,
    seed_number,
)

#: The agents, seat by seat: player_0 is N, player_1 E, player_2 S, player_3 W.
AGENTS = ["player_0", "player_1", "player_2", "player_3"]
ILLEGAL_REWARD = -1.0

__all__ = ["AGENTS", "ILLEGAL_REWARD", "env", "parallel_env", "raw_env"]


class raw_env(AECEnv[str, dict[str, np.ndarray], int | None]):  # PettingZoo's name for it
    """The AEC environment without wrappers (see the module)."""

    metadata = {  # noqa: RUF012 - PettingZoo reads it from the class
        "name": "marjapussi_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": True,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        episode: EpisodeKind = "deal",
        variant: VariantArg = None,
        observation_type: ViewKind = "observation",
        reward: RewardKind = "points",
        max_cycles: int | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        if max_cycles is not None and (not is_int(max_cycles) or max_cycles < 1):
            raise ValueError(f"max_cycles is None or an int of 1 or more, not {max_cycles!r}")
        self.render_mode = render_mode
        self.episode_kind: EpisodeKind = episode
        self.variant = variant
        self.view_kind = check_view_kind(observation_type)
        self.reward = check_reward(reward)
        self.max_cycles = None if max_cycles is None else int(max_cycles)
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        views = {
            "observation": spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32),
            "information_state": spaces.Box(0.0, 1.0, (INFORMATION_STATE_SIZE,), np.float32),
        }
        if self.view_kind == "information_state":
            views = {"observation": views["information_state"]}
        elif self.view_kind == "observation":
            del views["information_state"]
        observation = spaces.Dict(
            {**views, "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)}
        )
        self.observation_spaces = {a: observation for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in AGENTS}
        self.state_space = spaces.Box(0.0, 1.0, (STATE_SIZE,), np.float32)
        self._rng = random.Random()
        self.game = Episode(self._rng, episode, variant, self.reward)
        self.steps = 0  #: the agents' steps in this episode (``max_cycles`` counts them)
        self._earned = (0.0, 0.0)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new deal or match; ``seed`` makes it and everything after it reproducible."""
        if seed is not None:
            self._rng.seed(seed_number(seed))
        self.game = Episode(self._rng, self.episode_kind, self.variant, self.reward)
        self.steps = 0
        self._earned = (0.0, 0.0)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = self._mover()

    def _mover(self) -> str:
        player = self.game.current_player
        return AGENTS[0 if player is None else player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = AGENTS.index(agent)
        view = self.game.view(seat, self.view_kind)
        views = view if isinstance(view, dict) else {"observation": view}
        return {**views, "action_mask": self.game.action_mask(seat)}

    def state(self) -> np.ndarray:
        return np.asarray(self.game.state(0))

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is an action only for a finished agent")
        self.game.apply(action_number(action))
        self.steps += 1
        self._cumulative_rewards[agent] = 0.0
        earned = self.game.earned()
        over = self.game.is_over()
        cut = not over and self.max_cycles is not None and self.steps >= self.max_cycles * 4
        for i, a in enumerate(AGENTS):
            self.rewards[a] = earned[i & 1] - self._earned[i & 1]
            self.terminations[a] = over
            self.truncations[a] = cut
        self._earned = earned
        self.agent_selection = self._mover()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The table as text (every hand: for watching, not for agents); ``"human"`` prints it."""
        if self.render_mode == "ansi":
            return self.game.render()
        if self.render_mode == "human":
            print(self.game.render())
        return None

    def close(self) -> None:
        pass


class _IntActions(wrappers.BaseWrapper[str, dict[str, np.ndarray], int | None]):
    """Refuses an action that is no int (``TypeError``, as ``raw_env`` does) before the
    illegal-move wrapper indexes the mask with it: a bool passes the bounds check
    (``Discrete.contains(True)``) and made a mask of it, a NumPy "truth value" error."""

    def step(self, action: int | None) -> None:
        if action is not None:
            action_number(action)
        super().step(action)


def env(**options: Any) -> AECEnv[str, dict[str, np.ndarray], int | None]:
    """The AEC environment with PettingZoo's usual wrappers: an illegal action ends the episode
    with reward ``ILLEGAL_REWARD`` for its agent, out-of-range actions are refused, and the
    calls must come in order. ``options`` go to ``raw_env``."""
    wrapped: AECEnv[str, dict[str, np.ndarray], int | None] = raw_env(**options)
    wrapped = _IntActions(wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=ILLEGAL_REWARD))
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def parallel_env(**options: Any) -> Any:
    """The turn-based parallel form of ``env(**options)``: each step takes an action from every
    live agent and applies the mover's."""
    return turn_based_aec_to_parallel(env(**options))


register("aec", "valtti/marjapussi-v0", entry_point=env)
register("parallel", "valtti/marjapussi-v0", entry_point=parallel_env)
