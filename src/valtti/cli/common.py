"""What the commands of ``valtti`` share: the click group, the exit statuses, the option types,
the help of ``--variant``, and a failure said in one line."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, NoReturn, TypeVar

import click

from valtti import __version__

if TYPE_CHECKING:
    from valtti.arena.sequential import Sprt
    from valtti.engine import Match
    from valtti.engine.record import Record
    from valtti.players.sandbox import Sandbox

Command = TypeVar("Command", bound=Callable[..., Any])

#: Exit status of ``hint`` for a record where nobody is to move and of ``loadtest`` when it
#: cannot run: as for a malformed record (``valtti.terminal.records``).
EXIT_MALFORMED = 2
#: Exit status of ``arena`` stopped by Ctrl-C (128 + SIGINT, as ``play``).
EXIT_INTERRUPTED = 130
#: The help of ``--variant``: the text form of ``Variant.parse``, a yes/no switch spelled as its
#: errors spell it.
VARIANT_HELP = (
    "Rule variant (RULES.md 8): name=value pairs, e.g. target=12,must_overtrump=off; a yes/no "
    "switch is on or off (true and false are taken too)."
)


class Seconds(click.FloatRange):
    """Seconds from 0 to ``max``; ``nan``, which every comparison lets through, is refused."""

    name = "number of seconds"

    def __init__(self, max: float) -> None:
        super().__init__(min=0, max=max)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        seconds = super().convert(value, param, ctx)
        if seconds != seconds:
            self.fail(f"{value!r} is not a {self.name}", param, ctx)
        return seconds


class Hours(Seconds):
    """Hours from 0 to ``max``; ``nan`` is refused."""

    name = "number of hours"


class NonEmptyPath(click.Path):
    """A ``click.Path`` that refuses an empty one, which ``Path("")`` would make the current
    folder: ``--records ""`` wrote its records there, ``--out ""`` its run."""

    def __init__(
        self, *, file_okay: bool = True, dir_okay: bool = True, exists: bool = False
    ) -> None:
        super().__init__(exists=exists, file_okay=file_okay, dir_okay=dir_okay, path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not str(value):
            self.fail("an empty path", param, ctx)
        return super().convert(value, param, ctx)


def comma_list(ctx: click.Context, param: click.Parameter, text: str) -> list[str]:
    """The entries of a comma-separated option, stripped. An empty one (``a,,b``, a comma at an
    end) is refused, neither dropped nor taken as a name: it is a slip, and what would run is
    not what was meant. No text at all is no entries (an option left at its default)."""
    if not text.strip():
        return []
    entries = [entry.strip() for entry in text.split(",")]
    if "" in entries:
        raise click.BadParameter(
            f"{text!r} has an empty entry (entries are separated by single commas)", ctx, param
        )
    return entries


def sandbox_options(command: Command) -> Command:
    """``--sandbox`` and ``--bot-limits``: where external bots run (docs/PROTOCOL.md, The
    sandbox); read them with ``make_sandbox``."""
    command = click.option(
        "--bot-limits",
        "bot_limits",
        default="",
        metavar="LIMITS",
        help="What each sandboxed bot may use, e.g. memory=2048,processes=32,cpu=600,files=64 "
        "(MiB of memory and of each scratch folder a process, processes, CPU seconds a "
        "process).  [default: memory=4096,processes=64,cpu=3600,files=256]",
    )(command)
    return click.option(
        "--sandbox",
        "sandbox_kind",
        type=click.Choice(["bwrap", "none"]),
        default="bwrap",
        show_default=True,
        help="Where external bots run: bwrap, a sandbox of their own each (Linux, bubblewrap), "
        "or none, as ordinary programs of yours: only for bots you trust.",
    )(command)


def sequential_options(command: Command) -> Command:
    """``--until-clear`` and ``--margin``: a sequential test of each pairing (``arena.sequential``);
    read them with ``make_sequential``."""
    command = click.option(
        "--margin",
        type=click.FloatRange(min=0, min_open=True),
        default=0.3,
        show_default=True,
        help="With --until-clear: the difference, in game points a deal, that the test tells "
        "from none.",
    )(command)
    return click.option(
        "--until-clear",
        is_flag=True,
        help="Play a pair of each pairing in turn and stop a pairing once a sequential test "
        "says whether one player is better by --margin or more, or neither (error rates 5 %); "
        "the pairs asked for are then the most.",
    )(command)


def redraws_option(default: int) -> Callable[[Command], Command]:
    """``--redraws``: the players' luck measured and taken out (``arena.luck``), ``default``
    redraws a decision unless given."""
    return click.option(
        "--redraws",
        type=click.IntRange(min=0),
        default=default,
        show_default=True,
        help="Redraws a decision of each memoryless player to measure the players' luck and "
        "take it out of the difference (16 takes out most; docs/RESEARCH.md, Luck taken out); "
        "0: raw duplicate.",
    )


def make_sequential(until_clear: bool, margin: float) -> Sprt | None:
    """The test of ``--until-clear`` and ``--margin``, or ``None``."""
    from valtti.arena.sequential import Sprt

    return Sprt(0.0, margin) if until_clear else None


def make_sandbox(kind: str, limits: str) -> Sandbox:
    """The sandbox of ``--sandbox`` and ``--bot-limits``; a bad limit is a usage error."""
    from valtti.players.sandbox import Limits, Sandbox

    try:
        return Sandbox.named(kind, Limits.parse(limits))
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--bot-limits") from None


def read_seed(source: Path) -> int:
    """The seed in the file ``source`` (``-``: the standard input), a whole number alone:
    a secret seed is never given on a command line, which every process of the machine can
    read (``/proc/PID/cmdline``)."""
    try:
        text = sys.stdin.read() if str(source) == "-" else source.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise click.BadParameter(f"{source}: {e}", param_hint="--seed-file") from None
    try:
        seed = int(text.strip())
    except ValueError:
        raise click.BadParameter(
            f"{source} holds no seed (one whole number): {text.strip()[:40]!r}",
            param_hint="--seed-file",
        ) from None
    if not 0 <= seed < 2**63:
        raise click.BadParameter(f"{source}: a seed from 0 to 2^63 - 1", param_hint="--seed-file")
    return seed


#: Said when a seed is given on the command line of a run where a program plays.
PUBLIC_SEED = (
    "warning: a seed on the command line can be read by every program on this machine "
    "(/proc/PID/cmdline) and deals every card of the run: for a competition leave --seed out "
    "(a secret one is drawn and published with the results) or give it with --seed-file"
)


def fail(message: str, status: int) -> NoReturn:
    """End the command with ``message`` on the standard error and exit status ``status``."""
    click.echo(message, err=True)
    sys.exit(status)


def read_record(file: Path, lang: str | None) -> tuple[Match, Record]:
    """The record in ``file`` and its match, in the language ``lang`` (else the environment's)
    from here on; what is wrong with it ends the command in that language."""
    from valtti.terminal import i18n, records

    i18n.use(lang or i18n.default_language())
    try:
        return records.read(file)
    except records.RecordError as e:
        fail(str(e), e.status)


#: The commands, each defined in the module of ``valtti.cli`` of its name.
COMMANDS: Final = (
    "arena",
    "bench",
    "club",
    "hint",
    "leaderboard",
    "loadtest",
    "play",
    "replay",
    "review",
    "serve",
    "train",
)


class Commands(click.Group):
    """The group of ``COMMANDS``, each module imported when its command is asked for (all of
    them for the group's help, or for a name that is none of them, which click then matches
    against them all): a command starts with what it needs, not with what every other command
    imports (the web server, the arena's players, the trainer)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        for name in (cmd_name,) if cmd_name in COMMANDS else COMMANDS:
            if name not in self.commands:
                importlib.import_module(f"valtti.cli.{name}")  # which adds it to this group
        return super().get_command(ctx, cmd_name)


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="valtti")
def main() -> None:
    """valtti: Marjapussi, the Finnish partnership trick-taking game."""
