"""tools/phase_duel.py (an issue 13 measurement): positions where the duel starts, the two
playouts of each cancelling out between equal players, and the report."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from valtti.arena import run_arena

TOOL = Path(__file__).resolve().parents[2] / "tools" / "phase_duel.py"


def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("phase_duel", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["phase_duel"] = module  # the process pool's workers find ``play`` by name
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("records")
    run_arena(["random", "heuristic"], 2, seed=5, backend="serial", records=folder)
    (pairing,) = folder.iterdir()
    return pairing


@pytest.mark.parametrize("trick", [1, 3, 8])
def test_each_position_is_where_the_trick_comes_next(records: Path, trick: int) -> None:
    duel = tool()
    found = list(duel.positions([records], trick))
    halves = sorted(records.glob("match-*A.json"))
    assert halves and len(found) >= len(halves)  # every match's first deal at least
    for position in found:
        deal = position.deal()
        assert deal.tricks_played == trick - 1 and not deal.is_over()
        # the first moment: one action before, the trick before was still being played
        if position.history:
            assert deal.after(len(position.history) - 1).tricks_played == trick - 2
        else:
            assert trick == 1
        assert all(s >= 0 for s in position.before)


def test_a_player_against_itself_gains_nothing_in_any_position(records: Path) -> None:
    # The learned player decides by its network alone: both playouts of a position are the
    # same game with the teams' seats swapped, so A's advantage is exactly 0 in each.
    duel = tool()
    chosen = list(duel.positions([records], 4))[:5]
    points, value, playouts = duel.duel(("learned", "learned"), chosen, workers=1)
    assert points.mean == 0 and value.mean == 0 and points.samples == len(chosen)
    assert len(playouts) == 2 * len(chosen)
    assert all(sum(p.decisions) > 0 for p in playouts)


@pytest.mark.tools
def test_the_report(records: Path) -> None:
    options = ["--a", "heuristic", "--b", "random", "--trick", "6", "--positions", "3"]
    run = subprocess.run(
        [sys.executable, str(TOOL), *options, "--workers", "1", str(records)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    line = run.stdout.strip()
    assert re.fullmatch(
        r"heuristic vs random from trick 6: 3 positions, A gains [+-]\d+\.\d{3} ± \d+\.\d{3} game"
        r" points and [+-]\d+\.\d{4} ± \d+\.\d{4} match value a position \(95 %\); \d+ and \d+"
        r" ms a decision; \d+ s",
        line,
    ), line
