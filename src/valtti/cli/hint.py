"""``valtti hint``: the PIMC player's choice where a record stops, with its reasons."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Final

import click

from valtti.cli.common import EXIT_MALFORMED, NonEmptyPath, fail, main, read_record

#: How many threads the BLAS under numpy may start, unless the environment says otherwise: one.
#: A hint's arrays are small, and idle BLAS threads spin: with a thread a core a hint took as
#: long and cost 0.1–0.2 s more CPU (docs/MEASUREMENTS.md, Hints), for the same values.
BLAS_THREADS: Final = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


@main.command()
@click.argument("file", type=NonEmptyPath(dir_okay=False))
@click.option(
    "--level",
    type=click.Choice(["easy", "medium", "hard"]),
    default="hard",
    show_default=True,
    help="How many deals the hint samples (at least 16 at every level).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the estimates as JSON.")
@click.option("--lang", type=click.Choice(["en", "fi"]), help="[default: from LANG]")
def hint(file: Path, level: str, as_json: bool, lang: str | None) -> None:
    """The PIMC player's choice where a record stops, and for each legal action its value, the
    share of sampled deals where it is best, and the main reason with the share of the deals
    that show it.

    Values are the change of the mover's team's match equity (its chance to win the match less
    the chance to lose it), the mean over the sampled deals. The hint is repeatable: its deals
    come from a seed derived from the position and its budget is counted in solver work, so the
    same position gives the same hint on any machine and under any load, as in the game and at
    the web table. Exit status as for replay, and 2 when nobody is to move where the record
    stops.
    """
    for name, threads in BLAS_THREADS.items():  # read when numpy is first imported, below
        os.environ.setdefault(name, threads)
    from valtti.coach.explain import explain

    match, _record = read_record(file, lang)
    seat = match.current_player
    if seat is None or match.deal is None or match.deal.is_over():
        from valtti.terminal.hints import nobody_to_move

        fail(nobody_to_move(file), EXIT_MALFORMED)
        return
    hint = explain(match.observation(seat), level)
    if as_json:
        facts = hint.to_dict()
        estimates = facts.pop("moves")
        click.echo(
            json.dumps(
                {
                    "to_move": str(seat),
                    "level": level,
                    "choice": str(hint.moves[0].action),
                    **facts,
                    "estimates": estimates,
                },
                ensure_ascii=False,
            )
        )
        return
    from valtti.terminal.hints import hint_heading, hint_key, hint_lines, to_move_line

    click.echo(to_move_line(seat, level))
    click.echo(hint_heading(hint.moves))
    click.echo(hint_key(hint))
    for line in hint_lines(hint):
        click.echo("  " + line)
