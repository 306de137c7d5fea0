"""RULES.md section 4: declaration windows, declare, ask-whole, ask-half, locks, marriage points."""

from __future__ import annotations

import pickle

import pytest

from helpers import (
    CASE_11_HANDS,
    NO_MARRIAGE_HANDS,
    NO_MARRIAGE_TRICKS,
    OTHER_TEAM_HANDS,
    OTHER_TEAM_SCRIPT,
    SWEEP_HANDS,
    SWEEP_TRICKS,
    assert_refused,
    autoplay,
    cs,
    declarations_legal,
    drive,
    hands_of,
    legal,
    make_deal,
    rotate,
    sweep_deal,
)
from valtti.engine import Action, Deal, Event, Match, Phase, Seat, Suit, Team

# -- 4.1 the window ---------------------------------------------------------------------------


def test_no_declaration_before_trick_1() -> None:
    deal = sweep_deal()
    assert deal.current_player == Seat.N  # holding two marriages
    assert deal.phase == Phase.PLAY
    assert declarations_legal(deal) == set()
    for action in ["declare S", "declare H", "ask-whole"]:
        assert_refused(deal, action, "trick 1")


def test_window_after_each_of_tricks_1_to_8_none_after_9() -> None:
    deal = sweep_deal()
    for t, trick in enumerate(SWEEP_TRICKS, 1):
        drive(deal, trick.split()[0])
        # Mid-trick: nobody may declare or ask.
        assert deal.phase == Phase.PLAY
        assert declarations_legal(deal) == set()
        assert_refused(deal, "ask-whole", "trick 1" if t == 1 else "winner")
        drive(deal, " ".join(trick.split()[1:]))
        assert len(deal.tricks) == t
        if t < 9:
            assert deal.phase == Phase.DECLARATION
            assert deal.current_player == deal.tricks[-1].winner == Seat.N
            assert "ask-whole" in legal(deal)
    assert deal.is_over()
    assert deal.phase == Phase.OVER
    assert deal.current_player is None
    assert deal.legal_actions() == []
    for action in ["ask-whole", "declare H", "QH"]:
        assert_refused(deal, action, "over")


def test_window_belongs_to_the_trick_winner_not_the_leader() -> None:
    deal = make_deal(rotate(CASE_11_HANDS, Seat.N), "W", "TD AD KD QD")
    assert deal.tricks[0].leader == Seat.N
    assert deal.tricks[0].winner == Seat.E
    assert deal.current_player == Seat.E
    assert deal.phase == Phase.DECLARATION
    assert "declare H" in legal(deal)


def test_leading_at_once_declares_nothing_and_next_window_is_open_again() -> None:
    deal = sweep_deal(SWEEP_TRICKS[0] + " AH")  # N leads at once after trick 1
    assert deal.events == ()
    assert deal.current_player == Seat.E
    assert_refused(deal, "declare S", "winner")
    drive(deal, "6H QD 7D")
    assert deal.phase == Phase.DECLARATION
    assert "declare S" in legal(deal)
    drive(deal, "declare S")
    assert deal.events == (Event(2, Seat.N, "declare", Suit.S, True, 2),)


# -- 4.2 one action per window ------------------------------------------------------------------


def test_at_most_one_action_per_window() -> None:
    deal = sweep_deal(SWEEP_TRICKS[0] + " | declare S")
    assert deal.current_player == Seat.N
    assert deal.phase == Phase.PLAY
    assert legal(deal) == {str(c) for c in deal.hand(Seat.N)}
    assert_refused(deal, "declare H", "already made")
    assert_refused(deal, "ask-whole", "already made")


# -- 4.2a declare ---------------------------------------------------------------------------------


def test_declare_needs_king_and_queen_in_own_hand() -> None:
    deal = sweep_deal("AS 6S JD 6D | QS 7S QD 7D")  # N led its QS: only KS left
    assert deal.phase == Phase.DECLARATION
    assert declarations_legal(deal) == {"declare H", "ask-whole", "ask-half S"}
    assert_refused(deal, "declare S", "does not hold both")
    assert_refused(deal, "declare D", "does not hold both")  # S's marriage, not N's


