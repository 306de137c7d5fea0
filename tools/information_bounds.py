"""How much seeing hidden hands is worth: a measurement for issue 13, not part of the package.

A team that may see what honest players cannot is played against an honest player on the
arena's evaluation set of single deals (the same cards as ``valtti arena --deals N --seed S``),
in duplicate pairs, and the game points a deal it gains are printed with a 95 % interval. It
bounds what better inference could win: a player that infers perfectly sees what the team
sees here.

``--sees all``: every hand; the team plays the double-dummy solver's best action for the
match (``DealValue.match`` with the match equity), the same value ``pimc:hard`` solves for.
``--tricks early`` sees only in tricks 1-2 and ``late`` only from trick 3, where ``pimc:hard``
plays the rest. ``--decisions windows`` sees only in the declaration windows (a decision where
a declaration or a question is legal: seeing, the team knows when to ask and what), ``cards``
only in the others. ``--sees partner``: ``pimc:hard`` that is told its partner's hand: every
world it and its opening search draw agrees with it; ``--sees all-told``: told every hand.

``--matches N`` plays whole duplicate matches instead (``valtti arena --matches N``'s cards,
stopped as a draw after 200 deals) and prints the seeing team's matches won, drawn and lost
and its match score: what perfect inference could win in matches, not only in points.

    PYTHONPATH=src python tools/information_bounds.py --sees all --against search:hard --pairs 60
    PYTHONPATH=src python tools/information_bounds.py --sees all --matches 40 --seed 2026
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace

import valtti.players.pimc
import valtti.players.search
from valtti.arena import MatchJob
from valtti.engine import Action, ActionKind, CardSet, Deal, Observation, Seat, Suit, Team, Variant
from valtti.engine.solver import DealValue, Solver
from valtti.players import make_player
from valtti.players.equity import match_equity
from valtti.players.knowledge import Knowledge, infer
from valtti.players.stats import Estimate, mean_interval
from valtti.table import Computer, Table

_READERS = (valtti.players.pimc, valtti.players.search)
SEEING = "pimc:hard"  #: the player of the seeing team where it does not see (or is told)
_WINDOW = (ActionKind.DECLARE, ActionKind.ASK_WHOLE, ActionKind.ASK_HALF)
MAX_DEALS = 200  #: a match still unfinished after so many deals is stopped, a draw (as the arena)


def told(hands: dict[Seat, CardSet]) -> Callable[[Observation], Knowledge]:
    """``infer``, with the hands in ``hands`` known to the observer as well."""

    def infer_told(observation: Observation) -> Knowledge:
        knowledge = infer(observation)
        possible = list(knowledge.possible)
        known = list(knowledge.known)
        for seat, hand in hands.items():
            for other in Seat:
                if other == seat:
                    possible[other] = known[other] = hand
                elif other != knowledge.observer:
                    possible[other] = CardSet(possible[other].mask & ~hand.mask)
                    known[other] = CardSet(known[other].mask & ~hand.mask)
        voids = tuple(
            frozenset(suit for suit in Suit if not possible[seat].mask & suit.mask) for seat in Seat
        )
        return replace(
            knowledge,
            possible=(possible[0], possible[1], possible[2], possible[3]),
            known=(known[0], known[1], known[2], known[3]),
            voids=voids,
            constraints=tuple(c for c in knowledge.constraints if c.seat not in hands),
        )

    return infer_told


@dataclass(frozen=True, slots=True)
class Half:
    """One half of a duplicate pair from the seeing team's side: its game points minus the
    other team's over the deals played, the deals, and the match's result (``None`` for a
    single deal, which ends no match)."""

    number: int
    gained: int
    deals: int
    result: float | None  #: 1 won, 0.5 drawn or stopped at 200 deals, 0 lost


def play_half(job: MatchJob, sees: str, tricks: str, decisions: str = "all") -> Half:
    """One half: a single deal where ``job.max_deals`` is 1, else the whole match."""
    seeing_team = job.first_team()
    seats = {
        seat: Computer(SEEING if seat.team == seeing_team else job.second, job.player_seed(seat))
        for seat in Seat
    }
    table = Table(seats, job.match_seed, variant=job.variant)
    match = table.match
    solver = Solver(20)
    with table:
        while table.needs_deal and len(match.deals) < job.max_deals:
            deal = table.start_deal()
            while not deal.is_over():
                table.apply(_action(table, deal, seeing_team, solver, sees, tricks, decisions))
    finished = [deal.result().game_points for deal in match.deals]
    gained = sum(points[seeing_team] - points[seeing_team.other] for points in finished)
    if job.max_deals == 1:
        result = None
    else:
        winner = match.winner
        result = 0.5 if winner is None else 1.0 if winner == seeing_team else 0.0
    return Half(job.number, gained, len(finished), result)


def _is_window(deal: Deal) -> bool:
    """Whether the mover may declare or ask now: a declaration window (RULES.md 4.1-4.2)."""
    return any(action.kind in _WINDOW for action in deal.legal_actions())


def _action(
    table: Table,
    deal: Deal,
    seeing_team: Team,
    solver: Solver,
    sees: str,
    tricks: str,
    decisions: str = "all",
) -> Action:
    """The action of the seat to move: seeing, told, or honest."""
    seat = deal.current_player
    assert seat is not None
    early = deal.tricks_played < 2
    sees_now = (
        seat.team == seeing_team
        and tricks in ("all", "early" if early else "late")
        and decisions in ("all", "windows" if _is_window(deal) else "cards")
    )
    if sees_now and sees == "all":
        legal = deal.legal_actions()
        if len(legal) == 1:
            return legal[0]
        value = DealValue.match(table.match.score, deal.variant, match_equity(deal.variant))
        return max(solver.solve(deal.copy(), value), key=lambda av: av[1])[0]
    if not sees_now:
        return table.decide()
    shown = [Seat((seat + 2) % 4)] if sees == "partner" else [*seat.team.other.seats]
    # The players read the hands through ``infer``, bound in their modules.
    for module in _READERS:
        vars(module)["infer"] = told({s: deal.hand(s) for s in shown})
    try:
        return table.decide()
    finally:
        for module in _READERS:
            vars(module)["infer"] = infer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sees", choices=("all", "partner", "all-told"), default="all")
    parser.add_argument("--tricks", choices=("all", "early", "late"), default="all")
    parser.add_argument("--decisions", choices=("all", "windows", "cards"), default="all")
    parser.add_argument("--against", default="search:hard")
    count = parser.add_mutually_exclusive_group()
    count.add_argument("--pairs", type=int, help="duplicate pairs of single deals (default 40)")
    count.add_argument("--matches", type=int, help="instead: duplicate pairs of whole matches")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    make_player(args.against)  # a bad spec fails here, not in a worker
    pairs, max_deals = (args.matches, MAX_DEALS) if args.matches else (args.pairs or 40, 1)
    jobs = [
        MatchJob(0, SEEING, args.against, i, swapped, args.seed, Variant(), max_deals, False)
        for i in range(pairs)
        for swapped in (False, True)
    ]
    halves: dict[int, list[Half]] = {}
    start = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        plays = [args.sees] * len(jobs), [args.tricks] * len(jobs), [args.decisions] * len(jobs)
        for half in pool.map(play_half, jobs, *plays):
            halves.setdefault(half.number, []).append(half)
    # A pair's figure is its game points a deal: the two halves of a match pair may differ in
    # length, and a deal is what the single-deal figure counts too.
    gained = mean_interval(
        [sum(h.gained for h in p) / sum(h.deals for h in p) for p in halves.values()]
    )
    print(
        f"seeing {args.sees} in tricks {args.tricks}, decisions {args.decisions}"
        f" vs {args.against}:"
        f" {gained.mean:+.2f} game points a deal {_interval(gained)} over {len(halves)} pairs"
        + (f" of matches, {_won(halves)}" if args.matches else "")
        + f", {time.perf_counter() - start:.0f} s"
    )


def _interval(estimate: Estimate) -> str:
    """``[-0.03, +0.27]``; ``[no interval]`` from one pair."""
    if estimate.low is None or estimate.high is None:
        return "[no interval]"
    return f"[{estimate.low:+.2f}, {estimate.high:+.2f}]"


def _won(halves: dict[int, list[Half]]) -> str:
    """``won / drawn / lost W/D/L, match score 61 % [52 %, 70 %]`` of the seeing team."""
    results = [h.result for pair in halves.values() for h in pair if h.result is not None]
    won, drawn = results.count(1.0), results.count(0.5)
    score = mean_interval([sum(h.result or 0.0 for h in pair) / 2 for pair in halves.values()])
    interval = (
        "[no interval]"
        if score.low is None or score.high is None
        else f"[{100 * score.low:.0f} %, {100 * score.high:.0f} %]"
    )
    return (
        f"won / drawn / lost {won}/{drawn}/{len(results) - won - drawn},"
        f" match score {100 * (score.mean or 0.0):.0f} % {interval}"
    )


if __name__ == "__main__":
    main()
