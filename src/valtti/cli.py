"""The ``valtti`` command: a thin layer over the engine (click for parsing)."""

from __future__ import annotations

import json
import socket
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click
from click.core import ParameterSource

from valtti import __version__

if TYPE_CHECKING:
    from ipaddress import IPv4Network, IPv6Network

    from valtti.engine import Match
    from valtti.engine.record import Record
    from valtti.web.store import Store

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
#: Exit status of ``serve`` when it cannot start: the database cannot be opened, or the
#: address cannot be listened on (uvicorn's own start-up failure is 3 too).
EXIT_STARTUP = 3


class _Seconds(click.FloatRange):
    """Seconds from 0 to ``max``; ``nan``, which every comparison lets through, is refused."""

    name = "number of seconds"

    def __init__(self, max: float) -> None:
        super().__init__(min=0, max=max)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        seconds = super().convert(value, param, ctx)
        if seconds != seconds:
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        return seconds


class _Path(click.Path):
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


def _comma_list(ctx: click.Context, param: click.Parameter, text: str) -> list[str]:
    """The entries of a comma-separated option, stripped. An empty one (``a,,b``, a comma at an
    end) is refused, neither dropped nor taken as a name: it is a slip, and what would run is
    not what was meant."""
    entries = [entry.strip() for entry in text.split(",")]
    if "" in entries:
        raise click.BadParameter(
            f"{text!r} has an empty entry (entries are separated by single commas)", ctx, param
        )
    return entries


#: The most seconds ``serve``'s waits may be set to: a deal's end waiting longer, or a
#: computer move (``inf`` stopped every table's state frames at the deal's end).
MAX_WAIT_SECONDS = 86400


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="valtti")
def main() -> None:
    """valtti: Marjapussi, the Finnish partnership trick-taking game."""


