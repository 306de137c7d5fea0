"""``valtti hint``: the PIMC player's choice where a record stops, with its reasons."""

from __future__ import annotations

import json
from pathlib import Path

import click

from valtti.cli.common import EXIT_MALFORMED, NonEmptyPath, fail, main, read_record


@main.command()
@click.argument("file", type=NonEmptyPath(dir_okay=False))
@click.option(
    "--level",
    type=click.Choice(["easy", "medium", "hard"]),
    default="hard",
    show_default=True,
    help="How many worlds the PIMC player solves.",
)
@click.option(
    "--seed",
    type=int,
    default=None,
    help="Seed of the worlds. With one the hint is repeatable: its time is counted in solver "
    "positions (6 million a second), not on the clock, so a busy machine gives the same answer.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the estimates as JSON.")
@click.option("--lang", type=click.Choice(["en", "fi"]), help="[default: from LANG]")
def hint(file: Path, level: str, seed: int | None, as_json: bool, lang: str | None) -> None:
    """The PIMC player's choice where a record stops, and for each legal action its value, the
    share of sampled worlds where it is best, and the main reason.

    Values are the change of the mover's team's match equity (its chance to win the match less
    the chance to lose it). Exit status as for replay, and 2 when nobody is to move where the
    record stops.
    """
    from valtti.players.explain import explain

    match, _record = read_record(file, lang)
    seat = match.current_player
    if seat is None or match.deal is None or match.deal.is_over():
        from valtti.terminal.hints import nobody_to_move

        fail(nobody_to_move(file), EXIT_MALFORMED)
        return
    explanations = explain(match.observation(seat), level, seed, repeatable=seed is not None)
    if as_json:
        click.echo(
            json.dumps(
                {
                    "to_move": str(seat),
                    "level": level,
                    "choice": str(explanations[0].action),
                    "estimates": [e.to_dict() for e in explanations],
                },
                ensure_ascii=False,
            )
        )
        return
    from valtti.terminal.hints import hint_heading, hint_key, hint_lines, to_move_line

    click.echo(to_move_line(seat, level))
    click.echo(hint_heading(explanations))
    click.echo(hint_key(explanations))
    for line in hint_lines(explanations):
        click.echo("  " + line)
