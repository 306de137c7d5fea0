"""The load test command: its percentiles, and a short run against a server it starts itself."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from valtti.web.loadtest import latency


def test_percentiles_of_known_numbers() -> None:
    figures = latency([float(x) for x in range(101, 0, -1)])  # 101 … 1, out of order
    assert (figures.count, figures.p50, figures.p90, figures.p99, figures.max) == (
        101,
        51.0,
        91.0,
        100.0,
        101.0,
    )
    # Between ranks the value is interpolated: the p90 of 0 and 10 is 9.
    assert latency([0.0, 10.0]).p90 == pytest.approx(9.0)


def test_percentiles_of_one_sample_and_of_none() -> None:
    assert latency([7.5]).to_dict() == {"count": 1, "p50": 7.5, "p90": 7.5, "p99": 7.5, "max": 7.5}
    assert latency([]).to_dict() == {"count": 0, "p50": None, "p90": None, "p99": None, "max": None}


def test_a_short_run_against_its_own_server_plays_without_errors() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "valtti", "loadtest", "--clients", "8", "--seconds", "3", "--json"],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    figures = json.loads(done.stdout)
    assert figures["clients"] == 8
    assert figures["tables"] >= 2
    assert figures["actions"] > 0
    assert figures["actions_per_s"] > 0
    assert figures["errors"] == 0, figures["error_messages"]
    for where in ("mover", "seats"):
        measured = figures["latency_ms"][where]
        assert measured["count"] > 0
        assert 0 < measured["p50"] <= measured["p90"] <= measured["p99"] <= measured["max"]
    # Every action is heard at the four seats of its table, the mover's included.
    assert figures["latency_ms"]["seats"]["count"] >= 4 * figures["actions"] * 0.9
    assert figures["cpu_s"]["server"] is not None
