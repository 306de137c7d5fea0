"""The per-deal outcome table behind the match equity, measured from heuristic play.

``python tools/equity_table.py [MATCHES] [SEED]`` plays heuristic-against-heuristic
matches (every seat the heuristic player, which aims at the target as a club player does) and
writes how often each deal outcome class came up to the package's data,
``valtti/players/data/outcomes.json``. A class is (game points NS, game points EW, NS took a
trick, EW took a trick); every deal is counted once as played and once with the teams swapped,
so the table is symmetric between teams.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from pathlib import Path

import valtti.players
from valtti.engine import Match, Seat, Variant
from valtti.players.heuristic import HeuristicPlayer

#: Where the shipped table lives, inside the package.
TABLE = Path(valtti.players.__file__).with_name("data") / "outcomes.json"

Outcome = tuple[int, int, bool, bool]


def measure(matches: int, seed: int = 0, variant: Variant | None = None) -> Counter[Outcome]:
    """Outcome classes of every deal of ``matches`` heuristic matches, both ways round."""
    rng = random.Random(seed)
    counts: Counter[Outcome] = Counter()
    for _ in range(matches):
        match = Match(variant or Variant(), Seat(rng.randrange(4)))
        players = [HeuristicPlayer(rng.randrange(1 << 30)) for _ in Seat]
        while not match.is_over():
            deal = match.start_deal(rng=rng)
            while not deal.is_over():
                seat = deal.current_player
                assert seat is not None
                match.apply(players[seat].choose(match.observation(seat)))
            result = deal.result()
            ns, ew = result.game_points
            took = (result.tricks[0] > 0, result.tricks[1] > 0)
            counts[(ns, ew, took[0], took[1])] += 1
            counts[(ew, ns, took[1], took[0])] += 1
    return counts


def write(counts: Counter[Outcome], path: Path = TABLE) -> None:
    rows = [[ns, ew, int(a), int(b), n] for (ns, ew, a, b), n in sorted(counts.items())]
    text = json.dumps(
        {
            "about": "deal outcome classes of heuristic matches: gp_ns gp_ew ns_took ew_took count",
            "outcomes": rows,
        },
        separators=(",", ":"),
    )
    path.write_text(text + "\n")


def main(argv: list[str]) -> None:
    matches = int(argv[0]) if argv else 200
    seed = int(argv[1]) if len(argv) > 1 else 0
    counts = measure(matches, seed)
    write(counts)
    print(f"{sum(counts.values()) // 2} deals, {len(counts)} classes → {TABLE}")


if __name__ == "__main__":
    main(sys.argv[1:])
