"""The OpenSpiel game through pyspiel's random_sim_test, the resampler, and ISMCTS playing it."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from research_needs import require
from research_positions import asks_whole_of, plain_move, rich_hands

from valtti.engine import Phase, Seat, Variant
from valtti.engine.actions import ASK_WHOLE

pyspiel = require("pyspiel")
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import valtti.research.openspiel  # noqa: E402, F401 - registers python_marjapussi


@pytest.mark.slow  # OpenSpiel's simulation of many random games
def test_random_sim_test() -> None:
    game = pyspiel.load_game("python_marjapussi")
    pyspiel.random_sim_test(game, num_sims=200, serialize=True, verbose=False)


@pytest.mark.parametrize(
    "params",
    [
        {"target": 12, "first_forehand": "club_ace_holder", "dealer": 2},
        {"whole_ask_after_trump": "anyone", "first_trick_ace": "on", "score_ns": 9},
        {
            "whole_ask_after_trump": "nobody",
            "must_overtrump": False,
            "must_trump_if_cannot_overtrump": False,
            "both_on_target": "continue",
        },
    ],
)
def test_variants_are_game_parameters(params: dict[str, object]) -> None:
    game = pyspiel.load_game("python_marjapussi", params)
    switches = {k: v for k, v in params.items() if k not in ("dealer", "score_ns")}
    assert game.variant == Variant(**switches)  # type: ignore[arg-type]
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)


def _random_state(game: object, rng: random.Random, moves: int, rich: bool = False) -> object:
    """A state after ``moves`` random moves (chance included); with ``rich``, dealt so that
    marriages and partners with several of them are frequent."""
    state = game.new_initial_state()  # type: ignore[attr-defined]
    if rich:
        hands = rich_hands(rng)
        for seat in range(3):
            for card in sorted(hands[seat]):
                state._deal_card(card)
    while not state.is_terminal() and len(state.history()) < moves:
        if state.is_chance_node():
            state.apply_action(rng.randrange(len(state.chance_outcomes())))
        else:
            legal = state.legal_actions()
            asks = [a for a in legal if a >= 40]
            state.apply_action(rng.choice(asks if asks and rng.random() < 0.5 else legal))
    return state


def test_tensors_and_strings_are_the_engines_views() -> None:
    game = pyspiel.load_game("python_marjapussi")
    state = _random_state(game, random.Random(2), 45)
    from valtti.engine.tensors import information_state_tensor, observation_tensor

    for p in range(4):
        assert np.array_equal(state.observation_tensor(p), observation_tensor(state.deal, p))
        assert np.array_equal(
            state.information_state_tensor(p), information_state_tensor(state.deal, p)
        )
        assert str(state.deal.hand(p)) in state.observation_string(p).replace('", "', " ")


def test_resample_keeps_the_players_information_state() -> None:
    game = pyspiel.load_game("python_marjapussi", {"whole_ask_after_trump": "anyone"})
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = random.Random(4)
    answers = 0
    for k in range(60):
        state = _random_state(game, rng, 27 + k % 40)
        if state.is_terminal():
            continue
        answers += state.deal.phase is Phase.ANSWER
        for p in range(4):
            other = state.resample_from_infostate(p, sampler)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert np.array_equal(
                other.information_state_tensor(p), state.information_state_tensor(p)
            )
            assert other.current_player() == state.current_player()
            assert other.legal_actions() == state.legal_actions() or p != state.current_player()


def test_resample_while_a_partner_chooses_a_marriage() -> None:
    game = pyspiel.load_game("python_marjapussi", {"whole_ask_after_trump": "anyone"})
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = random.Random(8)
    found = 0
    for _ in range(3000):
        state = _random_state(game, rng, 27 + rng.randrange(40), rich=True)
        if state.is_terminal() or state.deal.phase is not Phase.ANSWER:
            continue
        found += 1
        for p in range(4):
            other = state.resample_from_infostate(p, sampler)
            assert other.deal.phase is Phase.ANSWER
            assert other.information_state_string(p) == state.information_state_string(p)
            assert np.array_equal(
                other.information_state_tensor(p), state.information_state_tensor(p)
            )
        if found >= 5:
            break
    assert found >= 5


def test_ismcts_with_the_resampler_plays_whole_deals() -> None:
    game = pyspiel.load_game("python_marjapussi", {"whole_ask_after_trump": "anyone"})
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 2.0, 20, random_state=np.random.RandomState(seat))
        for seat in range(4)
    ]
    rng = random.Random(1)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.randrange(len(state.chance_outcomes())))
            else:
                state.apply_action(bots[state.current_player()].step(state))
        assert state.deal.is_over() and sum(state.returns()) == 0


def test_a_drawn_deal_returns_plus_zero_to_every_player() -> None:
    """A deal of equal game points returned -0.0 to E and W: a zero that prints as -0 and
    carries the sign of a loss."""
    game = pyspiel.load_game("python_marjapussi")
    rng = random.Random(3)
    state = _random_state(game, rng, 1000)
    while state.returns()[0]:
        state = _random_state(game, rng, 1000)
    for values in (state.returns(), state.rewards()):
        assert [math.copysign(1.0, v) for v in values] == [1.0] * 4, values


def test_a_score_no_deal_is_played_at_is_refused() -> None:
    for score in ({"score_ns": 50}, {"score_ew": -3}, {"score_ns": 10}):
        with pytest.raises(ValueError, match="score_ns and score_ew"):
            pyspiel.load_game("python_marjapussi", score)
    both = {"score_ns": 10, "score_ew": 10, "both_on_target": "continue"}
    state = pyspiel.load_game("python_marjapussi", both).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert max(state.observation_tensor(0)) <= 1.0


def test_a_dealer_that_is_no_seat_number_is_refused_naming_the_parameter() -> None:
    """``{"dealer": 5}`` was refused with Seat's own "5 is not a valid Seat"."""
    for dealer in (4, -1, 5):
        with pytest.raises(ValueError, match=rf"dealer is 0 to 3 \(N E S W\), not {dealer}$"):
            pyspiel.load_game("python_marjapussi", {"dealer": dealer})
    assert pyspiel.load_game("python_marjapussi", {"dealer": 3}).dealer is Seat.W


