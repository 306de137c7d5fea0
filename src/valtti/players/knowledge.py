"""What one seat can infer about the hidden hands from its own hand and the public record.

The engine says what the public record proves (``engine.constraints``, RULES.md 7.3 read with
the variant in force): cards a seat cannot hold, cards it must hold, and how many of a K and Q
it holds. Here those facts are settled with the observer's own hand, with each other and with
the hand sizes: most end in ``Knowledge.possible`` and ``Knowledge.known``, the rest tie the K
and Q of a suit together (``PairConstraint``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from valtti.engine import CardSet, Observation, PairConstraint, Seat, Suit, constraints

__all__ = ["Knowledge", "PairConstraint", "infer", "marriage_mask"]

_DECK: Final = (1 << 36) - 1


def marriage_mask(suit: Suit) -> int:
    """The mask of the K and Q of ``suit``."""
    return suit.marriage


@dataclass(frozen=True, slots=True)
class Knowledge:
    """Everything ``observer`` can know about the hands now.

    A guess at the four hands agrees with every public fact exactly when ``consistent`` says
    so: each seat holds ``hand_sizes`` cards, between its ``known`` and its ``possible`` cards,
    the hidden seats share out ``unseen``, and every constraint holds.
    """

    observer: Seat
    unseen: CardSet  #: neither in the observer's hand nor played
    hand_sizes: tuple[int, int, int, int]
    possible: tuple[CardSet, CardSet, CardSet, CardSet]  #: the observer's: exactly its hand
    known: tuple[CardSet, CardSet, CardSet, CardSet]
    voids: tuple[frozenset[Suit], ...]  #: per seat, the suits none of its possible cards are in
    constraints: tuple[PairConstraint, ...]

    def consistent(self, hands: Sequence[CardSet]) -> bool:
        """Whether the four hands now (N E S W) agree with everything the observer knows."""
        if len(hands) != 4:
            return False
        held = 0
        for seat, hand in zip(Seat, hands, strict=True):
            mask = hand.mask
            if (
                len(hand) != self.hand_sizes[seat]
                or mask & held
                or mask & ~self.possible[seat].mask
                or self.known[seat].mask & ~mask
            ):
                return False
            held |= mask
        if held != self.unseen.mask | self.known[self.observer].mask:
            return False
        return all(c.holds(hands[c.seat]) for c in self.constraints)


def infer(observation: Observation) -> Knowledge:
    """What ``observation.seat`` knows about the hands now (RULES.md 7.3, see the module).

    ``ValueError`` if the observation contradicts itself.
    """
    return _Inference(observation).knowledge()


class _Inference:
    """The engine's constraints and the observer's hand as masks, settled together.

    Pair constraints are kept only while neither card is settled for their seat.
    """

    def __init__(self, obs: Observation) -> None:
        self.observer = obs.seat
        hand = obs.hand.mask
        self.unseen = _DECK & ~obs.played().mask & ~hand
        self.sizes = obs.hand_sizes
        hidden = sum(obs.hand_sizes) - obs.hand_sizes[obs.seat]
        if obs.hand_sizes[obs.seat] != len(obs.hand) or hidden != self.unseen.bit_count():
            raise ValueError(
                f"the observation contradicts itself: hand sizes {obs.hand_sizes}, "
                f"{len(obs.hand)} cards in {obs.seat}'s hand, {self.unseen.bit_count()} unseen"
            )
        public = constraints(obs)
        self.possible = [
            hand if s == obs.seat else self.unseen & ~public.absent[s].mask for s in Seat
        ]
        self.known = [hand if s == obs.seat else public.present[s].mask & self.unseen for s in Seat]
        #: (seat, the pair's mask, allowed counts) about the hands now
        self.pairs: list[tuple[Seat, int, frozenset[int]]] = [
            (p.seat, p.cards.mask, p.counts) for p in public.pairs if p.seat != obs.seat
        ]

    # -- settling -------------------------------------------------------------------------------

    def knowledge(self) -> Knowledge:
        self._settle()
        possible = tuple(CardSet(m) for m in self.possible)
        known = tuple(CardSet(m) for m in self.known)
        return Knowledge(
            observer=self.observer,
            unseen=CardSet(self.unseen),
            hand_sizes=self.sizes,
            possible=(possible[0], possible[1], possible[2], possible[3]),
            known=(known[0], known[1], known[2], known[3]),
            voids=tuple(
                frozenset(s for s in Suit if not self.possible[seat] & s.mask) for seat in Seat
            ),
            constraints=tuple(
                PairConstraint(seat, CardSet(pair), counts) for seat, pair, counts in self.pairs
            ),
        )

    def _settle(self) -> None:
        """Draw every consequence the facts have for single cards, until none is new."""
        while True:
            before = (self.possible.copy(), self.known.copy(), self.pairs.copy())
            for seat in Seat:
                if seat != self.observer:
                    self._settle_seat(seat)
            anywhere = self.possible[0] | self.possible[1] | self.possible[2] | self.possible[3]
            if self.unseen & ~anywhere:
                raise ValueError("the observation leaves an unseen card no seat can hold")
            self.pairs = [q for p in self.pairs if (q := self._settle_pair(*p)) is not None]
            if before == (self.possible, self.known, self.pairs):
                return

    def _settle_seat(self, seat: Seat) -> None:
        """Cards known elsewhere are not here, cards possible nowhere else are; and the size."""
        elsewhere_known = elsewhere_possible = 0
        for other in Seat:
            if other != seat:
                elsewhere_known |= self.known[other]
                elsewhere_possible |= self.possible[other]
        self.possible[seat] &= ~elsewhere_known
        self.known[seat] |= self.possible[seat] & ~elsewhere_possible
        room = self.possible[seat].bit_count()
        known = self.known[seat].bit_count()
        if room < self.sizes[seat] or known > self.sizes[seat]:
            raise ValueError(f"the observation contradicts itself about {seat}'s hand")
        if room == self.sizes[seat]:
            self.known[seat] = self.possible[seat]
        elif known == self.sizes[seat]:
            self.possible[seat] = self.known[seat]

    def _settle_pair(
        self, seat: Seat, pair: int, counts: frozenset[int]
    ) -> tuple[Seat, int, frozenset[int]] | None:
        """Apply what a pair constraint settles; what is left of it to check, if anything."""
        inside = self.known[seat] & pair
        free = pair & self.possible[seat] & ~inside
        n = free.bit_count()
        left = frozenset(k - inside.bit_count() for k in counts) & frozenset(range(n + 1))
        if not left:
            raise ValueError(f"the observation contradicts itself about {seat}'s K and Q")
        if left == {0}:
            self.possible[seat] &= ~free
        elif left == {n}:
            self.known[seat] |= free
        elif len(left) < n + 1:
            return (seat, free, left)  # two free cards: per-card sets cannot say this
        return None
