"""``valtti train``: a tiny Deep Monte-Carlo run checkpoints, evaluates and resumes."""

from __future__ import annotations

import json
import math
import random
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from research_needs import require

from valtti.cli import main
from valtti.engine import Deal, Variant
from valtti.players import make_player
from valtti.players.learned import QNetwork, load_model
from valtti.research.episode import Episode
from valtti.research.selfplay import match_return, self_play
from valtti.research.train import TrainConfig

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


def finished_deal(seed: int) -> Deal:
    """A deal of seeded random play: seed 3 ends 4-0 in game points (tricks 8-1), seed 16 2-0
    with EW trickless (tricks 9-0)."""
    rng = random.Random(seed)
    episode = Episode(random.Random(seed), "deal")
    while not episode.is_over():
        mask = episode.legal_mask()
        episode.apply(rng.choice([a for a in range(49) if mask >> a & 1]))
    return episode.deal


def test_the_match_return_of_a_deal_counts_the_score_it_makes() -> None:
    variant = Variant()  # target 10, overshoot to 7
    four_nil = finished_deal(3)
    assert four_nil.result().game_points == (4, 0) and four_nil.result().tricks == (8, 1)
    # All game points: the deal's difference, whatever the score.
    assert match_return(four_nil, (6, 3), variant, 0.0) == (4.0, -4.0)
    # All match: 0-0 to 4-0 is worth the 4 points; 6-3 to 10-3 the 4 and the match (the target,
    # 10); 7-3 to 11, over the target, back to 7-3 nothing.
    assert match_return(four_nil, (0, 0), variant, 1.0) == (4.0, -4.0)
    assert match_return(four_nil, (6, 3), variant, 1.0) == (14.0, -14.0)
    assert match_return(four_nil, (7, 3), variant, 1.0) == (0.0, 0.0)
    assert match_return(four_nil, (6, 3), variant, 0.5) == (9.0, -9.0)
    # EW without a trick go to Porvoo (6 to 0): NS gain their 2 and EW's lost 6.
    porvoo = finished_deal(16)
    assert porvoo.result().game_points == (2, 0) and porvoo.result().tricks == (9, 0)
    assert match_return(porvoo, (3, 6), variant, 1.0) == (8.0, -8.0)
    # With target 12 winning is worth 12.
    assert match_return(four_nil, (8, 0), Variant(target=12), 1.0) == (16.0, -16.0)


def test_a_return_of_zero_is_plus_zero_for_both_teams() -> None:
    """EW's return was ``-points``: a drawn deal (seed 1: 1-1 in game points), or one that
    moves the score nowhere, gave EW -0.0, a zero with the sign of a loss (as
    ``episode.deal_returns`` once did)."""
    drawn = finished_deal(1)
    assert drawn.result().game_points == (1, 1)
    four_nil = finished_deal(3)
    for deal, before, weight in (
        (drawn, (0, 0), 0.0),
        (drawn, (0, 0), 0.5),
        (four_nil, (7, 3), 1.0),
    ):
        returns = match_return(deal, before, Variant(), weight)
        assert returns == (0.0, 0.0) and [math.copysign(1.0, r) for r in returns] == [1.0, 1.0]


def test_self_play_with_the_match_return_plays_the_same_and_pays_the_score() -> None:
    rng = np.random.default_rng(0)
    net = QNetwork(
        [(rng.normal(size=(499, 4)), np.zeros(4)), (rng.normal(size=(4, 49)), np.zeros(49))]
    )
    points = self_play(net.arrays(), deals=40, seed=5, epsilon=0.1, tables=4)
    match = self_play(net.arrays(), deals=40, seed=5, epsilon=0.1, tables=4, match_weight=1.0)
    # The return does not change the play, only what each decision is fitted to.
    assert np.array_equal(points.actions, match.actions)
    assert np.array_equal(points.observations, match.observations)
    assert not np.array_equal(points.returns, match.returns)
    # A match won pays the target: returns beyond any deal's 7 game points.
    assert np.abs(match.returns).max() > 7 >= np.abs(points.returns).max()
    with pytest.raises(ValueError, match="between 0 and 1"):
        TrainConfig(match_weight=1.5)


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


