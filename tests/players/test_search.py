"""The search player: legal choices, no peeking, the value of a deal."""

from __future__ import annotations

import itertools
import random

import pytest

from valtti.engine import Action, CardSet, Deal, Phase, Seat, Variant
from valtti.engine.variant import SWITCHES
from valtti.players import make_player
from valtti.players.search import Budget, SearchPlayer, deal_value

QUICK = Budget(iterations=60, seconds=5.0)


def all_variants() -> list[Variant]:
    names = [n for n in SWITCHES if len(SWITCHES[n]) > 1]
    return [
        Variant(**dict(zip(names, values, strict=True)))
        for values in itertools.product(*(SWITCHES[n] for n in names))
    ]


def test_only_legal_actions_in_every_variant() -> None:
    rng = random.Random(11)
    player = SearchPlayer(QUICK, seed=3)
    phases = set()
    for variant in all_variants()[::3]:
        deal = Deal.shuffled(rng, Seat(rng.randrange(4)), variant)
        while not deal.is_over():
            seat = deal.current_player
            assert seat is not None
            obs = deal.observation(seat)
            phases.add(deal.phase)
            action = player.choose(obs)
            assert action in obs.legal_actions
            deal.apply(action)
    assert {Phase.PLAY, Phase.DECLARATION} <= phases


def test_answers_a_question_with_one_of_its_marriages() -> None:
    # RULES.md 9 case 7: N wins trick 1 and asks whole; S holds the hearts and clubs marriages.
    hands = [
        CardSet.parse(h)
        for h in (
            "KS QS AD TD 6D AH TH JH 9H",
            "QD JD 9D 8H 7H 6H AS TS JS",
            "KH QH KC QC KD 8D 7D AC TC",
            "9S 8S 7S 6S JC 9C 8C 7C 6C",
        )
    ]
    deal = Deal(hands, Seat.W)
    for token in ("AD", "9D", "7D", "6C", "ask-whole"):
        deal.apply(Action.parse(token))
    assert deal.phase is Phase.ANSWER
    action = SearchPlayer(QUICK, seed=1).choose(deal.observation(Seat.S))
    assert str(action) in {"answer H", "answer C"}


@pytest.mark.parametrize("spec", ["search:easy", "pimc:easy"])
def test_plays_a_deal_with_answer_steps_from_its_forced_answer_on(spec: str) -> None:
    """With ``answer_steps`` (the research environments) S names its only marriage as a step;
    the players rebuild worlds from observations that carry the option, so each world steps
    through the same phases as the deal, and every choice to the end is legal."""
    hands = [
        CardSet.parse(h)
        for h in (
            "KS QS AD TD 6D AH TH JH 9H",
            "QD JD 9D 8H 7H 6H AS TS JS",
            "KH QH 9S QC KD 8D 7D AC TC",
            "KC 8S 7S 6S JC 9C 8C 7C 6C",
        )
    ]
    deal = Deal(hands, Seat.W, answer_steps=True)
    for token in ("AD", "9D", "7D", "6C", "ask-whole"):
        deal.apply(Action.parse(token))
    assert deal.phase is Phase.ANSWER and [str(a) for a in deal.legal_actions()] == ["answer H"]
    player = make_player(spec, 2)
    while not deal.is_over():
        seat = deal.current_player
        assert seat is not None
        observation = deal.observation(seat)
        assert observation.answer_steps
        action = player.choose(observation)
        assert action in observation.legal_actions
        deal.apply(action)
    assert deal.events[0].suit is not None and str(deal.events[0].suit) == "H"
    player.close()


def test_the_choice_depends_only_on_the_observation() -> None:
    """Two deals that N sees alike, with E's and W's unplayed cards swapped, get the same answer."""
    rng = random.Random(5)
    checked = 0
    while checked < 5:
        deal = Deal.shuffled(rng, Seat.W)
        for _ in range(rng.randrange(0, 16)):
            deal.apply(deal.legal_actions()[rng.randrange(len(deal.legal_actions()))])
        if deal.current_player != Seat.N:
            continue
        hands = list(deal.hands)
        if len(hands[Seat.E]) != len(hands[Seat.W]) or deal.events:
            continue
        twin_hands = [hands[0], hands[3], hands[2], hands[1]]
        played = deal.observation(Seat.N).played_by()
        twin = Deal([twin_hands[i] | played[i] for i in range(4)], Seat.W)
        try:
            twin.replay(deal.history)
        except ValueError:
            continue  # the swap contradicts a void shown in play: not the same information
        if twin.observation(Seat.N) != deal.observation(Seat.N):
            continue
        a = SearchPlayer(QUICK, seed=9).evaluate(deal.observation(Seat.N))
        b = SearchPlayer(QUICK, seed=9).evaluate(twin.observation(Seat.N))
        assert a == b
        checked += 1


def test_deal_value_counts_the_match_score() -> None:
    rng = random.Random(2)
    deal = Deal.shuffled(rng, Seat.N)
    deal.playout(rng)
    result = deal.result()
    ns, ew = deal_value(deal, (0, 0), Variant())
    assert ns == -ew
    expected = (result.game_points[0] - result.game_points[1]) / 10
    if 0 in result.tricks:  # Porvoo costs nothing from 0
        expected = (
            result.game_points[0] * (result.tricks[0] > 0)
            - result.game_points[1] * (result.tricks[1] > 0)
        ) / 10
    assert ns == pytest.approx(expected)
    # The same deal with NS one short of the target: exactly on target wins the match.
    gp = result.game_points[0]
    if result.tricks[0] and gp:
        ns_near, _ = deal_value(deal, (10 - gp, 0), Variant())
        assert ns_near >= 1.0


def test_levels_from_the_registry() -> None:
    assert make_player("search:easy").name == "search:easy"
    assert make_player("search").name == "search:medium"
    with pytest.raises(ValueError, match="levels are"):
        make_player("search:grandmaster")
