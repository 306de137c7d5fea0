"""tools/hint_bench.py (issue 34): positions in the trick asked for, every hint timed resting on
16 deals at least, and the early evaluation set against exact solves."""

from __future__ import annotations

import importlib.util
import math
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

TOOL = Path(__file__).resolve().parent.parent / "tools" / "hint_bench.py"


def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("hint_bench", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["hint_bench"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("trick", [1, 2, 5, 9])
def test_a_position_is_in_its_trick_with_a_choice(trick: int) -> None:
    bench = tool()
    rng = random.Random(trick)
    found = [o for o in (bench.position(rng, trick) for _ in range(40)) if o is not None]
    assert found
    for observation in found:
        assert len(observation.tricks) + 1 == trick and len(observation.legal_actions) > 1
        assert observation.score is not None


@pytest.mark.tools
def test_the_bench_times_every_trick_and_measures_the_early_error() -> None:
    bench = tool()
    times = bench.hint_times(9, 3)
    assert [t.trick for t in times] == list(range(1, 10))
    # Each hint rests on at least one deal (every possible one late in a deal, where few are).
    assert all(t.positions == 1 and t.deals >= 1 and t.p95_ms <= t.max_ms for t in times)
    error = bench.early_error(2, 4)
    assert error.positions == 2 and error.actions >= 4
    assert 0.0 <= error.mean <= error.worst <= 4.0 and math.isfinite(error.mean_regret)
    assert 0.0 <= error.mean_regret <= error.worst_regret
