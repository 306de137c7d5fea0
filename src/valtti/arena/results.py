"""What a pairing's matches come to: each player's figures, the duplicate pairs' difference,
and the report."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from valtti.arena.luck import adjusted
from valtti.arena.match import MatchOutcome
from valtti.arena.sequential import Sprt, Verdict
from valtti.engine import Variant
from valtti.players.stats import Estimate, mean_interval

#: Said at the start and in the results of a run whose programs ran without a sandbox.
UNCONFINED = (
    "--sandbox none: the programs ran as ordinary programs of this user, free to read the "
    "run's files, the host's memory and each other's notes: not a fair competition"
)


@dataclass(frozen=True, slots=True)
class PlayerFigures:
    """One player's totals over a pairing."""

    spec: str
    decisions: int
    seconds: float  #: spent in ``choose``
    slowest: float  #: the longest single decision, in seconds
    game_points: int
    deals: int

    @property
    def decisions_per_s(self) -> float | None:
        return self.decisions / self.seconds if self.seconds > 0 else None

    @property
    def ms_per_decision(self) -> float | None:
        return 1000 * self.seconds / self.decisions if self.decisions else None

    @property
    def game_points_per_deal(self) -> float | None:
        return self.game_points / self.deals if self.deals else None


@dataclass(frozen=True, slots=True)
class PairingResult:
    """Two players' duplicate matches: counts for the first player and the point difference.

    ``difference`` is the game points per deal of the first player minus the second's. Its unit
    of independence is the duplicate pair: each pair gives one sample, its two matches' total
    difference over their total deals, and the interval is Student t over the pairs. Where the
    players' luck was measured (``arena.luck``) it is the pairs less their luck, and ``raw``
    the pairs as played.
    """

    first: PlayerFigures
    second: PlayerFigures
    wins: int
    draws: int  #: capped matches included
    losses: int  #: forfeits included
    capped: int
    failures: tuple[str, ...]
    difference: Estimate
    raw: Estimate | None = None

    @property
    def matches(self) -> int:
        return self.wins + self.draws + self.losses

    def to_dict(self, single_deals: bool = False) -> dict[str, Any]:
        """The pairing in ``arena --json``; of ``single_deals`` the deals played, without
        matches won, drawn, lost or capped: no match ends in one deal."""
        d = self.difference
        counts: dict[str, Any] = (
            {"deals": self.first.deals}
            if single_deals
            else {
                "matches": self.matches,
                "wins": self.wins,
                "draws": self.draws,
                "losses": self.losses,
                "capped": self.capped,
            }
        )
        return {
            "first": self.first.spec,
            "second": self.second.spec,
            **counts,
            "failures": list(self.failures),
            "difference": _estimate(d, self.raw is not None),
            "raw_difference": None if self.raw is None else _estimate(self.raw, False),
            "players": [
                {
                    "spec": p.spec,
                    "deals": p.deals,
                    "game_points": p.game_points,
                    "game_points_per_deal": p.game_points_per_deal,
                    "decisions": p.decisions,
                    "seconds": p.seconds,
                    "decisions_per_s": p.decisions_per_s,
                    "ms_per_decision": p.ms_per_decision,
                    "slowest_decision_ms": 1000 * p.slowest,
                }
                for p in (self.first, self.second)
            ],
        }


def _estimate(d: Estimate, less_luck: bool) -> dict[str, Any]:
    method = "student-t over duplicate pairs" + (" less their luck" if less_luck else "")
    return {
        "mean": d.mean,
        "low": d.low,
        "high": d.high,
        "confidence": d.confidence,
        "pairs": d.samples,
        "method": method,
    }


