"""The arena: duplicate seating and cards, statistics, backends, the command."""

from __future__ import annotations

import json
import math
import os
import re
import signal
import socket
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import psutil
import pytest
from click.testing import CliRunner

from valtti.arena import (
    ArenaResult,
    MatchJob,
    MatchOutcome,
    Result,
    run_arena,
    summarize,
)
from valtti.cli import main
from valtti.engine import Action, Observation, Variant
from valtti.engine.record import Record
from valtti.players import Player, registry
from valtti.players.stats import mean_interval

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = f"external:{ROOT / 'examples' / 'external_bot.py'}"


def figures(result: ArenaResult) -> list[dict[str, Any]]:
    """The pairings' figures without the timings, which differ run to run."""
    out = []
    for p in result.to_dict()["pairings"]:
        for player in p["players"]:
            for timing in ("seconds", "decisions_per_s", "ms_per_decision", "slowest_decision_ms"):
                del player[timing]
        out.append(p)
    return out


def test_duplicate_halves_deal_the_same_cards_with_the_teams_swapped(tmp_path: Path) -> None:
    run_arena(["random", EXAMPLE], matches=2, seed=7, backend="serial", records=tmp_path)
    (folder,) = tmp_path.iterdir()
    assert sorted(p.name for p in folder.iterdir()) == [
        "match-0001A.json",
        "match-0001B.json",
        "match-0002A.json",
        "match-0002B.json",
    ]
    for number in (1, 2):
        a, b = (
            Record.from_json((folder / f"match-{number:04d}{half}.json").read_text())
            for half in "AB"
        )
        assert a.meta is not None and b.meta is not None
        assert a.meta["players"] == {"NS": "random", "EW": EXAMPLE}
        assert b.meta["players"] == {"NS": EXAMPLE, "EW": "random"}
        assert a.meta["seeds"]["match"] == number and a.meta["seeds"]["half"] == "A"
        # Seat by seat the same hands and dealers, so each player holds in B what the other
        # held in A; the matches may differ in length.
        shared = min(len(a.deals), len(b.deals))
        assert shared >= 2
        for deal_a, deal_b in zip(a.deals[:shared], b.deals[:shared], strict=True):
            assert deal_a.hands == deal_b.hands and deal_a.dealer == deal_b.dealer
        assert a.deals[0].actions != b.deals[0].actions  # other players on those cards
        a.replay()  # every record is legal
        b.replay()
        other = Record.from_json((folder / f"match-{3 - number:04d}A.json").read_text())
        assert a.deals[0].hands != other.deals[0].hands  # each numbered match its own cards


def outcome(
    number: int,
    swapped: bool,
    result: Result,
    points: tuple[int, int],
    deals: int,
    capped: bool = False,
    failure: str | None = None,
) -> MatchOutcome:
    job = MatchJob(0, "p", "q", number, swapped, 1, Variant(), 200, False)
    return MatchOutcome(
        job, result, deals, points, capped, failure, (10, 5), (0.5, 0.0), (0.1, 0.0), None
    )


def test_statistics_take_the_duplicate_pair_as_the_sample() -> None:
    outcomes = [
        outcome(0, False, "win", (12, 4), 4),
        outcome(0, True, "loss", (6, 10), 4),  # pair 0: (8 - 4) / 8 deals = 0.5
        outcome(1, True, "draw", (20, 20), 10, capped=True),
        outcome(1, False, "win", (9, 3), 5),  # pair 1: 6 / 15 deals = 0.4
        outcome(2, False, "loss", (0, 3), 2, failure="p at N: it broke"),
        outcome(2, True, "win", (10, 2), 6),  # pair 2: 5 / 8 deals = 0.625
        outcome(3, False, "loss", (0, 0), 0, failure="p at N: no start"),  # half a pair only
    ]
    result = summarize("p", "q", outcomes)
    assert (result.wins, result.draws, result.losses, result.capped) == (3, 1, 3, 1)
    assert result.difference == mean_interval([0.5, 0.4, 0.625])
    assert result.difference.mean == pytest.approx(0.5083333)
    assert result.failures == ("match 3A: p at N: it broke", "match 4A: p at N: no start")
    assert result.first.game_points == 57 and result.second.game_points == 42
    assert result.first.deals == 31 and result.first.game_points_per_deal == pytest.approx(57 / 31)
    assert result.first.decisions_per_s == pytest.approx(70 / 3.5)
    assert result.second.decisions_per_s is None  # no time measured: no rate


