"""The evaluation set: duplicate pairs of single deals from a seed, the same for any workers."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from valtti.arena import run_arena
from valtti.cli import main


def _figures(result: dict[str, Any]) -> list[Any]:
    """What a run found, without its clocks."""
    out = []
    for p in result["pairings"]:
        out.append((p["difference"], p["deals"], p["failures"]))
        out += [(f["deals"], f["game_points"], f["decisions"]) for f in p["players"]]
    return out


@pytest.mark.slow  # four arenas, two of them in worker processes
def test_the_evaluation_set_gives_the_same_figures_for_any_number_of_workers() -> None:
    players = ["learned", "random", "heuristic"]
    one = run_arena(players, 6, seed=2026, workers=1, max_deals=1).to_dict()
    two = run_arena(players, 6, seed=2026, workers=2, max_deals=1).to_dict()
    serial = run_arena(players, 6, seed=2026, backend="serial", max_deals=1).to_dict()
    assert _figures(one) == _figures(two) == _figures(serial)
    assert all(f["deals"] == 12 for p in one["pairings"] for f in p["players"])
    other = run_arena(players, 6, seed=2027, backend="serial", max_deals=1).to_dict()
    assert _figures(other) != _figures(one)


def test_arena_deals_plays_single_deals() -> None:
    args = ["arena", "--players", "learned,random", "--deals", "3", "--backend", "serial"]
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["mode"], data["deals"]) == ("deals", 3)
    assert data["pairings"][0]["deals"] == data["pairings"][0]["players"][0]["deals"] == 6
    text = CliRunner().invoke(main, args).output
    assert "3 duplicate deal pairs per pairing (6 single deals: the evaluation set)" in text
    refused = CliRunner().invoke(main, [*args, "--max-deals", "2"])
    assert refused.exit_code == 2 and "takes no --max-deals" in refused.output
