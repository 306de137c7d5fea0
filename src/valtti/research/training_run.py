"""A training run as ``valtti train`` starts it: its settings, a new run's or a resumed run's own
(the options given again replacing them), and its evaluations against fixed players.

``valtti.research.train`` trains; this module decides with what. The evaluations are the arena's
duplicate on the evaluation set's single deals, which the caller passes in (a ``Duplicate``):
the arena is a front end of its own, which this one does not import.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from valtti.research.learner import Progress
from valtti.research.train import Evaluate, TrainConfig, train

__all__ = [
    "Duplicate",
    "SettingError",
    "TrainingRun",
    "TrainingSettings",
    "evaluation",
    "evaluation_text",
]

#: One duplicate on the evaluation set's single deals: the model's player spec, the fixed
#: player's, the deal pairs and the evaluation seed in; the first player's game points per deal
#: less the second's out, JSON-ready: ``{"mean", "low", "high", "pairs"}`` (``low`` and
#: ``high`` ``None`` where there is no interval).
Duplicate = Callable[[str, str, int, int], dict[str, Any]]
#: What is told after every round: the progress, the round's mean loss, and the evaluation made
#: after it (``None`` when none was).
Report = Callable[[Progress, float, dict[str, Any] | None], None]


@dataclass(frozen=True, slots=True)
class TrainingSettings:
    """What a run is started with: ``valtti train``'s options."""

    folder: Path  #: the run's folder (``--out``)
    #: the run's settings as given (their defaults where none was)
    config: TrainConfig = field(default_factory=TrainConfig)
    #: the names of the settings of ``config`` that were given: a resumed run keeps its own
    #: settings but these
    given: frozenset[str] = frozenset()
    deals: int | None = None  #: stop at this many self-play deals in all
    minutes: float | None = None  #: stop after so long
    resume: bool = False  #: go on with the run in ``folder``
    init: Path | None = None  #: start a new run from this model's weights
    backend: str = "process"  #: where self-play runs: process or ray
    workers: int = 1  #: self-play processes
    address: str | None = None  #: the Ray cluster of the ray backend


class SettingError(ValueError):
    """A run that cannot be started with its settings: ``setting`` names the ``TrainConfig``
    setting at fault, ``None`` when it is none of them (the run's saved settings cannot be
    read)."""

    def __init__(self, message: str, setting: str | None = None) -> None:
        super().__init__(message)
        self.setting = setting


class TrainingRun:
    """A run with its settings decided: ``config`` is a new run's as given, a resumed run's as it
    saved them (its curve.json) with those given again replacing them. ``SettingError`` when
    the saved settings cannot be read, or a resumed run is given other network widths."""

    def __init__(self, settings: TrainingSettings) -> None:
        self.settings = settings
        self.config = _decided(settings)

    def run(self, duplicate: Duplicate, report: Report | None = None) -> Progress:
        """Train (``valtti.research.train.train``), evaluating with ``duplicate`` against each
        of ``config.eval_against``; ``report`` after every round. ``ValueError`` for a run
        that cannot be made (nothing to resume, a folder that holds a run, …)."""
        s = self.settings
        return train(
            self.config,
            s.folder,
            deals=s.deals,
            minutes=s.minutes,
            resume=s.resume,
            init=s.init,
            backend=s.backend,
            workers=s.workers,
            address=s.address,
            evaluate=evaluation(self.config, duplicate),
            report=report,
        )


def _decided(settings: TrainingSettings) -> TrainConfig:
    try:
        saved = TrainConfig.saved(settings.folder) if settings.resume else None
    except ValueError as e:
        raise SettingError(str(e)) from None
    if saved is None:
        return settings.config
    given = {name: getattr(settings.config, name) for name in sorted(settings.given)}
    if given.get("hidden", saved.hidden) != saved.hidden:
        shown = ",".join(map(str, saved.hidden))
        raise SettingError(f"a resumed run keeps its network's widths ({shown})", "hidden")
    return replace(saved, **given)


def evaluation(config: TrainConfig, duplicate: Duplicate) -> Evaluate:
    """The evaluation of a model: ``duplicate`` against each player of ``config.eval_against``
    on ``config.eval_deals`` deal pairs of the evaluation set ``config.eval_seed``."""

    def evaluate(model: Path) -> dict[str, Any]:
        return {
            opponent: duplicate(f"learned:{model}", opponent, config.eval_deals, config.eval_seed)
            for opponent in config.eval_against
        }

    return evaluate


def evaluation_text(against: Mapping[str, Mapping[str, Any]]) -> str:
    """An evaluation's figures on one line: each fixed player's mean and interval."""
    return ", ".join(
        f"{name} {e['mean']:+.3f} "
        # One pair (--eval-deals 1) has no interval, as the arena says.
        + (
            f"[{e['low']:+.3f}, {e['high']:+.3f}]"
            if e["low"] is not None
            else f"(no interval from {e['pairs']} pair)"
        )
        for name, e in against.items()
    )
