"""``valtti leaderboard`` on a tiny board: two cheap players, two deal pairs; resumed, grown and
refused as it says; its ratings (Bradley–Terry) checked on figures worked by hand."""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from valtti.arena import run_arena
from valtti.arena.leaderboard import Board, play_leaderboard, report
from valtti.arena.ratings import bradley_terry, ratings
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
    status, output = _run(tmp_path, "--players", "random,heuristic")
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
    row = re.search(r"^\| random \| ([+-]\d+) \|.*\| (\d+)% of 2 \| ([+-][\d.]+) ", table, re.M)
    assert row is not None
    won = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a, b in pairs)
    assert int(row[2]) == round(100 * won / 2)
    assert float(row[3]) == pytest.approx(mean, abs=0.005)
    assert "| heuristic | +0 |" in table and "0 (the reference)" in table
    assert "Players: random, heuristic. Not on it (not yet played): learned" in table
    assert "Every pairing is complete: 1 pairing of 2 deal pairs each." in table
    assert "Command: `valtti leaderboard --players random,heuristic --no-shipped" in table
    assert re.search(r"Date: \d{4}-\d\d-\d\d \d\d:\d\d UTC; played in .* over 1 run\.", table)


def test_it_goes_on_from_its_state_and_plays_only_what_is_missing(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    first = play_leaderboard(["random", "heuristic"], 2, state, backend="serial")
    kept = first.pairs[("random", "heuristic")]
    counted: list[tuple[int, int]] = []
    again = play_leaderboard(
        ["random"], 2, state, backend="serial", progress=lambda d, t: counted.append((d, t))
    )
    assert again.runs == 2 and counted == [(0, 0)]  # nothing was missing
    grown = play_leaderboard(
        ["learned"], 2, state, backend="serial", progress=lambda d, t: counted.append((d, t))
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
    board.pairs[("a", "b")] = {0: (3, 1)}
    text = report(board)  # no heuristic on this board: the first player is the reference
    assert "**Partial**: 0 of 1 pairings complete, 2 of 3 deal pairs still to play." in text
    assert "| a | +0 | [+0, +0] | 100% of 1 | 0 (the reference) |" in text
    assert "| b | -191 |" in text  # 1 win and the virtual draw: 400 log10(1.5 / 0.5)
    assert text.index("| a |") < text.index("| b |")


def test_bradley_terry_on_figures_worked_by_hand() -> None:
    # 3 wins and 1 loss, with the one virtual draw: strength ratio (3 + 0.5) / (1 + 0.5)
    (zero, other) = bradley_terry(2, {(0, 1): [1, 1, 1, 0]}, anchor=1)
    assert other == 0 and zero == pytest.approx(400 * math.log10(3.5 / 1.5))
    # even players rate even, whatever the anchor; a draw is half a win each way
    even = bradley_terry(3, {(0, 1): [1, 0], (1, 2): [0.5, 0.5], (0, 2): [0, 1]}, anchor=2)
    assert even == pytest.approx([0, 0, 0], abs=1e-6)
    # the interval holds the rating, and the same games give the same intervals
    games = {(0, 1): [1, 1, 0.5, 0, 1, 1], (0, 2): [1.0] * 6, (1, 2): [1, 1, 1, 0, 1, 0.5]}
    rated = ratings(3, games, anchor=0)
    assert rated == ratings(3, games, anchor=0)
    assert rated[0].elo == rated[0].low == rated[0].high == 0
    for r in rated[1:]:
        assert r.low <= r.elo <= r.high and r.low < r.high
    assert rated[0].elo > rated[1].elo > rated[2].elo


def test_background_starts_a_process_of_its_own(tmp_path: Path) -> None:
    status, output = _run(tmp_path, "--players", "random,heuristic", "--background")
    assert status == 0, output
    found = re.search(r"running as process (\d+)", output)
    assert found is not None
    pid = int(found[1])
    _, code = os.waitpid(pid, 0)  # the test's own child: waited for, not slept on
    assert os.waitstatus_to_exitcode(code) == 0
    table = (tmp_path / "LEADERBOARD.md").read_text()
    assert "| heuristic | +0 |" in table and "--background" not in table
    assert "written to" in (tmp_path / "state.json.log").read_text()
