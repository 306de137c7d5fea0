"""The heuristic player: a good club player's rules of thumb, from the observation alone.

It reads what the play so far shows about the hidden hands (``knowledge.infer``: cards out,
voids, cards a seat cannot or must hold), turns that into rough odds that a card takes its trick,
and weighs every legal card in card points: what the trick brings, the trick-taking power a card
keeps for later, and the declaration window a won trick opens. The rules of thumb follow from
those weights: win cheaply, let a partner's sure trick stand and give it points, throw low when
the trick is lost, cash sure winners, lead from length, draw trumps when strong in them, keep
marriage cards. At a window it declares a marriage at once (trumps in its strongest suit), asks
whole when it holds none, asks half when partner may hold the other card, each by the chance of
"yes" against what the locks break.

From trick 5 on it counts the rest of the deal out, as a club player counts cards: over sets of
hidden hands drawn to agree with everything seen, it follows each card it may play to the end of
the deal, taking its own best card later, and keeps the one that leaves the team best placed.
That plays the last trick (keep a winner for it, or a loser when it is not wanted) and the
victory point exactly.

The match score sets what a deal is worth (RULES.md 6): near the target the player aims at
exactly the game points it needs (more send the team back to ``overshoot_to``), leaving the
victory point or the last trick to the other team when it must, and it plays to take at least
one trick.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from valtti.engine import (
    CARDS,
    DECK_POINTS,
    HALF_DECK_POINTS,
    LITTLE_TRUMP_POINTS,
    Action,
    ActionKind,
    CardSet,
    Deal,
    Observation,
    Outcome,
    Phase,
    Rank,
    Seat,
    Suit,
    Team,
    beats_card,
    marriage_suits,
    marriage_worth,
    match_score_after,
    score_deal,
    takes_victory,
    trick_winner,
    window_actions,
)
from valtti.engine.cards import FULL_DECK
from valtti.players.base import Player
from valtti.players.knowledge import infer
from valtti.players.sampler import Hands, Sampler
from valtti.players.worlds import rebuild

_SUITS: Final = tuple(s.mask for s in Suit)
_POINTS: Final = tuple(card.points for card in CARDS)
#: The cards of each card's suit that beat it.
_ABOVE: Final = tuple(_SUITS[c // 9] & ~((2 << c) - 1) for c in range(36))
_MARRIAGES: Final = tuple(s.marriage for s in Suit)
_TOP: Final = (1 << Rank.ACE) | (1 << Rank.TEN)  # within a suit: its checkmaters

#: Card points one game point is worth when the match is far from the target.
_GAME_POINT: Final = 40.0
#: How much nearer a team's chance of the match is per game point nearer the target.
_STEP: Final = 0.04
#: What a drawn match is worth (a win is 1, a loss 0): the player plays to win.
_DRAW: Final = 0.25
#: The chances of the last trick without and with the victory point, by the aims (play for the
#: victory point, play for the last trick), as measured in play against the random player: the
#: two go together, since both come from taking tricks.
_LAST_ODDS: Final = {
    (1, 1): (0.52, 0.86),
    (1, 0): (0.33, 0.66),
    (0, 1): (0.34, 0.41),
    (0, 0): (0.19, 0.43),
}
#: Share of the card points still out the team takes when shedding them and when playing for them,
#: and the spread of its card points at the end per square root of the points still out.
_SHARE: Final = (0.455, 0.59)
_SPREAD: Final = 2.1
#: How much of a card's chance to take a trick now lasts to later in the deal, without trumps
#: (they may come) and with them for the other suits (more voids to ruff into).
_DECAY: Final = (0.9, 0.85)
#: From this trick on the player counts the rest of the deal out (``_Judge.endgame``), over
#: this many sets of hidden hands drawn by trick (in the last two tricks: every possible set).
_COUNTED: Final = 5
_WORLDS: Final = {5: 12, 6: 12, 7: 6}
#: The chance that a marriage held now is made later in the deal.
_LATER: Final = 0.6
#: How much better in standing new aims must be before they replace those of the deal's start.
_MARGIN: Final = 0.03


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _suits(actions: Sequence[Action], kind: ActionKind) -> list[Suit]:
    """The suits of the actions of one kind."""
    return [a.suit for a in actions if a.kind is kind and a.suit is not None]


def _normal(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _bell(x: float) -> float:
    return math.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)


def _splits(cards: int, seats: list[tuple[Seat, int, int]]) -> Iterator[dict[Seat, CardSet]]:
    """Every way to give each (seat, possible cards, count) its count of ``cards``."""
    if not seats:
        if not cards:
            yield {}
        return
    (seat, possible, count), rest = seats[0], seats[1:]
    for chosen in itertools.combinations(_cards(cards & possible), count):
        mask = sum(1 << c for c in chosen)
        for hands in _splits(cards & ~mask, rest):
            hands[seat] = CardSet(mask)
            yield hands


@dataclass(frozen=True, slots=True)
class _Plan:
    """What the team plays for in the rest of the deal.

    ``points``: what one card point is worth now, in card points far from the target: what it
    adds to the chance of the victory point (over half the card points) times what that is
    worth when the last
    trick goes as aimed; 0 once the victory point is settled, negative when it would overshoot.
    """

    value: float  #: the expected standing in the match, 0 (lost) to 1 (won)
    points: float


class _Outlook:
    """The match around the deal: the team's standing as a function of the points it makes.

    What a deal's points do to the match is the engine's (``match_score_after``: Porvoo,
    overshoot, the target, a draw); the standing is 1 when the team has won, 0 when the other
    team has, ``_DRAW`` for a draw, and otherwise leans by ``_STEP`` per game point of distance
    between the scores. Aims are whether to play for the victory point and for the last trick,
    or to leave them.
    """

    def __init__(self, observation: Observation, team: Team) -> None:
        self.variant = observation.variant
        self.team = team
        self.score = observation.score or (0, 0)
        result = observation.result
        self.marriages = result.marriage_points
        ours, theirs = result.card_points[team], result.card_points[team.other]
        #: Whether the victory point is decided: taken, or out of reach.
        self.settled = takes_victory(ours) or not takes_victory(DECK_POINTS - theirs)
        won = 1.0 if takes_victory(ours) else 0.0
        #: By aim (0 shed card points, 1 take them): the chance of the victory point now and at
        #: the start of the deal, and what one card point more adds to it now.
        self.victory, self.density = ((won, won), (0.0, 0.0))
        self.prior = self.victory
        if not self.settled:
            self.victory, self.density = self._victory(ours, DECK_POINTS - ours - theirs)
            self.prior, _ = self._victory(0, DECK_POINTS)
        #: ``_after`` by its arguments: the same few outcomes are weighed over and over.
        self._afters: dict[tuple[int, int, int], float] = {}

    @staticmethod
    def _victory(ours: int, left: int) -> tuple[tuple[float, float], tuple[float, float]]:
        """The chances of the victory point (more than half the card points) when shedding
        them and when taking them, and their rise per card point, with ``ours`` taken and
        ``left`` still out."""
        spread = _SPREAD * math.sqrt(left) + 1.0
        shed, take = ((ours + share * left - (HALF_DECK_POINTS + 0.5)) / spread for share in _SHARE)
        return (_normal(shed), _normal(take)), (_bell(shed) / spread, _bell(take) / spread)

    def standing(self, after: tuple[int, int], outcome: Outcome) -> float:
        """The standing when the match score becomes ``after`` (by team) with ``outcome``, as
        the engine scores a deal (``match_score_after``)."""
        if outcome == "draw":
            return _DRAW
        if outcome is not None:
            return 1.0 if outcome == self.team.name else 0.0
        return 0.5 + _STEP * (after[self.team] - after[self.team.other])

    def _after(self, extra: int, victory: int, last: int) -> float:
        """The standing when the team makes ``extra`` marriage points and the victory and last
        trick go as given (each to the other team when not to this one), both teams taking a
        trick."""
        key = (extra, victory, last)
        standing = self._afters.get(key)
        if standing is None:
            team = self.team
            points = [0, 0]
            points[team] = self.marriages[team] + extra + victory + last
            points[team.other] = self.marriages[team.other] + (1 - victory) + (1 - last)
            after, outcome = match_score_after(
                self.score, (points[0], points[1]), (True, True), self.variant
            )
            standing = self._afters[key] = self.standing(after, outcome)
        return standing

    def _expect(self, extra: int, p_victory: float, lasts: tuple[float, float]) -> float:
        """The expected standing; ``lasts``: the chances of the last trick without and with the
        victory point."""
        value = 0.0
        for victory, pv in ((0, 1.0 - p_victory), (1, p_victory)):
            pl = lasts[victory]
            value += pv * (
                pl * self._after(extra, victory, 1) + (1 - pl) * self._after(extra, victory, 0)
            )
        return value

    def _value(self, extra: int, more: int, aims: tuple[int, int], victory: float) -> float:
        """The expected standing with ``extra`` marriage points made and ``more`` to make."""
        lasts = _LAST_ODDS[aims]
        value = self._expect(extra + more, victory, lasts)
        if more:
            # Marriages still to make need a window, and may be broken first.
            value = _LATER * value + (1.0 - _LATER) * self._expect(extra, victory, lasts)
        return value

    def _aims(
        self, victory: tuple[float, float], extra: int, later: int
    ) -> tuple[float, tuple[int, int], int]:
        """The best (value, aims, marriage points to add)."""
        best: tuple[float, tuple[int, int], int] = (-1.0, (1, 1), 0)
        for aims in _LAST_ODDS:
            for more in range(later, -1, -1):
                value = self._value(extra, more, aims, victory[aims[0]])
                if value > best[0] + 1e-12:
                    best = (value, aims, more)
        return best

    def plan(self, extra: int, later: int) -> _Plan:
        """The best plan after making ``extra`` marriage points now, with up to ``later`` more
        marriage points the team may still choose to make in this deal.

        The aims chosen from the odds at the start of the deal stand unless the card points
        taken since make others clearly better: both partners then aim alike, and the aims do not
        sway with every trick.
        """
        value, aims, more = self._aims(self.victory, extra, later)
        _, steady_aims, steady_more = self._aims(self.prior, extra, later)
        steady = self._value(extra, steady_more, steady_aims, self.victory[steady_aims[0]])
        if value < steady + _MARGIN:
            value, aims, more = steady, steady_aims, steady_more
        points = 0.0
        if not self.settled:
            # A card point counts as much as it moves the chance of the victory point, and that
            # as much as the victory point is worth when the last trick goes as aimed.
            made = extra + more
            stake = self._after(made, 1, aims[1]) - self._after(made, 0, aims[1])
            points = stake / _STEP * self.density[aims[0]] * _GAME_POINT
        return _Plan(value, points)


class _Judge:
    """Everything one decision weighs, read from one observation."""

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
        self.declared = {e.suit for e in obs.events if e.yes and e.suit is not None}
        self.locked = obs.locked
        # The suits whose K+Q partner could still declare or name, should it hold them.
        self.partner_suits = marriage_suits(FULL_DECK, self.partner, self.declared, self.locked)
        # Pairs the partner cannot hold both cards of (a "no" to ask-whole).
        self.not_both = {
            c.cards.mask
            for c in knowledge.constraints
            if c.seat == self.partner and 2 not in c.counts
        }
        trick = obs.current_trick
        self.trick_cards = trick.cards if trick is not None else ()
        self.number = trick.number if trick is not None else len(obs.tricks) + 1
        self.leading = not self.trick_cards
        self.led, self.winning, self.winner = -1, -1, me
        if trick is not None and trick.cards:
            at = trick_winner(trick.cards, self.trump)
            self.led, self.winning = trick.cards[0] // 9, trick.cards[at]
            self.winner = Seat((trick.leader + at) & 3)
        self.rest = [Seat((me + k) & 3) for k in range(1, 4 - len(self.trick_cards))]
        self.trick_points = sum(_POINTS[c] for c in self.trick_cards)
        cards = self.unseen.bit_count()
        self.average = CardSet(self.unseen).points / cards if cards else 0.0
        self.rest_points = sum(self._average(s) for s in self.rest)
        self.outlook = _Outlook(obs, self.team)
        # What this player may declare or ask at a window of its own (the engine's rules).
        window = window_actions(obs)
        self.mine = _suits(window, ActionKind.DECLARE)
        self.may_ask_whole = Action.ask_whole() in window
        self.halves = _suits(window, ActionKind.ASK_HALF)
        self.plan = self.outlook.plan(0, len(self.mine))
        self.window = 0.0
        if self.number <= 8:
            best = max([self._worth(0, 0), *(value for value, _ in self.declarations())])
            self.window = (best - self._worth(0, 0)) / _STEP * _GAME_POINT
        tricks = obs.result.tricks
        score = obs.score or (0, 0)
        self.porvoo = 0.0
        if tricks[self.team] == 0:
            # Without a trick the score goes to 0 (RULES.md 6.1).
            self.porvoo = _GAME_POINT * (score[self.team] + 2) * self.number / 9
        elif tricks[self.team.other] == 0 and self.number >= 4:
            # Taking every trick sends the other team to 0.
            self.porvoo = _GAME_POINT * 0.3 * score[self.team.other] * self.number / 9
        self._power: dict[int, float] = {}

    # -- odds -----------------------------------------------------------------------------------

    def _average(self, seat: Seat) -> float:
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
        for card in _cards(mask & self.unseen):
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
                    p *= 1.0 - self.p_none(seat, _SUITS[led]) * (
                        1.0 - self.p_none(seat, _SUITS[trump])
                    )
            return p
        p = 1.0
        for seat in seats:
            p *= 1.0 - self.p_none(seat, _SUITS[led]) * (1.0 - self.p_none(seat, _ABOVE[winning]))
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

    # -- marriages ------------------------------------------------------------------------------

    def _pair_chance(self, suit: Suit) -> float:
        """The chance that partner holds the K and Q of ``suit``."""
        pair = _MARRIAGES[suit]
        if pair in self.not_both or pair & self.hand:
            return 0.0
        king, queen = _cards(pair)
        return self.p_holds(self.partner, king) * self.p_holds(self.partner, queen)

    def _whole_chance(self, exclude: Suit | None = None) -> float:
        """The chance that partner holds a marriage it may still name or declare."""
        none = 1.0
        for suit in self.partner_suits:
            if suit != exclude:
                none *= 1.0 - self._pair_chance(suit)
        return 1.0 - none

    def _worth(self, points: int, later: int) -> float:
        """The standing after making ``points`` marriage points now, with ``later`` more that
        the team may still make."""
        return self.outlook.plan(points, later).value

    def _gain(self, points: int) -> float:
        """How many game points' worth making ``points`` marriage points adds to the standing."""
        return (self._worth(points, 0) - self._worth(0, 0)) / _STEP

    def unmoved(self) -> float:
        """The standing when the window passes without a declaration."""
        return self._worth(0, len(self.mine))

    def declarations(self) -> list[tuple[float, Action]]:
        """The declaration actions open at a window now, each with the expected standing after
        it (by the chance of "yes", less what the locks break); compare ``unmoved``."""
        points = marriage_worth(self.trump)
        later = len(self.mine)
        made, unmade = self._worth(points, 0), self._worth(0, 0)
        out: list[tuple[float, Action]] = []
        for suit in self.mine:
            value = self._worth(points, later - 1)
            if self.trump is None:
                value += 1e-6 * self.strength(suit)  # trumps in the longest, strongest suit
            out.append((value, Action.declare(suit)))
        if self.may_ask_whole:
            # The asker is locked: its own marriages are lost.
            p = self._whole_chance()
            out.append((p * made + (1.0 - p) * unmade, Action.ask_whole()))
        for suit in self.halves:
            other = _MARRIAGES[suit] & ~self.hand
            p = self.p_holds(self.partner, _cards(other)[0])
            # Both are locked: partner's own marriages, which an ask-whole or partner's own
            # window would make, are lost too.
            cost = self._whole_chance(suit) * max(0.0, made - unmade) * 0.8
            out.append((p * made + (1.0 - p) * unmade - cost, Action.ask_half(suit)))
        return out

    def strength(self, suit: Suit) -> float:
        """How well this hand would play ``suit`` as trumps: its length and its checkmaters."""
        cards = self.hand & _SUITS[suit]
        return cards.bit_count() + 0.5 * ((cards >> (9 * suit)) & _TOP).bit_count()

    # -- cards ----------------------------------------------------------------------------------

    def keep(self, card: int) -> float:
        """What holding on to ``card`` is worth in card points."""
        power = self.power(card)
        # Its points come home if it takes a trick, and now and then on partner's trick.
        points = _POINTS[card] * (0.25 + 0.75 * power) + power * 3 * self.average
        value = self.plan.points * points
        suit = Suit(card // 9)
        pair = _MARRIAGES[suit]
        if self.number <= 8 and (1 << card) & pair and suit not in self.declared:
            if suit in self.mine:
                gain = self._gain(marriage_worth(self.trump))
                if self.trump is None:
                    # The other team may make trumps first: then it is a little trump.
                    gain = max(gain, 0.3 * self._gain(LITTLE_TRUMP_POINTS))
                value += 0.8 * max(0.0, gain) * _GAME_POINT
            elif pair & ~self.hand:
                # Half of a marriage partner may hold the other half of (RULES.md 4.2c).
                p = self.p_holds(self.partner, _cards(pair & ~self.hand)[0])
                value += 0.3 * p * max(0.0, self._gain(LITTLE_TRUMP_POINTS)) * _GAME_POINT
        return value

    def card_value(self, card: int) -> float:
        """What playing ``card`` now is worth, in card points (the rules of thumb)."""
        team, mine = self.odds(card)
        plan = self.plan
        value = plan.points * team * (self.trick_points + _POINTS[card] + self.rest_points)
        # Partner's window serves too while partner may still ask whole.
        asks = self.trump is None and self.partner not in self.locked
        value += self.window * (mine + (0.5 if asks else 0.0) * (team - mine))
        value += self.porvoo * team
        value -= self.keep(card)
        if self.leading:
            value += self.lead_bonus(card)
        return value

    def lead_bonus(self, card: int) -> float:
        """Leading rules of thumb the odds do not see: draw trumps when strong in them, lead
        from length, do not lead into a known void once trumps exist."""
        suit = card // 9
        bonus = 0.5 * (self.hand & _SUITS[suit]).bit_count()
        trump = self.trump
        if trump is None:
            return bonus
        theirs = [1.0 - self.p_none(s, _SUITS[trump]) for s in self.opponents]
        if suit == trump:
            mine = (self.hand & _SUITS[trump]).bit_count()
            out = (self.unseen & _SUITS[trump]).bit_count()
            if mine * 2 >= out:
                bonus += 4.0 * sum(theirs)
        else:
            ruff = sum(
                self.p_none(s, _SUITS[suit]) * t
                for s, t in zip(self.opponents, theirs, strict=True)
            )
            bonus -= 3.0 * ruff
        return bonus

    def endgame(self, cards: Sequence[int], rng: random.Random) -> list[float]:
        """For each of ``cards``, the expected standing after the deal when it is played now, in
        the last tricks: counted over the hands the others may hold (all of them in the last
        two tricks, a few drawn at random before), this player taking its best card later, the
        others any legal card alike (no declarations)."""
        obs = self.obs
        hidden = [s for s in Seat if s != self.me]
        worlds: list[Hands] = []
        if self.number >= 8:
            seats = [(s, self.possible[s], self.sizes[s]) for s in hidden]
            for split in _splits(self.unseen, seats):
                split[self.me] = obs.hand
                hands = (split[Seat.N], split[Seat.E], split[Seat.S], split[Seat.W])
                if self.knowledge.consistent(hands):
                    worlds.append(hands)
        else:
            sampler = Sampler(self.knowledge)
            worlds = [sampler.sample(rng) for _ in range(_WORLDS[self.number])]
        before = obs.score or (0, 0)
        totals = [0.0] * len(cards)
        counted = 0
        # Every card the others may play is followed from trick 7 when counting from there, from
        # trick 8 when counting from earlier (before, one is drawn: the tree would be too big).
        exact = 7 if self.number == 7 else 8
        for hands in worlds:
            try:
                deal = rebuild(obs, hands)
            except ValueError:
                continue  # the replay shows these hands cannot be
            counted += 1
            for i, card in enumerate(cards):
                after = deal.copy()
                after.apply(card)
                totals[i] += self._expected(after, before, exact, rng)
        return [total / max(1, counted) for total in totals]

    def _expected(
        self, deal: Deal, before: tuple[int, int], exact: int, rng: random.Random
    ) -> float:
        """The expected standing after ``deal``: this player's best, the others' average (from
        trick ``exact`` on; before it one card drawn at random)."""
        if deal.is_over():
            scored = score_deal(before, deal.result(), deal.variant)
            return self.outlook.standing(scored.after, scored.outcome)
        plays = [a for a in deal.legal_actions() if a < 36]
        if deal.current_player != self.me and deal.tricks_played + 1 < exact:
            plays = [plays[rng.randrange(len(plays))]]
        values = []
        for action in plays:
            branch = deal.copy()
            branch.apply(action)
            values.append(self._expected(branch, before, exact, rng))
        if deal.current_player == self.me:
            return max(values)
        return sum(values) / len(values)

    def answer_value(self, action: Action) -> float:
        """How good naming the marriage of ``action`` in answer to ask-whole is: it makes
        trumps, so the suit this hand is longest and strongest in."""
        assert action.suit is not None
        return self.strength(action.suit)


class HeuristicPlayer(Player):
    """A club player's rules of thumb (see the module); ties are broken by its own generator."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        if not legal:
            raise ValueError(f"{observation.seat} has no action to choose: it is not its turn")
        if len(legal) == 1:
            return legal[0]
        judge = _Judge(observation)
        if observation.phase is Phase.ANSWER:
            return self._best([(judge.answer_value(a), a) for a in legal])
        if observation.phase is Phase.DECLARATION:
            allowed = set(legal)
            options = [(v, a) for v, a in judge.declarations() if a in allowed]
            if options:
                value, action = max(options)
                if value > judge.unmoved() + 1e-9:
                    return action
        plays = [a for a in legal if a.kind is ActionKind.PLAY]
        if len(plays) > 1 and judge.number >= _COUNTED:
            # Few cards left: count the last tricks out.
            counted = judge.endgame(plays, self.rng)
            return self._best(
                [(v + 1e-6 * judge.card_value(a), a) for v, a in zip(counted, plays, strict=True)]
            )
        return self._best([(judge.card_value(a), a) for a in plays])

    def _best(self, scored: list[tuple[float, Action]]) -> Action:
        top = max(v for v, _ in scored)
        ties = [a for v, a in scored if v >= top - 1e-9]
        return ties[0] if len(ties) == 1 else ties[self.rng.randrange(len(ties))]
