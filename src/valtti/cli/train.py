"""``valtti train``: the learned player trained by self-play. The options make a
``TrainingSettings``; ``valtti.research.training_run`` decides and runs the training, evaluated
by the arena's duplicate (``valtti.arena``), with a progress bar here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from valtti.cli.common import NonEmptyPath, comma_list, main
from valtti.cli.raycluster import ray_cluster_answers


@main.command()
@click.option(
    "--out",
    "folder",
    required=True,
    type=NonEmptyPath(file_okay=False),
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
    type=NonEmptyPath(dir_okay=False, exists=True),
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
    callback=comma_list,
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
    callback=comma_list,
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

    from valtti.arena import check_players
    from valtti.research.train import TrainConfig
    from valtti.research.training_run import (
        SettingError,
        TrainingRun,
        TrainingSettings,
        evaluation_text,
    )

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
    config = TrainConfig(
        hidden=widths,
        epsilon=epsilon,
        learning_rate=learning_rate,
        replay_ratio=replay_ratio,
        eval_every=eval_every,
        seed=seed,
        match_weight=match_weight,
        eval_deals=eval_deals,
        eval_against=tuple(eval_against),
        eval_seed=eval_seed,
    )
    context = click.get_current_context()
    settings = TrainingSettings(
        folder,
        config,
        # Each setting of the config is the option of the same name.
        given=frozenset(
            name
            for name in _CONFIG_OPTIONS
            if context.get_parameter_source(name) is not ParameterSource.DEFAULT
        ),
        deals=deals,
        minutes=minutes,
        resume=resume,
        init=init,
        backend=backend,
        workers=workers,
        address=address,
    )
    try:
        run = TrainingRun(settings)
    except SettingError as e:
        if e.setting is None:
            raise click.UsageError(str(e)) from None
        raise click.BadParameter(str(e), param_hint="--" + e.setting.replace("_", "-")) from None
    try:  # a player that cannot be made is said now, not after the first round of training
        check_players(list(run.config.eval_against))
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--eval-against") from None

    console = Console(stderr=True)
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
                line = f"{p.deals:,} deals, {p.seconds:,.0f} s: {evaluation_text(evaluation)}"
                bar.console.print(line) if console.is_terminal else click.echo(line)

        try:
            progress = run.run(_duplicate, report)
        except ValueError as e:
            raise click.UsageError(str(e)) from None
    click.echo(
        f"{progress.deals:,} deals, {progress.decisions:,} decisions, {progress.updates:,} "
        f"updates in {progress.seconds:,.0f} s; model: {folder / 'model.npz'}"
    )


#: The options that are settings of the run's ``TrainConfig``, by the same names: those given
#: again replace a resumed run's own.
_CONFIG_OPTIONS = (
    "hidden",
    "epsilon",
    "learning_rate",
    "replay_ratio",
    "eval_every",
    "seed",
    "match_weight",
    "eval_deals",
    "eval_against",
    "eval_seed",
)


def _duplicate(model: str, opponent: str, pairs: int, seed: int) -> dict[str, Any]:
    """The arena's duplicate of ``model`` against ``opponent`` on ``pairs`` single deals of the
    evaluation set ``seed``, in this process (``valtti.research.training_run.Duplicate``)."""
    from valtti.arena import run_arena

    result = run_arena([model, opponent], pairs, seed, backend="serial", max_deals=1)
    d = result.pairings[0].difference
    return {"mean": d.mean, "low": d.low, "high": d.high, "pairs": d.samples}
