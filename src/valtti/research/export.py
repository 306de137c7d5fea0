"""A PyTorch multilayer perceptron, or a Stable-Baselines3 policy, as a model ``learned:PATH``
seats: its layers' weights written into the ``.npz`` the learned player reads.

::

    from sb3_contrib import MaskablePPO
    from valtti.research.export import export_policy
    model = MaskablePPO.load("ppo.zip")
    export_policy(model, "ppo.npz")   # valtti arena --players learned:ppo.npz,heuristic

What is taken: an SB3 algorithm (its ``policy``); an actor-critic policy (PPO, MaskablePPO, A2C:
the actor, ``mlp_extractor.policy_net`` then ``action_net``, so the model's values are the
policy's logits); a DQN policy (``q_net``); or any module whose layers, in order, are
``Linear`` with ``ReLU`` or ``Tanh`` between them (``Flatten`` and ``Identity`` pass). Anything
else (a convolution, another activation, a features extractor with weights, two activations)
is a ``ValueError`` naming it, never a model that plays other than the network. The network must
take the observation tensor (499 values) or the information state (1,971) and give 49 values.
Needs PyTorch only where the module is one; valtti imports neither.

From the command line, a saved SB3 model (``ALGO`` ``ppo``, ``a2c``, ``dqn`` or
``maskable_ppo``; Stable-Baselines3, and sb3-contrib for MaskablePPO, installed)::

    python -m valtti.research.export maskable_ppo ppo.zip ppo.npz
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from valtti.players.learned import QNetwork

__all__ = ["ALGORITHMS", "export_policy", "main", "network_of"]

#: The SB3 algorithms the command line loads, by name: (module, class).
ALGORITHMS = {
    "ppo": ("stable_baselines3", "PPO"),
    "a2c": ("stable_baselines3", "A2C"),
    "dqn": ("stable_baselines3", "DQN"),
    "maskable_ppo": ("sb3_contrib", "MaskablePPO"),
}

#: Layers that change nothing the learned player computes.
_PASS = ("Flatten", "Identity", "Dropout")
#: PyTorch's activation classes by the name ``QNetwork`` gives them.
_ACTIVATIONS = {"ReLU": "relu", "Tanh": "tanh"}


def _actor(model: Any) -> list[Any]:
    """The modules that turn an observation into the action values or logits, in order."""
    policy = getattr(model, "policy", model)  # an SB3 algorithm holds its policy
    extractor = getattr(policy, "features_extractor", None)
    if extractor is not None and any(True for _ in extractor.parameters()):
        name = type(extractor).__name__
        raise ValueError(f"the features extractor {name} has weights: only an MLP is exported")
    if hasattr(policy, "mlp_extractor") and hasattr(policy, "action_net"):
        return [policy.mlp_extractor.policy_net, policy.action_net]
    q_net = getattr(policy, "q_net", None)
    if q_net is not None:
        return [getattr(q_net, "q_net", q_net)]
    return [policy]


def _leaves(module: Any) -> list[Any]:
    children = list(module.children())
    if not children:
        return [module]
    return [leaf for child in children for leaf in _leaves(child)]


def network_of(model: Any) -> QNetwork:
    """The ``QNetwork`` that computes what ``model`` does (see the module for what it takes)."""
    layers: list[tuple[np.ndarray, np.ndarray]] = []
    activation: str | None = None
    after_linear = False
    for leaf in (leaf for part in _actor(model) for leaf in _leaves(part)):
        name = type(leaf).__name__
        if name in _PASS:
            continue
        if name == "Linear":
            if after_linear:
                raise ValueError("two Linear layers with no ReLU or Tanh between them")
            weight = leaf.weight.detach().cpu().numpy()
            bias = leaf.bias
            out = weight.shape[0]
            b = np.zeros(out, np.float32) if bias is None else bias.detach().cpu().numpy()
            layers.append((weight.T.astype(np.float32), b.astype(np.float32)))
            after_linear = True
        elif name in _ACTIVATIONS:
            kind = _ACTIVATIONS[name]
            if not after_linear:
                raise ValueError(f"{name} does not follow a Linear layer")
            if activation not in (None, kind):
                raise ValueError(f"the hidden layers use both {activation} and {kind}")
            activation, after_linear = kind, False
        else:
            raise ValueError(f"layer {name} is not Linear, ReLU or Tanh: only an MLP is exported")
    if not layers:
        raise ValueError("no Linear layer found")
    if not after_linear:
        raise ValueError("the network ends in an activation: its last layer must be Linear")
    return QNetwork(layers, activation or "relu")


def export_policy(model: Any, path: Path | str, dtype: Any = np.float32) -> QNetwork:
    """Write ``model``'s network to ``path`` as a model for ``learned:PATH`` (float32 by default,
    as trained) and return it."""
    network = network_of(model)
    network.save(path, dtype)
    return network


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m valtti.research.export ALGO MODEL.zip OUT.npz``: 0 when written, 2 with
    the reason on stderr when the model cannot be loaded or exported."""
    parser = argparse.ArgumentParser(
        prog="python -m valtti.research.export",
        description="Write a saved Stable-Baselines3 model as a model for learned:PATH.",
    )
    parser.add_argument("algorithm", choices=sorted(ALGORITHMS))
    parser.add_argument("model", type=Path, help="the SB3 model's .zip")
    parser.add_argument("out", type=Path, help="the .npz to write")
    args = parser.parse_args(argv)
    module, name = ALGORITHMS[args.algorithm]
    try:
        algorithm = getattr(importlib.import_module(module), name)
    except ImportError:
        package = module.replace("_", "-")
        print(f"{args.algorithm} needs {package}: pip install {package}", file=sys.stderr)
        return 2
    try:
        network = export_policy(algorithm.load(args.model, device="cpu"), args.out)
    except (OSError, ValueError) as e:
        print(f"{args.model}: {e}", file=sys.stderr)
        return 2
    widths = " → ".join(str(w.shape[0]) for w, _ in network.layers)
    print(f"{args.out}: {widths} → 49, {network.activation}: seat it as learned:{args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
