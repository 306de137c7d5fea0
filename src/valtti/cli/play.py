"""``valtti play``: a match in the terminal against computer players."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from valtti.cli.common import VARIANT_HELP, fail, main, make_sandbox, sandbox_options
from valtti.players.shipped import LEVELS, strengths


def _levels() -> str:
    """The levels and how strong each is, from the leaderboard, for --help."""
    measured = strengths()
    said = []
    for level in LEVELS:
        strength = measured.players.get(level.player)
        if strength is None:
            how = "not measured"
        elif strength.low is None or strength.high is None:
            how = "the reference"
        else:
            how = (
                f"{strength.points:+.2f} game points a deal against club "
                f"[{strength.low:+.2f}, {strength.high:+.2f}]"
            )
        said.append(f"{level.name} ({level.player}): {how}")
    return f"Levels (the leaderboard of {measured.date}): " + "; ".join(said) + "."


@main.command(epilog=_levels())
# --seat and --seed are checked by the game, not by click, so that a bad one is told in --lang.
@click.option("--seat", metavar="N|E|S|W", help="Your seat.  [default: S]")
@click.option(
    "--partner",
    metavar="PLAYER",
    help="A level (beginner, club, expert) or any player valtti arena takes, e.g. pimc:hard.  "
    "[default: club]",
)
@click.option(
    "--opponents",
    metavar="PLAYER",
    help="As --partner, e.g. expert or random.  [default: club]",
)
@click.option(
    "--seed", metavar="INTEGER", help="Seed of the cards and the players.  [default: new]"
)
@click.option("--variant", metavar="SWITCHES", help=VARIANT_HELP)
@click.option("--lang", type=click.Choice(["en", "fi"]), help="[default: from LANG]")
@click.option("--fast", is_flag=True, help="Do not pause to show each computer move.")
@click.option(
    "--ascii/--unicode",
    "ascii_only",
    default=None,
    help="Plain characters only: S H D C for the suits, ASCII frames.  [default: chosen by "
    "itself where the output's encoding or the locale (LANG=C) cannot show the suits; "
    "--unicode draws their symbols and the frames whatever the locale says]",
)
@click.option(
    "--plain/--screen",
    default=None,
    help="A line mode for screen readers: no redraws, no frames, one line an event.  "
    "[default: chosen by itself where the output is no terminal (a file, a pipe) or "
    "TERM=dumb; --screen draws the table all the same]",
)
@click.option(
    "--resume",
    metavar="[N|FILE]",
    is_flag=False,
    flag_value="",
    help="Go on with a kept match: with no value the newest unfinished one, else the one of "
    "that number in --saves (a finished one: its end), or the match saved in this record file.",
)
@click.option(
    "--saves",
    "list_saves",
    is_flag=True,
    help="List the matches kept, the unfinished ones first, newest first, numbered for "
    "--resume, and exit.",
)
@click.option(
    "--new",
    "--yes",
    "keep",
    is_flag=True,
    help="Start a new match at once: an unfinished match kept stays kept, and nothing is asked "
    "(where input is no terminal, this is what happens). With --resume FILE, the file goes on. "
    "(--yes is its earlier name.)",
)
@click.option(
    "--discard",
    is_flag=True,
    help="Start a new match at once, discarding the newest unfinished match kept (not one "
    "that another valtti play has open).",
)
@sandbox_options
def play(
    seat: str | None,
    partner: str | None,
    opponents: str | None,
    seed: str | None,
    variant: str | None,
    lang: str | None,
    fast: bool,
    ascii_only: bool | None,
    plain: bool | None,
    resume: str | None,
    list_saves: bool,
    keep: bool,
    discard: bool,
    sandbox_kind: str,
    bot_limits: str,
) -> None:
    """Play a match to the target in the terminal, with a computer partner against two computer
    opponents. Type `help` at any prompt. Each match is kept once you have moved (the 20 last
    played) in the user's data directory, a finished one until you leave it; `valtti play
    --saves` lists them and `valtti play --resume` goes on with the newest. Starting another
    while one is kept asks whether to resume it, keep it or discard it (`--new` and `--discard`
    answer without asking); one that another `valtti play` has open can be viewed read-only or
    played on from a copy. Exit status 130 when Ctrl-C leaves, 3 when a computer player fails.

    Colours are left out where NO_COLOR is set (not empty); Ctrl-L draws the screen again.

    The rules: docs/RULES.md in the source; a saved match is a record (docs/RECORD.md)."""
    from valtti.terminal import glyphs
    from valtti.terminal.game import StartError, start
    from valtti.terminal.saving import Saves

    if keep and discard:
        raise click.UsageError("--new keeps the unfinished match, --discard discards it: not both")
    saves = Saves.default()
    if list_saves:
        from valtti.terminal import i18n, unfinished

        i18n.use(lang or i18n.default_language())
        out = glyphs.console(bool(ascii_only), unicode=ascii_only is False)
        for line in unfinished.listing(saves.scan(), saves.folder):
            out.print(line, soft_wrap=True)
        return
    try:
        session = start(
            seat=seat,
            partner=partner,
            opponents=opponents,
            seed=seed,
            variant=variant,
            language=lang,
            fast=fast,
            resume=_resume(resume),
            ascii_only=bool(ascii_only),
            unicode=ascii_only is False,
            plain=glyphs.wants_plain() if plain is None else plain,
            saves=saves,
            if_unfinished="discard" if discard else "keep" if keep else "ask",
            sandbox=make_sandbox(sandbox_kind, bot_limits),
        )
    except StartError as e:
        fail(str(e), e.status)
    except KeyboardInterrupt:  # at the question, or while a program named as a player starts
        sys.exit(130)
    except EOFError:  # the end of input at the question: nothing started
        sys.exit(0)
    with session.drawing.redrawn_on_resize():
        status = session.run()
    if status:
        sys.exit(status)


def _resume(given: str | None) -> Path | int | None:
    """``--resume``'s value: nothing, the newest kept match (1), its number, or a file."""
    if given is None:
        return None
    if not given:
        return 1
    if given.isdecimal() and given.isascii():
        return int(given)
    return Path(given).expanduser()
