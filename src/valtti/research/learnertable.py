"""One episode seen from the learner's seat (``LearnerTable``): the three other seats, players
by name, ``Player`` objects or policies (``valtti.players.policy``), play until the learner is to
move. The engine-level core of the Gymnasium environments (``research.gymnasium``), which the
batched tables in C (``research.batched``) deal, seat and play alike."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from valtti.engine import Seat, SplitMix
from valtti.players.base import Player
from valtti.players.policy import (
    LentPlayer,
    Policy,
    Seatable,
    ViewKind,
    check_view_kind,
    plays,
    policy_action,
    takes_mask,
)
from valtti.players.registry import make_player
from valtti.research.episode import (
    NUM_ACTIONS,
    Episode,
    EpisodeKind,
    RewardKind,
    VariantArg,
    check_reward,
    episode_seeds,
    is_int,
)

#: The reward of an illegal action, which ends the episode.
ILLEGAL_PENALTY = -10.0

__all__ = ["ILLEGAL_PENALTY", "LearnerTable"]


def _seats_of(opponents: Seatable | Sequence[Seatable]) -> tuple[Seatable, Seatable, Seatable]:
    if isinstance(opponents, str) or plays(opponents) or callable(opponents):
        one = cast(Seatable, opponents)
        return (one, one, one)
    if not isinstance(opponents, Sequence) or len(opponents) != 3:
        raise ValueError(
            "opponents is one player (a name, a Player or a policy) or three (left, partner, "
            f"right), not {opponents!r}"
        )
    return (opponents[0], opponents[1], opponents[2])


class _Other:
    """What decides for one of the other seats: a player made from its name (``owned``: closed
    with the table), a ``Player`` given (borrowed: never closed here), a policy, or ``random``
    (``None``: drawn from the table's stream)."""

    def __init__(self, who: Seatable) -> None:
        if not isinstance(who, str) and not plays(who) and not callable(who):
            raise TypeError(f"a seat takes a player's name, a Player or a policy, not {who!r}")
        self.who = who
        #: the player lent for every episode, if it is one (``players.policy.plays``)
        self.lent: Player | None = None
        #: the policy that decides there, if it is one
        self.policy: Policy | None = None
        if not isinstance(who, str):
            if plays(who):
                self.lent = who if isinstance(who, Player) else LentPlayer(who)
            else:
                self.policy = cast(Policy, who)
        self.with_mask = self.policy is not None and takes_mask(self.policy)
        if isinstance(who, str):
            make_player(who, 0).close()  # a bad name fails here, not in reset

    def player(self, seed: int) -> Player | None:
        """A fresh player for a new episode (``None`` for ``random`` and policies)."""
        who = self.who
        if isinstance(who, str):
            return None if who == "random" else make_player(who, seed)
        return self.lent


def _seat(seat: Seat | int | str | None) -> Seat | None:
    """The learner's fixed seat; ``ValueError`` for anything but a seat, its number or name."""
    if seat is None or isinstance(seat, Seat):
        return seat
    if isinstance(seat, str):
        return Seat.parse(seat)
    if not is_int(seat) or not 0 <= seat <= 3:
        raise ValueError(f"seat is N, E, S, W or 0 to 3, not {seat!r}")
    return Seat(int(seat))


class LearnerTable:
    """One episode seen from the learner's seat: the three other seats play until the learner
    is to move. The engine-level core of ``MarjapussiEnv`` and its vector form."""

    def __init__(
        self,
        opponents: Seatable | Sequence[Seatable] = "random",
        seat: Seat | int | str | None = None,
        episode: EpisodeKind = "deal",
        variant: VariantArg = None,
        observation_type: ViewKind = "observation",
        reward: RewardKind = "points",
    ) -> None:
        self.others = [_Other(who) for who in _seats_of(opponents)]
        self.fixed_seat = _seat(seat)
        self.kind: EpisodeKind = episode
        self.variant = variant
        self.view_kind = check_view_kind(observation_type)
        self.reward = check_reward(reward)
        self.rng = SplitMix(0)
        self.episode = Episode(self.rng, episode, variant, self.reward)
        self.seat = 0
        self.over = True  #: no episode is being played: reset() starts one
        #: per seat: the player, or None for the learner, policies and "random"
        self.players: list[Player | None] = [None, None, None, None]
        #: per seat: what decides there (None for the learner)
        self.seated: list[_Other | None] = [None, None, None, None]
        self.paid = 0.0  #: what the learner's team has earned so far (``Episode.earned``)

    def reset(self, np_random: np.random.Generator) -> None:
        # The package's generator, which the batched tables in C draw alike (research.batched).
        self.rng = SplitMix(int(episode_seeds(np_random, 1)[0]))
        self.seat = int(self.rng.randrange(4) if self.fixed_seat is None else self.fixed_seat)
        self.close()
        self.seated = [None, None, None, None]
        for offset, other in zip((1, 2, 3), self.others, strict=True):
            seat = (self.seat + offset) & 3
            self.seated[seat] = other
            self.players[seat] = other.player(self.rng.getrandbits(32))
        self.episode = Episode(self.rng, self.kind, self.variant, self.reward)
        self.paid = 0.0
        self.over = False
        self._others()

    def _others(self) -> None:
        """Let the other seats play until the learner is to move or the episode is over."""
        episode = self.episode
        while True:
            seat = episode.current_player
            if seat is None or seat == self.seat:
                return
            player = self.players[seat]
            other = self.seated[seat]
            if player is not None:
                episode.apply(player.choose(episode.match.observation(Seat(seat))))
            elif other is not None and other.policy is not None:
                view = episode.view(seat, self.view_kind)
                episode.apply(policy_action(other.policy, other.with_mask, view, self._mask(seat)))
            else:
                legal = episode.legal_mask()
                for _ in range(self.rng.randrange(legal.bit_count())):
                    legal &= legal - 1
                episode.apply((legal & -legal).bit_length() - 1)

    def step(self, action: int) -> tuple[float, bool, str | None]:
        """Play the learner's action: (reward, episode over, refusal if it was illegal);
        ``RuntimeError`` when no episode is being played (before reset, or after its end)."""
        if self.over:
            raise RuntimeError("the episode is over (or not begun): call reset() first")
        episode = self.episode
        if not episode.is_legal(action):
            self.over = True
            refusal = episode.deal.refusal(action)
            return ILLEGAL_PENALTY, True, str(refusal)
        episode.apply(action)
        self._others()
        self.over = episode.is_over()
        earned = episode.earned()[self.seat & 1]
        reward, self.paid = earned - self.paid, earned
        return reward, self.over, None

    def observation(self, out: Any = None) -> Any:
        """The learner's view, of the table's ``observation_type``."""
        return self.episode.view(self.seat, self.view_kind, out)

    def state(self, out: Any = None) -> Any:
        """The full state relative to the learner's seat (every hand: for centralised critics)."""
        return self.episode.state(self.seat, out)

    def _mask(self, seat: int) -> np.ndarray:
        mask: np.ndarray = self.episode.action_mask(seat).view(bool)
        return mask

    def action_mask(self) -> np.ndarray:
        """The learner's legal actions; every action once the episode is over: Gymnasium's
        next-step autoreset ignores the action of the step that resets, and an agent that
        samples from the mask needs one it can sample from."""
        if self.over:
            return np.ones(NUM_ACTIONS, bool)
        return self._mask(self.seat)

    def close(self) -> None:
        for i, player in enumerate(self.players):
            other = self.seated[i]
            if player is not None and other is not None and isinstance(other.who, str):
                player.close()
            self.players[i] = None
