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

Its parts: ``players.odds`` reads the hidden hands into odds, ``players.outlook`` weighs the
points it may make against the match, ``players.endgame`` counts the last tricks out; this
module weighs each card and declaration by them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from valtti.engine import (
    LITTLE_TRUMP_POINTS,
    Action,
    ActionKind,
    Observation,
    Phase,
    Rank,
    Suit,
    marriage_suits,
    marriage_worth,
    window_actions,
)
from valtti.engine.cards import FULL_DECK
from valtti.players.base import Player
from valtti.players.endgame import count_out
from valtti.players.odds import POINTS, SUITS, Odds, cards_of
from valtti.players.outlook import GAME_POINT, STEP, Outlook

_MARRIAGES: Final = tuple(s.marriage for s in Suit)
_TOP: Final = (1 << Rank.ACE) | (1 << Rank.TEN)  # within a suit: its checkmaters
#: From this trick on the player counts the rest of the deal out (``endgame.count_out``).
_COUNTED: Final = 5


def _suits(actions: Sequence[Action], kind: ActionKind) -> list[Suit]:
    """The suits of the actions of one kind."""
    return [a.suit for a in actions if a.kind is kind and a.suit is not None]


class _Judge(Odds):
    """Everything one decision weighs, read from one observation: the odds of the hidden hands
    (``Odds``), the match's outlook, what this player may declare."""

    def __init__(self, observation: Observation) -> None:
        super().__init__(observation)
        obs = observation
        self.declared = {e.suit for e in obs.events if e.yes and e.suit is not None}
        self.locked = obs.locked
        # The suits whose K+Q partner could still declare or name, should it hold them.
        self.partner_suits = marriage_suits(FULL_DECK, self.partner, self.declared, self.locked)
        # Pairs the partner cannot hold both cards of (a "no" to ask-whole).
        self.not_both = {
            c.cards.mask
            for c in self.knowledge.constraints
            if c.seat == self.partner and 2 not in c.counts
        }
        self.trick_points = sum(POINTS[c] for c in self.trick_cards)
        self.rest_points = sum(self.average_of(s) for s in self.rest)
        self.outlook = Outlook(obs, self.team)
        # What this player may declare or ask at a window of its own (the engine's rules).
        window = window_actions(obs)
        self.mine = _suits(window, ActionKind.DECLARE)
        self.may_ask_whole = Action.ask_whole() in window
        self.halves = _suits(window, ActionKind.ASK_HALF)
        self.plan = self.outlook.plan(0, len(self.mine))
        self.window = 0.0
        if self.number <= 8:
            best = max([self._worth(0, 0), *(value for value, _ in self.declarations())])
            self.window = (best - self._worth(0, 0)) / STEP * GAME_POINT
        tricks = obs.result.tricks
        score = obs.score or (0, 0)
        self.porvoo = 0.0
        if tricks[self.team] == 0:
            # Without a trick the score goes to 0 (RULES.md 6.1).
            self.porvoo = GAME_POINT * (score[self.team] + 2) * self.number / 9
        elif tricks[self.team.other] == 0 and self.number >= 4:
            # Taking every trick sends the other team to 0.
            self.porvoo = GAME_POINT * 0.3 * score[self.team.other] * self.number / 9

    # -- marriages ------------------------------------------------------------------------------

    def _pair_chance(self, suit: Suit) -> float:
        """The chance that partner holds the K and Q of ``suit``."""
        pair = _MARRIAGES[suit]
        if pair in self.not_both or pair & self.hand:
            return 0.0
        king, queen = cards_of(pair)
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
        return (self._worth(points, 0) - self._worth(0, 0)) / STEP

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
            p = self.p_holds(self.partner, cards_of(other)[0])
            # Both are locked: partner's own marriages, which an ask-whole or partner's own
            # window would make, are lost too.
            cost = self._whole_chance(suit) * max(0.0, made - unmade) * 0.8
            out.append((p * made + (1.0 - p) * unmade - cost, Action.ask_half(suit)))
        return out

    def strength(self, suit: Suit) -> float:
        """How well this hand would play ``suit`` as trumps: its length and its checkmaters."""
        cards = self.hand & SUITS[suit]
        return cards.bit_count() + 0.5 * ((cards >> (9 * suit)) & _TOP).bit_count()

    # -- cards ----------------------------------------------------------------------------------

    def keep(self, card: int) -> float:
        """What holding on to ``card`` is worth in card points."""
        power = self.power(card)
        # Its points come home if it takes a trick, and now and then on partner's trick.
        points = POINTS[card] * (0.25 + 0.75 * power) + power * 3 * self.average
        value = self.plan.points * points
        suit = Suit(card // 9)
        pair = _MARRIAGES[suit]
        if self.number <= 8 and (1 << card) & pair and suit not in self.declared:
            if suit in self.mine:
                gain = self._gain(marriage_worth(self.trump))
                if self.trump is None:
                    # The other team may make trumps first: then it is a little trump.
                    gain = max(gain, 0.3 * self._gain(LITTLE_TRUMP_POINTS))
                value += 0.8 * max(0.0, gain) * GAME_POINT
            elif pair & ~self.hand:
                # Half of a marriage partner may hold the other half of (RULES.md 4.2c).
                p = self.p_holds(self.partner, cards_of(pair & ~self.hand)[0])
                value += 0.3 * p * max(0.0, self._gain(LITTLE_TRUMP_POINTS)) * GAME_POINT
        return value

    def card_value(self, card: int) -> float:
        """What playing ``card`` now is worth, in card points (the rules of thumb)."""
        team, mine = self.odds(card)
        plan = self.plan
        value = plan.points * team * (self.trick_points + POINTS[card] + self.rest_points)
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
        bonus = 0.5 * (self.hand & SUITS[suit]).bit_count()
        trump = self.trump
        if trump is None:
            return bonus
        theirs = [1.0 - self.p_none(s, SUITS[trump]) for s in self.opponents]
        if suit == trump:
            mine = (self.hand & SUITS[trump]).bit_count()
            out = (self.unseen & SUITS[trump]).bit_count()
            if mine * 2 >= out:
                bonus += 4.0 * sum(theirs)
        else:
            ruff = sum(
                self.p_none(s, SUITS[suit]) * t for s, t in zip(self.opponents, theirs, strict=True)
            )
            bonus -= 3.0 * ruff
        return bonus

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
            counted = count_out(judge, judge.outlook, plays, self.rng)
            return self._best(
                [(v + 1e-6 * judge.card_value(a), a) for v, a in zip(counted, plays, strict=True)]
            )
        return self._best([(judge.card_value(a), a) for a in plays])

    def _best(self, scored: list[tuple[float, Action]]) -> Action:
        top = max(v for v, _ in scored)
        ties = [a for v, a in scored if v >= top - 1e-9]
        return ties[0] if len(ties) == 1 else ties[self.rng.randrange(len(ties))]
