"""``valtti play``: a match in the terminal against computer players."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from valtti.cli.common import VARIANT_HELP, fail, main


@main.command()
# --seat and --seed are checked by the game, not by click, so that a bad one is told in --lang.
@click.option("--seat", metavar="N|E|S|W", help="Your seat.  [default: S]")
@click.option("--partner", metavar="PLAYER", help="e.g. search:hard  [default: heuristic]")
@click.option("--opponents", metavar="PLAYER", help="e.g. random  [default: heuristic]")
@click.option(
    "--seed", metavar="INTEGER", help="Seed of the cards and the players.  [default: new]"
)
@click.option("--variant", metavar="SWITCHES", help=VARIANT_HELP)
@click.option("--lang", type=click.Choice(["en", "fi"]), help="[default: from LANG]")
@click.option("--fast", is_flag=True, help="Do not pause to show each computer move.")
@click.option(
    "--ascii",
    "ascii_only",
    is_flag=True,
    help="Plain characters only: S H D C for the suits, ASCII frames.",
)
@click.option(
    "--plain",
    is_flag=True,
    help="A line mode for screen readers: no redraws, no frames, one line an event.",
)
@click.option(
    "--resume",
    metavar="[FILE]",
    is_flag=False,
    flag_value="",
    help="Continue the match saved in this record file; with no file, the match in progress "
    "(the autosave).",
)
def play(
    seat: str | None,
    partner: str | None,
    opponents: str | None,
    seed: str | None,
    variant: str | None,
    lang: str | None,
    fast: bool,
    ascii_only: bool,
    plain: bool,
    resume: str | None,
) -> None:
    """Play a match to the target in the terminal, with a computer partner against two computer
    opponents. Type `help` at any prompt. The match in progress is kept in the autosave
    (`valtti play --resume` goes on with it); exit status 130 when Ctrl-C leaves, 3 when a
    computer player fails.

    The rules: docs/RULES.md in the source; a saved match is a record (docs/RECORD.md)."""
    from valtti.terminal.game import StartError, start
    from valtti.terminal.saving import autosave_path

    autosave = autosave_path()
    try:
        session = start(
            seat=seat,
            partner=partner,
            opponents=opponents,
            seed=seed,
            variant=variant,
            language=lang,
            fast=fast,
            resume=None if resume is None else Path(resume).expanduser() if resume else autosave,
            ascii_only=ascii_only,
            plain=plain,
            autosave=autosave,
        )
    except StartError as e:
        fail(str(e), e.status)
    except KeyboardInterrupt:  # while a program named as a player starts
        sys.exit(130)
    with session.redrawn_on_resize():
        status = session.run()
    if status:
        sys.exit(status)
