"""The quick player: the heuristic player's rules of thumb in C, as fast as a trainer needs and
deciding as ``heuristic`` decides with the same seed."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from valtti.engine import Deal, Seat, Variant
from valtti.engine._deal import QUICK_NUMBERS, Quick
from valtti.engine.match import CLUB_ACE
from valtti.players import endgame, heuristic, odds, outlook
from valtti.players.heuristic import HeuristicPlayer
from valtti.players.quick import QuickPlayer
from valtti.players.registry import make_player
from valtti.players.spec import PlayerSpecError
from valtti.research.speed import random_positions


def test_its_numbers_are_the_heuristic_players() -> None:
    python = {
        "GAME_POINT": outlook.GAME_POINT,
        "STEP": outlook.STEP,
        "_DRAW": outlook._DRAW,
        "_LATER": outlook._LATER,
        "_MARGIN": outlook._MARGIN,
        "_SPREAD": outlook._SPREAD,
        "_SHARE": outlook._SHARE,
        "_LAST_ODDS": outlook._LAST_ODDS,
        "_DECAY": odds._DECAY,
        "_WORLDS": endgame._WORLDS,
        "_COUNTED": heuristic._COUNTED,
    }
    assert python == QUICK_NUMBERS


def test_it_decides_as_the_heuristic_player_with_the_same_seed() -> None:
    """At least 99 % alike on 500 random positions (all 500 when measured), those with a
    choice counted apart: the forced ones cannot differ."""
    deals = random_positions(500, seed=35)
    alike = choices = alike_choices = 0
    for i, deal in enumerate(deals):
        seat = deal.current_player
        assert seat is not None
        same = Quick(i).choose(deal) == int(HeuristicPlayer(i).choose(deal.observation(seat)))
        choice = len(deal.legal_numbers()) > 1
        alike += same
        choices += choice
        alike_choices += same and choice
    assert choices > 250
    assert alike >= 0.99 * len(deals) and alike_choices >= 0.99 * choices


def test_it_decides_as_the_heuristic_player_in_a_match_and_its_variants() -> None:
    """The match score, the deal's number and the variant reach both alike: 200 positions
    with a choice, each with a random score, all decided as ``heuristic`` decides them."""
    variants = [
        Variant.parse("target=12"),
        Variant.parse("first_forehand=club_ace_holder"),
        Variant.from_mapping({"must_overtrump": False, "whole_ask_after_trump": "anyone"}),
        Variant.from_mapping({"both_on_target": "continue", "first_trick_ace": "on"}),
    ]
    rng = random.Random(4)
    seen = 0
    while seen < 200:
        variant = variants[seen % len(variants)]
        dealer = Seat(rng.randrange(4))
        hands = Deal.shuffled(rng, dealer).hands
        forehand = next(s for s in Seat if CLUB_ACE in hands[s])  # as on a first deal
        deal = Deal(hands, dealer, variant, forehand, answer_steps=True)
        for _ in range(rng.randrange(36)):
            deal.apply(rng.choice(deal.legal_numbers()))
        if deal.is_over() or len(deal.legal_numbers()) < 2:
            continue
        seat = deal.current_player
        assert seat is not None
        score = (rng.randrange(variant.target), rng.randrange(variant.target))
        number = rng.choice((1, 2))
        obs = replace(deal.observation(seat), score=score, deal_number=number)
        assert Quick(seen).choose(deal, score, number) == int(HeuristicPlayer(seen).choose(obs))
        seen += 1


def test_the_player_reads_no_hidden_card() -> None:
    """``QuickPlayer`` is given the observation and rebuilds a deal with hidden hands of its
    own drawing: its action is that of the real deal, which ``Quick`` reads alone."""
    for i, deal in enumerate(random_positions(120, seed=7)):
        seat = deal.current_player
        assert seat is not None
        player = QuickPlayer(i)
        assert int(player.choose(deal.observation(seat))) == Quick(i).choose(deal)


def test_it_is_a_player_by_name() -> None:
    player = make_player("quick", 3)
    assert player.name == "quick"
    deal = random_positions(1, seed=2)[0]
    seat = deal.current_player
    assert seat is not None
    assert player.choose(deal.observation(seat)) in deal.legal_actions()
    with pytest.raises(PlayerSpecError):
        make_player("quick:hard", 3)


def test_bad_calls_are_refused() -> None:
    deal = random_positions(1, seed=3)[0]
    while not deal.is_over():
        deal.apply(deal.legal_numbers()[0])
    with pytest.raises(ValueError, match="over"):
        Quick(1).choose(deal)
    with pytest.raises(TypeError):
        Quick(1).choose(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no action"):
        QuickPlayer(1).choose(deal.observation(Seat.N))
    playing = random_positions(1, seed=4)[0]
    quick = Quick(2)
    for score in (None, (1,), (1, 2, 3), (-1, 0), (0, 11), ("1", 2), (True, 0)):
        with pytest.raises(ValueError, match="score must be two ints"):
            quick.choose(playing, score)  # type: ignore[arg-type]
    assert quick.choose(playing) == Quick(2).choose(playing)  # nothing drawn by the refusals