def summarize(first: str, second: str, outcomes: Sequence[MatchOutcome]) -> PairingResult:
    """The figures of one pairing from its matches' outcomes (in any order); the difference
    less the players' luck where every match measured it."""
    pairs: dict[int, list[MatchOutcome]] = {}
    for outcome in outcomes:
        pairs.setdefault(outcome.job.number, []).append(outcome)
    samples, luck = [], []
    # In pair order, not the order the matches finished in: the same figures for any workers.
    for _, pair in sorted(pairs.items()):
        deals = sum(o.deals for o in pair)
        if len(pair) == 2 and deals:
            samples.append(sum(o.game_points[0] - o.game_points[1] for o in pair) / deals)
            luck.append(sum(o.luck or 0.0 for o in pair) / deals)
    measured = bool(outcomes) and all(o.luck is not None for o in outcomes)
    figures = [
        PlayerFigures(
            spec,
            sum(o.decisions[side] for o in outcomes),
            sum(o.seconds[side] for o in outcomes),
            max((o.slowest[side] for o in outcomes), default=0.0),
            sum(o.game_points[side] for o in outcomes),
            sum(o.deals for o in outcomes),
        )
        for side, spec in enumerate((first, second))
    ]
    ordered = sorted(outcomes, key=lambda o: (o.job.number, o.job.swapped))
    return PairingResult(
        figures[0],
        figures[1],
        wins=sum(o.result == "win" for o in outcomes),
        draws=sum(o.result == "draw" for o in outcomes),
        losses=sum(o.result == "loss" for o in outcomes),
        capped=sum(o.capped for o in outcomes),
        failures=tuple(
            f"match {o.job.number + 1}{o.job.half}: {o.failure}" for o in ordered if o.failure
        ),
        difference=mean_interval(adjusted(samples, luck) if measured else samples),
        raw=mean_interval(samples) if measured else None,
    )


