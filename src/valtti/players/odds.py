"""What one observation shows about the hidden hands, as the heuristic player reads it: the
chance that a seat holds a card or none of a suit, that a card takes the trick now, and that it
takes one later in the deal.

It starts from what the play so far proves (``knowledge.infer``: cards out, voids, cards a seat
cannot or must hold) and spreads each seat's unknown cards evenly over what it may hold; the
rules make a player beat when able (RULES.md 3.2), so holding a card that beats is taken as
beating. The heuristic player (``players.heuristic``) weighs its cards by these odds.
"""

from __future__ import annotations

from typing import Final

from valtti.engine import CARDS, CardSet, Observation, Seat, Suit, beats_card, trick_winner
from valtti.players.knowledge import infer

#: Each suit's cards, as a mask.
SUITS: Final = tuple(s.mask for s in Suit)
#: Each card's card points.
POINTS: Final = tuple(card.points for card in CARDS)
#: The cards of each card's suit that beat it.
_ABOVE: Final = tuple(SUITS[c // 9] & ~((2 << c) - 1) for c in range(36))
#: How much of a card's chance to take a trick now lasts to later in the deal, without trumps
#: (they may come) and with them for the other suits (more voids to ruff into).
_DECAY: Final = (0.9, 0.85)


def cards_of(mask: int) -> list[int]:
    """The cards of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Odds:
    """The hidden hands of one observation, as chances; the trick in play, as who may take it."""

    def __init__(self, observation: Observation) -> None:
        obs = self.obs = observation
        self.me = me = obs.seat
        self.partner = me.partner
        self.team = me.team
        self.opponents = (me.left, me.partner.left)
        knowledge = self.knowledge = infer(obs)
        self.possible = tuple(c.mask for c in knowledge.possible)
        self.known = tuple(c.mask for c in knowledge.known)
        self.sizes = obs.hand_sizes
        self.hidden = [s for s in Seat if s != me]
        # Unknown cards per possible card: how densely each hidden seat holds what it may hold.
        self.density = [
            (self.sizes[s] - self.known[s].bit_count())
            / max(1, (self.possible[s] & ~self.known[s]).bit_count())
            for s in Seat
        ]
        self.hand = obs.hand.mask
        self.unseen = knowledge.unseen.mask
        self.trump = obs.trump
        trick = obs.current_trick
        self.trick_cards = trick.cards if trick is not None else ()
        self.number = trick.number if trick is not None else len(obs.tricks) + 1
        self.leading = not self.trick_cards
        self.led, self.winning, self.winner = -1, -1, me
        if trick is not None and trick.cards:
            at = trick_winner(trick.cards, self.trump)
            self.led, self.winning = trick.cards[0] // 9, trick.cards[at]
            self.winner = Seat((trick.leader + at) & 3)
        #: The seats still to play to the trick after this one.
        self.rest = [Seat((me + k) & 3) for k in range(1, 4 - len(self.trick_cards))]
        cards = self.unseen.bit_count()
        #: The card points of an unseen card, on average.
        self.average = CardSet(self.unseen).points / cards if cards else 0.0
        self._power: dict[int, float] = {}

    def average_of(self, seat: Seat) -> float:
        """The card points of a card ``seat`` may hold, on average."""
        cards = self.possible[seat].bit_count()
        return CardSet(self.possible[seat]).points / cards if cards else 0.0

    def p_none(self, seat: Seat, mask: int) -> float:
        """The chance that ``seat`` holds none of ``mask`` (its unknown cards drawn at random)."""
        if mask & self.known[seat]:
            return 0.0
        free = self.possible[seat] & ~self.known[seat]
        m = (mask & free).bit_count()
        if m == 0:
            return 1.0
        n = free.bit_count()
        h = self.sizes[seat] - self.known[seat].bit_count()
        if n - m < h:
            return 0.0
        p = 1.0
        for i in range(h):
            p *= (n - m - i) / (n - i)
        return p

    def p_holds(self, seat: Seat, card: int) -> float:
        """The chance that hidden ``seat`` holds ``card``: its share of where the card may be,
        by how many unknown cards each seat that may hold it still has."""
        bit = 1 << card
        if bit & self.known[seat]:
            return 1.0
        if not bit & self.possible[seat] or not bit & self.unseen:
            return 0.0
        total = sum(self.density[s] for s in self.hidden if bit & self.possible[s])
        return self.density[seat] / total if total else 0.0

    def p_none_of(self, seats: list[Seat], mask: int) -> float:
        """The chance that none of ``seats`` holds a card of ``mask``."""
        p = 1.0
        for card in cards_of(mask & self.unseen):
            p *= max(0.0, 1.0 - sum(self.p_holds(s, card) for s in seats))
        return p

    def p_safe(self, seats: list[Seat], winning: int, led: int) -> float:
        """The chance that none of ``seats`` takes over a trick led in ``led`` that ``winning``
        wins. The rules make a player beat when able (RULES.md 3.2), so holding a card that
        beats is taken as beating."""
        trump = self.trump
        if winning // 9 == led:
            p = self.p_none_of(seats, _ABOVE[winning])
            if trump is not None and led != trump:
                for seat in seats:
                    p *= 1.0 - self.p_none(seat, SUITS[led]) * (
                        1.0 - self.p_none(seat, SUITS[trump])
                    )
            return p
        p = 1.0
        for seat in seats:
            p *= 1.0 - self.p_none(seat, SUITS[led]) * (1.0 - self.p_none(seat, _ABOVE[winning]))
        return p

    def odds(self, card: int) -> tuple[float, float]:
        """The chances that the team, and that this player, take the trick if ``card`` is played."""
        if self.leading:
            led, winning, winner = card // 9, card, self.me
        elif beats_card(card, self.winning, self.trump):
            led, winning, winner = self.led, card, self.me
        else:
            led, winning, winner = self.led, self.winning, self.winner
        rest = self.rest
        theirs = [s for s in rest if s.team != self.team]
        if winner.team == self.team:
            team = self.p_safe(theirs, winning, led)
            if self.partner in rest and rest[0] != self.partner:
                # An opponent may beat it, and partner beat the opponent in turn.
                team += (1.0 - team) * 0.5 * (1.0 - self.p_safe([self.partner], winning, led))
        elif self.partner in rest:
            after = rest[rest.index(self.partner) + 1 :]
            team = (1.0 - self.p_safe([self.partner], winning, led)) * self.p_safe(
                after, winning, led
            )
        else:
            team = 0.0
        mine = self.p_safe(rest, winning, led) if winner == self.me else 0.0
        return team, mine

    def power(self, card: int) -> float:
        """The chance that ``card`` takes a trick later in the deal."""
        cached = self._power.get(card)
        if cached is not None:
            return cached
        p = self.p_safe(list(self.opponents), card, card // 9)
        if self.trump is None:
            p *= _DECAY[0]  # trumps may come
        elif card // 9 == self.trump:
            p += (1.0 - p) * 0.4  # a trump also takes tricks by ruffing
        else:
            p *= _DECAY[1]  # more voids to ruff into as the deal goes on
        self._power[card] = p
        return p
