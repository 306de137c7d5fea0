"""The one list of shipped players and the levels people choose from: every front end reads it,
and the strengths it ships are the leaderboard's (docs/LEADERBOARD.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from valtti.arena import leaderboard
from valtti.players.registry import make_player
from valtti.players.shipped import LEVELS, OFFERED, SHIPPED, level_player, strengths
from valtti.terminal.phrases import PLAYER_NAMES
from valtti.web.referee import bots

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("spec", SHIPPED)
def test_every_shipped_player_is_made_by_its_name(spec: str) -> None:
    player = make_player(spec, 1)
    try:
        assert player.name.partition(":")[0] == spec.partition(":")[0]
    finally:
        player.close()


def test_the_front_ends_read_the_one_list() -> None:
    assert bots.PLAYERS is OFFERED and set(OFFERED) <= set(SHIPPED)
    assert leaderboard.SHIPPED is SHIPPED  # it reads the list, it keeps no copy
    assert set(OFFERED) <= set(PLAYER_NAMES)  # the terminal names each as the web does
    assert {level.player for level in LEVELS} <= set(OFFERED)


def test_a_level_is_named_for_people_and_played_by_its_program() -> None:
    assert [level.name for level in LEVELS] == ["beginner", "club", "expert"]
    assert level_player("Club") == "club" and level_player(" expert ") == "search:hard"
    assert level_player("pimc:hard") == "pimc:hard"  # not a level: as given


def test_the_levels_strengths_are_the_leaderboards() -> None:
    measured = strengths()
    table = (ROOT / "docs" / "LEADERBOARD.md").read_text(encoding="utf-8")
    assert measured.date in table
    for level in LEVELS:
        strength = measured.players[level.player]
        row = re.search(rf"^\| {re.escape(level.player)} \| ([^|]+) \| ([^|]+) \|", table, re.M)
        assert row is not None, level.player
        if strength.low is None or strength.high is None:
            assert row[1].strip() == "0 (the reference)"
            continue
        assert row[1].strip() == f"{strength.points:+.2f}"
        assert row[2].strip() == f"[{strength.low:+.2f}, {strength.high:+.2f}]"
    # Weakest first, as offered.
    points = [measured.players[level.player].points for level in LEVELS]
    assert points == sorted(points)


def test_the_levels_are_clearly_apart() -> None:
    """Issue 44: each level at least 0.3 game points a deal above the one below, the 95 %
    intervals apart (the reference's is its point: the others are measured against it)."""
    measured = strengths()
    below = None
    for level in LEVELS:
        s = measured.players[level.player]
        low, high = (s.points, s.points) if s.low is None or s.high is None else (s.low, s.high)
        if below is not None:
            assert s.points - below[0] >= 0.3, level.name
            assert low > below[1], level.name
        below = (s.points, high)
