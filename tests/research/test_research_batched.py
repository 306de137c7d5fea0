"""The vector env's tables stepped in C (``batched=True``) play the Python tables' episodes:
from the same seeds, the same observations, masks, rewards, terminations and infos."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from valtti.research.gymnasium import MarjapussiVectorEnv

STEPS = 400


def _play(
    batched: bool, seed: int, tables: int = 8, steps: int = STEPS, **options: Any
) -> list[tuple[Any, ...]]:
    """Every reset and step of the tables, the learner's actions drawn from the masks (and now
    and then an illegal one) by one generator, whatever the tables."""
    env = MarjapussiVectorEnv(num_envs=tables, batched=batched, **options)
    pick = np.random.default_rng(0)
    obs, info = env.reset(seed=seed)
    seen: list[tuple[Any, ...]] = [(obs, info["seat"])]
    for k in range(steps):
        masks = env.action_masks()
        actions = np.array([pick.choice(np.flatnonzero(m)) for m in masks], np.int64)
        if k % 13 == 0:
            table = k % tables
            actions[table] = next(a for a in (48, 0, 36, 99) if a >= 49 or not masks[table, a])
        obs, rewards, terminated, truncated, info = env.step(actions)
        seen.append((masks, obs, rewards, terminated, truncated, sorted(info)))
        if terminated.any():
            seen.append((info["final_obs"], info["illegal"], info["seat"]))
    # and the deals being played at the end, action for action
    if env._batch is not None:
        seen.append(tuple(env._batch.tables.deal(i).history for i in range(tables)))
    else:
        seen.append(tuple(t.episode.deal.history for t in env.tables))
    return seen


@pytest.mark.parametrize(
    ("seed", "options"),
    [
        (3, {}),
        (7, {"seat": "S"}),
        (11, {"variant": "first_forehand=club_ace_holder"}),
        (12, {"variant": {"must_overtrump": False, "whole_ask_after_trump": "anyone"}}),
        (13, {"opponents": ("random", "random", "random"), "variant": "target=12"}),
    ],
)
def test_batched_tables_play_the_python_tables_episodes(seed: int, options: Any) -> None:
    python, batched = _play(False, seed, **options), _play(True, seed, **options)
    assert python.pop() == batched.pop()  # the deals at the end
    assert len(python) == len(batched)
    for a, b in zip(python, batched, strict=True):
        for x, y in zip(a, b, strict=True):
            assert np.array_equal(x, y), (x, y)
    ended = sum(int(s[3].sum()) for s in python if len(s) == 6)
    illegal = sum(int(s[1].sum()) for s in python if len(s) == 3)
    rewarded = sum(int(np.count_nonzero(s[2])) for s in python if len(s) == 6)
    assert ended > 100 and illegal > 10 and rewarded > 50  # the comparison saw episodes end


def test_batched_heuristic_players_play_as_the_python_ones() -> None:
    """The heuristic player's C at the batched tables, ``HeuristicPlayer`` (by either name) at
    the Python ones, given observations: the same decisions from the same seeds."""
    options: Any = {"opponents": ("heuristic", "random", "quick"), "variant": "target=12"}
    python = _play(False, 5, tables=4, steps=120, **options)
    batched = _play(True, 5, tables=4, steps=120, **options)
    assert python.pop() == batched.pop()
    for a, b in zip(python, batched, strict=True):
        for x, y in zip(a, b, strict=True):
            assert np.array_equal(x, y), (x, y)
    assert sum(int(s[3].sum()) for s in python if len(s) == 6) > 20


def test_one_stream_for_every_table_deals_alike() -> None:
    """Without a seed list the tables share ``np_random``: drawn in table order, in one draw."""
    envs = [MarjapussiVectorEnv(num_envs=5, batched=b) for b in (False, True)]
    for env in envs:
        env.np_random = np.random.default_rng(21)  # the stream every reset draws from
        env.reset()
    pick = random.Random(1)
    ended = 0
    for _ in range(200):
        masks = [env.action_masks() for env in envs]
        assert np.array_equal(masks[0], masks[1])
        actions = np.array([pick.choice(np.flatnonzero(m)) for m in masks[0]])
        (o1, r1, t1, _, i1), (o2, r2, t2, _, i2) = (env.step(actions) for env in envs)
        assert np.array_equal(o1, o2) and np.array_equal(r1, r2) and np.array_equal(t1, t2)
        assert sorted(i1) == sorted(i2)
        ended += int(t1.sum())
    assert ended > 50


def test_batched_refuses_what_it_cannot_play() -> None:
    for options in (
        {"opponents": "search:easy"},
        {"episode": "match"},
        {"observation_type": "information_state"},
        {"reward": "equity"},
        {"opponents": lambda obs, mask: int(np.flatnonzero(mask)[0])},
    ):
        with pytest.raises(ValueError, match="batched=False"):
            MarjapussiVectorEnv(num_envs=2, batched=True, **options)
    with pytest.raises(ValueError, match="render_mode=None"):
        MarjapussiVectorEnv(num_envs=2, batched=True, render_mode="ansi")


def test_batched_steps_are_checked_as_the_python_ones() -> None:
    env = MarjapussiVectorEnv(num_envs=3, batched=True)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(3, np.int64))
    env.reset(seed=4)
    before = env.action_masks()
    for bad in (np.array([0, 2.5, 0], dtype=object), np.array([0.0, 1.0, 2.0]), [0, True, 0]):
        with pytest.raises(TypeError, match="an action is an int"):
            env.step(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="one action a table"):
        env.step(np.zeros(4, np.int64))
    assert np.array_equal(env.action_masks(), before)  # nothing moved
    _obs, rewards, terminated, _trunc, info = env.step(np.array([-1, 2**40, 10**30], object))
    assert terminated.all() and (rewards == -10.0).all() and info["illegal"].all()


def test_the_c_tables_refuse_bad_arrays_and_change_nothing() -> None:
    env = MarjapussiVectorEnv(num_envs=3, batched=True)
    env.reset(seed=4)
    assert env._batch is not None
    rows: np.ndarray = env._obs  # type: ignore[assignment]  # the observation type's
    tables, obs, masks = env._batch.tables, rows.copy(), np.zeros((3, 49), np.uint8)
    before = [tables.deal(i).history for i in range(3)]
    seeds = np.array([1, 2], np.uint64)
    with pytest.raises(ValueError, match="table 1 twice"):
        tables.reset(np.array([1, 1], np.int64), seeds, obs, masks)
    with pytest.raises(IndexError, match="no table 3"):
        tables.reset(np.array([0, 3], np.int64), seeds, obs, masks)
    with pytest.raises(ValueError, match="observations are"):
        tables.reset(np.array([0, 1], np.int64), seeds, obs[:2], masks)
    with pytest.raises(ValueError, match="one seed a table"):
        tables.reset(np.array([0], np.int64), seeds, obs, masks)
    assert [tables.deal(i).history for i in range(3)] == before
    assert np.array_equal(obs, rows)
    env.step(env.action_masks().argmax(axis=1))  # every table still waits for its learner
