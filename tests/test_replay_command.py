"""``valtti replay FILE``: the text it prints for a record."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import drive, opp_sweep, rotate, to_9_6
from valtti.cli import main
from valtti.engine import Seat
from valtti.engine.record import Record


def test_porvoo_and_overshoot_are_said_where_the_score_jumps(tmp_path: Path) -> None:
    """RULES.md 9 case 10: NS 9 take all tricks for 4 game points, so their score goes to 7,
    and EW's 6 to 0. The columns alone show the score fall after a deal with game points."""
    match = to_9_6()
    match.start_deal(rotate(opp_sweep(2).hands, Seat.E))
    drive(match, opp_sweep(2).script)
    path = tmp_path / "case10.json"
    path.write_text(Record.of_match(match).to_json(), encoding="utf-8")
    out = CliRunner().invoke(main, ["replay", str(path)])
    assert out.exit_code == 0, out.output
    last = out.output[out.output.rindex("Deal 4:") :].splitlines()
    assert "  score           7    0" in last
    assert "  NS went past the target: its score became 7 (RULES.md 6.2)" in last
    assert "  EW took no trick: its score became 0 (Porvoo, RULES.md 6.1)" in last
    # No other deal of the match had either.
    assert out.output.count("went past") == out.output.count("took no trick") == 1


@pytest.mark.parametrize(
    ("options", "said"),
    [(["--json", "--show"], "do not go together"), (["--ascii"], "--ascii is for --show")],
)
def test_options_that_cannot_go_together_are_refused(
    tmp_path: Path, options: list[str], said: str
) -> None:
    """They were taken silently: --show went on without --json, --ascii changed nothing."""
    match = to_9_6()
    path = tmp_path / "record.json"
    path.write_text(Record.of_match(match).to_json(), encoding="utf-8")
    out = CliRunner().invoke(main, ["replay", str(path), *options], input="q\n")
    assert out.exit_code == 2 and said in out.output


def test_a_deal_stopped_part_way_is_said_to_be_in_progress(tmp_path: Path) -> None:
    """Its columns are the deal's so far and its score row the score before it: said, or the
    deal reads as one that ended there."""
    match = to_9_6()
    deal = match.start_deal(rotate(opp_sweep(2).hands, Seat.E))
    match.apply(deal.legal_actions()[0])
    path = tmp_path / "part.json"
    path.write_text(Record.of_match(match).to_json(), encoding="utf-8")
    out = CliRunner().invoke(main, ["replay", str(path)])
    assert out.exit_code == 0, out.output
    heads = [line for line in out.output.splitlines() if line.startswith("Deal ")]
    assert heads[-1].startswith(f"Deal {len(match.deals)} (in progress: so far): ")
    assert all("in progress" not in head for head in heads[:-1])
