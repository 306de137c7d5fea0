"""The player interface: a seat's observation in, one legal action out."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import ClassVar

from valtti.engine import Action, Observation


class Player(ABC):
    """A player decides for one seat from that seat's observation alone.

    ``choose`` is given ``Observation`` objects only (RULES.md 7): never another seat's cards.
    It must return one of ``observation.legal_actions``.
    """

    #: The name the arena and the table show, e.g. ``"random"`` or ``"search:hard"``.
    name: str = "player"

    #: Whether its decision depends on the observation and its own generator alone, not on
    #: what it saw earlier in the match: a copy seeded anew then draws as it would, which the
    #: arena's luck (``arena.luck``) relies on.
    memoryless: ClassVar[bool] = False

    @abstractmethod
    def choose(self, observation: Observation) -> Action:
        """The action to take; ``observation.legal_actions`` is never empty here."""

    def close(self) -> None:  # noqa: B027 - a hook; most players hold nothing
        """Release what the player holds (processes, files); the default holds nothing."""


class RandomPlayer(Player):
    """Uniform over the legal actions, reproducible from its seed."""

    name = "random"
    memoryless = True

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        return legal[self.rng.randrange(len(legal))]
