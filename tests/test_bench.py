"""``valtti bench``: what it prints for the sizes a user may ask for."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from valtti.cli import main

ONLY_THE_ENGINE = ["bench", "--no-search", "--no-solver", "--no-research", "--json"]


@pytest.mark.parametrize(
    ("size", "said"),
    [
        (["--runs", "1", "--deals", "1"], "(one run of 1 deal, one core)"),
        (["--runs", "2", "--deals", "1"], "(median of 2 runs of 1 deal, one core)"),
        (["--runs", "1", "--deals", "2"], "(one run of 2 deals, one core)"),
    ],
)
def test_the_runs_and_deals_are_said_as_asked(size: list[str], said: str) -> None:
    out = CliRunner().invoke(main, [*ONLY_THE_ENGINE, *size])
    assert out.exit_code == 0, out.output
    first, *_, last = out.output.splitlines()
    assert first.endswith(said), first
    assert set(json.loads(last)) == {"deals_per_s", "actions_per_s", "copy_us"}
