"""Immutable snapshots that a deal hands out: phases, tricks, declarations, results, errors."""

from __future__ import annotations

import reprlib
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Literal

from valtti.engine.actions import Action
from valtti.engine.cards import Card, Seat, Suit, Team
from valtti.engine.refusal import Refusal

How = Literal["declare", "ask-whole", "ask-half"]


class Phase(Enum):
    """What the player to move is deciding."""

    PLAY = "play"  #: play a card: follow, or lead without a declaration window
    DECLARATION = "declaration"  #: the trick's winner may declare or ask (RULES.md 4.1), or lead
    ANSWER = "answer"  #: partner names one of several marriages (RULES.md 4.2b)
    OVER = "over"  #: all nine tricks played

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick, complete or in progress: its cards in play order from the leader."""

    number: int  #: 1 to 9
    leader: Seat
    cards: tuple[Card, ...]
    winner: Seat | None  #: ``None`` while the trick is incomplete

    @property
    def plays(self) -> tuple[tuple[Seat, Card], ...]:
        """(seat, card) in play order."""
        return tuple((Seat((self.leader + i) & 3), c) for i, c in enumerate(self.cards))

    @property
    def points(self) -> int:
        return sum(c.points for c in self.cards)


@dataclass(frozen=True, slots=True)
class Event:
    """One public declaration event (RULES.md 7.1): a declaration, or a question and its answer."""

    after_trick: int  #: the window it was made in: after trick 1 to 8
    seat: Seat  #: who declared or asked
    how: How
    suit: Suit | None  #: the suit declared, asked for, or named by a "yes" to ask-whole
    yes: bool  #: a declaration, or a question answered "yes"
    points: int  #: game points it made for the team: 2 (trumps), 1 (little trump) or 0

    @property
    def team(self) -> Team:
        return self.seat.team

    def __str__(self) -> str:
        if self.how == "declare":
            return f"{self.seat} declares {self.suit}"
        asked = "whole" if self.how == "ask-whole" else f"half {self.suit}"
        answer = (
            ("yes " + str(self.suit))
            if self.how == "ask-whole" and self.yes
            else ("yes" if self.yes else "no")
        )
        return f"{self.seat} asks {asked}: {answer}"


@dataclass(frozen=True, slots=True)
class Marriage:
    """A declared marriage (RULES.md 4.4): who made it, how, and what it scored."""

    suit: Suit
    team: Team
    seat: Seat  #: the player who declared or asked
    how: How
    points: int  #: 2 if it made trumps, else 1


@dataclass(frozen=True, slots=True)
class DealResult:
    """The three columns per team (RULES.md 5), indexed by ``Team``; valid at any point.

    ``game_points`` and ``victory`` are the engine's deal scoring (RULES.md 5.1, ``Deal.result``);
    a result made up elsewhere (a player weighing outcomes) says what it needs of them.
    """

    tricks: tuple[int, int]
    card_points: tuple[int, int]
    marriage_points: tuple[int, int]
    last: Team | None  #: who took trick 9 (``None`` before it is played)
    game_points: tuple[int, int]
    #: The team with the victory point, more than 60 card points (``takes_victory``), if any.
    victory: Team | None = None


class IllegalActionError(ValueError):
    """An action refused by a deal; the deal is unchanged.

    ``refusal`` says why as data, ``reason`` in English (``str(refusal)``).
    """

    def __init__(self, action: object, refusal: Refusal, legal: Sequence[Action]) -> None:
        self.action = action
        self.refusal = refusal
        self.reason = str(refusal)
        self.legal = tuple(legal)
        shown = action if isinstance(action, Action) else reprlib.repr(action)
        super().__init__(
            f"illegal action {shown}: {self.reason} "
            f"(legal: {' '.join(map(str, self.legal)) or 'none'})"
        )
