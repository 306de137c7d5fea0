"""The leaderboard: every shipped player (and any others named) on the evaluation set, in
duplicate, every two of them, resumably; ranked by their margins: each player's game points a
deal over a fixed reference, fitted to every pairing's pairs (``ratings.margins``), with 95 %
intervals. With a sequential test (``sequential.Sprt``) a pairing stops as soon as its answer is
clear, every pairing played a pair at a time in turn.

Each pairing plays the evaluation set of the seed (``valtti arena --deals N --seed S``: deal
pair k is the first deal of match k of the seed, played twice with the seats swapped). What is
played is kept in a state file (JSON, written atomically every few seconds and when the run
stops): run again with the same file, it plays only the pairs still missing, and players added
since meet every player already there. ``report`` writes docs/LEADERBOARD.md from it.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import os
import statistics
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

from valtti.arena.luck import REDRAWS, adjusted, coefficient
from valtti.arena.match import MatchJob, MatchOutcome
from valtti.arena.ratings import Margin, margins
from valtti.arena.results import UNCONFINED
from valtti.arena.run import BACKENDS, BotLog, check_players, play_jobs
from valtti.arena.sequential import Sprt, Verdict
from valtti.engine import Variant
from valtti.players.registry import starts_program
from valtti.players.sandbox import SANDBOX, Sandbox
from valtti.players.shipped import SHIPPED
from valtti.players.stats import mean_interval
from valtti.table import fresh_seed

#: The evaluation set results are cited on (docs/RESEARCH.md).
EVALUATION_SEED: Final = 2026
#: The player the game points per deal are measured against, and rated 0: the club level's, so
#: that the levels offered to people are said against the middle one.
REFERENCE: Final = "club"
#: Seconds between two writes of the state file while a run goes on.
SAVE_EVERY: Final = 10.0
#: The state file's format.
VERSION: Final = 1
#: The pairing whose two players make the same decisions (the heuristic in C and in Python):
#: its difference must come out 0 within its interval, or the intervals do not hold.
SANITY: Final = ("quick", "heuristic")

__all__ = [
    "EVALUATION_SEED",
    "REFERENCE",
    "Board",
    "bot_log_of",
    "play_leaderboard",
    "report",
    "strengths",
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
    #: The test that stops a pairing once its answer is clear (``None``: every pair is played).
    sequential: Sprt | None = None
    cpu: float = 0.0  #: CPU seconds the workers spent, over every run
    compute: str = ""  #: where the last run played: the backend and its processes or cluster
    #: Redraws a decision to measure the luck with (``arena.luck``); 0: raw duplicate.
    redraws: int = 0
    #: (first, second) → {pair number: the luck of its two deals, in the first's game points
    #: less the second's}, where ``redraws`` is not 0
    luck: dict[tuple[str, str], dict[int, float]] = field(default_factory=dict)

    def pairings(self) -> list[tuple[str, str]]:
        return list(itertools.combinations(self.players, 2))

    def raw_differences(self, pairing: tuple[str, str]) -> list[float]:
        """The pairing's pairs in order, each the first player's game points a deal less the
        second's over its two deals."""
        pairs = self.pairs.get(pairing, {})
        return [(pairs[k][0] - pairs[k][1]) / 2 for k in sorted(pairs)]

    def pair_luck(self, pairing: tuple[str, str]) -> list[float]:
        """The luck of the pairing's pairs in order, a deal (as ``raw_differences``)."""
        luck = self.luck.get(pairing, {})
        return [luck[k] / 2 for k in sorted(self.pairs.get(pairing, {}))]

    def differences(self, pairing: tuple[str, str]) -> list[float]:
        """The pairing's pairs in order as the board weighs them: ``raw_differences``, less
        their luck (``luck.adjusted``) where the board measures it."""
        raw = self.raw_differences(pairing)
        if self.redraws == 0:
            return raw
        return adjusted(raw, self.pair_luck(pairing))

    def verdict(self, pairing: tuple[str, str]) -> Verdict:
        """The sequential test's answer for ``pairing`` so far (``None`` without a test)."""
        if self.sequential is None:
            return None
        return self.sequential.verdict(self.differences(pairing))

    def missing(self) -> int:
        """Deal pairs still to play: none more of a pairing whose answer is clear."""
        return sum(
            0 if self.verdict(p) is not None else self.deals - len(self.pairs.get(p, {}))
            for p in self.pairings()
        )

    def to_json(self) -> str:
        return json.dumps(
            {
                "version": VERSION,
                "seed": self.seed,
                "deals": self.deals,
                "variant": self.variant.changes(),
                "players": self.players,
                "pairings": [
                    {
                        "players": list(key),
                        "pairs": {str(k): list(v) for k, v in sorted(d.items())},
                        "luck": {str(k): v for k, v in sorted(self.luck.get(key, {}).items())},
                    }
                    for key, d in self.pairs.items()
                ],
                "clocks": {p: list(c) for p, c in self.clocks.items()},
                "seconds": self.seconds,
                "runs": self.runs,
                "command": self.command,
                "updated": self.updated,
                "secret": self.secret,
                "unconfined": self.unconfined,
                "sequential": None
                if self.sequential is None
                else dataclasses.asdict(self.sequential),
                "cpu": self.cpu,
                "compute": self.compute,
                "redraws": self.redraws,
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
                sequential=None if data.get("sequential") is None else Sprt(**data["sequential"]),
                cpu=float(data.get("cpu", 0.0)),
                compute=str(data.get("compute", "")),
                redraws=int(data.get("redraws", 0)),
                luck={
                    (str(e["players"][0]), str(e["players"][1])): {
                        int(k): float(v) for k, v in e.get("luck", {}).items()
                    }
                    for e in data["pairings"]
                },
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
    state: Path,
    players: Sequence[str],
    deals: int,
    seed: int | None,
    variant: Variant,
    sequential: Sprt | None,
    redraws: int,
) -> Board:
    """The board in ``state``, or a new one. A new board's seed: ``seed``, else a secret one
    where a program is ranked, else the evaluation set's; a kept board keeps its own, and its
    sequential test (a run may not change it: the pairings decided would not be the same)."""
    if not state.exists():
        secret = seed is None and any(starts_program(p) for p in players)
        if seed is None:
            seed = fresh_seed() if secret else EVALUATION_SEED
        return Board(
            seed, deals, variant, list(dict.fromkeys(players)), secret=secret,
            sequential=sequential, redraws=redraws,
        )  # fmt: skip
    try:
        board = Board.from_json(state.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"{state} cannot be read: {e}") from None
    except ValueError as e:
        raise ValueError(f"{state}: {e}") from None
    kept = (board.seed, board.deals, board.variant, board.sequential, board.redraws)
    if kept != (board.seed if seed is None else seed, deals, variant, sequential, redraws):
        seed_text = "a secret seed" if board.secret else f"seed {board.seed}"
        test = "" if board.sequential is None else f", {_test(board.sequential)}"
        raise ValueError(
            f"{state} holds a leaderboard of {seed_text}, {board.deals} deal pairs, "
            f"variant {board.variant}{test}, {board.redraws} redraws a decision: give those "
            f"options again, or another --state"
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
    sequential: Sprt | None = None,
    address: str | None = None,
    redraws: int = REDRAWS,
) -> Board:
    """Play what the leaderboard in ``state`` is missing for ``players`` (and the players it
    already holds) and return it, saved. ``seed``: the evaluation set; ``None``, the state's,
    or for a new board ``EVALUATION_SEED``, or a secret one where a program is ranked.
    Programs run in ``sandbox``, which is kept from the state file and ``bot_log`` (by default
    ``bot_log_of(state)``), where their standard error goes. ``sequential``: a pairing stops
    once this test's answer is clear, at most ``deals`` pairs; ``backend`` ``ray`` plays on the
    Ray cluster at ``address``; ``redraws`` a decision measure the players' luck, to take it
    out (``arena.luck``; 0: raw duplicate). ``ValueError`` for bad options, a player that
    cannot be made, or a state file of other settings; Ctrl-C saves what was played and
    re-raises."""
    variant = variant or Variant()
    bot_log = bot_log or bot_log_of(state)
    sandbox = sandbox.keeping(state, bot_log)
    if deals < 1:
        raise ValueError(f"deals must be at least 1, not {deals}")
    if redraws < 0:
        raise ValueError(f"redraws must be 0 or more, not {redraws}")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}: known are {', '.join(BACKENDS)}")
    board = _load(state, players, deals, seed, variant, sequential, redraws)
    if len(board.players) < 2:
        raise ValueError("the leaderboard needs at least two players")
    check_players(board.players, sandbox)
    programs = any(starts_program(p) for p in board.players)
    board.unconfined |= programs and not sandbox.confined
    log = BotLog(bot_log)
    board.runs += 1
    board.command = command or board.command
    board.compute = _compute(backend, workers, address)
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
        board.cpu += outcome.cpu
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
        if outcome.luck is not None and other.luck is not None:
            luck = board.luck.setdefault(pairings[job.pairing], {})
            luck[job.number] = outcome.luck + other.luck
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
        play_jobs(_jobs(board, pairings, sandbox), done, backend, workers, address, apart=programs)
    finally:
        account()
        board.save(state)
        log.close()
    return board


