"""The PettingZoo environment through PettingZoo's own checkers, and what it rewards."""

from __future__ import annotations

import pickle
import random
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from research_needs import require
from research_positions import asks_whole_of, partner_marriages, plain_move, variants

from valtti.engine import Phase, Seat, Variant
from valtti.engine.actions import ASK_WHOLE

pettingzoo = require("pettingzoo")
from pettingzoo.test import (  # noqa: E402
    api_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
)

from valtti.research import pettingzoo as marjapussi  # noqa: E402

#: PettingZoo's api_test warns for every Dict observation ({"observation", "action_mask"}),
#: the form its own classic card games use: those two warnings only are expected.
EXPECTED = ("Observation space for each agent probably", "Observation is not a NumPy array")


def _checked(run: object) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run()  # type: ignore[operator]
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(EXPECTED)]
    assert not unexpected


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("episode", ["deal", "match"])
def test_api_test(seed: int, episode: str) -> None:
    env = marjapussi.env(episode=episode)
    env.reset(seed=seed)
    _checked(lambda: api_test(env, num_cycles=1000))


def test_seed_test() -> None:
    seed_test(marjapussi.env, num_cycles=500)
    seed_test(lambda: marjapussi.env(episode="match", variant="target=12"), num_cycles=500)


def test_parallel_api_test() -> None:
    parallel_api_test(marjapussi.parallel_env(), num_cycles=1000)
    parallel_seed_test(marjapussi.parallel_env, num_cycles=300)


def test_render_test() -> None:
    render_test(lambda render_mode=None: marjapussi.env(render_mode=render_mode))


def test_registered() -> None:
    aec = pettingzoo.make("aec", "valtti/marjapussi-v0", episode="match")
    assert aec.unwrapped.episode_kind == "match"
    par = pettingzoo.make("parallel", "valtti/marjapussi-v0")
    assert set(par.possible_agents) == set(marjapussi.AGENTS)


def _play(env: object, rng: random.Random) -> list[tuple[str, float]]:
    seen = []
    for agent in env.agent_iter():  # type: ignore[attr-defined]
        obs, reward, termination, truncation, _ = env.last()  # type: ignore[attr-defined]
        seen.append((agent, reward))
        if termination or truncation:
            env.step(None)  # type: ignore[attr-defined]
        else:
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))  # type: ignore[attr-defined]
    return seen


def test_pickled_mid_episode_plays_on_the_same() -> None:
    env = marjapussi.env()
    env.reset(seed=7)
    rng = random.Random(3)
    for _ in range(11):
        obs = env.observe(env.agent_selection)
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    copy = pickle.loads(pickle.dumps(env))
    assert np.array_equal(copy.state(), env.state())
    assert _play(copy, random.Random(9)) == _play(env, random.Random(9))


def test_rewards_are_the_teams_game_point_difference() -> None:
    env = marjapussi.env()
    for seed in range(10):
        env.reset(seed=seed)
        deal = env.unwrapped.game.deal
        final = dict(_play(env, random.Random(seed))[-4:])
        ns, ew = deal.result().game_points
        assert final == {
            "player_0": ns - ew,
            "player_1": ew - ns,
            "player_2": ns - ew,
            "player_3": ew - ns,
        }


def test_the_mover_is_the_engines_and_only_it_has_a_mask() -> None:
    env = marjapussi.env()
    env.reset(seed=4)
    deal = env.unwrapped.game.deal
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        mover = agent == env.agent_selection
        assert mask.any() == mover
    assert marjapussi.AGENTS[deal.current_player] == env.agent_selection
    assert env.state().shape == env.unwrapped.state_space.shape


def test_match_episode_ends_with_the_match() -> None:
    env = marjapussi.env(episode="match")
    env.reset(seed=2)
    final = dict(_play(env, random.Random(1))[-4:])
    match = env.unwrapped.game.match
    assert match.is_over() and len(match.deals) >= 1
    assert final["player_0"] == -final["player_1"] and final["player_0"] in (-1, 0, 1)
    if match.winner is not None:
        assert final["player_0"] == (1 if match.winner == 0 else -1)


