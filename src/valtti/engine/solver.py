"""The double-dummy solver: the exact value of a position with every hand known, both teams
playing perfectly to the end of the deal (docs/SOLVER.md).

A finished deal's effect on the match depends only on each team's game points (0 to 7) and
whether each team took a trick (RULES.md 5, 6): a ``DealValue`` gives a float, for team NS,
to each of those 256 classes, and the solver maximises it for NS and minimises it for EW.
The search itself is compiled (``_solver.pxi``) and moves only through the engine's own
legality and ``apply`` code, so every rule and variant switch is the engine's.
"""

from __future__ import annotations

from collections.abc import Callable

from valtti.engine._deal import Deal, _DoubleDummy
from valtti.engine.actions import ACTIONS, Action
from valtti.engine.match import score_deal
from valtti.engine.variant import Variant
from valtti.engine.views import DealResult

#: The most game points a team can make in one deal: marriages 2 + 1 + 1 + 1, last, victory.
MAX_GAME_POINTS = 7


def _index(gp_ns: int, gp_ew: int, ns_took: bool, ew_took: bool) -> int:
    return ((gp_ns * 8 + gp_ew) * 2 + ns_took) * 2 + ew_took


class DealValue:
    """The value for team NS of every way a deal can end; immutable.

    Build one with ``of``, ``game_points`` or ``match``; call it on a finished deal.
    """

    __slots__ = ("_table",)

    _table: tuple[float, ...]

    def __init__(self, table: tuple[float, ...]) -> None:
        if len(table) != 256:
            raise ValueError("a deal value has 256 entries")
        object.__setattr__(self, "_table", tuple(float(v) for v in table))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a DealValue is immutable")

    @classmethod
    def of(cls, value: Callable[[int, int, bool, bool], float]) -> DealValue:
        """From ``value(gp_ns, gp_ew, ns_took_trick, ew_took_trick)``."""
        table = [0.0] * 256
        for ns in range(8):
            for ew in range(8):
                for ns_took in (False, True):
                    for ew_took in (False, True):
                        table[_index(ns, ew, ns_took, ew_took)] = float(
                            value(ns, ew, ns_took, ew_took)
                        )
        return cls(tuple(table))

    @classmethod
    def game_points(cls) -> DealValue:
        """NS's game points minus EW's: the deal played for points."""
        return cls.of(lambda ns, ew, _ns_took, _ew_took: ns - ew)

    @classmethod
    def match(
        cls,
        before: tuple[int, int],
        variant: Variant,
        equity: Callable[[tuple[int, int]], float] | None = None,
    ) -> DealValue:
        """The deal's worth to NS in the match that stands at ``before`` (RULES.md 6), through
        ``score_deal``.

        With ``equity`` (NS's worth of a match score that goes on), the value is
        ``worth(after) - equity(before)``, where ``worth`` is +1 when NS alone is exactly on the
        target, -1 when EW alone is, for both on target 0 under ``both_on_target=draw`` and
        ``equity(after)`` under ``continue``, and ``equity(after)`` otherwise. Without it, the
        change of the score difference over the target, plus 1 for reaching the target alone
        (minus 1 for the other team's): a plain default.
        """
        target = variant.target

        def after_of(ns: int, ew: int, ns_took: bool, ew_took: bool) -> tuple[int, int]:
            result = DealResult((int(ns_took), int(ew_took)), (0, 0), (0, 0), None, (ns, ew))
            return score_deal(before, result, variant).after

        if equity is None:

            def plain(ns: int, ew: int, ns_took: bool, ew_took: bool) -> float:
                after = after_of(ns, ew, ns_took, ew_took)
                swing = ((after[0] - before[0]) - (after[1] - before[1])) / target
                won = (after[0] == target) - (after[1] == target)
                return swing + won

            return cls.of(plain)
        start = equity(before)

        def worth(ns: int, ew: int, ns_took: bool, ew_took: bool) -> float:
            after = after_of(ns, ew, ns_took, ew_took)
            ns_on, ew_on = after[0] == target, after[1] == target
            if ns_on and ew_on:
                end = 0.0 if variant.both_on_target == "draw" else equity(after)
            elif ns_on or ew_on:
                end = 1.0 if ns_on else -1.0
            else:
                end = equity(after)
            return end - start

        return cls.of(worth)

    @property
    def table(self) -> tuple[float, ...]:
        """The 256 values, indexed ``((gp_ns * 8 + gp_ew) * 2 + ns_took) * 2 + ew_took``."""
        return self._table

    def at(self, gp_ns: int, gp_ew: int, ns_took: bool, ew_took: bool) -> float:
        """The value of one class of finished deal."""
        if not (0 <= gp_ns <= MAX_GAME_POINTS and 0 <= gp_ew <= MAX_GAME_POINTS):
            raise ValueError(f"game points out of range: {gp_ns}, {gp_ew}")
        return self._table[_index(gp_ns, gp_ew, ns_took, ew_took)]

    def __call__(self, deal: Deal) -> float:
        """The value for NS of a finished deal; ``ValueError`` while it is being played."""
        if not deal.is_over():
            raise ValueError("the deal is not finished")
        r = deal.result()
        return self.at(r.game_points[0], r.game_points[1], r.tricks[0] > 0, r.tricks[1] > 0)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DealValue) and self._table == other._table

    def __hash__(self) -> int:
        return hash(self._table)

    def __repr__(self) -> str:
        return f"<DealValue {min(self._table):g}..{max(self._table):g}>"


