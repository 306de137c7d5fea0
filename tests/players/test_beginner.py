"""The beginner: the heuristic player's decisions but for a learner's slips, each slip the move
a person makes (docs/PLAYERS.md), always legal, and weaker than the heuristic."""

from __future__ import annotations

import random

import pytest

from valtti.engine import Action, ActionKind, Deal, Observation, Phase, Seat
from valtti.players.beginner import BeginnerPlayer, Slips
from valtti.players.heuristic import HeuristicPlayer
from valtti.players.registry import make_player
from valtti.players.spec import PlayerSpecError
from valtti.research.speed import random_positions

NONE = Slips(ask=0, declare=0, trump=0, cash=0, discard=0)
ALWAYS = Slips(ask=1, declare=1, trump=1, cash=1, discard=1)
POSITIONS = random_positions(600, seed=44)


def _views(deal: Deal) -> Observation:
    return deal.observation(deal.current_player)


def _plays(observation: Observation) -> list[Action]:
    return [a for a in observation.legal_actions if a.kind is ActionKind.PLAY]


def _top(observation: Observation) -> int:
    return max(card.rank for a in _plays(observation) if (card := a.card) is not None)


def test_without_slips_it_decides_as_the_heuristic() -> None:
    for k, deal in enumerate(POSITIONS):
        view = _views(deal)
        assert BeginnerPlayer(k, NONE).choose(view) == HeuristicPlayer(k).choose(view)


def test_its_decisions_are_legal_and_its_slips_seeded() -> None:
    for k, deal in enumerate(POSITIONS):
        view = _views(deal)
        chosen = BeginnerPlayer(k).choose(view)
        assert chosen in view.legal_actions
        assert BeginnerPlayer(k).choose(view) == chosen


def test_each_slip_is_a_learners_move() -> None:
    slipped: set[str] = set()
    for k, deal in enumerate(POSITIONS):
        view = _views(deal)
        rules = HeuristicPlayer(k).choose(view)
        chosen = BeginnerPlayer(k, ALWAYS).choose(view)
        assert chosen in view.legal_actions
        plays = _plays(view)
        if rules.kind in {ActionKind.ASK_WHOLE, ActionKind.ASK_HALF, ActionKind.DECLARE}:
            # The question or the declaration forgotten: it leads its highest card instead.
            assert view.phase is Phase.DECLARATION
            assert chosen.kind is ActionKind.PLAY and chosen.card is not None
            assert chosen.card.rank == _top(view)
            slipped.add("declaration")
        elif rules.kind is not ActionKind.PLAY or len(plays) < 2:
            assert chosen == rules
        elif view.current_trick is None or len(view.current_trick.cards) == 0:
            assert chosen.card is not None and chosen.card.rank == _top(view)  # cashed
            slipped.add("cash")
        else:
            led = view.current_trick.cards[0].suit
            suits = {a.card.suit for a in plays if a.card is not None}
            if led in suits:
                assert chosen == rules  # following suit: no slip
            elif suits == {view.trump}:
                assert chosen.card is not None and chosen.card.rank == _top(view)
                slipped.add("trump")
            else:
                slipped.add("discard")
    assert slipped == {"declaration", "cash", "trump", "discard"}


def test_it_is_a_shipped_player_without_levels() -> None:
    assert make_player("beginner", 3).name == "beginner"
    with pytest.raises(PlayerSpecError):
        make_player("beginner:easy")


def test_it_plays_whole_deals() -> None:
    for k in range(20):
        deal = Deal.shuffled(random.Random(k), Seat(k % 4))
        players = {s: BeginnerPlayer(10 * k + int(s)) for s in Seat}
        while not deal.is_over():
            deal.apply(players[deal.current_player].choose(_views(deal)))
        assert deal.result() is not None
