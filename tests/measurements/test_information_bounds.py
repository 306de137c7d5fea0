"""tools/information_bounds.py (the issue 13 measurement) runs and reports what it measured."""

import importlib.util
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

import valtti.players.pimc
from valtti.arena import MatchJob
from valtti.engine import Action, Team, Variant
from valtti.players.knowledge import infer
from valtti.table import Table

TOOL = Path(__file__).resolve().parents[2] / "tools" / "information_bounds.py"


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


@pytest.mark.tools
@pytest.mark.parametrize(
    "sees, tricks, decisions",
    [("all", "late", "all"), ("partner", "all", "all"), ("partner", "all", "windows")],
)
def test_one_pair_against_random(sees: str, tricks: str, decisions: str) -> None:
    line = _report(
        *("--sees", sees, "--tricks", tricks, "--decisions", decisions),
        *("--against", "random", "--pairs", "2"),
    )
    assert re.fullmatch(
        rf"seeing {sees} in tricks {tricks}, decisions {decisions} vs random:"
        r" [+-]\d+\.\d\d game points a deal"
        r" \[[+-]\d+\.\d\d, [+-]\d+\.\d\d\] over 2 pairs, \d+ s",
        line,
    ), line


@pytest.mark.tools
def test_a_match_pair_against_random() -> None:
    line = _report("--sees", "all", "--tricks", "late", "--against", "random", "--matches", "1")
    found = re.fullmatch(
        r"seeing all in tricks late, decisions all vs random: [+-]\d+\.\d\d game points a deal"
        r" \[no interval\] over 1 pairs of matches, won / drawn / lost (\d)/(\d)/(\d),"
        r" match score (\d+) % \[no interval\], \d+ s",
        line,
    )
    assert found, line
    won, drawn, lost, score = map(int, found.groups())
    assert won + drawn + lost == 2
    assert score == round(100 * (won + drawn / 2) / 2)


@pytest.mark.parametrize("decisions", ["windows", "cards"])
def test_the_team_is_told_only_in_the_decisions_asked_for(
    decisions: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each decision of the seeing team reads the hands through the told ``infer`` exactly
    when it is of the kind asked for (a declaration window, or any other); the other team's
    never does."""
    spec = importlib.util.spec_from_file_location("information_bounds", TOOL)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, tool)  # its dataclasses look their module up
    spec.loader.exec_module(tool)
    seen: list[tuple[bool, bool, bool]] = []  # (seeing team, window, told)
    decide = Table.decide

    def watched(table: Table) -> Action:
        deal = table.match.deal
        assert deal is not None and deal.current_player is not None
        window = any(a.kind in tool._WINDOW for a in deal.legal_actions())
        told = vars(valtti.players.pimc)["infer"] is not infer
        seen.append((deal.current_player.team == Team.NS, window, told))
        return decide(table)

    monkeypatch.setattr(Table, "decide", watched)
    monkeypatch.setattr(tool, "SEEING", "pimc:easy")  # reads the hands as hard does, faster
    job = MatchJob(0, tool.SEEING, "random", 0, False, 5, Variant(), 1, False)
    for number in range(6):
        tool.play_half(replace(job, number=number), "partner", "all", decisions)
    assert {(team, window) for team, window, _ in seen} == {
        (t, w) for t in (True, False) for w in (True, False)
    }
    for team, window, told in seen:
        assert told == (team and window == (decisions == "windows")), (team, window, decisions)
