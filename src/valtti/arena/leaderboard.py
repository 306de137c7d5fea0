"""The leaderboard: every shipped player (and any others named) on the evaluation set, in
duplicate, every two of them, resumably; ranked by Bradley–Terry ratings (``ratings``) and by
game points per deal against a fixed reference.

Each pairing plays the evaluation set of the seed (``valtti arena --deals N --seed S``: deal
pair k is the first deal of match k of the seed, played twice with the seats swapped). What is
played is kept in a state file (JSON, written atomically every few seconds and when the run
stops): run again with the same file, it plays only the pairs still missing, and players added
since meet every player already there. ``report`` writes docs/LEADERBOARD.md from it.
"""

from __future__ import annotations

import itertools
import json
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

from valtti.arena.match import MatchJob, MatchOutcome
from valtti.arena.ratings import ratings
from valtti.arena.results import UNCONFINED
from valtti.arena.run import BACKENDS, BotLog, check_players, play_jobs
from valtti.engine import Variant
from valtti.players.registry import starts_program
from valtti.players.sandbox import SANDBOX, Sandbox
from valtti.players.stats import mean_interval
from valtti.table import fresh_seed

#: Every player the project ships, as the leaderboard plays them.
SHIPPED: Final = (
    "random",
    "heuristic",
    "learned",
    "search:easy",
    "search:medium",
    "search:hard",
    "pimc:easy",
    "pimc:medium",
    "pimc:hard",
)
#: The evaluation set results are cited on (docs/RESEARCH.md).
EVALUATION_SEED: Final = 2026
#: The player the game points per deal are measured against, and rated 0.
REFERENCE: Final = "heuristic"
#: Seconds between two writes of the state file while a run goes on.
SAVE_EVERY: Final = 10.0
#: The state file's format.
VERSION: Final = 1

__all__ = [
    "EVALUATION_SEED",
    "REFERENCE",
    "SHIPPED",
    "Board",
    "bot_log_of",
    "play_leaderboard",
    "report",
]


@dataclass
class Board:
    """What the leaderboard has played: the state file's content."""

    seed: int
    deals: int  #: duplicate deal pairs per pairing
    variant: Variant
    players: list[str]
    #: (first, second) → {pair number: (first's game points, second's) over its two deals}
    pairs: dict[tuple[str, str], dict[int, tuple[int, int]]] = field(default_factory=dict)
    #: each player's decisions and seconds spent deciding
    clocks: dict[str, tuple[int, float]] = field(default_factory=dict)
    seconds: float = 0.0  #: wall-clock time spent playing, over every run
    runs: int = 0
    command: str = ""
    updated: str = ""
    #: The seed was drawn in secret for this board: the table shows it once it is complete.
    secret: bool = False
    #: Some run let programs play outside a sandbox (``--sandbox none``).
    unconfined: bool = False

    def pairings(self) -> list[tuple[str, str]]:
        return list(itertools.combinations(self.players, 2))

    def missing(self) -> int:
        """Deal pairs still to play."""
        return sum(self.deals - len(self.pairs.get(p, {})) for p in self.pairings())

    def to_json(self) -> str:
        return json.dumps(
            {
                "version": VERSION,
                "seed": self.seed,
                "deals": self.deals,
                "variant": self.variant.changes(),
                "players": self.players,
                "pairings": [
                    {"players": list(key), "pairs": {str(k): list(v) for k, v in sorted(d.items())}}
                    for key, d in self.pairs.items()
                ],
                "clocks": {p: list(c) for p, c in self.clocks.items()},
                "seconds": self.seconds,
                "runs": self.runs,
                "command": self.command,
                "updated": self.updated,
                "secret": self.secret,
                "unconfined": self.unconfined,
            },
            indent=1,
        )

    @classmethod
    def from_json(cls, text: str) -> Board:
        """A board from its state file; ``ValueError`` saying what is wrong with it."""
        try:
            data = json.loads(text)
            if data.get("version") != VERSION:
                raise ValueError(f"version {data.get('version')!r}, not {VERSION}")
            return cls(
                seed=int(data["seed"]),
                deals=int(data["deals"]),
                variant=Variant.from_mapping(data["variant"]),
                players=[str(p) for p in data["players"]],
                pairs={
                    (str(e["players"][0]), str(e["players"][1])): {
                        int(k): (int(v[0]), int(v[1])) for k, v in e["pairs"].items()
                    }
                    for e in data["pairings"]
                },
                clocks={str(p): (int(c[0]), float(c[1])) for p, c in data["clocks"].items()},
                seconds=float(data["seconds"]),
                runs=int(data["runs"]),
                command=str(data["command"]),
                updated=str(data["updated"]),
                secret=bool(data.get("secret", False)),
                unconfined=bool(data.get("unconfined", False)),
            )
        except (KeyError, TypeError, IndexError, AttributeError) as e:
            raise ValueError(f"not a leaderboard state: {type(e).__name__} {e}") from None
        except ValueError as e:
            raise ValueError(f"not a leaderboard state: {e}") from None

    @property
    def seed_shown(self) -> bool:
        """Whether the table may show the seed: a public one, or a secret one once every
        pairing is complete (before, a bot of a later run could deal its cards from it)."""
        return not self.secret or not self.missing()

    def save(self, path: Path) -> None:
        """Write the state to ``path`` atomically (a file beside it, renamed over it), readable
        by its user only: it holds the seed."""
        self.updated = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
        with os.fdopen(os.open(temporary, flags, 0o600), "w", encoding="utf-8") as file:
            file.write(self.to_json() + "\n")
        os.replace(temporary, path)


