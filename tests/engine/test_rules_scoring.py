"""RULES.md sections 1.3, 5 and 6: card points, a deal's game points, the match score."""

from __future__ import annotations

import random

import pytest

from helpers import (
    CASE_11_HANDS,
    CASE_11_SCRIPT,
    cs,
    make_deal,
    opp_sweep,
    play_pattern,
    rotate,
    split_last,
    sweep,
    take_first,
    tokens,
    trick_points,
)
from valtti.engine import (
    CARDS,
    DECK_POINTS,
    HALF_DECK_POINTS,
    LITTLE_TRUMP_POINTS,
    TRUMP_MARRIAGE_POINTS,
    Deal,
    DealResult,
    Match,
    Seat,
    Suit,
    Team,
    Variant,
    marriage_worth,
    match_outcome,
    match_score_after,
    score_deal,
    takes_victory,
)

# Two deals found by random legal play (no declarations), kept as they were played.
DEAL_60_60 = (
    ("TH 9H 6H TD KD QD AC JC 9C", "KS JS JH AD 6D KC QC 8C 6C",
     "AS 9S 7S 6S KH 8H 7H JD 8D", "TS QS 8S AH QH 9D 7D TC 7C"),
    "9C QC 7H TC TS QD JS AS 9S QS JC KS AD 8D 9D TD JH KH AH 6H 7D KD 6D JD TH 6C 8H QH"
    " AC 8C 6S 7C 9H KC 7S 8S",
)  # fmt: skip
DEAL_61_59 = (
    ("KS JS 7S 9H AD JD 8D JC 8C", "QS 9S TH QH 8H 7H TD QD KC",
     "AS 8S AH KH 6H 9D AC TC QC", "TS 6S JH KD 7D 6D 9C 7C 6C"),
    "KS 9S AS TS KH JH 9H TH TD 9D KD AD JS QS 8S 6S 8H AH 7D 8C QC 6C JC KC QD 6H 6D JD QH"
    " AC 7C 8D 7H TC 9C 7S",
)  # fmt: skip


def played(deal_spec: tuple[tuple[str, ...], str]) -> Deal:
    hands, script = deal_spec
    return make_deal(tuple(cs(h) for h in hands), "W", script)


def result(game_points: tuple[int, int], tricks: tuple[int, int] = (5, 4)) -> DealResult:
    """A deal result with the given game points (for score_deal, which reads only these)."""
    return DealResult(tricks, (60, 60), (0, 0), Team.NS, game_points)


# -- 1.3 and 5: card points, game points ------------------------------------------------------


def test_card_points_and_deck_total() -> None:
    points = {str(c)[0]: c.points for c in CARDS}
    assert points == {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0, "6": 0}
    assert sum(c.points for c in CARDS) == 120 == DECK_POINTS == 2 * HALF_DECK_POINTS


def test_the_engine_scores_the_victory_point_and_marriages_in_one_place() -> None:
    """RULES.md 5.1 and 4.4 as the engine's functions, which the players ask."""
    assert [takes_victory(p) for p in (0, 59, 60, 61, 120)] == [False, False, False, True, True]
    assert marriage_worth(None) == TRUMP_MARRIAGE_POINTS == 2
    assert all(marriage_worth(suit) == LITTLE_TRUMP_POINTS == 1 for suit in Suit)


@pytest.mark.parametrize("spec", [DEAL_60_60, DEAL_61_59], ids=["60-60", "61-59"])
def test_last_trick_carries_no_extra_card_points(spec: tuple[tuple[str, ...], str]) -> None:
    deal = played(spec)
    assert deal.is_over()
    r = deal.result()
    assert r.card_points == trick_points(deal)
    assert sum(r.card_points) == 120
    assert r.last == deal.tricks[8].winner.team
    assert sum(r.tricks) == 9
    assert r.tricks[Team.NS] == sum(t.winner.team == Team.NS for t in deal.tricks)


def test_60_60_gives_nobody_the_victory_point() -> None:
    deal = played(DEAL_60_60)
    r = deal.result()
    assert trick_points(deal) == (60, 60)
    assert r.card_points == (60, 60)
    assert r.marriage_points == (0, 0)
    assert r.last == Team.NS
    assert r.game_points == (1, 0)  # the last trick only
    assert r.victory is None


