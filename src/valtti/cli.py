"""The ``valtti`` command: a thin layer over the engine (click for parsing)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from valtti import __version__
from valtti.engine import Match, Team
from valtti.engine.record import IllegalRecordAction, Record, RecordFormatError

#: Exit status of ``replay`` for a record with an illegal action, and for a malformed file.
EXIT_ILLEGAL = 1
EXIT_MALFORMED = 2


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="valtti")
def main() -> None:
    """valtti: Marjapussi, the Finnish partnership trick-taking game."""


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def replay(file: Path, as_json: bool) -> None:
    """Check a game record (RECORD.md) and print each deal's columns and the match score.

    Exit status 1 when an action is illegal, 2 when the file is malformed.
    """
    try:
        text = file.read_bytes()
    except OSError as e:
        _fail(f"cannot read {file}: {e.strerror or e}", EXIT_MALFORMED)
    try:
        match = Record.from_json(text).replay()
    except IllegalRecordAction as e:
        _fail(f"{file}: illegal action: {e}", EXIT_ILLEGAL)
    except RecordFormatError as e:
        _fail(f"{file}: malformed record: {e}", EXIT_MALFORMED)
    summary = replay_summary(match)
    if as_json:
        click.echo(json.dumps(summary))
    else:
        click.echo(_summary_text(summary))


def _fail(message: str, status: int) -> None:
    click.echo(message, err=True)
    sys.exit(status)


def _teams(values: tuple[int, int]) -> dict[str, int]:
    return {"NS": values[Team.NS], "EW": values[Team.EW]}


def replay_summary(match: Match) -> dict[str, Any]:
    """The ``replay --json`` object: each deal's columns, the winner, and where play stands."""
    deals = []
    scores = match.deal_scores
    for i, deal in enumerate(match.deals):
        result = deal.result()
        deals.append(
            {
                "dealer": str(deal.dealer),
                "trump": None if deal.trump is None else str(deal.trump),
                "marriages": [
                    {
                        "suit": str(m.suit),
                        "team": str(m.team),
                        "seat": str(m.seat),
                        "how": m.how,
                        "points": m.points,
                    }
                    for m in deal.marriages
                ],
                "tricks": _teams(result.tricks),
                "card_points": _teams(result.card_points),
                "game_points": _teams(result.game_points),
                "score": _teams(scores[i].after if i < len(scores) else match.score),
            }
        )
    winner = match.winner
    latest = match.deal
    return {
        "deals": deals,
        "winner": "draw" if match.is_draw else None if winner is None else str(winner),
        "to_move": None
        if latest is None or latest.current_player is None
        else str(latest.current_player),
        "legal": [str(a) for a in match.legal_actions()],
    }


def _summary_text(summary: dict[str, Any]) -> str:
    lines = []
    for number, d in enumerate(summary["deals"], start=1):
        trump = d["trump"] or "none"
        lines.append(f"Deal {number}: dealer {d['dealer']}, trumps {trump}")
        for m in d["marriages"]:
            lines.append(
                f"  marriage {m['suit']}: {m['seat']} ({m['team']}) by {m['how']}, +{m['points']}"
            )
        lines.append(f"  {'':12} {'NS':>4} {'EW':>4}")
        for key, label in (
            ("tricks", "tricks"),
            ("card_points", "card points"),
            ("game_points", "game points"),
            ("score", "score"),
        ):
            lines.append(f"  {label:12} {d[key]['NS']:>4} {d[key]['EW']:>4}")
    last = summary["deals"][-1]["score"]
    lines.append(f"Match: NS {last['NS']}, EW {last['EW']}")
    if summary["winner"] == "draw":
        lines.append("Result: a draw, both teams on target")
    elif summary["winner"]:
        lines.append(f"Result: {summary['winner']} wins")
    elif summary["to_move"]:
        lines.append(
            f"In progress: {summary['to_move']} to move; legal: " + " ".join(summary["legal"])
        )
    else:
        lines.append("In progress: the next deal is to be dealt")
    return "\n".join(lines)


@main.command()
@click.option("--runs", default=5, show_default=True, help="Runs; the median is printed.")
@click.option("--deals", default=20_000, show_default=True, help="Random deals per run.")
@click.option("--seed", default=1, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="End with one JSON line of the figures.")
def bench(runs: int, deals: int, seed: int, as_json: bool) -> None:
    """Measure the engine: random legal deals per second and the cost of a state copy."""
    from valtti import bench as engine_bench

    result = engine_bench.run(runs=runs, deals=deals, seed=seed)
    click.echo(
        f"random deals: {result.deals_per_s:,.0f} deals/s, "
        f"{result.actions_per_s:,.0f} actions/s "
        f"(median of {result.runs} runs of {result.deals_per_run:,} deals, one core)"
    )
    click.echo(f"state copy:   {result.copy_us:.3f} µs")
    if as_json:
        click.echo(
            json.dumps(
                {
                    "deals_per_s": round(result.deals_per_s),
                    "actions_per_s": round(result.actions_per_s),
                    "copy_us": round(result.copy_us, 4),
                }
            )
        )
