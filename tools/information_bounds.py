"""How much seeing hidden hands is worth: a measurement for issue 13, not part of the package.

A team that may see what honest players cannot is played against an honest player on the
arena's evaluation set of single deals (the same cards as ``valtti arena --deals N --seed S``),
in duplicate pairs, and the game points a deal it gains are printed with a 95 % interval. It
bounds what better inference could win: a player that infers perfectly sees what the team
sees here.

``--sees all``: every hand; the team plays the double-dummy solver's best action for the
match (``DealValue.match`` with the match equity), the same value ``pimc:hard`` solves for.
``--tricks early`` sees only in tricks 1-2 and ``late`` only from trick 3, where ``pimc:hard``
plays the rest. ``--sees partner``: ``pimc:hard`` that is told its partner's hand: every
world it and its opening search draw agrees with it; ``--sees all-told``: told every hand.

    PYTHONPATH=src python tools/information_bounds.py --sees all --against search:hard --pairs 60
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import valtti.players.pimc
import valtti.players.search
from valtti.arena import MatchJob
from valtti.engine import CardSet, Observation, Seat, Suit, Variant
from valtti.engine.solver import DealValue, Solver
from valtti.players import make_player
from valtti.players.equity import match_equity
from valtti.players.knowledge import Knowledge, infer
from valtti.table import Computer, Table

_READERS = (valtti.players.pimc, valtti.players.search)
SEEING = "pimc:hard"  #: the player of the seeing team where it does not see (or is told)


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
        return dataclasses.replace(
            knowledge,
            possible=(possible[0], possible[1], possible[2], possible[3]),
            known=(known[0], known[1], known[2], known[3]),
            voids=voids,
            constraints=tuple(c for c in knowledge.constraints if c.seat not in hands),
        )

    return infer_told


def play_half(job: MatchJob, sees: str, tricks: str) -> tuple[int, int]:
    """One single-deal match: (pair number, game points of the seeing team minus the other's)."""
    seeing_team = job.first_team()
    seats = {
        seat: Computer(SEEING if seat.team == seeing_team else job.second, job.player_seed(seat))
        for seat in Seat
    }
    table = Table(seats, job.match_seed, variant=job.variant)
    solver = Solver(20)
    with table:
        table.start_deal()
        deal = table.match.deal
        assert deal is not None
        while not deal.is_over():
            seat = deal.current_player
            assert seat is not None
            early = deal.tricks_played < 2
            sees_now = seat.team == seeing_team and tricks in ("all", "early" if early else "late")
            if sees_now and sees == "all":
                legal = deal.legal_actions()
                if len(legal) == 1:
                    action = legal[0]
                else:
                    value = DealValue.match(
                        table.match.score, deal.variant, match_equity(deal.variant)
                    )
                    action = max(solver.solve(deal.copy(), value), key=lambda av: av[1])[0]
            elif sees_now:
                shown = [Seat((seat + 2) % 4)] if sees == "partner" else [*seat.team.other.seats]
                # The players read the hands through ``infer``, bound in their modules.
                for module in _READERS:
                    vars(module)["infer"] = told({s: deal.hand(s) for s in shown})
                try:
                    action = table.decide()
                finally:
                    for module in _READERS:
                        vars(module)["infer"] = infer
            else:
                action = table.decide()
            table.apply(action)
        points = deal.result().game_points
    return job.number, points[seeing_team] - points[seeing_team.other]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sees", choices=("all", "partner", "all-told"), default="all")
    parser.add_argument("--tricks", choices=("all", "early", "late"), default="all")
    parser.add_argument("--against", default="search:hard")
    parser.add_argument("--pairs", type=int, default=40)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    make_player(args.against)  # a bad spec fails here, not in a worker
    jobs = [
        MatchJob(0, SEEING, args.against, i, swapped, args.seed, Variant(), 1, False)
        for i in range(args.pairs)
        for swapped in (False, True)
    ]
    halves: dict[int, list[int]] = {}
    pairs: list[float] = []
    start = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        done = pool.map(play_half, jobs, [args.sees] * len(jobs), [args.tricks] * len(jobs))
        for number, gained in done:
            halves.setdefault(number, []).append(gained)
            if len(halves[number]) == 2:
                pairs.append(sum(halves[number]) / 2)
    mean = statistics.mean(pairs)
    half = 1.96 * statistics.stdev(pairs) / math.sqrt(len(pairs)) if len(pairs) > 1 else math.nan
    print(
        f"seeing {args.sees} in tricks {args.tricks} vs {args.against}: {mean:+.2f} game points"
        f" a deal [{mean - half:+.2f}, {mean + half:+.2f}] over {len(pairs)} pairs,"
        f" {time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