def test_the_interval_is_student_t_over_the_samples() -> None:
    estimate = mean_interval([1.0, 2.0, 3.0, 4.0, 5.0])
    # t(0.975, 4 degrees of freedom) = 2.7764; standard error sqrt(2.5 / 5).
    assert estimate.mean == 3.0 and estimate.samples == 5
    assert estimate.half_width == pytest.approx(2.7764451 * math.sqrt(0.5))
    assert mean_interval([2.0]).low is None and mean_interval([]).mean is None
    with pytest.raises(ValueError, match="confidence"):
        mean_interval([1.0, 2.0], confidence=95)


def test_a_capped_match_is_a_draw_and_reported() -> None:
    result = run_arena(["random", "random"], matches=2, seed=3, backend="serial", max_deals=1)
    (pairing,) = result.pairings
    # No team reaches 10 in one deal (at most 7 game points), so every match is stopped.
    assert (pairing.wins, pairing.draws, pairing.losses, pairing.capped) == (0, 4, 0, 4)
    assert pairing.first.deals == 4
    assert "single deals: no match ends in one" in result.report()
    capped = run_arena(["random", "random"], matches=1, seed=3, backend="serial", max_deals=2)
    assert f"({capped.pairings[0].capped} stopped at 2 deals, counted as draws)" in capped.report()


def test_round_robin_plays_every_pairing_in_list_order() -> None:
    result = run_arena(["random", "RANDOM", EXAMPLE], matches=1, seed=2, backend="serial")
    assert [(p.first.spec, p.second.spec) for p in result.pairings] == [
        ("random", "RANDOM"),
        ("random", EXAMPLE),
        ("RANDOM", EXAMPLE),
    ]
    assert all(p.matches == 2 and p.first.decisions > 0 for p in result.pairings)


def test_the_process_pool_gives_what_one_process_gives() -> None:
    args: dict[str, Any] = {"players": ["random", "random"], "matches": 2, "seed": 11}
    serial = run_arena(**args, backend="serial")
    pooled = run_arena(**args, backend="process", workers=2)
    assert pooled.workers == 2
    assert figures(pooled) == figures(serial)


def test_more_workers_than_matches_reports_the_processes_that_played() -> None:
    """One duplicate deal pair is two matches: two processes play them, whatever --workers
    asks, and the report says so (it said "64 processes")."""
    args = ["arena", "--players", "random,random", "--deals", "1", "--workers", "64"]
    runner = CliRunner()
    text = runner.invoke(main, args)
    assert text.exit_code == 0, text.output
    assert ", 2 processes, " in text.output.splitlines()[0]
    assert json.loads(runner.invoke(main, [*args, "--json"]).output)["workers"] == 2


@pytest.mark.parametrize(
    ("option", "backend"),
    [(["--workers", "4"], "serial"), (["--address", "10.0.0.1:6379"], "process")],
)
def test_an_option_the_backend_does_not_use_is_refused(option: list[str], backend: str) -> None:
    args = ["arena", "--players", "random,random", "--deals", "1", "--backend", backend, *option]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 2 and f"{option[0]} " in out.output and backend in out.output


@pytest.mark.parametrize("command", ["arena", "train"])
@pytest.mark.parametrize(
    ("address", "said"),
    [
        ("127.0.0.1:{port}", "no Ray cluster answers at 127.0.0.1:{port}"),
        ("ray://127.0.0.1:{port}", "no Ray cluster answers at ray://127.0.0.1:{port}"),
        ("nonsense", "'nonsense' is no Ray cluster's address"),
        ("127.0.0.1:99999", "'127.0.0.1:99999' is no Ray cluster's address"),
    ],
)
def test_a_ray_address_nothing_answers_at_is_refused_at_once(
    command: str, address: str, said: str, tmp_path: Path
) -> None:
    # `--backend ray --address 127.0.0.1:1` waited for the cluster for ever, saying nothing.
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]  # bound, not listening: connections are refused
        given = address.format(port=port)
        args = {
            "arena": ["arena", "--players", "random,random", "--deals", "1"],
            "train": ["train", "--out", str(tmp_path / "run"), "--deals", "64"],
        }[command]
        out = CliRunner().invoke(main, [*args, "--backend", "ray", "--address", given])
    assert out.exit_code == 2, out.output
    assert said.format(port=port) in " ".join(out.output.split()), out.output
    assert not (tmp_path / "run").exists()


