"""``valtti leaderboard`` on a tiny board: two cheap players, two deal pairs; resumed, grown and
refused as it says; its margins checked on figures worked by hand and on a synthetic board; the
sequential test's verdicts and error rates."""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path
from unittest.mock import ANY

import pytest
from click.testing import CliRunner

from valtti.arena import run_arena
from valtti.arena.leaderboard import Board, play_leaderboard, report
from valtti.arena.ratings import margins
from valtti.arena.sequential import Sprt
from valtti.cli import main
from valtti.engine import Variant


def _run(tmp_path: Path, *extra: str) -> tuple[int, str]:
    args = [
        "leaderboard",
        "--no-shipped",
        "--deals",
        "2",
        "--backend",
        "serial",
        "--state",
        str(tmp_path / "state.json"),
        "--out",
        str(tmp_path / "LEADERBOARD.md"),
        *extra,
    ]
    result = CliRunner().invoke(main, args)
    return result.exit_code, result.output


def test_a_tiny_leaderboard_is_played_kept_and_written(tmp_path: Path) -> None:
    strengths = tmp_path / "strengths.json"
    status, output = _run(
        tmp_path,
        "--players",
        "random,heuristic",
        "--strengths",
        str(strengths),
        "--reference",
        "heuristic",
        "--redraws",  # raw duplicate: the table's figure is the arena's mean
        "0",
    )
    assert status == 0, output
    state = json.loads((tmp_path / "state.json").read_text())
    assert state["players"] == ["random", "heuristic"] and state["runs"] == 1
    (pairing,) = state["pairings"]
    assert pairing["players"] == ["random", "heuristic"] and set(pairing["pairs"]) == {"0", "1"}
    # the pairs are the evaluation set's: the arena on the same seed gives the same difference
    arena = run_arena(["random", "heuristic"], 2, seed=2026, backend="serial", max_deals=1)
    pairs = pairing["pairs"].values()
    mean = sum((a - b) / 2 for a, b in pairs) / 2
    assert arena.pairings[0].difference.mean == pytest.approx(mean)
    table = (tmp_path / "LEADERBOARD.md").read_text()
    row = re.search(r"^\| random \| ([+-][\d.]+) \| \[.*\] \| (\d+)% of 2 \|", table, re.M)
    assert row is not None
    won = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a, b in pairs)
    assert int(row[2]) == round(100 * won / 2)
    assert float(row[1]) == pytest.approx(mean, abs=0.005)  # one pairing: its mean
    assert "| heuristic | 0 (the reference) | – |" in table
    assert "Players: random, heuristic. Not on it (not yet played): beginner, club, quick" in table
    assert "Every pairing is complete: 1 pairing of 2 deal pairs each." in table
    assert "Command: `valtti leaderboard --players random,heuristic --no-shipped" in table
    assert re.search(
        r"Date: \d{4}-\d\d-\d\d \d\d:\d\d UTC; played in .* over 1 run, on one process: "
        r"[\d.]+ CPU hours\.",
        table,
    )
    # The strengths the levels read: the table's figures, with its date and command.
    written = json.loads(strengths.read_text())
    assert written["reference"] == "heuristic" and written["date"] in table
    assert written["command"] in table
    assert written["players"] == [
        {"player": "random", "points": round(mean, 3), "low": ANY, "high": ANY},
        {"player": "heuristic", "points": 0.0, "low": None, "high": None},
    ]
    low, high = written["players"][0]["low"], written["players"][0]["high"]
    assert f"[{low:+.2f}, {high:+.2f}]" in table


