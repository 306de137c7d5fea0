"""RULES.md section 9: every worked case, reached through real legal play from full hands.

Each test deals nine cards to every seat, plays the tricks before the described moment (only
legal actions: ``drive`` fails on a refused one), checks that the position is exactly the one
described, and then checks the legal actions or the result.
"""

from __future__ import annotations

from helpers import (
    CASE_11_HANDS,
    CASE_11_SCRIPT,
    assert_refused,
    autoplay,
    cs,
    declarations_legal,
    drive,
    hands_of,
    legal,
    make_deal,
    opp_sweep,
    play_pattern,
    rotate,
    split_last,
    sweep,
    to_9_6,
)
from valtti.engine import Action, Card, Event, Match, Phase, Seat, Suit, Team, Variant


def test_case_1_no_trumps_must_beat_partners_card() -> None:
    hands = (
        cs("AD TD KD AC TC 9S TH 9H 8H"),
        cs("9D 6D 9C 6C KC 6S KH QH JH"),
        cs("7D JD 7C JC 6H QS JS 7S AH"),
        cs("8D QD 8C QC 7H AS TS KS 8S"),
    )
    deal = make_deal(
        hands,
        "W",
        "AD 6D 7D 8D | TD 9D JD QD | AC 6C 7C 8C | TC 9C JC QC | KD KC 6H 7H | 9S 6S",
    )
    assert deal.trump is None
    assert deal.current_player == Seat.S
    assert deal.hand(Seat.S) == cs("QS JS 7S AH")
    assert deal.current_trick.cards == (Card.parse("9S"), Card.parse("6S"))
    assert deal.winning_card == Card.parse("9S")  # N's, the partner's card
    assert legal(deal) == {"QS", "JS"}


def test_case_2_trick_trumped_any_card_of_led_suit() -> None:
    hands = (
        cs("AD TD AC TC AH TH 9S 8S 6S"),
        cs("KD 9D 8D 9C 8C 9H 8H 7H 6H"),
        cs("7D 6D 7C 6C KH QH JH AS 7S"),
        cs("QD JD KC QC JC TS KS QS JS"),
    )
    # N asks whole after trick 1; S's only marriage is hearts, so S's "yes H" is automatic.
    deal = make_deal(
        hands,
        "W",
        "AD 9D 7D QD | ask-whole | TD 8D 6D JD | AC 9C 7C KC | TC 8C 6C QC"
        " | AH 9H QH JC | TH 8H JH JS | 9S 6H",
    )
    assert deal.trump == Suit.H
    assert deal.current_player == Seat.S
    assert deal.hand(Seat.S) == cs("AS 7S KH")
    assert deal.current_trick.cards == (Card.parse("9S"), Card.parse("6H"))
    assert legal(deal) == {"AS", "7S"}


def test_case_3_void_must_overtrump() -> None:
    hands = (
        cs("AS TS KS QS JS 9S 8S AC KH"),
        cs("KC QC JC TC 9C 8C JH KD QD"),
        cs("7C 6C JD TD 9D 8D QH 7H AD"),
        cs("7S 6S AH TH 9H 8H 6H 7D 6D"),
    )
    # No trumps for six tricks; then N (KH) asks half hearts, S holds QH: "yes", trumps hearts.
    deal = make_deal(
        hands,
        "W",
        "AS KC 7C 7S | TS QC 6C 6S | KS JC JD 7D | QS TC TD 6D | JS 9C 9D 9H | 9S 8C 8D 8H"
        " | ask-half H | AC JH",
    )
    assert deal.trump == Suit.H
    assert deal.current_player == Seat.S
    assert deal.hand(Seat.E) == cs("KD QD")  # E had no clubs
    assert deal.hand(Seat.S) == cs("QH 7H AD")
    assert deal.current_trick.cards == (Card.parse("AC"), Card.parse("JH"))
    assert legal(deal) == {"QH"}