def bot_log_of(state: Path) -> Path:
    """The log of the programs' standard error kept beside the state file ``state``."""
    return state.with_name(state.name + ".bots.log")


def _load(
    state: Path, players: Sequence[str], deals: int, seed: int | None, variant: Variant
) -> Board:
    """The board in ``state``, or a new one. A new board's seed: ``seed``, else a secret one
    where a program is ranked, else the evaluation set's; a kept board keeps its own."""
    if not state.exists():
        secret = seed is None and any(starts_program(p) for p in players)
        if seed is None:
            seed = fresh_seed() if secret else EVALUATION_SEED
        return Board(seed, deals, variant, list(dict.fromkeys(players)), secret=secret)
    try:
        board = Board.from_json(state.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"{state} cannot be read: {e}") from None
    except ValueError as e:
        raise ValueError(f"{state}: {e}") from None
    kept = (board.seed, board.deals, board.variant)
    if kept != (board.seed if seed is None else seed, deals, variant):
        seed_text = "a secret seed" if board.secret else f"seed {board.seed}"
        raise ValueError(
            f"{state} holds a leaderboard of {seed_text}, {board.deals} deal pairs, "
            f"variant {board.variant}: give those options again, or another --state"
        )
    board.players = list(dict.fromkeys([*board.players, *players]))
    return board


def play_leaderboard(
    players: Sequence[str],
    deals: int,
    state: Path,
    seed: int | None = None,
    variant: Variant | None = None,
    workers: int | None = None,
    backend: str = "process",
    command: str = "",
    progress: Callable[[int, int], None] | None = None,
    *,
    sandbox: Sandbox = SANDBOX,
    bot_log: Path | None = None,
) -> Board:
    """Play what the leaderboard in ``state`` is missing for ``players`` (and the players it
    already holds) and return it, saved. ``seed``: the evaluation set; ``None``, the state's,
    or for a new board ``EVALUATION_SEED``, or a secret one where a program is ranked.
    Programs run in ``sandbox``, which is kept from the state file and ``bot_log`` (by default
    ``bot_log_of(state)``), where their standard error goes. ``ValueError`` for bad options, a
    player that cannot be made, or a state file of other settings; Ctrl-C saves what was played
    and re-raises."""
    variant = variant or Variant()
    bot_log = bot_log or bot_log_of(state)
    sandbox = sandbox.keeping(state, bot_log)
    if deals < 1:
        raise ValueError(f"deals must be at least 1, not {deals}")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}: known are {', '.join(BACKENDS)}")
    board = _load(state, players, deals, seed, variant)
    if len(board.players) < 2:
        raise ValueError("the leaderboard needs at least two players")
    check_players(board.players, sandbox)
    programs = any(starts_program(p) for p in board.players)
    board.unconfined |= programs and not sandbox.confined
    log = BotLog(bot_log)
    board.runs += 1
    board.command = command or board.command
    pairings = board.pairings()
    total = board.missing()
    halves: dict[tuple[int, int], MatchOutcome] = {}
    played = [0]
    start = last = time.perf_counter()
    counted = start  # the time up to which ``board.seconds`` counts

    def account() -> None:
        nonlocal counted
        now = time.perf_counter()
        board.seconds += now - counted
        counted = now

    def done(outcome: MatchOutcome) -> None:
        nonlocal last
        job = outcome.job
        log.write(f"{job.first} vs {job.second} pair {job.number + 1}{job.half}", outcome.error_log)
        for side, spec in enumerate((job.first, job.second)):
            decisions, seconds = board.clocks.get(spec, (0, 0.0))
            board.clocks[spec] = (
                decisions + outcome.decisions[side],
                seconds + outcome.seconds[side],
            )
        other = halves.pop((job.pairing, job.number), None)
        if other is None:
            halves[(job.pairing, job.number)] = outcome
            return
        first = outcome.game_points[0] + other.game_points[0]
        second = outcome.game_points[1] + other.game_points[1]
        board.pairs.setdefault(pairings[job.pairing], {})[job.number] = (first, second)
        played[0] += 1
        if progress is not None:
            progress(played[0], total)
        if time.perf_counter() - last >= SAVE_EVERY:
            account()
            board.save(state)
            last = time.perf_counter()

    if progress is not None:
        progress(0, total)
    try:
        play_jobs(_jobs(board, pairings, sandbox), done, backend, workers, apart=programs)
    finally:
        account()
        board.save(state)
        log.close()
    return board


