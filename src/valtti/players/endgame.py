"""The heuristic player's count of the last tricks: the rest of the deal played out, as a club
player counts cards.

Over sets of hidden hands that agree with everything seen (every possible set in the last two
tricks, a few drawn at random before), each card the player may play is followed to the end of
the deal, the player taking its best card later and the others any legal card alike (no
declarations), and each finished deal is weighed by the standing it leaves the team in
(``outlook.Outlook.standing``). That plays the last trick (keep a winner for it, or a loser when
it is not wanted) and the victory point exactly (``players.heuristic``).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from typing import Final

from valtti.engine import CardSet, Deal, Seat, score_deal
from valtti.players.odds import Odds, cards_of
from valtti.players.outlook import Outlook
from valtti.players.sampler import Hands, Sampler
from valtti.players.worlds import rebuild

#: The sets of hidden hands drawn, by trick (in the last two tricks: every possible set).
_WORLDS: Final = {5: 12, 6: 12, 7: 6}


def _splits(cards: int, seats: list[tuple[Seat, int, int]]) -> Iterator[dict[Seat, CardSet]]:
    """Every way to give each (seat, possible cards, count) its count of ``cards``."""
    if not seats:
        if not cards:
            yield {}
        return
    (seat, possible, count), rest = seats[0], seats[1:]
    for chosen in itertools.combinations(cards_of(cards & possible), count):
        mask = sum(1 << c for c in chosen)
        for hands in _splits(cards & ~mask, rest):
            hands[seat] = CardSet(mask)
            yield hands


def count_out(
    odds: Odds, outlook: Outlook, cards: Sequence[int], rng: random.Random
) -> list[float]:
    """For each of ``cards``, the expected standing after the deal when it is played now, in
    the last tricks (from trick 5 on): counted over the hands the others may hold (all of them
    in the last two tricks, a few drawn at random before), this player taking its best card
    later, the others any legal card alike (no declarations)."""
    obs = odds.obs
    me = odds.me
    hidden = [s for s in Seat if s != me]
    worlds: list[Hands] = []
    if odds.number >= 8:
        seats = [(s, odds.possible[s], odds.sizes[s]) for s in hidden]
        for split in _splits(odds.unseen, seats):
            split[me] = obs.hand
            hands = (split[Seat.N], split[Seat.E], split[Seat.S], split[Seat.W])
            if odds.knowledge.consistent(hands):
                worlds.append(hands)
    else:
        sampler = Sampler(odds.knowledge)
        worlds = [sampler.sample(rng) for _ in range(_WORLDS[odds.number])]
    before = obs.score or (0, 0)
    totals = [0.0] * len(cards)
    counted = 0
    # Every card the others may play is followed from trick 7 when counting from there, from
    # trick 8 when counting from earlier (before, one is drawn: the tree would be too big).
    exact = 7 if odds.number == 7 else 8
    for hands in worlds:
        try:
            deal = rebuild(obs, hands)
        except ValueError:
            continue  # the replay shows these hands cannot be
        counted += 1
        for i, card in enumerate(cards):
            after = deal.copy()
            after.apply(card)
            totals[i] += _expected(after, me, outlook, before, exact, rng)
    return [total / max(1, counted) for total in totals]


def _expected(
    deal: Deal,
    me: Seat,
    outlook: Outlook,
    before: tuple[int, int],
    exact: int,
    rng: random.Random,
) -> float:
    """The expected standing after ``deal``: ``me``'s best, the others' average (from trick
    ``exact`` on; before it one card drawn at random)."""
    if deal.is_over():
        scored = score_deal(before, deal.result(), deal.variant)
        return outlook.standing(scored.after, scored.outcome)
    plays = [a for a in deal.legal_actions() if a < 36]
    if deal.current_player != me and deal.tricks_played + 1 < exact:
        plays = [plays[rng.randrange(len(plays))]]
    values = []
    for action in plays:
        branch = deal.copy()
        branch.apply(action)
        values.append(_expected(branch, me, outlook, before, exact, rng))
    if deal.current_player == me:
        return max(values)
    return sum(values) / len(values)