def test_declared_suit_cannot_be_declared_again() -> None:
    deal = sweep_deal(SWEEP_TRICKS[0] + " | declare S AH 6H QD 7D")
    assert {Suit.S} == {m.suit for m in deal.marriages}
    assert {"KS", "QS"} <= {str(c) for c in deal.hand(Seat.N)}
    assert declarations_legal(deal) == {"declare H"}  # no ask-whole: NS made trumps
    assert_refused(deal, "declare S", "already been declared")


def test_ask_half_on_declared_suit_refused() -> None:
    deal = sweep_deal(SWEEP_TRICKS[0] + " | declare S QS 7S QD 7D")  # N keeps KS only
    assert_refused(deal, "ask-half S", "already been declared")


def test_locked_player_cannot_declare() -> None:
    deal = make_deal(NO_MARRIAGE_HANDS, "W", NO_MARRIAGE_TRICKS[0] + " | ask-whole")
    assert deal.locked == frozenset({Seat.N})
    drive(deal, NO_MARRIAGE_TRICKS[1])
    assert deal.phase == Phase.DECLARATION
    assert {"KS", "QS", "KH", "QH"} <= {str(c) for c in deal.hand(Seat.N)}
    assert "declare S" not in legal(deal)
    assert "declare H" not in legal(deal)
    assert_refused(deal, "declare S", "locked")
    assert_refused(deal, "declare H", "locked")


# -- 4.2b ask-whole ------------------------------------------------------------------------------


def test_ask_whole_no_when_partner_has_no_marriage() -> None:
    deal = make_deal(NO_MARRIAGE_HANDS, "W", NO_MARRIAGE_TRICKS[0] + " | ask-whole")
    assert deal.events == (Event(1, Seat.N, "ask-whole", None, False, 0),)
    assert deal.trump is None
    assert deal.result().marriage_points == (0, 0)
    assert deal.locked == frozenset({Seat.N})
    # 4.5: the action is spent; N must lead.
    assert deal.phase == Phase.PLAY and deal.current_player == Seat.N
    assert legal(deal) == {str(c) for c in deal.hand(Seat.N)}
    assert_refused(deal, "declare S", "already made")


# S holds KD QD only (W has QC): one eligible marriage.
SINGLE_MARRIAGE_HANDS = (
    SWEEP_HANDS[0],
    SWEEP_HANDS[1],
    cs("AD TD KD QD JD AC TC KC JC"),
    cs("9D 8D 7D 6D QC 9C 8C 7C 6C"),
)


def test_ask_whole_single_eligible_marriage_answered_at_once() -> None:
    deal = make_deal(SINGLE_MARRIAGE_HANDS, "W", SWEEP_TRICKS[0] + " | ask-whole")
    assert deal.phase == Phase.PLAY  # no ANSWER phase: nothing to choose
    assert deal.current_player == Seat.N
    assert deal.events == (Event(1, Seat.N, "ask-whole", Suit.D, True, 2),)
    assert deal.trump == Suit.D
    assert deal.trump_team == Team.NS
    assert deal.result().marriage_points == (2, 0)
    assert deal.locked == frozenset({Seat.N})  # the asker only


def test_ask_whole_several_marriages_partner_chooses() -> None:
    deal = sweep_deal(SWEEP_TRICKS[0] + " | ask-whole")
    assert deal.phase == Phase.ANSWER
    assert deal.current_player == Seat.S
    assert deal.asker == Seat.N
    assert legal(deal) == {"answer D", "answer C"}
    drive(deal, "answer C")  # S's free choice: the second of the two
    assert deal.phase == Phase.PLAY
    assert deal.current_player == Seat.N
    assert deal.asker is None
    assert deal.trump == Suit.C
    assert deal.events == (Event(1, Seat.N, "ask-whole", Suit.C, True, 2),)
    assert [(m.suit, m.team, m.seat, m.how, m.points) for m in deal.marriages] == [
        (Suit.C, Team.NS, Seat.N, "ask-whole", 2)
    ]
    # The unnamed diamond marriage is not broken: S is not locked.
    assert deal.locked == frozenset({Seat.N})