class Solver:
    """Exact double-dummy values by alpha-beta with a transposition table of
    ``2**table_bits`` entries of 16 bytes, kept between calls (cleared when the ``DealValue``
    changes). The default, 2 MiB, searched fastest here: a larger table saves positions but
    loses more time to memory than it saves."""

    def __init__(self, table_bits: int = 17) -> None:
        self._core = _DoubleDummy(table_bits)
        self._value: DealValue | None = None
        #: Positions searched by every call so far (a clock that runs the same on any machine).
        self.searched = 0

    @property
    def nodes(self) -> int:
        """Positions searched by the last call."""
        return int(self._core.nodes)

    def clear(self) -> None:
        """Forget every stored position."""
        self._core.clear()

    def _use(self, value: DealValue) -> None:
        if value is not self._value:
            self._core.set_table(value.table)
            self._value = value

    def solve(self, deal: Deal, value: DealValue) -> list[tuple[Action, float]]:
        """Every legal action of the player to move, in ``deal.legal_actions()`` order, with its
        exact value for the mover's team (NS's value for N and S, minus it for E and W) under
        perfect play by both teams. ``deal`` is unchanged; ``ValueError`` on a finished deal."""
        solved = self.solve_within(deal, value, 0)
        assert solved is not None  # no limit: never given up
        return solved

    def solve_within(
        self, deal: Deal, value: DealValue, max_nodes: int
    ) -> list[tuple[Action, float]] | None:
        """As ``solve``, or ``None`` once more than ``max_nodes`` positions have been searched
        (0: no limit): a bound on the time of one solve. What was proved before stays stored."""
        self._use(value)
        solved = self._core.solve(deal, max_nodes)
        self.searched += self._core.nodes
        if solved is None:
            return None
        sign = 1.0 if deal.current_player is None or deal.current_player % 2 == 0 else -1.0
        return [(ACTIONS[a], sign * v + 0.0) for a, v in solved]

    def value(self, deal: Deal, value: DealValue) -> float:
        """The position's exact value for NS; ``ValueError`` on a finished deal."""
        self._use(value)
        exact = float(self._core.value(deal))
        self.searched += self._core.nodes
        return exact

    def line(self, deal: Deal, value: DealValue) -> list[Action]:
        """A principal variation: perfect play for both teams to the end of the deal."""
        self._use(value)
        line = [ACTIONS[a] for a in self._core.line(deal)]
        self.searched += self._core.nodes
        return line
