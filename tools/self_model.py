"""Make the self-model that ``pimc:hard`` infers with (``players/models/valtti-pimc-self.npz``).

Two steps, so that the slow one can run in the background and be resumed:

    python tools/self_model.py gather --player pimc:hard-repeatable --deals 1500 --seed 977 \\
        --workers 2 --out decisions.npz
    python tools/self_model.py fit decisions.npz --out valtti-pimc-self.npz

``gather`` plays the arena's single deals of the seed with the player in all four seats and
saves their decisions with a choice every 50 deals (``--first`` starts later, to add to a file
with another name). ``fit`` trains the network on one or more such files and prints how well it
predicts the held-out decisions against the uniform choice (``valtti.research.imitate``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from valtti.research.imitate import Decisions, fit, gather


def _gather(args: argparse.Namespace) -> None:
    start = time.perf_counter()
    out = Path(args.out)

    def progress(done: int, parts: list[Decisions]) -> None:
        if done % 50 == 0 or done == args.deals:
            decisions = Decisions.join(parts)
            decisions.save(out)
            rate = (time.perf_counter() - start) / done
            print(f"{done} deals, {len(decisions)} decisions, {rate:.1f} s a deal", flush=True)

    gather(args.player, args.deals, args.seed, args.workers, args.first, progress)
    print(f"saved {out}")


def _fit(args: argparse.Namespace) -> None:
    decisions = Decisions.join([Decisions.load(name) for name in args.files])
    print(f"{len(decisions)} decisions")

    def progress(epoch: int, log_loss: float, accuracy: float) -> None:
        print(f"epoch {epoch}: held-out log-loss {log_loss:.4f}, accuracy {accuracy:.1%}")

    hidden = tuple(int(w) for w in args.hidden.split(","))
    result = fit(decisions, hidden, args.epochs, args.seed, progress=progress)
    result.network.save(args.out)
    print(
        f"best: log-loss {result.log_loss:.4f} (uniform {result.uniform_log_loss:.4f}), "
        f"accuracy {result.accuracy:.1%} over {result.held_out} held-out decisions; "
        f"saved {args.out}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    steps = parser.add_subparsers(dest="step", required=True)
    g = steps.add_parser("gather", help="play deals and save the player's decisions")
    g.add_argument("--player", default="pimc:hard-repeatable")
    g.add_argument("--deals", type=int, default=1500)
    g.add_argument("--seed", type=int, default=977)
    g.add_argument("--first", type=int, default=0, help="the first deal's number")
    g.add_argument("--workers", type=int, default=1)
    g.add_argument("--out", required=True)
    f = steps.add_parser("fit", help="fit the network to saved decisions")
    f.add_argument("files", nargs="+")
    f.add_argument("--out", required=True)
    f.add_argument("--hidden", default="256,256", help="hidden widths, comma-separated")
    f.add_argument("--epochs", type=int, default=15)
    f.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        (_gather if args.step == "gather" else _fit)(args)
    except ValueError as e:
        print(f"self_model: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
