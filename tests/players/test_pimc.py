"""The PIMC player (players/pimc.py) and inference (players/likelihood.py): legal and
reproducible play, world weights that never favour a world the public play contradicts."""

from __future__ import annotations

import itertools
import random
import time

import pytest

from valtti.engine import Deal, Observation, Seat, Variant
from valtti.engine.variant import SWITCHES
from valtti.players import make_player
from valtti.players.pimc import LEVELS, ActionEstimate, PimcBudget, PimcPlayer
from valtti.players.search import Budget

TINY = PimcBudget((0, 0, 1, 2, 2, 2, 2, 2, 2), 30.0, Budget(iterations=20, seconds=30.0), 2)


def all_variants() -> list[Variant]:
    names = [n for n in SWITCHES if len(SWITCHES[n]) > 1]
    return [
        Variant(**dict(zip(names, values, strict=True)))
        for values in itertools.product(*(SWITCHES[n] for n in names))
    ]


def play(deal: Deal, players: list[PimcPlayer], score: tuple[int, int]) -> list[str]:
    """Play ``deal`` out, every seat ``players[seat]``; each action must be legal."""
    actions = []
    while not deal.is_over():
        seat = deal.current_player
        assert seat is not None
        obs = deal.observation(seat).with_score(score)
        action = players[seat].choose(obs)
        assert action in obs.legal_actions
        deal.apply(action)
        actions.append(str(action))
    return actions


@pytest.mark.slow  # many deals of every variant
def test_only_legal_actions_over_many_deals_of_every_variant() -> None:
    rng = random.Random(13)
    variants = all_variants()
    hows: set[str] = set()
    for n in range(40):
        variant = variants[n % len(variants)]
        deal = Deal.shuffled(rng, Seat(rng.randrange(4)), variant)
        t = variant.target
        score = (rng.randrange(t), rng.randrange(t))
        players = [PimcPlayer(TINY, seed=n * 4 + s, inference=s % 2 == 0) for s in range(4)]
        play(deal, players, score)
        hows.update(e.how for e in deal.events)
    assert {"declare", "ask-half", "ask-whole"} <= hows, hows


def test_the_same_seed_plays_the_same_deal() -> None:
    for inference in (True, False):
        games = []
        for _ in range(2):
            deal = Deal.shuffled(random.Random(5), Seat.E)
            players = [PimcPlayer(TINY, seed=9 + s, inference=inference) for s in range(4)]
            games.append(play(deal, players, (8, 9)))
        assert games[0] == games[1]


def _position(tricks: int, choices: int, score: tuple[int, int]) -> Observation:
    """The seat to move in deal 2 (always its first legal action played), once ``tricks`` are
    done and it has at least ``choices``, at match score ``score``."""
    deal = Deal.shuffled(random.Random(2), Seat.S)
    while len(deal.tricks) < tricks or len(deal.legal_actions()) < choices:
        deal.apply(deal.legal_actions()[0])
    seat = deal.current_player
    assert seat is not None
    return deal.observation(seat).with_score(score)


def test_evaluate_gives_every_legal_action_best_first_and_keeps_the_worlds() -> None:
    obs = _position(tricks=3, choices=2, score=(9, 5))
    player = PimcPlayer(PimcBudget((6,) * 9, 30.0, TINY.opening), seed=1)
    estimates = player.evaluate(obs)
    assert sorted(e.action for e in estimates) == sorted(obs.legal_actions)
    assert [e.value for e in estimates] == sorted((e.value for e in estimates), reverse=True)
    assert player.last is not None
    worlds = player.last.worlds
    assert 1 <= len(worlds) <= 6 and player.last.drawn == 6 * 4
    assert all(e.worlds == len(worlds) for e in estimates)
    assert sum(e.best_share for e in estimates) >= 1.0 - 1e-9
    assert all(0.0 <= e.best_share <= 1.0 and -2.0 <= e.value <= 2.0 for e in estimates)
    for world in worlds:
        assert world.weight > 0 and set(world.values) == set(obs.legal_actions)
        assert world.deal(obs).hand(obs.seat) == obs.hand
    # The value is the weighted mean of the worlds' values.
    mass = sum(w.weight for w in worlds)
    top = estimates[0]
    assert top.value == pytest.approx(sum(w.weight * w.values[top.action] for w in worlds) / mass)