def test_answer_steps_a_single_marriage_is_named_as_a_forced_step() -> None:
    """With answer_steps (the research environments) every "yes" is the partner's own step,
    so the turn does not tell others whether it held one marriage or several (RULES.md 7.2)."""
    deal = Deal(SINGLE_MARRIAGE_HANDS, Seat.W, answer_steps=True)
    drive(deal, SWEEP_TRICKS[0] + " | ask-whole")
    assert deal.answer_steps
    assert deal.phase == Phase.ANSWER and deal.current_player == Seat.S and deal.asker == Seat.N
    assert legal(deal) == {"answer D"}  # forced: the one legal action
    assert deal.events == ()  # nothing public yet: the answer is still to come
    assert deal.locked == frozenset({Seat.N})
    # Every other seat sees the deal before the question, as for a choice among several.
    for seat in (Seat.N, Seat.E, Seat.W):
        assert deal.seen_by(seat).history == deal.history[:-1]
    drive(deal, "answer D")
    assert deal.phase == Phase.PLAY and deal.current_player == Seat.N and deal.asker is None
    assert deal.events == (Event(1, Seat.N, "ask-whole", Suit.D, True, 2),)
    assert deal.trump == Suit.D and deal.result().marriage_points == (2, 0)
    # A record has no forced answer (RECORD.md): its decisions are those of the deal without
    # answer_steps.
    assert [str(a) for a in deal.decisions] == [*SWEEP_TRICKS[0].split(), "ask-whole"]
    plain = make_deal(SINGLE_MARRIAGE_HANDS, "W", SWEEP_TRICKS[0] + " | ask-whole")
    assert plain.history == plain.decisions == deal.decisions


def test_answer_steps_several_marriages_and_no_are_as_without() -> None:
    several = Deal(SWEEP_HANDS, Seat.W, answer_steps=True)
    drive(several, SWEEP_TRICKS[0] + " | ask-whole")
    plain = sweep_deal(SWEEP_TRICKS[0] + " | ask-whole")
    assert several.phase == plain.phase == Phase.ANSWER
    assert legal(several) == legal(plain) == {"answer D", "answer C"}
    drive(several, "answer C")
    drive(plain, "answer C")
    assert several.events == plain.events and several.decisions == plain.history
    # "no" is public at once: no step.
    no = Deal(NO_MARRIAGE_HANDS, Seat.W, answer_steps=True)
    drive(no, NO_MARRIAGE_TRICKS[0] + " | ask-whole")
    assert no.phase == Phase.PLAY and no.current_player == Seat.N
    assert no.events == (Event(1, Seat.N, "ask-whole", None, False, 0),)


def test_answer_steps_travels_with_the_deal_and_its_views() -> None:
    deal = Deal(SINGLE_MARRIAGE_HANDS, Seat.W, answer_steps=True)
    drive(deal, SWEEP_TRICKS[0] + " | ask-whole")
    assert not Deal(SINGLE_MARRIAGE_HANDS, Seat.W).answer_steps
    copies = (deal.copy(), deal.after(5), deal.with_hands(deal.hands))
    for other in (*copies, pickle.loads(pickle.dumps(deal))):
        assert other.answer_steps and other.phase == Phase.ANSWER
    assert pickle.loads(pickle.dumps(deal)) == deal
    assert deal != Deal(SINGLE_MARRIAGE_HANDS, Seat.W).after(0)  # not the same deal
    observation = deal.observation(Seat.S)
    assert observation.answer_steps
    rebuilt = Deal.of_observation(observation, deal.hands)
    assert rebuilt.answer_steps and rebuilt.phase == Phase.ANSWER
    assert rebuilt.legal_actions() == deal.legal_actions()
    # The asker's view is the deal before its question; rebuilt, it asks into the same phase.
    asker = Deal.of_observation(deal.observation(Seat.N), deal.hands)
    asker.apply(Action.parse("ask-whole"))
    assert asker.phase == Phase.ANSWER and asker == deal
    match = Match(answer_steps=True)
    match.start_deal(SINGLE_MARRIAGE_HANDS)
    assert match.deal is not None and match.deal.answer_steps
    assert match.observation(Seat.E).answer_steps
    assert match.after(0, 0).deal.answer_steps  # type: ignore[union-attr]
    with pytest.raises(TypeError, match="answer_steps must be a bool"):
        Deal(SINGLE_MARRIAGE_HANDS, Seat.W, answer_steps=1)  # type: ignore[arg-type]


