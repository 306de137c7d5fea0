"""Actions: one decision of the player to move, with its RECORD.md token as text.

Every possible action has a fixed number, so that masks over one action space are possible:

=========  =======================================
number     action
=========  =======================================
0 – 35     play card *n* (the number is the card)
36 – 39    ``declare S/H/D/C``
40         ``ask-whole``
41 – 44    ``ask-half S/H/D/C``
45 – 48    ``answer S/H/D/C``
=========  =======================================
"""

from __future__ import annotations

import reprlib
from enum import Enum
from typing import Final

from valtti.engine.cards import CARDS, NUM_CARDS, SUITS, Card, Suit, no_truth, text_of

DECLARE: Final = 36
ASK_WHOLE: Final = 40
ASK_HALF: Final = 41
ANSWER: Final = 45
NUM_ACTIONS: Final = 49


class ActionKind(Enum):
    PLAY = "play"
    DECLARE = "declare"
    ASK_WHOLE = "ask-whole"
    ASK_HALF = "ask-half"
    ANSWER = "answer"

    def __str__(self) -> str:
        return self.value


class Action(int):
    """An action number (see the module table) whose text is its RECORD.md token."""

    __slots__ = ()

    def __new__(cls, value: int) -> Action:
        if not 0 <= value < NUM_ACTIONS:
            raise ValueError(f"action number out of range: {value}")
        return super().__new__(cls, value)

    __bool__ = no_truth

    @staticmethod
    def play(card: int) -> Action:
        return ACTIONS[Card(card)]

    @staticmethod
    def declare(suit: Suit) -> Action:
        return ACTIONS[DECLARE + suit]

    @staticmethod
    def ask_whole() -> Action:
        return ACTIONS[ASK_WHOLE]

    @staticmethod
    def ask_half(suit: Suit) -> Action:
        return ACTIONS[ASK_HALF + suit]

    @staticmethod
    def answer(suit: Suit) -> Action:
        return ACTIONS[ANSWER + suit]

    @property
    def kind(self) -> ActionKind:
        return _KINDS[self]

    @property
    def card(self) -> Card | None:
        """The card played, or ``None`` for a declaration action."""
        return CARDS[self] if self < NUM_CARDS else None

    @property
    def suit(self) -> Suit | None:
        """The card's suit, the suit declared, asked for or named; ``None`` for ``ask-whole``."""
        return _SUITS_OF[self]

    def __str__(self) -> str:
        return _TOKENS[self]

    def __repr__(self) -> str:
        return f"Action.parse({_TOKENS[self]!r})"

    @staticmethod
    def parse(token: str) -> Action:
        """Parse a RECORD.md token, case-insensitive, surplus spaces ignored.

        ``ValueError`` names the bad token and the accepted forms.
        """
        words = text_of(token, "an action").lower().split()
        if len(words) == 1:
            if words[0] == "ask-whole":
                return ACTIONS[ASK_WHOLE]
            try:
                return ACTIONS[Card.parse(words[0])]
            except ValueError:
                pass
        elif len(words) == 2 and words[0] in _SUIT_WORDS:
            try:
                return ACTIONS[_SUIT_WORDS[words[0]] + Suit.parse(words[1])]
            except ValueError:
                pass
        raise ValueError(
            f"not an action: {reprlib.repr(token)} (expected a card such as AS or 10d, "
            "'declare S', 'ask-whole', 'ask-half S' or 'answer S')"
        )


_SUIT_WORDS: Final = {"declare": DECLARE, "ask-half": ASK_HALF, "answer": ANSWER}


def _describe(n: int) -> tuple[str, ActionKind, Suit | None]:
    if n < NUM_CARDS:
        return str(CARDS[n]), ActionKind.PLAY, CARDS[n].suit
    if n == ASK_WHOLE:
        return "ask-whole", ActionKind.ASK_WHOLE, None
    for word, base in _SUIT_WORDS.items():
        if base <= n < base + 4:
            return f"{word} {SUITS[n - base]}", ActionKind(word), SUITS[n - base]
    raise AssertionError(n)


_TOKENS: Final = tuple(_describe(n)[0] for n in range(NUM_ACTIONS))
_KINDS: Final = tuple(_describe(n)[1] for n in range(NUM_ACTIONS))
_SUITS_OF: Final = tuple(_describe(n)[2] for n in range(NUM_ACTIONS))
ACTIONS: Final = tuple(Action(n) for n in range(NUM_ACTIONS))
