"""How likely a world makes the play seen so far: weights for sampled worlds (inference).

A world (the hands now) that contradicts the public play, where replaying the history on it
refuses an action or gives another answer or declaration than was seen, has weight exactly 0.
Otherwise its weight is the product over every earlier decision of another seat (partner and
opponents, not the observer's own) that had a choice, of the chance that the model of play
takes the action actually taken, seeing what that seat saw then (its hand in this world).

``LearnedLikelihood`` is that model for a ``QNetwork``: a softmax of its outputs over the legal
actions, at a temperature, mixed with a little of the uniform choice so that no consistent
world weighs 0. ``self_model()``, what ``pimc`` infers with, is a network fitted to predict
``pimc:hard``'s own choices (``players/models/valtti-pimc-self.npz``, outputs read as log-odds,
temperature 1); ``shipped()`` reads the learned player's action values (game points) at 0.5.
The observation tensors of all the decisions of all the worlds go through the network as one
numpy batch, each distinct (decision, hand) once.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from valtti.engine import NUM_ACTIONS, ActionKind, Deal, Observation
from valtti.engine.tensors import observation_tensor
from valtti.players.learned import SELF_MODEL, QNetwork, _cached, shipped_path
from valtti.players.sampler import Hands

__all__ = ["LearnedLikelihood", "Likelihood", "replay_consistent"]


def replay_consistent(observation: Observation, hands: Hands) -> Deal | None:
    """The deal of the world ``hands`` at the observed point, or ``None`` when the world
    contradicts the public play (an action refused, another answer or declaration)."""
    return _Replayer(observation).deal(hands)


class _Replayer:
    """``worlds.rebuild`` for many worlds of one observation, with what they share read once."""

    def __init__(self, observation: Observation) -> None:
        self.observation = observation
        self.played = [c.mask for c in observation.played_by()]
        self.named = [
            e.suit
            for e in observation.events
            if e.how == "ask-whole" and e.yes and e.suit is not None
        ]

    def deal(self, hands: Hands) -> Deal | None:
        obs = self.observation
        if hands[obs.seat] != obs.hand:
            return None
        try:
            deal = Deal(
                [hands[i].mask | self.played[i] for i in range(4)],
                obs.dealer,
                obs.variant,
                obs.forehand,
                answer_steps=obs.answer_steps,
            )
            deal.replay(obs.history, self.named)
        except ValueError:
            return None
        seen = deal.seen_by(obs.seat)
        if seen.events != obs.events or seen.current_player != obs.current_player:
            return None
        return deal


class Likelihood(ABC):
    """A model of the other seats' play, as weights of worlds."""

    @abstractmethod
    def weights(self, observation: Observation, worlds: Sequence[Hands]) -> npt.NDArray[np.float64]:
        """Per world, a weight ≥ 0 proportional to the chance of the play seen (the largest
        is 1); exactly 0 for a world that contradicts the public play."""


class LearnedLikelihood(Likelihood):
    """Softmax of a ``QNetwork``'s values at ``temperature`` (in game points), mixed with
    ``epsilon`` of the uniform choice among the legal actions."""

    def __init__(self, model: QNetwork, temperature: float = 0.5, epsilon: float = 0.1) -> None:
        if temperature <= 0 or not 0 < epsilon <= 1:
            raise ValueError("the temperature must be > 0 and epsilon in (0, 1]")
        self.model = model
        self.temperature = temperature
        self.epsilon = epsilon

    @classmethod
    def shipped(cls) -> LearnedLikelihood:
        """The learned player's policy: its action values (game points) at temperature 0.5."""
        return cls(_cached(str(shipped_path())))

    @classmethod
    def self_model(cls) -> LearnedLikelihood:
        """The model of ``pimc:hard``'s own play, its log-odds at temperature 1."""
        return cls(_cached(str(shipped_path(SELF_MODEL))), temperature=1.0)

    def weights(self, observation: Observation, worlds: Sequence[Hands]) -> npt.NDArray[np.float64]:
        score = observation.score or (0, 0)
        observer = observation.seat
        rows: dict[tuple[int, int], int] = {}  # (action index, hand) -> row of the batch
        legal: list[int] = []
        taken: list[int] = []
        tensors: list[npt.NDArray[np.float32]] = []
        per_world: list[list[int] | None] = []
        replayer = _Replayer(observation)
        for hands in worlds:
            deal = replayer.deal(hands)
            if deal is None:
                per_world.append(None)
                continue
            uses: list[int] = []
            replay = deal.after(0)
            for i, action in enumerate(deal.history):
                seat = replay.current_player
                assert seat is not None
                if seat != observer and action.kind is not ActionKind.ANSWER:
                    mask = replay.legal_mask()
                    if mask & (mask - 1):
                        key = (i, replay.hand_mask(seat))
                        row = rows.get(key)
                        if row is None:
                            row = rows[key] = len(tensors)
                            tensors.append(observation_tensor(replay, seat, score=score))
                            legal.append(mask)
                            taken.append(int(action))
                        uses.append(row)
                replay.apply(action)
            per_world.append(uses)
        logp = self._log_chances(tensors, legal, taken)
        out = np.zeros(len(worlds))
        logs = np.full(len(worlds), -np.inf)
        for w, used in enumerate(per_world):
            if used is not None:
                logs[w] = float(logp[used].sum()) if used else 0.0
        if np.isfinite(logs).any():
            top = logs.max()
            ok = np.isfinite(logs)
            out[ok] = np.exp(logs[ok] - top)
        return out

    def _log_chances(
        self, tensors: list[npt.NDArray[np.float32]], legal: list[int], taken: list[int]
    ) -> npt.NDArray[np.float64]:
        """Per row, the log chance of the action taken."""
        if not tensors:
            return np.zeros(0)
        values = self.model.values(np.stack(tensors)).astype(np.float64) / self.temperature
        bits = np.arange(NUM_ACTIONS, dtype=np.uint64)
        masks = (np.array(legal, dtype=np.uint64)[:, None] >> bits) & np.uint64(1)
        allowed = masks.astype(bool)
        values = np.where(allowed, values, -np.inf)
        values -= values.max(axis=1, keepdims=True)
        soft = np.exp(values)
        soft /= soft.sum(axis=1, keepdims=True)
        count = allowed.sum(axis=1)
        rows = np.arange(len(taken))
        chance: npt.NDArray[np.float64] = (1 - self.epsilon) * soft[rows, taken]
        chance += self.epsilon / count
        return np.log(chance)
