"""The learner of ``valtti train``: the torch network fitted to the self-play returns, its
optimiser, and the checkpoint of a run folder (``model.npz``, ``state.npz``, ``curve.json``),
written whole or not at all and read back checked.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from valtti.engine import NUM_ACTIONS
from valtti.players.learned import QNetwork, load_model, read_npz
from valtti.research.episode import OBSERVATION_SIZE
from valtti.research.selfplay import Arrays

if TYPE_CHECKING:
    from valtti.research.config import TrainConfig

#: What a run's state.npz is, as refusals say it.
CHECKPOINT = "a training checkpoint"
#: The arrays Adam keeps for each parameter, as state.npz names them (``adam{index}.{key}``).
MOMENTS = ("step", "exp_avg", "exp_avg_sq")


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
