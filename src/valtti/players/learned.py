"""The learned player: an action-value network over the observation tensor, run in numpy.

The network (``QNetwork``) maps a seat's observation tensor (docs/TENSORS.md) to an estimate of
each of the 49 actions' value, the game points its team will make minus the other team's in the
deal (Deep Monte-Carlo, ``valtti train``); the player takes the legal action of highest value.
A model is data, an ``.npz`` of weight arrays ``w0 b0 w1 b1 …`` (``w`` as inputs × outputs)
and, optionally, ``activation``, the hidden layers' function as text (``relu``, the default, or
``tanh``: what Stable-Baselines3's and most PyTorch MLPs use; ``research/export.py`` writes one),
read by ``read_npz`` (``allow_pickle=False``; the training checkpoints are read by it too):
loading one never runs code. ``learned`` is the model shipped in ``players/models/``,
``learned:PATH`` another one.
"""

from __future__ import annotations

import os
import random
import stat
import zipfile
import zlib
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from valtti.engine import NUM_ACTIONS, Action, Deal, Observation
from valtti.engine.tensors import INFORMATION_STATE_SIZE, OBSERVATION_SIZE
from valtti.players.base import Player
from valtti.players.policy import ViewKind, seat_view
from valtti.players.sampler import sample_hands

Array = npt.NDArray[np.float32]

#: The model that ``learned`` seats, inside the package.
SHIPPED = "valtti-dmc.npz"
#: The model of ``pimc:hard``'s own play that its inference uses (``LearnedLikelihood``), inside
#: the package: fitted by imitation (``valtti.research.imitate``), its outputs are log-odds of
#: each action, not game points.
SELF_MODEL = "valtti-pimc-self.npz"
#: What a model file is, as refusals say it.
MODEL = "a model (an .npz of weight arrays)"

#: The first bytes of a zip archive, as an ``.npz`` is (an empty one starts with its end record).
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
#: The most the arrays of a model or a training checkpoint may take once read: a network of two
#: hidden layers of 2,048 and its optimiser's moments take about 60 MiB.
MAX_NPZ_BYTES = 256 << 20

#: The hidden layers' functions a model may name (its ``activation`` array).
ACTIVATIONS: tuple[str, ...] = ("relu", "tanh")
#: The views a model may take, by its first layer's inputs.
_VIEWS: dict[int, ViewKind] = {
    OBSERVATION_SIZE: "observation",
    INFORMATION_STATE_SIZE: "information_state",
}

__all__ = [
    "ACTIVATIONS",
    "SELF_MODEL",
    "SHIPPED",
    "LearnedPlayer",
    "QNetwork",
    "load_model",
    "read_npz",
    "shipped_path",
]


class QNetwork:
    """A multilayer perceptron (ReLU or tanh between its layers): a seat's observation tensor,
    or its information-state tensor (``view``, told by the first layer's inputs), in; 49 action
    values (or logits: the player takes the highest legal one either way) out."""

    def __init__(self, layers: Sequence[tuple[Any, Any]], activation: str = "relu") -> None:
        """``layers``: (weights inputs × outputs, biases) pairs, first to last; ``activation``
        one of ``ACTIVATIONS``."""
        if not layers:
            raise ValueError("a network needs at least one layer")
        if activation not in ACTIVATIONS:
            raise ValueError(f"activation is {' or '.join(ACTIVATIONS)}, not {activation!r}")
        self.activation = activation
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers]
        inputs = self.layers[0][0].shape[0] if self.layers[0][0].ndim == 2 else -1
        #: what the network takes: the observation tensor, or the information state's
        self.view: ViewKind = _VIEWS.get(inputs, "observation")
        width = INFORMATION_STATE_SIZE if self.view == "information_state" else OBSERVATION_SIZE
        for i, (w, b) in enumerate(self.layers):
            if w.ndim != 2 or b.shape != (w.shape[1],):
                raise ValueError(f"layer {i}: weights {w.shape} and biases {b.shape} do not fit")
            if w.shape[0] != width:
                takes = "the observation's" if i == 0 else f"layer {i - 1}'s"
                raise ValueError(
                    f"layer {i} takes {w.shape[0]} inputs, not {takes} {width}: "
                    "a model for another observation or a broken file"
                )
            if not (np.isfinite(w).all() and np.isfinite(b).all()):
                raise ValueError(f"layer {i} holds values that are not finite")
            width = w.shape[1]
        if width != NUM_ACTIONS:
            raise ValueError(f"the last layer gives {width} values, not {NUM_ACTIONS}")

    def values(self, observations: Array) -> Array:
        """The action values of each row of ``observations`` (or of one observation)."""
        x = observations
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < last:
                if self.activation == "relu":
                    np.maximum(x, 0, out=x)
                else:
                    np.tanh(x, out=x)
        return x

    def arrays(self) -> dict[str, Array]:
        out: dict[str, Array] = {}
        for i, (w, b) in enumerate(self.layers):
            out[f"w{i}"], out[f"b{i}"] = w, b
        return out

    def save(self, path: Path | str, dtype: Any = np.float16) -> None:
        """Write the model as an ``.npz`` (float16 by default: half the size, the same play
        but for rounding); a ReLU network's as before, without ``activation``."""
        arrays: Any = {k: v.astype(dtype) for k, v in self.arrays().items()}
        if self.activation != "relu":
            arrays["activation"] = np.array(self.activation)
        np.savez_compressed(path, **arrays)


