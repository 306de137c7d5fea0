"""Who sits where at a ``valtti play`` table and the match seed (``Setup``): what a record's
``meta`` keeps, and the ``Table`` they make."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from valtti.engine import Match, Seat, Variant
from valtti.engine.meta import RecordMeta
from valtti.players.registry import starts_program
from valtti.players.sandbox import SANDBOX, Sandbox
from valtti.table import Computer, Table, derive_seed

#: The program named in a record's ``meta``.
PROGRAM: Final = "valtti play"


@dataclass(frozen=True, slots=True)
class Setup:
    """Who sits where and the match seed, kept in a record's ``meta``; and where a program
    among the players runs (not kept: the host's choice)."""

    you: Seat
    players: Mapping[Seat, str]  #: the computer seats' player specs (``make_player``)
    seed: int
    sandbox: Sandbox = SANDBOX

    def meta(self, takebacks: int = 0) -> dict[str, Any]:
        """The record's ``meta`` (``RecordMeta``), with the number of take-backs if there were
        any (a match with take-backs is not played straight)."""
        return RecordMeta(
            program=PROGRAM,
            seat=self.you,
            seed=self.seed,
            players={str(s): spec for s, spec in sorted(self.players.items())},
            takebacks=takebacks or None,
        ).to_dict()

    def table(self, match: Match | None = None, variant: Variant | None = None) -> Table:
        """The seats, and the person, whose moves the session applies. The project's players
        are made fresh for each decision, seeded by the position (nothing to restore on a resume
        or a take-back); an external program is started once for the table (docs/PROTOCOL.md),
        when it sits down, and stopped when it closes."""
        seats = {
            seat: Computer(spec, derive_seed(self.seed, "player", str(seat)))
            if starts_program(spec)
            else Computer(spec)
            for seat, spec in self.players.items()
        }
        return Table(seats, self.seed, match, variant=variant, sandbox=self.sandbox)
