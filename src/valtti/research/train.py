"""Deep Monte-Carlo training of the learned player (``valtti train``), in the manner of DouZero.

An action-value network Q(observation tensor) → 49 values (``valtti.players.learned.QNetwork``)
is fitted by mean squared error to Monte-Carlo returns: for every decision with a choice, the
game points the acting seat's team made in that deal minus the other team's (RULES.md 5.1),
mixed (``match_weight``) with what the deal did to the match: the change of the score difference
and reaching the target, in game points (``match_return``; RULES.md 6). The data comes from
self-play: all four seats play the current network, epsilon-greedy, whole matches
(so the score inputs of the tensor take the values they take at a table).

Self-play actors are plain functions on numpy weights (no torch), run in this process
(``--workers 1``), in a pool of local processes, or as Ray tasks (``--backend ray``); the learner
is CPU PyTorch. Between rounds the run is checkpointed into a folder (``--out``): ``model.npz``
(the network, which ``learned:PATH`` seats), ``state.npz`` (the optimiser's moments and the
counters, plain arrays) and ``curve.json`` (the periodic evaluations, in duplicate against fixed
players: ``valtti.arena.run_arena`` on single deals). ``--resume`` continues from the folder.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import random
import re
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from valtti.engine import NUM_ACTIONS, Deal, Variant
from valtti.players.learned import QNetwork, load_model, read_npz

# The value of a finished deal for the match, NS's and EW's; one import to switch when it moves
# into the engine (engine.solver.DealValue.match).
from valtti.players.search import deal_value
from valtti.research.episode import OBSERVATION_SIZE, Episode

Arrays = dict[str, npt.NDArray[Any]]

#: What a run's state.npz is, as refusals say it.
CHECKPOINT = "a training checkpoint"
#: The arrays Adam keeps for each parameter, as state.npz names them (``adam{index}.{key}``).
MOMENTS = ("step", "exp_avg", "exp_avg_sq")

__all__ = ["Batch", "Evaluate", "Progress", "TrainConfig", "match_return", "self_play", "train"]


@dataclass
class TrainConfig:
    hidden: tuple[int, ...] = (256, 256)
    epsilon: float = 0.05  #: the chance of a uniformly random legal action in self-play
    learning_rate: float = 5e-4
    batch_size: int = 512
    #: minibatch updates per decision gathered, × batch size: 1.0 uses each sample about once
    #: (drawn at random from the replay buffer)
    replay_ratio: float = 1.0
    buffer: int = 200_000  #: decisions kept for replay, the newest
    deals_per_round: int = 256  #: self-play deals between two learner phases
    tables: int = 64  #: deals an actor plays side by side (one network call for all)
    eval_every: int = 40_000  #: self-play deals between two evaluations
    seed: int = 1
    #: the share of the return that is the deal's worth for the match (``match_return``); the
    #: rest is the deal's game-point difference
    match_weight: float = 0.0
    #: how the command line's evaluations are made: deal pairs, players met, evaluation set
    eval_deals: int = 200
    eval_against: tuple[str, ...] = ("random", "heuristic")
    eval_seed: int = 7

    def __post_init__(self) -> None:
        if not 0.0 <= self.match_weight <= 1.0:
            raise ValueError(f"match_weight is between 0 and 1, not {self.match_weight}")
        if not 0.0 <= self.epsilon <= 1.0:
            raise ValueError(f"epsilon is between 0 and 1, not {self.epsilon}")
        if not self.hidden or min(self.hidden) < 1:
            raise ValueError(f"hidden widths are at least 1, not {self.hidden}")
        if self.eval_every < 1 or self.eval_deals < 1:
            raise ValueError("eval_every and eval_deals are at least 1")

    @classmethod
    def saved(cls, folder: Path) -> TrainConfig | None:
        """The settings the run in ``folder`` last saved (its curve.json), ``None`` when it saved
        none; ``ValueError`` when they cannot be read."""
        path = folder / "curve.json"
        if not path.exists():
            return None
        known = {f.name for f in fields(cls)}
        try:
            saved = json.loads(path.read_text())["config"]
            values = {k: v for k, v in saved.items() if k in known}
            for name in ("hidden", "eval_against"):
                if name in values and not isinstance(values[name], list):
                    raise TypeError(f"{name} is a list")
            if "hidden" in values:
                values["hidden"] = tuple(int(w) for w in values["hidden"])
            if "eval_against" in values:
                values["eval_against"] = tuple(str(p) for p in values["eval_against"])
            config = cls(**values)
            for f in fields(cls):  # a hand-edited file may hold a string where a number goes
                lists = ("hidden", "eval_against")
                if f.name not in lists and not isinstance(getattr(config, f.name), int | float):
                    raise TypeError(f.name)
        except (OSError, ValueError, TypeError, KeyError, AttributeError, RecursionError) as e:
            raise ValueError(f"{path}: the run's settings cannot be read ({e})") from None
        return config


def match_return(
    deal: Deal, before: tuple[int, int], variant: Variant, match_weight: float
) -> tuple[float, float]:
    """The return of a finished deal for NS and for EW: ``1 − match_weight`` of its game-point
    difference (RULES.md 5.1) plus ``match_weight`` of what it did to the match from the score
    ``before`` it: the change of the score difference, the overshoot included, and the target
    reached worth the target (``deal_value`` × target, in game points; RULES.md 6)."""
    ns, ew = deal.result().game_points
    points = float(ns - ew)
    if match_weight:
        match = deal_value(deal, before, variant)[0] * variant.target
        points = (1.0 - match_weight) * points + match_weight * match
    # From zero, not ``-points``: a deal worth nothing is +0.0 to both teams, never -0.0 (a zero
    # with the sign of a loss; ``episode.deal_returns`` keeps it so too).
    return 0.0 + points, 0.0 - points


@dataclass
class Batch:
    """Decisions from self-play: each row's observation, action taken and return."""

    observations: npt.NDArray[np.float32]
    actions: npt.NDArray[np.int64]
    returns: npt.NDArray[np.float32]
    deals: int
    points: float  #: the sum over the deals of |NS − EW| game points, for the log

    @staticmethod
    def join(parts: list[Batch]) -> Batch:
        return Batch(
            np.concatenate([p.observations for p in parts]),
            np.concatenate([p.actions for p in parts]),
            np.concatenate([p.returns for p in parts]),
            sum(p.deals for p in parts),
            sum(p.points for p in parts),
        )


