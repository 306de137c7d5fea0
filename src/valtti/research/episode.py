"""One episode of play for an environment: a single deal or a whole match, from a seed.

The environments of this package are thin translations of this class: it asks the engine for
everything (legal actions, the position's tensors, the score), and holds the only randomness an
episode has, a generator (``random.Random``, or the package's ``SplitMix``, which the learner
tables in C draw alike) that deals the cards and picks the first dealer. Its deals have
``answer_steps`` (``Deal``): every "yes" to ask-whole is a step of the partner's, since a turn
cannot be hidden from the agents as the table hides a choice among several marriages.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Literal, TypeGuard

import numpy as np

from valtti.engine import NUM_ACTIONS, Deal, Match, Seat, SplitMix, Team, Variant
from valtti.engine.tensors import (
    INFORMATION_STATE_SIZE,
    OBSERVATION_SIZE,
    STATE_SIZE,
    action_mask,
    information_state_tensor,
    observation_tensor,
    state_tensor,
)
from valtti.players.equity import match_equity
from valtti.players.policy import ViewKind, seat_view

EpisodeKind = Literal["deal", "match"]
#: What an episode pays: ``"points"``, the game points of a deal (a match: +1, -1 or 0 at its
#: end); ``"equity"``, the change of the team's match equity (``players.equity``), deal by deal.
RewardKind = Literal["points", "equity"]
VariantArg = Variant | str | Mapping[str, Any] | None

__all__ = [
    "INFORMATION_STATE_SIZE",
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "STATE_SIZE",
    "Episode",
    "EpisodeKind",
    "RewardKind",
    "action_number",
    "check_reward",
    "episode_seeds",
    "is_int",
    "seed_number",
    "variant_of",
]


def is_int(value: object) -> TypeGuard[int | np.integer[Any]]:
    """An int or a NumPy integer, not a bool (which Python counts as an int)."""
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


def action_number(value: object) -> int:
    """An action given to an environment, as the int it is; ``TypeError`` for anything but an
    int (a NumPy integer too, or a 0-d integer array, as ``Discrete.contains`` takes them): a
    float, a string or a bool is a caller's mistake to say, not to round into a move."""
    if isinstance(value, np.ndarray) and value.shape == () and value.dtype.kind in "iu":
        value = value[()]
    if not is_int(value):
        raise TypeError(f"an action is an int from 0 to {NUM_ACTIONS - 1}, not {value!r}")
    return int(value)


def seed_number(value: object) -> int:
    """A seed given to an environment: an int of 0 or more (a NumPy integer too); else
    ``ValueError``, since Python's ``random`` would deal -1 as it deals 1."""
    if not is_int(value) or value < 0:
        raise ValueError(f"a seed is an int of 0 or more, not {value!r}")
    return int(value)


def episode_seeds(stream: np.random.Generator, n: int) -> np.ndarray:
    """``n`` seeds of episodes' generators (uint64) drawn from ``stream``: its bit generator's
    next raw 64-bit words, which a table draws one at a time as a batch draws them at once."""
    seeds: np.ndarray = stream.bit_generator.random_raw(n)
    return seeds.astype(np.uint64)


def variant_of(variant: VariantArg) -> Variant:
    """A ``Variant`` from a ``Variant``, its text (``"target=12"``) or a switch mapping;
    ``TypeError`` for anything else."""
    if variant is None:
        return Variant()
    if isinstance(variant, Variant):
        return variant
    if isinstance(variant, str):
        return Variant.parse(variant)
    if not isinstance(variant, Mapping):
        raise TypeError(
            f"a variant is a Variant, its text ('target=12') or a mapping of switches, "
            f"not {variant!r}"
        )
    return Variant.from_mapping(variant)


def deal_returns(deal: Deal) -> tuple[float, float]:
    """The returns of a finished deal for NS and for EW: each team's game points minus the
    other's (RULES.md 5.1). Each is its own difference of whole numbers, never ``-x`` of the
    other's, which would make a drawn deal's 0 a -0.0."""
    ns, ew = deal.result().game_points
    return float(ns - ew), float(ew - ns)


def check_reward(reward: object) -> RewardKind:
    """``reward`` if it names a ``RewardKind``; ``ValueError`` otherwise."""
    if reward not in ("points", "equity"):
        raise ValueError(f"reward is 'points' or 'equity', not {reward!r}")
    return reward