@main.command()
@click.argument("file", type=_Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--show", is_flag=True, help="Step through the match trick by trick on the screen.")
@click.option(
    "--ascii", "ascii_only", is_flag=True, help="With --show: plain characters only (S H D C)."
)
@click.option("--lang", type=click.Choice(["en", "fi"]), help="[default: from LANG]")
def replay(file: Path, as_json: bool, show: bool, ascii_only: bool, lang: str | None) -> None:
    """Check a game record (RECORD.md) and print each deal's columns and the match score.

    Exit status 1 when an action is illegal, 2 when the file is malformed.

    The record format: docs/RECORD.md in the source; the rules it is checked against:
    docs/RULES.md.
    """
    if as_json and show:
        raise click.UsageError("--json and --show do not go together: give one of them")
    if ascii_only and not show:
        raise click.UsageError("--ascii is for --show: the summary has no suit symbols")
    match, record = _read_record(file, lang)
    if show:
        from valtti.terminal.glyphs import console
        from valtti.terminal.replay import show as show_match

        show_match(match, record.meta, console(ascii_only))
        return
    summary = match.summary()
    if as_json:
        click.echo(json.dumps(summary))
    else:
        from valtti.terminal.records import summary_text

        click.echo(summary_text(summary))


def _read_record(file: Path, lang: str | None) -> tuple[Match, Record]:
    """The record in ``file`` and its match, in the language ``lang`` (else the environment's)
    from here on; what is wrong with it ends the command in that language."""
    from valtti.terminal import i18n, records

    i18n.use(lang or i18n.default_language())
    try:
        return records.read(file)
    except records.RecordError as e:
        _fail(str(e), e.status)


def _fail(message: str, status: int) -> NoReturn:
    click.echo(message, err=True)
    sys.exit(status)


@main.command()
@click.option(
    "--runs",
    default=5,
    show_default=True,
    type=click.IntRange(min=1),
    help="Runs; the median is printed.",
)
@click.option(
    "--deals",
    default=20_000,
    show_default=True,
    type=click.IntRange(min=1),
    help="Random deals per run.",
)
@click.option("--seed", default=1, show_default=True)
@click.option(
    "--search/--no-search",
    default=True,
    show_default=True,
    help="Also measure the search player's iterations per second.",
)
@click.option(
    "--solver/--no-solver",
    default=True,
    show_default=True,
    help="Also measure the double-dummy solver.",
)
@click.option(
    "--research/--no-research",
    default=True,
    show_default=True,
    help="Also measure the tensors and the research environments (valtti[research]).",
)
@click.option("--json", "as_json", is_flag=True, help="End with one JSON line of the figures.")
def bench(
    runs: int, deals: int, seed: int, search: bool, solver: bool, research: bool, as_json: bool
) -> None:
    """Measure the engine (random legal deals per second, the cost of a state copy), the
    search player (iterations per second), the double-dummy solver (positions per second, a
    full solve from each trick), the tensors and the research environments."""
    from valtti import bench as engine_bench

    result = engine_bench.run(runs=runs, deals=deals, seed=seed, search=search)
    each = f"{result.deals_per_run:,} deal" + ("s" if result.deals_per_run > 1 else "")
    click.echo(
        f"random deals: {result.deals_per_s:,.0f} deals/s, "
        f"{result.actions_per_s:,.0f} actions/s "
        + (
            f"(median of {result.runs} runs of {each}, one core)"
            if result.runs > 1
            else f"(one run of {each}, one core)"
        )
    )
    click.echo(f"state copy:   {result.copy_us:.3f} µs")
    figures = {
        "deals_per_s": round(result.deals_per_s),
        "actions_per_s": round(result.actions_per_s),
        "copy_us": round(result.copy_us, 4),
    }
    if result.search_iterations_per_s is not None:
        click.echo(
            f"search:       {result.search_iterations_per_s:,.0f} iterations/s "
            "(ISMCTS, 20 positions of 2,000 iterations)"
        )
        figures["search_iterations_per_s"] = round(result.search_iterations_per_s)
    if solver:
        solved = engine_bench.solver_rates(seed=seed)
        click.echo(
            f"solver:       {solved.nodes_per_s:,.0f} positions/s; a full solve from trick "
            f"1..9 (mean of {solved.deals} deals, ms): "
            + " ".join(f"{ms:.1f}" for ms in solved.solve_ms)
        )
        figures["solver_nodes_per_s"] = round(solved.nodes_per_s)
        for trick, ms in enumerate(solved.solve_ms, 1):
            figures[f"solver_trick{trick}_ms"] = round(ms, 2)
    if research:
        figures.update(_bench_research(engine_bench.run_research(seed=seed)))
    if as_json:
        click.echo(json.dumps(figures))


def _bench_research(r: Any) -> dict[str, float]:
    """Print the research figures (``bench.ResearchResult``); return them for ``--json``."""
    t = r.tensors
    click.echo(
        f"tensors:      observation {t.observation_us:.2f} µs, information state "
        f"{t.information_state_us:.2f} µs, full state {t.state_us:.2f} µs (into a buffer)"
    )
    figures: dict[str, float] = {
        "observation_tensor_us": round(t.observation_us, 3),
        "information_state_tensor_us": round(t.information_state_us, 3),
        "state_tensor_us": round(t.state_us, 3),
        "engine_random_deals_per_s": round(r.engine_deals_per_s),
    }
    click.echo(
        f"engine:       {r.engine_deals_per_s:,.0f} random deals/s, "
        f"{r.engine_actions_per_s:,.0f} actions/s (this run, for the ratios below)"
    )
    if r.missing is not None:
        click.echo(f"environments: not measured, {r.missing}")
        return figures
    rows = (
        (
            "PettingZoo",
            r.pettingzoo_turns_per_s,
            "turns/s",
            r.engine_actions_per_s,
            "of the engine's actions/s",
            "pettingzoo_turns_per_s",
        ),
        (
            "Gymnasium",
            r.gymnasium_vector_steps_per_s,
            "learner steps/s (vector, random opponents)",
            r.engine_actions_per_s,
            "of the engine's actions/s",
            "gymnasium_vector_steps_per_s",
        ),
        (
            "OpenSpiel",
            r.openspiel_games_per_s,
            "random games/s through pyspiel",
            r.engine_deals_per_s,
            "of the engine's deals/s",
            "openspiel_games_per_s",
        ),
    )
    for name, rate, unit, engine, what, key in rows:
        click.echo(f"{name + ':':13} {rate:,.0f} {unit}, {rate / engine:.1%} {what}")
        figures[key] = round(rate)
    return figures


#: Seconds to wait for a Ray cluster's head to take a connection: ``ray.init`` given an address
#: that nothing listens on retries without end, and the command would never say why.
RAY_CONNECT_SECONDS = 5.0


def ray_cluster_answers(address: str) -> None:
    """Refuse ``--address`` (``HOST:PORT`` or ``ray://HOST:PORT``; ``auto`` and ``local`` are
    Ray's own) when nothing there takes a connection within ``RAY_CONNECT_SECONDS``."""
    if address in ("auto", "local"):
        return
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise click.BadParameter(
            f"{address!r} is no Ray cluster's address: HOST:PORT, ray://HOST:PORT or auto",
            param_hint="--address",
        )
    try:
        socket.create_connection((host.strip("[]"), int(port)), RAY_CONNECT_SECONDS).close()
    except OSError as e:
        raise click.BadParameter(
            f"no Ray cluster answers at {address} ({e.strerror or e})", param_hint="--address"
        ) from None


@main.command()
@click.option(
    "--players",
    "specs",
    required=True,
    callback=_comma_list,
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
    type=_Path(file_okay=False),
    help="A folder to save every match in as a RECORD.md file (a new one: an earlier run's "
    "records are never overwritten).",
)
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
    workers: int | None,
    backend: str,
    address: str | None,
    variant_text: str,
    max_deals: int | None,
    records: Path | None,
    as_json: bool,
) -> None:
    """Compare players in duplicate matches, on all cores or a Ray cluster.

    Prints per pairing the matches won, drawn and lost (not for --deals: no match ends in one
    deal), the game points per deal of the first player minus the second's with a 95 %
    confidence interval, and decisions per second. Exit status 130 when Ctrl-C stops it.
    """
    from rich.console import Console
    from rich.progress import MofNCompleteColumn, Progress

    from valtti.arena import MAX_DEALS, run_arena
    from valtti.engine import Variant

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
                address=address,
                progress=progress,
            )
        except ValueError as e:
            raise click.UsageError(str(e)) from None
        except KeyboardInterrupt:
            bar.stop()
            kept = f"; their records are in {records}" if records is not None else ""
            done = f"{played[0]} of {played[1]} matches played" if played[1] else "no match begun"
            _fail(f"arena stopped by Ctrl-C with {done}: no figures{kept}", EXIT_INTERRUPTED)
    if as_json:
        click.echo(json.dumps(result.to_dict()))
    else:
        click.echo(result.report())
        if records is not None:
            click.echo(f"\nrecords: {records}")