def self_play(
    arrays: Arrays,
    deals: int,
    seed: int,
    epsilon: float,
    tables: int = 64,
    match_weight: float = 0.0,
) -> Batch:
    """Play ``deals`` deals of self-play with the network ``arrays`` (``QNetwork.arrays()``),
    ``tables`` at a time, in whole matches, and return every decision that had a choice with its
    return (``match_return``)."""
    net = network_of(arrays)
    rng = random.Random(seed)
    episodes = [Episode(random.Random(rng.getrandbits(64)), "match") for _ in range(tables)]
    #: per table, the current deal's decisions: (observation, action, team of the actor)
    pending: list[list[tuple[npt.NDArray[np.float32], int, int]]] = [[] for _ in episodes]
    observations: list[npt.NDArray[np.float32]] = []
    actions: list[int] = []
    returns: list[float] = []
    buffer = np.zeros((tables, OBSERVATION_SIZE), np.float32)
    mask = np.zeros((tables, NUM_ACTIONS), np.int8)
    finished = 0
    points = 0.0
    while finished < deals:
        for i, ep in enumerate(episodes):
            seat = ep.current_player
            assert seat is not None
            ep.observation(seat, buffer[i])
            ep.action_mask(seat, mask[i])
        values = net.values(buffer)
        values[mask == 0] = -np.inf
        best = values.argmax(axis=1)
        for i, ep in enumerate(episodes):
            legal = np.flatnonzero(mask[i])
            action = int(best[i])
            seat = ep.current_player
            assert seat is not None
            if len(legal) > 1:
                if rng.random() < epsilon:
                    action = int(legal[rng.randrange(len(legal))])
                pending[i].append((buffer[i].copy(), action, seat % 2))
            deal, before = ep.deal, ep.score
            ep.apply(action)
            if deal.is_over():
                ns, ew = deal.result().game_points
                by_team = match_return(deal, before, ep.variant, match_weight)
                for obs, a, team in pending[i]:
                    observations.append(obs)
                    actions.append(a)
                    returns.append(by_team[team])
                pending[i].clear()
                finished += 1
                points += abs(ns - ew)
                if ep.is_over():
                    episodes[i] = Episode(random.Random(rng.getrandbits(64)), "match")
    empty = np.zeros((0, OBSERVATION_SIZE), np.float32)
    return Batch(
        np.stack(observations) if observations else empty,
        np.asarray(actions, np.int64),
        np.asarray(returns, np.float32),
        finished,
        points,
    )