def read_npz(path: Path | str, what: str) -> dict[str, npt.NDArray[Any]]:
    """Every array in the ``.npz`` at ``path``, by name, read as data only: an array of Python
    objects (a pickle) is refused, never loaded.

    ``ValueError`` "PATH is not WHAT: why" when the file is not an ``.npz`` of plain arrays;
    ``FileNotFoundError`` when there is no file, for the caller to say what it looked for.
    """
    try:
        kind = os.stat(path).st_mode
        if stat.S_ISDIR(kind):
            raise IsADirectoryError
        if not stat.S_ISREG(kind):  # a pipe or a device could keep the read waiting for ever
            raise ValueError(f"{path} is not {what}: it is not a regular file")
        with open(path, "rb") as f:
            magic = f.read(4)
    except FileNotFoundError:
        raise
    except IsADirectoryError:
        raise ValueError(f"{path} is not {what}: it is a folder") from None
    except (OSError, TypeError) as e:  # TypeError: a NUL in the path
        raise ValueError(f"{path} is not {what}: {getattr(e, 'strerror', None) or e}") from None
    except ValueError as e:
        if str(e).startswith(f"{path} is not"):
            raise
        raise ValueError(f"{path} is not {what}: {e}") from None
    # np.load would read anything else as a pickle, and its refusal advises loading it unsafely.
    if not magic.startswith(_ZIP_MAGIC):
        if not magic:
            why = "the file is empty"
        elif magic == b"\x93NUM":
            why = "it is a single array (.npy), not an .npz archive"
        else:
            why = "it is not an .npz (zip) archive"
        raise ValueError(f"{path} is not {what}: {why}")
    arrays: dict[str, Any] = {}
    name = ""
    try:
        # The sizes the archive declares bound what reading it can take: a member is never
        # inflated past its size, so a small file cannot claim gigabytes (a zip bomb).
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
        strange = next((m.filename for m in members if not m.filename.endswith(".npy")), None)
        if strange is not None:
            raise ValueError(f"{path} is not {what}: {strange} is not an array (.npy)")
        if sum(m.file_size for m in members) > MAX_NPZ_BYTES:
            why = f"its arrays would take over {MAX_NPZ_BYTES >> 20} MiB"
            raise ValueError(f"{path} is not {what}: {why}")
        with np.load(path, allow_pickle=False) as data:
            for name in data.files:
                arrays[name] = data[name]
    except (zipfile.BadZipFile, zlib.error, EOFError) as e:
        why = f"the archive is damaged or cut short ({e})"
        raise ValueError(f"{path} is not {what}: {why}") from None
    except (OSError, NotImplementedError, RuntimeError) as e:  # unreadable, encrypted…
        raise ValueError(f"{path} is not {what}: the archive cannot be read ({e})") from None
    except MemoryError:  # a header that claims an array too big to hold
        raise ValueError(f"{path} is not {what}: {name or 'an array'} is too big to load") from None
    except (OverflowError, TypeError) as e:  # a header that claims an impossible shape
        member = name or "a member"
        raise ValueError(f"{path} is not {what}: {member} is not a readable array ({e})") from None
    except ValueError as e:
        if str(e).startswith(f"{path} is not"):
            raise
        # numpy's words would advise allow_pickle=True: never repeat them.
        text, member = str(e), name or "a member"
        if "Object arrays" in text:
            why = f"{member} holds Python objects (a pickle), which are never loaded"
        elif "pickle" in text:
            why = f"{member} is not an array of plain values"
        else:
            why = f"{member} is not a readable array ({text})"
        raise ValueError(f"{path} is not {what}: {why}") from None
    for name, array in arrays.items():
        if not isinstance(array, np.ndarray):  # numpy gives a member that is no .npy as bytes
            raise ValueError(f"{path} is not {what}: {name} is not an array")
    return arrays