@main.command()
@click.option(
    "--out",
    "folder",
    required=True,
    type=_Path(file_okay=False),
    help="The run's folder: model.npz (learned:FOLDER/model.npz), state.npz, curve.json.",
)
@click.option("--minutes", type=click.FloatRange(min=0, min_open=True), help="Stop after so long.")
@click.option(
    "--deals",
    type=click.IntRange(min=1),
    help="Stop at this many self-play deals in all (a resumed run counts its earlier ones).",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Continue the run in --out with its own settings; an option given again replaces its.",
)
@click.option(
    "--init",
    "init",
    type=_Path(dir_okay=False, exists=True),
    help="Start a new run from this model's weights (fine-tuning), e.g. the shipped one: "
    "src/valtti/players/models/valtti-dmc.npz.  [default: new weights]",
)
@click.option(
    "--match-weight",
    default=0.0,
    show_default=True,
    type=click.FloatRange(0, 1),
    help="The share of each return that is the deal's worth for the match (the change of the "
    "score difference, with reaching the target worth the target); the rest is its game-point "
    "difference.",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(min=1),
    help="Self-play processes (1: in this process).",
)
@click.option("--backend", default="process", show_default=True, help="process or ray.")
@click.option("--address", help="The Ray cluster to use with --backend ray.  [default: a new one]")
@click.option("--seed", default=1, show_default=True)
@click.option(
    "--hidden",
    default="256,256",
    show_default=True,
    callback=_comma_list,
    help="Hidden layer widths.",
)
@click.option(
    "--epsilon",
    default=0.05,
    show_default=True,
    type=click.FloatRange(0, 1),
    help="Self-play exploration.",
)
@click.option(
    "--learning-rate",
    default=5e-4,
    show_default=True,
    type=click.FloatRange(min=0, min_open=True),
)
@click.option(
    "--replay-ratio",
    default=1.0,
    show_default=True,
    type=click.FloatRange(min=0, min_open=True),
    help="Minibatch samples drawn from the replay buffer per decision played.",
)
@click.option(
    "--eval-every",
    default=40_000,
    show_default=True,
    type=click.IntRange(min=1),
    help="Deals between evaluations.",
)
@click.option(
    "--eval-deals",
    default=200,
    show_default=True,
    type=click.IntRange(min=1),
    help="Deal pairs per evaluation.",
)
@click.option(
    "--eval-against",
    default="random,heuristic",
    show_default=True,
    callback=_comma_list,
    help="The fixed players each evaluation meets in duplicate.",
)
@click.option(
    "--eval-seed",
    default=7,
    show_default=True,
    help="The evaluation set of the evaluations (not 2026, the one results are cited on).",
)
def train(
    folder: Path,
    minutes: float | None,
    deals: int | None,
    resume: bool,
    init: Path | None,
    match_weight: float,
    workers: int,
    backend: str,
    address: str | None,
    seed: int,
    hidden: list[str],
    epsilon: float,
    learning_rate: float,
    replay_ratio: float,
    eval_every: int,
    eval_deals: int,
    eval_against: list[str],
    eval_seed: int,
) -> None:
    """Train the learned player by Deep Monte-Carlo self-play (needs 'valtti[train]').

    Checkpoints into --out after every round and evaluates, in duplicate on the evaluation set's
    single deals, against fixed players every --eval-every deals and at the end.
    """
    import os

    # One BLAS thread: the batches are small, and threads only fight over the cores.
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from valtti.research.train import TrainConfig
    from valtti.research.train import train as run_training

    if deals is None and minutes is None:
        raise click.UsageError("say how long to train: --minutes or --deals")
    if address is not None:
        ray_cluster_answers(address)
    try:
        widths = tuple(int(w) for w in hidden)
    except ValueError:
        widths = ()
    if not widths or min(widths) < 1:
        message = "widths of at least 1 separated by commas, e.g. 256,256"
        raise click.BadParameter(message, param_hint="--hidden")
    given: dict[str, Any] = {
        "hidden": widths,
        "epsilon": epsilon,
        "learning_rate": learning_rate,
        "replay_ratio": replay_ratio,
        "eval_every": eval_every,
        "seed": seed,
        "match_weight": match_weight,
        "eval_deals": eval_deals,
        "eval_against": tuple(eval_against),
        "eval_seed": eval_seed,
    }
    try:
        saved = TrainConfig.saved(folder) if resume else None
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    if saved is None:
        config = TrainConfig(**given)
    else:
        context = click.get_current_context()
        typed = {
            name: value
            for name, value in given.items()
            if context.get_parameter_source(name) is not ParameterSource.DEFAULT
        }
        if typed.get("hidden", saved.hidden) != saved.hidden:
            shown = ",".join(map(str, saved.hidden))
            message = f"a resumed run keeps its network's widths ({shown})"
            raise click.BadParameter(message, param_hint="--hidden")
        config = replace(saved, **typed)
    opponents = list(config.eval_against)
    from valtti.arena import check_players

    try:  # a player that cannot be made is said now, not after the first round of training
        check_players(opponents)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--eval-against") from None

    def evaluate(model: Path) -> dict[str, Any]:
        """The model against each opponent on the evaluation set, in this process."""
        from valtti.arena import run_arena

        out: dict[str, Any] = {}
        for opponent in opponents:
            result = run_arena(
                [f"learned:{model}", opponent],
                config.eval_deals,
                config.eval_seed,
                backend="serial",
                max_deals=1,
            )
            d = result.pairings[0].difference
            out[opponent] = {"mean": d.mean, "low": d.low, "high": d.high, "pairs": d.samples}
        return out

    console = Console(stderr=True)

    def figures(against: dict[str, Any]) -> str:
        return ", ".join(
            f"{name} {e['mean']:+.3f} "
            # One pair (--eval-deals 1) has no interval, as the arena says.
            + (
                f"[{e['low']:+.3f}, {e['high']:+.3f}]"
                if e["low"] is not None
                else f"(no interval from {e['pairs']} pair)"
            )
            for name, e in against.items()
        )

    with Progress(
        TextColumn("[bold]training"),
        BarColumn(),
        TextColumn("{task.completed:,} deals"),
        TimeElapsedColumn(),
        TextColumn("{task.fields[status]}"),
        console=console,
        disable=not console.is_terminal,
    ) as bar:
        task = bar.add_task("train", total=deals, status="")

        def report(p: Any, loss: float, evaluation: dict[str, Any] | None) -> None:
            rate = p.decisions / p.seconds if p.seconds else 0.0
            bar.update(task, completed=p.deals, status=f"loss {loss:.3f}, {rate:,.0f} decisions/s")
            if evaluation is not None:
                line = f"{p.deals:,} deals, {p.seconds:,.0f} s: {figures(evaluation)}"
                bar.console.print(line) if console.is_terminal else click.echo(line)

        try:
            progress = run_training(
                config,
                folder,
                deals=deals,
                minutes=minutes,
                resume=resume,
                init=init,
                backend=backend,
                workers=workers,
                address=address,
                evaluate=evaluate,
                report=report,
            )
        except ValueError as e:
            raise click.UsageError(str(e)) from None
    click.echo(
        f"{progress.deals:,} deals, {progress.decisions:,} decisions, {progress.updates:,} "
        f"updates in {progress.seconds:,.0f} s; model: {folder / 'model.npz'}"
    )


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
        _fail(str(e), e.status)
    except KeyboardInterrupt:  # while a program named as a player starts
        sys.exit(130)
    with session.redrawn_on_resize():
        status = session.run()
    if status:
        sys.exit(status)