def _jobs(board: Board, pairings: list[tuple[str, str]], sandbox: Sandbox) -> Iterator[MatchJob]:
    """The halves still to play, a pair of every pairing in turn: a pairing whose answer is
    clear (``Board.verdict``, read as the jobs are made) has no more."""
    for number in range(board.deals):
        for k, (a, b) in enumerate(pairings):
            if number not in board.pairs.get((a, b), {}) and board.verdict((a, b)) is None:
                for swapped in (False, True):
                    yield MatchJob(
                        k, a, b, number, swapped, board.seed, board.variant, 1, False, sandbox,
                        redraws=board.redraws,
                    )  # fmt: skip


def _compute(backend: str, workers: int | None, address: str | None) -> str:
    if backend == "ray":
        return f"a Ray cluster at {address}" if address else "a Ray cluster on this machine"
    if backend == "serial":
        return "one process"
    return f"{workers or os.cpu_count() or 1} processes"


def _test(sequential: Sprt) -> str:
    return (
        f"a sequential test of {sequential.low:g} against {sequential.high:g} game points a "
        f"deal (α {sequential.alpha:g}, β {sequential.beta:g})"
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
    """docs/LEADERBOARD.md from ``board``: each player's margin over ``reference`` (the first
    player if it is not among them) with its interval, the pairs it won, its time a decision;
    the sanity row; the coverage, the command, the date, the time and the compute it took."""
    players = board.players
    anchor = players.index(reference) if reference in players else 0
    reference = players[anchor]
    index = {p: i for i, p in enumerate(players)}
    rated = _rated(board, anchor)
    rows: list[tuple[float, str]] = []
    for i, player in enumerate(players):
        won = pairs = 0.0
        for (a, b), d in board.pairs.items():
            if player in (a, b):
                for x, y in d.values():
                    mine, theirs = (x, y) if player == a else (y, x)
                    won += _score(mine, theirs)
                    pairs += 1
        decisions, seconds = board.clocks.get(player, (0, 0.0))
        ms = f"{1000 * seconds / decisions:.1f}" if decisions else "–"
        share = f"{won / pairs:.0%} of {pairs:.0f}" if pairs else "–"
        r = rated[i]
        if r is None:
            rows.append((-math.inf, f"| {player} | – | – | {share} | {ms} |"))
            continue
        strength = "0 (the reference)" if i == anchor else _signed(r.value)
        interval = "–" if i == anchor else f"[{_signed(r.low)}, {_signed(r.high)}]"
        rows.append((r.value, f"| {player} | {strength} | {interval} | {share} | {ms} |"))
    rows.sort(key=lambda row: -row[0])
    pairings = board.pairings()
    missing = board.missing()
    played = sum(len(board.pairs.get(p, {})) for p in pairings)
    decided = [p for p in pairings if board.verdict(p) is not None]
    if board.sequential is None:
        complete = sum(len(board.pairs.get(p, {})) == board.deals for p in pairings)
        coverage = (
            f"Every pairing is complete: {len(pairings)} pairing{'s' * (len(pairings) != 1)} "
            f"of {board.deals} deal pairs each."
            if not missing
            else f"**Partial**: {complete} of {len(pairings)} pairings complete, {missing} of "
            f"{len(pairings) * board.deals} deal pairs still to play."
        )
    else:
        coverage = (
            f"{_test(board.sequential).capitalize()} stopped each pairing once its answer was "
            f"clear: {len(decided)} of {len(pairings)} pairings decided, {played} deal pairs "
            f"played (at most {board.deals} a pairing)"
            + ("." if not missing else f"; **partial**: {missing} deal pairs may still be played.")
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
        f"The players below on {seed}: every two of them play the same deal pairs, each deal "
        f"twice with the seats swapped, variant {board.variant}.",
        "",
        *warning,
        f"Players: {', '.join(players)}.{absent} {coverage}",
        "",
        f"| player | game points a deal over {reference} | 95 % interval | duplicate pairs won "
        f"| ms per decision |",
        "|---|---|---|---|---|",
        *(text for _, text in rows),
        "",
        *_checks(board, rated, index),
        f"A player's figure is its game points a deal less {reference}'s on the same cards, "
        f"fitted to every pairing it played (weighted least squares of each pairing's mean "
        f"difference{_less_luck(board)}, weighted by its pairs over their variance), with a "
        f"normal 95 % interval from the fit; a pair is won by the player with more game points "
        f"over its two deals, level is half a win each. Decision times are this machine's, as "
        f"loaded as it was.",
        "",
        *_luck_table(board),
        f"Command: `{board.command}`  ",
        f"Date: {board.updated}; played in {_duration(board.seconds)} over {board.runs} "
        f"run{'s' if board.runs != 1 else ''}, on {board.compute or 'this machine'}: "
        f"{board.cpu / 3600:.1f} CPU hours.",
        "",
    ]
    return "\n".join(lines)


def _less_luck(board: Board) -> str:
    if board.redraws == 0:
        return ""
    return (
        f" less the luck of the players' own draws, measured by {board.redraws} redraws a "
        f"decision (docs/RESEARCH.md, Luck taken out)"
    )


def _luck_table(board: Board) -> list[str]:
    """Each pairing's standard error raw and with the luck taken out, on the same pairs."""
    if board.redraws == 0:
        return []
    rows = []
    for pairing in board.pairings():
        raw = board.raw_differences(pairing)
        if len(raw) < 2:
            continue
        kept = board.differences(pairing)
        luck = board.pair_luck(pairing)
        error = statistics.stdev(raw) / math.sqrt(len(raw))
        less = statistics.stdev(kept) / math.sqrt(len(kept))
        rows.append(
            f"| {pairing[0]} – {pairing[1]} | {len(raw)} | {_signed(statistics.fmean(raw))} "
            f"± {error:.3f} | {_signed(statistics.fmean(kept))} ± {less:.3f} | "
            f"{coefficient(raw, luck):.2f} | {(less / error) ** 2 if error else 1:.2f} |"
        )
    if not rows:
        return []
    return [
        "The luck taken out, pairing by pairing: the mean difference a deal (the first less "
        "the second) with its standard error, raw and less the luck, on the same pairs; the "
        "share of the luck taken out (the fitted coefficient); the variance left (the pairs "
        "needed for the same interval, against raw duplicate's).",
        "",
        "| pairing | pairs | raw | less the luck | coefficient | variance left |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
    ]


def _rated(board: Board, anchor: int) -> list[Margin | None]:
    """Each player's margin over the player ``anchor`` (its index), fitted to every pairing."""
    index = {p: i for i, p in enumerate(board.players)}
    return margins(
        len(board.players),
        {
            (index[a], index[b]): board.differences((a, b))
            for (a, b) in board.pairs
            if a in index and b in index
        },
        anchor,
    )


def strengths(board: Board, reference: str = REFERENCE) -> str:
    """The players' strengths as JSON (``players/data/strengths.json``, read by
    ``players.shipped.strengths``): each rated player's game points a deal over ``reference``
    and its 95 % interval (``null`` for the reference), the date and the command."""
    if reference not in board.players:
        raise ValueError(f"the strengths are over {reference}, who is not on the board")
    anchor = board.players.index(reference)
    rows = [
        {
            "player": player,
            "points": round(r.value, 3),
            "low": None if i == anchor else round(r.low, 3),
            "high": None if i == anchor else round(r.high, 3),
        }
        for i, (player, r) in enumerate(zip(board.players, _rated(board, anchor), strict=True))
        if r is not None
    ]
    data = {"reference": reference, "date": board.updated, "command": board.command}
    return json.dumps({**data, "players": rows}, indent=1, ensure_ascii=False) + "\n"


def _checks(board: Board, rated: Sequence[Margin | None], index: Mapping[str, int]) -> list[str]:
    """The sanity row (two players of the same decisions: 0 within its interval) and whether
    ``random`` is last, where they are on the board: does the table hold?"""
    lines = []
    first, second = SANITY
    if first in index and second in index:
        key = (first, second) if (first, second) in board.pairs else (second, first)
        estimate = mean_interval(board.differences(key))
        holds = (
            estimate.low is not None
            and estimate.high is not None
            and estimate.low <= 0 <= estimate.high
        )
        lines += [
            f"Sanity: {key[0]} and {key[1]} make the same decisions; on "
            f"{estimate.samples} pairs {key[0]} less {key[1]} comes out {_signed(estimate.mean)} "
            f"game points a deal [{_signed(estimate.low)}, {_signed(estimate.high)}]: "
            + ("0 is within it." if holds else "**0 is not within it.**"),
            "",
        ]
    lowest = rated[index["random"]] if "random" in index else None
    if lowest is not None:
        others = [
            r.value for p, i in index.items() if p != "random" and (r := rated[i]) is not None
        ]
        last = all(value > lowest.value for value in others)
        lines += [f"random is {'last' if last else '**not last**'}.", ""]
    return lines
