"""``valtti bench`` measures the tensors and the environments; importing valtti stays light."""

from __future__ import annotations

import subprocess
import sys

from research_needs import require

from valtti import bench


def test_research_figures_are_measured() -> None:
    for name in ("gymnasium", "pettingzoo", "pyspiel"):
        require(name)
    result = bench.run_research(seed=2, scale=0.02)
    assert result.missing is None
    assert result.tensors.observation_us > 0 and result.tensors.state_us > 0
    assert result.engine_deals_per_s > 0
    for rate in (
        result.pettingzoo_turns_per_s,
        result.gymnasium_vector_steps_per_s,
        result.openspiel_games_per_s,
    ):
        assert rate is not None and rate > 0


def test_bench_command_prints_the_research_lines() -> None:
    for name in ("gymnasium", "pettingzoo", "pyspiel"):
        require(name)
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "valtti",
            "bench",
            "--runs",
            "1",
            "--deals",
            "200",
            "--no-search",
            "--quick-positions",
            "100",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    ).stdout
    words = ("tensors:", "PettingZoo:", "Gymnasium:", "OpenSpiel:", "observation_tensor_us")
    figures = ("batched_heuristic_steps_per_cpu_s", "heuristic_player_decisions_per_cpu_s")
    for word in (*words, "batched:", "quick:", "batched_ratio", *figures):
        assert word in out


def test_importing_valtti_and_its_tensors_imports_no_research_library() -> None:
    code = (
        "import sys, valtti, valtti.engine, valtti.engine.tensors, valtti.research; "
        "heavy = {'numpy', 'gymnasium', 'pettingzoo', 'pyspiel', 'torch'} & set(sys.modules); "
        "print(sorted(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
