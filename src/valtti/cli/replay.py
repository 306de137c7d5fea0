"""``valtti replay``: check a game record, print its summary or step through it."""

from __future__ import annotations

import json
from pathlib import Path

import click

from valtti.cli.common import NonEmptyPath, main, read_record


@main.command()
@click.argument("file", type=NonEmptyPath(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--show", is_flag=True, help="Step through the match trick by trick on the screen.")
@click.option("--ascii", "ascii_only", is_flag=True, help="Plain characters only (S H D C).")
@click.option("--lang", type=click.Choice(["en", "fi"]), help="[default: from LANG]")
def replay(file: Path, as_json: bool, show: bool, ascii_only: bool, lang: str | None) -> None:
    """Check a game record (RECORD.md) and print each deal's columns and the match score.

    Exit status 1 when an action is illegal, 2 when the file is malformed.

    The record format: docs/RECORD.md in the source; the rules it is checked against:
    docs/RULES.md.
    """
    if as_json and show:
        raise click.UsageError("--json and --show do not go together: give one of them")
    if ascii_only and as_json:
        raise click.UsageError("--ascii is for the summary or --show: JSON has no suit symbols")
    match, record = read_record(file, lang)
    from valtti.terminal.glyphs import console

    if show:
        from valtti.terminal.replay import show as show_match

        show_match(match, record.meta, console(ascii_only))
        return
    summary = match.summary()
    if as_json:
        click.echo(json.dumps(summary))
    else:
        from valtti.terminal.records import summary_text

        # The game's console: the suits as letters where the output cannot show them.
        console(ascii_only).print(summary_text(summary), markup=False, soft_wrap=True)