def test_training_starts_from_a_model_with_init(tmp_path: Path) -> None:
    require("torch")
    runner = CliRunner()
    start = tmp_path / "start.npz"
    rng = np.random.default_rng(1)
    QNetwork(
        [(rng.normal(size=(499, 6)), np.zeros(6)), (rng.normal(size=(6, 49)), np.zeros(49))]
    ).save(start)
    run = tmp_path / "run"
    args = ["train", "--out", str(run), "--deals", "40", "--init", str(start), *TINY]
    result = runner.invoke(main, [*args, "--match-weight", "0.5", "--replay-ratio", "2"])
    assert result.exit_code == 0, result.output
    # The start model's widths, not --hidden's 8; its weights moved on; a new run's counters.
    tuned = load_model(run / "model.npz")
    assert [w.shape for w, _ in tuned.layers] == [(499, 6), (6, 49)]
    initial = load_model(start).layers[0][0].astype(np.float32)
    assert not np.array_equal(tuned.layers[0][0], initial)
    assert np.abs(tuned.layers[0][0] - initial).max() < 0.1  # fine-tuned, not new
    counters = np.load(run / "state.npz", allow_pickle=False)["counters"]
    assert 40 <= counters[0] < 100
    config = json.loads((run / "curve.json").read_text())["config"]
    assert config["match_weight"] == 0.5 and config["replay_ratio"] == 2.0
    both = runner.invoke(main, [*args, "--resume"])
    assert both.exit_code == 2 and "--init is for a new run" in both.output
    bad = runner.invoke(main, [*args, "--match-weight", "2"])
    assert bad.exit_code == 2 and "--match-weight" in bad.output


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


def test_a_resumed_run_keeps_its_settings_unless_given_again(tmp_path: Path) -> None:
    require("torch")
    runner = CliRunner()
    run = tmp_path / "run"
    first = runner.invoke(
        main, ["train", "--out", str(run), "--deals", "40", "--match-weight", "0.5", *TINY]
    )
    assert first.exit_code == 0, first.output

    def config() -> dict[str, object]:
        return dict(json.loads((run / "curve.json").read_text())["config"])

    resumed = runner.invoke(main, ["train", "--out", str(run), "--deals", "60", "--resume", *TINY])
    assert resumed.exit_code == 0, resumed.output
    assert config()["match_weight"] == 0.5 and config()["eval_every"] == 40
    again = ["train", "--out", str(run), "--deals", "80", "--resume", "--epsilon", "0.2", *TINY]
    changed = runner.invoke(main, again)
    assert changed.exit_code == 0, changed.output
    assert config()["match_weight"] == 0.5 and config()["epsilon"] == 0.2
    # Settings that cannot be read are said so, and nothing is trained over them.
    curve = json.loads((run / "curve.json").read_text())
    curve["config"]["match_weight"] = "half"
    (run / "curve.json").write_text(json.dumps(curve))
    before = (run / "model.npz").read_bytes()
    bad = runner.invoke(main, ["train", "--out", str(run), "--deals", "120", "--resume", *TINY])
    assert bad.exit_code == 2 and "settings cannot be read" in bad.output
    assert (run / "model.npz").read_bytes() == before


def test_a_run_is_never_trained_over_and_bad_settings_are_refused(tmp_path: Path) -> None:
    require("torch")
    runner = CliRunner()
    run = tmp_path / "run"
    out = ["train", "--out", str(run)]
    first = runner.invoke(main, [*out, "--deals", "40", *TINY, "--eval-deals", "3"])
    assert first.exit_code == 0, first.output
    before = {name: (run / name).read_bytes() for name in ("model.npz", "state.npz", "curve.json")}
    # A new run into a run's folder: refused, the run untouched.
    again = runner.invoke(main, [*out, "--deals", "40", *TINY])
    assert again.exit_code == 2 and "holds a run already" in again.output
    # Resumed: its network's widths, a target it has not reached, its own evaluations.
    widths = runner.invoke(main, [*out, "--deals", "80", "--resume", "--hidden", "64"])
    assert widths.exit_code == 2 and "keeps its network's widths (8)" in widths.output
    reached = runner.invoke(main, [*out, "--deals", "10", "--resume"])
    assert reached.exit_code == 2 and "deals already" in reached.output
    assert {name: (run / name).read_bytes() for name in before} == before
    resumed = runner.invoke(main, [*out, "--deals", "80", "--resume"])
    assert resumed.exit_code == 0, resumed.output
    saved = json.loads((run / "curve.json").read_text())
    assert saved["config"]["eval_deals"] == 3 and saved["config"]["eval_against"] == ["random"]
    assert {p["against"]["random"]["pairs"] for p in saved["curve"]} == {3}
    # Settings out of range are refused before anything is done.
    new = ["train", "--out", str(tmp_path / "new"), "--deals", "5"]
    # An unknown --backend was refused after the run's folder was made: an empty one was left.
    bads = (["--eval-every", "0"], ["--epsilon", "2"], ["--hidden", "0"], ["--eval-deals", "0"])
    bads += (["--backend", "nonsense"],)
    for bad in bads:
        refused = runner.invoke(main, [*new, *bad])
        assert refused.exit_code == 2, (bad, refused.output)
    assert not (tmp_path / "new").exists()