def test_a_blend_is_the_weighted_mean_of_pimcs_and_the_search_players_estimates() -> None:
    obs = _position(tricks=4, choices=3, score=(3, 6))
    budget = PimcBudget((8,) * 9, 30.0, Budget(400, 30.0), blend=0.5, decision=30.0)
    player = PimcPlayer(budget, seed=3)
    pimc = {e.action: e for e in player.evaluate(obs)}
    blended = player.blended(obs, list(pimc.values()), 30.0)
    assert [e.value for e in blended] == sorted((e.value for e in blended), reverse=True)
    assert player.last is not None and list(player.last.estimates) == blended
    # The search player's means, valued as the solver values a deal, by the same seed again.
    search = PimcPlayer(budget, seed=3).second
    assert search is not None
    searched = {a: mean for a, mean, visits in search.evaluate(obs) if visits >= 30}
    least = min(searched.values())
    for e in blended:
        assert e.best_share == pimc[e.action].best_share and e.worlds == pimc[e.action].worlds
        other = searched.get(e.action, least)
        assert e.value == pytest.approx((pimc[e.action].value + 0.5 * other) / 1.5)
    # choose plays the best of the blend (the same seed: the same worlds and iterations).
    assert PimcPlayer(budget, seed=3).choose(obs) == blended[0].action


def test_the_search_player_values_on_pimcs_scale_and_side() -> None:
    # Late in a deal both estimate the same thing, the mover's team's change of match equity:
    # a wrong side or scale (game points) would part them by far more than the search's error.
    budget = PimcBudget((64,) * 9, 30.0, Budget(3000, 30.0), blend=1.0, decision=30.0)
    largest = 0.0
    for seed in range(12):
        deal = Deal.shuffled(random.Random(seed), Seat.S)
        rng = random.Random(seed)
        while not deal.is_over() and (len(deal.tricks) < 7 or len(deal.legal_actions()) < 2):
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.is_over():
            continue
        seat = deal.current_player
        assert seat is not None
        obs = deal.observation(seat).with_score((seed % 9, seed * 5 % 9))
        player = PimcPlayer(budget, seed=1)
        assert player.second is not None
        pimc = {e.action: e.value for e in player.evaluate(obs)}
        searched = {a: mean for a, mean, _ in player.second.evaluate(obs)}
        assert searched.keys() == pimc.keys()
        for action, value in pimc.items():
            assert abs(searched[action] - value) < 0.35
            largest = max(largest, abs(value))
    assert largest > 0.5


@pytest.mark.slow  # a deal of pimc:hard
def test_hard_blends_in_what_is_left_of_its_second(monkeypatch: pytest.MonkeyPatch) -> None:
    hard = LEVELS["hard"]
    assert hard.blend > 0 and hard.seconds < hard.decision <= 0.95
    player = PimcPlayer(hard, seed=5)
    assert player.second is not None
    evaluate = player.evaluate
    # The player's clock: this machine's, but 0.3 s later after each evaluation.
    skew = [0.0]
    player.clock = lambda: time.perf_counter() + skew[0]

    def slow_evaluate(obs: Observation, deadline: float | None = None) -> list[ActionEstimate]:
        estimates = evaluate(obs, deadline)
        skew[0] += 0.3  # PIMC as if on a slow machine: the search must get the less
        return estimates

    monkeypatch.setattr(player, "evaluate", slow_evaluate)
    deal = Deal.shuffled(random.Random(8), Seat.W)
    while len(deal.tricks) < 2:
        deal.apply(deal.legal_actions()[0])
    blended = 0
    while not deal.is_over():
        seat = deal.current_player
        assert seat is not None
        obs = deal.observation(seat)
        player.second.iterations = 0
        started = time.perf_counter()
        action = player.choose(obs)
        took = time.perf_counter() - started
        deal.apply(action)
        if player.last is None:
            continue
        blended += 1
        assert player.second.iterations > 0
        assert player.second.budget.seconds <= max(hard.decision - 0.3, 0.05)
        # The caps, with room for a loaded test machine (a measure of speed is the arena's).
        assert took < 3.0
    assert blended > 5


