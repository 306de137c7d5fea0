"""tools/information_bounds.py (the issue 13 measurement) runs and reports what it measured."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parent.parent / "tools" / "information_bounds.py"


def _report(*options: str) -> str:
    """The tool's one-line report for ``options`` (one worker, seed 3); it must exit 0."""
    run = subprocess.run(
        [sys.executable, str(TOOL), *options, "--workers", "1", "--seed", "3"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


@pytest.mark.parametrize("sees, tricks", [("all", "late"), ("partner", "all")])
def test_one_pair_against_random(sees: str, tricks: str) -> None:
    line = _report("--sees", sees, "--tricks", tricks, "--against", "random", "--pairs", "2")
    assert re.fullmatch(
        rf"seeing {sees} in tricks {tricks} vs random: [+-]\d+\.\d\d game points a deal"
        r" \[[+-]\d+\.\d\d, [+-]\d+\.\d\d\] over 2 pairs, \d+ s",
        line,
    ), line


def test_a_match_pair_against_random() -> None:
    line = _report("--sees", "all", "--tricks", "late", "--against", "random", "--matches", "1")
    found = re.fullmatch(
        r"seeing all in tricks late vs random: [+-]\d+\.\d\d game points a deal"
        r" \[no interval\] over 1 pairs of matches, won / drawn / lost (\d)/(\d)/(\d),"
        r" match score (\d+) % \[no interval\], \d+ s",
        line,
    )
    assert found, line
    won, drawn, lost, score = map(int, found.groups())
    assert won + drawn + lost == 2
    assert score == round(100 * (won + drawn / 2) / 2)