def test_a_resume_refuses_a_checkpoint_that_is_not_one_and_changes_nothing(
    tmp_path: Path,
) -> None:
    """A damaged state.npz (cut short, another file, pickled data, another network's moments)
    is refused naming the file, as other refused resumes are; nothing is written."""
    require("torch")
    runner = CliRunner()
    run = tmp_path / "run"
    first = runner.invoke(main, ["train", "--out", str(run), "--deals", "40", *TINY])
    assert first.exit_code == 0, first.output
    state = run / "state.npz"
    good = state.read_bytes()
    arrays = dict(np.load(state, allow_pickle=False))

    def saved(**changed: object) -> bytes:
        np.savez(tmp_path / "made.npz", **{**arrays, **changed})
        return (tmp_path / "made.npz").read_bytes()

    damaged = {
        "cut short": (good[:1000], "the archive is damaged or cut short"),
        "text": (b"root:x:0:0:root:/root:/bin/sh\n", r"not an \.npz"),
        "pickled": (saved(counters=np.array([{}], dtype=object)), "counters holds Python objects"),
        "a model": ((run / "model.npz").read_bytes(), "it holds w0"),
        "widths": (saved(**{"adam0.exp_avg": np.zeros((3, 499), np.float32)}), r"\(3, 499\)"),
        "moments": (saved(**{"adam1.step": None}), "adam1.step holds Python objects"),
        "counters": (saved(counters=np.zeros(3, np.int64)), "counters is not 4 whole numbers"),
        "seconds": (saved(seconds=np.asarray(np.nan)), "seconds is not a time"),
    }
    files = ("model.npz", "state.npz", "curve.json")
    resume = ["train", "--out", str(run), "--deals", "80", "--resume"]
    for kind, (data, reason) in damaged.items():
        state.write_bytes(data)
        before = {name: (run / name).read_bytes() for name in files}
        refused = runner.invoke(main, resume)
        output = " ".join(refused.output.split())
        assert refused.exit_code == 2, (kind, refused.output)
        assert f"{state} is not a training checkpoint: " in output, (kind, output)
        assert re.search(reason, output), (kind, output)
        assert "allow_pickle" not in output and "Traceback" not in output
        assert {name: (run / name).read_bytes() for name in files} == before, kind
    state.unlink()
    missing = runner.invoke(main, resume)
    assert missing.exit_code == 2 and "nothing to resume" in missing.output
    assert "no state.npz" in missing.output
    # A curve.json without its curve: named too.
    state.write_bytes(good)
    curve = json.loads((run / "curve.json").read_text())
    (run / "curve.json").write_text(json.dumps({"config": curve["config"]}))
    no_curve = runner.invoke(main, resume)
    assert no_curve.exit_code == 2 and "the run's curve cannot be read" in no_curve.output
    # The whole file again: the run goes on.
    (run / "curve.json").write_text(json.dumps(curve))
    resumed = runner.invoke(main, resume)
    assert resumed.exit_code == 0, resumed.output


def test_an_evaluation_player_or_a_folder_that_cannot_be_had_is_refused_before_training(
    tmp_path: Path,
) -> None:
    """An unknown --eval-against player was found only at the first evaluation, after a round
    of self-play had been trained and checkpointed; a folder that cannot be made gave a
    traceback after a round."""
    require("torch")
    runner = CliRunner()
    run = tmp_path / "run"
    args = ["train", "--out", str(run), "--deals", "40", "--hidden", "8", "--eval-deals", "2"]
    for players in ("random,nonsense", f"learned:{tmp_path / 'none.npz'}"):
        refused = runner.invoke(main, [*args, "--eval-against", players])
        assert refused.exit_code == 2, refused.output
        assert "--eval-against" in refused.output and "player " in refused.output
        assert not run.exists()
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    out = blocker / "run"
    cannot = runner.invoke(main, [*args, "--eval-against", "random", "--out", str(out)])
    assert cannot.exit_code == 2, cannot.output
    assert f"{out}: the run's folder cannot be made (Not a directory)" in cannot.output


def test_an_empty_run_folder_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--out ""`` was taken as the current folder: the run's files were written there."""
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(main, ["train", "--out", "", "--deals", "40", *TINY])
    assert out.exit_code == 2, out.output
    assert "Invalid value for '--out': an empty path" in out.output
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("option", "entries"),
    [("--eval-against", ","), ("--eval-against", "random,,heuristic"), ("--hidden", "8,,8")],
)
def test_an_empty_entry_in_a_list_is_refused(tmp_path: Path, option: str, entries: str) -> None:
    """``--eval-against ,`` trained with no opponent and printed evaluations with no figures
    ("40 deals, 0 s: "); an empty entry between two players was dropped unsaid."""
    run = tmp_path / "run"
    args = ["train", "--out", str(run), "--deals", "40", *TINY, option, entries]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 2, out.output
    assert f"Invalid value for '{option}': {entries!r} has an empty entry" in out.output
    assert not run.exists()


def test_an_evaluation_of_one_deal_pair_is_said_without_an_interval(tmp_path: Path) -> None:
    """One pair has no confidence interval: printing its missing bounds ended the run with a
    traceback after the first round had been trained."""
    require("torch")
    args = ["train", "--out", str(tmp_path / "run"), "--deals", "40", *TINY, "--eval-deals", "1"]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0, out.output
    assert re.search(
        r" deals, \d+ s: random [+-]\d\.\d{3} \(no interval from 1 pair\)\n", out.output
    )