@main.command()
@click.argument("file", type=_Path(dir_okay=False))
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

    match, _record = _read_record(file, lang)
    seat = match.current_player
    if seat is None or match.deal is None or match.deal.is_over():
        from valtti.terminal.hints import nobody_to_move

        _fail(nobody_to_move(file), EXIT_MALFORMED)
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


@main.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address to listen on: 0.0.0.0 lets others on the network in.",
)
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option(
    "--db",
    "db_url",
    metavar="URL",
    help="sqlite:///PATH or postgresql://USER:PASSWORD@HOST/NAME  "
    "[default: valtti.db in the user's data directory]",
)
@click.option(
    "--bot-delay",
    metavar="SECONDS",
    default=0.8,
    show_default=True,
    type=_Seconds(MAX_WAIT_SECONDS),
    help="Seconds a computer move waits, so that people can follow it.",
)
@click.option(
    "--bot-workers",
    type=click.IntRange(min=1),
    help="Processes the computer players think in.  [default: cores - 1, at least 1]",
)
@click.option(
    "--tables-per-minute",
    default=10,
    show_default=True,
    type=click.IntRange(min=0),
    help="New tables one client address may create in any minute (0: no limit).",
)
@click.option(
    "--joins-per-minute",
    default=20,
    show_default=True,
    type=click.IntRange(min=0),
    help="Seats one client address may take in any minute (0: no limit).",
)
@click.option(
    "--connections-per-address",
    default=16,
    show_default=True,
    type=click.IntRange(min=0),
    help="WebSockets one client address may hold open at once (0: no limit).",
)
@click.option(
    "--http-connections-per-address",
    default=64,
    show_default=True,
    type=click.IntRange(min=0),
    help="Other connections (HTTP, not yet a WebSocket) one client address may hold open at "
    "once; one more is closed at once. A --trust-proxy address has no such limit "
    "(0: no limit).",
)
@click.option(
    "--request-seconds",
    metavar="SECONDS",
    default=10.0,
    show_default=True,
    type=_Seconds(MAX_WAIT_SECONDS),
    help="Seconds a client has to send a whole request, from connecting or from the request's "
    "first byte; a slower connection is closed (0: no limit).",
)
@click.option(
    "--next-deal-seconds",
    metavar="SECONDS",
    default=20.0,
    show_default=True,
    type=_Seconds(MAX_WAIT_SECONDS),
    help="Seconds a deal's end waits for the people to say ready (0: the next deal at once).",
)
@click.option(
    "--public-url",
    metavar="URL",
    help="The address people open, e.g. https://cards.example.org behind a reverse proxy: "
    "the share links use it and only pages from it may play.",
)
@click.option(
    "--trust-proxy",
    metavar="[ADDRS]",
    is_flag=False,
    flag_value="127.0.0.1,::1",
    help="Take client addresses from X-Forwarded-For (and the scheme from X-Forwarded-Proto) "
    "of requests from these proxy addresses or networks (10.0.0.0/8), comma-separated "
    "(alone: 127.0.0.1,::1).  "
    "[default: never]",
)
def serve(
    host: str,
    port: int,
    db_url: str | None,
    bot_delay: float,
    bot_workers: int | None,
    tables_per_minute: int,
    joins_per_minute: int,
    connections_per_address: int,
    http_connections_per_address: int,
    request_seconds: float,
    next_deal_seconds: float,
    public_url: str | None,
    trust_proxy: str | None,
) -> None:
    """Run the web tables (docs/WEB.md): a lobby to create and join tables, play in the browser.

    Every unfinished table in the database goes on where it was.
    """
    import uvicorn
    from sqlalchemy import make_url
    from sqlalchemy.exc import ArgumentError

    from valtti.web import reach
    from valtti.web.app import MAX_MESSAGE, create_app, log_config
    from valtti.web.protocol import SlowClientGuard, SocketLimits, raise_file_limit
    from valtti.web.security import MAX_HEAD, Policy, public_origin
    from valtti.web.store import DRIVERS, Store

    if public_url is not None:
        try:
            public_url = public_origin(public_url)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--public-url") from None
    proxies = () if trust_proxy is None else _proxy_networks(trust_proxy)
    forms = "give sqlite:///PATH or postgresql://USER:PASSWORD@HOST/NAME"
    # An empty --db is refused as an empty path is: it quietly served the default database.
    if db_url is not None and not db_url.strip():
        raise click.BadParameter(f"an empty URL: {forms}", param_hint="--db")
    url = Store.default_url() if db_url is None else db_url
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise click.BadParameter(f"not a database URL: {forms}", param_hint="--db") from None
    except ValueError:  # SQLAlchemy reads the port with int(): never echo the URL's password
        raise click.BadParameter(
            f"not a database URL: its port is not a number: {forms}", param_hint="--db"
        ) from None
    shown = parsed.render_as_string(hide_password=True)
    if parsed.drivername not in DRIVERS:
        raise click.BadParameter(
            f"{shown}: only SQLite (sqlite:///PATH) and PostgreSQL (postgresql://…) are supported",
            param_hint="--db",
        )
    if parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:"):
        written = shown if parsed.password else url.strip()  # as typed, unless a password
        raise click.BadParameter(
            f"{written} is a database in memory, whose tables a restart loses: give a file, "
            "sqlite:///PATH",
            param_hint="--db",
        )
    # The database is opened (and held: one server per database) and the address bound before
    # anything says where to open the server, so that either failure is the one line printed.
    raise_file_limit()  # every connection is a file: take as many as the system allows
    store = _open_store(url, shown)
    try:
        sock = _listen(host, port)
    except BaseException:
        store.close()
        raise
    lan = reach.lan_addresses(host, reach.interface_addresses())
    click.echo(
        f"valtti: open {reach.local_url(host, port)} in a browser (database {shown}; Ctrl+C stops)"
    )
    for line in reach.start_lines(host, port, lan, public_url):
        click.echo(line)
    # Listening on this machine only, a name other than its own can only be another site's
    # pointed here (DNS rebinding). On a network, friends may use any name the network gives
    # it; behind a proxy (--public-url) the proxy picks the names and only the public origin's
    # pages may play.
    alone = public_url is None and host not in reach.ANY_HOST and reach.is_loopback(host)
    hosts = reach.own_names(host) if alone else None
    policy = Policy(public_url, connections_per_address, joins_per_minute, hosts)
    app = create_app(
        store,
        bot_delay=bot_delay,
        bot_workers=bot_workers,
        tables_per_minute=tables_per_minute,
        policy=policy,
        lan_urls=[reach.url(a, port) for a in lan],
        next_deal_seconds=next_deal_seconds,
    )
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        access_log=False,
        log_config=log_config(),  # no seat token in the log
        # httptools would take a request head of any size into memory; h11 refuses one over
        # MAX_HEAD before the application sees it. Slow clients are closed below the
        # application too, which hears of a connection only once its request head is whole.
        http=SlowClientGuard.with_limits(
            SocketLimits(request_seconds, http_connections_per_address, proxies)
        ),
        h11_max_incomplete_event_size=MAX_HEAD,
        # By default no forwarded header is believed: any client could claim any address.
        proxy_headers=trust_proxy is not None,
        forwarded_allow_ips=trust_proxy or "",
        # A frame far over the message limit is cut off by the protocol layer, unread.
        ws_max_size=16 * MAX_MESSAGE,
        # Compressing each state frame (about 2 kB) would cost more CPU than the rest of a move.
        ws_per_message_deflate=False,
    )
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    finally:
        store.close()  # closed by the application already, unless it never started
    if not server.started:
        sys.exit(EXIT_STARTUP)