def test_one_legal_action_is_returned_at_once() -> None:
    deal = Deal.shuffled(random.Random(4), Seat.N)
    player = PimcPlayer(TINY, seed=0)
    while not deal.is_over():
        seat = deal.current_player
        assert seat is not None
        obs = deal.observation(seat)
        if len(obs.legal_actions) == 1:
            assert player.choose(obs) == obs.legal_actions[0]
            assert player.last is None
        deal.apply(obs.legal_actions[-1])


def test_levels_in_the_registry() -> None:
    for level in LEVELS:
        player = make_player(f"pimc:{level}", seed=1)
        assert isinstance(player, PimcPlayer) and player.inference
        assert player.name == f"pimc:{level}"
        assert player.clock is time.perf_counter
        uniform = make_player(f"pimc:{level}-uniform", seed=1)
        assert isinstance(uniform, PimcPlayer) and not uniform.inference
        both = make_player(f"pimc:{level}-uniform-repeatable", seed=1)
        assert isinstance(both, PimcPlayer) and not both.inference
        assert both.clock is not time.perf_counter and both.clock() == 0.0
        swapped = make_player(f"pimc:{level}-repeatable-uniform", seed=1)
        assert isinstance(swapped, PimcPlayer) and not swapped.inference
        assert swapped.clock is not time.perf_counter
    assert make_player("pimc").name == "pimc:hard"
    bad_specs = (
        "pimc:extreme",
        "pimc:hard-uniformx",
        "pimc:-uniform",
        "pimc:hard-",
        "pimc:hard-uniform-uniform",
        "pimc:hard-fast",
    )
    for bad in bad_specs:
        with pytest.raises(ValueError, match="pimc level"):
            make_player(bad)
    hard = LEVELS["hard"]
    assert hard.seconds <= 1.0 and hard.worlds == tuple(sorted(hard.worlds))
    # The first two tricks are left to the search player.
    assert hard.worlds[:2] == (0, 0)


def test_a_decision_that_cannot_solve_a_world_in_time_is_the_search_players(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import valtti.players.pimc as pimc

    # As if the solver searched one position in the whole time cap: no world can be solved.
    monkeypatch.setattr(pimc, "NODES_PER_SECOND", 1e-9)
    deal = Deal.shuffled(random.Random(2), Seat.S)
    while len(deal.tricks) < 3 or len(deal.legal_actions()) < 2:
        deal.apply(deal.legal_actions()[0])
    seat = deal.current_player
    assert seat is not None
    obs = deal.observation(seat)
    player = PimcPlayer(PimcBudget((8,) * 9, 0.5, Budget(200, 0.5)), seed=3)
    assert player.choose(obs) in obs.legal_actions
    assert player.last is not None and player.last.worlds == ()
    assert player.opening.budget == Budget(200, 0.5)  # the search's own budget is kept
    # Without a deadline (the hint), evaluate still solves its worlds.
    assert player.evaluate(obs) and player.last.worlds


def test_on_a_slow_machine_the_cap_holds_once_the_solver_is_timed() -> None:
    """The solves' position limit follows the rate the player measures: on a machine a tenth
    as fast as ``NODES_PER_SECOND`` assumes, decisions after the first keep near the cap."""
    import valtti.players.pimc as pimc

    slow = pimc.NODES_PER_SECOND / 10
    player = PimcPlayer(PimcBudget((0, 0, 64, 64, 64, 64, 64, 64, 64), 0.2, Budget(50, 0.2)), 4)
    player.clock = lambda: player.solver.searched / slow  # this machine's seconds
    deal = Deal.shuffled(random.Random(6), Seat.E)
    while len(deal.tricks) < 2:
        deal.apply(deal.legal_actions()[0])
    spent = []
    while not deal.is_over():
        seat = deal.current_player
        assert seat is not None
        obs = deal.observation(seat)
        before = player.clock()
        action = player.choose(obs)
        if player.last is not None:
            spent.append(player.clock() - before)
        deal.apply(action)
    assert player.rate == pytest.approx(slow)
    assert len(spent) > 5 and max(spent[1:]) <= 0.2 * 1.05