def test_ask_whole_not_allowed_for_trump_team() -> None:
    deal = sweep_deal(SWEEP_TRICKS[0] + " | declare S " + SWEEP_TRICKS[1])
    assert deal.trump_team == Team.NS
    assert "ask-whole" not in legal(deal)
    assert_refused(deal, "ask-whole", "made trumps")


def test_ask_whole_allowed_for_other_team_and_declared_suit_not_eligible() -> None:
    deal = make_deal(OTHER_TEAM_HANDS, "W", OTHER_TEAM_SCRIPT)
    assert deal.trump == Suit.H and deal.trump_team == Team.EW
    assert deal.current_player == Seat.N and deal.phase == Phase.DECLARATION
    assert {"KD", "QD", "KC", "QC"} <= {str(c) for c in deal.hand(Seat.S)}
    assert "ask-whole" in legal(deal)
    drive(deal, "ask-whole")
    # Diamonds are declared already: clubs is S's only eligible marriage, named at once.
    assert deal.phase == Phase.PLAY
    assert deal.events[-1] == Event(3, Seat.N, "ask-whole", Suit.C, True, 1)
    assert deal.trump == Suit.H


def test_ask_whole_no_when_partner_locked() -> None:
    # N asks half hearts ("no": S has no KH) locking N and S; at the next window S's two whole
    # marriages are broken, so ask-whole is answered "no".
    hands = (
        cs("AS TS KS JS 9S AH TH QH JH"),
        cs("8S 7S 6S KH 9H 8H 7H 6H JD"),
        cs("AD TD KD QD 9D AC TC KC QC"),
        cs("QS 8D 7D 6D JC 9C 8C 7C 6C"),
    )
    deal = make_deal(hands, "W", "AS 6S 9D QS | ask-half H | TS 7S TD 6D")
    assert deal.events == (Event(1, Seat.N, "ask-half", Suit.H, False, 0),)
    assert deal.locked == frozenset({Seat.N, Seat.S})
    assert deal.phase == Phase.DECLARATION and deal.current_player == Seat.N
    drive(deal, "ask-whole")
    assert deal.events[-1] == Event(2, Seat.N, "ask-whole", None, False, 0)
    assert deal.trump is None
    assert deal.result().marriage_points == (0, 0)


# -- 4.2c ask-half ---------------------------------------------------------------------------------


def test_ask_half_holding_queen_partner_has_king_yes() -> None:
    hands = hands_of(N="AS QD", S="KD")
    deal = make_deal(hands, "W", "AS")
    autoplay(deal, 3)
    assert deal.current_player == Seat.N
    drive(deal, "ask-half D")
    assert deal.events == (Event(1, Seat.N, "ask-half", Suit.D, True, 2),)
    assert deal.trump == Suit.D
    assert deal.trump_team == Team.NS
    assert deal.locked == frozenset({Seat.N, Seat.S})
    assert deal.phase == Phase.PLAY and deal.current_player == Seat.N


def test_ask_half_partner_lacks_the_other_card_no() -> None:
    hands = hands_of(N="AS QD", E="KD")
    deal = make_deal(hands, "W", "AS")
    autoplay(deal, 3)
    drive(deal, "ask-half D")
    assert deal.events == (Event(1, Seat.N, "ask-half", Suit.D, False, 0),)
    assert deal.trump is None
    assert deal.result().marriage_points == (0, 0)
    assert deal.locked == frozenset({Seat.N, Seat.S})  # 4.5: the locks still apply


