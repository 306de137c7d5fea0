"""The heuristic player: always legal, its rules of thumb, read from its seat's view alone (the
same decision from an observation as from any deal that agrees with it), its other name
``quick``, and its strength against random."""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import replace

import pytest

from helpers import hands_of, make_deal
from valtti.arena import run_arena
from valtti.engine import (
    Action,
    ActionKind,
    Deal,
    Match,
    Phase,
    Seat,
    Team,
    Variant,
    deal_hands,
)
from valtti.engine.match import CLUB_ACE
from valtti.players._heuristic import Heuristic
from valtti.players.base import Player, RandomPlayer
from valtti.players.heuristic import HeuristicPlayer
from valtti.players.quick import QuickPlayer
from valtti.players.registry import make_player
from valtti.players.sampler import sample_hands
from valtti.players.spec import PlayerSpecError
from valtti.players.worlds import rebuild
from valtti.research.speed import random_positions

#: Each switch of RULES.md 8 away from its default once, and the defaults.
VARIANTS = [
    Variant(),
    Variant(target=12),
    Variant(first_forehand="club_ace_holder"),
    Variant(whole_ask_after_trump="anyone"),
    Variant(whole_ask_after_trump="nobody"),
    Variant(must_overtrump=False),
    Variant(must_trump_if_cannot_overtrump=False),
    Variant(first_trick_ace="on"),
    Variant(both_on_target="continue"),
]

#: S holds two marriages and N none: when N wins a trick and asks whole, S must choose.
TWO_MARRIAGES = hands_of(
    N="AS AH AD AC TS TH TD TC 9S",
    E="6S",
    S="KH QH JH 9H KC QC 7S 6D 7D",
    W="8S",
)


def play_out(deal: Deal, players: dict[Seat, Player], seen: set[Phase]) -> None:
    """Play the deal to the end, checking every choice against the legal actions."""
    while (seat := deal.current_player) is not None:
        observation = deal.observation(seat)
        action = players[seat].choose(observation)
        assert action in observation.legal_actions, (seat, action, observation.legal_actions)
        if isinstance(players[seat], HeuristicPlayer):
            seen.add(observation.phase)
        deal.apply(action)


@pytest.mark.parametrize("variant", VARIANTS, ids=str)
def test_only_legal_actions_in_every_variant(variant: Variant) -> None:
    rng = random.Random(str(variant))
    seen: set[Phase] = set()
    for n in range(6):
        # The heuristic at one team, both teams, or one seat; random players elsewhere.
        layout = [Seat.N, Seat.S] if n % 3 == 0 else list(Seat) if n % 3 == 1 else [Seat(n & 3)]
        players: dict[Seat, Player] = {
            s: HeuristicPlayer(n) if s in layout else RandomPlayer(n) for s in Seat
        }
        hands = TWO_MARRIAGES if n == 1 else deal_hands(rng)
        play_out(Deal(hands, Seat(n & 3), variant), players, seen)
    assert seen == {Phase.PLAY, Phase.DECLARATION, Phase.ANSWER}


def test_only_legal_actions_in_a_match_with_its_score() -> None:
    rng = random.Random(7)
    match = Match(Variant(), Seat.W)
    players: dict[Seat, Player] = {
        s: HeuristicPlayer(1) if s.team == Team.EW else RandomPlayer(1) for s in Seat
    }
    while not match.is_over() and len(match.deals) < 30:
        deal = match.start_deal(deal_hands(rng))
        while (seat := deal.current_player) is not None:
            observation = match.observation(seat)
            action = players[seat].choose(observation)
            assert action in observation.legal_actions
            match.apply(action)
    assert match.deals


def test_answers_an_ask_whole_in_the_longer_suit() -> None:
    # N wins trick 1 and asks whole; S holds K+Q of hearts (four hearts) and of clubs (two).
    deal = make_deal(TWO_MARRIAGES, "W", "AS 6S 7S 8S ask-whole")
    assert deal.phase is Phase.ANSWER and deal.current_player == Seat.S
    assert HeuristicPlayer(0).choose(deal.observation(Seat.S)) == Action.parse("answer H")


def test_reaches_the_answer_phase_in_play() -> None:
    # The heuristic N asks whole at its first window (its team has no trumps, it holds no
    # marriage), and the heuristic S then chooses which of its marriages to name.
    seen: set[Phase] = set()
    players: dict[Seat, Player] = {s: HeuristicPlayer(3) for s in Seat}
    deal = Deal(TWO_MARRIAGES, Seat.W)
    play_out(deal, players, seen)
    assert Phase.ANSWER in seen
    assert any(e.how == "ask-whole" and e.yes for e in deal.events)


def test_declares_a_held_marriage_at_the_first_window() -> None:
    hands = hands_of(N="AS KD QD 7H 8H 7C 8C 6D 9H", E="6S", S="7S", W="8S")
    deal = make_deal(hands, "W", "AS 6S 7S 8S")
    assert deal.phase is Phase.DECLARATION and deal.current_player == Seat.N
    assert HeuristicPlayer(0).choose(deal.observation(Seat.N)) == Action.parse("declare D")