HANGING_BOT = """
import json, os, sys, time
log = open(sys.argv[1], "a")
print("start", os.getpid(), file=log, flush=True)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 1, "name": "hangs"}), flush=True)
    elif message["type"] == "act":
        print("act", os.getpid(), file=log, flush=True)
        time.sleep(600)
"""


def test_ctrl_c_ends_the_arena_without_starting_another_match(tmp_path: Path) -> None:
    """SIGINT, as Ctrl-C or to the arena's process alone, ends the matches being played with
    their bots stopped, and no match queued to a pool process starts afterwards (one did: it
    started fresh bots and waited out their 10 s before the arena could end). Unconfined, so
    that the bot can say in a file of the test's when it is asked to act."""
    bot, log = tmp_path / "bot.py", tmp_path / "bot.log"
    bot.write_text(HANGING_BOT, encoding="utf-8")
    command = [sys.executable, "-m", "valtti", "arena", "--sandbox", "none", "--players"]
    command += [f"random,external:{bot} {log}", "--deals", "2", "--workers", "1"]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    arena = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    try:
        while not (log.exists() and "act" in log.read_text()):
            assert arena.poll() is None, arena.communicate()
            time.sleep(0.05)
        arena.send_signal(signal.SIGINT)
        out, err = arena.communicate(timeout=60)
    finally:
        if arena.poll() is None:
            os.killpg(arena.pid, signal.SIGKILL)
    said = "arena stopped by Ctrl-C with 0 of 4 matches played: no figures"
    assert arena.returncode == 130 and err.decode().strip().endswith(said), err
    assert out == b"" and b"Traceback" not in err
    starts = [int(line.split()[1]) for line in log.read_text().splitlines() if "start" in line]
    assert len(starts) == 3  # once to check the spec, its two seats of the first match: no more
    for pid in starts:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_ctrl_c_ends_the_arena_with_its_sandboxed_bots(bot_dir: Path) -> None:
    """The same in the sandbox: every process of the bots' sandboxes is gone after Ctrl-C."""
    bot = bot_dir / "bot.py"
    bot.write_text(HANGING_BOT.replace("sys.argv[1]", "'/dev/null'"), encoding="utf-8")
    command = [sys.executable, "-m", "valtti", "arena", "--players"]
    command += [f"random,external:{bot}", "--deals", "2", "--workers", "1"]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    arena = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 60
        while True:  # until both seats' bots of the first match are running
            assert time.monotonic() < deadline and arena.poll() is None, arena.communicate()
            every = psutil.Process(arena.pid).children(recursive=True)
            bots = [p for p in every if str(bot) in " ".join(p.cmdline()[-1:])]
            if len(bots) >= 2:
                break
            time.sleep(0.05)
        time.sleep(1.0)  # into the match
        every = psutil.Process(arena.pid).children(recursive=True)
        arena.send_signal(signal.SIGINT)
        _, err = arena.communicate(timeout=60)
    finally:
        if arena.poll() is None:
            os.killpg(arena.pid, signal.SIGKILL)
    assert arena.returncode == 130 and b"arena stopped by Ctrl-C" in err, err
    _, alive = psutil.wait_procs(every, timeout=10)
    assert not alive, alive


class _Enough(Exception):
    pass


def test_many_matches_asked_for_take_no_memory_before_they_are_played() -> None:
    """--matches or --deals of millions made a list of every match first: a MemoryError, or
    a machine swapping, before the first card was played."""

    def progress(done: int, total: int) -> None:
        assert total == 2 * 100_000
        if done == 2:
            raise _Enough

    tracemalloc.start()
    try:
        with pytest.raises(_Enough):
            run_arena(["random", "random"], 100_000, 1, backend="serial", progress=progress)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * 2**20


@pytest.mark.slow
def test_ray_backend_on_a_local_instance() -> None:
    ray = pytest.importorskip("ray")
    args: dict[str, Any] = {"players": ["random", "random"], "matches": 1, "seed": 5}
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = run_arena(**args, backend="ray")
        assert ray.is_initialized()  # an instance the caller started is left running
    finally:
        ray.shutdown()
    assert figures(on_ray) == figures(run_arena(**args, backend="serial"))


