"""What the public record proves about the hands now (RULES.md 7.3), from any seat's observation.

The proofs are the engine's C (``prove`` in ``_proofs.pxi``, which the heuristic player reads
too); here they are given to Python. A play proves what the tiers of RULES.md 3.2 that decide
legality say (``play_shows``): a void, no trumps, no card that beats, the first-trick ace.
Section 4 proves the rest: ``declare`` and a "yes" to ask-whole show the K+Q of the suit; a
"no" to ask-whole shows that an unlocked partner held no undeclared K+Q; ask-half shows that the
asker held exactly one of the pair, its "yes" that the others hold neither, its "no" that the
partner holds neither. On a match's first deal with ``first_forehand=club_ace_holder`` the
forehand held the ace of clubs.

A fact about a hand at some moment is a fact about its cards still unplayed, since cards only
leave a hand. Every fact is public: the seats' observations of one position give the same
constraints (while a partner chooses which marriage to name, the others observe the deal before
the ask-whole, RULES.md 7.2). What the observer's own hand adds is the player's to settle.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from valtti.engine._deal import marriage_suits, proof_of
from valtti.engine.cards import FULL_DECK, CardSet, Seat
from valtti.engine.observation import Observation


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
    """The public constraints on the hands at ``observation`` (see the module); ``ValueError``
    if the observation contradicts itself."""
    absent, present, pairs = proof_of(observation)
    return Constraints(
        (CardSet(absent[0]), CardSet(absent[1]), CardSet(absent[2]), CardSet(absent[3])),
        (CardSet(present[0]), CardSet(present[1]), CardSet(present[2]), CardSet(present[3])),
        tuple(
            PairConstraint(
                Seat(seat), CardSet(cards), frozenset(k for k in range(3) if counts >> k & 1)
            )
            for seat, cards, counts in pairs
        ),
    )


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
