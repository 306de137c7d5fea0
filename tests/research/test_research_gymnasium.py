"""The Gymnasium environment through Gymnasium's checker, its vector forms and its rewards."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from research_needs import require
from research_positions import plain_move, variants

from valtti.engine import Action, Observation, Phase, Seat, Variant
from valtti.engine.actions import ASK_WHOLE
from valtti.players.base import Player

gymnasium = require("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from valtti.research import gymnasium as marjapussi  # noqa: E402


def _check(**options: object) -> None:
    env = gymnasium.make(marjapussi.ENV_ID, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped, skip_render_check=False)
    env.close()


def test_check_env_without_warnings() -> None:
    _check()
    _check(opponents="heuristic", render_mode="ansi")
    _check(opponents=["random", "heuristic", "random"], seat="S", episode="match")


def _episode(env: object, seed: int) -> tuple[list[int], float]:
    env.reset(seed=seed)  # type: ignore[attr-defined]
    rng = np.random.default_rng(seed)
    actions = []
    while True:
        legal = np.flatnonzero(env.action_masks())  # type: ignore[attr-defined]
        assert legal.size
        action = int(rng.choice(legal))
        actions.append(action)
        _, reward, terminated, truncated, info = env.step(action)  # type: ignore[attr-defined]
        assert "illegal" not in info
        if terminated or truncated:
            return actions, float(reward)


def test_seeded_episodes_repeat_and_pay_the_game_point_difference() -> None:
    env = marjapussi.MarjapussiEnv(opponents="heuristic")
    first = _episode(env, 11)
    assert _episode(env, 11) == first
    deal = env.table.episode.deal
    ns, ew = deal.result().game_points
    own = ns - ew if env.table.seat % 2 == 0 else ew - ns
    assert first[1] == own
    assert len(first[0]) >= 9  # the learner plays its nine cards at least


def test_search_opponents_and_a_fixed_seat() -> None:
    env = marjapussi.MarjapussiEnv(opponents="search:easy", seat="E")
    _, reward = _episode(env, 3)
    assert env.table.seat == 1 and abs(reward) <= 7


def test_unknown_opponent_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown player"):
        marjapussi.MarjapussiEnv(opponents="nobody")


def test_an_illegal_action_ends_the_episode_with_the_penalty() -> None:
    env = marjapussi.MarjapussiEnv()
    env.reset(seed=2)
    before = env.table.episode.deal.history
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == marjapussi.ILLEGAL_PENALTY
    assert info["illegal"] and env.table.episode.deal.history == before


def test_vector_form_runs_and_resets_finished_tables() -> None:
    envs = gymnasium.make_vec(
        marjapussi.ENV_ID,
        num_envs=8,
        vectorization_mode="vector_entry_point",
        opponents="random",
    )
    obs, _ = envs.reset(seed=5)
    assert obs.shape == (8, marjapussi.OBSERVATION_SIZE) and obs.dtype == np.float32
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(150):
        masks = envs.unwrapped.action_masks()
        assert masks.shape == (8, 49) and masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, terminated, _, info = envs.step(actions)
        assert envs.observation_space.contains(obs)
        finished += int(terminated.sum())
        if terminated.any():
            assert not info["illegal"].any()
            assert (np.abs(rewards[terminated]) <= 7).all()
    assert finished >= 8
    envs.close()


def test_sync_vector_form_of_the_registered_env() -> None:
    envs = gymnasium.make_vec(marjapussi.ENV_ID, num_envs=2, vectorization_mode="sync")
    obs, _ = envs.reset(seed=1)
    for _ in range(40):
        masks = np.stack([e.unwrapped.action_masks() for e in envs.envs])
        obs, *_ = envs.step(np.array([np.flatnonzero(m)[0] if m.any() else 0 for m in masks]))
    assert obs.shape == (2, marjapussi.OBSERVATION_SIZE)
    envs.close()


@settings(max_examples=20, deadline=None)
@given(variants, st.integers(0, 2**32))
def test_action_masks_are_the_learners_legal_mask(variant: Variant, seed: int) -> None:
    env = marjapussi.MarjapussiEnv(opponents="random", variant=variant)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        deal = env.table.episode.deal
        assert deal.current_player == env.table.seat
        masks = env.action_masks()
        assert masks.any() and sum(1 << int(a) for a in np.flatnonzero(masks)) == deal.legal_mask()
        _, _, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(masks))))
        if terminated:
            # over: every action, which Gymnasium's next-step autoreset ignores
            assert env.action_masks().all()
            return


def test_a_bad_step_raises_what_the_readme_says() -> None:
    """Through ``gymnasium.make``: before reset the wrapper's ``ResetNeeded`` (the env itself,
    ``env.unwrapped``, raises ``RuntimeError``), after the end ``RuntimeError``, a non-int
    action ``TypeError``."""
    env = gymnasium.make(marjapussi.ENV_ID, seat="S")
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)
    with pytest.raises(RuntimeError, match="reset"):
        env.unwrapped.step(0)
    env.reset(seed=3)
    with pytest.raises(TypeError, match="an action is an int"):
        env.step(3.7)
    mask = env.unwrapped.action_masks()
    _obs, _reward, terminated, _trunc, _info = env.step(int(np.flatnonzero(~mask)[0]))
    assert terminated
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.close()


def test_bad_calls_are_refused_clearly() -> None:
    from valtti.research.gymnasium import MarjapussiEnv, MarjapussiVectorEnv

    env = MarjapussiEnv(seat="S")
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)  # before reset
    env.reset(seed=3)
    for bad in (3.7, "3", True, None):
        with pytest.raises(TypeError, match="an action is an int"):
            env.step(bad)  # type: ignore[arg-type]
    illegal = next(a for a in range(49) if not env.action_masks()[a])
    _obs, reward, terminated, _trunc, info = env.step(np.int64(illegal))
    assert terminated and reward == -10.0 and "illegal" in info
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)  # after the episode's end
    for seat in (2.5, 5, -1, True):
        with pytest.raises(ValueError, match="seat is"):
            MarjapussiEnv(seat=seat)  # type: ignore[arg-type]
    vector = MarjapussiVectorEnv(num_envs=2)
    first, info = vector.reset(seed=[5, 6])
    again, _ = vector.reset(seed=[5, 999])
    assert (first[0] == again[0]).all() and not (first[1] == again[1]).all()
    assert list(info["seat"]) and info["_seat"].all()
    with pytest.raises(ValueError, match="seeds for 2 tables"):
        vector.reset(seed=[1])
    with pytest.raises(ValueError, match="one action a table"):
        vector.step(np.zeros(3, np.int64))


def test_a_bad_action_in_a_batch_moves_no_table() -> None:
    """One action of the wrong kind refuses the whole step: the tables before it in the batch
    have not moved either (a step is all or nothing)."""
    from valtti.research.gymnasium import MarjapussiVectorEnv

    vector = MarjapussiVectorEnv(num_envs=4, opponents="random")
    vector.reset(seed=2)
    before = [t.episode.deal.history for t in vector.tables]
    actions: list[object] = [int(np.flatnonzero(m)[0]) for m in vector.action_masks()]
    actions[2] = 2.5
    with pytest.raises(TypeError, match="an action is an int"):
        vector.step(np.array(actions, dtype=object))
    assert [t.episode.deal.history for t in vector.tables] == before
    for bad in (0, -1, 2.0):
        with pytest.raises(ValueError, match="num_envs is an int of 1 or more"):
            MarjapussiVectorEnv(num_envs=bad)  # type: ignore[arg-type]


def test_tables_seeded_one_by_one_never_deal_a_tables_first_episode_again() -> None:
    """``reset(seed=[5, 6])`` seeded table 0 and the stream the finished tables are reset from
    alike: the first table to finish was dealt table 0's first episode again, cards and seat.
    Each table seeded on its own now goes on with its own stream, in steps and in a
    ``reset()`` without a seed, as Gymnasium's vector environments seed theirs."""
    from valtti.research.gymnasium import MarjapussiVectorEnv

    def deals(table: object) -> tuple[object, int]:
        return (table.episode.deal.initial_hands, table.seat)  # type: ignore[attr-defined]

    vector = MarjapussiVectorEnv(num_envs=2, opponents="random")
    vector.reset(seed=[5, 6])
    seen = [deals(t) for t in vector.tables]
    rng = np.random.default_rng(0)
    while len(seen) < 8:
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in vector.action_masks()])
        _, _, terminated, _, _ = vector.step(actions)
        seen += [deals(vector.tables[i]) for i in np.flatnonzero(terminated)]
    vector.reset()
    seen += [deals(t) for t in vector.tables]
    assert all(seen.count(d) == 1 for d in seen)
    again = MarjapussiVectorEnv(num_envs=2, opponents="random")
    again.reset(seed=[5, 6])
    assert [deals(t) for t in again.tables] == seen[:2]


