"""A competition no bot can cheat (docs/PROTOCOL.md, A fair arena): the attacks a bot of others
could make on the host, each run as a competitor would run it (``valtti arena`` or ``valtti
leaderboard`` as a process of its own, the bots in tests/bots/), naming no hidden hand in a
default run; and each shown to work with ``--sandbox none``, so that every test can fail.

The bots report what they found on their standard error, which the run keeps in its log
(``--bot-log``): a sandboxed bot can write nowhere else the test could read.
"""

from __future__ import annotations

import importlib.util
import json
import re
import stat
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from click.testing import CliRunner

from valtti.arena import run_arena
from valtti.arena.leaderboard import Board, report
from valtti.arena.match import MatchJob
from valtti.arena.run import _Queue
from valtti.cli import main
from valtti.engine import Variant
from valtti.table import derive_seed

TOOL = Path(__file__).resolve().parents[2] / "tools" / "fair_arena.py"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fair_arena", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: tools/fair_arena.py: the runs as a competitor starts them, and how the bots' reports are read.
fair = _tool()
BOTS: Path = fair.BOTS
valtti = fair.run_valtti
reports = fair.reports
named = fair.named

pytestmark = pytest.mark.slow


def attack(
    folder: Path, bot: str, *args: str, sandbox: str = "bwrap", others: str = "random"
) -> list[dict[str, Any]]:
    """Each deal's report of ``bot`` in an arena run against ``others`` with ``args`` in
    ``sandbox``."""
    log = folder / f"{bot.split()[0]}-{sandbox}.log"
    players = f"external:{BOTS / bot},{others}"
    valtti(
        folder, "arena", "--players", players, *args, "--sandbox", sandbox, "--bot-log", str(log)
    )
    deals: list[dict[str, Any]] = fair.deals(log)
    assert len(deals) >= 8, reports(log)  # the bot played (and reported) every deal
    return deals


@pytest.mark.parametrize("sandbox", ["bwrap", "none"])
def test_a_bot_reading_the_records_of_earlier_pairings_names_no_hand(
    tmp_path: Path, sandbox: str
) -> None:
    """Every pairing deals the same cards; from its second pairing the bot looks its cards up
    in the records of the first (``--records`` on an ancestor's command line, hidden folders
    too). They are out of its sight in the sandbox."""
    args = ["--matches", "1", "--max-deals", "3", "--records", "records"]
    deals = attack(tmp_path, "records_bot.py", *args, sandbox=sandbox, others="random,quick")
    if sandbox == "bwrap":
        assert named(deals) == 0
    else:
        assert named(deals) > 0  # the control: unconfined, it reads the records


def test_the_records_are_published_when_the_run_ends(tmp_path: Path) -> None:
    """Until then they are kept where only the run's user may look, and never hold the arena's
    seed."""
    records = tmp_path / "records"
    seen: list[list[str]] = []

    def progress(done: int, total: int) -> None:
        seen.append(sorted(p.name for p in records.glob("*/*.json")))
        assert stat.S_IMODE((records / ".unpublished").stat().st_mode) == 0o700

    run_arena(
        ["random", "random"], 2, 3, backend="serial", max_deals=2, records=records,
        progress=progress,
    )  # fmt: skip
    assert seen == [[]] * 5  # nothing published while it ran: before any match, after each
    published = sorted(p.name for p in records.glob("*/*.json"))
    assert published == ["match-0001A.json", "match-0001B.json", "match-0002A.json",
                         "match-0002B.json"]  # fmt: skip
    assert not (records / ".unpublished").exists()
    for path in records.rglob("*.json"):
        meta = json.loads(path.read_text(encoding="utf-8"))["meta"]
        assert "arena" not in meta["seeds"] and 3 not in meta["seeds"].values()


@pytest.mark.parametrize("interrupted_after", [1, 3])
def test_a_run_stopped_part_way_publishes_the_matches_it_played(
    tmp_path: Path, interrupted_after: int
) -> None:
    class Stop(Exception):
        pass

    def progress(done: int, total: int) -> None:
        if done == interrupted_after:
            raise Stop

    with pytest.raises(Stop):
        run_arena(
            ["random", "random"], 2, 3, backend="serial", max_deals=1, records=tmp_path,
            progress=progress,
        )  # fmt: skip
    assert len(list(tmp_path.glob("*/*.json"))) == interrupted_after
    assert not (tmp_path / ".unpublished").exists()