def test_illegal_action_ends_the_episode_with_the_penalty() -> None:
    env = marjapussi.env()
    env.reset(seed=1)
    agent = env.agent_selection
    seat = Seat(marjapussi.AGENTS.index(agent))
    illegal = next(a for a in range(49) if not env.unwrapped.game.deal.is_legal(a))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[agent] == marjapussi.ILLEGAL_REWARD
    raw = marjapussi.raw_env()
    raw.reset(seed=1)
    before = raw.game.deal.history
    with pytest.raises(ValueError):
        raw.step(illegal)
    assert raw.game.deal.history == before and seat is not None


@settings(max_examples=20, deadline=None)
@given(variants, st.integers(0, 2**32), st.sampled_from(["deal", "match"]))
def test_action_mask_is_legal_mask_at_every_step(variant: Variant, seed: int, episode: str) -> None:
    env = marjapussi.env(variant=variant, episode=episode)
    env.reset(seed=seed)
    rng = random.Random(seed)
    for agent in env.agent_iter(max_iter=400):
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        deal = env.unwrapped.game.deal
        assert marjapussi.AGENTS[deal.current_player] == agent
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size and sum(1 << int(a) for a in legal) == deal.legal_mask()
        env.step(int(legal[rng.randrange(len(legal))]))


def test_actions_and_seeds_of_the_wrong_kind_are_refused() -> None:
    raw = marjapussi.raw_env()
    raw.reset(seed=1)
    before = raw.game.deal.history
    for bad in (3.7, "3", True):
        with pytest.raises(TypeError, match="an action is an int"):
            raw.step(bad)  # type: ignore[arg-type]
    assert raw.game.deal.history == before
    for seed in (-1, 1.5, "abc"):
        with pytest.raises(ValueError, match="a seed is an int of 0 or more"):
            raw.reset(seed=seed)  # type: ignore[arg-type]
    raw.reset(seed=np.int64(5))  # a NumPy integer is an int
    legal = next(a for a in range(49) if raw.game.deal.is_legal(a))
    raw.step(np.int64(legal))
    assert len(raw.game.deal.history) == 1


def test_a_bool_action_is_refused_by_the_wrapped_forms_too() -> None:
    """``Discrete(49).contains(True)`` holds, so ``env()``'s bounds check passed a bool on and
    the illegal-move wrapper indexed the mask with it: a NumPy "truth value of an array" error.
    Both wrapped forms now refuse it as ``raw_env`` does, and nothing moves."""
    wrapped = marjapussi.env()
    wrapped.reset(seed=1)
    with pytest.raises(TypeError, match="an action is an int from 0 to 48, not True"):
        wrapped.step(True)
    assert wrapped.unwrapped.game.deal.history == ()
    parallel = marjapussi.parallel_env()
    parallel.reset(seed=1)
    with pytest.raises(TypeError, match="an action is an int from 0 to 48, not True"):
        parallel.step(dict.fromkeys(parallel.agents, True))
    assert parallel.unwrapped.game.deal.history == ()


def test_an_action_held_as_a_0d_integer_array_is_taken() -> None:
    """``Discrete(49).contains(np.array(3))`` holds: both forms took the action (``env()``'s
    bounds check passed it) and then refused it as not an int."""
    for make in (marjapussi.raw_env, marjapussi.env):
        env = make()
        env.reset(seed=3)
        legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
        env.step(np.array(legal))
        assert len(env.unwrapped.game.deal.history) == 1


