"""One match of the arena: the job a worker is given, how it is played, and its outcome."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from typing import Final, Literal

from valtti.arena.luck import Luck
from valtti.engine import Seat, Team, Variant
from valtti.engine.meta import MatchSeeds, RecordMeta
from valtti.engine.record import Record
from valtti.players.registry import starts_program
from valtti.players.sandbox import SANDBOX, Sandbox
from valtti.table import Computer, PlayerFault, Table, derive_seed, fresh_seed

#: Deals after which a match is stopped and counted as a draw: no match runs forever.
MAX_DEALS: Final = 200

Result = Literal["win", "draw", "loss"]


@dataclass(frozen=True, slots=True)
class MatchJob:
    """One match of a duplicate pair, all a worker needs to play it."""

    pairing: int
    first: str  #: the pairing's first player's spec
    second: str
    number: int  #: the duplicate pair, from 0
    swapped: bool  #: False: ``first`` sits NS (half A); True: ``first`` sits EW (half B)
    seed: int  #: the arena's seed: the cards, and the seeds of the project's own players
    variant: Variant
    max_deals: int
    keep_record: bool
    #: Where the players that are programs of their own run (``players.sandbox``).
    sandbox: Sandbox = SANDBOX
    #: The seeds of the players that run as programs of their own come from this secret.
    secret: int = field(default_factory=fresh_seed, repr=False)
    #: Redraws a decision to measure the players' luck with (``arena.luck``); 0: not measured.
    redraws: int = 0

    @property
    def half(self) -> str:
        return "B" if self.swapped else "A"

    def first_team(self) -> Team:
        return Team.EW if self.swapped else Team.NS

    def side(self, seat: Seat) -> int:
        """0 for the first player's seats, 1 for the second's."""
        return 0 if seat.team == self.first_team() else 1

    def spec(self, seat: Seat) -> str:
        return (self.first, self.second)[self.side(seat)]

    @property
    def seats_program(self) -> bool:
        """Whether a player of this match is a program of its own (``external:``)."""
        return starts_program(self.first) or starts_program(self.second)

    @property
    def match_seed(self) -> int:
        """The table's seed: the same in both halves, so both deal the same cards."""
        return derive_seed(self.seed, "match", self.number)

    def player_seed(self, seat: Seat) -> int:
        """A program of its own is seeded from the match's secret: from a seed derived from the
        arena's it could find the arena's seed by trying those it might be, and deal the cards."""
        root = self.secret if starts_program(self.spec(seat)) else self.seed
        return derive_seed(root, "player", self.number, self.half, str(seat))


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """How one match went, from the first player's side (index 0 of the pairs)."""

    job: MatchJob
    result: Result
    deals: int  #: finished deals
    game_points: tuple[int, int]  #: over the finished deals
    capped: bool  #: stopped at ``max_deals``: counted as a draw
    failure: str | None  #: a player's fault that ended the match: that side forfeits
    decisions: tuple[int, int]
    seconds: tuple[float, float]  #: time spent in ``choose``
    slowest: tuple[float, float]  #: the longest single ``choose``, in seconds
    record: str | None  #: the RECORD.md JSON when the job asked for it
    #: What the programs at the table wrote on their standard error: ``"N bot: line"``.
    error_log: tuple[str, ...] = ()
    cpu: float = 0.0  #: CPU seconds the worker spent on the match (its own players included)
    #: The luck of the players' draws in the finished deals, in game points of the first
    #: player's team less the second's (``arena.luck``); ``None`` where not measured.
    luck: float | None = None

    def without_record(self) -> MatchOutcome:
        """This outcome without its record and log, once they are written: all a run keeps."""
        return dataclasses.replace(self, record=None, error_log=())


def play_match(job: MatchJob) -> MatchOutcome:
    """Play one match of the arena; a player's fault ends it as a forfeit, never the arena."""
    started = time.process_time()
    seats = {seat: Computer(job.spec(seat), job.player_seed(seat)) for seat in Seat}
    table = Table(seats, job.match_seed, variant=job.variant, sandbox=job.sandbox)
    match = table.match
    fault: PlayerFault | None = None
    try:
        table.sit_down()
        table.run(job.max_deals)
    except PlayerFault as e:
        fault = e
    finally:
        # Every kept player is closed, also after a fault (the other bots get ``quit``); the
        # first fault is the one that ended the match.
        closing = table.close()
        fault = fault or closing
    first = job.first_team()
    finished = [d for d in match.deals if d.is_over()]
    points = [sum(d.result().game_points[t] for d in finished) for t in (first, first.other)]
    if fault is not None:
        result: Result = "loss" if job.side(fault.seat) == 0 else "win"
    elif match.winner is not None:
        result = "win" if match.winner == first else "loss"
    else:
        result = "draw"
    capped = fault is None and not match.is_over()
    luck = None
    if job.redraws > 0:
        measure = Luck(job.redraws, seed=derive_seed(job.seed, "luck", job.number, job.half))
        luck = measure.of_match(match, {seat: job.spec(seat) for seat in Seat}, first)
    failure = None if fault is None else str(fault)
    record = None
    if job.keep_record:
        meta = RecordMeta(
            players={str(t): job.spec(t.seats[0]) for t in Team},
            # Not the arena's seed: a bot that read this record would know every later deal.
            seeds=MatchSeeds(
                match=job.number + 1,
                half=job.half,
                table=job.match_seed,
                players={str(s): job.player_seed(s) for s in Seat},
            ),
            capped=capped,
            failure=failure,
        )
        record = Record.of_match(match, meta).to_json()
    clocks = [[table.clocks[s] for s in Seat if job.side(s) == side] for side in (0, 1)]
    decisions = [sum(c.decisions for c in side) for side in clocks]
    seconds = [sum(c.seconds for c in side) for side in clocks]
    slowest = [max(c.slowest for c in side) for side in clocks]
    return MatchOutcome(
        job,
        result,
        len(finished),
        (points[0], points[1]),
        capped,
        failure,
        (decisions[0], decisions[1]),
        (seconds[0], seconds[1]),
        (slowest[0], slowest[1]),
        record,
        tuple(
            f"{seat} {job.spec(seat)}: {line}"
            for seat, lines in sorted(table.error_logs.items())
            for line in lines
        ),
        time.process_time() - started,
        luck,
    )