def test_case_4_void_cannot_overtrump_must_still_trump() -> None:
    hands = (
        cs("AC TC KC QC JC 9C AH TH JH"),
        cs("AS TS KS QS JS 6C KH QH KD"),
        cs("7C 9H 7H AD TD QD JD 9D 8D"),
        cs("9S 8S 7S 6S 8C 7D 6D 8H 6H"),
    )
    # Dealer N, so E leads: E wins five spade tricks, declares hearts (trumps for EW), leads
    # 6C, and N wins trick 6 with TC to lead AC to trick 7.
    deal = make_deal(
        hands,
        "N",
        "AS 8D 6S 9C | TS 9D 7S JC | KS JD 8S QC | QS QD 9S KC | JS TD 6D JH | declare H"
        " | 6C 7C 8C TC | AC QH",
    )
    assert deal.trump == Suit.H
    assert deal.trump_team == Team.EW
    assert deal.current_player == Seat.S
    assert deal.hand(Seat.E) == cs("KH KD")  # no clubs
    assert deal.hand(Seat.S) == cs("9H 7H AD")
    assert deal.current_trick.cards == (Card.parse("AC"), Card.parse("QH"))
    assert legal(deal) == {"9H", "7H"}


def test_case_5_void_must_trump_and_trumped_trick_any_of_led_suit() -> None:
    # Interpretation: the case gives W three cards (TD JD AS), so it is trick 7 and every hand
    # holds three cards; S's third card, unnamed, is KC (no diamond, no trump), which leaves
    # S's legal plays as the case says.
    hands = (
        cs("AH TH KH QH JH 9H AD KS QS"),
        cs("TS JS 9S 8S 7S 6C KD QD 7D"),
        cs("QC JC TC 9C 8C 7C 6S AC KC"),
        cs("8H 7H 6H 9D 8D 6D TD JD AS"),
    )
    deal = make_deal(
        hands,
        "W",
        "AH 9S QC 8H | TH 8S JC 7H | KH 7S TC 6H | QH 6C 9C 9D | JH KD 8C 8D | 9H QD 7C 6D"
        " | declare S | AD 7D",
    )
    assert deal.trump == Suit.S
    assert deal.current_player == Seat.S
    assert Suit.D not in {c.suit for c in deal.hand(Seat.S)}
    assert {Card.parse("6S"), Card.parse("AC")} <= set(deal.hand(Seat.S))
    assert legal(deal) == {"6S"}
    drive(deal, "6S")
    assert deal.current_player == Seat.W
    assert deal.hand(Seat.W) == cs("TD JD AS")
    assert deal.winning_card == Card.parse("6S")
    assert legal(deal) == {"TD", "JD"}


def test_case_6_declare_only_after_winning_trick_1() -> None:
    hands = hands_of(N="KD QD AS")
    deal = make_deal(hands, "W")
    assert deal.current_player == Seat.N
    assert declarations_legal(deal) == set()
    assert_refused(deal, "declare D", "trick 1")
    drive(deal, "AS")  # nobody can beat the ace: N wins trick 1
    autoplay(deal, 3)
    assert deal.tricks[0].winner == Seat.N
    assert deal.phase == Phase.DECLARATION
    assert "declare D" in legal(deal)
    drive(deal, "declare D")
    assert deal.trump == Suit.D
    assert deal.trump_team == Team.NS
    assert deal.result().marriage_points == (2, 0)
    assert deal.events == (Event(1, Seat.N, "declare", Suit.D, True, 2),)


