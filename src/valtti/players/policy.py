"""A Python policy as a player: any callable from a seat's tensor (and its legal actions) to an
action, seated wherever a player is (the Gymnasium environment's other seats, the arena).

A policy is called ``policy(view, mask)``, or ``policy(view)`` if it takes one argument:
``view`` is the seat's tensor of the kind named by a ``ViewKind`` (docs/TENSORS.md; a dict of
both for ``"both"``), ``mask`` the 49 legal actions as bools; it returns an action number
(``valtti.engine.actions``), an int or a NumPy integer. What it returns is checked: an action
that is not legal is a ``ValueError`` naming it, which a table turns into the seat's fault.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from typing import Any, Literal, get_args

import numpy as np

from valtti.engine import NUM_ACTIONS, Action, Deal, Observation
from valtti.engine.tensors import information_state_tensor, observation_tensor
from valtti.players.base import Player
from valtti.players.sampler import sample_hands

#: What a seat's tensor is: its observation (499 values), its perfect-recall information state
#: (1,971) or both, as a dict with those two keys.
ViewKind = Literal["observation", "information_state", "both"]
VIEW_KINDS: tuple[ViewKind, ...] = get_args(ViewKind)

#: A policy: ``(view, mask) -> action`` or ``(view) -> action`` (see the module).
Policy = Callable[..., Any]
#: What may sit at a seat: a player's name (``make_player``), a ``Player`` (or any object with
#: its ``choose``: ``plays``), or a policy.
Seatable = str | Player | Policy

__all__ = [
    "VIEW_KINDS",
    "LentPlayer",
    "Policy",
    "PolicyPlayer",
    "Seatable",
    "ViewKind",
    "check_view_kind",
    "plays",
    "policy_action",
    "policy_name",
    "seat_view",
    "takes_mask",
]


def check_view_kind(kind: object) -> ViewKind:
    """``kind`` if it names a view; ``ValueError`` naming the kinds otherwise."""
    if kind not in VIEW_KINDS:
        raise ValueError(f"observation_type is one of {', '.join(VIEW_KINDS)}, not {kind!r}")
    return kind


def seat_view(
    deal: Deal, seat: int, kind: ViewKind, score: tuple[int, int] | None, out: Any = None
) -> Any:
    """``seat``'s tensor of ``kind`` at ``deal`` (``out``: a buffer, or for ``"both"`` a dict of
    two, to write into)."""
    if kind == "observation":
        return observation_tensor(deal, seat, out, score)
    if kind == "information_state":
        return information_state_tensor(deal, seat, out, score)
    if out is None:
        out = {"observation": None, "information_state": None}
    return {
        "observation": observation_tensor(deal, seat, out["observation"], score),
        "information_state": information_state_tensor(deal, seat, out["information_state"], score),
    }


def plays(seated: object) -> bool:
    """Whether ``seated`` has a player's interface: a ``Player``, or an object with a
    ``choose(observation)`` method (taken before a policy where it is both)."""
    return isinstance(seated, Player) or callable(getattr(seated, "choose", None))


class LentPlayer(Player):
    """An object with a player's interface (``plays``) seated by a host that does not own it:
    its owner closes it, never the table; no match hooks (``MatchListener``) are passed on."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.name = policy_name(player)

    def choose(self, observation: Observation) -> Action:
        return Action(self.player.choose(observation))


def takes_mask(policy: Policy) -> bool:
    """Whether ``policy`` is called with the mask too: it takes two positional arguments (or
    any number); one whose signature cannot be read is given both."""
    try:
        parameters = inspect.signature(policy).parameters.values()
    except (TypeError, ValueError):
        return True
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 2 or any(p.kind is p.VAR_POSITIONAL for p in parameters)


def policy_action(policy: Policy, with_mask: bool, view: Any, mask: np.ndarray) -> int:
    """The action ``policy`` takes at ``view``; ``ValueError`` if it is not one of ``mask``'s."""
    chosen = policy(view, mask) if with_mask else policy(view)
    if isinstance(chosen, np.ndarray) and chosen.shape in ((), (1,)):
        chosen = chosen.reshape(())[()]
    if not isinstance(chosen, int | np.integer) or isinstance(chosen, bool):
        raise ValueError(f"a policy returns an action number, not {chosen!r}")
    action = int(chosen)
    if not 0 <= action < NUM_ACTIONS or not mask[action]:
        raise ValueError(f"the policy chose action {action}, which is not legal here")
    return action


class PolicyPlayer(Player):
    """A policy (see the module) as a ``Player``.

    Given an ``Observation``, it rebuilds a deal at the observed point with hidden hands drawn
    consistently with what the seat knows (as the learned player does: the tensors hold only
    what the seat may know, so the draw cannot change them), and asks the policy.
    """

    def __init__(
        self,
        policy: Policy,
        name: str | None = None,
        seed: int | None = None,
        observation_type: ViewKind = "observation",
    ) -> None:
        if not callable(policy):
            raise TypeError(f"a policy is a callable, not {policy!r}")
        self.policy = policy
        self.name = name or policy_name(policy)
        self.kind = check_view_kind(observation_type)
        self.with_mask = takes_mask(policy)
        self.rng = random.Random(seed)

    def choose(self, observation: Observation) -> Action:
        deal = Deal.of_observation(observation, sample_hands(observation, self.rng))
        view = seat_view(deal, observation.seat, self.kind, observation.score or (0, 0))
        mask = np.zeros(NUM_ACTIONS, bool)
        for action in observation.legal_actions:
            mask[action] = True
        return Action(policy_action(self.policy, self.with_mask, view, mask))


def policy_name(policy: object) -> str:
    """What a policy is called in the arena's tables: its ``name``, its function's name, or
    its class's."""
    name = getattr(policy, "name", None)
    if isinstance(name, str) and name:
        return name
    name = getattr(policy, "__name__", None)
    if isinstance(name, str) and name and name != "<lambda>":
        return name
    return "policy" if name == "<lambda>" else type(policy).__name__