@dataclass(frozen=True)
class ArenaResult:
    """Everything an arena run found, pairing by pairing (round robin, list order)."""

    players: tuple[str, ...]
    matches: int  #: duplicate pairs per pairing: twice as many matches
    seed: int
    variant: Variant
    max_deals: int
    backend: str
    workers: int | None  #: processes of the process backend: at most one per match
    seconds: float
    pairings: tuple[PairingResult, ...] = field(default=())
    seed_drawn: bool = False  #: the seed was drawn at random (``fresh_seed``), not given
    #: Where the programs among the players ran (``Sandbox``'s text), ``None`` without one.
    sandbox: str | None = None
    #: The test that stopped each pairing once its answer was clear, if any, and its answer of
    #: each pairing (``None``: still open when the matches ran out).
    sequential: Sprt | None = None
    verdicts: tuple[Verdict, ...] = ()
    redraws: int = 0  #: redraws a decision to measure the players' luck; 0: none

    @property
    def unconfined(self) -> bool:
        """Whether programs played outside a sandbox: not a fair competition."""
        return self.sandbox == "none"

    @property
    def single_deals(self) -> bool:
        """Whether the matches were single deals (``max_deals`` 1, ``arena --deals``): then
        they are compared by game points only, as no match ends in one deal."""
        return self.max_deals == 1

    def to_dict(self) -> dict[str, Any]:
        """The ``arena --json`` object (docs/RESEARCH.md, "The arena"): ``mode`` ``"matches"``, with
        ``matches`` (duplicate pairs) and ``max_deals``, or ``"deals"``, with ``deals``
        (duplicate deal pairs) and no match counts."""
        size: dict[str, Any] = (
            {"mode": "deals", "deals": self.matches}
            if self.single_deals
            else {"mode": "matches", "matches": self.matches, "max_deals": self.max_deals}
        )
        return {
            "players": list(self.players),
            **size,
            "seed": self.seed,
            "variant": self.variant.changes(),
            "backend": self.backend,
            "workers": self.workers,
            "sandbox": self.sandbox,
            "sequential": None
            if self.sequential is None
            else {
                "low": self.sequential.low,
                "high": self.sequential.high,
                "alpha": self.sequential.alpha,
                "beta": self.sequential.beta,
            },
            "seconds": self.seconds,
            "redraws": self.redraws,
            "pairings": [
                {**p.to_dict(self.single_deals), **self._verdict(k)}
                for k, p in enumerate(self.pairings)
            ],
        }

    def _verdict(self, pairing: int) -> dict[str, Any]:
        """``{"verdict": …}`` of ``pairing`` with a sequential test, else nothing."""
        if self.sequential is None:
            return {}
        return {"verdict": self.verdicts[pairing] if pairing < len(self.verdicts) else None}

    def report(self) -> str:
        """The figures as text, one block per pairing."""
        where = self.backend
        if self.backend == "process":
            where = _many(self.workers or 0, "process", "processes")
        pairs = _many(self.matches, "duplicate pair", "duplicate pairs")
        played = f"{2 * self.matches} matches"
        if self.single_deals:
            pairs = _many(self.matches, "duplicate deal pair", "duplicate deal pairs")
            played = f"{2 * self.matches} single deals: the evaluation set"
        lines = [
            f"{len(self.players)} players, {pairs} per pairing ({played}), "
            f"seed {self.seed}, variant {self.variant}, {where}, {self.seconds:.1f} s"
        ]
        if self.seed_drawn:
            lines.append(f"(a new seed, secret until now: --seed {self.seed} deals the same again)")
        if self.sandbox is not None:
            lines.append(
                f"programs ran in the sandbox {self.sandbox}"
                if not self.unconfined
                else f"warning: {UNCONFINED}"
            )
        if self.redraws:
            lines.append(
                f"the players' luck taken out: {self.redraws} redraws a decision of each "
                "memoryless player (docs/RESEARCH.md, Luck taken out)"
            )
        if self.sequential is not None:
            test = self.sequential
            lines.append(
                f"until clear: a sequential test of a difference of {test.low:g} against "
                f"{test.high:g} game points a deal (error rates {test.alpha:g}, {test.beta:g}), "
                f"at most {self.matches} pairs a pairing"
            )
        for k, p in enumerate(self.pairings):
            a, b = p.first.spec, p.second.spec
            d = p.difference
            outcome = (
                "  single deals: no match ends in one, so they are compared by game points"
                if self.single_deals
                else f"  matches won/drawn/lost by {a}: {p.wins}/{p.draws}/{p.losses}"
                f" ({p.capped} stopped at {self.max_deals} deals, counted as draws)"
            )
            lines += [
                "",
                f"{a} vs {b}",
                outcome,
                f"  game points per deal, {a} − {b}: "
                + _said(d, "less the players' luck" if p.raw is not None else ""),
            ]
            if p.raw is not None:
                lines.append(f"    as played, with the luck: {_said(p.raw, '')}")
            width = max(len(a), len(b))
            for f in (p.first, p.second):
                lines.append(
                    f"  {f.spec:<{width}}  {_number(f.game_points_per_deal, '.3f')} game points"
                    f" per deal, {_number(f.decisions_per_s, ',.0f')} decisions/s"
                    f" ({_number(f.ms_per_decision, '.1f')} ms each on average,"
                    f" the slowest {1000 * f.slowest:.0f} ms)"
                )
            if self.sequential is not None:
                said = {
                    "first": f"{a} better by {self.sequential.high:g} or more",
                    "second": f"{b} better by {self.sequential.high:g} or more",
                    "even": f"within {self.sequential.high:g} of each other",
                    None: "not clear yet",
                }
                lines.append(
                    f"  the answer: {said[self.verdicts[k] if k < len(self.verdicts) else None]}"
                    f" (after {d.samples} pairs)"
                )
            if p.failures:
                lines.append(f"  failures ({len(p.failures)}, each a forfeit):")
                lines += [f"    {failure}" for failure in p.failures]
        return "\n".join(lines)


def _said(d: Estimate, how: str) -> str:
    """An estimate with its interval, as the report says it."""
    over = f"Student t over {d.samples} duplicate pairs" + (f", {how}" if how else "")
    return f"{_number(d.mean, '+.3f')}  " + (
        f"{d.confidence:.0%} CI [{_number(d.low, '+.3f')}, {_number(d.high, '+.3f')}] ({over})"
        if d.low is not None
        else f"(no interval from {_many(d.samples, 'pair', 'pairs')})"
    )


def _many(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def _number(value: float | None, spec: str) -> str:
    if value is None or math.isnan(value):
        return "n/a"
    shown = format(value, spec)
    # A value just below 0 shows as 0, not "-0.000".
    return shown if any(d in shown for d in "123456789") else format(0.0, spec)