@pytest.mark.parametrize(
    ("players", "kwargs", "message"),
    [
        (["random"], {}, "at least two players"),
        (["random", "nobody"], {}, "player 'nobody': unknown player"),
        (["random", "external:/no/such/bot"], {}, "player 'external:/no/such/bot': bot"),
        (["random", "random"], {"backend": "mpi"}, "unknown backend 'mpi'"),
        (["random", "random"], {"max_deals": 0}, "max_deals must be at least 1"),
    ],
)
def test_bad_arguments_are_refused_before_any_match(
    players: list[str], kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        run_arena(players, matches=1, seed=1, **kwargs)


class Stubborn(Player):
    """Asks for a whole marriage at every turn: illegal in trick 1 (RULES.md 4.1)."""

    def choose(self, observation: Observation) -> Action:
        return Action.parse("ask-whole")


class Broken(Player):
    def choose(self, observation: Observation) -> Action:
        return observation.legal_actions[len(observation.hand) // 0]


@pytest.mark.parametrize(
    ("player", "message"),
    [
        (Stubborn, "chose ask-whole, which is illegal: "),
        (Broken, "ZeroDivisionError: integer division or modulo by zero"),
    ],
)
def test_a_player_at_fault_forfeits_the_match(
    monkeypatch: pytest.MonkeyPatch, player: type[Player], message: str
) -> None:
    monkeypatch.setitem(registry._FACTORIES, "faulty", lambda level, seed: player())
    result = run_arena(["random", "faulty"], matches=1, seed=1, backend="serial")
    (pairing,) = result.pairings
    assert (pairing.wins, pairing.draws, pairing.losses) == (2, 0, 0)
    assert all(re.match(f"match 1[AB]: faulty at [NESW]: {message}", f) for f in pairing.failures)
    assert len(pairing.failures) == 2


def test_progress_is_reported_for_every_match() -> None:
    seen: list[tuple[int, int]] = []
    run_arena(
        ["random", "random"], 2, 1, backend="serial", progress=lambda d, t: seen.append((d, t))
    )
    assert seen == [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]


def test_command_prints_figures_as_text_json_and_records(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["arena", "--players", "random, random", "--matches", "2", "--backend", "serial"]
    text = runner.invoke(main, args)
    assert text.exit_code == 0, text.output
    assert "random vs random" in text.output and "decisions/s" in text.output
    assert "ms each on average, the slowest" in text.output
    assert "95% CI [" in text.output
    out = runner.invoke(main, [*args, "--json", "--records", str(tmp_path / "games")])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert (data["mode"], data["matches"], data["max_deals"]) == ("matches", 2, 200)
    (pairing,) = data["pairings"]
    assert pairing["wins"] + pairing["draws"] + pairing["losses"] == pairing["matches"] == 4
    assert pairing["difference"]["pairs"] == 2
    assert len(list((tmp_path / "games").rglob("*.json"))) == 4
    for player in pairing["players"]:
        assert player["decisions"] > 0
        mean = 1000 * player["seconds"] / player["decisions"]
        assert player["ms_per_decision"] == pytest.approx(mean)
        assert player["slowest_decision_ms"] >= mean


def test_records_of_an_earlier_run_are_never_overwritten(tmp_path: Path) -> None:
    args = ["arena", "--players", "random,random", "--deals", "1", "--backend", "serial"]
    runner = CliRunner()
    first = runner.invoke(main, [*args, "--records", str(tmp_path)])
    assert first.exit_code == 0, first.output
    kept = {p: p.read_bytes() for p in tmp_path.rglob("*.json")}
    assert len(kept) == 2
    again = runner.invoke(main, [*args, "--seed", "2", "--records", str(tmp_path)])
    assert again.exit_code == 2
    assert "already holds records of an earlier run" in again.output
    assert {p: p.read_bytes() for p in tmp_path.rglob("*.json")} == kept


@pytest.mark.parametrize("how", [["--deals", "3"], ["--matches", "3", "--max-deals", "1"]])
def test_json_of_single_deals_counts_deals_not_matches(how: list[str]) -> None:
    """As the text says, no match ends in one deal: the JSON reports the deals played and their
    game points, never each deal as a drawn match stopped at the cap."""
    args = ["arena", "--players", "random,heuristic", *how, "--seed", "4", "--backend", "serial"]
    runner = CliRunner()
    text = runner.invoke(main, args)
    out = runner.invoke(main, [*args, "--json"])
    assert text.exit_code == 0 and out.exit_code == 0, (text.output, out.output)
    data = json.loads(out.output)
    assert (data["mode"], data["deals"]) == ("deals", 3)
    assert not {"matches", "max_deals"} & set(data)
    (pairing,) = data["pairings"]
    assert not {"matches", "wins", "draws", "losses", "capped"} & set(pairing)
    assert pairing["deals"] == 6 and pairing["failures"] == []
    first, second = pairing["players"]
    assert first["deals"] == second["deals"] == 6
    mean = (first["game_points"] - second["game_points"]) / 6
    assert pairing["difference"]["mean"] == pytest.approx(mean)
    assert pairing["difference"]["pairs"] == 3
    # The text reports the same figures.
    assert "single deals: no match ends in one" in text.output
    assert "won/drawn/lost" not in text.output
    assert f"random − heuristic: {mean:+.3f}" in text.output


def test_the_research_doc_shows_the_json_as_it_is() -> None:
    text = (ROOT / "docs" / "RESEARCH.md").read_text(encoding="utf-8")
    section = text[text.index("## The arena") : text.index("## The evaluation set")]
    (block,) = re.findall(r"```json\n(.*?)```", section, re.S)
    shown = json.loads(block)
    real = run_arena(["random", "random"], 1, 1, backend="serial").to_dict()
    assert list(shown) == list(real)
    assert list(shown["pairings"][0]) == list(real["pairings"][0])
    assert list(shown["pairings"][0]["players"][0]) == list(real["pairings"][0]["players"][0])
    single = run_arena(["random", "random"], 1, 1, backend="serial", max_deals=1).to_dict()
    # As docs/RESEARCH.md says: deals for matches and max_deals, deals for the match counts.
    assert set(real) - set(single) == {"matches", "max_deals"}
    assert set(single) - set(real) == {"deals"}
    assert (real["mode"], single["mode"]) == ("matches", "deals")
    counts = {"matches", "wins", "draws", "losses", "capped"}
    assert set(real["pairings"][0]) - set(single["pairings"][0]) == counts
    assert set(single["pairings"][0]) - set(real["pairings"][0]) == {"deals"}


def test_command_refuses_bad_input_with_a_message() -> None:
    runner = CliRunner()
    bad_player = runner.invoke(main, ["arena", "--players", "random,nobody"])
    assert bad_player.exit_code == 2 and "unknown player 'nobody'" in bad_player.output
    bad_variant = runner.invoke(main, ["arena", "--players", "random,random", "--variant", "x=1"])
    assert bad_variant.exit_code == 2 and "unknown variant switch 'x'" in bad_variant.output


def test_an_empty_records_folder_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--records ""`` was taken as the current folder and filled it with records."""
    monkeypatch.chdir(tmp_path)
    args = ["arena", "--players", "random,random", "--deals", "1", "--backend", "serial"]
    out = CliRunner().invoke(main, [*args, "--records", ""])
    assert out.exit_code == 2, out.output
    assert "Invalid value for '--records': an empty path" in out.output
    assert not list(tmp_path.iterdir())


def test_a_refused_run_makes_no_records_folder(tmp_path: Path) -> None:
    """An unknown player or backend was refused (exit 2) after ``--records`` had been made: an
    empty folder (and its parents) was left behind. A folder that cannot be made is still
    refused, naming it."""
    runner = CliRunner()
    records = tmp_path / "runs" / "new"
    for bad in (["--players", "random,nobody"], ["--players", "random,random", "--backend", "x"]):
        out = runner.invoke(main, ["arena", *bad, "--deals", "1", "--records", str(records)])
        assert out.exit_code == 2, out.output
    assert not (tmp_path / "runs").exists()
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    args = ["arena", "--players", "random,random", "--deals", "1", "--backend", "serial"]
    out = runner.invoke(main, [*args, "--records", str(blocker / "rec")])
    assert out.exit_code == 2, out.output
    assert f"{blocker / 'rec'}: the folder cannot be made (Not a directory)" in out.output
    made = runner.invoke(main, [*args, "--records", str(records)])
    assert made.exit_code == 0, made.output
    assert list(records.rglob("match-*.json"))


@pytest.mark.parametrize("players", ["random,,heuristic", "random,heuristic,", " ,random"])
def test_an_empty_entry_in_the_players_is_refused(players: str) -> None:
    """It was taken for a player named '' ("player '': unknown player ''")."""
    out = CliRunner().invoke(main, ["arena", "--players", players, "--deals", "1"])
    assert out.exit_code == 2, out.output
    assert f"Invalid value for '--players': {players!r} has an empty entry" in out.output


def test_a_figure_just_below_zero_is_printed_as_zero() -> None:
    from valtti.arena.results import _number

    assert _number(-0.0001, "+.3f") == "+0.000"
    assert _number(-0.0001, ".1f") == "0.0"
    assert _number(-0.2, "+.3f") == "-0.200"
    assert _number(1234.0, ",.0f") == "1,234"