def test_a_table_reset_in_a_step_says_its_learners_new_seat() -> None:
    """With ``seat=None`` each episode draws the learner's seat; ``reset`` said it
    (``info["seat"]``) but a table reset in the step that ended its episode did not, as
    Gymnasium's same-step autoreset gives the reset's info."""
    from valtti.research.gymnasium import MarjapussiVectorEnv

    vector = MarjapussiVectorEnv(num_envs=4, opponents="random")
    vector.reset(seed=3)
    rng = np.random.default_rng(3)
    ended = 0
    while ended < 8:
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in vector.action_masks()])
        _, _, terminated, _, info = vector.step(actions)
        if not terminated.any():
            continue
        ended += int(terminated.sum())
        assert (info["_seat"] == terminated).all()
        for i in np.flatnonzero(terminated):
            assert info["seat"][i] == str(Seat(vector.tables[i].seat))


def test_the_vector_form_renders_in_the_mode_it_is_made_with() -> None:
    """``make_vec(..., render_mode="ansi")`` dropped the mode without a word (render() then
    raised NotImplementedError), and a mode the tables cannot draw was taken as well."""
    envs = gymnasium.make_vec(
        marjapussi.ENV_ID, num_envs=2, vectorization_mode="vector_entry_point", render_mode="ansi"
    )
    envs.reset(seed=4)
    assert envs.render_mode == "ansi" and "ansi" in envs.metadata["render_modes"]
    assert envs.render() == tuple(table.episode.render() for table in envs.unwrapped.tables)
    quiet = marjapussi.MarjapussiVectorEnv(num_envs=2)
    quiet.reset(seed=4)
    assert quiet.render_mode is None and quiet.render() is None
    with pytest.raises(ValueError, match="render_mode must be None or 'ansi'"):
        marjapussi.MarjapussiVectorEnv(num_envs=2, render_mode="human")


