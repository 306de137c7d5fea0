"""Hidden hands drawn uniformly from every assignment that agrees with what one seat knows.

``python tools/sampler_bench.py`` measures the draw rate on random positions.
"""

from __future__ import annotations

import itertools
import math
import random
from abc import ABC, abstractmethod
from bisect import bisect_right

from valtti.engine import CardSet, Observation, Seat
from valtti.players.knowledge import Knowledge, PairConstraint, infer

Hands = tuple[CardSet, CardSet, CardSet, CardSet]
Split = tuple[int, int, int]  #: cards given to each of the three hidden seats, in seat order


def _pack(split: Split) -> int:
    """Three counts (at most 36 each) as one int: a cheap key; a smaller split subtracts."""
    return split[0] << 12 | split[1] << 6 | split[2]


class _Group(ABC):
    """Unseen cards dealt together, and the ways they may split among the hidden seats."""

    def __init__(self, size: int, splits: list[tuple[Split, int]]) -> None:
        self.size = size
        #: per option: the split, and how many card-by-card assignments make it
        self.splits = splits

    @abstractmethod
    def deal(self, hands: list[int], option: int, index: int, rng: random.Random) -> None:
        """Add the cards to ``hands`` split as option number ``option`` says, drawing one of its
        assignments uniformly; ``index`` is uniform below its number of assignments."""

    @abstractmethod
    def place(self, hands: list[int], option: int, index: int) -> None:
        """Add the cards to ``hands`` as assignment number ``index`` of option ``option``:
        each of its assignments once as ``index`` runs below their number."""


class _Block(_Group):
    """K and Q tied by constraints: their allowed placements, listed per split."""

    def __init__(self, size: int, placements: dict[Split, list[tuple[tuple[int, int], ...]]]):
        super().__init__(size, [(split, len(p)) for split, p in placements.items()])
        #: per option: its placements, each as (seat, cards mask) pairs
        self.placements = list(placements.values())

    def deal(self, hands: list[int], option: int, index: int, rng: random.Random) -> None:
        self.place(hands, option, index)

    def place(self, hands: list[int], option: int, index: int) -> None:
        for seat, mask in self.placements[option][index]:
            hands[seat] |= mask


class _Loose(_Group):
    """Cards that the same hidden seats may hold, each as well as the others."""

    def __init__(self, cards: list[int], seats: tuple[Seat, ...], need: dict[Seat, int]):
        """``need``: the cards each hidden seat still needs, which no split may exceed."""
        self.cards = [1 << c for c in cards]
        self.mask = sum(self.cards)
        splits: list[tuple[Split, int]] = []
        #: per option: (seat, count) to draw at random, and the seat that takes the rest
        self.cuts: list[tuple[tuple[tuple[Seat, int], ...], int, Seat]] = []
        #: per option: each seat with its count, in seat order
        self.counts: list[tuple[tuple[Seat, int], ...]] = []
        hidden = list(need)  # the hidden seats, in seat order
        for counts in _compositions(len(cards), [need[s] for s in seats]):
            split = [0, 0, 0]
            for seat, n in zip(seats, counts, strict=True):
                split[hidden.index(seat)] = n
            ways = math.factorial(len(cards))
            for n in counts:
                ways //= math.factorial(n)
            splits.append(((split[0], split[1], split[2]), ways))
            self.counts.append(tuple(zip(seats, counts, strict=True)))
            # The seat with the most cards takes what the others leave: fewer random draws.
            *drawn, (most, last) = sorted(zip(counts, seats, strict=True))
            self.cuts.append((tuple((seat, n) for n, seat in drawn), len(cards) - most, last))
        super().__init__(len(cards), splits)

    def deal(self, hands: list[int], option: int, index: int, rng: random.Random) -> None:
        cuts, drawn, last = self.cuts[option]
        rest = self.mask
        if drawn:
            picked = rng.sample(self.cards, drawn)
            at = 0
            for seat, n in cuts:
                part = sum(picked[at : at + n])
                hands[seat] |= part
                rest ^= part
                at += n
        hands[last] |= rest

    def place(self, hands: list[int], option: int, index: int) -> None:
        # The index read as mixed-radix digits, one a seat: which of its combinations it takes.
        left = list(self.cards)
        for seat, n in self.counts[option]:
            index, rank = divmod(index, math.comb(len(left), n))
            taken = _combination(len(left), n, rank)
            hands[seat] |= sum(left[i] for i in taken)
            left = [card for i, card in enumerate(left) if i not in taken]


