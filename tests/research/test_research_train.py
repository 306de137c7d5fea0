"""``valtti train``: a tiny Deep Monte-Carlo run checkpoints, evaluates and resumes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from click.testing import CliRunner
from research_needs import require

from valtti.cli import main
from valtti.players import make_player
from valtti.players.learned import QNetwork, load_model
from valtti.research.train import self_play

TINY = ["--hidden", "8", "--eval-deals", "2", "--eval-against", "random", "--eval-every", "40"]


def test_self_play_returns_each_choice_with_its_deals_game_point_difference() -> None:
    rng = np.random.default_rng(0)
    net = QNetwork(
        [(rng.normal(size=(499, 4)), np.zeros(4)), (rng.normal(size=(4, 49)), np.zeros(49))]
    )
    batch = self_play(net.arrays(), deals=6, seed=3, epsilon=0.1, tables=3)
    assert batch.deals >= 6 and len(batch.actions) == len(batch.returns) == len(batch.observations)
    assert len(batch.actions) > 20 * batch.deals  # every decision with a choice
    # A deal pays one team what the other loses: the returns are whole points, both signs.
    assert set(np.unique(batch.returns)) <= set(range(-7, 8)) and batch.returns.min() < 0
    again = self_play(net.arrays(), deals=6, seed=3, epsilon=0.1, tables=3)
    assert np.array_equal(batch.actions, again.actions)


def test_a_tiny_training_checkpoints_and_resumes(tmp_path: Path) -> None:
    require("torch")
    run = tmp_path / "run"
    runner = CliRunner()
    first = runner.invoke(main, ["train", "--out", str(run), "--deals", "40", *TINY])
    assert first.exit_code == 0, first.output
    state = np.load(run / "state.npz", allow_pickle=False)
    deals, decisions, updates, rounds = state["counters"]
    assert deals >= 40 and decisions > 0 and updates > 0
    curve = json.loads((run / "curve.json").read_text())["curve"]
    assert [set(point["against"]) for point in curve] == [{"random"}]
    model = load_model(run / "model.npz")
    assert [w.shape for w, _ in model.layers] == [(499, 8), (8, 49)]
    assert make_player(f"learned:{run / 'model.npz'}").name.startswith("learned:")

    second = runner.invoke(main, ["train", "--out", str(run), "--deals", "100", "--resume", *TINY])
    assert second.exit_code == 0, second.output
    resumed = np.load(run / "state.npz", allow_pickle=False)["counters"]
    assert resumed[0] >= 100 and resumed[2] > updates and resumed[3] > rounds
    assert len(json.loads((run / "curve.json").read_text())["curve"]) > len(curve)
    assert not np.array_equal(load_model(run / "model.npz").layers[0][0], model.layers[0][0])


def test_train_refuses_a_resume_without_a_run_and_a_run_without_an_end(tmp_path: Path) -> None:
    require("torch")
    runner = CliRunner()
    nothing = runner.invoke(main, ["train", "--out", str(tmp_path), "--deals", "5", "--resume"])
    assert nothing.exit_code == 2 and "nothing to resume" in nothing.output
    endless = runner.invoke(main, ["train", "--out", str(tmp_path)])
    assert endless.exit_code == 2 and "--minutes or --deals" in endless.output


def test_self_play_in_local_processes(tmp_path: Path) -> None:
    require("torch")
    args = ["train", "--out", str(tmp_path), "--deals", "30", "--workers", "2", *TINY]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert np.load(tmp_path / "state.npz", allow_pickle=False)["counters"][0] >= 30