@settings(max_examples=15, deadline=None)
@given(variants, st.integers(0, 2**32), st.sampled_from(["deal", "match"]))
def test_no_agent_sees_what_its_seat_may_not_know(
    variant: Variant, seed: int, episode: str
) -> None:
    """RULES.md 7: at every step each agent's observation, mask and info are the same in every
    world its seat cannot tell from the real one (the other hands drawn anew by the exact
    sampler: which of K and Q a half-asker holds included)."""
    from valtti.players.knowledge import infer
    from valtti.players.sampler import Sampler

    env = marjapussi.env(variant=variant, episode=episode)
    env.reset(seed=seed)
    raw = env.unwrapped
    rng = random.Random(seed)
    for _ in env.agent_iter(max_iter=300):
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        deal = raw.game.deal
        for other in marjapussi.AGENTS:
            seat = Seat(marjapussi.AGENTS.index(other))
            seen = (raw.observe(other), dict(raw.infos[other]))
            raw.game.deal = deal.with_hands(Sampler(infer(deal.observation(seat))).sample(rng))
            world = (raw.observe(other), dict(raw.infos[other]))
            raw.game.deal = deal
            for key in ("observation", "action_mask"):
                assert np.array_equal(seen[0][key], world[0][key]), (other, key)
            assert seen[1] == world[1]
        legal = np.flatnonzero(obs["action_mask"])
        asks = [a for a in legal if a >= 40]
        pool = asks if asks and rng.random() < 0.5 else legal
        action = int(pool[rng.randrange(len(pool))])
        yes = action == ASK_WHOLE and partner_marriages(deal) > 0
        partner = marjapussi.AGENTS[(marjapussi.AGENTS.index(env.agent_selection) + 2) % 4]
        env.step(action)
        if action == ASK_WHOLE:
            # The turn tells only the public yes or no: a "yes" goes to the partner, however
            # many marriages it holds (RULES.md 7.2).
            assert (env.agent_selection == partner) == yes


def _at_ask_whole(marriages: int) -> object:
    """A raw environment whose agent to move may ask whole, its partner holding ``marriages``
    eligible marriages: the first seeded deal, played by ``plain_move``, that gets there."""
    for seed in range(3000):
        env = marjapussi.raw_env()
        env.reset(seed=seed)
        deal = env.game.deal
        while not deal.is_over():
            if asks_whole_of(deal, marriages):
                return env
            env.step(plain_move(deal))
    raise AssertionError(f"no seeded deal has a partner with {marriages} marriages to ask")


@pytest.mark.parametrize("marriages", [1, 2])
def test_the_turn_does_not_tell_how_many_marriages_a_partner_had(marriages: int) -> None:
    """RULES.md 7.2: a partner with two marriages to choose from was given the turn, one with a
    single marriage answered at once, so every agent saw agent_selection tell the two apart.
    Now every "yes" is the partner's step: forced with one marriage, a choice with two, and
    the other agents see the same in both (the turn to the partner and back, their views
    those before the question until the answer)."""
    env = _at_ask_whole(marriages)
    deal = env.game.deal  # type: ignore[attr-defined]
    asker = env.agent_selection  # type: ignore[attr-defined]
    partner = marjapussi.AGENTS[(marjapussi.AGENTS.index(asker) + 2) % 4]
    others = [a for a in marjapussi.AGENTS if a != partner]
    before = {a: env.observe(a)["observation"] for a in others}  # type: ignore[attr-defined]
    env.step(ASK_WHOLE)  # type: ignore[attr-defined]
    assert env.agent_selection == partner  # type: ignore[attr-defined]
    assert deal.phase is Phase.ANSWER
    for agent in others:
        seen = env.observe(agent)  # type: ignore[attr-defined]
        assert np.array_equal(seen["observation"], before[agent]), agent
        assert not seen["action_mask"].any(), agent
    assert env.observe(partner)["action_mask"].sum() == marriages  # type: ignore[attr-defined]
    env.step(plain_move(deal))  # type: ignore[attr-defined]
    assert env.agent_selection == asker  # type: ignore[attr-defined]
    assert deal.events[-1].yes and deal.phase is Phase.PLAY


def test_a_variant_of_the_wrong_kind_is_refused_clearly() -> None:
    """``env(variant=5)`` (or a list) failed with "'int' object has no attribute 'items'"."""
    for bad in (5, ["target=12"], b"target=12"):
        with pytest.raises(TypeError, match=r"a variant is a Variant, its text .* or a mapping"):
            marjapussi.env(variant=bad)  # type: ignore[arg-type]
