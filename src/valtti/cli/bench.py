"""``valtti bench``: the speed benchmark's figures, printed (``valtti.bench`` measures them)."""

from __future__ import annotations

import json
from typing import Any

import click

from valtti.cli.common import main


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
@click.option(
    "--quick-positions",
    default=2_000,
    show_default=True,
    type=click.IntRange(min=1),
    help="Random positions for the heuristic player's decisions per second.",
)
@click.option("--json", "as_json", is_flag=True, help="End with one JSON line of the figures.")
def bench(
    runs: int,
    deals: int,
    seed: int,
    search: bool,
    solver: bool,
    research: bool,
    quick_positions: int,
    as_json: bool,
) -> None:
    """Measure the engine (random legal deals per second, the cost of a state copy), the
    search player (iterations per second), the double-dummy solver (positions per second, a
    full solve from each trick), the tensors and the research environments, the batched vector
    env against one env and the heuristic player's C (these two in CPU time)."""
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
        figures.update(_bench_research(engine_bench.run_research(seed=seed), quick_positions))
    if as_json:
        click.echo(json.dumps(figures))


def _bench_research(r: Any, quick_positions: int) -> dict[str, float]:
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
    figures.update(_bench_speed(quick_positions))
    return figures


def _bench_speed(quick_positions: int) -> dict[str, float]:
    """Print the batched vector env's learner steps per CPU-second against one env's, and the
    heuristic player's decisions per CPU-second (``research.speed``); return them for
    ``--json``."""
    from valtti.research.speed import learner_rates, quick_figures

    rates = learner_rates()
    click.echo(
        f"batched:      {rates.batched:,.0f} learner steps per CPU-second ({rates.tables} tables "
        f"in C, random opponents), one env {rates.single:,.0f}: {rates.ratio:.1f}x; "
        f"{rates.batched_heuristic:,.0f} against three heuristic players"
    )
    q = quick_figures(quick_positions)
    click.echo(
        f"quick:        {q.decisions_per_s:,.0f} heuristic decisions per CPU-second on "
        f"{q.positions:,} random positions ({q.choice_decisions_per_s:,.0f} on the "
        f"{q.choices:,} with a choice); {q.player_decisions_per_s:,.0f} a second as a player "
        "given observations"
    )
    return {
        "batched_steps_per_cpu_s": round(rates.batched),
        "single_env_steps_per_cpu_s": round(rates.single),
        "batched_ratio": round(rates.ratio, 2),
        "batched_heuristic_steps_per_cpu_s": round(rates.batched_heuristic),
        "quick_decisions_per_cpu_s": round(q.decisions_per_s),
        "quick_choice_decisions_per_cpu_s": round(q.choice_decisions_per_s),
        "heuristic_player_decisions_per_cpu_s": round(q.player_decisions_per_s),
    }
