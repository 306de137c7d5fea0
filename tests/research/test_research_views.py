"""The environments' observation types, full state and match-equity reward (issue 35): each
observation type passes Gymnasium's and PettingZoo's own checkers."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from research_needs import require

from valtti.engine import Seat, Team
from valtti.engine.tensors import (
    deal_from_state_tensor,
    information_state_tensor,
    observation_tensor,
)
from valtti.players.equity import match_equity
from valtti.research.episode import Episode

gymnasium = require("gymnasium")
require("pettingzoo")
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test  # noqa: E402

from valtti.research import gymnasium as marjapussi  # noqa: E402
from valtti.research import pettingzoo as marjapussi_pz  # noqa: E402
from valtti.research.episode import INFORMATION_STATE_SIZE  # noqa: E402

KINDS = ["observation", "information_state", "both"]
#: PettingZoo's api_test warns for every Dict observation, as for its own classic card games.
EXPECTED = ("Observation space for each agent probably", "Observation is not a NumPy array")


@pytest.mark.parametrize("kind", KINDS)
def test_gymnasiums_checker_passes_with_each_observation_type(kind: str) -> None:
    env = gymnasium.make(marjapussi.ENV_ID, observation_type=kind, full_state=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped, skip_render_check=True)
    env.close()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("episode", ["deal", "match"])
def test_pettingzoos_checkers_pass_with_each_observation_type(kind: str, episode: str) -> None:
    env = marjapussi_pz.env(observation_type=kind, episode=episode, reward="equity")
    env.reset(seed=4)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=1000)
        parallel_api_test(marjapussi_pz.parallel_env(observation_type=kind), num_cycles=1000)
    assert not [str(w.message) for w in caught if not str(w.message).startswith(EXPECTED)]


def test_the_views_are_the_engines_tensors() -> None:
    env = marjapussi.MarjapussiEnv(observation_type="both", full_state=True, seat="E")
    obs, info = env.reset(seed=6)
    deal = env.table.episode.deal
    assert np.array_equal(obs["observation"], observation_tensor(deal, Seat.E, None, (0, 0)))
    assert np.array_equal(
        obs["information_state"], information_state_tensor(deal, Seat.E, None, (0, 0))
    )
    assert env.observation_space.contains(obs)
    # the full state, relative to the learner, holds every hand: the deal comes back from it
    assert env.state_space.contains(info["state"])
    assert np.array_equal(info["state"], env.state())
    assert deal_from_state_tensor(env.state()) == deal
    _, _, _, _, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert np.array_equal(info["state"], env.state())
    info_only = marjapussi.MarjapussiEnv(observation_type="information_state")
    obs, info = info_only.reset(seed=6)
    assert obs.shape == (INFORMATION_STATE_SIZE,) and "state" not in info
    agent = marjapussi_pz.raw_env(observation_type="information_state")
    agent.reset(seed=1)
    seen = agent.observe("player_2")
    assert set(seen) == {"observation", "action_mask"}
    assert np.array_equal(seen["observation"], information_state_tensor(agent.game.deal, 2))
    with pytest.raises(ValueError, match="observation_type is one of observation"):
        marjapussi.MarjapussiEnv(observation_type="state")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="reward is 'points' or 'equity'"):
        marjapussi_pz.raw_env(reward="score")  # type: ignore[arg-type]


def _play(env: marjapussi.MarjapussiEnv, seed: int) -> list[float]:
    env.reset(seed=seed)
    rng = random.Random(seed)
    rewards: list[float] = []
    while True:
        legal = np.flatnonzero(env.action_masks())
        _, reward, done, _, _ = env.step(int(rng.choice(legal)))
        rewards.append(float(reward))
        if done:
            return rewards


def test_the_equity_reward_of_a_match_is_paid_deal_by_deal_and_adds_up_to_its_result() -> None:
    env = marjapussi.MarjapussiEnv(episode="match", reward="equity", seat=1)
    for seed in range(3):
        rewards = _play(env, seed)
        match = env.table.episode.match
        assert match.is_over()
        winner = match.winner
        result = 0.0 if winner is None else 1.0 if winner is Team.EW else -1.0  # EW learns
        assert sum(rewards) == pytest.approx(result)
        assert sum(r != 0 for r in rewards[:-1]) >= 1  # paid before the end, not all at once
        assert all(-2 <= r <= 2 for r in rewards)


def test_the_equity_reward_of_a_deal_is_the_equity_of_the_score_it_leaves() -> None:
    env = marjapussi.MarjapussiEnv(reward="equity", seat=0)
    rewards = _play(env, 9)
    episode: Episode = env.table.episode
    assert rewards[:-1] == [0.0] * (len(rewards) - 1)
    assert rewards[-1] == pytest.approx(match_equity(episode.variant)(episode.match.score))


@pytest.mark.parametrize("kind", KINDS)
def test_the_vector_form_batches_each_observation_type_and_the_full_state(kind: str) -> None:
    envs = gymnasium.make_vec(
        marjapussi.ENV_ID,
        num_envs=3,
        vectorization_mode="vector_entry_point",
        observation_type=kind,
        full_state=True,
    )
    obs, info = envs.reset(seed=3)
    single = marjapussi.MarjapussiEnv(observation_type=kind, full_state=True)
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(80):
        assert envs.observation_space.contains(obs)
        tables = envs.unwrapped.tables
        for i, table in enumerate(tables):
            view = {k: v[i] for k, v in obs.items()} if isinstance(obs, dict) else obs[i]
            expected = table.observation()
            if isinstance(expected, dict):
                assert all(np.array_equal(view[k], expected[k]) for k in expected)
            else:
                assert np.array_equal(view, expected)
            assert np.array_equal(info["state"][i], table.state())
        assert info["state"].shape == (3, single.state_space.shape[0])
        masks = envs.unwrapped.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, _, terminated, _, info = envs.step(actions)
        ended += int(terminated.sum())
        if terminated.any():
            final = info["final_obs"]
            assert single.observation_space.contains(
                {k: v[0] for k, v in final.items()} if isinstance(final, dict) else final[0]
            )
    assert ended >= 3
    envs.close()
    with pytest.raises(ValueError, match="batched tables give no full state"):
        marjapussi.MarjapussiVectorEnv(2, batched=True, full_state=True)