def test_asks_whole_without_a_marriage_of_its_own() -> None:
    hands = hands_of(N="AS 7D 7H 8H 7C 8C 6D 9H 9D", E="6S", S="7S", W="8S")
    deal = make_deal(hands, "W", "AS 6S 7S 8S")
    assert HeuristicPlayer(0).choose(deal.observation(Seat.N)) == Action.ask_whole()


def test_asks_whole_first_then_half() -> None:
    # N holds the king of hearts alone. Asking half first would lock partner's own marriages:
    # N asks whole at its first window, and after the "no" asks half at the next.
    hands = hands_of(N="AS AD KH 7C 8C 9C 6H 7H 9D", E="6S 6D", S="7S 7D", W="8S 8D")
    player = HeuristicPlayer(0)
    deal = make_deal(hands, "W", "AS 6S 7S 8S")
    assert player.choose(deal.observation(Seat.N)) == Action.ask_whole()
    deal = make_deal(hands, "W", "AS 6S 7S 8S ask-whole AD 6D 7D 8D")
    assert not deal.events[0].yes and deal.current_player == Seat.N
    assert player.choose(deal.observation(Seat.N)) == Action.parse("ask-half H")


def test_lets_a_partners_sure_trick_stand_without_wasting_an_ace() -> None:
    # N leads the ace of diamonds: nobody can beat it (no trumps). S has no diamond, so it may
    # play any card; its ace of spades is a sure winner later, the clubs and hearts are not.
    hands = hands_of(N="AD", E="6D", S="AS 9S 7C 8C 6H 7H 8H 9H JC", void={"S": "D"})
    deal = make_deal(hands, "W", "AD 6D")
    choice = HeuristicPlayer(0).choose(deal.observation(Seat.S))
    assert choice != Action.parse("AS")


def test_takes_a_trick_cheaply() -> None:
    # Last to play to a trick E wins with the 9 of spades, S takes it with the jack, not the ace.
    hands = hands_of(W="8S 6S", N="7S", E="9S TS KS QS", S="AS JS 7C 8C 6H 7H 8H 9H JC")
    deal = make_deal(hands, "S", "8S 7S 9S")
    assert deal.current_player == Seat.S
    assert HeuristicPlayer(0).choose(deal.observation(Seat.S)) == Action.parse("JS")


def test_cashes_a_sure_winner_on_lead() -> None:
    hands = hands_of(N="AS 7H 8H 6C 7C 8D 9D 6D 7D")
    deal = make_deal(hands, "W")
    assert HeuristicPlayer(0).choose(deal.observation(Seat.N)) == Action.parse("AS")


def test_keeps_the_sure_winner_for_the_last_trick() -> None:
    # N takes tricks 1 to 7 (80 card points: the victory point is settled), hearts are trumps.
    # Holding the ace of trumps and the 6 of clubs for the last two tricks, N leads the club:
    # the ace then surely takes trick 9, while leading it first would leave the club to lose.
    hands = hands_of(
        N="AS TS AD TD TH KH QH AH 6C",
        E="KS 6S 7S 6D 7D 6H 7H 7C 8C",
        S="8S 9S 8D 9D 8H 9H 9C TC JC",
        W="JS QS JD QD KD JH QC KC AC",
    )
    script = (
        "AS 6S 8S JS declare H | TS 7S 9S QS | AD 6D 8D JD | TD 7D 9D QD | TH 6H 8H JH"
        " | KH 7H 9H KD | QH 8C JC QC"
    )
    deal = make_deal(hands, "W", script)
    assert deal.current_player == Seat.N and deal.result().card_points[Team.NS] > 60
    assert HeuristicPlayer(0).choose(deal.observation(Seat.N)) == Action.parse("6C")


def test_near_the_target_does_not_make_trumps_past_it() -> None:
    # At 9 of 10, making trumps (2 game points) would overshoot to 7: N leads instead. Far from
    # the target it declares at once.
    hands = hands_of(N="AS KD QD 7H 8H 7C 8C 6D 9H", E="6S", S="7S", W="8S")
    deal = make_deal(hands, "W", "AS 6S 7S 8S")
    player = HeuristicPlayer(0)
    assert player.choose(deal.observation(Seat.N).with_score((9, 3))).kind is ActionKind.PLAY
    assert player.choose(deal.observation(Seat.N).with_score((4, 3))) == Action.parse("declare D")


def test_registry_makes_it_by_either_name_and_refuses_a_level() -> None:
    player = make_player("heuristic", 3)
    assert isinstance(player, HeuristicPlayer) and player.name == "heuristic"
    quick = make_player("quick", 3)
    assert isinstance(quick, QuickPlayer) and quick.name == "quick"
    deal = random_positions(1, seed=2)[0]
    seat = deal.current_player
    assert seat is not None
    assert quick.choose(deal.observation(seat)) == player.choose(deal.observation(seat))
    for spec in ("heuristic:hard", "quick:hard"):
        with pytest.raises(PlayerSpecError, match="no levels"):
            make_player(spec)


