"""How fair is a competition of bots? Each attack of tests/bots/ in a run of ``valtti arena`` or
``valtti leaderboard`` as a competitor would start it (a process of its own), sandboxed (the
default) and unconfined (``--sandbox none``): how many deals each bot named every hidden hand
of; the timing bot's accuracy at telling an opponent's forced move from a choice, with the time
and from the public play alone; and what the sandbox and the pace cost in time.

    python tools/fair_arena.py [--matches 2] [--timing-matches 12] [--cost-matches 4]

tests/arena/test_arena_fairness.py runs the same attacks and judges them with these functions.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "tests" / "bots"
EXAMPLE = ROOT / "examples" / "external_bot.py"

#: A gap between a bot's answer and the host's next message: the tricks of the opponents' moves
#: in it (public), its length in seconds, and whether one of those moves was forced.
Gap = tuple[tuple[int, ...], float, bool]
#: What a rule says of a kind of gap: a threshold on its length, the direction (1: shorter is
#: forced) and, with no threshold (0), the answer for every gap of the kind.
Rule = tuple[float, int, bool]


def run_valtti(
    folder: Path, *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``valtti ARGS`` as a process of its own in ``folder``, as a competitor would start it:
    what its bots may find of it (its command line, its memory) is what they would find then.
    ``RuntimeError`` with its error output if it fails."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-m", "valtti", *args],
        cwd=folder,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    if done.returncode != 0:
        raise RuntimeError(f"valtti {' '.join(args)} failed: {done.stderr}")
    return done


def reports(log: Path) -> list[dict[str, Any]]:
    """What the bots reported: a JSON object a line of the run's log (``MATCH SEAT SPEC: …``)."""
    found = []
    for line in log.read_text(encoding="utf-8").splitlines():
        text = line.split(": ", 1)[1]
        if text.startswith("{"):
            found.append(json.loads(text))
    return found


def deals(log: Path) -> list[dict[str, Any]]:
    """The bots' reports of the deals they played: whether they named the four hands, and
    whether rightly."""
    return [r for r in reports(log) if "named" in r]


def named(reported: Sequence[dict[str, Any]]) -> int:
    """How many of the deals the bot named all four hands of; ``ValueError`` if it named any
    wrongly (the attack's own check)."""
    if not all(d["right"] for d in reported if d["named"]):
        raise ValueError("a bot named hands that were not the deal's")
    return sum(bool(d["named"]) for d in reported)


def gaps(log: Path) -> list[Gap]:
    """The timing bot's gaps in the run's log."""
    return [(tuple(r["tricks"]), r["gap"], r["forced"]) for r in reports(log) if "gap" in r]


def _learn(seen: Sequence[Gap], timed: bool) -> dict[tuple[int, ...], Rule]:
    """For each kind of gap: with ``timed`` the best threshold on its length, else (and where
    no threshold does better) the commoner answer."""
    rules = {}
    for kind in {k for k, _, _ in seen}:
        these = [(g, f) for k, g, f in seen if k == kind]
        commoner = sum(f for _, f in these) * 2 >= len(these)
        best: tuple[Rule, int] = ((0.0, 1, commoner), sum(f == commoner for _, f in these))
        for threshold, _ in these if timed else ():
            for direction in (1, -1):
                right = sum((g * direction < threshold * direction) == f for g, f in these)
                if right > best[1]:
                    best = (threshold, direction, True), right
        rules[kind] = best[0]
    return rules


def _right(rules: dict[tuple[int, ...], Rule], judged: Sequence[Gap]) -> int:
    right = 0
    for kind, length, forced in judged:
        threshold, direction, answer = rules.get(kind, (0.0, 1, False))
        said = length * direction < threshold * direction if threshold else answer
        right += said == forced
    return right


def judge_timing(seen: Sequence[Gap]) -> tuple[float, float]:
    """How often a rule tells whether an opponent's move in a gap was forced: with the gap's
    length, and from what is public alone (the tricks of the opponents' moves in it, which set
    how long the host's players think). Each rule is learnt on half the gaps and judged on the
    other half, each half in turn."""
    halves = list(seen[::2]), list(seen[1::2])
    timed, public = (
        sum(_right(_learn(learn, use), judge) for learn, judge in (halves, halves[::-1]))
        / len(seen)
        for use in (True, False)
    )
    return timed, public


