"""The double-dummy solver against exhaustive minimax over the engine's own Deal (issue 13)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator

import pytest

from valtti.engine import (
    Action,
    Deal,
    DealValue,
    Phase,
    Seat,
    Solver,
    Variant,
    score_deal,
)
from valtti.engine.variant import SWITCHES
from valtti.engine.views import DealResult


def minimax(deal: Deal, value: DealValue) -> float:
    """The exact value for NS by trying every legal action to the end."""
    if deal.is_over():
        return value(deal)
    values = []
    for action in deal.legal_actions():
        child = deal.copy()
        child.apply(action)
        values.append(minimax(child, value))
    seat = deal.current_player
    assert seat is not None
    return max(values) if seat % 2 == 0 else min(values)


def random_variant(rng: random.Random) -> Variant:
    return Variant(**{name: rng.choice(values) for name, values in SWITCHES.items()})


def rigged_deal(rng: random.Random, variant: Variant, answer_steps: bool = False) -> Deal:
    """A shuffled deal in which, often, one seat holds two or three full marriages, so that
    ask-whole questions wait for the partner's choice (``answer_steps``: ``Deal``'s)."""
    hands = [set(h) for h in Deal.shuffled(rng, Seat.N).initial_hands]
    if rng.random() < 0.6:
        seat = rng.randrange(4)
        for suit in rng.sample(range(4), rng.choice((2, 3))):
            for card in (suit * 9 + 5, suit * 9 + 6):
                holder = next(i for i in range(4) if card in hands[i])
                if holder != seat:
                    swap = rng.choice(sorted(c for c in hands[seat] if c % 9 not in (5, 6)))
                    hands[seat].remove(swap)
                    hands[holder].remove(card)
                    hands[seat].add(card)
                    hands[holder].add(swap)
    dealer = Seat(rng.randrange(4))
    return Deal([sorted(h) for h in hands], dealer, variant, answer_steps=answer_steps)


def pick(rng: random.Random, deal: Deal) -> int:
    """A random legal action that favours declarations and questions, so that windows are used."""
    legal = deal.legal_actions()
    talk = [a for a in legal if a >= 36]
    if talk and rng.random() < 0.6:
        return rng.choice(talk)
    return rng.choice(legal)


def endgame(rng: random.Random, tricks_left: int, variant: Variant) -> Deal:
    """A position with at most ``tricks_left`` tricks to play, reached by random play."""
    while True:
        deal = rigged_deal(rng, variant)
        while not deal.is_over() and 9 - deal.tricks_played > tricks_left:
            deal.apply(pick(rng, deal))
        for _ in range(rng.randrange(5)):
            if deal.is_over():
                break
            deal.apply(pick(rng, deal))
        if not deal.is_over():
            return deal


def values(rng: random.Random) -> list[DealValue]:
    """Deal values: for points, the match near the target (NS must take few points), and an
    arbitrary table with ties and many distinct values."""
    table = [rng.choice((0.0, 0.5, 1.0, -2.0, 3.25)) for _ in range(256)]
    return [
        DealValue.game_points(),
        DealValue.match((9, 5), Variant()),
        DealValue.match((5, 9), Variant()),
        DealValue.match((8, 11), Variant(target=12)),
        DealValue.of(lambda ns, ew, a, b: table[ns * 32 + ew * 4 + a * 2 + b]),
    ]


def check(solver: Solver, deal: Deal, value: DealValue) -> None:
    before = deal.copy()
    children = []
    for action in deal.legal_actions():
        child = deal.copy()
        child.apply(action)
        children.append(minimax(child, value))
    seat = deal.current_player
    assert seat is not None
    sign = 1.0 if seat % 2 == 0 else -1.0
    solved = solver.solve(deal, value)
    assert [a for a, _ in solved] == deal.legal_actions()
    assert [v for _, v in solved] == [sign * v for v in children]
    exact = max(children) if sign > 0 else min(children)
    assert solver.value(deal, value) == exact
    line = solver.line(deal, value)
    end = deal.copy()
    for action in line:
        end.apply(action)
    assert end.is_over()
    assert value(end) == exact
    assert deal == before and deal.hands == before.hands


@pytest.mark.parametrize(
    ("tricks_left", "positions"),
    [(1, 600), (2, 900), (3, 250), pytest.param(4, 6, marks=pytest.mark.slow)],
)
def test_solver_agrees_with_minimax(tricks_left: int, positions: int) -> None:
    rng = random.Random(13_000 + tricks_left)
    solver = Solver(table_bits=14)
    deal_values = values(rng)
    phases: set[Phase] = set()
    for _ in range(positions):
        deal = endgame(rng, tricks_left, random_variant(rng))
        phases.add(deal.phase)
        check(solver, deal, rng.choice(deal_values))
    if tricks_left >= 2:
        assert {Phase.PLAY, Phase.DECLARATION} <= phases


def waiting_for_an_answer(rng: random.Random, answer_steps: bool = False) -> Iterator[Deal]:
    """Positions where a partner names a marriage after ask-whole with four tricks left (four
    cards or more in hand: the window after trick 5 at the latest), and the windows after
    them: those found in 20,000 deals."""
    for _ in range(20_000):
        deal = rigged_deal(rng, random_variant(rng), answer_steps)
        tricks_left = 4
        # Play quietly, keeping kings and queens, until a window near the end offers ask-whole.
        while not deal.is_over() and 9 - deal.tricks_played > tricks_left:
            legal = deal.legal_actions()
            plain = [a for a in legal if a < 36 and a % 9 not in (5, 6)]
            deal.apply(rng.choice(plain or [a for a in legal if a < 36] or legal))
        if deal.phase is not Phase.DECLARATION or Action.ask_whole() not in deal.legal_actions():
            continue
        deal.apply(Action.ask_whole())
        if deal.phase is Phase.ANSWER:
            yield deal


def test_positions_waiting_for_an_answer() -> None:
    """Positions where a partner chooses among several marriages."""
    rng = random.Random(77)
    solver = Solver(table_bits=14)
    deal_values = values(rng)
    found = 0
    for deal in itertools.islice(waiting_for_an_answer(rng), 12):
        found += 1
        check(solver, deal, rng.choice(deal_values))
    assert found == 12


def test_a_forced_answer_of_answer_steps_is_solved_as_answered_at_once() -> None:
    """With ``answer_steps`` a partner with one marriage names it as a step of its own: the
    solver agrees with minimax there, and the value is that of the deal without
    ``answer_steps``, where the marriage was named at once."""
    rng = random.Random(78)
    solver = Solver(table_bits=14)
    deal_values = values(rng)
    forced = (d for d in waiting_for_an_answer(rng, True) if len(d.legal_actions()) == 1)
    found = 0
    for deal in itertools.islice(forced, 12):
        found += 1
        value = rng.choice(deal_values)
        check(solver, deal, value)
        at_once = Deal(deal.initial_hands, deal.dealer, deal.variant, deal.forehand)
        at_once.replay(deal.decisions)
        assert at_once.phase is not Phase.ANSWER
        assert solver.value(deal, value) == solver.value(at_once, value)
    assert found == 12


def test_fresh_and_reused_solvers_agree() -> None:
    rng = random.Random(5)
    reused = Solver(table_bits=12)
    deal_values = values(rng)
    for _ in range(150):
        deal = endgame(rng, rng.choice((2, 3)), random_variant(rng))
        value = rng.choice(deal_values)
        assert reused.solve(deal, value) == Solver(table_bits=12).solve(deal, value)
        assert reused.value(deal, value) == Solver(table_bits=12).value(deal, value)


def test_a_finished_deal_has_nothing_to_solve() -> None:
    deal = Deal.shuffled(random.Random(1), Seat.N)
    deal.playout(random.Random(2))
    solver = Solver(table_bits=10)
    for call in (solver.solve, solver.value, solver.line):
        with pytest.raises(ValueError):
            call(deal, DealValue.game_points())


@pytest.mark.parametrize("seed", range(2))
def test_full_deals_solve_and_the_line_reaches_the_value(seed: int) -> None:
    rng = random.Random(seed)
    deal = Deal.shuffled(rng, Seat(seed), random_variant(rng))
    solver = Solver()
    value = DealValue.match((rng.randrange(10), rng.randrange(10)), deal.variant)
    exact = solver.value(deal, value)
    line = solver.line(deal, value)
    end = deal.copy()
    for action in line:
        end.apply(action)
    assert value(end) == exact
    sign = 1.0 if deal.forehand % 2 == 0 else -1.0
    assert max(v for _, v in solver.solve(deal, value)) == sign * exact
    assert solver.nodes > 0


def plain_match_value(before: tuple[int, int], variant: Variant) -> Callable[[Deal], float]:
    """The rule search.py used before DealValue: the score swing over the target, plus winning."""

    def value(deal: Deal) -> float:
        after = score_deal(before, deal.result(), variant).after
        swing = ((after[0] - before[0]) - (after[1] - before[1])) / variant.target
        return swing + (after[0] == variant.target) - (after[1] == variant.target)

    return value


def test_deal_values_of_finished_deals() -> None:
    rng = random.Random(3)
    for _ in range(200):
        variant = random_variant(rng)
        deal = Deal.shuffled(rng, Seat.N, variant)
        deal.playout(rng)
        r = deal.result()
        assert DealValue.game_points()(deal) == r.game_points[0] - r.game_points[1]
        before = (rng.randrange(variant.target), rng.randrange(variant.target))
        assert DealValue.match(before, variant)(deal) == pytest.approx(
            plain_match_value(before, variant)(deal)
        )
        after = score_deal(before, r, variant).after
        equity = DealValue.match(before, variant, lambda s: (s[0] - s[1]) / 100)
        on = (after[0] == variant.target, after[1] == variant.target)
        expected = (
            0.0
            if all(on)  # a draw; under "continue" the equity of a level score, here 0
            else 1.0
            if on[0]
            else -1.0
            if on[1]
            else (after[0] - after[1]) / 100
        )
        assert equity(deal) == pytest.approx(expected - (before[0] - before[1]) / 100)


def test_near_the_target_a_team_plays_for_fewer_points() -> None:
    """At 9-5 NS win with exactly one game point; a deal worth two is an overshoot to 7."""
    value = DealValue.match((9, 5), Variant())
    assert value.at(1, 0, True, True) > value.at(2, 0, True, True)
    assert value.at(1, 0, True, True) == pytest.approx(1.1)
    result = DealResult((9, 0), (120, 0), (0, 0), None, (2, 0))
    assert score_deal((9, 5), result, Variant()).after == (7, 0)
    with pytest.raises(AttributeError):
        value.x = 1  # type: ignore[attr-defined]


def test_a_solve_within_too_few_positions_gives_up_and_spoils_nothing() -> None:
    rng = random.Random(8)
    deal = Deal.shuffled(rng, Seat.E)
    value = DealValue.match((9, 5), deal.variant)
    solver = Solver()
    assert solver.solve_within(deal, value, 500) is None
    assert 500 < solver.nodes <= 501
    # What the given-up search left in the table changes no value found after it.
    later = deal.copy()
    while len(later.tricks) < 3:
        later.apply(rng.choice(later.legal_actions()))
    assert solver.solve(later, value) == Solver().solve(later, value)
    assert solver.solve_within(later, value, 10**9) == Solver().solve(later, value)


def test_a_deal_that_is_none_is_refused_not_solved() -> None:
    """``None`` was read as a deal from the memory past Python's None: value() gave a number."""
    solver = Solver()
    for ask in (solver.value, solver.solve, solver.line):
        with pytest.raises(TypeError, match="deal"):
            ask(None, DealValue.game_points())  # type: ignore[arg-type]
