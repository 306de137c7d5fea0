"""Seats, teams, suits, ranks, cards and card sets (RULES.md 1, RECORD.md "Cards, seats, teams").

A card is an ``int`` from 0 to 35: ``suit * 9 + rank``, ranks counted from the six (0) up to
the ace (8), so within one suit a higher bit is a higher card. A set of cards is a 36-bit mask.
"""

from __future__ import annotations

import reprlib
from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Final, TypeVar

_T = TypeVar("_T")

NUM_CARDS: Final = 36
FULL_DECK: Final = (1 << NUM_CARDS) - 1


def no_truth(value: object) -> bool:
    """Refuse ``bool()`` of a game value: N, spades, the six and the six of spades are all 0, so
    ``if suit:`` would take spades for none. Compare with ``is None`` instead."""
    raise TypeError(
        f"{type(value).__name__} {value!s} has no truth value: compare it with None, not bool()"
    )


def text_of(value: object, what: str) -> str:
    """``value`` when it is a ``str``; else ``TypeError`` naming what was to be parsed, so that
    a parser given a number or ``None`` says so rather than failing inside itself."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be given as text (str), not {type(value).__name__}")
    return value


class Seat(IntEnum):
    """A seat at the table, clockwise: N, E, S, W."""

    N = 0
    E = 1
    S = 2
    W = 3

    __bool__ = no_truth

    def __str__(self) -> str:
        return self.name

    @property
    def team(self) -> Team:
        return TEAMS[self & 1]

    @property
    def partner(self) -> Seat:
        return SEATS[(self + 2) & 3]

    @property
    def left(self) -> Seat:
        """The next seat clockwise: the player to this one's left, who plays after it."""
        return SEATS[(self + 1) & 3]

    @classmethod
    def parse(cls, text: str) -> Seat:
        """``"N"``/``"n"`` → ``Seat.N``; ``ValueError`` names the bad text."""
        try:
            return cls[text_of(text, "a seat").strip().upper()]
        except KeyError:
            raise ValueError(unknown_seat_text(text)) from None


class Team(IntEnum):
    """A partnership: NS (N+S) or EW (E+W)."""

    NS = 0
    EW = 1

    __bool__ = no_truth

    def __str__(self) -> str:
        return self.name

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (SEATS[self], SEATS[self + 2])

    @property
    def other(self) -> Team:
        return TEAMS[1 - self]

    @staticmethod
    def named(values: tuple[_T, _T]) -> dict[str, _T]:
        """A pair indexed by team (a score, tricks, points) as ``{"NS": …, "EW": …}``."""
        return {"NS": values[0], "EW": values[1]}

    @classmethod
    def parse(cls, text: str) -> Team:
        try:
            return cls[text_of(text, "a team").strip().upper()]
        except KeyError:
            raise ValueError(f"unknown team {reprlib.repr(text)} (teams are NS, EW)") from None


class Suit(IntEnum):
    """♠ ♥ ♦ ♣, written ``S H D C``."""

    S = 0
    H = 1
    D = 2
    C = 3

    __bool__ = no_truth

    def __str__(self) -> str:
        return self.name

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @property
    def mask(self) -> int:
        """The card-set mask of all nine cards of this suit."""
        return 0x1FF << (9 * self)

    @property
    def marriage(self) -> int:
        """The card-set mask of this suit's marriage, its K and Q (RULES.md 4)."""
        return 3 << (9 * self + 5)  # the queen is rank 5, the king 6

    @classmethod
    def parse(cls, text: str) -> Suit:
        t = text_of(text, "a suit").strip().upper()
        t = _SUIT_SYMBOLS.get(t, t)
        try:
            return cls[t]
        except KeyError:
            raise ValueError(f"unknown suit {reprlib.repr(text)} (suits are S, H, D, C)") from None


_SUIT_SYMBOLS: Final = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


class Rank(IntEnum):
    """Ranks from low to high: 6 7 8 9 J Q K 10 A (RULES.md 1.2)."""

    SIX = 0
    SEVEN = 1
    EIGHT = 2
    NINE = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    TEN = 7
    ACE = 8

    __bool__ = no_truth

    def __str__(self) -> str:
        return RANK_CHARS[self]

    @property
    def points(self) -> int:
        return RANK_POINTS[self]


RANK_CHARS: Final = "6789JQKTA"
#: The card points of each rank (RULES.md 1.3): the one table of them, which the deal's C
#: core reads too.
RANK_POINTS: Final = (0, 0, 0, 0, 2, 3, 4, 10, 11)
#: The deck's card points (RULES.md 1.3): 120.
DECK_POINTS: Final = 4 * sum(RANK_POINTS)
#: Half the deck's card points, 60: a team that takes more has the victory point (RULES.md
#: 5.1, which the engine's deal scoring applies: ``takes_victory``).
HALF_DECK_POINTS: Final = DECK_POINTS // 2
#: What a marriage scores (RULES.md 4.4): 2 when it makes trumps, 1 (a little trump) after
#: (the engine's ``marriage_worth``).
TRUMP_MARRIAGE_POINTS: Final = 2
LITTLE_TRUMP_POINTS: Final = 1


