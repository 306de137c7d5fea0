"""tools/hint_bench.py (issues 34 and 42): positions in the trick asked for, every hint timed
and counted where it is exact, ``valtti hint`` timed as a command on records stopped in each
trick, and the early evaluation set against exact solves."""

from __future__ import annotations

import importlib.util
import math
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "hint_bench.py"


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
    assert all(t.positions == 1 and t.p95_ms <= t.max_ms for t in times)
    # Distinct deals, within the budget (48 at most): a deal the likelihood's resampling draws
    # twice is valued once and weighs twice (coach/appraise.py), so fewer than 16 may show.
    assert all(0 <= t.exact <= t.positions and 1 <= t.deals <= 48 for t in times)
    error = bench.early_error(2, 4)
    assert error.positions == 2 and error.actions >= 4
    assert 0.0 <= error.mean <= error.worst <= 4.0 and math.isfinite(error.mean_regret)
    assert 0.0 <= error.mean_regret <= error.worst_regret


@pytest.mark.parametrize("trick", [1, 4, 9])
def test_a_command_s_position_is_a_match_stopped_in_its_trick_with_a_choice(trick: int) -> None:
    bench = tool()
    rng = random.Random(trick)
    found = [m for m in (bench.match_position(rng, trick) for _ in range(40)) if m is not None]
    assert found
    for match in found:
        deal = match.deal
        assert deal is not None and not match.is_over()
        assert deal.tricks_played + 1 == trick and len(match.legal_actions()) > 1
        assert all(earlier.is_over() for earlier in match.deals[:-1])


@pytest.mark.tools
def test_the_bench_times_valtti_hint_as_a_command_on_the_same_positions() -> None:
    bench = tool()
    times = bench.command_times(9, 3)
    assert [t.trick for t in times] == list(range(1, 10))
    for t in times:
        assert t.positions == 1 and 0 <= t.exact <= 1
        assert 0 < t.cpu_p50_ms <= t.cpu_p95_ms <= t.cpu_max_ms and 0 < t.p50_ms <= t.p95_ms
        assert 0 <= t.inside_cpu_p50_ms <= t.inside_cpu_p95_ms
    # Late in a deal few deals are possible: a hint there rests on every one of them.
    assert times[-1].exact == 1