def test_it_decides_alike_from_the_observation_and_from_the_deal() -> None:
    """The player given an observation (``decide``, the position rebuilt from the view alone)
    and its C given the whole deal (``choose``) take the same action, in every variant, at any
    match score and deal number: 300 positions with a choice."""
    variants = [
        Variant(),
        Variant.parse("target=12"),
        Variant.parse("first_forehand=club_ace_holder"),
        Variant.from_mapping({"must_overtrump": False, "whole_ask_after_trump": "anyone"}),
        Variant.from_mapping({"both_on_target": "continue", "first_trick_ace": "on"}),
    ]
    rng = random.Random(4)
    seen = 0
    while seen < 300:
        variant = variants[seen % len(variants)]
        dealer = Seat(rng.randrange(4))
        hands = Deal.shuffled(rng, dealer).hands
        forehand = next(s for s in Seat if CLUB_ACE in hands[s])  # as on a first deal
        deal = Deal(hands, dealer, variant, forehand, answer_steps=seen % 2 == 0)
        for _ in range(rng.randrange(36)):
            deal.apply(rng.choice(deal.legal_numbers()))
        if deal.is_over() or len(deal.legal_numbers()) < 2:
            continue
        seat = deal.current_player
        assert seat is not None
        score = (rng.randrange(variant.target), rng.randrange(variant.target))
        number = rng.choice((1, 2))
        obs = replace(deal.observation(seat), score=score, deal_number=number)
        assert Heuristic(seen).choose(deal, score, number) == int(HeuristicPlayer(seen).choose(obs))
        seen += 1


def test_it_reads_no_hidden_card() -> None:
    """The same seat's view of two deals that differ in the hidden hands gives the same action:
    the deal rebuilt with other hidden hands that agree with everything the seat has seen."""
    rng = random.Random(8)
    differ = 0
    for i, deal in enumerate(random_positions(150, seed=7)):
        seat = deal.current_player
        assert seat is not None
        other = rebuild(deal.observation(seat), sample_hands(deal.observation(seat), rng))
        differ += other.hands != deal.hands
        assert Heuristic(i).choose(other) == Heuristic(i).choose(deal)
    assert differ > 100


def test_bad_calls_are_refused() -> None:
    deal = random_positions(1, seed=3)[0]
    while not deal.is_over():
        deal.apply(deal.legal_numbers()[0])
    with pytest.raises(ValueError, match="over"):
        Heuristic(1).choose(deal)
    with pytest.raises(TypeError):
        Heuristic(1).choose(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not its turn"):
        Heuristic(1).decide(deal.observation(Seat.N))
    playing = random_positions(1, seed=4)[0]
    seat = playing.current_player
    assert seat is not None
    heuristic = Heuristic(2)
    for score in (None, (1,), (1, 2, 3), (-1, 0), (0, 11), ("1", 2), (True, 0)):
        with pytest.raises(ValueError, match="score must be two ints"):
            heuristic.choose(playing, score)  # type: ignore[arg-type]
    view = playing.observation(seat)
    assert len(view.events) == 1
    for bad, why in (
        (replace(view, hand_sizes=(9, 9, 9, 9)), "contradicts itself"),
        (replace(view, hand=view.hand | playing.hands[seat.left]), "contradicts itself"),
        (replace(view, events=view.events * 9), "at most 8 declaration events"),
    ):
        with pytest.raises(ValueError, match=why):
            heuristic.decide(bad)
    assert heuristic.choose(playing) == Heuristic(2).choose(playing)  # nothing drawn by them


def test_refuses_to_choose_out_of_turn() -> None:
    deal = Deal(deal_hands(random.Random(3)), Seat.W)  # N leads
    with pytest.raises(ValueError, match="not its turn"):
        HeuristicPlayer(0).choose(deal.observation(Seat.E))


def test_choices_are_reproducible_from_the_seed() -> None:
    rng = random.Random(11)
    hands = deal_hands(rng)

    def history(seed: int) -> tuple[Action, ...]:
        deal = Deal(hands, Seat.N)
        players: dict[Seat, Player] = {s: HeuristicPlayer(seed) for s in Seat}
        play_out(deal, players, set())
        return deal.history

    assert history(4) == history(4)


@pytest.mark.slow  # a strength test: 20 matches
def test_wins_most_duplicate_matches_against_random() -> None:
    result = run_arena(["heuristic", "random"], matches=10, seed=2024, backend="serial")
    pairing = result.pairings[0]
    assert pairing.matches == 20
    assert pairing.wins >= 18, pairing


def test_a_pickled_or_copied_player_goes_on_as_the_player() -> None:
    """Its generator's state goes with it (a player sent to a worker process decides there as
    it would have here); positions from trick 5 on, where the count of the last tricks draws."""
    views = []
    for deal in random_positions(200, seed=9):
        seat = deal.current_player
        if seat is not None and deal.tricks_played >= 4:
            views.append(deal.observation(seat))
    player = HeuristicPlayer(5)
    for observation in views[:20]:
        player.choose(observation)
    copies = [pickle.loads(pickle.dumps(player)), copy.deepcopy(player)]
    for observation in views[20:40]:
        action = player.choose(observation)
        assert [c.choose(observation) for c in copies] == [action, action]