class Card(int):
    """One of the 36 cards, an ``int`` whose text is its RECORD.md token (``AS``, ``TD``)."""

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        if not 0 <= value < NUM_CARDS:
            raise ValueError(f"card number out of range: {value}")
        return super().__new__(cls, value)

    __bool__ = no_truth

    @staticmethod
    def of(rank: Rank, suit: Suit) -> Card:
        return CARDS[suit * 9 + rank]

    @property
    def suit(self) -> Suit:
        return SUITS[self // 9]

    @property
    def rank(self) -> Rank:
        return RANKS[self % 9]

    @property
    def points(self) -> int:
        return RANK_POINTS[self % 9]

    @property
    def bit(self) -> int:
        return 1 << self

    def __str__(self) -> str:
        return RANK_CHARS[self % 9] + "SHDC"[self // 9]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def unicode(self) -> str:
        """Display form: ``A♠``, ``10♦``."""
        rank = "10" if self % 9 == Rank.TEN else RANK_CHARS[self % 9]
        return rank + "♠♥♦♣"[self // 9]

    @staticmethod
    def parse(text: str) -> Card:
        """Parse ``AS``, ``td``, ``10d`` (or ``A♠``); ``ValueError`` names the bad text."""
        t = text_of(text, "a card").strip().upper()
        if len(t) >= 2:
            rank_text, suit_text = t[:-1], t[-1]
            rank_text = "T" if rank_text == "10" else rank_text
            suit_text = _SUIT_SYMBOLS.get(suit_text, suit_text)
            r = RANK_CHARS.find(rank_text) if len(rank_text) == 1 else -1
            s = "SHDC".find(suit_text)
            if r >= 0 and s >= 0:
                return CARDS[s * 9 + r]
        raise ValueError(not_a_card_text(text))


def unknown_seat_text(text: str) -> str:
    """``Seat.parse``'s English for ``text``, which is no seat."""
    return f"unknown seat {reprlib.repr(text)} (seats are N, E, S, W)"


def not_a_card_text(text: str) -> str:
    """``Card.parse``'s English for ``text``, which is no card."""
    return (
        f"not a card: {reprlib.repr(text)} (write rank then suit, e.g. AS, TD, 10d; "
        "ranks A T K Q J 9 8 7 6, suits S H D C)"
    )


CARDS: Final = tuple(Card(i) for i in range(NUM_CARDS))
SEATS: Final = tuple(Seat)
TEAMS: Final = tuple(Team)
SUITS: Final = tuple(Suit)
RANKS: Final = tuple(Rank)


class CardSet:
    """An immutable set of cards held as a 36-bit mask.

    Iterates in display order: suits S H D C, high card first within a suit.
    """

    __slots__ = ("mask",)
    mask: int

    def __init__(self, cards: int | Iterable[int] = 0) -> None:
        if isinstance(cards, int):
            if cards & ~FULL_DECK:
                raise ValueError(f"not a card-set mask: {cards:#x}")
            mask = cards
        else:
            mask = 0
            for c in cards:
                mask |= 1 << Card(c)
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __reduce__(self) -> tuple[type[CardSet], tuple[int]]:
        return (CardSet, (self.mask,))

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> CardSet:
        """From tokens, as one string (``"AS TD 10c"``) or a list of them."""
        if isinstance(text, str):
            return cls(Card.parse(t) for t in text.replace(",", " ").split())
        if not isinstance(text, Iterable):
            raise TypeError(f"cards must be given as text or tokens, not {type(text).__name__}")
        return cls(Card.parse(t) for t in text)

    def __iter__(self) -> Iterator[Card]:
        for suit in range(4):
            for rank in range(8, -1, -1):
                i = suit * 9 + rank
                if self.mask >> i & 1:
                    yield CARDS[i]

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < NUM_CARDS and bool(self.mask >> card & 1)

    def __bool__(self) -> bool:
        return self.mask != 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(("CardSet", self.mask))

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def suit(self, suit: Suit) -> CardSet:
        """The cards of one suit."""
        return CardSet(self.mask & suit.mask)

    @property
    def points(self) -> int:
        return sum(c.points for c in self)

    def tokens(self) -> list[str]:
        return [str(c) for c in self]

    def __str__(self) -> str:
        return " ".join(self.tokens())

    def unicode(self) -> str:
        return " ".join(c.unicode() for c in self)

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"
