"""A training run's settings (``TrainConfig``): what ``valtti train`` takes and saves in the run's
curve.json, and what its parts (``selfplay``, ``learner``, ``train``) read."""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from pathlib import Path


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
