"""The libraries' conventions (issue 35): Gymnasium's vector seeding and a mask to sample from
on the autoreset step, PettingZoo's ``max_cycles``, OpenSpiel's game from partial parameters,
and the packages an algorithm needs, named in docs/RESEARCH.md."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from research_needs import require

gymnasium = require("gymnasium")
require("pettingzoo")
pyspiel = require("pyspiel")
from pettingzoo.test import api_test  # noqa: E402

from valtti.research import gymnasium as marjapussi  # noqa: E402
from valtti.research import openspiel  # noqa: E402
from valtti.research import pettingzoo as marjapussi_pz  # noqa: E402

RESEARCH = Path(__file__).resolve().parents[2] / "docs" / "RESEARCH.md"


def test_the_vector_env_seeds_table_i_with_seed_plus_i_as_sync_vector_env_does() -> None:
    ours = gymnasium.make_vec(
        marjapussi.ENV_ID, num_envs=3, vectorization_mode="vector_entry_point"
    )
    sync = gymnasium.make_vec(marjapussi.ENV_ID, num_envs=3, vectorization_mode="sync")
    obs, info = ours.reset(seed=5)
    expected, expected_info = sync.reset(seed=5)
    assert np.array_equal(obs, expected)
    assert list(info["seat"]) == list(expected_info["seat"])
    for i in range(3):
        single, _ = gymnasium.make(marjapussi.ENV_ID).reset(seed=5 + i)
        assert np.array_equal(obs[i], single)
    # and the episodes go on alike: each table's resets draw from its own stream
    for _ in range(60):
        masks = ours.unwrapped.action_masks()
        actions = np.array([np.flatnonzero(m)[0] for m in masks])
        ours.step(actions)
        assert all(m.any() for m in ours.unwrapped.action_masks())
    ours.close()
    sync.close()


def test_the_mask_on_the_autoreset_step_can_be_sampled_from() -> None:
    """Gymnasium's SyncVectorEnv resets an ended episode in the next step, ignoring its
    action: the mask then must still give an action to sample (it was all False)."""
    envs = gymnasium.make_vec(marjapussi.ENV_ID, num_envs=2, vectorization_mode="sync")
    envs.reset(seed=1)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(200):
        masks = np.stack(envs.call("action_masks"))
        assert masks.any(axis=1).all()
        _, _, terminated, _, _ = envs.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        ended += int(terminated.sum())
    assert ended >= 4
    envs.close()


def test_max_cycles_truncates_every_agent_as_pettingzoo_expects() -> None:
    env = marjapussi_pz.env(max_cycles=3)
    env.reset(seed=2)
    steps = 0
    for agent in env.agent_iter():
        _, _, termination, truncation, _ = env.last()
        if termination or truncation:
            assert truncation and not termination
            env.step(None)
            continue
        mask = env.observe(agent)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
        steps += 1
    assert steps == 12 and env.agents == []  # 3 cycles of 4 agents, then all truncated
    api_test(marjapussi_pz.env(max_cycles=5), num_cycles=100)
    # long enough for a whole deal: it ends by termination, never truncated
    raw = marjapussi_pz.raw_env(max_cycles=100)
    raw.reset(seed=2)
    while not any(raw.terminations.values()):
        raw.step(int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"])[0]))
    assert not any(raw.truncations.values())
    for bad in (0, -1, 2.5, "3"):
        with pytest.raises(ValueError, match="max_cycles is None or an int of 1 or more"):
            marjapussi_pz.raw_env(max_cycles=bad)  # type: ignore[arg-type]


def test_the_openspiel_game_fills_the_parameters_it_is_not_given() -> None:
    game = openspiel.MarjapussiGame({"dealer": 1})
    loaded = pyspiel.load_game("python_marjapussi", {"dealer": 1})
    assert game.get_parameters() == loaded.get_parameters()
    assert game.dealer == loaded.dealer and game.variant == loaded.variant
    assert (
        openspiel.MarjapussiGame().get_parameters()
        == pyspiel.load_game("python_marjapussi").get_parameters()
    )
    with pytest.raises(ValueError, match=r"unknown parameters \['dealr'\]"):
        openspiel.MarjapussiGame({"dealr": 1})


def test_research_md_names_the_packages_an_algorithm_needs() -> None:
    text = RESEARCH.read_text(encoding="utf-8")
    assert "dm-tree" in text and "open_spiel.python.pytorch.dqn" in text