def attack(folder: Path, bot: str, command: str, sandbox: str, matches: int) -> tuple[int, int]:
    """The deals ``bot`` played and named every hand of, in a run of ``command`` (arena or
    leaderboard) against random and quick in ``sandbox``."""
    log = folder / f"{bot}-{command}-{sandbox}.log"
    # The notes bot's folder in /tmp, one a run: not named as a path, which the sandbox would show.
    notes = f" notes={folder}/notes-{command}-{sandbox}" if bot == "notes_bot.py" else ""
    players = f"external:{BOTS / bot}{notes},random,quick"
    if command == "arena":
        size = ["--matches", str(matches), "--max-deals", "3", "--records", f"{bot}-{sandbox}"]
    else:
        size = ["--no-shipped", "--deals", str(2 * matches), "--state", f"{bot}-{sandbox}.json"]
        size += ["--out", os.devnull, "--seed", "987654"]  # a seed on its command line
    if bot == "cmdline_bot.py" and command == "arena":
        size += ["--seed", "987654"]  # as the leaderboard: a seed given on the command line
    run_valtti(folder, command, "--players", players, *size, "--sandbox", sandbox,
               "--bot-log", str(log))  # fmt: skip
    played = deals(log)
    return len(played), named(played)


def timing(folder: Path, sandbox: str, matches: int) -> tuple[float, float, int, float]:
    """The timing bot against search:easy in ``sandbox``: its accuracy with the time and from
    the public play, the gaps judged, and the run's seconds."""
    log = folder / f"timing-{sandbox}.log"
    players = f"external:{BOTS / 'timing_bot.py'},search:easy"
    start = time.perf_counter()
    run_valtti(folder, "arena", "--players", players, "--matches", str(matches),
               "--variant", "target=12", "--sandbox", sandbox, "--bot-log", str(log))  # fmt: skip
    seconds = time.perf_counter() - start
    seen = gaps(log)
    timed, public = judge_timing(seen)
    return timed, public, len(seen), seconds


def cost(folder: Path, other: str, sandbox: str, matches: int) -> float:
    """Seconds of an arena run of the example bot against ``other`` in one worker."""
    start = time.perf_counter()
    run_valtti(folder, "arena", "--players", f"external:{EXAMPLE},{other}", "--matches",
               str(matches), "--seed", "1", "--workers", "1", "--sandbox", sandbox)  # fmt: skip
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=2, help="duplicate pairs a pairing")
    parser.add_argument("--timing-matches", type=int, default=12)
    parser.add_argument("--cost-matches", type=int, default=4)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        folder.chmod(0o755)
        print("attack                command      sandbox  deals  named")
        runs = [
            (bot, command)
            for bot in ("records_bot.py", "cmdline_bot.py", "memory_bot.py", "notes_bot.py")
            for command in ("arena", "leaderboard")
            if (bot, command) != ("records_bot.py", "leaderboard")  # it keeps no records
        ]
        for bot, command in runs:
            for sandbox in ("bwrap", "none"):
                played, found = attack(folder, bot, command, sandbox, options.matches)
                print(f"{bot:<21} {command:<12} {sandbox:<8} {played:>5}  {found:>5}")
        print("\ntiming bot against search:easy: accuracy with the time / from the public play")
        for sandbox in ("bwrap", "none"):
            timed, public, judged, seconds = timing(folder, sandbox, options.timing_matches)
            print(f"  {sandbox:<6} {timed:.3f} / {public:.3f} over {judged} gaps ({seconds:.0f} s)")
        print("\nseconds of a run of the example bot, sandboxed and paced / unconfined")
        for other in ("random", "heuristic", "search:easy"):
            paced, unconfined = (
                cost(folder, other, s, options.cost_matches) for s in ("bwrap", "none")
            )
            print(f"  {other:<12} {paced:6.1f} / {unconfined:6.1f}  ({paced / unconfined:.2f}×)")


if __name__ == "__main__":
    main()
