"""A frozen copy of players/knowledge.py as it was before the engine published what play proves
(issue 9): the reference that the knowledge built on ``engine.constraints`` must equal.
Test code only; do not change it (its docstrings are the originals).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from valtti.engine import CardSet, Observation, Rank, Seat, Suit

_DECK: Final = (1 << 36) - 1
_ACES: Final = sum(1 << (9 * s + Rank.ACE) for s in Suit)
_CLUB_ACE: Final = 1 << (9 * Suit.C + Rank.ACE)


def marriage_mask(suit: Suit) -> int:
    """The mask of the K and Q of ``suit``."""
    return 3 << (9 * suit + Rank.QUEEN)


def _above(card: int) -> int:
    """The mask of the cards of ``card``'s suit that beat it."""
    return Suit(card // 9).mask & ~((2 << card) - 1)


@dataclass(frozen=True, slots=True)
class PairConstraint:
    """``seat`` holds a number of the two ``cards`` (the K and Q of one suit) in ``counts``.

    ``{1}`` is "exactly one" (the asker of ask-half); ``{0, 1}`` is "not both" (the partner who
    answered "no" to ask-whole). Kept only while neither card is settled for ``seat``.
    """

    seat: Seat
    cards: CardSet
    counts: frozenset[int]

    def holds(self, hand: CardSet) -> bool:
        return (hand.mask & self.cards.mask).bit_count() in self.counts


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
    """What ``observation.seat`` knows about the hands now (RULES.md 7.3, see the module)."""
    return _Inference(observation).knowledge()


class _Inference:
    """Collects the facts of one observation as masks, then settles them together."""

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.observer = obs.seat
        hand = obs.hand.mask
        self.unseen = _DECK & ~obs.played().mask & ~hand
        self.possible = [hand if s == obs.seat else self.unseen for s in Seat]
        self.known = [hand if s == obs.seat else 0 for s in Seat]
        self.sizes = obs.hand_sizes
        hidden = sum(obs.hand_sizes) - obs.hand_sizes[obs.seat]
        if obs.hand_sizes[obs.seat] != len(obs.hand) or hidden != self.unseen.bit_count():
            raise ValueError(
                f"the observation contradicts itself: hand sizes {obs.hand_sizes}, "
                f"{len(obs.hand)} cards in {obs.seat}'s hand, {self.unseen.bit_count()} unseen"
            )
        #: (seat, the pair's mask, allowed counts) about the hands now
        self.pairs: list[tuple[Seat, int, frozenset[int]]] = []
        #: card -> (seat, play number from 0): who played it and when
        self.when: dict[int, tuple[Seat, int]] = {}
        self._plays()
        self._events()
        if obs.variant.first_forehand == "club_ace_holder" and obs.score == (0, 0):
            # The match score is 0-0 only before the first deal is scored (the team that takes
            # the last trick always gains), and on the first deal the ace of clubs leads.
            self.holds(obs.forehand, _CLUB_ACE)

    # -- facts ----------------------------------------------------------------------------------

    def lacks(self, seat: Seat, mask: int) -> None:
        """``seat`` did not hold the cards of ``mask`` at some moment, so it does not now."""
        if seat != self.observer:
            self.possible[seat] &= ~mask

    def holds(self, seat: Seat, mask: int) -> None:
        """``seat`` held the cards of ``mask`` at some moment: it holds the unplayed ones now."""
        if seat != self.observer:
            self.known[seat] |= mask & self.unseen

    def pair_then(self, seat: Seat, pair: int, counts: frozenset[int], time: int) -> None:
        """Before play number ``time``, ``seat`` held a number in ``counts`` of ``pair``'s cards."""
        if seat == self.observer:
            return
        held_then = 0
        for card in _cards(pair):
            played = self.when.get(card)
            if played is not None:
                pair &= ~(1 << card)
                held_then += played[0] == seat and played[1] >= time
        self.pairs.append((seat, pair, frozenset(k - held_then for k in counts)))

    # -- the public record ----------------------------------------------------------------------

    def trump_in(self, trick: int) -> Suit | None:
        """The trumps during trick number ``trick``: the first marriage made before it."""
        for e in self.obs.events:
            if e.yes and e.after_trick < trick:
                return e.suit
        return None

    def _plays(self) -> None:
        obs = self.obs
        tricks = list(obs.tricks)
        if obs.current_trick is not None and obs.current_trick.cards:
            tricks.append(obs.current_trick)
        for trick in tricks:
            trump = self.trump_in(trick.number)
            led = trick.cards[0] // 9
            winning = trick.cards[0]
            for i, (seat, card) in enumerate(trick.plays):
                self.when[card] = (seat, 4 * (trick.number - 1) + i)
                if i == 0:
                    ace_rule = trick.number == 1 and obs.variant.first_trick_ace == "on"
                    if ace_rule and card % 9 != Rank.ACE:
                        self.lacks(seat, _ACES)  # the leader of trick 1 held no ace
                    continue
                self._follow(seat, card, led, winning, trump)
                if card // 9 == winning // 9:
                    winning = max(winning, card)
                elif card // 9 == trump:
                    winning = card

    def _follow(self, seat: Seat, card: int, led: int, winning: int, trump: Suit | None) -> None:
        """What playing ``card`` to a trick shows (RULES.md 3.2), ``winning`` winning so far."""
        suit = card // 9
        if suit == led:
            if winning // 9 == led and card < winning:
                self.lacks(seat, _above(winning))  # 3.2a: could not beat
            return
        self.lacks(seat, Suit(led).mask)  # could not follow
        if trump is None or led == trump:
            return
        variant = self.obs.variant
        if suit != trump:
            if winning // 9 != trump or variant.must_trump_if_cannot_overtrump:
                self.lacks(seat, trump.mask)  # 3.2b: could not trump
            else:
                self.lacks(seat, _above(winning))  # could not overtrump, so need not trump
        elif winning // 9 == trump and card < winning and variant.must_overtrump:
            self.lacks(seat, _above(winning))  # trumped under: could not overtrump

    def _events(self) -> None:
        locked: set[Seat] = set()
        declared: set[Suit] = set()
        for e in self.obs.events:
            partner = e.seat.partner
            time = 4 * e.after_trick
            if e.how == "declare":
                assert e.suit is not None
                self.holds(e.seat, marriage_mask(e.suit))
            elif e.how == "ask-whole":
                if e.yes:
                    assert e.suit is not None
                    self.holds(partner, marriage_mask(e.suit))
                elif partner not in locked:
                    for suit in set(Suit) - declared:
                        self.pair_then(partner, marriage_mask(suit), frozenset((0, 1)), time)
                locked.add(e.seat)
            else:
                assert e.suit is not None
                pair = marriage_mask(e.suit)
                # Asking needs exactly one of the two; "yes": partner had the other, "no": not.
                self.pair_then(e.seat, pair, frozenset((1,)), time)
                if e.yes:
                    for seat in Seat:
                        if seat not in (e.seat, partner):
                            self.lacks(seat, pair)
                else:
                    self.lacks(partner, pair)
                locked.update((e.seat, partner))
            if e.yes:
                assert e.suit is not None
                declared.add(e.suit)

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


def _cards(mask: int) -> list[int]:
    return [c for c in range(36) if mask >> c & 1]