class Episode:
    """A deal (``kind="deal"``) or a match (``kind="match"``) being played.

    The returns, by team (NS, EW), are zero until the episode is over; then, for a deal, each
    team's game points minus the other's (RULES.md 5.1); for a match, +1 for the winner, -1 for
    the loser, 0 each for a draw (RULES.md 6.3). ``earned`` is what each team has earned so far
    under ``reward``: the returns for ``"points"``; for ``"equity"`` each team's match equity at
    the score after the deals finished (``players.equity``: from -1 to 1, 0 at 0–0), so that the
    rewards of a match, deal by deal, add up to its result.
    """

    def __init__(
        self,
        rng: random.Random | SplitMix,
        kind: EpisodeKind = "deal",
        variant: VariantArg = None,
        reward: RewardKind = "points",
    ):
        if kind not in ("deal", "match"):
            raise ValueError(f"an episode is a 'deal' or a 'match', not {kind!r}")
        self.kind: EpisodeKind = kind
        self.reward = check_reward(reward)
        self.variant = variant_of(variant)
        self.rng = rng
        # Every "yes" to ask-whole a step of the partner's: a turn cannot be hidden here, and
        # it must not tell that the partner had several marriages (RULES.md 7.2; Deal).
        self.match = Match(self.variant, first_dealer=Seat(rng.randrange(4)), answer_steps=True)
        self.deal: Deal = self.match.start_deal(rng=rng)
        #: the match score before the current deal, by team
        self.score: tuple[int, int] = (0, 0)
        self.deals_played = 0

    @property
    def current_player(self) -> int | None:
        """The seat to move (0–3 for N E S W), or ``None`` once the episode is over."""
        return self.deal.current_player

    def legal_mask(self) -> int:
        return self.deal.legal_mask()

    def is_legal(self, action: int) -> bool:
        return self.deal.is_legal(action)

    def apply(self, action: int) -> None:
        """Play ``action`` for the seat to move; in a match, a finished deal is followed by the
        next one at once. ``IllegalActionError`` (the state unchanged) if it is not legal."""
        self.deal.apply(action)
        if self.deal.is_over():
            self.deals_played += 1
            if self.kind == "match" and not self.match.is_over():
                self.score = self.match.score
                self.deal = self.match.start_deal(rng=self.rng)

    def is_over(self) -> bool:
        return self.deal.is_over()

    def returns(self) -> tuple[float, float]:
        """Each team's return (NS, EW): see the class."""
        if not self.deal.is_over():
            return (0.0, 0.0)
        if self.kind == "deal":
            return deal_returns(self.deal)
        winner = self.match.winner
        if winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if winner is Team.NS else (-1.0, 1.0)

    def earned(self) -> tuple[float, float]:
        """What each team (NS, EW) has earned so far under ``reward`` (see the class)."""
        if self.reward == "points":
            return self.returns()
        ns = match_equity(self.variant)(self.match.score)
        return (ns, 0.0 - ns)  # 0.0 - x: never a -0.0

    def view(self, seat: int, kind: ViewKind, out: Any = None) -> Any:
        """``seat``'s tensor of ``kind`` (``players.policy.seat_view``) with the match score."""
        return seat_view(self.deal, seat, kind, self.score, out)

    def observation(self, seat: int, out: Any = None) -> Any:
        """``seat``'s observation tensor (docs/TENSORS.md) with the match score before the deal."""
        return observation_tensor(self.deal, seat, out, self.score)

    def action_mask(self, seat: int, out: Any = None) -> Any:
        """``seat``'s legal actions as 49 int8 0/1 values (all 0 unless ``seat`` is to move)."""
        return action_mask(self.deal, seat, out)

    def information_state(self, seat: int, out: Any = None) -> Any:
        return information_state_tensor(self.deal, seat, out, self.score)

    def state(self, seat: int = 0, out: Any = None) -> Any:
        """The full state relative to ``seat`` (every hand: for centralised critics)."""
        return state_tensor(self.deal, seat, out, self.score)

    def render(self) -> str:
        """The table as text: every hand, the trick, trumps, the columns and the score."""
        d = self.deal
        lines = [
            f"{self.kind} · deal {self.deals_played + (0 if d.is_over() else 1)} · "
            f"dealer {d.dealer} · trumps {'-' if d.trump is None else d.trump} · "
            f"score NS {self.score[0]} EW {self.score[1]} (target {self.variant.target})"
        ]
        for seat in Seat:
            marker = "*" if d.current_player == seat else " "
            lines.append(f"{marker} {seat}: {d.hand(seat)}")
        trick = d.current_trick
        if trick is not None:
            plays = " ".join(f"{s}:{c}" for s, c in trick.plays)
            lines.append(f"trick {trick.number}, led by {trick.leader}: {plays or '-'}")
        for e in d.events:
            lines.append(
                f"after trick {e.after_trick}: {e.seat} {e.how} {'' if e.suit is None else e.suit} "
                f"{'yes' if e.yes else 'no'} (+{e.points})"
            )
        r = d.result()
        lines.append(
            f"tricks {r.tricks[0]}-{r.tricks[1]} · card points {r.card_points[0]}-"
            f"{r.card_points[1]} · game points {r.game_points[0]}-{r.game_points[1]}"
        )
        if d.is_over():
            lines.append(f"over: returns NS {self.returns()[0]:+g} EW {self.returns()[1]:+g}")
        return "\n".join(lines)
