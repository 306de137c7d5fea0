"""A club night's duplicate tournament (docs/HOSTING.md, "A club night"): who sits where each
round (the movement), and each deal scored against the other tables' results on the same
cards (matchpoints). Pure functions of the night's settings and its tables' results.

The entrants are seats' worth of players, ``4 * tables`` slots: with ``pairs`` two slots in a
row are one pair for the whole night (slots 0 and 1 are pair 0); with ``individuals`` each
slot is one player whose partner changes each round.

Scoring (matchpoints on game points): at each table a deal's result is North–South's game
points minus East–West's. Against every other table that played the same deal, North–South
score 2 matchpoints for a better result, 1 for the same and 0 for a worse one; East–West score
the rest (2 a comparison in all). A side's percentage is its matchpoints over the most it
could have scored, over every deal compared; the standings rank by it (then by game points).
A deal a table did not play (its match ended first, a team exactly on the target) is compared
among the tables that did; a deal only one table played is not compared.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from valtti.engine import Seat

Movement = Literal["pairs", "individuals"]
MOVEMENTS: Final[tuple[Movement, ...]] = ("pairs", "individuals")


def seating(movement: Movement, tables: int, round_: int) -> list[tuple[int, int, int, int]]:
    """The slots at N, E, S, W of each table of round ``round_`` (from 1).

    ``pairs``: pair ``t`` stays at table ``t`` and pair ``tables + (t + r) mod tables`` comes
    to it (``r`` the round from 0), so the visitors meet a new pair each round; in every
    second round the pairs change direction, so each plays North–South and East–West.
    ``individuals``: slot 0 stays at North of table 1 and the other slots move one place each
    round around the rest (a rotation), so partners change every round; table ``t`` is the
    ``t``-th four of the rotated order, N E S W.
    """
    r = round_ - 1
    if movement == "pairs":
        out = []
        for t in range(tables):
            home, visitor = t, tables + (t + r) % tables
            ns, ew = (home, visitor) if r % 2 == 0 else (visitor, home)
            out.append((2 * ns, 2 * ew, 2 * ns + 1, 2 * ew + 1))
        return out
    rest = list(range(1, 4 * tables))
    shift = r % len(rest)
    order = [0, *rest[shift:], *rest[:shift]]
    return [
        (order[4 * t], order[4 * t + 1], order[4 * t + 2], order[4 * t + 3]) for t in range(tables)
    ]


def entrant_of(movement: Movement, slot: int) -> int:
    """The entrant a slot plays for: its pair, or itself."""
    return slot // 2 if movement == "pairs" else slot


def entrants(movement: Movement, tables: int) -> int:
    return 2 * tables if movement == "pairs" else 4 * tables


@dataclass(frozen=True, slots=True)
class TableDeal:
    """One table's result on one deal: its number in the round, the slots at N E S W, and
    the game points North–South and East–West made."""

    table: int  #: from 1
    slots: tuple[int, int, int, int]
    game_points: tuple[int, int]

    @property
    def net(self) -> int:
        return self.game_points[0] - self.game_points[1]


@dataclass(frozen=True, slots=True)
class ScoredDeal:
    """A deal compared across the tables that played it: each table's matchpoints, NS and EW,
    out of ``top`` each."""

    round: int
    deal: int
    results: list[TableDeal]
    matchpoints: list[tuple[int, int]]
    top: int


def score_deal(round_: int, deal: int, results: Sequence[TableDeal]) -> ScoredDeal:
    """Matchpoints on game points (the module's scoring) of one deal's results."""
    top = 2 * (len(results) - 1)
    points = []
    for mine in results:
        ns = sum(
            2 if mine.net > other.net else 1 if mine.net == other.net else 0
            for other in results
            if other is not mine
        )
        points.append((ns, top - ns))
    return ScoredDeal(round_, deal, list(results), points, top)


@dataclass(slots=True)
class Standing:
    """An entrant's night so far: matchpoints, the most they could have been, game points."""

    entrant: int
    matchpoints: int = 0
    top: int = 0
    game_points: int = 0
    deals: int = 0
    rounds: set[int] = field(default_factory=set)

    @property
    def percent(self) -> float:
        return round(100.0 * self.matchpoints / self.top, 2) if self.top else 0.0


def standings(movement: Movement, tables: int, deals: Sequence[ScoredDeal]) -> list[Standing]:
    """Every entrant's standing over the compared deals (``top`` above 0), best first: by
    percentage, then game points, then entrant."""
    table: Mapping[int, Standing] = {e: Standing(e) for e in range(entrants(movement, tables))}
    for scored in deals:
        if scored.top == 0:
            continue
        for result, (ns, ew) in zip(scored.results, scored.matchpoints, strict=True):
            sides = ((Seat.N, Seat.S, ns, 0), (Seat.E, Seat.W, ew, 1))
            for a, b, points, team in sides:
                players = {
                    entrant_of(movement, result.slots[a]),
                    entrant_of(movement, result.slots[b]),
                }
                for e in players:
                    s = table[e]
                    s.matchpoints += points
                    s.top += scored.top
                    s.game_points += result.game_points[team]
                    s.deals += 1
                    s.rounds.add(scored.round)
    return sorted(table.values(), key=lambda s: (-s.percent, -s.game_points, s.entrant))