def _jobs(board: Board, pairings: list[tuple[str, str]], sandbox: Sandbox) -> Iterator[MatchJob]:
    for k, (a, b) in enumerate(pairings):
        have = board.pairs.get((a, b), {})
        for number in range(board.deals):
            if number not in have:
                for swapped in (False, True):
                    yield MatchJob(
                        k, a, b, number, swapped, board.seed, board.variant, 1, False, sandbox
                    )


def _score(first: int, second: int) -> float:
    return 1.0 if first > second else 0.0 if first < second else 0.5


def _signed(value: float | None, digits: int = 2) -> str:
    return "–" if value is None else f"{value:+.{digits}f}"


def _duration(seconds: float) -> str:
    minutes = round(seconds / 60)
    if minutes < 1:
        return f"{seconds:.0f} s"
    return f"{minutes // 60} h {minutes % 60} min" if minutes >= 60 else f"{minutes} min"


def report(board: Board, reference: str = REFERENCE) -> str:
    """docs/LEADERBOARD.md from ``board``: the ratings, the game points per deal against
    ``reference`` (the first player if it is not among them), the coverage, the command, the
    date and the time it took."""
    players = board.players
    anchor = players.index(reference) if reference in players else 0
    reference = players[anchor]
    index = {p: i for i, p in enumerate(players)}
    games = {
        (index[a], index[b]): [_score(x, y) for x, y in d.values()]
        for (a, b), d in board.pairs.items()
        if a in index and b in index
    }
    rated = ratings(len(players), games, anchor)
    rows: list[tuple[float, str]] = []
    for i, player in enumerate(players):
        won = pairs = 0.0
        for (a, b), d in board.pairs.items():
            if player in (a, b):
                for x, y in d.values():
                    mine, theirs = (x, y) if player == a else (y, x)
                    won += _score(mine, theirs)
                    pairs += 1
        if player == reference:
            against = "0 (the reference)"
        else:
            key = (player, reference) if (player, reference) in board.pairs else None
            d = board.pairs.get(key or (reference, player), {})
            sign = 1 if key else -1
            estimate = mean_interval([sign * (x - y) / 2 for x, y in d.values()])
            against = (
                f"{_signed(estimate.mean)} [{_signed(estimate.low)}, {_signed(estimate.high)}]"
            )
        decisions, seconds = board.clocks.get(player, (0, 0.0))
        ms = f"{1000 * seconds / decisions:.1f}" if decisions else "–"
        r = rated[i]
        share = f"{won / pairs:.0%} of {pairs:.0f}" if pairs else "–"
        rows.append(
            (
                r.elo,
                f"| {player} | {r.elo:+.0f} | [{r.low:+.0f}, {r.high:+.0f}] | {share} "
                f"| {against} | {ms} |",
            )
        )
    rows.sort(key=lambda row: -row[0])
    pairings = board.pairings()
    complete = sum(len(board.pairs.get(p, {})) == board.deals for p in pairings)
    missing = board.missing()
    coverage = (
        f"Every pairing is complete: {len(pairings)} pairing{'s' * (len(pairings) != 1)} of "
        f"{board.deals} deal pairs each."
        if not missing
        else f"**Partial**: {complete} of {len(pairings)} pairings complete, {missing} of "
        f"{len(pairings) * board.deals} deal pairs still to play."
    )
    shipped_missing = [p for p in SHIPPED if p not in players]
    absent = (
        f" Not on it (not yet played): {', '.join(shipped_missing)}." if shipped_missing else ""
    )
    if not board.secret:
        seed = f"the evaluation set of seed {board.seed} (docs/RESEARCH.md, The evaluation set)"
    elif board.seed_shown:
        seed = (
            f"the deals of seed {board.seed}, drawn in secret for this board and published now "
            f"that it is complete (`--seed {board.seed}` plays them again)"
        )
    else:
        seed = "the deals of a secret seed, published here when every pairing is complete"
    warning = [f"**Warning**: {UNCONFINED}.", ""] if board.unconfined else []
    lines = [
        "# Leaderboard",
        "",
        f"The players below on {seed}: every two of them play the same {board.deals} deal "
        f"pairs, each deal twice with the seats swapped, variant {board.variant}.",
        "",
        *warning,
        f"Players: {', '.join(players)}.{absent} {coverage}",
        "",
        f"| player | rating (Elo) | 95 % interval | duplicate pairs won | game points per deal "
        f"against {reference} [95 % interval] | ms per decision |",
        "|---|---|---|---|---|---|",
        *(text for _, text in rows),
        "",
        f"The rating is Bradley–Terry's over duplicate pairs (a pair is won by the player with "
        f"more game points over its two deals, level is half a win each), in Elo points with "
        f"{reference} at 0; the interval is the 2.5th to 97.5th percentile of 200 bootstrap "
        f"resamples of each pairing's pairs. The game points per deal are the player's minus "
        f"{reference}'s on the same cards, with a Student-t interval over the pairs. Decision "
        f"times are this machine's, as loaded as it was.",
        "",
        f"Command: `{board.command}`  ",
        f"Date: {board.updated}; played in {_duration(board.seconds)} over {board.runs} "
        f"run{'s' if board.runs != 1 else ''}.",
        "",
    ]
    return "\n".join(lines)