@pytest.mark.parametrize("sandbox", ["bwrap", "none"])
def test_a_bot_reading_a_seed_off_its_ancestors_command_lines_names_no_hand(
    tmp_path: Path, sandbox: str
) -> None:
    """As docs/PROTOCOL.md once advised: ``valtti leaderboard --players external:BOT --seed S``
    with the state in a private folder. Every program may read ``/proc/PID/cmdline``, but in
    the sandbox no process of the host is in view."""
    log = tmp_path / "bots.log"
    valtti(
        tmp_path,
        *("leaderboard", "--players", f"external:{BOTS / 'cmdline_bot.py'},random", "--no-shipped"),
        *("--deals", "6", "--seed", "987654", "--state", "state.json", "--out", "board.md"),
        *("--sandbox", sandbox, "--bot-log", str(log)),
    )
    deals = [r for r in reports(log) if "named" in r]
    assert len(deals) == 4 * 6  # two seats a match, two matches a deal pair
    if sandbox == "bwrap":
        assert named(deals) == 0
    else:
        assert named(deals) == len(deals)  # the control: every hand of every deal


@pytest.mark.parametrize("bot", ["memory_bot.py", "notes_bot.py", "cmdline_bot.py"])
def test_in_a_default_leaderboard_run_no_attacking_bot_names_a_hand(
    tmp_path: Path, bot: str
) -> None:
    log = tmp_path / "bots.log"
    valtti(
        tmp_path,
        *("leaderboard", "--players", f"external:{BOTS / bot},random,quick", "--no-shipped"),
        *("--deals", "4", "--state", "state.json", "--out", "board.md", "--bot-log", str(log)),
    )
    deals = [r for r in reports(log) if "named" in r]
    assert len(deals) == 2 * 4 * 4  # two pairings of the bot, four deal pairs, two seats a deal
    assert named(deals) == 0


def test_the_leaderboard_ranks_a_bot_on_a_secret_seed_published_when_complete(
    tmp_path: Path,
) -> None:
    """No seed given: a secret one, in no command line and in a state file only its user may
    read, even for a bot out of the sandbox; the table shows it when every pair is played, and
    the same seed given again plays the same board."""
    log = tmp_path / "bots.log"
    args = ["leaderboard", "--players", f"external:{BOTS / 'cmdline_bot.py'},random"]
    args += ["--no-shipped", "--deals", "3", "--state", "state.json", "--out", "board.md"]
    done = valtti(tmp_path, *args, "--sandbox", "none", "--bot-log", str(log))
    assert "warning: --sandbox none" in done.stderr
    assert named([r for r in reports(log) if "named" in r]) == 0
    state = tmp_path / "state.json"
    assert stat.S_IMODE(state.stat().st_mode) == 0o600
    assert stat.S_IMODE(log.stat().st_mode) == 0o600
    board = Board.from_json(state.read_text(encoding="utf-8"))
    assert board.secret and board.seed != 2026
    assert f"secret seed, published now: --seed {board.seed} plays the same" in done.stdout
    table = (tmp_path / "board.md").read_text(encoding="utf-8")
    assert f"seed {board.seed}, drawn in secret for this board and published now" in table
    assert "**Warning**: --sandbox none" in table
    # Given again, from a file: the same deals, the same board.
    (tmp_path / "seed").write_text(f"{board.seed}\n")
    again = ["--state", "again.json", "--out", "again.md", "--seed-file", "seed"]
    valtti(tmp_path, *args[:-4], *again, "--sandbox", "none", "--bot-log", str(log))
    replayed = Board.from_json((tmp_path / "again.json").read_text(encoding="utf-8"))
    assert replayed.seed == board.seed and not replayed.secret
    assert replayed.pairs == board.pairs


