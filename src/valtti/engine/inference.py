"""What the public record proves about the hands now (RULES.md 7.3), from any seat's observation.

A play proves what the tiers of RULES.md 3.2 that decide legality say (``play_shows``): a
void, no trumps, no card that beats, the first-trick ace. Section 4 proves the rest: ``declare``
and a "yes" to ask-whole show the K+Q of the suit; a "no" to ask-whole shows that an unlocked
partner held no undeclared K+Q; ask-half shows that the asker held exactly one of the pair,
its "yes" that the others hold neither, its "no" that the partner holds neither. On a match's
first deal with ``first_forehand=club_ace_holder`` the forehand held the ace of clubs.

A fact about a hand at some moment is a fact about its cards still unplayed, since cards only
leave a hand. Every fact is public: the seats' observations of one position give the same
constraints (while a partner chooses which marriage to name, the others observe the deal before
the ask-whole, RULES.md 7.2). What the observer's own hand adds is the player's to settle.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from valtti.engine._deal import marriage_suits, play_shows
from valtti.engine.cards import FULL_DECK, CardSet, Rank, Seat, Suit
from valtti.engine.observation import Observation
from valtti.engine.views import Event

_CLUB_ACE: Final = 1 << (9 * Suit.C + Rank.ACE)


@dataclass(frozen=True, slots=True)
class PairConstraint:
    """``seat`` holds a number of the ``cards`` (of the K and Q of one suit) in ``counts``.

    ``{1}`` is "exactly one" (the asker of ask-half); ``{0, 1}`` is "not both" (the partner who
    answered "no" to ask-whole).
    """

    seat: Seat
    cards: CardSet
    counts: frozenset[int]

    def holds(self, hand: CardSet) -> bool:
        return (hand.mask & self.cards.mask).bit_count() in self.counts


@dataclass(frozen=True, slots=True)
class Constraints:
    """The public constraints on the four hands now, by seat N E S W (cards not yet played)."""

    absent: tuple[CardSet, CardSet, CardSet, CardSet]  #: cards the seat cannot hold now
    present: tuple[CardSet, CardSet, CardSet, CardSet]  #: cards the seat must hold now
    #: what per-card facts cannot say, in the order of the events that showed them
    pairs: tuple[PairConstraint, ...]

    def holds(self, hands: Sequence[CardSet]) -> bool:
        """Whether the four hands now (N E S W) meet every constraint."""
        return all(
            not hand.mask & self.absent[seat].mask and not self.present[seat].mask & ~hand.mask
            for seat, hand in zip(Seat, hands, strict=True)
        ) and all(p.holds(hands[p.seat]) for p in self.pairs)


def constraints(observation: Observation) -> Constraints:
    """The public constraints on the hands at ``observation`` (see the module)."""
    return _Proof(observation).constraints()


def whole_answer_is_no(observation: Observation, partner: Seat) -> bool:
    """Whether ``partner`` (the observer's partner) is proven to answer "no" to an ask-whole
    now (RULES.md 4.2b): it is locked, holds fewer than two cards, or for every undeclared suit
    a card of its K+Q is played, held by the observer, proven absent from its hand, or the
    pair is proven not both there (an earlier "no" to ask-whole). Such a question cannot
    succeed; a proof stays true for the rest of the deal, since cards only leave a hand."""
    if observation.hand_sizes[partner] < 2:
        return True
    proof = constraints(observation)
    gone = observation.played().mask | observation.hand.mask | proof.absent[partner].mask
    declared = [e.suit for e in observation.events if e.yes and e.suit is not None]
    for suit in marriage_suits(FULL_DECK, partner, declared, observation.locked):
        pair = suit.marriage
        if pair & gone:
            continue
        if any(
            p.seat == partner and p.cards.mask == pair and 2 not in p.counts for p in proof.pairs
        ):
            continue
        return False
    return True


def trump_during(events: Sequence[Event], trick: int) -> Suit | None:
    """The trumps during trick number ``trick``: the first marriage made before it (4.4)."""
    for e in events:
        if e.yes and e.after_trick < trick:
            return e.suit
    return None


class _Proof:
    """Reads the public record of one observation into masks."""

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.played = obs.played().mask
        self.absent = [0, 0, 0, 0]
        self.present = [0, 0, 0, 0]
        self.pairs: list[PairConstraint] = []
        #: card -> (seat, play number from 0): who played it and when
        self.when: dict[int, tuple[Seat, int]] = {}
        self._plays()
        self._events()
        variant = obs.variant
        if variant.first_forehand == "club_ace_holder" and obs.deal_number == 1:
            self.present[obs.forehand] |= _CLUB_ACE  # the ace of clubs leads the first deal

    def constraints(self) -> Constraints:
        absent = [CardSet(m & ~self.played) for m in self.absent]
        present = [CardSet(m & ~self.played) for m in self.present]
        return Constraints(
            (absent[0], absent[1], absent[2], absent[3]),
            (present[0], present[1], present[2], present[3]),
            tuple(self.pairs),
        )

    def _plays(self) -> None:
        obs = self.obs
        tricks = list(obs.tricks)
        if obs.current_trick is not None and obs.current_trick.cards:
            tricks.append(obs.current_trick)
        for trick in tricks:
            trump = trump_during(obs.events, trick.number)
            for i, (seat, card) in enumerate(trick.plays):
                self.when[card] = (seat, 4 * (trick.number - 1) + i)
                shown = play_shows(card, trick.cards[:i], trump, trick.number, obs.variant)
                self.absent[seat] |= shown.mask

    def _pair_then(self, seat: Seat, pair: int, counts: frozenset[int], time: int) -> None:
        """Before play number ``time``, ``seat`` held a number in ``counts`` of ``pair``'s cards:
        what that says of the pair's cards still unplayed (nothing when always met)."""
        held_then = 0
        for card in range(36):
            played = self.when.get(card) if pair >> card & 1 else None
            if played is not None:
                pair &= ~(1 << card)
                held_then += played[0] == seat and played[1] >= time
        size = pair.bit_count()
        left = frozenset(k - held_then for k in counts) & frozenset(range(size + 1))
        if left == {0}:
            self.absent[seat] |= pair
        elif left == {size}:
            self.present[seat] |= pair
        elif len(left) <= size:
            self.pairs.append(PairConstraint(seat, CardSet(pair), left))

    def _events(self) -> None:
        locked: set[Seat] = set()
        declared: set[Suit] = set()
        for e in self.obs.events:
            partner = e.seat.partner
            time = 4 * e.after_trick
            if e.how == "declare":
                assert e.suit is not None
                self.present[e.seat] |= e.suit.marriage
            elif e.how == "ask-whole":
                if e.yes:
                    assert e.suit is not None
                    self.present[partner] |= e.suit.marriage
                else:
                    # Partner held no K+Q it could have named (4.2b): none of these suits'.
                    for suit in marriage_suits(FULL_DECK, partner, declared, locked):
                        self._pair_then(partner, suit.marriage, frozenset((0, 1)), time)
                locked.add(e.seat)
            else:
                assert e.suit is not None
                pair = e.suit.marriage
                # Asking needs exactly one of the two; "yes": partner had the other, "no": not.
                self._pair_then(e.seat, pair, frozenset((1,)), time)
                if e.yes:
                    for seat in Seat:
                        if seat not in (e.seat, partner):
                            self.absent[seat] |= pair
                else:
                    self.absent[partner] |= pair
                locked.update((e.seat, partner))
            if e.yes:
                assert e.suit is not None
                declared.add(e.suit)