def test_every_action_the_action_space_holds_is_taken() -> None:
    """A 0-d integer array (``np.array(3)``; a torch ``argmax().numpy()`` is one) is in
    ``Discrete(49)`` by Gymnasium's ``contains``; the environment refused it as not an int."""
    env = marjapussi.MarjapussiEnv(seat="N")
    twin = marjapussi.MarjapussiEnv(seat="N")
    env.reset(seed=6)
    twin.reset(seed=6)
    while True:
        action = int(np.flatnonzero(env.action_masks())[-1])
        boxed = np.array(action, dtype=np.int32)
        assert env.action_space.contains(boxed)
        got = env.step(boxed)
        want = twin.step(action)
        assert np.array_equal(got[0], want[0]) and got[1:] == want[1:]
        if got[2]:
            break
    env.reset(seed=6)
    with pytest.raises(TypeError, match="an action is an int"):
        env.step(np.array(2.0))


@settings(max_examples=15, deadline=None)
@given(variants, st.integers(0, 2**32), st.sampled_from(["deal", "match"]))
def test_the_learner_sees_nothing_its_seat_may_not_know(
    variant: Variant, seed: int, episode: str
) -> None:
    """RULES.md 7: at each of the learner's decisions its observation, its mask and the refusal
    an illegal action would put in ``info`` are the same in every world its seat cannot tell
    from the real one (the other hands drawn anew by the exact sampler)."""
    from valtti.players.knowledge import infer
    from valtti.players.sampler import Sampler

    env = marjapussi.MarjapussiEnv(opponents="random", variant=variant, episode=episode)
    env.reset(seed=seed)
    table = env.table
    rng = random.Random(seed)
    while True:
        deal = table.episode.deal
        seat = Seat(table.seat)
        seen = (table.observation(), env.action_masks())
        table.episode.deal = deal.with_hands(Sampler(infer(deal.observation(seat))).sample(rng))
        world = (table.observation(), env.action_masks())
        refusals = [str(table.episode.deal.refusal(a)) for a in range(49)]
        table.episode.deal = deal
        assert np.array_equal(seen[0], world[0]) and np.array_equal(seen[1], world[1])
        assert [str(deal.refusal(a)) for a in range(49)] == refusals
        legal = np.flatnonzero(seen[1])
        asks = [a for a in legal if a >= 40]
        pool = asks if asks and rng.random() < 0.5 else legal
        _, _, terminated, _, info = env.step(int(pool[rng.randrange(len(pool))]))
        if terminated:
            assert set(info) <= {"illegal"}
            return
        assert not info


class _AsksWhole(Player):
    """Asks whole at every window where it may, else plays its first legal card."""

    def choose(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        ask = [a for a in legal if a == ASK_WHOLE]
        return (ask or [a for a in legal if a < 36] or list(legal))[0]


def test_the_learner_as_partner_names_every_yes_marriage_as_a_step() -> None:
    """RULES.md 7.2: the learner, partner of an ask-whole answered "yes", was to move only when
    it had two marriages to choose from (one was named for it at once), so its steps told the
    two apart where every other agent saw them. Now it names its marriage at every "yes": a
    forced step (one legal action) with one marriage, a choice with two."""
    env = marjapussi.MarjapussiEnv(opponents="random", seat="S")
    answers: dict[int, int] = {}  # legal answers at a learner's step -> how often
    for seed in range(3000):
        env.reset(seed=seed)
        env.table.players[Seat.N] = _AsksWhole()  # the learner's partner, before trick 1 ends
        steps = 0
        while True:
            deal = env.table.episode.deal
            if deal.phase is Phase.ANSWER:
                assert deal.asker == Seat.N and deal.current_player == Seat.S
                steps += 1
                legal = int(env.action_masks().sum())
                answers[legal] = answers.get(legal, 0) + 1
            _, _, terminated, _, _ = env.step(plain_move(deal))
            if terminated:
                break
        yeses = [e for e in deal.events if e.how == "ask-whole" and e.yes and e.seat == Seat.N]
        assert steps == len(yeses), seed
        if answers.get(1) and answers.get(2):
            return
    raise AssertionError(f"seeded deals gave the learner answers to choose among {answers}")
