"""What each of the beginner's slips costs (issue 44): ``python tools/beginner_slips.py [--pairs
N] [--seed S] [SLIP ...]``.

For each slip named (``ask``, ``declare``, ``trump``, ``cash``, ``discard``; ``all`` for the
beginner as shipped), the beginner with that slip alone at its shipped rate
(``players.beginner.Slips``) against ``heuristic`` on the evaluation set's deal pairs (the
arena's cards of seed ``--seed``, one deal a half, the seats swapped): its game points a deal
less heuristic's, with a 95 % interval over the pairs.
"""

from __future__ import annotations

import argparse
import math
import statistics
from dataclasses import fields, replace

from valtti.engine import Deal, Seat, Team, Variant
from valtti.players.base import Player
from valtti.players.beginner import BeginnerPlayer, Slips
from valtti.players.heuristic import HeuristicPlayer
from valtti.table import deal_cards, derive_seed


def half(number: int, seed: int, slips: Slips, beginners: Team) -> int:
    """The beginners' game points less the heuristic players' in one half of pair ``number``."""
    table_seed = derive_seed(seed, "match", number)
    players: dict[Seat, Player] = {
        s: BeginnerPlayer(derive_seed(table_seed, str(beginners), int(s)), slips)
        if s.team == beginners
        else HeuristicPlayer(derive_seed(table_seed, str(beginners), int(s)))
        for s in Seat
    }
    deal = Deal(deal_cards(table_seed, 1), Seat.N, Variant())
    while not deal.is_over():
        seat = deal.current_player
        assert seat is not None  # a deal not over has someone to move
        deal.apply(players[seat].choose(deal.observation(seat)))
    points = deal.result().game_points
    return points[beginners] - points[beginners.other]


def main() -> None:
    names = [f.name for f in fields(Slips)]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("slips", nargs="*", help=f"of {', '.join(names)}, all  [default: each]")
    parser.add_argument("--pairs", type=int, default=500)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    chosen = args.slips or [*names, "all"]
    if unknown := set(chosen) - {*names, "all"}:
        parser.error(f"no slip {', '.join(sorted(unknown))}: slips are {', '.join(names)}, all")
    none = Slips(**dict.fromkeys(names, 0.0))
    for name in chosen:
        slips = Slips() if name == "all" else replace(none, **{name: getattr(Slips(), name)})
        pairs = [
            (half(k, args.seed, slips, Team.NS) + half(k, args.seed, slips, Team.EW)) / 2
            for k in range(args.pairs)
        ]
        error = 1.96 * statistics.stdev(pairs) / math.sqrt(len(pairs))
        print(f"{name:8} {statistics.mean(pairs):+.3f} ± {error:.3f}", flush=True)


if __name__ == "__main__":
    main()
