"""A model of a player's own play, learned by imitation: what ``pimc:hard`` infers with.

``gather`` seats one player in all four seats of the arena's single deals of a seed and keeps
every decision with a choice (answers left out, as ``players.likelihood`` leaves them out): the
seat's observation tensor (docs/TENSORS.md, at score 0–0), the legal actions and the action
taken (``Decisions``). ``fit`` trains a ``QNetwork`` of the learned player's shape by
cross-entropy over the legal actions to predict the action taken, so that its outputs are
log-odds: ``LearnedLikelihood`` at temperature 1 reads them as that player's chances. CPU
PyTorch, imported only by ``fit`` (``pip install 'valtti[train]'``).

``tools/self_model.py`` runs both steps; the model it writes is the one shipped as
``players/models/valtti-pimc-self.npz``.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from valtti.engine import NUM_ACTIONS, ActionKind, Seat
from valtti.engine.tensors import OBSERVATION_SIZE, observation_tensor
from valtti.players.learned import QNetwork, read_npz
from valtti.research.learner import _torch, layer_arrays, mlp
from valtti.table import Computer, Table, derive_seed

#: What a decisions file is, as refusals say it.
DECISIONS = "a decisions file (an .npz of x, legal and action)"

__all__ = ["DECISIONS", "Decisions", "Fit", "fit", "gather", "play_deal"]


@dataclass(frozen=True)
class Decisions:
    """Decisions with a choice: ``x`` observation tensors (N × OBSERVATION_SIZE, float32),
    ``legal`` the legal actions as bit masks (uint64), ``action`` the index taken (int64)."""

    x: npt.NDArray[np.float32]
    legal: npt.NDArray[np.uint64]
    action: npt.NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.action)

    def __add__(self, other: Decisions) -> Decisions:
        return Decisions.join([self, other])

    @staticmethod
    def join(parts: Sequence[Decisions]) -> Decisions:
        """``parts`` as one, in order (copied once)."""
        return Decisions(
            np.concatenate([np.zeros((0, OBSERVATION_SIZE), np.float32), *(p.x for p in parts)]),
            np.concatenate([np.zeros(0, np.uint64), *(p.legal for p in parts)]),
            np.concatenate([np.zeros(0, np.int64), *(p.action for p in parts)]),
        )

    @staticmethod
    def empty() -> Decisions:
        return Decisions.join([])

    def save(self, path: Path | str) -> None:
        np.savez_compressed(path, x=self.x, legal=self.legal, action=self.action)

    @classmethod
    def load(cls, path: Path | str) -> Decisions:
        """The decisions saved at ``path``; ``ValueError`` "PATH is not a decisions file …:
        why" when it is not one (read as data only, never as a pickle)."""
        try:
            arrays = read_npz(path, DECISIONS)
        except FileNotFoundError:
            raise ValueError(f"no decisions file at {path}") from None
        missing = [k for k in ("x", "legal", "action") if k not in arrays]
        if missing:
            raise ValueError(f"{path} is not {DECISIONS}: it has no {' or '.join(missing)}")
        x, legal, action = arrays["x"], arrays["legal"], arrays["action"]
        n = len(action)
        if x.shape != (n, OBSERVATION_SIZE) or legal.shape != (n,) or action.shape != (n,):
            why = f"shapes x {x.shape}, legal {legal.shape}, action {action.shape} do not fit"
            raise ValueError(f"{path} is not {DECISIONS}: {why}")
        if x.dtype.kind != "f" or legal.dtype.kind not in "ui" or action.dtype.kind not in "ui":
            raise ValueError(f"{path} is not {DECISIONS}: the arrays are of the wrong types")
        action = action.astype(np.int64)
        legal = legal.astype(np.uint64)
        if n and (action.min() < 0 or action.max() >= NUM_ACTIONS):
            raise ValueError(f"{path} is not {DECISIONS}: an action is out of range")
        if n and not ((legal >> action.astype(np.uint64)) & np.uint64(1)).all():
            raise ValueError(f"{path} is not {DECISIONS}: an action taken is not legal")
        return cls(x.astype(np.float32), legal, action)


def play_deal(player: str, seed: int, number: int) -> Decisions:
    """Deal ``number`` of the arena's single deals of ``seed``, ``player`` in every seat (its
    seeds as the arena's first half gives them), and its decisions with a choice."""
    match_seed = derive_seed(seed, "match", number)
    seats = {
        seat: Computer(player, derive_seed(seed, "player", number, "A", str(seat))) for seat in Seat
    }
    xs: list[npt.NDArray[np.float32]] = []
    legal: list[int] = []
    taken: list[int] = []
    with Table(seats, match_seed) as table:
        deal = table.start_deal()
        while not deal.is_over():
            seat = deal.current_player
            assert seat is not None
            mask = deal.legal_mask()
            tensor = observation_tensor(deal, seat, score=(0, 0)) if mask & (mask - 1) else None
            action = table.decide()
            if tensor is not None and action.kind is not ActionKind.ANSWER:
                xs.append(tensor)
                legal.append(mask)
                taken.append(int(action))
            table.apply(action)
    if not xs:
        return Decisions.empty()
    return Decisions(
        np.stack(xs), np.array(legal, dtype=np.uint64), np.array(taken, dtype=np.int64)
    )