def network_of(arrays: Arrays) -> QNetwork:
    count = len(arrays) // 2
    return QNetwork([(arrays[f"w{i}"], arrays[f"b{i}"]) for i in range(count)])


# -- actors ---------------------------------------------------------------------------------------

BACKENDS = ("process", "ray")


class Actors:
    """Self-play in this process (one worker), a pool of local processes, or Ray tasks."""

    def __init__(self, backend: str, workers: int, address: str | None = None) -> None:
        if backend not in BACKENDS:
            raise ValueError(f"unknown backend {backend!r}: known are {', '.join(BACKENDS)}")
        if workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        self.backend, self.workers = backend, workers
        self.pool: ProcessPoolExecutor | None = None
        self.ray: Any = None
        self.task: Any = None
        self.started_ray = False
        if backend == "ray":
            try:
                import ray
            except ImportError:
                raise ValueError("the ray backend needs Ray: pip install 'valtti[ray]'") from None
            self.ray = ray
            if not ray.is_initialized():
                try:
                    ray.init(address=address)
                except (ConnectionError, RuntimeError) as e:  # a cluster not there
                    raise ValueError(f"no Ray cluster at {address}: {e}") from None
                self.started_ray = True
            self.task = ray.remote(self_play)
        elif workers > 1:
            # spawn, not fork: the learner runs torch threads that fork would copy mid-lock.
            context = multiprocessing.get_context("spawn")
            self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)

    def submit(
        self, arrays: Arrays, deals: int, seed: int, config: TrainConfig
    ) -> Callable[[], Batch]:
        """Start ``deals`` deals of self-play; the returned function waits for their batch."""
        shares = [deals // self.workers + (k < deals % self.workers) for k in range(self.workers)]
        jobs = [
            (arrays, n, seed * 1000 + k, config.epsilon, config.tables, config.match_weight)
            for k, n in enumerate(shares)
            if n
        ]
        if self.ray is not None:
            refs = [self.task.remote(*job) for job in jobs]
            return lambda: Batch.join(self.ray.get(refs))
        if self.pool is not None:
            futures: list[Future[Batch]] = [self.pool.submit(self_play, *job) for job in jobs]
            return lambda: Batch.join([f.result() for f in futures])
        batch = Batch.join([self_play(*job) for job in jobs])
        return lambda: batch

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
        if self.started_ray:
            self.ray.shutdown()


# -- evaluation -----------------------------------------------------------------------------------

#: An evaluation: the model file in, the figures against each fixed player out (JSON-ready).
#: ``valtti train`` passes the arena's duplicate on the evaluation set (``run_arena`` on single
#: deals): the arena is a front end of its own, which this one does not import.
Evaluate = Callable[[Path], dict[str, Any]]


# -- the learner ----------------------------------------------------------------------------------


@dataclass
class Progress:
    """What a run has done: kept in ``state.npz`` and ``curve.json``."""

    deals: int = 0
    decisions: int = 0
    updates: int = 0
    rounds: int = 0
    seconds: float = 0.0
    curve: list[dict[str, Any]] = field(default_factory=list)


def _torch() -> Any:
    try:
        import torch
    except ImportError:
        raise ValueError("training needs PyTorch: pip install 'valtti[train]'") from None
    return torch


def mlp(torch: Any, widths: list[int]) -> Any:
    """The torch twin of a ``QNetwork``: linear layers of ``widths`` (inputs first), ReLU
    between them."""
    layers: list[Any] = []
    for i in range(len(widths) - 1):
        layers.append(torch.nn.Linear(widths[i], widths[i + 1]))
        if i < len(widths) - 2:
            layers.append(torch.nn.ReLU())
    return torch.nn.Sequential(*layers)


def layer_arrays(net: Any) -> list[tuple[Any, Any]]:
    """The (weights inputs × outputs, biases) of each linear layer of ``net``, as ``QNetwork``
    takes them: copies, not views of the parameters."""
    return [
        (m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy())
        for m in net
        if hasattr(m, "weight")
    ]


class Learner:
    """The torch network and its optimiser, with the checkpoint files of a run folder."""

    def __init__(
        self, config: TrainConfig, folder: Path, resume: bool, init: Path | None = None
    ) -> None:
        """A new network (``config.hidden``), the run in ``folder`` (``resume``), or a new run
        whose network starts as the model ``init`` (its own widths; a new optimiser)."""
        torch = self.torch = _torch()
        torch.set_num_threads(1)
        torch.manual_seed(config.seed)
        self.config, self.folder = config, folder
        self.progress = Progress()
        widths = [OBSERVATION_SIZE, *config.hidden, NUM_ACTIONS]
        start = folder / "model.npz" if resume else init
        if start is not None:
            arrays = load_model(start).arrays()
            widths = [
                OBSERVATION_SIZE,
                *(arrays[f"b{i}"].shape[0] for i in range(len(arrays) // 2)),
            ]
        self.net = mlp(torch, widths)
        self.linears = [m for m in self.net if isinstance(m, torch.nn.Linear)]
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=config.learning_rate)
        if start is not None:
            self._set_weights(arrays)
        if resume:
            self._load()

    def arrays(self) -> Arrays:
        out: Arrays = {}
        for i, (w, b) in enumerate(layer_arrays(self.net)):
            out[f"w{i}"], out[f"b{i}"] = w, b
        return out

    def update(self, observations: Any, actions: Any, returns: Any) -> float:
        torch = self.torch
        q = self.net(torch.from_numpy(observations))
        taken = q.gather(1, torch.from_numpy(actions)[:, None])[:, 0]
        loss = torch.nn.functional.mse_loss(taken, torch.from_numpy(returns))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.progress.updates += 1
        return float(loss.item())

    def save(self) -> Path:
        """Write the checkpoint (each file whole or not at all) and return the model's path."""
        self.folder.mkdir(parents=True, exist_ok=True)
        model = self.folder / "model.npz"
        _atomic(model, lambda f: QNetwork(_pairs(self.arrays())).save(f, np.float32))
        state: Any = {}  # Any: numpy's stubs read ** as its own keyword arguments
        for index, entry in self.optimizer.state_dict()["state"].items():
            for key, value in entry.items():
                state[f"adam{index}.{key}"] = value.detach().numpy()
        p = self.progress
        state["counters"] = np.asarray([p.deals, p.decisions, p.updates, p.rounds], np.int64)
        state["seconds"] = np.asarray(p.seconds, np.float64)
        _atomic(self.folder / "state.npz", lambda f: np.savez(f, **state))
        curve = {"config": asdict(self.config), "curve": p.curve}
        _atomic(self.folder / "curve.json", lambda f: f.write(json.dumps(curve, indent=1).encode()))
        return model

    def _set_weights(self, arrays: Arrays) -> None:
        torch = self.torch
        with torch.no_grad():
            for i, linear in enumerate(self.linears):
                linear.weight.copy_(torch.from_numpy(arrays[f"w{i}"].T.astype(np.float32)))
                linear.bias.copy_(torch.from_numpy(arrays[f"b{i}"].astype(np.float32)))

    def _load(self) -> None:
        """The optimiser's moments, the counters and the curve of the run being resumed;
        ``ValueError`` naming the file when state.npz or curve.json is not this run's."""
        torch = self.torch
        path = self.folder / "state.npz"
        try:
            saved = read_npz(path, CHECKPOINT)
        except FileNotFoundError:
            raise ValueError(f"nothing to resume in {self.folder}: no state.npz") from None
        shapes = [tuple(p.shape) for p in self.net.parameters()]
        try:
            moments, self.progress = _checkpoint(saved, shapes)
        except ValueError as e:
            raise ValueError(f"{path} is not {CHECKPOINT}: {e}") from None
        entries = {
            index: {key: torch.from_numpy(value.copy()) for key, value in entry.items()}
            for index, entry in moments.items()
        }
        groups = self.optimizer.state_dict()["param_groups"]
        self.optimizer.load_state_dict({"state": entries, "param_groups": groups})
        curve_file = self.folder / "curve.json"
        if curve_file.exists():
            try:
                curve = json.loads(curve_file.read_text())["curve"]
                if not isinstance(curve, list):
                    raise TypeError("curve is a list")
            except (OSError, ValueError, TypeError, KeyError, RecursionError) as e:
                raise ValueError(f"{curve_file}: the run's curve cannot be read ({e})") from None
            self.progress.curve = curve


def _checkpoint(saved: Arrays, shapes: list[tuple[int, ...]]) -> tuple[dict[int, Arrays], Progress]:
    """The Adam moments by parameter index and the counters in a state.npz's arrays, checked
    against the network's parameter ``shapes``; ``ValueError`` says what does not fit."""
    moments: dict[int, Arrays] = {}
    for name, value in saved.items():
        if name in ("counters", "seconds"):
            continue
        match = re.fullmatch(r"adam(\d+)\.(\w+)", name)
        if match is None or int(match[1]) >= len(shapes) or match[2] not in MOMENTS:
            raise ValueError(f"it holds {name}, not an array of this network's optimiser")
        moments.setdefault(int(match[1]), {})[match[2]] = value
    for index, entry in sorted(moments.items()):
        for key in MOMENTS:
            name = f"adam{index}.{key}"
            if key not in entry:
                raise ValueError(f"{name} is missing")
            value = entry[key]
            shape = () if key == "step" else shapes[index]
            if value.shape != shape:
                # the moments of a network of other widths: another run's state.npz
                raise ValueError(f"{name} has the shape {value.shape}, not {shape}")
            if value.dtype.kind != "f" or not np.isfinite(value).all():
                raise ValueError(f"{name} is not an array of finite floats")
            if key != "exp_avg" and (value < 0).any():
                raise ValueError(f"{name} is negative")
    counters, seconds = saved.get("counters"), saved.get("seconds")
    if counters is None or counters.shape != (4,) or counters.dtype.kind not in "iu":
        raise ValueError("counters is not 4 whole numbers")
    if (counters < 0).any():
        raise ValueError("a counter is negative")
    if seconds is None or seconds.shape != () or seconds.dtype.kind not in "iuf":
        raise ValueError("seconds is not a number")
    if not 0 <= float(seconds) < math.inf:
        raise ValueError("seconds is not a time taken (finite, not negative)")
    deals, decisions, updates, rounds = (int(v) for v in counters)
    return moments, Progress(deals, decisions, updates, rounds, float(seconds))


def _pairs(arrays: Arrays) -> list[tuple[Any, Any]]:
    return [(arrays[f"w{i}"], arrays[f"b{i}"]) for i in range(len(arrays) // 2)]


def _atomic(path: Path, write: Callable[[Any], None]) -> None:
    temporary = path.with_name(path.name + ".part")
    with temporary.open("wb") as f:
        write(f)
    temporary.replace(path)


class Replay:
    """The newest ``size`` decisions, sampled uniformly for minibatches."""

    def __init__(self, size: int) -> None:
        self.observations = np.zeros((size, OBSERVATION_SIZE), np.float32)
        self.actions = np.zeros(size, np.int64)
        self.returns = np.zeros(size, np.float32)
        self.size, self.count, self.at = size, 0, 0

    def add(self, batch: Batch) -> None:
        for k in range(len(batch.actions)):
            self.observations[self.at] = batch.observations[k]
            self.actions[self.at] = batch.actions[k]
            self.returns[self.at] = batch.returns[k]
            self.at = (self.at + 1) % self.size
        self.count = min(self.size, self.count + len(batch.actions))

    def sample(self, rng: np.random.Generator, n: int) -> Iterator[Any]:
        rows = rng.integers(0, self.count, n)
        yield self.observations[rows]
        yield self.actions[rows]
        yield self.returns[rows]


def train(
    config: TrainConfig,
    folder: Path,
    *,
    deals: int | None = None,
    minutes: float | None = None,
    resume: bool = False,
    init: Path | None = None,
    backend: str = "process",
    workers: int = 1,
    address: str | None = None,
    evaluate: Evaluate | None = None,
    report: Callable[[Progress, float, dict[str, Any] | None], None] | None = None,
) -> Progress:
    """Train until ``deals`` self-play deals in all (a resumed run counts its earlier ones) or
    ``minutes`` of this run have passed, checkpointing into ``folder`` after every round and,
    given ``evaluate``, evaluating every ``config.eval_every`` deals and at the end. ``init``
    starts a new run from a model's weights (fine-tuning; not with ``resume``).
    ``report(progress, loss, evaluation or None)`` is called after every round."""
    if deals is None and minutes is None:
        raise ValueError("say how long to train: deals or minutes")
    for name in ("model.npz", "state.npz") if resume else ():
        if not (folder / name).exists():
            raise ValueError(f"nothing to resume in {folder}: no {name}")
    if resume and init is not None:
        raise ValueError("a resumed run goes on from its own model: --init is for a new run")
    if not resume and any((folder / name).exists() for name in ("model.npz", "state.npz")):
        raise ValueError(
            f"{folder} holds a run already: --resume goes on with it; a new run needs another "
            "folder (nothing was changed)"
        )
    learner = Learner(config, folder, resume, init)
    p = learner.progress
    if deals is not None and p.deals >= deals:
        raise ValueError(
            f"the run has {p.deals:,} deals already: give a --deals above that to go on"
        )
    replay = Replay(config.buffer)
    actors = Actors(backend, workers, address)  # a backend it cannot have: no folder made yet
    try:  # now, not at the first checkpoint after a round of self-play
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        actors.close()
        raise ValueError(f"{folder}: the run's folder cannot be made ({e.strerror or e})") from None
    start = time.monotonic()
    base_seconds = p.seconds
    next_eval = (p.deals // config.eval_every + 1) * config.eval_every

    def over() -> bool:
        out_of_deals = deals is not None and p.deals >= deals
        return out_of_deals or (minutes is not None and time.monotonic() - start >= 60 * minutes)

    def round_size() -> int:
        return (
            config.deals_per_round
            if deals is None
            else max(1, min(config.deals_per_round, deals - p.deals))
        )

    try:
        waiting = actors.submit(learner.arrays(), round_size(), _seed(config, p.rounds), config)
        while True:
            batch = waiting()
            p.rounds += 1
            p.deals += batch.deals
            p.decisions += len(batch.actions)
            replay.add(batch)
            last = over()
            if not last:
                # the actors play on with these weights while the learner takes this batch
                waiting = actors.submit(
                    learner.arrays(), round_size(), _seed(config, p.rounds), config
                )
            rng = np.random.default_rng(_seed(config, p.rounds))
            updates = max(
                1, math.ceil(config.replay_ratio * len(batch.actions) / config.batch_size)
            )
            losses = [
                learner.update(*replay.sample(rng, config.batch_size)) for _ in range(updates)
            ]
            p.seconds = base_seconds + time.monotonic() - start
            model = learner.save()
            evaluation = None
            if evaluate is not None and (p.deals >= next_eval or last):
                evaluation = evaluate(model)
                p.curve.append(
                    {
                        "deals": p.deals,
                        "updates": p.updates,
                        "seconds": round(p.seconds),
                        "against": evaluation,
                    }
                )
                next_eval = (p.deals // config.eval_every + 1) * config.eval_every
                learner.save()
            if report is not None:
                report(p, float(np.mean(losses)), evaluation)
            if last:
                return p
    finally:
        actors.close()


def _seed(config: TrainConfig, round_number: int) -> int:
    return config.seed * 1_000_003 + round_number