def test_case_7_ask_whole_partner_chooses_then_little_trump() -> None:
    hands = (
        cs("KS QS AD TD 6D AH TH JH 9H"),
        cs("QD JD 9D 8H 7H 6H AS TS JS"),
        cs("KH QH KC QC KD 8D 7D AC TC"),
        cs("9S 8S 7S 6S JC 9C 8C 7C 6C"),
    )
    deal = make_deal(hands, "W", "AD 9D 7D 6C | ask-whole")
    # S has two eligible marriages: S chooses, and names only one of them.
    assert deal.phase == Phase.ANSWER
    assert deal.current_player == Seat.S
    assert deal.asker == Seat.N
    assert legal(deal) == {"answer H", "answer C"}
    drive(deal, "answer H")
    assert deal.trump == Suit.H
    assert deal.trump_team == Team.NS
    assert deal.result().marriage_points == (2, 0)
    assert deal.events == (Event(1, Seat.N, "ask-whole", Suit.H, True, 2),)
    assert deal.locked == frozenset({Seat.N})
    assert deal.current_player == Seat.N and deal.phase == Phase.PLAY

    # N wins trick 2 holding KS QS: broken by N's own question.
    drive(deal, "TD JD 8D 7C")
    assert deal.current_player == Seat.N and deal.phase == Phase.DECLARATION
    assert declarations_legal(deal) == set()
    assert_refused(deal, "declare S", "locked")
    assert_refused(deal, "ask-whole", "trumps")

    # S wins trick 3: no ask-whole for the trump team, but S may declare clubs.
    drive(deal, "6D QD KD 8C")
    assert deal.current_player == Seat.S and deal.phase == Phase.DECLARATION
    assert declarations_legal(deal) == {"declare C"}
    assert_refused(deal, "ask-whole", "trumps")
    drive(deal, "declare C")
    assert deal.trump == Suit.H
    assert deal.trump_team == Team.NS
    assert deal.result().marriage_points == (3, 0)
    assert deal.events[-1] == Event(3, Seat.S, "declare", Suit.C, True, 1)

    # Never again may N declare spades, in any window of this deal.
    while not deal.is_over():
        if deal.phase == Phase.DECLARATION and deal.current_player == Seat.N:
            assert not deal.is_legal(Action.declare(Suit.S))
        autoplay(deal, 1)
    assert deal.result().marriage_points == (3, 0)


def test_case_8_ask_half_no_scores_nothing_and_locks_both() -> None:
    hands = (
        cs("AC TC 6C QH KS QS AS TS JS"),
        cs("QC JC 9C KH AH TH JH 9H 8H"),
        cs("KC 8C 7C KD QD AD TD JD 9D"),
        cs("7H 6H 9S 8S 7S 6S 8D 7D 6D"),
    )
    deal = make_deal(hands, "W", "AC 9C 7C 6D | ask-half H")
    assert deal.events == (Event(1, Seat.N, "ask-half", Suit.H, False, 0),)
    assert deal.trump is None
    assert deal.result().marriage_points == (0, 0)
    assert deal.locked == frozenset({Seat.N, Seat.S})
    # N must lead: the window's one action is spent.
    assert deal.current_player == Seat.N and deal.phase == Phase.PLAY
    assert legal(deal) == {str(c) for c in deal.hand(Seat.N)}
    assert_refused(deal, "declare S", "already made")

    # N wins trick 2: the spade marriage is broken; S's diamond marriage is broken too, so an
    # ask-whole is answered "no".
    drive(deal, "TC JC 8C 7D")
    assert deal.current_player == Seat.N and deal.phase == Phase.DECLARATION
    assert "declare S" not in legal(deal)
    assert_refused(deal, "declare S", "locked")
    drive(deal, "ask-whole")
    assert deal.events[-1] == Event(2, Seat.N, "ask-whole", None, False, 0)
    assert deal.trump is None

    # S wins trick 3 holding KD QD: broken.
    drive(deal, "6C QC KC 8D")
    assert deal.current_player == Seat.S and deal.phase == Phase.DECLARATION
    assert "declare D" not in legal(deal)
    assert_refused(deal, "declare D", "locked")
    autoplay(deal)
    assert deal.result().marriage_points == (0, 0)


