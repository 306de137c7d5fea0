"""RULES.md section 8: every non-default value of every variant switch changes what it says."""

from __future__ import annotations

import random

import pytest

from helpers import (
    OTHER_TEAM_HANDS,
    OTHER_TEAM_SCRIPT,
    SWEEP_HANDS,
    SWEEP_TRICKS,
    assert_refused,
    cards_legal,
    drive,
    legal,
    make_deal,
    opp_sweep,
    play_pattern,
    rotate,
    split_last,
    sweep,
    take_first,
    trump_deal,
)
from valtti.engine import (
    Card,
    Deal,
    DealResult,
    Match,
    Phase,
    Seat,
    Suit,
    Team,
    Variant,
    score_deal,
)


def test_parse_names_and_values_of_the_table() -> None:
    v = Variant.parse("target=12,must_overtrump=false")
    assert v == Variant(target=12, must_overtrump=False)
    assert Variant.parse(
        "first_forehand=club_ace_holder whole_ask_after_trump=nobody "
        "must_trump_if_cannot_overtrump=false first_trick_ace=on both_on_target=continue"
    ) == Variant(
        first_forehand="club_ace_holder",
        whole_ask_after_trump="nobody",
        must_trump_if_cannot_overtrump=False,
        first_trick_ace="on",
        both_on_target="continue",
    )
    with pytest.raises(ValueError):
        Variant.parse("target=11")


def test_parse_takes_on_off_and_true_false_for_every_yes_no_switch() -> None:
    """``first_trick_ace`` took on/off only and ``must_overtrump`` true/false only; the text
    form (``--variant``) takes both for each and writes on/off. A record keeps its values."""
    for on, off in (("on", "off"), ("true", "false"), ("ON", "False")):
        assert Variant.parse(f"must_overtrump={off},first_trick_ace={on}") == Variant(
            must_overtrump=False, first_trick_ace="on"
        )
        assert Variant.parse(f"must_trump_if_cannot_overtrump={on},first_trick_ace={off}") == (
            Variant()
        )
    variant = Variant(must_overtrump=False, first_trick_ace="on")
    assert str(variant) == "must_overtrump=off,first_trick_ace=on"
    assert Variant.parse(str(variant)) == variant
    assert variant.changes() == {"must_overtrump": False, "first_trick_ace": "on"}
    with pytest.raises(ValueError, match=r"must_overtrump cannot be 'maybe': allowed on [|] off$"):
        Variant.parse("must_overtrump=maybe")
    with pytest.raises(ValueError, match=r"first_trick_ace cannot be 'yes': allowed on [|] off$"):
        Variant.parse("first_trick_ace=yes")
    # A record's variant object is the table's values (RECORD.md): not widened.
    with pytest.raises(ValueError, match=r"allowed true [|] false"):
        Variant.from_mapping({"must_overtrump": "off"})


def test_parse_takes_spaces_round_the_equals_and_refuses_a_switch_twice() -> None:
    assert Variant.parse("target = 12, first_trick_ace =on") == Variant(
        target=12, first_trick_ace="on"
    )
    # Once, the last of two values won unsaid; and "target = 12" was told it "needs a value".
    for text in ("target=12,target=10", "target=12 target=12"):
        with pytest.raises(ValueError, match="variant switch 'target' is given twice"):
            Variant.parse(text)
    with pytest.raises(ValueError, match="'target' needs a value"):
        Variant.parse("target")
    with pytest.raises(ValueError, match="'target' needs a value"):
        Variant.parse("target, first_trick_ace=on")


def test_parse_reads_the_default_that_str_writes() -> None:
    """``str(Variant())`` is ``default`` (the arena's "variant default", the terminal's
    "Rules: default"), and ``--variant default`` was refused: "'default' needs a value"."""
    assert str(Variant()) == "default"
    assert Variant.parse("default") == Variant.parse(" Default ") == Variant()
    with pytest.raises(ValueError, match="'default' needs a value"):
        Variant.parse("default,target=12")


# -- target ---------------------------------------------------------------------------------------


def test_target_12_ten_is_not_a_win_twelve_is() -> None:
    scores = {}
    for target in (10, 12):
        match = Match(Variant(target=target), Seat.W)
        play_pattern(match, sweep(3))  # N leads: NS 5
        play_pattern(match, opp_sweep(3))  # E leads: NS 5
        assert match.score == (10, 0)
        scores[target] = match.winner
        if target == 12:
            assert not match.is_over()
            play_pattern(match, sweep(0))  # S leads: NS 2
            assert match.score == (12, 0)
            assert match.winner == Team.NS
            assert match.is_over()
    assert scores == {10: Team.NS, 12: None}