def test_it_goes_on_from_its_state_and_plays_only_what_is_missing(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    first = play_leaderboard(["random", "heuristic"], 2, state, backend="serial", redraws=0)
    kept = first.pairs[("random", "heuristic")]
    counted: list[tuple[int, int]] = []
    again = play_leaderboard(
        ["random"],
        2,
        state,
        backend="serial",
        redraws=0,
        progress=lambda d, t: counted.append((d, t)),
    )
    assert again.runs == 2 and counted == [(0, 0)]  # nothing was missing
    grown = play_leaderboard(
        ["learned"],
        2,
        state,
        backend="serial",
        redraws=0,
        progress=lambda d, t: counted.append((d, t)),
    )
    assert grown.players == ["random", "heuristic", "learned"]
    assert counted[-1] == (4, 4)  # the new player met the two kept: 2 pairings of 2 pairs
    assert grown.pairs[("random", "heuristic")] == kept
    assert Board.from_json(state.read_text()).pairs == grown.pairs
    assert "3 pairings of 2 deal pairs" in report(grown)


def test_a_state_of_other_settings_or_no_state_at_all_is_refused(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    play_leaderboard(["random", "heuristic"], 2, state, backend="serial")
    before = state.read_text()
    with pytest.raises(ValueError, match="holds a leaderboard of seed 2026, 2 deal pairs"):
        play_leaderboard(["random"], 3, state, backend="serial")
    with pytest.raises(ValueError, match="holds a leaderboard of seed 2026"):
        play_leaderboard(["random"], 2, state, seed=7, backend="serial")
    assert state.read_text() == before
    state.write_text("{}")
    with pytest.raises(ValueError, match="not a leaderboard state: version None"):
        play_leaderboard(["random"], 2, state, backend="serial")
    status, output = _run(tmp_path, "--players", "random,nobody", "--state", str(tmp_path / "n"))
    assert status == 2 and "player 'nobody': unknown player" in output
    status, output = _run(tmp_path, "--players", "random", "--state", str(tmp_path / "m"))
    assert status == 2 and "at least two players" in output
    status, output = _run(tmp_path, "--players", "random,heuristic", "--out", "/nowhere/L.md")
    assert status == 2 and "Invalid value for --out: /nowhere is no folder" in output
    assert (tmp_path / "state.json").read_text() == "{}"  # refused before anything


def test_a_partial_board_says_so_and_rates_against_its_first_player() -> None:
    board = Board(2026, 3, Variant(), ["a", "b"])
    board.pairs[("a", "b")] = {0: (3, 1), 1: (2, 2)}
    text = report(board)  # no heuristic on this board: the first player is the reference
    assert "**Partial**: 0 of 1 pairings complete, 1 of 3 deal pairs still to play." in text
    assert "| a | 0 (the reference) | – | 75% of 2 |" in text
    assert "| b | -0.50 |" in text  # (1 - 3) / 2 and (2 - 2) / 2, the mean of b less a
    assert text.index("| a |") < text.index("| b |")


def test_margins_on_figures_worked_by_hand() -> None:
    # One pairing: its mean, and its standard error from its variance (its own: the pooled).
    diffs = [1.0, 0.0, 2.0, 1.0, 1.0, 0.0, 2.0, 1.0, 1.0, 1.0]
    zero, one = margins(2, {(0, 1): diffs}, anchor=1)
    assert one is not None and (one.value, one.error) == (0.0, 0.0)
    assert zero is not None and zero.value == pytest.approx(1.0)
    assert zero.error == pytest.approx(math.sqrt(0.4444444 / 10), rel=1e-5)
    assert zero.low == pytest.approx(1.0 - 1.959964 * zero.error)
    # A player no pairing joins to the reference has no figure.
    assert margins(3, {(0, 1): diffs}, anchor=0)[2] is None


def test_margins_recover_known_differences_with_intervals_that_hold() -> None:
    """Synthetic pairings of four players with known strengths and the pairs' noise of real
    ones (sd 1.5): the fit finds them, and its 95 % intervals hold in about 95 % of boards."""
    import random

    true = [0.0, 0.5, 1.0, -0.3]
    held, boards = 0, 200
    for seed in range(boards):
        rng = random.Random(seed)
        pairs = {
            (i, j): [true[i] - true[j] + rng.gauss(0, 1.5) for _ in range(40)]
            for i in range(4)
            for j in range(i + 1, 4)
        }
        fitted = margins(4, pairs, anchor=0)
        held += all(
            m is not None and m.low <= t <= m.high
            for m, t in zip(fitted[1:], true[1:], strict=True)
        )
    # Three intervals each holding 95 %: all three about 0.86 of the time, well within 0.78-0.93.
    assert 0.78 <= held / boards <= 0.93, held


def test_the_sequential_test_answers_with_its_error_rates() -> None:
    """Pairs of sd 1.5 with a true difference of 0, 0.3 or -0.3 game points a deal: the test
    says "even", "first" or "second", wrongly rarely (α = β = 0.05), and in fewer pairs than a
    fixed run that could tell the same (about 200)."""
    import random

    test = Sprt(0.0, 0.3)
    for truth, right in ((0.0, "even"), (0.3, "first"), (-0.3, "second")):
        verdicts, lengths = [], []
        for seed in range(100):
            rng = random.Random(seed)
            pairs: list[float] = []
            verdict = None
            while verdict is None and len(pairs) < 2000:
                pairs.append(truth + rng.gauss(0, 1.5))
                verdict = test.verdict(pairs)
            verdicts.append(verdict)
            lengths.append(len(pairs))
        wrong = sum(v != right for v in verdicts)
        assert wrong <= 12, (truth, wrong)  # about 5 % (and 0 at the midpoint's far side)
        assert sum(lengths) / len(lengths) < 400, (truth, sum(lengths) / len(lengths))
    with pytest.raises(ValueError, match="0 ≤ low < high"):
        Sprt(0.3, 0.3)


def test_background_starts_a_process_of_its_own(tmp_path: Path) -> None:
    status, output = _run(tmp_path, "--players", "random,heuristic", "--background")
    assert status == 0, output
    found = re.search(r"running as process (\d+)", output)
    assert found is not None
    pid = int(found[1])
    _, code = os.waitpid(pid, 0)  # the test's own child: waited for, not slept on
    assert os.waitstatus_to_exitcode(code) == 0
    table = (tmp_path / "LEADERBOARD.md").read_text()
    # No club player on this board: the first player is the reference.
    assert "| random | 0 (the reference) |" in table and "--background" not in table
    assert "written to" in (tmp_path / "state.json.log").read_text()


@pytest.mark.slow
def test_the_leaderboard_on_a_local_cluster_of_two_ray_nodes(tmp_path: Path) -> None:
    """A Ray cluster of two nodes on this machine (a head and a worker, each a raylet of its
    own, as on two machines): the leaderboard plays there what it plays here, says where it
    played, and goes on from its state as it does here."""
    import shutil
    import subprocess
    import sys

    ray = shutil.which("ray", path=str(Path(sys.executable).parent))
    if ray is None:
        pytest.skip("Ray is not installed (the test extras install it)")
    folder = Path(f"/tmp/ray-valtti-{os.getpid()}")  # a short path: Ray's sockets live there
    env = {**os.environ, "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
    port = "6397"
    common = ["--node-ip-address=127.0.0.1", "--num-cpus=1", "--disable-usage-stats"]
    head = [ray, "start", "--head", f"--port={port}", "--include-dashboard=false"]
    subprocess.run(
        [*head, f"--temp-dir={folder}", *common], env=env, check=True, capture_output=True
    )
    try:
        worker = [ray, "start", f"--address=127.0.0.1:{port}", *common]
        subprocess.run(worker, env=env, check=True, capture_output=True)
        args = [
            "--players",
            "random,heuristic",
            "--backend",
            "ray",
            "--address",
            f"127.0.0.1:{port}",
        ]
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("RAY_AUTH_MODE", "disabled")
            status, output = _run(tmp_path, *args)
            assert status == 0, output
            table = (tmp_path / "LEADERBOARD.md").read_text()
            assert f"on a Ray cluster at 127.0.0.1:{port}" in table
            # A pair lost (a run stopped before it): the next run plays it alone.
            state = json.loads((tmp_path / "state.json").read_text())
            del state["pairings"][0]["pairs"]["1"]
            (tmp_path / "state.json").write_text(json.dumps(state))
            status, output = _run(tmp_path, *args)
            assert status == 0 and "1 of 1 deal pairs played" in output, output
            on_cluster = Board.from_json((tmp_path / "state.json").read_text())
    finally:
        subprocess.run([ray, "stop", "--force"], env=env, capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
    here = play_leaderboard(["random", "heuristic"], 2, tmp_path / "here.json", backend="serial")
    assert on_cluster.pairs == here.pairs  # the same deals, the same players' seeds