def test_a_secret_seeds_table_hides_it_while_pairs_are_missing() -> None:
    board = Board(123456789, 3, Variant(), ["a", "b"], secret=True)
    assert "123456789" not in report(board)
    assert "secret seed, published here when every pairing is complete" in report(board)
    board.pairs[("a", "b")] = {0: (1, 0), 1: (0, 1), 2: (2, 2)}
    assert "seed 123456789, drawn in secret" in report(board)


@pytest.mark.parametrize("sandbox", ["bwrap", "none"])
def test_a_bot_reading_the_hosts_memory_names_no_hand(tmp_path: Path, sandbox: str) -> None:
    """The bot scans its parent's memory (``/proc/PPID/mem``) for the engine's four hands."""
    deals = attack(tmp_path, "memory_bot.py", "--matches", "2", "--max-deals", "2", sandbox=sandbox)
    if sandbox == "bwrap":
        assert named(deals) == 0
    else:
        assert named(deals) == len(deals)  # the control: the worker's memory holds them all


@pytest.mark.parametrize("sandbox", ["bwrap", "none"])
@pytest.mark.parametrize("where", ["notes", "keyring"])
def test_copies_of_a_bot_leaving_each_other_notes_name_no_hand(
    tmp_path: Path, sandbox: str, where: str
) -> None:
    """The two halves of a pair deal the same cards with the teams swapped: four copies of one
    bot hold all four seats, and write their hands where the others may read them: in files of
    the machine's /tmp, or in the kernel's keyring of the user they run as (each sandbox's
    user namespace has its own)."""
    args = ["--matches", "2", "--max-deals", "2"]
    # Its notes' place, of this test only: not named as a path, which the sandbox would show.
    name = f"{tmp_path}/notes" if where == "notes" else f"valtti-{tmp_path.name}"
    try:
        deals = attack(tmp_path, f"notes_bot.py {where}={name}", *args, sandbox=sandbox)
    finally:
        if where == "keyring":
            _forget_keys(name)
    if sandbox == "bwrap":
        assert named(deals) == 0
    else:
        assert named(deals) > 0  # the control: the second half reads the first's notes


def _forget_keys(name: str) -> None:
    """Invalidate the notes bot's keys named ``name`` in this user's keyring (the control's,
    unconfined: they would outlive the test)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    keys = ctypes.create_string_buffer(4 * 4096)
    size = libc.syscall(250, 11, -4, keys, len(keys))  # keyctl(KEYCTL_READ, @u)
    for at in range(0, max(0, min(size, len(keys))), 4):
        key = int.from_bytes(keys.raw[at : at + 4], "little", signed=True)
        text = ctypes.create_string_buffer(1024)
        if libc.syscall(250, 6, key, text, len(text)) > 0 and f";{name}|" in text.value.decode(
            errors="replace"
        ):
            libc.syscall(250, 21, key)  # KEYCTL_INVALIDATE


def test_no_two_matches_on_the_same_cards_are_played_at_once_where_a_program_plays() -> None:
    jobs = [
        MatchJob(k, "a", "b", number, swapped, 1, Variant(), 1, False)
        for k in range(3)
        for number in range(4)
        for swapped in (False, True)
    ]
    queue = _Queue(iter(jobs), apart=True)
    playing = [job for job in iter(queue.next, None)]
    assert len({job.match_seed for job in playing}) == len(playing) == 4
    queue.finished(playing[0])
    (after,) = list(iter(queue.next, None))
    assert after.match_seed == playing[0].match_seed  # its cards are free again
    honest = _Queue(iter(jobs), apart=False)
    assert len(list(iter(honest.next, None))) == len(jobs)  # no such rule without a program


def attacker() -> ModuleType:
    sys.path.insert(0, str(BOTS))  # the bot imports its neighbour, spy.py
    try:
        spec = importlib.util.spec_from_file_location("seed_bot", BOTS / "seed_bot.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BOTS))
    return module


def seed_attack(folder: Path, *options: str) -> tuple[list[dict[str, Any]], str]:
    log = folder / "bots.log"
    args = ["arena", "--players", f"external:{BOTS / 'seed_bot.py'},random", "--matches", "1"]
    out = CliRunner().invoke(
        main, [*args, "--max-deals", "3", "--backend", "serial", "--bot-log", str(log), *options]
    )
    assert out.exit_code == 0, out.output
    return reports(log), out.output


def test_the_seed_attacks_work_on_the_seeds_a_person_gives(tmp_path: Path) -> None:
    """The control: with a public seed the bot names all four hands of every deal, rightly; and
    its search finds an arena seed from a player's seed derived from it, as the arena derived
    every player's seed before."""
    found, _ = seed_attack(tmp_path, "--seed", "5")
    deals = [f for f in found if "named" in f]
    assert deals and named(deals) == len(deals)
    crack = attacker().crack_seed
    assert crack(derive_seed(5, "player", 3, "B", "W")) == 5
    assert crack(derive_seed(1000, "player", 3, "B", "W")) is None