def _combination(size: int, count: int, rank: int) -> set[int]:
    """The combination of ``count`` of ``size`` positions numbered ``rank`` (below
    ``comb(size, count)``), in the combinatorial number system."""
    taken: set[int] = set()
    for position in range(size):
        if count == 0:
            break
        with_it = math.comb(size - position - 1, count - 1)
        if rank < with_it:
            taken.add(position)
            count -= 1
        else:
            rank -= with_it
    return taken


class Sampler:
    """Deals the unseen cards uniformly over all hands that ``knowledge.consistent`` accepts.

    The unseen cards not known to be anywhere fall into groups: the K and Q tied together by
    constraints form blocks whose allowed placements are listed, the other cards group by the
    seats that may hold them. The number of worlds that complete the hands from group k on,
    with the hidden seats still needing some cards, is a sum over the ways group k may split;
    the constructor counts them once. ``sample`` then reads one random integer below the total
    as a world, group by group, and shuffles each group's cards among its seats. Exact: no
    rejection, no approximation. ``ValueError`` if no world agrees with the knowledge.
    """

    def __init__(self, knowledge: Knowledge) -> None:
        self.knowledge = knowledge
        self._hidden = tuple(s for s in Seat if s != knowledge.observer)
        self._base = [h.mask for h in knowledge.known]
        free = knowledge.unseen.mask & ~(self._base[0] | self._base[1] | self._base[2])
        free &= ~self._base[3]
        need = {s: knowledge.hand_sizes[s] - len(knowledge.known[s]) for s in self._hidden}
        tied = self._tied(free)
        self._groups: list[_Group] = [self._block(mask, ties) for mask, ties in tied]
        self._groups += self._loose(free & ~sum(mask for mask, _ in tied), need)
        self._left = [sum(g.size for g in self._groups[i:]) for i in range(len(self._groups))]
        #: per group, per packed need of the hidden seats: where each option's worlds start
        #: among the state's, and the options that lead to any world (number, ways, packed)
        self._levels: list[dict[int, tuple[list[int], list[tuple[int, int, int]]]]] = [
            {} for _ in self._groups
        ]
        self._totals: list[dict[int, int]] = [{} for _ in self._groups]
        start = (need[self._hidden[0]], need[self._hidden[1]], need[self._hidden[2]])
        self._start = _pack(start)
        #: The number of hand assignments consistent with the knowledge.
        self.count = self._ways(0, start)
        if not self.count:
            raise ValueError("no hidden hands agree with this knowledge")

    def sample(self, rng: random.Random) -> Hands:
        """Hands now, N E S W: the observer's, and the hidden ones drawn uniformly."""
        hands = self._base.copy()
        r = rng.randrange(self.count)
        state = self._start
        for group, level in zip(self._groups, self._levels, strict=True):
            starts, options = level[state]
            j = bisect_right(starts, r) - 1
            option, ways, packed = options[j]
            # r is uniform below ways times the worlds after this split: read it as both.
            r, index = divmod(r - starts[j], ways)
            state -= packed
            group.deal(hands, option, index, rng)
        return (CardSet(hands[0]), CardSet(hands[1]), CardSet(hands[2]), CardSet(hands[3]))

    def world(self, number: int) -> Hands:
        """The consistent hands numbered ``number``, below ``count``: each once as ``number``
        runs over them (``sample`` is a uniform draw of them, not numbered the same)."""
        if not 0 <= number < self.count:
            raise ValueError(f"world number {number} is not below {self.count}")
        hands = self._base.copy()
        state = self._start
        for group, level in zip(self._groups, self._levels, strict=True):
            starts, options = level[state]
            j = bisect_right(starts, number) - 1
            option, ways, packed = options[j]
            number, index = divmod(number - starts[j], ways)
            state -= packed
            group.place(hands, option, index)
        return (CardSet(hands[0]), CardSet(hands[1]), CardSet(hands[2]), CardSet(hands[3]))

    def _ways(self, level: int, need: Split) -> int:
        """The worlds completing the hands from group ``level`` on when the seats still ``need``."""
        if level == len(self._groups):
            return 1 if need == (0, 0, 0) else 0
        key = _pack(need)
        totals = self._totals[level]
        if key not in totals:
            starts: list[int] = []
            options: list[tuple[int, int, int]] = []
            total = 0
            if sum(need) == self._left[level]:
                for option, (split, ways) in enumerate(self._groups[level].splits):
                    rest = (need[0] - split[0], need[1] - split[1], need[2] - split[2])
                    after = self._ways(level + 1, rest) if min(rest) >= 0 else 0
                    if after:
                        starts.append(total)
                        options.append((option, ways, _pack(split)))
                        total += ways * after
            self._levels[level][key] = (starts, options)
            totals[key] = total
        return totals[key]

    def _may_hold(self, card: int) -> tuple[Seat, ...]:
        return tuple(s for s in self._hidden if card in self.knowledge.possible[s])

    def _tied(self, free: int) -> list[tuple[int, list[PairConstraint]]]:
        """The free cards that constraints tie together, in blocks sharing no card."""
        blocks: list[tuple[int, list[PairConstraint]]] = []
        for tie in self.knowledge.constraints:
            mask = tie.cards.mask & free
            joined = [b for b in blocks if b[0] & mask]
            blocks = [b for b in blocks if not b[0] & mask]
            mask |= sum(other for other, _ in joined)
            blocks.append((mask, [tie, *(t for _, joined_ties in joined for t in joined_ties)]))
        return blocks

    def _block(self, mask: int, ties: list[PairConstraint]) -> _Block:
        """Every placement of the cards of ``mask`` that satisfies ``ties``, by split."""
        cards = _cards(mask)
        by_split: dict[Split, list[tuple[tuple[int, int], ...]]] = {}
        for owners in itertools.product(*(self._may_hold(c) for c in cards)):
            placed = [0, 0, 0, 0]
            for card, seat in zip(cards, owners, strict=True):
                placed[seat] |= 1 << card
            if all(t.holds(CardSet(self._base[t.seat] | placed[t.seat])) for t in ties):
                a, b, c = (placed[s].bit_count() for s in self._hidden)
                by_split.setdefault((a, b, c), []).append(
                    tuple((s, placed[s]) for s in self._hidden if placed[s])
                )
        return _Block(len(cards), by_split)

    def _loose(self, free: int, need: dict[Seat, int]) -> list[_Group]:
        by_seats: dict[tuple[Seat, ...], list[int]] = {}
        for card in _cards(free):
            by_seats.setdefault(self._may_hold(card), []).append(card)
        return [_Loose(cards, seats, need) for seats, cards in by_seats.items()]


def _cards(mask: int) -> list[int]:
    return [c for c in range(36) if mask >> c & 1]


def _compositions(total: int, caps: list[int]) -> list[tuple[int, ...]]:
    """Every way to write ``total`` as an ordered sum of counts from 0 up to ``caps``."""
    if not caps:
        return [()] if total == 0 else []
    return [
        (n, *rest)
        for n in range(min(total, caps[0]) + 1)
        for rest in _compositions(total - n, caps[1:])
    ]


def sample_hands(observation: Observation, rng: random.Random) -> Hands:
    """One uniform draw of the hands now consistent with ``observation`` (N E S W).

    For many draws from one position build a ``Sampler`` once: the counting is its cost.
    """
    return Sampler(infer(observation)).sample(rng)