def test_case_9_ask_half_after_trick_8_makes_trumps_for_trick_9() -> None:
    hands = (
        cs("AH TH AD TD AC TC AS TS KS"),
        cs("KH JH 7H KD JD 7D KC JC 7C"),
        cs("QS JS 9S 9H 8H 9D 8D 9C 8C"),
        cs("QH 6H QD 6D QC 6C 8S 7S 6S"),
    )
    deal = make_deal(
        hands,
        "W",
        "AS 7H 9S 6S | TS 7D JS 7S | AH KH 9H 6H | TH JH 8H QH | AD KD 9D 6D | TD JD 8D QD"
        " | AC KC 9C 6C | TC JC 8C QC",
    )
    assert len(deal.tricks) == 8
    assert deal.tricks[-1].winner == Seat.N
    assert deal.events == ()
    assert deal.hand(Seat.N) == cs("KS")
    assert deal.hand(Seat.S) == cs("QS")
    assert deal.phase == Phase.DECLARATION
    assert legal(deal) == {"KS", "ask-whole", "ask-half S"}
    drive(deal, "ask-half S")
    assert deal.events == (Event(8, Seat.N, "ask-half", Suit.S, True, 2),)
    assert deal.trump == Suit.S
    assert deal.result().marriage_points == (2, 0)
    drive(deal, "KS 7C QS 8S")
    assert deal.is_over()
    assert deal.trump == Suit.S
    r = deal.result()
    assert r.tricks == (9, 0)
    assert r.game_points == (2 + 1 + 1, 0)


def test_case_10_overshoot_and_porvoo_no_winner() -> None:
    match = to_9_6()
    assert match.score == (9, 6)
    # The fourth deal is dealt by N and led by E; NS take every trick, N declares spades (the
    # one marriage, 2), NS take the last (1) and 120 card points (victory, 1).
    assert match.next_dealer == Seat.N
    deal = match.start_deal(rotate(opp_sweep(2).hands, Seat.E))
    assert deal.forehand == Seat.E
    drive(match, opp_sweep(2).script)
    r = deal.result()
    assert r.tricks == (9, 0)
    assert r.marriage_points == (2, 0)
    assert r.last == Team.NS
    assert r.card_points == (120, 0)
    assert r.game_points == (4, 0)
    ds = match.deal_scores[-1]
    assert ds.before == (9, 6)
    assert ds.after == (7, 0)  # 13 > 10 -> 7; EW took no trick -> 0
    assert ds.overshoot == (True, False)
    assert ds.porvoo == (False, True)
    assert match.score == (7, 0)
    assert match.winner is None
    assert not match.is_draw
    assert not match.is_over()


def test_case_11_exact_target_wins_other_team_overshoots() -> None:
    # NS 7, EW 9 through four real deals, first dealer E: S, W, N, E lead them.
    match = Match(Variant(), Seat.E)
    for pattern, expected in [
        (sweep(0), (2, 0)),
        (split_last(3), (3, 4)),
        (split_last(2), (6, 5)),
        (split_last(3), (7, 9)),
    ]:
        play_pattern(match, pattern)
        assert match.score == expected
        assert not match.is_over()
    # The fifth deal: dealer E, S leads (P0 of the case-11 hands).
    assert match.next_dealer == Seat.E
    deal = match.start_deal(rotate(CASE_11_HANDS, Seat.S))
    drive(match, CASE_11_SCRIPT)
    assert deal.is_over()
    assert deal.trump == Suit.H and deal.trump_team == Team.EW
    r = deal.result()
    assert r.marriage_points == (1, 2)  # NS little trump, EW trumps
    assert r.last == Team.NS
    assert r.card_points == (64, 56)
    assert r.game_points == (1 + 1 + 1, 2)
    ds = match.deal_scores[-1]
    assert ds.before == (7, 9)
    assert ds.after == (10, 7)
    assert ds.overshoot == (False, True)
    assert match.winner == Team.NS
    assert not match.is_draw
    assert match.is_over()
