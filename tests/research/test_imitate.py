"""Imitation (research/imitate.py): a player's decisions gathered from the arena's deals, saved
and read back as data, and a network fitted to predict them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from valtti.engine import NUM_ACTIONS, Seat
from valtti.players.learned import QNetwork
from valtti.research.imitate import Decisions, fit, gather, play_deal
from valtti.table import Computer, Table, derive_seed


@pytest.fixture(scope="module")
def decisions() -> Decisions:
    return gather("heuristic", 80, seed=3)


def test_gathered_decisions_are_the_players_own_choices_among_legal_actions(
    decisions: Decisions,
) -> None:
    assert len(decisions) > 80 * 15
    bits = np.arange(NUM_ACTIONS, dtype=np.uint64)
    allowed = (decisions.legal[:, None] >> bits) & np.uint64(1)
    assert (allowed.sum(axis=1) >= 2).all()
    assert allowed[np.arange(len(decisions)), decisions.action].all()
    # The same deal again, as the arena deals it: the same choices, in order.
    again = play_deal("heuristic", seed=3, number=0)
    assert np.array_equal(again.action, decisions.action[: len(again)])
    assert np.array_equal(again.x, decisions.x[: len(again)])
    # …and they are among the actions the table played, in the order it played them.
    seats = {s: Computer("heuristic", derive_seed(3, "player", 0, "A", str(s))) for s in Seat}
    with Table(seats, derive_seed(3, "match", 0)) as table:
        table.run(max_deals=1)
        history = [int(a) for a in table.match.deals[0].history]
    played = iter(history)
    assert all(a in played for a in again.action.tolist())  # in order: a subsequence


def test_workers_gather_the_same_decisions_in_the_same_order() -> None:
    one = gather("heuristic", 4, seed=3, first=2)
    two = gather("heuristic", 4, seed=3, workers=2, first=2)
    assert np.array_equal(one.action, two.action) and np.array_equal(one.x, two.x)


def test_decisions_round_trip_and_a_bad_file_is_refused(
    decisions: Decisions, tmp_path: Path
) -> None:
    path = tmp_path / "d.npz"
    decisions.save(path)
    back = Decisions.load(path)
    assert np.array_equal(back.x, decisions.x)
    assert np.array_equal(back.legal, decisions.legal)
    assert np.array_equal(back.action, decisions.action)
    n = 5
    x, legal, action = decisions.x[:n], decisions.legal[:n], decisions.action[:n]
    cases = {
        "no-action": dict(x=x, legal=legal),
        "short-x": dict(x=x[:, :10], legal=legal, action=action),
        "out-of-range": dict(x=x, legal=legal, action=np.full(n, NUM_ACTIONS)),
        "illegal": dict(x=x, legal=np.zeros(n, np.uint64), action=action),
        "pickle": dict(x=np.array([object()] * n), legal=legal, action=action),
    }
    for name, arrays in cases.items():
        bad = tmp_path / f"{name}.npz"
        np.savez(bad, **arrays)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="is not a decisions file"):
            Decisions.load(bad)
    with pytest.raises(ValueError, match="no decisions file"):
        Decisions.load(tmp_path / "missing.npz")


def test_a_fitted_model_predicts_held_out_choices_better_than_chance_and_repeats(
    decisions: Decisions,
) -> None:
    first = fit(decisions, hidden=(64,), epochs=8, seed=1)
    assert isinstance(first.network, QNetwork)
    assert first.held_out == round(len(decisions) * 0.1)
    assert first.log_loss < first.uniform_log_loss - 0.15
    assert first.log_loss == min(loss for _, loss in first.curve)
    # Inputs never set in these decisions (the match score: single deals) weigh nothing.
    unseen = ~(decisions.x != 0).any(axis=0)
    assert unseen.any() and not first.network.layers[0][0][unseen].any()
    again = fit(decisions, hidden=(64,), epochs=8, seed=1)
    for (w, b), (w2, b2) in zip(first.network.layers, again.network.layers, strict=True):
        assert np.array_equal(w, w2) and np.array_equal(b, b2)
    with pytest.raises(ValueError):
        fit(decisions, held_out=1.5)