def _proxy_networks(addresses: str) -> tuple[IPv4Network | IPv6Network, ...]:
    """The networks of a ``--trust-proxy`` list (an address is a network of one); a list with
    an entry that is no IP address or network (which uvicorn would take as a name no peer ever
    has) is refused."""
    import ipaddress

    networks = []
    for entry in addresses.split(","):
        entry = entry.strip()
        try:
            networks.append(ipaddress.ip_network(entry))
        except ValueError as e:
            why = f" ({e})" if "/" in entry else ""
            raise click.BadParameter(
                f"{entry!r} is not an IP address or network{why}", param_hint="--trust-proxy"
            ) from None
    return tuple(networks)


def _open_store(url: str, shown: str) -> Store:
    """The ``Store`` of ``url``, held as this server's own, or exit with one line saying why
    not (``shown``: the URL with its password masked)."""
    from alembic.util import CommandError
    from sqlalchemy.exc import DBAPIError, SQLAlchemyError

    from valtti.web.store import DatabaseInUse, NoSchema, Store

    try:
        return Store(url, sole=True)
    except (DatabaseInUse, NoSchema) as e:
        reason = str(e)
    except DBAPIError as e:
        reason = str(e.orig)
    except OSError as e:
        reason = f"{e.strerror or e}: {e.filename}" if e.filename else str(e.strerror or e)
    except (SQLAlchemyError, CommandError, ImportError) as e:
        reason = str(e)
    # A driver's message may span lines (PostgreSQL's hints). psycopg's never holds the password.
    reason = "; ".join(line.strip() for line in reason.splitlines() if line.strip())
    _fail(f"valtti: cannot open the database {shown}: {reason}", EXIT_STARTUP)


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` (as uvicorn binds one), or exit with one line."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except socket.gaierror as e:
        sock.close()
        raise click.BadParameter(
            f"{host!r} is no address of this machine ({e.strerror})", param_hint="--host"
        ) from None
    except OSError as e:
        sock.close()
        _fail(f"valtti: cannot listen on {host} port {port}: {e.strerror or e}", EXIT_STARTUP)
    return sock


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
    from valtti.web.loadtest import LoadTestError, run

    if clients % 4:
        raise click.BadParameter("must be a multiple of 4", param_hint="--clients")
    try:
        figures = run(url, clients, seconds, seed)
    except LoadTestError as e:
        _fail(str(e), EXIT_MALFORMED)
        return
    click.echo(json.dumps(figures.to_dict()) if as_json else figures.report())
    if figures.errors:
        sys.exit(1)
