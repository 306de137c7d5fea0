"""``valtti review``: where a record's points went, decision by decision."""

from __future__ import annotations

import json
from pathlib import Path

import click

from valtti.cli.common import NonEmptyPath, main, read_record


@main.command()
@click.argument("file", type=NonEmptyPath(dir_okay=False))
@click.option(
    "--seat",
    "seats",
    type=click.Choice(["N", "E", "S", "W"], case_sensitive=False),
    multiple=True,
    help="Review only this seat's decisions (repeatable). [default: every seat]",
)
@click.option(
    "--level",
    type=click.Choice(["easy", "medium", "hard"]),
    default="hard",
    show_default=True,
    help="How many deals each decision's evaluation samples, as for hint.",
)
@click.option("--full", is_flag=True, help="List every decision, not only the costliest.")
@click.option("--json", "as_json", is_flag=True, help="Print the review as JSON.")
@click.option("--ascii", "ascii_only", is_flag=True, help="Plain characters only (S H D C).")
@click.option("--lang", type=click.Choice(["en", "fi"]), help="[default: from LANG]")
def review(
    file: Path,
    seats: tuple[str, ...],
    level: str,
    full: bool,
    as_json: bool,
    ascii_only: bool,
    lang: str | None,
) -> None:
    """What each decision of the record lost: the move played against the best move on what
    the seat knew then (sampled deals, as a hint values them, repeatable) and against the best
    with every hand open (the double-dummy solver); each deal's three costliest decisions with
    the better move and its reason; what each team lost. Each deal's line is its match equity
    at the start, after each decision (marked ?!, ? or ?? by what it lost) and at the end.

    Values are changes of the mover's team's match equity. Exit status as for replay.
    """
    if ascii_only and as_json:
        raise click.UsageError("--ascii is for the review in words: JSON has no suit symbols")
    from valtti.coach.review import review as review_match
    from valtti.engine import Seat

    match, _record = read_record(file, lang)
    chosen = [Seat.parse(s.upper()) for s in seats] or None
    reviewed = review_match(match, chosen, level)
    if as_json:
        click.echo(json.dumps({"level": level, **reviewed.to_dict()}, ensure_ascii=False))
        return
    from valtti.terminal.glyphs import console
    from valtti.terminal.review import review_lines

    out = console(ascii_only)
    for line in review_lines(reviewed, match, full):
        out.print(line, markup=False, highlight=False, soft_wrap=True)