def load_model(path: Path | str) -> QNetwork:
    """The model in the ``.npz`` at ``path``; ``ValueError`` "PATH is not a model …: why" if it
    is not one (a file holding Python objects, i.e. a pickle, is refused, never loaded)."""
    try:
        arrays = read_npz(path, MODEL)
    except FileNotFoundError:
        raise ValueError(f"no model at {path}") from None
    named = arrays.pop("activation", None)
    count = len(arrays) // 2
    expected = {f"{k}{i}" for i in range(count) for k in "wb"}
    try:
        activation = "relu"
        if named is not None:
            if named.dtype.kind != "U" or named.shape != ():
                raise ValueError("activation is not a text (relu or tanh)")
            activation = str(named[()])
        if not arrays or set(arrays) != expected:
            held = " ".join(sorted(arrays)[:4]) + (" …" if len(arrays) > 4 else "")
            raise ValueError(f"expected arrays w0 b0 w1 b1 …, not {held or 'none'}")
        for name, a in arrays.items():
            if a.dtype.kind != "f":
                raise ValueError(f"{name} is not an array of floats")
        return QNetwork([(arrays[f"w{i}"], arrays[f"b{i}"]) for i in range(count)], activation)
    except ValueError as e:
        raise ValueError(f"{path} is not {MODEL}: {e}") from None


def shipped_path(name: str = SHIPPED) -> Path:
    """The path of the model ``name`` shipped in the package (``SHIPPED``, ``SELF_MODEL``)."""
    return Path(str(resources.files("valtti.players") / "models" / name))


def _cached(path: str) -> QNetwork:
    # The web table makes a player for every decision: read each file once per process, and
    # again when it changes (a training run rewrites its model.npz).
    try:
        stat = Path(path).stat()
    except OSError:
        raise ValueError(f"no model at {path}") from None
    return _load_once(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=8)
def _load_once(path: str, mtime_ns: int, size: int) -> QNetwork:
    return load_model(path)


class LearnedPlayer(Player):
    """Takes the legal action of highest value under a ``QNetwork``.

    The observation tensor is the engine's: the player rebuilds a deal at the observed point
    with hidden hands drawn consistently with what it knows (``sample_hands``), which cannot
    change the tensor (it holds only what the seat may know). The seed breaks no ties and
    changes no play: it only picks that stand-in deal.
    """

    def __init__(self, model: QNetwork, seed: int | None = None, name: str = "learned") -> None:
        self.model = model
        self.name = name
        self.rng = random.Random(seed)
        size = INFORMATION_STATE_SIZE if model.view == "information_state" else OBSERVATION_SIZE
        self.buffer = np.zeros(size, np.float32)

    @classmethod
    def from_spec(cls, path: str | None, seed: int | None = None) -> LearnedPlayer:
        if path is None:
            return cls(_cached(str(shipped_path())), seed)
        return cls(_cached(str(Path(path).expanduser().resolve())), seed, f"learned:{path}")

    def tensor(self, observation: Observation) -> Array:
        """The tensor the model takes (``QNetwork.view``) of ``observation``, into the
        player's buffer."""
        deal = Deal.of_observation(observation, sample_hands(observation, self.rng))
        score = observation.score or (0, 0)
        seat_view(deal, observation.seat, self.model.view, score, self.buffer)
        return self.buffer

    def choose(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        values = self.model.values(self.tensor(observation))
        return max(legal, key=lambda a: values[a])
