"""A fair arena: no bot learns a hidden hand from the run's seeds or records (docs/PROTOCOL.md,
"A fair arena"). The bot of tests/bots/seed_attack_bot.py makes the attacks a bot of others
could: it works the arena's seed out from its own seed, or looks its cards up among the deals
of the seeds people give."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from click.testing import CliRunner

from valtti.arena import run_arena
from valtti.cli import main
from valtti.table import derive_seed

BOT = Path(__file__).resolve().parent / "bots" / "seed_attack_bot.py"


def attacker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("seed_attack_bot", BOT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def attack(tmp_path: Path, *options: str) -> tuple[list[dict[str, Any]], str]:
    """What the bot found in each deal it played, in an arena run with ``options``, and the
    run's text."""
    report = tmp_path / "found.jsonl"
    bot = f"external:{sys.executable} {BOT} {report}"
    args = ["arena", "--players", f"{bot},random", "--matches", "1", "--max-deals", "3"]
    out = CliRunner().invoke(main, [*args, "--backend", "serial", *options])
    assert out.exit_code == 0, out.output
    found = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    assert len(found) >= 4  # two matches of at least two deals each: the bot played them all
    return found, out.output


def test_the_attacks_work_on_the_seeds_a_person_gives(tmp_path: Path) -> None:
    """The control: with a public seed the bot names all four hands of every deal, rightly; and
    its search finds an arena seed from a player's seed derived from it, as the arena derived
    every player's seed before."""
    found, _ = attack(tmp_path, "--seed", "5")
    assert all(f["named"] and f["right"] for f in found)
    crack = attacker().crack_seed
    assert crack(derive_seed(5, "player", 3, "B", "W")) == 5
    assert crack(derive_seed(1000, "player", 3, "B", "W")) is None


def test_a_bot_in_a_default_arena_run_names_no_hidden_hand(tmp_path: Path) -> None:
    found, text = attack(tmp_path)
    assert not any(f["cracked"] or f["named"] for f in found)
    # The seed was new and is told only now, with the results, so the run can be played again.
    told = re.search(r"seed (\d+), variant", text)
    assert told is not None
    seed = int(told.group(1))
    assert f"(a new seed, secret until now: --seed {seed} deals the same again)" in text


def test_a_bot_is_never_seeded_from_the_arena_seed(tmp_path: Path) -> None:
    """Even with a public arena seed, the seed a program is given comes from a secret: the
    bot's search of the small seeds finds nothing."""
    found, _ = attack(tmp_path, "--seed", "7")
    assert not any(f["cracked"] for f in found)


def test_a_given_seed_plays_the_same_run_again() -> None:
    args = ["arena", "--players", "random,heuristic", "--deals", "2", "--backend", "serial"]
    runner = CliRunner()
    first = json.loads(runner.invoke(main, [*args, "--json"]).output)
    again = json.loads(runner.invoke(main, [*args, "--json", "--seed", str(first["seed"])]).output)
    assert first["seed"] < 2**53
    assert again["pairings"][0]["difference"] == first["pairings"][0]["difference"]


def test_a_halfs_record_waits_for_the_other_half(tmp_path: Path) -> None:
    """A bot that can read the records folder finds no record of the pair it is playing: the
    first half's record is written with the second's, and never holds the arena's seed."""
    written: list[int] = []

    def progress(done: int, total: int) -> None:
        written.append(len(list(tmp_path.rglob("*.json"))))

    run_arena(
        ["random", "random"],
        2,
        3,
        backend="serial",
        max_deals=2,
        records=tmp_path,
        progress=progress,
    )
    assert written == [0, 0, 2, 2, 4]  # before any match, then after each of the four
    for path in tmp_path.rglob("*.json"):
        meta = json.loads(path.read_text(encoding="utf-8"))["meta"]
        assert "arena" not in meta["seeds"]
        assert 3 not in meta["seeds"].values()


@pytest.mark.parametrize("interrupted_after", [1, 3])
def test_a_run_stopped_part_way_keeps_the_halves_it_played(
    tmp_path: Path, interrupted_after: int
) -> None:
    class Stop(Exception):
        pass

    def progress(done: int, total: int) -> None:
        if done == interrupted_after:
            raise Stop

    with pytest.raises(Stop):
        run_arena(
            ["random", "random"],
            2,
            3,
            backend="serial",
            max_deals=1,
            records=tmp_path,
            progress=progress,
        )
    assert len(list(tmp_path.rglob("*.json"))) == interrupted_after