def test_target_12_overshoot_only_past_12() -> None:
    gp = DealResult((5, 4), (60, 60), (0, 0), Team.NS, (2, 3))
    assert score_deal((9, 9), gp, Variant()).after == (7, 7)
    assert score_deal((9, 9), gp, Variant(target=12)).after == (11, 12)
    assert score_deal((9, 10), gp, Variant(target=12)).after == (11, 7)
    assert score_deal((9, 10), gp, Variant(target=12)).overshoot == (False, True)


# -- first_forehand ------------------------------------------------------------------------------


def test_club_ace_holder_leads_the_first_deal_only() -> None:
    variant = Variant(first_forehand="club_ace_holder")
    # Dealer W: by default N would lead. The split_last hands give the ace of clubs to P0; put
    # P0 at E.
    hands = rotate(split_last(3).hands, Seat.E)
    assert Card.parse("AC") in hands[Seat.E]
    assert Match(Variant(), Seat.W).start_deal(hands).forehand == Seat.N
    match = Match(variant, Seat.W)
    deal = play_pattern(match, split_last(3), forehand=Seat.E)
    assert deal.dealer == Seat.W
    assert deal.forehand == Seat.E
    # 2.3: the next dealer is this deal's forehand, and from now on the player on its left
    # leads, wherever the ace of clubs is (here with N).
    assert match.next_dealer == Seat.E
    hands2 = rotate(sweep(0).hands, Seat.S)
    assert Card.parse("AC") in hands2[Seat.N]
    second = match.start_deal(hands2)
    assert second.dealer == Seat.E
    assert second.forehand == Seat.S
    assert second.current_player == Seat.S


def test_club_ace_holder_with_shuffled_hands() -> None:
    for seed in range(8):
        match = Match(Variant(first_forehand="club_ace_holder"), Seat.W)
        deal = match.start_deal(rng=random.Random(seed))
        holder = next(s for s in Seat if Card.parse("AC") in deal.hand(s))
        assert deal.forehand == holder
        assert deal.current_player == holder


# -- whole_ask_after_trump -----------------------------------------------------------------------


def test_whole_ask_anyone_lets_the_trump_team_ask() -> None:
    script = SWEEP_TRICKS[0] + " | declare S AH 6H TD 7D"  # S keeps both its marriages
    default = make_deal(SWEEP_HANDS, "W", script)
    assert default.trump_team == Team.NS
    assert_refused(default, "ask-whole", "made trumps")
    deal = make_deal(SWEEP_HANDS, "W", script, Variant(whole_ask_after_trump="anyone"))
    assert "ask-whole" in legal(deal)
    drive(deal, "ask-whole")
    assert deal.phase == Phase.ANSWER
    assert legal(deal) == {"answer D", "answer C"}
    drive(deal, "answer D")
    assert deal.trump == Suit.S
    assert deal.result().marriage_points == (3, 0)


def test_whole_ask_nobody_after_trumps_even_for_the_other_team() -> None:
    default = make_deal(OTHER_TEAM_HANDS, "W", OTHER_TEAM_SCRIPT)
    assert default.trump_team == Team.EW and default.current_player == Seat.N
    assert "ask-whole" in legal(default)
    deal = make_deal(
        OTHER_TEAM_HANDS, "W", OTHER_TEAM_SCRIPT, Variant(whole_ask_after_trump="nobody")
    )
    assert "ask-whole" not in legal(deal)
    assert_refused(deal, "ask-whole", "trumps")


def test_whole_ask_nobody_still_allowed_before_trumps() -> None:
    deal = make_deal(SWEEP_HANDS, "W", SWEEP_TRICKS[0], Variant(whole_ask_after_trump="nobody"))
    assert deal.trump is None
    assert "ask-whole" in legal(deal)
    drive(deal, "ask-whole answer D")
    assert deal.trump == Suit.D


# -- must_overtrump ------------------------------------------------------------------------------


def test_must_overtrump_false_any_trump_when_void() -> None:
    # E trumped the 6D with the 8H; S (no diamonds) holds TH and 7H.
    assert legal(trump_deal("6D 8H")) == {"TH"}
    # Interpretation: without the obligation to overtrump S must still trump (3.2b "else any
    # trump"), so both trumps are legal and no other card.
    assert legal(trump_deal("6D 8H", Variant(must_overtrump=False))) == {"TH", "7H"}