def test_more_than_60_gives_the_victory_point() -> None:
    deal = played(DEAL_61_59)
    r = deal.result()
    assert trick_points(deal) == (61, 59)
    assert r.last == Team.EW
    assert r.game_points == (1, 1)  # NS: victory; EW: last
    assert r.victory == Team.NS


def test_game_points_are_marriages_plus_last_plus_victory() -> None:
    deal = make_deal(rotate(CASE_11_HANDS, Seat.N), "W", CASE_11_SCRIPT)
    r = deal.result()
    assert r.tricks == (7, 2)
    assert r.card_points == (64, 56) == trick_points(deal)
    assert r.marriage_points == (1, 2)
    assert r.last == Team.NS
    assert r.game_points == (1 + 1 + 1, 2 + 0 + 0)


def test_game_points_count_so_far_during_the_deal() -> None:
    deal = make_deal(rotate(CASE_11_HANDS, Seat.N), "W")
    for n, action in enumerate(tokens(CASE_11_SCRIPT)):
        deal.apply(action)
        if n == 4:  # after E's declaration
            assert deal.result().game_points == (0, 2)
            assert deal.result().last is None
    assert deal.result().game_points == (3, 2)


# -- 6: the match score ----------------------------------------------------------------------------


def test_score_adds_game_points_when_not_over_target() -> None:
    match = Match(Variant(), Seat.E)
    assert match.score == (0, 0)
    play_pattern(match, split_last(3))  # S leads: NS 4, EW 1
    assert match.score == (4, 1)
    play_pattern(match, split_last(2))  # W leads: EW 3, NS 1
    assert match.score == (5, 4)
    ds = match.deal_scores
    assert [(d.before, d.game_points, d.after) for d in ds] == [
        ((0, 0), (4, 1), (4, 1)),
        ((4, 1), (1, 3), (5, 4)),
    ]
    assert not any(d.porvoo[t] or d.overshoot[t] for d in ds for t in Team)
    assert match.winner is None and not match.is_over()


def test_team_without_a_trick_goes_to_porvoo() -> None:
    match = Match(Variant(), Seat.E)
    play_pattern(match, split_last(3))  # S leads: NS 4, EW 1
    assert match.score == (4, 1)
    play_pattern(match, opp_sweep(0))  # W leads, NS take every trick: NS +2, EW 0 tricks
    assert match.score == (6, 0)
    ds = match.deal_scores[-1]
    assert ds.porvoo == (False, True)
    assert ds.after == (6, 0)


def test_porvoo_from_a_high_score() -> None:
    # EW at 9 take no trick: 0, not 9 and not 7.
    after = score_deal((3, 9), result((4, 0), tricks=(9, 0)), Variant())
    assert after.after == (7, 0)
    assert after.porvoo == (False, True)
    assert after.overshoot == (False, False)


def test_over_target_becomes_7() -> None:
    s = score_deal((8, 6), result((3, 4)), Variant())
    assert s.after == (7, 10)
    assert s.overshoot == (True, False)
    assert s.porvoo == (False, False)
    s = score_deal((10, 0), result((1, 1)), Variant())  # 11 is over 10 too
    assert s.after == (7, 1)


def test_exactly_on_target_wins_and_the_match_ends() -> None:
    match = Match(Variant(), Seat.W)
    play_pattern(match, sweep(3))  # N leads: NS 5
    assert match.score == (5, 0)
    play_pattern(match, opp_sweep(3))  # E leads: NS 5 more
    assert match.score == (10, 0)
    assert match.winner == Team.NS
    assert not match.is_draw
    assert match.is_over()
    with pytest.raises(ValueError):
        match.start_deal(rotate(sweep(0).hands, Seat.S))


def _both_on_target(variant: Variant) -> Match:
    match = Match(variant, Seat.E)
    for expected in [(4, 1), (5, 5), (9, 6), (10, 10)]:
        play_pattern(match, split_last(3))
        assert match.score == expected
    return match


def test_both_exactly_on_target_after_the_same_deal_is_a_draw() -> None:
    match = _both_on_target(Variant())
    assert match.deal_scores[-1].before == (9, 6)
    assert match.winner is None
    assert match.is_draw
    assert match.is_over()
    with pytest.raises(ValueError):
        match.start_deal(rotate(sweep(0).hands, Seat.S))


