"""``valtti leaderboard``: every shipped player and any others on the evaluation set, in
duplicate, resumably; the table written to docs/LEADERBOARD.md."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click
from click.core import ParameterSource

from valtti.cli.common import (
    EXIT_INTERRUPTED,
    PUBLIC_SEED,
    VARIANT_HELP,
    NonEmptyPath,
    comma_list,
    fail,
    main,
    make_sandbox,
    make_sequential,
    read_seed,
    redraws_option,
    sandbox_options,
    sequential_options,
)

if TYPE_CHECKING:
    from valtti.arena.leaderboard import Board


def _arguments(ctx: click.Context) -> list[str]:
    """The command's arguments as given on its command line, without ``--background``: what
    the table cites and what a background run is started with."""
    arguments = [ctx.info_name or "leaderboard"]
    for param in ctx.command.params:
        name = param.name or ""
        if (
            name == "background"
            or ctx.get_parameter_source(name) is not ParameterSource.COMMANDLINE
        ):
            continue
        value = ctx.params[name]
        if isinstance(param, click.Option) and param.is_flag:
            arguments.append(param.opts[0] if value else param.secondary_opts[0])
        else:
            text = ",".join(value) if isinstance(value, list) else str(value)
            arguments += [param.opts[0], text]
    return arguments


@main.command()
@click.option(
    "--players",
    "specs",
    default="",
    callback=comma_list,
    help="Players to rank beside the shipped ones, comma-separated (learned:agent.npz,"
    "external:bot.py).",
)
@click.option(
    "--shipped/--no-shipped",
    default=True,
    show_default=True,
    help="Rank every shipped player (random, beginner, heuristic, quick, learned, "
    "search:easy|medium|hard, pimc:easy|medium|hard) too.",
)
@click.option(
    "--deals",
    default=200,
    show_default=True,
    type=click.IntRange(min=1),
    help="Duplicate deal pairs per pairing, from the evaluation set of the seed.",
)
@click.option(
    "--seed",
    type=int,
    help="The evaluation set.  [default: 2026; where an external bot is ranked, a new secret "
    "one, kept in --state and published in the table when every pairing is complete]",
)
@click.option(
    "--seed-file",
    type=NonEmptyPath(dir_okay=False),
    help="Read the seed from this file (- for the standard input): a secret seed, kept off "
    "the command line, which every program on the machine can read.",
)
@click.option("--variant", "variant_text", default="", help=VARIANT_HELP)
@click.option(
    "--state",
    default="leaderboard-state.json",
    show_default=True,
    type=NonEmptyPath(dir_okay=False),
    help="What is played, kept as it goes: the same command again goes on from it.",
)
@click.option(
    "--out",
    default="docs/LEADERBOARD.md",
    show_default=True,
    type=NonEmptyPath(dir_okay=False),
    help="Where the table is written (also when the run stops part-way).",
)
@click.option(
    "--strengths",
    "strengths_out",
    type=NonEmptyPath(dir_okay=False),
    help="Also write the players' strengths over --reference as JSON, as the levels offered "
    "to people read them (src/valtti/players/data/strengths.json).",
)
@click.option(
    "--reference",
    default="club",
    show_default=True,
    help="The player rated 0 and whose game points per deal the others are measured against.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    help="Processes of the process backend.  [default: one per core]",
)
@click.option(
    "--backend",
    default="process",
    show_default=True,
    type=click.Choice(["process", "ray", "serial"]),
    help="process (a process pool), ray (a Ray cluster: pip install 'valtti[ray]') or serial "
    "(this process).",
)
@click.option(
    "--address",
    help="The Ray cluster to use with --backend ray (docs/RESEARCH.md, The leaderboard on a "
    "cluster).  [default: a new one on this machine]",
)
@click.option(
    "--bot-log",
    type=NonEmptyPath(dir_okay=False),
    help="Where to append what external bots write on their standard error (readable by you "
    "only).  [default: the --state file's name with .bots.log]",
)
@sandbox_options
@sequential_options
@redraws_option(16)
@click.option(
    "--background",
    is_flag=True,
    help="Start the run as a process of its own and return: its output goes to the state "
    "file's name with .log.",
)
def leaderboard(
    specs: list[str],
    shipped: bool,
    deals: int,
    seed: int | None,
    seed_file: Path | None,
    variant_text: str,
    state: Path,
    out: Path,
    strengths_out: Path | None,
    reference: str,
    workers: int | None,
    backend: str,
    address: str | None,
    bot_log: Path | None,
    sandbox_kind: str,
    bot_limits: str,
    until_clear: bool,
    margin: float,
    redraws: int,
    background: bool,
) -> None:
    """Rank every shipped player and any given on the evaluation set, in duplicate.

    Every two players play the same deal pairs, each deal twice with the seats swapped. What is
    played is kept in --state as it goes: run the same command again (with more --players, too)
    and it plays only what is missing. Writes --out: each player's game points a deal over
    --reference, fitted to every pairing, with 95 % intervals, the command, the date, the time
    and the compute it took. --until-clear stops each pairing once its answer is clear. The full
    board takes hours: --background, or a Ray cluster (--backend ray --address). Exit status 130
    when Ctrl-C stops it (what was played is kept, and the table written). External bots run each
    in a sandbox of its own, on a secret seed unless one is given (docs/PROTOCOL.md, A fair
    arena).
    """
    from valtti.arena.leaderboard import Board, play_leaderboard
    from valtti.arena.results import UNCONFINED
    from valtti.engine import Variant
    from valtti.players.registry import starts_program
    from valtti.players.shipped import SHIPPED

    try:
        variant = Variant.parse(variant_text)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--variant") from None
    # Checked now, not after hours of play.
    for path, option in ((out, "--out"), (state, "--state"), (strengths_out, "--strengths")):
        if path is not None and not path.resolve().parent.is_dir():
            raise click.BadParameter(f"{path.parent} is no folder", param_hint=option)
    if seed is not None and seed_file is not None:
        raise click.UsageError("--seed or --seed-file, not both")
    if workers is not None and backend != "process":
        raise click.UsageError(f"--workers sets the processes of --backend process, not {backend}")
    if address is not None and backend != "ray":
        raise click.UsageError(f"--address names the Ray cluster of --backend ray, not {backend}")
    if address is not None:
        from valtti.cli.raycluster import ray_cluster_answers

        ray_cluster_answers(address)
    sandbox = make_sandbox(sandbox_kind, bot_limits).keeping(seed_file)
    if seed_file is not None:
        seed = read_seed(seed_file)
    players = [*(SHIPPED if shipped else ()), *specs]
    if any(starts_program(spec) for spec in players) and not background:
        try:
            kept = Board.from_json(state.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError):  # none, or told by the run below
            kept = None
        if (seed is not None and seed_file is None) or (kept is not None and not kept.secret):
            click.echo(PUBLIC_SEED, err=True)
        if not sandbox.confined:
            click.echo(f"warning: {UNCONFINED}", err=True)
    arguments = _arguments(click.get_current_context())
    command = "valtti " + shlex.join(arguments)
    if background:
        log = state.with_name(state.name + ".log")
        # A seed read from the standard input is handed on the same way, never as an argument.
        handed = seed is not None and str(seed_file) == "-"
        with open(log, "ab") as output:
            child = subprocess.Popen(
                [sys.executable, "-m", "valtti", *arguments],
                stdin=subprocess.PIPE if handed else subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
            if handed:
                assert child.stdin is not None
                child.stdin.write(f"{seed}\n".encode())
                child.stdin.close()
        click.echo(
            f"leaderboard running as process {child.pid}; its output in {log}, what it has "
            f"played in {state}, the table in {out} when it is done. Run the same command "
            "again (without --background, or with it) to go on after a stop."
        )
        return

    def progress(done: int, total: int) -> None:
        if total and (done == total or done % max(1, total // 100) == 0):
            click.echo(f"{done} of {total} deal pairs played", err=True)

    try:
        board = play_leaderboard(
            players,
            deals,
            state,
            seed,
            variant,
            workers,
            backend,
            command=command,
            progress=progress,
            sandbox=sandbox,
            bot_log=bot_log,
            sequential=make_sequential(until_clear, margin),
            address=address,
            redraws=redraws,
        )
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    except KeyboardInterrupt:
        if not state.exists():  # stopped before the first pairing was saved
            fail("leaderboard stopped by Ctrl-C before anything was played", EXIT_INTERRUPTED)
        board = Board.from_json(state.read_text(encoding="utf-8"))
        _write(board, reference, out, strengths_out)
        fail(
            f"leaderboard stopped by Ctrl-C: what was played is in {state} (the same command "
            f"goes on from it), the table so far in {out}",
            EXIT_INTERRUPTED,
        )
    _write(board, reference, out, strengths_out)
    click.echo(f"leaderboard of {len(board.players)} players written to {out}")
    if board.secret and board.seed_shown:
        click.echo(
            f"(its deals came from a secret seed, published now: --seed {board.seed} plays the "
            "same board again)"
        )


def _write(board: Board, reference: str, out: Path, strengths_out: Path | None) -> None:
    """The table to ``out``, and the strengths to ``strengths_out`` where asked for."""
    from valtti.arena.leaderboard import report, strengths

    out.write_text(report(board, reference), encoding="utf-8")
    if strengths_out is not None:
        try:
            strengths_out.write_text(strengths(board, reference), encoding="utf-8")
        except ValueError as e:
            fail(f"no strengths written: {e}", 1)