def test_while_a_partner_chooses_the_askers_strings_are_those_before_the_ask() -> None:
    """RULES.md 7.2: the asker's observation and information-state strings during the partner's
    choice among several marriages told that there was a choice (its "legal" was emptied), while
    its tensors were, as for every seat but the chooser, those of the deal before the ask-whole."""
    game = pyspiel.load_game("python_marjapussi", {"whole_ask_after_trump": "anyone"})
    rng = random.Random(8)
    found = 0
    while found < 5:
        state = _random_state(game, rng, 27 + rng.randrange(40), rich=True)
        if state.is_terminal() or state.deal.phase is not Phase.ANSWER:
            continue
        found += 1
        before = game.new_initial_state()
        for action in state.history()[:-1]:
            before.apply_action(action)
        for p in range(4):
            if p == state.current_player():
                continue
            for view in ("observation_string", "information_state_string"):
                assert getattr(state, view)(p) == getattr(before, view)(p), (view, p)


def test_questions_asked_of_the_wrong_node_or_action_are_refused_clearly() -> None:
    """``chance_outcomes()`` once the cards were dealt, and ``action_to_string`` of an action
    past 48, raised a bare IndexError; -1 was named "answer C", and a chance outcome at a
    player's node "deal … to W" (W is dealt no card by chance)."""
    game = pyspiel.load_game("python_marjapussi")
    state = _random_state(game, random.Random(5), 27)
    assert state.current_player() >= 0
    with pytest.raises(ValueError, match="not a chance node"):
        state.chance_outcomes()
    for action in (49, -1):
        with pytest.raises(ValueError, match="no action"):
            state.action_to_string(state.current_player(), action)
    with pytest.raises(ValueError, match="no chance outcome"):
        state.action_to_string(pyspiel.PlayerId.CHANCE, 0)
    over = _random_state(game, random.Random(5), 1000)
    with pytest.raises(ValueError, match="not a chance node"):
        over.chance_outcomes()
    dealing = game.new_initial_state()
    assert dealing.action_to_string(pyspiel.PlayerId.CHANCE, 35) == "deal AC to N"
    with pytest.raises(ValueError, match="no chance outcome 36"):
        dealing.action_to_string(pyspiel.PlayerId.CHANCE, 36)