def test_must_overtrump_false_does_not_change_following_a_trump_lead() -> None:
    # Interpretation: the switch is about trumping over a trump when void (3.2b); following
    # suit when trumps are led is 3.2a, which still says to beat.
    assert legal(trump_deal("QH", Variant(must_overtrump=False))) == {"AH"}


# -- must_trump_if_cannot_overtrump ----------------------------------------------------------------


def test_cannot_overtrump_then_any_card_when_switch_false() -> None:
    # E trumped with the AH; S (no diamonds) holds only lower trumps TH 7H.
    default = trump_deal("6D AH")
    assert legal(default) == {"TH", "7H"}
    deal = trump_deal("6D AH", Variant(must_trump_if_cannot_overtrump=False))
    assert legal(deal) == {str(c) for c in deal.hand(Seat.S)}
    assert len(legal(deal)) == 8


def test_cannot_overtrump_switch_false_still_trumps_an_untrumped_trick() -> None:
    # The 6D is not trumped yet: any trump beats it, so E can "overtrump" and must trump.
    deal = trump_deal("6D", Variant(must_trump_if_cannot_overtrump=False))
    assert legal(deal) == {"AH", "8H"}


# -- first_trick_ace -----------------------------------------------------------------------------


def test_first_trick_ace_on_leader_must_lead_an_ace() -> None:
    default = make_deal(SWEEP_HANDS, "W")
    assert legal(default) == {str(c) for c in SWEEP_HANDS[Seat.N]}
    deal = make_deal(SWEEP_HANDS, "W", variant=Variant(first_trick_ace="on"))
    assert legal(deal) == {"AS", "AH"}
    assert_refused(deal, "TS", "ace")
    # Only trick 1: N wins it and leads trick 2 freely.
    drive(deal, SWEEP_TRICKS[0])
    assert cards_legal(deal) == {str(c) for c in deal.hand(Seat.N)}


def test_first_trick_ace_on_leader_without_ace_leads_anything() -> None:
    hands = rotate(opp_sweep(0).hands, Seat.N)  # N: low spades and hearts, no ace
    assert not any(c.rank == Card.parse("AS").rank for c in hands[Seat.N])
    deal = Deal(hands, Seat.W, Variant(first_trick_ace="on"))
    assert legal(deal) == {str(c) for c in hands[Seat.N]}


def test_first_trick_ace_on_does_not_bind_followers() -> None:
    # N leads the AS; S holds no spade but AD AC: any card, not only an ace.
    deal = make_deal(SWEEP_HANDS, "W", "AS 6S", Variant(first_trick_ace="on"))
    assert deal.current_player == Seat.S
    assert legal(deal) == {str(c) for c in SWEEP_HANDS[Seat.S]}


# -- both_on_target ------------------------------------------------------------------------------


def test_both_on_target_continue_deals_again_until_one_team_alone() -> None:
    match = Match(Variant(both_on_target="continue"), Seat.E)
    for expected in [(4, 1), (5, 5), (9, 6), (10, 10)]:
        play_pattern(match, split_last(3))
        assert match.score == expected
    assert not match.is_draw
    assert match.winner is None
    assert not match.is_over()
    # Deal 5: dealer E, S leads; NS take only trick 1 (0 game points), EW 2 -> 12 -> 7.
    deal = play_pattern(match, take_first(0))
    assert deal.dealer == Seat.E and deal.forehand == Seat.S
    assert match.score == (10, 7)
    assert match.winner == Team.NS
    assert match.is_over()


def test_both_on_target_draw_is_the_default() -> None:
    match = Match(Variant(), Seat.E)
    for _ in range(4):
        play_pattern(match, split_last(3))
    assert match.score == (10, 10)
    assert match.is_draw and match.is_over() and match.winner is None


def test_a_match_refuses_a_variant_that_is_no_variant_at_once() -> None:
    """``Match("target=12")`` was taken, and failed at ``start_deal`` with "'str' object has no
    attribute 'target'"; ``Deal`` refuses it with a ``TypeError``, and so does ``Match`` now."""
    for bad in ("target=12", {"target": 12}):
        with pytest.raises(TypeError, match="variant must be a Variant, not "):
            Match(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="answer_steps must be a bool, not int"):
        Match(answer_steps=1)  # type: ignore[arg-type]
    assert Match(None).variant == Variant()
