"""Match equity (players/equity.py): bounds, symmetry, the target, and overshoot."""

from __future__ import annotations

import pytest

from valtti.engine import Variant
from valtti.players.equity import match_equity, outcomes

VARIANTS = [
    Variant(),
    Variant(target=12),
    Variant(both_on_target="continue"),
    Variant(target=12, both_on_target="continue"),
]


def test_the_shipped_table_is_a_symmetric_distribution() -> None:
    table = dict(outcomes())
    assert sum(table.values()) == pytest.approx(1.0)
    assert all(p > 0 for p in table.values())
    for (ns, ew, a, b), p in table.items():
        assert table[(ew, ns, b, a)] == pytest.approx(p)
        assert a or ns == 0  # a team without tricks makes no game points (RULES.md 6.4)


@pytest.mark.parametrize("variant", VARIANTS, ids=str)
def test_bounds_symmetry_and_the_target(variant: Variant) -> None:
    equity = match_equity(variant)
    t = variant.target
    for a in range(t + 1):
        for b in range(t + 1):
            v = equity((a, b))
            assert -1.0 <= v <= 1.0
            assert v == pytest.approx(-equity((b, a)), abs=1e-12)
            if a == t and b != t:
                assert v == 1.0  # on target alone: the match is won
            elif a != t and b == t:
                assert v == -1.0
            elif a != t:
                assert -1.0 < v < 1.0
    assert equity((0, 0)) == pytest.approx(0.0)
    if variant.both_on_target == "draw":
        assert equity((t, t)) == 0.0


@pytest.mark.parametrize("variant", VARIANTS, ids=str)
def test_more_points_are_better_below_the_overshoot_score(variant: Variant) -> None:
    equity = match_equity(variant)
    for b in range(variant.target):
        for a in range(variant.overshoot_to - 1):
            assert equity((a + 1, b)) > equity((a, b))
            assert equity((b, a + 1)) < equity((b, a))


def test_near_the_target_fewer_points_are_worth_more() -> None:
    equity = match_equity(Variant())
    # From (9, 5): one game point wins; three overshoot to 7.
    assert equity((10, 5)) > equity((7, 5))
    assert equity((7, 5)) < equity((9, 5))
    # From (8, 5), two points win and three overshoot.
    assert equity((10, 5)) > equity((7, 5))
    assert match_equity(Variant(target=12))((12, 5)) > match_equity(Variant(target=12))((7, 5))


def test_equity_is_cached_per_rule_and_refuses_other_scores() -> None:
    assert match_equity(Variant()) is match_equity(Variant(first_trick_ace="on"))
    assert match_equity(Variant()) is not match_equity(Variant(target=12))
    with pytest.raises(ValueError):
        match_equity(Variant())((11, 0))
    with pytest.raises(ValueError):
        match_equity(Variant())((-1, 0))