def test_a_game_and_its_states_survive_pickling_and_serialising() -> None:
    """A pickled game came back without its variant and setup (pybind keeps only the C++
    game), so it could start no state; a pickled or deserialised state could not be resampled
    (ISMCTS's first move), its game being such a copy."""
    import pickle

    game = pyspiel.load_game("python_marjapussi", {"target": 12, "dealer": 2})
    again = pickle.loads(pickle.dumps(game))
    assert again.variant == game.variant and again.dealer == game.dealer
    assert str(again) == str(game)
    pyspiel.random_sim_test(again, num_sims=2, serialize=True, verbose=False)
    state = _random_state(game, random.Random(6), 40)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for copy in (pickle.loads(pickle.dumps(state)), game.deserialize_state(state.serialize())):
        assert copy.history() == state.history()
        world = copy.resample_from_infostate(1, sampler)
        assert world.information_state_string(1) == state.information_state_string(1)


def _at_ask_whole(game: object, marriages: int) -> object:
    """A state whose player to move may ask whole, its partner holding ``marriages`` eligible
    marriages: the first seeded deal, played by ``plain_move``, that gets there."""
    for seed in range(3000):
        rng = random.Random(seed)
        state = game.new_initial_state()  # type: ignore[attr-defined]
        while state.is_chance_node():
            state.apply_action(rng.randrange(len(state.chance_outcomes())))
        while not state.is_terminal():
            if asks_whole_of(state.deal, marriages):
                return state
            state.apply_action(plain_move(state.deal))
    raise AssertionError(f"no seeded deal has a partner with {marriages} marriages to ask")


@pytest.mark.parametrize("marriages", [1, 2])
def test_current_player_does_not_tell_how_many_marriages_a_partner_had(marriages: int) -> None:
    """RULES.md 7.2: ``current_player()`` went to a partner with two marriages to choose from
    and straight back to the asker past one with a single marriage. Now every "yes" is the
    partner's move, forced with one marriage: the others see the same in both cases, and
    their tensors and strings stay those before the question until the answer; the state
    still serialises and pickles."""
    import pickle

    game = pyspiel.load_game("python_marjapussi")
    state = _at_ask_whole(game, marriages)
    asker = state.current_player()  # type: ignore[attr-defined]
    partner = (asker + 2) % 4
    views = (
        "observation_tensor",
        "information_state_tensor",
        "observation_string",
        "information_state_string",
    )
    others = [p for p in range(4) if p != partner]

    def seen(p: int) -> list[object]:
        return [np.asarray(getattr(state, view)(p)).tolist() for view in views]

    before = {p: seen(p) for p in others}
    state.apply_action(ASK_WHOLE)  # type: ignore[attr-defined]
    assert state.current_player() == partner  # type: ignore[attr-defined]
    assert len(state.legal_actions()) == marriages  # type: ignore[attr-defined]
    assert {p: seen(p) for p in others} == before
    serialised = game.deserialize_state(state.serialize())  # type: ignore[attr-defined]
    for copy in (pickle.loads(pickle.dumps(state)), serialised):
        assert copy.deal == state.deal and copy.deal.answer_steps  # type: ignore[attr-defined]
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for p in others:
        world = state.resample_from_infostate(p, sampler)  # type: ignore[attr-defined]
        assert world.current_player() == partner and world.deal.phase is Phase.ANSWER
    state.apply_action(plain_move(state.deal))  # type: ignore[attr-defined]
    assert state.current_player() == asker  # type: ignore[attr-defined]