def test_ask_half_needs_exactly_one_of_king_and_queen() -> None:
    deal = sweep_deal(SWEEP_TRICKS[0])
    assert_refused(deal, "ask-half S", "exactly one")  # N holds KS and QS
    assert_refused(deal, "ask-half D", "exactly one")  # N holds neither
    assert "ask-half S" not in legal(deal)


def test_half_marriage_between_partners_not_affected_by_locks() -> None:
    # N asks half hearts: "no" (E has KH), N and S locked; next window N asks half diamonds
    # (N: QD, S: KD): "yes", trumps diamonds.
    hands = hands_of(N="AS TS QH QD", E="KH", S="KD")
    deal = make_deal(hands, "W", "AS")
    autoplay(deal, 3)
    drive(deal, "ask-half H TS")
    autoplay(deal, 3)
    assert deal.tricks[1].winner == Seat.N
    assert deal.locked == frozenset({Seat.N, Seat.S})
    assert "ask-half D" in legal(deal)
    drive(deal, "ask-half D")
    assert deal.events[-1] == Event(2, Seat.N, "ask-half", Suit.D, True, 2)
    assert deal.trump == Suit.D


# -- 4.4 points and trumps -----------------------------------------------------------------------


def test_first_marriage_makes_trumps_and_scores_2_later_ones_1() -> None:
    deal = sweep_deal(SWEEP_TRICKS[0] + " | declare S")
    assert deal.trump == Suit.S
    assert deal.result().marriage_points == (2, 0)
    drive(deal, SWEEP_TRICKS[1] + " | declare H")
    assert deal.trump == Suit.S  # trumps do not change
    assert deal.result().marriage_points == (3, 0)
    assert deal.events == (
        Event(1, Seat.N, "declare", Suit.S, True, 2),
        Event(2, Seat.N, "declare", Suit.H, True, 1),
    )


def test_little_trump_of_the_other_team_scores_1_and_trumps_stay() -> None:
    deal = make_deal(OTHER_TEAM_HANDS, "W", "6S AS 7S 8S | declare H")
    assert deal.trump == Suit.H and deal.trump_team == Team.EW
    assert deal.result().marriage_points == (0, 2)
    drive(deal, "6C AC 7C 8C | declare D")
    assert deal.trump == Suit.H
    assert deal.trump_team == Team.EW
    assert deal.result().marriage_points == (1, 2)
    assert [(m.suit, m.team, m.points) for m in deal.marriages] == [
        (Suit.H, Team.EW, 2),
        (Suit.D, Team.NS, 1),
    ]


def test_yes_to_ask_half_after_trumps_is_a_little_trump() -> None:
    hands = hands_of(N="AS KS QS TS QH", S="KH")
    deal = make_deal(hands, "W", "AS")
    autoplay(deal, 3)
    drive(deal, "declare S TS")
    autoplay(deal, 3)
    assert deal.tricks[1].winner == Seat.N
    drive(deal, "ask-half H")
    assert deal.events[-1] == Event(2, Seat.N, "ask-half", Suit.H, True, 1)
    assert deal.trump == Suit.S
    assert deal.result().marriage_points == (3, 0)


# -- 4.6 after trick 8 ---------------------------------------------------------------------------


def test_after_trick_8_no_declare_and_ask_whole_is_no() -> None:
    deal = sweep_deal(" ".join(SWEEP_TRICKS[:8]))
    assert deal.phase == Phase.DECLARATION
    assert deal.hand(Seat.N) == cs("QH")
    assert len(deal.hand(Seat.S)) == 1
    assert not any(a.startswith("declare") for a in legal(deal))
    assert legal(deal) == {"QH", "ask-whole", "ask-half H"}
    drive(deal, "ask-whole")
    assert deal.events == (Event(8, Seat.N, "ask-whole", None, False, 0),)
    drive(deal, SWEEP_TRICKS[8])
    assert deal.is_over()
    assert deal.result().marriage_points == (0, 0)