def test_porvoo_and_overshoot_never_hit_the_same_team() -> None:
    for pattern in [sweep(3), opp_sweep(3), take_first(3), split_last(3)]:
        match = Match(Variant(), Seat.W)
        deal = play_pattern(match, pattern)
        r = deal.result()
        for team in Team:
            if r.tricks[team] == 0:
                assert r.card_points[team] == 0
                assert r.marriage_points[team] == 0
                assert r.last != team
                assert r.game_points[team] == 0
                assert match.deal_scores[-1].porvoo[team]
                assert not match.deal_scores[-1].overshoot[team]


def test_next_deal_starts_only_when_this_one_is_finished() -> None:
    match = Match(Variant(), Seat.W)
    match.start_deal(rotate(sweep(0).hands, Seat.N))
    with pytest.raises(ValueError):
        match.start_deal(rotate(sweep(0).hands, Seat.E))


def test_a_deal_summary_says_how_the_deal_was_scored() -> None:
    """``deal_summary`` carries the facts a front end explains a deal's end with (6.1, 6.2):
    the score before, the last trick's and the victory's team, Porvoo and overshoot."""
    match = Match()
    rng = random.Random(31)
    seen = {"porvoo": False, "overshoot": False}
    while not match.is_over() and len(match.deals) < 60:
        deal = match.start_deal(rng=rng)
        in_play = match.deal_summary(len(match.deals) - 1)
        assert in_play["before"] == Team.named(match.score)
        assert in_play["porvoo"] == in_play["overshoot"] == {"NS": False, "EW": False}
        while not deal.is_over():
            match.apply(rng.choice(deal.legal_actions()))
        index = len(match.deals) - 1
        summary, scored, result = match.deal_summary(index), match.deal_scores[index], deal.result()
        assert summary["before"] == Team.named(scored.before)
        assert summary["score"] == Team.named(scored.after)
        assert summary["porvoo"] == Team.named(scored.porvoo)
        assert summary["overshoot"] == Team.named(scored.overshoot)
        assert summary["last"] == (None if result.last is None else str(result.last))
        assert summary["victory"] == (None if result.victory is None else str(result.victory))
        for team in Team:
            made = sum(m["points"] for m in summary["marriages"] if m["team"] == str(team))
            made += (summary["last"] == str(team)) + (summary["victory"] == str(team))
            assert made == summary["game_points"][str(team)]
            seen["porvoo"] |= scored.porvoo[team]
            seen["overshoot"] |= scored.overshoot[team]
    assert all(seen.values()), seen  # the seed's match shows both


@pytest.mark.parametrize(
    ("score", "points", "took", "variant", "after", "outcome"),
    [
        ((3, 4), (2, 1), (True, True), Variant(), (5, 5), None),  # 6.2: adding up
        ((9, 6), (4, 0), (True, False), Variant(), (7, 0), None),  # 6.2 overshoot, 6.1 Porvoo
        ((8, 9), (2, 0), (True, True), Variant(), (10, 9), "NS"),  # 6.3: exactly on target
        ((9, 6), (0, 4), (True, True), Variant(), (9, 10), "EW"),
        ((9, 6), (1, 4), (True, True), Variant(), (10, 10), "draw"),  # both on it
        ((9, 6), (1, 4), (True, True), Variant(both_on_target="continue"), (10, 10), None),
        ((9, 9), (2, 3), (True, True), Variant(target=12), (11, 12), "EW"),
    ],
)
def test_what_a_deal_does_to_the_match(
    score: tuple[int, int],
    points: tuple[int, int],
    took: tuple[bool, bool],
    variant: Variant,
    after: tuple[int, int],
    outcome: str | None,
) -> None:
    """RULES.md 6.1 to 6.3 as one engine function (the heuristic player's, too), agreeing
    with ``score_deal`` and the match's own outcome."""
    assert match_score_after(score, points, took, variant) == (after, outcome)
    assert match_outcome(after, variant) == outcome
    result = DealResult((int(took[0]), int(took[1])), (0, 0), (0, 0), None, points)
    scored = score_deal(score, result, variant)
    assert (scored.after, scored.outcome) == (after, outcome)