def test_a_bot_in_a_default_arena_run_finds_no_seed(tmp_path: Path) -> None:
    found, text = seed_attack(tmp_path)
    assert not any(f.get("cracked") or f.get("named") for f in found)
    # The seed was new and is told only now, with the results, so the run can be played again.
    told = re.search(r"seed (\d+), variant", text)
    assert told is not None
    seed = int(told.group(1))
    assert f"(a new seed, secret until now: --seed {seed} deals the same again)" in text


def test_a_bot_is_never_seeded_from_the_arena_seed(tmp_path: Path) -> None:
    """Even with a public arena seed, the seed a program is given comes from a secret: the
    bot's search of the small seeds finds nothing."""
    found, text = seed_attack(tmp_path, "--seed", "7")
    assert [f["cracked"] for f in found if "cracked" in f] == [False, False, False, False]
    assert "warning: a seed on the command line can be read by every program" in text


def test_a_seed_from_a_file_or_the_standard_input_deals_as_the_same_seed_given(
    tmp_path: Path,
) -> None:
    args = ["arena", "--players", "random,heuristic", "--deals", "2", "--backend", "serial"]
    runner = CliRunner()
    given = json.loads(runner.invoke(main, [*args, "--json", "--seed", "77"]).output)
    (tmp_path / "seed").write_text("77\n")
    from_file = runner.invoke(main, [*args, "--json", "--seed-file", str(tmp_path / "seed")])
    from_stdin = runner.invoke(main, [*args, "--json", "--seed-file", "-"], input=" 77 \n")
    for result in (from_file, from_stdin):
        figures = json.loads(result.output)
        assert figures["seed"] == 77
        assert figures["pairings"][0]["difference"] == given["pairings"][0]["difference"]
    (tmp_path / "bad").write_text("seventy-seven")
    bad = runner.invoke(main, [*args, "--seed-file", str(tmp_path / "bad")])
    assert bad.exit_code == 2 and "holds no seed (one whole number)" in bad.output
    both = runner.invoke(main, [*args, "--seed", "1", "--seed-file", str(tmp_path / "seed")])
    assert both.exit_code == 2 and "--seed or --seed-file, not both" in both.output


def test_a_given_seed_plays_the_same_run_again() -> None:
    args = ["arena", "--players", "random,heuristic", "--deals", "2", "--backend", "serial"]
    runner = CliRunner()
    first = json.loads(runner.invoke(main, [*args, "--json"]).output)
    again = json.loads(runner.invoke(main, [*args, "--json", "--seed", str(first["seed"])]).output)
    assert first["seed"] < 2**53
    assert again["pairings"][0]["difference"] == first["pairings"][0]["difference"]


def test_a_bot_timing_the_host_tells_forced_moves_from_choices_no_better_than_chance(
    tmp_path: Path,
) -> None:
    """Where a program sits, the host's players keep a pace (``table.pace``): the gap before the
    host's next message tells the timing bot no better whether an opponent's move was forced
    than the public play does (the tricks of the moves, which set how long they take)."""
    timed, public, judged, _ = fair.timing(tmp_path, "bwrap", 12)
    assert judged >= 300
    assert timed <= public + 0.05, (timed, public, judged)
    # The control: the same bot and players, unpaced (--sandbox none trusts the bots).
    timed, public, judged, _ = fair.timing(tmp_path, "none", 12)
    assert timed >= public + 0.08, (timed, public, judged)
