"""``valtti loadtest``: many websocket clients at full speed against a web server."""

from __future__ import annotations

import json
import sys

import click

from valtti.cli.common import EXIT_MALFORMED, fail, main


@main.command()
@click.option(
    "--url",
    help="The server to load, e.g. http://127.0.0.1:8000, started with --tables-per-minute 0 "
    "--joins-per-minute 0 --connections-per-address 0 --http-connections-per-address 0  "
    "[default: a `valtti serve` of its own on a free port, with a temporary database]",
)
@click.option(
    "--clients",
    default=200,
    show_default=True,
    type=click.IntRange(min=4),
    help="Websocket clients, four to a table (a multiple of 4).",
)
@click.option(
    "--seconds", default=30.0, show_default=True, type=click.FloatRange(min=0, min_open=True)
)
@click.option("--seed", default=1, show_default=True, help="Seed of the clients' choices.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object.")
def loadtest(url: str | None, clients: int, seconds: float, seed: int, as_json: bool) -> None:
    """Play with many websocket clients at full speed through the web table's protocol and
    print actions per second, action->broadcast latency percentiles and every error.

    Exit status 1 when there was any error, 2 when the test could not run.
    """
    from valtti.loadtest.run import LoadTestError, run

    if clients % 4:
        raise click.BadParameter("must be a multiple of 4", param_hint="--clients")
    try:
        figures = run(url, clients, seconds, seed)
    except LoadTestError as e:
        fail(str(e), EXIT_MALFORMED)
        return
    click.echo(json.dumps(figures.to_dict()) if as_json else figures.report())
    if figures.errors:
        sys.exit(1)
