"""Two players compared from one point of the deal on: a measurement for issue 13, not part of
the package.

Positions are taken from arena records (``valtti arena --records DIR``): in each finished deal,
the first moment trick ``--trick`` is next (its lead, or the declaration window before it). Each
position is played to the deal's end twice with the real hands, player A's team sitting NS in
one playout and EW in the other, so the cards and the play so far cancel and only how the two
play the rest differs. It prints A's mean advantage per position in game points (A's team's
minus the other team's, half the difference of the two playouts) and in match value (the
deal's worth to the match, ``DealValue.match`` with the match equity, as ``pimc`` solves for),
each with a 95 % Student-t interval, and each player's mean time a decision.

With the tricks before fixed, a position's two playouts differ far less than two whole deals
do: from trick 3 on, 400 positions measure to about ±0.09 game points, where 400 duplicate
single deals measure to about ±0.12 and also mix in the first tricks' play.

    PYTHONPATH=src python tools/phase_duel.py --a pimc:hard --b search:hard --trick 3 \\
        --positions 400 runs/records/01-pimc_hard-vs-search_hard
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from valtti.engine import Deal, Seat, Variant
from valtti.engine.record import Record
from valtti.engine.solver import DealValue
from valtti.players import make_player
from valtti.players.equity import match_equity
from valtti.players.stats import Estimate, mean_interval
from valtti.table import derive_seed


@dataclass(frozen=True, slots=True)
class Position:
    """A deal at the point where the duel starts, and the match score before it."""

    hands: tuple[int, int, int, int]  #: as dealt, card masks N E S W
    dealer: Seat
    forehand: Seat
    variant: Variant
    history: tuple[int, ...]  #: the actions before the point
    before: tuple[int, int]

    def deal(self) -> Deal:
        deal = Deal(list(self.hands), self.dealer, self.variant, self.forehand)
        for action in self.history:
            deal.apply(action)
        return deal


@dataclass(frozen=True, slots=True)
class Playout:
    """One playout's result from A's side, and each player's time in ``choose``."""

    position: int
    flipped: bool  #: A's team sat EW
    game_points: int  #: A's team's minus the other's
    value: float  #: the deal's match value for A's team
    seconds: tuple[float, float]  #: A's, B's
    decisions: tuple[int, int]


def positions(folders: Sequence[Path], trick: int) -> Iterator[Position]:
    """Every finished deal's first moment with trick ``trick`` next, record by record. A
    duplicate arena pair deals the same cards twice: the B half is left out."""
    for path in sorted(p for folder in folders for p in folder.glob("match-*.json")):
        if path.stem.endswith("B"):
            continue
        match = Record.from_json(path.read_text(encoding="utf-8")).replay()
        for played, score in zip(match.deals, match.deal_scores, strict=False):
            if not played.is_over():
                continue
            deal = Deal(
                [h.mask for h in played.initial_hands],
                played.dealer,
                played.variant,
                played.forehand,
            )
            for n, action in enumerate(played.history):
                if deal.tricks_played == trick - 1:
                    yield Position(
                        (
                            played.initial_hands[0].mask,
                            played.initial_hands[1].mask,
                            played.initial_hands[2].mask,
                            played.initial_hands[3].mask,
                        ),
                        played.dealer,
                        played.forehand,
                        played.variant,
                        tuple(int(a) for a in played.history[:n]),
                        score.before,
                    )
                    break
                deal.apply(action)


def play(index: int, position: Position, specs: tuple[str, str], flipped: bool) -> Playout:
    """Play ``position`` to the end, A's team NS (EW when ``flipped``)."""
    deal = position.deal()
    a_team = 1 if flipped else 0
    players = {
        seat: make_player(
            specs[int(seat) % 2 != a_team], derive_seed(index, "duel", int(flipped), int(seat))
        )
        for seat in Seat
    }
    seconds = [0.0, 0.0]
    decisions = [0, 0]
    while not deal.is_over():
        seat = deal.current_player
        assert seat is not None
        side = int(int(seat) % 2 != a_team)
        observation = deal.observation(seat).with_score(position.before)
        start = time.perf_counter()
        action = players[seat].choose(observation)
        seconds[side] += time.perf_counter() - start
        decisions[side] += 1
        deal.apply(int(action))
    for player in players.values():
        player.close()
    points = deal.result().game_points
    value = DealValue.match(position.before, deal.variant, match_equity(deal.variant))(deal)
    sign = -1 if flipped else 1
    return Playout(
        index,
        flipped,
        sign * (points[0] - points[1]),
        sign * value,
        (seconds[0], seconds[1]),
        (decisions[0], decisions[1]),
    )


def duel(
    specs: tuple[str, str], chosen: Sequence[Position], workers: int
) -> tuple[Estimate, Estimate, list[Playout]]:
    """A's advantage in game points and in match value per position, and every playout."""
    jobs = [(i, p, flipped) for i, p in enumerate(chosen) for flipped in (False, True)]
    with ProcessPoolExecutor(workers) as pool:
        futures = [pool.submit(play, i, p, specs, flipped) for i, p, flipped in jobs]
        playouts = [f.result() for f in futures]
    by_position: dict[int, list[Playout]] = {}
    for playout in playouts:
        by_position.setdefault(playout.position, []).append(playout)
    pairs = [pair for _, pair in sorted(by_position.items())]
    points = mean_interval([sum(p.game_points for p in pair) / 2 for pair in pairs])
    value = mean_interval([sum(p.value for p in pair) / 2 for pair in pairs])
    return points, value, playouts


def _shown(estimate: Estimate, places: int) -> str:
    assert estimate.mean is not None
    half = estimate.half_width
    spread = "" if half is None else f" ± {half:.{places}f}"
    return f"{estimate.mean:+.{places}f}{spread}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", required=True, help="player A, e.g. pimc:hard")
    parser.add_argument("--b", required=True, help="player B, e.g. search:hard")
    parser.add_argument("--trick", type=int, required=True, choices=range(1, 10))
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1, help="which positions, when there are more")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("records", nargs="+", type=Path, help="folders of arena records")
    args = parser.parse_args()
    found = list(positions(args.records, args.trick))
    random.Random(args.seed).shuffle(found)
    chosen = found[: args.positions]
    if not chosen:
        parser.error(f"no finished deal in {', '.join(map(str, args.records))} reaches the trick")
    start = time.perf_counter()
    points, value, playouts = duel((args.a, args.b), chosen, args.workers)
    per = [
        1000 * sum(p.seconds[s] for p in playouts) / max(1, sum(p.decisions[s] for p in playouts))
        for s in (0, 1)
    ]
    print(
        f"{args.a} vs {args.b} from trick {args.trick}: {len(chosen)} positions, "
        f"A gains {_shown(points, 3)} game points and {_shown(value, 4)} match value a "
        f"position (95 %); {per[0]:.0f} and {per[1]:.0f} ms a decision; "
        f"{time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