def gather(
    player: str,
    deals: int,
    seed: int,
    workers: int = 1,
    first: int = 0,
    progress: Callable[[int, list[Decisions]], None] | None = None,
) -> Decisions:
    """The decisions of ``player`` in deals ``first`` … ``first + deals − 1`` (``play_deal``),
    in that order, ``workers`` processes; ``progress(deals done, each deal's decisions so far)``
    after each (``Decisions.join`` makes them one)."""
    numbers = range(first, first + deals)
    parts: list[Decisions] = []
    with contextlib.ExitStack() as stack:
        results: Iterable[Decisions]
        if workers <= 1:
            results = (play_deal(player, seed, n) for n in numbers)
        else:
            pool = stack.enter_context(ProcessPoolExecutor(workers))
            results = pool.map(play_deal, [player] * deals, [seed] * deals, numbers)
        for part in results:
            parts.append(part)
            if progress:
                progress(len(parts), parts)
    return Decisions.join(parts)


@dataclass
class Fit:
    """A fitted model and how well it predicts the held-out decisions: mean log-loss (nats a
    decision), accuracy, and the log-loss of the uniform choice among the legal actions; one
    ``curve`` entry (epoch, held-out log-loss) an epoch. ``network`` is the best epoch's."""

    network: QNetwork
    held_out: int
    log_loss: float
    accuracy: float
    uniform_log_loss: float
    curve: list[tuple[int, float]] = field(default_factory=list)


def fit(
    decisions: Decisions,
    hidden: tuple[int, ...] = (256, 256),
    epochs: int = 15,
    seed: int = 0,
    lr: float = 1e-3,
    weight_decay: float = 1e-5,
    batch: int = 256,
    held_out: float = 0.1,
    progress: Callable[[int, float, float], None] | None = None,
) -> Fit:
    """Train a ``QNetwork`` by cross-entropy over each decision's legal actions (a random
    ``held_out`` share kept aside, by ``seed``) and return the epoch of best held-out log-loss;
    ``progress(epoch, log-loss, accuracy)`` after each. Deterministic for a seed (one thread).
    The first layer's weights of an input that no decision sets are 0."""
    if len(decisions) < 2:
        raise ValueError("fitting needs at least two decisions")
    if not 0 < held_out < 1 or epochs < 1 or batch < 1:
        raise ValueError("held_out must be in (0, 1), epochs and batch at least 1")
    torch = _torch()
    torch.set_num_threads(1)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    n = len(decisions)
    order = rng.permutation(n)
    cut = max(1, min(n - 1, round(n * held_out)))
    test, train = order[:cut], order[cut:]
    x = torch.from_numpy(decisions.x)
    bits = np.arange(NUM_ACTIONS, dtype=np.uint64)
    allowed = torch.from_numpy(((decisions.legal[:, None] >> bits) & np.uint64(1)).astype(bool))
    y = torch.from_numpy(decisions.action)

    net = mlp(torch, [OBSERVATION_SIZE, *hidden, NUM_ACTIONS])
    optimizer = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=weight_decay)

    def loss_of(index: Any) -> Any:
        logits = net(x[index]).masked_fill(~allowed[index], -math.inf)
        return torch.nn.functional.cross_entropy(logits, y[index], reduction="none"), logits

    def held() -> tuple[float, float]:
        net.eval()
        with torch.no_grad():
            index = torch.from_numpy(test)
            losses, logits = loss_of(index)
            right = (logits.argmax(1) == y[index]).double().mean()
        net.train()
        return float(losses.mean()), float(right)

    best: tuple[float, float, list[tuple[Any, Any]]] | None = None
    curve: list[tuple[int, float]] = []
    for epoch in range(1, epochs + 1):
        shuffled = train[rng.permutation(len(train))]
        for start in range(0, len(shuffled), batch):
            index = torch.from_numpy(shuffled[start : start + batch])
            losses, _ = loss_of(index)
            optimizer.zero_grad()
            losses.mean().backward()
            optimizer.step()
        log_loss, accuracy = held()
        curve.append((epoch, log_loss))
        if progress:
            progress(epoch, log_loss, accuracy)
        if best is None or log_loss < best[0]:
            best = (log_loss, accuracy, layer_arrays(net))
    assert best is not None
    # An input that is never non-zero here (the score, gathered at 0–0; another variant's
    # switches) has weights no step trained: zeroed, the model ignores it instead of answering
    # at random for a match score or a variant it never saw.
    unseen = ~(decisions.x != 0).any(axis=0)
    best[2][0][0][unseen] = 0.0
    uniform = float(np.log(allowed[test].sum(1).numpy()).mean())
    return Fit(QNetwork(best[2]), len(test), best[0], best[1], uniform, curve)
