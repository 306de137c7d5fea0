"""The beginner and the club player: the heuristic player's rules of thumb with the slips of a
person learning the game (``beginner``), or of a club player, who makes the same slips a good deal
less often (``club``).

It decides as ``heuristic`` does, then, where one of a learner's usual slips is possible and
the rules of thumb chose otherwise, makes it with that slip's probability (``Slips``):

- a question to its partner not asked: it leads instead (a learner forgets that a marriage
  can be found in two hands);
- its own marriage not declared: it leads instead;
- a trump wasted: made to trump, it trumps with its highest trump where a lower one would do;
- a high card cashed: leading, it leads its highest card (aces and tens first, trumps too);
- a card thrown without thought: unable to follow suit and free to play anything, it plays any
  card it may, points to the opponents included.

A lead in place of a declaration is its highest card, as a cashed one. Every slip is a move a
person makes, not a random one: the beginner never plays a card the rules of thumb would not
consider but for these. Its slips are drawn from its own generator, seeded with its seed.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Final

from valtti.engine import Action, ActionKind, Card, Observation, Phase
from valtti.players.base import Player
from valtti.players.heuristic import HeuristicPlayer

__all__ = ["BEGINNER", "CLUB", "BeginnerPlayer", "ClubPlayer", "Slips"]


@dataclass(frozen=True, slots=True)
class Slips:
    """How often the beginner makes each slip where it can (a probability each)."""

    ask: float = 0.4  #: a question to partner not asked
    declare: float = 0.2  #: its own marriage not declared
    trump: float = 0.5  #: its highest trump where a lower one would do
    cash: float = 0.3  #: a lead of its highest card
    discard: float = 0.4  #: any card, unable to follow suit and free to play anything

    def scaled(self, factor: float) -> Slips:
        """Each slip ``factor`` times as often."""
        return Slips(*(factor * getattr(self, f.name) for f in dataclasses.fields(self)))


#: A learner's slips.
BEGINNER: Final = Slips()
#: A club player's: the learner's at two fifths of their rates, so that the club level sits about
#: between the beginner and the expert (docs/MEASUREMENTS.md, The levels and the ladder).
CLUB: Final = BEGINNER.scaled(0.4)


def _cards(plays: list[Action]) -> list[Card]:
    return [card for play in plays if (card := play.card) is not None]


def _highest(plays: list[Action]) -> Action:
    """The highest card among ``plays``, the longest suit's on a tie of rank (as a learner
    leads an ace)."""
    cards = _cards(plays)
    return Action.play(max(cards, key=lambda c: (c.rank, sum(d.suit == c.suit for d in cards))))


class BeginnerPlayer(Player):
    """``heuristic`` with a learner's slips (see the module); ``seed`` seeds both."""

    name = "beginner"
    memoryless = True

    def __init__(self, seed: int | None = None, slips: Slips | None = None) -> None:
        self.rules = HeuristicPlayer(seed)
        self.slips = BEGINNER if slips is None else slips
        self.rng = random.Random(seed)

    def choose(self, observation: Observation) -> Action:
        chosen = self.rules.choose(observation)
        legal = observation.legal_actions
        plays = [a for a in legal if a.kind is ActionKind.PLAY]
        if len(plays) < 2 and chosen.kind is ActionKind.PLAY:
            return chosen
        slip = self._slip(observation, chosen, plays)
        return chosen if slip is None else slip

    def _slip(self, observation: Observation, chosen: Action, plays: list[Action]) -> Action | None:
        """The slip made at this decision, if any."""
        kind = chosen.kind
        if observation.phase is Phase.DECLARATION:
            if kind is ActionKind.ASK_WHOLE or kind is ActionKind.ASK_HALF:
                return _highest(plays) if self._slips(self.slips.ask) else None
            if kind is ActionKind.DECLARE:
                return _highest(plays) if self._slips(self.slips.declare) else None
        if kind is not ActionKind.PLAY:
            return None
        trick = observation.current_trick
        if trick is None or len(trick.cards) == 0:
            return _highest(plays) if self._slips(self.slips.cash) else None
        led = trick.cards[0].suit
        trump = observation.trump
        suits = {c.suit for c in _cards(plays)}
        if led in suits:
            return None  # following suit: the rules leave a learner little to get wrong
        if suits == {trump}:
            top = _highest(plays)
            return top if top != chosen and self._slips(self.slips.trump) else None
        if self._slips(self.slips.discard):
            return plays[self.rng.randrange(len(plays))]
        return None

    def _slips(self, probability: float) -> bool:
        return self.rng.random() < probability

    def close(self) -> None:
        self.rules.close()


class ClubPlayer(BeginnerPlayer):
    """``heuristic`` with a club player's slips (``CLUB``); ``seed`` seeds both."""

    name = "club"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, CLUB)
