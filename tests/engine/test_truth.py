"""Game values that can be 0 refuse ``bool()`` (issue 42): N, spades, the six and the six of
spades are all 0, and ``if suit:`` took spades for none (the likelihood weighed every deal 0
after partner named ♠; the terminal's help printed "S" for ♠). A test that reads one for truth
now fails where it runs."""

from __future__ import annotations

import pytest

from valtti.engine import Action, Card, Rank, Seat, Suit, Team


@pytest.mark.parametrize(
    "value", [Seat.N, Seat.W, Team.NS, Suit.S, Suit.C, Rank.SIX, Card(0), Card(35), Action(0)]
)
def test_a_game_value_has_no_truth(value: object) -> None:
    with pytest.raises(TypeError, match="has no truth value: compare it with None"):
        bool(value)
    with pytest.raises(TypeError):
        _ = value or None


def test_comparisons_and_membership_still_work() -> None:
    assert Suit.S == 0 and Suit.S in (Suit.S, Suit.H) and Suit.S is not None
    assert [s for s in Suit if s != Suit.S] == [Suit.H, Suit.D, Suit.C]
    assert sorted({Card(3), Card(0)}) == [Card(0), Card(3)]
