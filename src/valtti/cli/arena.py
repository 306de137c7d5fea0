"""``valtti arena``: duplicate matches between players, on all cores or a Ray cluster."""

from __future__ import annotations

import json
from pathlib import Path

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
from valtti.cli.raycluster import ray_cluster_answers


@main.command()
@click.option(
    "--players",
    "specs",
    required=True,
    callback=comma_list,
    help="Players to compare, comma-separated (search:hard,heuristic); every two of them meet.",
)
@click.option(
    "--matches",
    default=10,
    show_default=True,
    type=click.IntRange(min=1),
    help="Duplicate pairs per pairing: two matches on the same cards, seats swapped.",
)
@click.option(
    "--deals",
    type=click.IntRange(min=1),
    help="Instead of matches: duplicate pairs of single deals (the evaluation set of the seed; "
    "the same as --matches N --max-deals 1).",
)
@click.option(
    "--seed",
    type=int,
    help="The cards: the same seed deals the same again. A seed a bot could know lets it look "
    "its cards up: keep it secret in a competition.  [default: new, printed with the results]",
)
@click.option(
    "--seed-file",
    type=NonEmptyPath(dir_okay=False),
    help="Read the seed from this file (- for the standard input): a secret seed, kept off "
    "the command line, which every program on the machine can read.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    help="Processes of the process backend, at most one per match.  [default: one per core]",
)
@click.option(
    "--backend",
    default="process",
    show_default=True,
    help="process, ray (a Ray cluster: pip install 'valtti[ray]') or serial (this process).",
)
@click.option("--address", help="The Ray cluster to use with --backend ray.  [default: a new one]")
@click.option("--variant", "variant_text", default="", help=VARIANT_HELP)
@click.option(
    "--max-deals",
    type=click.IntRange(min=1),
    help="Deals after which a match is stopped and counted as a draw.  [default: 200]",
)
@click.option(
    "--records",
    type=NonEmptyPath(file_okay=False),
    help="A folder to save every match in as a RECORD.md file (a new one: an earlier run's "
    "records are never overwritten).",
)
@click.option(
    "--bot-log",
    type=NonEmptyPath(dir_okay=False),
    help="A file to append what external bots write on their standard error to, a line each "
    "with its match and seat (readable by you only).  [default: bots.log in --records]",
)
@sandbox_options
@sequential_options
@redraws_option(0)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the figures as one JSON object (its shape: docs/RESEARCH.md, The arena); with "
    '--deals its "mode" is "deals" and it counts the deals played, not matches.',
)
def arena(
    specs: list[str],
    matches: int,
    deals: int | None,
    seed: int | None,
    seed_file: Path | None,
    workers: int | None,
    backend: str,
    address: str | None,
    variant_text: str,
    max_deals: int | None,
    records: Path | None,
    bot_log: Path | None,
    sandbox_kind: str,
    bot_limits: str,
    until_clear: bool,
    margin: float,
    redraws: int,
    as_json: bool,
) -> None:
    """Compare players in duplicate matches, on all cores or a Ray cluster.

    Prints per pairing the matches won, drawn and lost (not for --deals: no match ends in one
    deal), the game points per deal of the first player minus the second's with a 95 %
    confidence interval, and decisions per second. External bots run each in a sandbox of its
    own (--sandbox; docs/PROTOCOL.md, A fair arena). Exit status 130 when Ctrl-C stops it.
    """
    from rich.console import Console
    from rich.progress import MofNCompleteColumn, Progress

    from valtti.arena import MAX_DEALS, run_arena
    from valtti.arena.results import UNCONFINED
    from valtti.engine import Variant
    from valtti.players.registry import starts_program

    try:
        variant = Variant.parse(variant_text)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--variant") from None
    if deals is not None:
        if max_deals is not None:
            raise click.UsageError("--deals plays single deals: it takes no --max-deals")
        given = click.get_current_context().get_parameter_source("matches")
        if given is not ParameterSource.DEFAULT:
            raise click.UsageError("--deals plays single deals instead of matches: no --matches")
        matches, max_deals = deals, 1
    # An option the backend does not use is refused, not ignored: it would not do what it says.
    if workers is not None and backend != "process":
        raise click.UsageError(f"--workers sets the processes of --backend process, not {backend}")
    if address is not None and backend != "ray":
        raise click.UsageError(f"--address names the Ray cluster of --backend ray, not {backend}")
    if address is not None:
        ray_cluster_answers(address)
    if seed is not None and seed_file is not None:
        raise click.UsageError("--seed or --seed-file, not both")
    sandbox = make_sandbox(sandbox_kind, bot_limits).keeping(seed_file)
    if seed_file is not None:
        seed = read_seed(seed_file)
    if any(starts_program(spec) for spec in specs):
        if seed is not None and seed_file is None:
            click.echo(PUBLIC_SEED, err=True)
        if not sandbox.confined:
            click.echo(f"warning: {UNCONFINED}", err=True)
    console = Console(stderr=True)
    with Progress(
        *Progress.get_default_columns(),
        MofNCompleteColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    ) as bar:
        task = bar.add_task("matches", total=None)
        played = [0, 0]  # matches finished, and in all

        def progress(done: int, total: int) -> None:
            played[:] = [done, total]
            bar.update(task, completed=done, total=total)

        try:
            result = run_arena(
                specs,
                matches,
                seed,
                workers,
                backend,
                variant=variant,
                max_deals=max_deals or MAX_DEALS,
                records=records,
                bot_log=bot_log,
                sandbox=sandbox,
                sequential=make_sequential(until_clear, margin),
                address=address,
                progress=progress,
                redraws=redraws,
            )
        except ValueError as e:
            raise click.UsageError(str(e)) from None
        except KeyboardInterrupt:
            bar.stop()
            kept = f"; their records are in {records}" if records is not None else ""
            done = f"{played[0]} of {played[1]} matches played" if played[1] else "no match begun"
            fail(f"arena stopped by Ctrl-C with {done}: no figures{kept}", EXIT_INTERRUPTED)
    if as_json:
        click.echo(json.dumps(result.to_dict()))
    else:
        click.echo(result.report())
        if records is not None:
            click.echo(f"\nrecords: {records}")
