"""Property-based tests of one deal and of the match, against RULES.md.

Random games are drawn by hypothesis: the hands (from a seed through ``Deal.shuffled``, or a
permutation of the deck, which shrinks towards hands full of marriages), the dealer, a variant
from every combination of switch values, and the choice among the legal actions at each step.

``Ref`` below is an independent model of RULES.md sections 3-5, written from the rules text on
card tokens only; the engine must agree with it at every step of every random deal.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections import Counter

import hypothesis
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.strategies import marriage_hands, variants

from valtti.engine import (
    ACTIONS,
    NUM_ACTIONS,
    Action,
    Card,
    CardSet,
    Deal,
    IllegalActionError,
    Match,
    Phase,
    Refusal,
    RefusalCode,
    Seat,
    Suit,
    Team,
    Variant,
    deal_hands,
)
from valtti.engine._deal import card_mask, nth_card
from valtti.engine.variant import SWITCHES

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Without the slow "explain" phase, for tests that are quick to fail.
NO_EXPLAIN = [
    hypothesis.Phase.explicit,
    hypothesis.Phase.reuse,
    hypothesis.Phase.generate,
    hypothesis.Phase.shrink,
]

# -- the rules on card tokens (RULES.md 1), independent of the engine's numbering -------------

RANK_ORDER = "6789JQKTA"  # low to high (1.2)
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}  # (1.3)
SUIT_CHARS = "SHDC"
SEAT_CHARS = "NESW"
DECK = [r + s for s in SUIT_CHARS for r in RANK_ORDER]
MAX_ACTIONS = 52  # 36 plays + at most 8 declarations or questions + at most 8 answers


def rank(card: str) -> int:
    return RANK_ORDER.index(card[0])


def points(card: str) -> int:
    return POINTS.get(card[0], 0)


def team_of(seat: int) -> int:
    return seat % 2


def winner_index(cards: list[str] | tuple[str, ...], trump: str | None) -> int:
    """RULES.md 3.1: the highest trump if any, else the highest card of the led suit."""
    trumps = [i for i, c in enumerate(cards) if trump is not None and c[1] == trump]
    pool = trumps or [i for i, c in enumerate(cards) if c[1] == cards[0][1]]
    return max(pool, key=lambda i: rank(cards[i]))


class Ref:
    """An independent model of one deal (RULES.md 2.4, 3, 4, 5.1), on tokens."""

    def __init__(self, hands: list[set[str]], forehand: int, variant: Variant) -> None:
        self.hands = [set(h) for h in hands]
        self.v = variant
        self.trump: str | None = None  # 2.4
        self.trump_team: int | None = None
        self.declared: set[str] = set()
        self.locked: set[int] = set()
        self.leader = forehand
        self.to_move = forehand
        self.trick: list[str] = []
        self.trick_trump: str | None = None
        self.tricks: list[tuple[int, tuple[str, ...], int, str | None]] = []
        self.window = False
        self.asker: int | None = None
        self.events: list[tuple[int, str, str, str | None, bool, int]] = []
        self.card_points = [0, 0]
        self.tricks_won = [0, 0]
        self.marriage_points = [0, 0]
        self.last: int | None = None

    def over(self) -> bool:
        return len(self.tricks) == 9

    def phase(self) -> Phase:
        if self.over():
            return Phase.OVER
        if self.asker is not None:
            return Phase.ANSWER
        return Phase.DECLARATION if self.window else Phase.PLAY

    def eligible(self, seat: int) -> set[str]:
        """4.2b/4.3: K+Q in the seat's own hand, suit undeclared, seat not locked."""
        if seat in self.locked:
            return set()
        h = self.hands[seat]
        return {s for s in SUIT_CHARS if s not in self.declared and {"K" + s, "Q" + s} <= h}

    def legal_plays(self) -> set[str]:
        h = self.hands[self.to_move]
        if not self.trick:
            if self.v.first_trick_ace == "on" and not self.tricks:
                aces = {c for c in h if c[0] == "A"}
                if aces:
                    return aces
            return set(h)  # 3.2: the leader may play any card
        led = self.trick[0][1]
        w = self.trick[winner_index(self.trick, self.trump)]
        follow = {c for c in h if c[1] == led}
        if follow:  # 3.2a
            if w[1] == led:
                return {c for c in follow if rank(c) > rank(w)} or follow
            return follow
        if self.trump is not None:  # 3.2b
            trumps = {c for c in h if c[1] == self.trump}
            if trumps:
                if w[1] != self.trump:
                    return trumps  # any trump beats a non-trump W
                higher = {c for c in trumps if rank(c) > rank(w)}
                if higher:
                    return higher if self.v.must_overtrump else trumps
                return trumps if self.v.must_trump_if_cannot_overtrump else set(h)
        return set(h)  # 3.2c

    def legal(self) -> set[str]:
        if self.over():
            return set()
        if self.asker is not None:
            return {"answer " + s for s in self.eligible(self.to_move)}
        out = self.legal_plays()
        if self.window:  # 4.1, 4.2
            x = self.to_move
            h = self.hands[x]
            for s in SUIT_CHARS:
                if s in self.declared:
                    continue
                held = {"K" + s, "Q" + s} & h
                if len(held) == 2 and x not in self.locked:
                    out.add("declare " + s)
                if len(held) == 1:
                    out.add("ask-half " + s)
            wa = self.v.whole_ask_after_trump
            if (
                wa == "anyone"
                or (wa == "not_trump_team" and self.trump_team != team_of(x))
                or (wa == "nobody" and self.trump is None)
            ):
                out.add("ask-whole")
        return out

    def marry(self, seat: int, suit: str, how: str) -> None:
        """4.4: the suit becomes a declared marriage of the seat's team."""
        assert suit not in self.declared
        self.declared.add(suit)
        team = team_of(seat)
        if self.trump is None:
            self.trump, self.trump_team, pts = suit, team, 2
        else:
            pts = 1
        self.marriage_points[team] += pts
        self.events.append((len(self.tricks), SEAT_CHARS[seat], how, suit, True, pts))

    def apply(self, token: str) -> None:
        assert token in self.legal(), (token, self.legal())
        x = self.to_move
        partner = (x + 2) % 4
        words = token.split()
        if len(words) == 1 and token != "ask-whole":  # a card
            self.window = False
            if not self.trick:
                self.trick_trump = self.trump
            self.hands[x].remove(token)
            self.trick.append(token)
            if len(self.trick) < 4:
                self.to_move = (x + 1) % 4
                return
            assert self.trump == self.trick_trump  # no declaration inside a trick
            winner = (self.leader + winner_index(self.trick, self.trump)) % 4
            self.tricks.append((self.leader, tuple(self.trick), winner, self.trump))
            self.card_points[team_of(winner)] += sum(points(c) for c in self.trick)
            self.tricks_won[team_of(winner)] += 1
            self.trick = []
            self.leader = self.to_move = winner
            if len(self.tricks) == 9:
                self.last = team_of(winner)
            else:
                self.window = True
            return
        self.window = False
        if words[0] == "declare":
            self.marry(x, words[1], "declare")
        elif token == "ask-whole":
            self.locked.add(x)
            el = self.eligible(partner)
            if not el:
                self.events.append((len(self.tricks), SEAT_CHARS[x], "ask-whole", None, False, 0))
            elif len(el) == 1:
                self.marry(x, el.pop(), "ask-whole")
            else:
                self.asker = x
                self.to_move = partner
        elif words[0] == "ask-half":
            s = words[1]
            self.locked |= {x, partner}
            other = ({"K" + s, "Q" + s} - self.hands[x]).pop()
            if other in self.hands[partner]:
                self.marry(x, s, "ask-half")
            else:
                self.events.append((len(self.tricks), SEAT_CHARS[x], "ask-half", s, False, 0))
        else:  # answer
            assert self.asker is not None
            asker = self.asker
            self.asker = None
            self.marry(asker, words[1], "ask-whole")
            self.to_move = asker

    def game_points(self) -> list[int]:
        """5.1: marriages + last trick + victory (> 60)."""
        return [
            self.marriage_points[t] + (self.last == t) + (self.card_points[t] > 60)
            for t in range(2)
        ]


# -- random games ------------------------------------------------------------------------------


class Game:
    """How to build one random deal and play it; its repr is what hypothesis prints."""

    def __init__(
        self,
        seed: int | None,
        deck: tuple[str, ...] | None,
        dealer: Seat,
        variant: Variant,
        choices: tuple[int, ...],
    ) -> None:
        self.seed = seed  # hands from Deal.shuffled(random.Random(seed), ...) ...
        self.deck = deck  # ... or N E S W nine cards each from this order of the deck
        self.dealer = dealer
        self.variant = variant
        self.choices = choices

    def new_deal(self) -> Deal:
        if self.deck is not None:
            hands = [CardSet.parse(list(self.deck[9 * i : 9 * i + 9])) for i in range(4)]
            return Deal(hands, self.dealer, self.variant)
        assert self.seed is not None
        return Deal.shuffled(random.Random(self.seed), self.dealer, self.variant)

    def __repr__(self) -> str:
        source = f"seed={self.seed}" if self.deck is None else f"deck='{' '.join(self.deck)}'"
        choices = list(self.choices)
        while choices and choices[-1] == 0:
            choices.pop()
        return (
            f"Game({source}, dealer={self.dealer}, variant='{self.variant}', "
            f"choices={choices} + zeros)"
        )


def choose(deal: Deal, c: int) -> int:
    """The action for choice c: c % 4 == 1 prefers a declaration or question when there is one."""
    legal = deal.legal_actions()
    special = [a for a in legal if a >= 36]
    if special and c % 4 == 1:
        return special[(c // 4) % len(special)]
    return legal[c % len(legal)]


@st.composite
def games(draw: st.DrawFn) -> Game:
    source = draw(st.sampled_from(["seed", "deck", "marriages"]))
    seed, deck = None, None
    if source == "seed":
        seed = draw(st.integers(0, 2**64 - 1))
    elif source == "deck":
        deck = tuple(draw(st.permutations(DECK)))
    else:  # each suit's K+Q dealt together to a drawn seat: many marriages, several per hand
        hands = draw(marriage_hands())
        deck = tuple(c for h in hands for c in h)
    return Game(
        seed,
        deck,
        draw(st.sampled_from(list(Seat))),
        draw(variants),
        tuple(
            draw(st.lists(st.integers(0, 2**16 - 1), min_size=MAX_ACTIONS, max_size=MAX_ACTIONS))
        ),
    )


def play_out(game: Game, stop: int | None = None) -> Deal:
    """The deal after ``stop`` actions (or to its end), chosen by the game's choices."""
    deal = game.new_deal()
    i = 0
    while not deal.is_over() and (stop is None or i < stop):
        deal.apply(choose(deal, game.choices[i]))
        i += 1
    return deal


def tokens(cards: object) -> set[str]:
    return {str(c) for c in cards}  # type: ignore[attr-defined]


def ref_of(deal: Deal) -> Ref:
    hands = [tokens(h) for h in deal.initial_hands]
    return Ref(hands, (deal.dealer + 1) % 4, deal.variant)


def event_tuples(deal: Deal) -> list[tuple[int, str, str, str | None, bool, int]]:
    return [
        (
            e.after_trick,
            str(e.seat),
            e.how,
            None if e.suit is None else str(e.suit),
            e.yes,
            e.points,
        )
        for e in deal.events
    ]


def snapshot(deal: Deal) -> tuple[object, ...]:
    """Everything a deal shows about its state."""
    return (
        deal.history,
        deal.hands,
        deal.initial_hands,
        deal.result(),
        deal.phase,
        deal.current_player,
        tuple(deal.legal_actions()),
        deal.legal_mask(),
        deal.trump,
        deal.trump_team,
        deal.tricks,
        deal.current_trick,
        deal.winning_card,
        deal.events,
        deal.marriages,
        deal.locked,
        deal.asker,
        deal.tricks_played,
        deal.is_over(),
    )


# -- 1-3: the engine agrees with the rules at every step -----------------------------------------


@SETTINGS
@given(games())
def test_engine_agrees_with_independent_model(game: Game) -> None:
    """Legal actions, who moves, the phase, trumps, locks, events and every column agree with the
    model of RULES.md at every step; the deal starts without trumps; the forehand is left of
    the dealer (2.2)."""
    deal = game.new_deal()
    ref = ref_of(deal)
    assert deal.forehand == Seat((game.dealer + 1) % 4)
    assert deal.trump is None
    i = 0
    while True:
        assert deal.phase == ref.phase()
        assert tokens(deal.legal_actions()) == ref.legal()
        assert [tokens(h) for h in deal.hands] == ref.hands
        assert deal.trump == (None if ref.trump is None else SUIT_CHARS.index(ref.trump))
        assert deal.trump_team == (None if ref.trump_team is None else Team(ref.trump_team))
        assert {int(s) for s in deal.locked} == ref.locked
        assert event_tuples(deal) == ref.events
        if deal.current_trick is not None:
            assert [str(c) for c in deal.current_trick.cards] == ref.trick
        r = deal.result()
        assert list(r.tricks) == ref.tricks_won
        assert list(r.card_points) == ref.card_points
        assert list(r.marriage_points) == ref.marriage_points
        if deal.is_over():
            break
        assert deal.current_player == Seat(ref.to_move)
        assert deal.asker == (None if ref.asker is None else Seat(ref.asker))
        a = choose(deal, game.choices[i])
        deal.apply(a)
        ref.apply(str(a))
        i += 1
    assert [(t.leader, tuple(str(c) for c in t.cards), t.winner) for t in deal.tricks] == [
        (Seat(lead), cards, Seat(win)) for lead, cards, win, _ in ref.tricks
    ]
    r = deal.result()
    assert r.last == Team(ref.last)
    assert list(r.game_points) == ref.game_points()


@SETTINGS
@given(games())
def test_deal_invariants(game: Game) -> None:
    """Property 1: every card once, 9 tricks, 120 card points, winners by 3.1 with the trump that
    held at each trick, tricks won sum to 9; each trick's leader is the last trick's winner."""
    deal = game.new_deal()
    trump_at: list[int | None] = []
    i = 0
    while not deal.is_over():
        a = choose(deal, game.choices[i])
        if a < 36 and deal.current_trick is not None and not deal.current_trick.cards:
            trump_at.append(deal.trump)  # the trump when the trick is led
        deal.apply(a)
        i += 1
    tricks = deal.tricks
    assert len(tricks) == 9 == deal.tricks_played
    assert len(trump_at) == 9
    played = [str(c) for t in tricks for c in t.cards]
    assert sorted(played) == sorted(DECK)
    assert Counter(played) == Counter(DECK)
    assert [str(a) for a in deal.history if a < 36] == played  # in the order they were played
    assert all(len(h) == 0 for h in deal.hands)
    for t in tricks:  # each seat played its own card, in turn
        for seat, card in t.plays:
            assert card in deal.initial_hands[seat]
    leader = deal.forehand
    for n, (t, trump) in enumerate(zip(tricks, trump_at, strict=True), start=1):
        assert t.number == n
        assert t.leader == leader
        cards = [str(c) for c in t.cards]
        tr = None if trump is None else SUIT_CHARS[trump]
        assert t.winner == Seat((t.leader + winner_index(cards, tr)) % 4), (n, cards, tr)
        leader = t.winner
    r = deal.result()
    assert sum(r.card_points) == 120
    assert sum(r.tricks) == 9
    for team in Team:
        won = [t for t in tricks if t.winner.team == team]
        assert r.tricks[team] == len(won)
        assert r.card_points[team] == sum(points(str(c)) for t in won for c in t.cards)
    assert r.last == tricks[-1].winner.team


@SETTINGS
@given(games())
def test_scoring_and_marriages(game: Game) -> None:
    """Property 2: game points = marriages + last + victory (5.1); marriage points are the sum of
    the events' points; each suit declared at most once; trumps once set never change, and
    are the suit of the first marriage (4.4)."""
    deal = game.new_deal()
    assert deal.trump is None
    i = 0
    while not deal.is_over():
        before = deal.trump
        deal.apply(choose(deal, game.choices[i]))
        i += 1
        if before is not None:
            assert deal.trump == before  # once set, never changed (4.4)
    r = deal.result()
    events = deal.events
    yes = [e for e in events if e.yes]
    assert len({e.suit for e in yes}) == len(yes)  # each suit at most once (4.4)
    for e in events:
        assert 1 <= e.after_trick <= 8  # windows only after tricks 1-8 (4.1)
        assert e.points == 0 if not e.yes else e.points in (1, 2)
    if yes:
        assert deal.trump == yes[0].suit
        assert yes[0].points == 2 and all(e.points == 1 for e in yes[1:])
        assert deal.trump_team == yes[0].team
    else:
        assert deal.trump is None and deal.trump_team is None
    assert [m.suit for m in deal.marriages] == [e.suit for e in yes]
    for team in Team:
        mp = sum(e.points for e in events if e.team == team)
        assert r.marriage_points[team] == mp
        last = int(deal.tricks[-1].winner.team == team)
        victory = int(r.card_points[team] > 60)
        assert r.game_points[team] == mp + last + victory
    assert r.victory == next((t for t in Team if r.card_points[t] > 60), None)


@SETTINGS
@given(games())
def test_legal_actions_are_consistent(game: Game) -> None:
    """Property 3: legal actions are never empty before the end and empty at the end; each applies
    without error; legal_mask() agrees; legal card plays are in the mover's hand; declarations
    only in the DECLARATION phase (answers only in ANSWER); why_illegal/is_legal agree."""
    deal = game.new_deal()
    i = 0
    while True:
        legal = deal.legal_actions()
        mask = deal.legal_mask()
        assert mask == sum(1 << a for a in legal)
        assert list(legal) == sorted(set(legal))
        for a in range(NUM_ACTIONS):
            assert deal.is_legal(a) == (a in legal)
            assert (deal.why_illegal(a) is None) == (a in legal)
        if deal.is_over():
            assert legal == [] and mask == 0
            assert deal.current_player is None and deal.phase == Phase.OVER
            break
        assert legal
        hand = deal.hand(deal.current_player)
        for a in legal:
            if a < 36:
                assert a in hand
                assert deal.phase in (Phase.PLAY, Phase.DECLARATION)
            elif a < 45:
                assert deal.phase == Phase.DECLARATION
            else:
                assert deal.phase == Phase.ANSWER
        if deal.phase == Phase.ANSWER:
            assert all(a >= 45 for a in legal)
        for a in legal:
            deal.copy().apply(a)
        deal.apply(choose(deal, game.choices[i]))
        i += 1


@SETTINGS
@given(games())
def test_plain_number_views_agree(game: Game) -> None:
    """legal_numbers() and seat_to_move() (the OpenSpiel game's hot path) are legal_actions() and
    current_player as plain ints: -1 and [] once the deal is over."""
    deal = game.new_deal()
    i = 0
    while True:
        numbers = deal.legal_numbers()
        assert numbers == [int(a) for a in deal.legal_actions()]
        assert all(type(a) is int for a in numbers)
        seat = deal.seat_to_move()
        assert type(seat) is int
        if deal.is_over():
            assert numbers == [] and seat == -1
            break
        assert seat == int(deal.current_player)  # type: ignore[arg-type]
        deal.apply(choose(deal, game.choices[i]))
        i += 1


@given(st.integers(0, 2**36 - 1), st.integers(-2, 40))
def test_nth_card(mask: int, n: int) -> None:
    cards = [c for c in range(36) if mask >> c & 1]
    assert nth_card(mask, n) == (cards[n] if 0 <= n < len(cards) else -1)


@given(st.lists(st.integers(0, 35)), st.sampled_from([-1, 36, 1000]))
def test_card_mask(cards: list[int], bad: int) -> None:
    assert card_mask(cards) == sum(1 << c for c in set(cards))
    assert card_mask(iter(cards)) == card_mask(cards)
    with pytest.raises(ValueError, match="no card number"):
        card_mask([*cards, bad])


# -- 4: illegal actions change nothing -------------------------------------------------------------

JUNK = (
    -1,
    -2,
    49,
    50,
    63,
    64,
    255,
    256,
    1000,
    -(2**31),
    2**31 - 1,
    2**31,
    2**64,
    -(2**64),
    True,
    False,
)


@SETTINGS
@given(games(), st.integers(0, MAX_ACTIONS))
def test_illegal_actions_are_refused_and_change_nothing(game: Game, stop: int) -> None:
    deal = play_out(game, stop)
    before = deal.copy()
    snap = snapshot(deal)
    legal = deal.legal_actions()
    illegal = [a for a in range(NUM_ACTIONS) if a not in legal] + list(JUNK)
    assert len(illegal) >= NUM_ACTIONS - len(legal)
    for a in illegal:
        try:
            deal.apply(a)
        except IllegalActionError as e:
            assert e.legal == tuple(legal)
            assert e.reason
            if 0 <= a < NUM_ACTIONS:
                assert e.reason == deal.why_illegal(a)
        else:
            raise AssertionError(f"illegal action {a} was applied")
        assert snapshot(deal) == snap
        assert deal == before


def true_refusal(ref: Ref, token: str, refusal: Refusal) -> bool:
    """Whether ``refusal`` of ``token`` says what is so in the model's position: the rule it
    names applies, with the suit, card, trumps, team and asker it names."""
    code, x = refusal.code, ref.to_move
    hand = ref.hands[x]
    words = token.split()
    suit = words[-1] if len(words) == 2 else token[1] if len(words[0]) == 2 else None
    if code is RefusalCode.OVER:
        return ref.over()
    if refusal.seat != Seat(x) or ref.over():
        return False
    if code is RefusalCode.ANSWER_PENDING:
        return ref.asker is not None and refusal.asker == Seat(ref.asker)
    if code is RefusalCode.NO_QUESTION:
        return ref.asker is None and words[0] == "answer"
    if code is RefusalCode.NOT_ELIGIBLE:
        return ref.asker is not None and words[0] == "answer" and suit not in ref.eligible(x)
    if ref.asker is not None:
        return False
    if code is RefusalCode.NOT_HELD:
        return len(words) == 1 and token != "ask-whole" and token not in hand
    led = ref.trick[0][1] if ref.trick else None
    win = ref.trick[winner_index(ref.trick, ref.trump)] if ref.trick else None
    named_trump = None if ref.trump is None else Suit.parse(ref.trump)
    if code is RefusalCode.FIRST_ACE:
        aces = [c for c in hand if c[0] == "A"]
        return not ref.tricks and not ref.trick and bool(aces) and token not in aces
    play_rules = {RefusalCode.FOLLOW, RefusalCode.FOLLOW_BEAT, RefusalCode.TRUMP}
    if code in play_rules | {RefusalCode.TRUMP_BEAT}:
        if token not in hand or led is None or refusal.suit != Suit.parse(led):
            return False
        if refusal.trump != named_trump:
            return False
        holds_led = any(c[1] == led for c in hand)
        if code is RefusalCode.FOLLOW:
            return holds_led and token[1] != led and refusal.card is None
        if code is RefusalCode.TRUMP:
            trumps = [c for c in hand if c[1] == ref.trump]
            return not holds_led and bool(trumps) and token[1] != ref.trump
        assert win is not None
        beats = [c for c in hand if c[1] == win[1] and rank(c) > rank(win)]
        if refusal.card != Card.parse(win) or not beats or token in beats:
            return False
        if code is RefusalCode.FOLLOW_BEAT:
            return win[1] == led
        return not holds_led and win[1] == ref.trump
    if words[0] not in ("declare", "ask-whole", "ask-half"):
        return False
    if code is RefusalCode.BEFORE_FIRST_TRICK:
        return not ref.tricks
    if code is RefusalCode.WINDOW_USED:
        return bool(ref.tricks) and not ref.window and not ref.trick
    if code is RefusalCode.NOT_WINDOW:
        return not ref.window and bool(ref.trick)
    if not ref.window:
        return False
    pair = {"K" + str(suit), "Q" + str(suit)} & hand
    if code is RefusalCode.DECLARED:
        return suit in ref.declared and refusal.suit == Suit.parse(suit)
    if code is RefusalCode.NO_MARRIAGE:
        return words[0] == "declare" and len(pair) < 2
    if code is RefusalCode.LOCKED:
        return words[0] == "declare" and x in ref.locked
    if code is RefusalCode.HALF_NOT_ONE:
        return words[0] == "ask-half" and len(pair) != 1
    if code is RefusalCode.WHOLE_TRUMP_TEAM:
        return token == "ask-whole" and ref.trump_team == team_of(x) == refusal.team
    if code is RefusalCode.WHOLE_NOBODY:
        return token == "ask-whole" and ref.trump is not None
    return False


@SETTINGS
@given(games())
def test_every_refusal_is_true_where_it_is_made(game: Game) -> None:
    """At every step, each action that is not legal is refused with a code whose rule applies
    there, by the independent model, with the facts it names (the terminal and the web say
    these codes to the player in their own words)."""
    deal = game.new_deal()
    ref = ref_of(deal)
    for i in range(MAX_ACTIONS + 1):
        legal = deal.legal_actions()
        for a in ACTIONS:
            if a not in legal:
                refusal = deal.refusal(a)
                assert refusal is not None and refusal.action == a
                assert true_refusal(ref, str(a), refusal), (str(a), refusal, deal.history)
        if deal.is_over():
            break
        a = choose(deal, game.choices[i])
        deal.apply(a)
        ref.apply(str(a))


def test_non_actions_are_refused() -> None:
    """``apply`` refuses every int that is not an action number (however large, and bools) with
    IllegalActionError, agreeing with ``why_illegal``; other objects with IllegalActionError or
    TypeError. The deal is unchanged."""
    deal = Deal.shuffled(random.Random(7), Seat.N)
    snap = snapshot(deal)
    junk: tuple[object, ...] = (
        2**31,
        -(2**31) - 1,
        2**40,
        2**64,
        -(2**64),
        True,
        False,
        "AS",
        "7S",
        1.0,
        1.5,
        None,
    )
    for a in junk:
        assert deal.why_illegal(a) is not None, a
        assert not deal.is_legal(a)
        allowed: tuple[type[Exception], ...] = (
            (IllegalActionError,) if isinstance(a, int) else (IllegalActionError, TypeError)
        )
        try:
            deal.apply(a)
        except allowed:
            pass
        except Exception as e:
            raise AssertionError(f"apply({a!r}) raised {type(e).__name__}: {e}") from e
        else:
            raise AssertionError(f"apply({a!r}) was accepted")
        assert snapshot(deal) == snap


def test_parsers_given_no_text_raise_type_error() -> None:
    """Every notation parser refuses a value that is not text with a ``TypeError`` naming what
    it was to read (not an ``AttributeError`` from inside it); text still parses."""
    parsers = (
        (Card.parse, "a card", "AS"),
        (Suit.parse, "a suit", "H"),
        (Seat.parse, "a seat", "N"),
        (Team.parse, "a team", "EW"),
        (Action.parse, "an action", "ask-whole"),
        (Variant.parse, "a variant", "target=12"),
    )
    for parse, what, text in parsers:
        parse(text)
        for junk in (5, None, 1.5, b"AS", ["AS"]):
            with pytest.raises(TypeError, match=f"{what} must be given as text"):
                parse(junk)  # type: ignore[arg-type]
    assert CardSet.parse(["AS", "KH"]) == CardSet.parse("AS KH")
    with pytest.raises(TypeError, match="cards must be given"):
        CardSet.parse(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a card must be given"):
        CardSet.parse([1, 2])  # type: ignore[list-item]


# -- 5: copies and pickles ---------------------------------------------------------------------


@SETTINGS
@given(games(), st.integers(0, MAX_ACTIONS), st.lists(st.integers(0, 2**16 - 1), max_size=60))
def test_copy_is_independent(game: Game, stop: int, more: list[int]) -> None:
    deal = play_out(game, stop)
    snap = snapshot(deal)
    for dup in (deal.copy(), copy.copy(deal), copy.deepcopy(deal)):
        assert dup == deal
        assert dup is not deal
        assert snapshot(dup) == snap
        assert dup.variant == deal.variant and dup.dealer == deal.dealer
        for c in more:  # play on the copy: the original does not move
            if dup.is_over():
                break
            dup.apply(choose(dup, c))
        assert snapshot(deal) == snap
        if dup.history != deal.history:
            assert dup != deal
    # The original can be played on after copying, and the copy does not move.
    frozen = deal.copy()
    if not deal.is_over():
        deal.apply(deal.legal_actions()[0])
        assert snapshot(frozen) == snap
        assert frozen != deal


@settings(SETTINGS, phases=NO_EXPLAIN)
@given(games(), st.integers(0, MAX_ACTIONS))
def test_pickle_round_trips(game: Game, stop: int) -> None:
    deal = play_out(game, stop)
    for protocol in (pickle.DEFAULT_PROTOCOL, pickle.HIGHEST_PROTOCOL):
        restored = pickle.loads(pickle.dumps(deal, protocol=protocol))
        assert restored == deal
        assert snapshot(restored) == snapshot(deal)
        if not deal.is_over():  # and it plays on like the original
            a = deal.legal_actions()[-1]
            d2 = deal.copy()
            d2.apply(a)
            restored.apply(a)
            assert restored == d2 and snapshot(restored) == snapshot(d2)


# -- 7: seeds ------------------------------------------------------------------------------


@SETTINGS
@given(st.integers(0, 2**64 - 1), st.sampled_from(list(Seat)), variants)
def test_same_seed_same_deal(seed: int, dealer: Seat, variant: Variant) -> None:
    a = Deal.shuffled(random.Random(seed), dealer, variant)
    b = Deal.shuffled(random.Random(seed), dealer, variant)
    assert a == b and a.initial_hands == b.initial_hands
    hands = deal_hands(random.Random(seed))
    assert hands == deal_hands(random.Random(seed))
    assert hands == a.initial_hands  # both shuffle 64 bits of the generator the same way
    assert sorted(c for h in hands for c in h) == list(range(36))
    assert [len(h) for h in hands] == [9, 9, 9, 9]
    # Same seed, same play: the whole deal is reproducible.
    ra, rb = random.Random(seed ^ 1), random.Random(seed ^ 1)
    while not a.is_over():
        a.apply(ra.choice(a.legal_actions()))
        b.apply(rb.choice(b.legal_actions()))
    assert a == b and a.result() == b.result() and a.tricks == b.tricks


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**63 - 1), st.integers(0, 2**63 - 1))
def test_different_seeds_give_different_deals(s1: int, s2: int) -> None:
    if s1 == s2:
        s2 += 1
    assert deal_hands(random.Random(s1)) != deal_hands(random.Random(s2))


def test_seeds_spread_the_cards() -> None:
    """Over many seeds: all deals differ, and every card goes to every seat."""
    seen = set()
    where: dict[int, set[int]] = {c: set() for c in range(36)}
    for seed in range(500):
        hands = deal_hands(random.Random(seed))
        seen.add(tuple(h.mask for h in hands))
        for seat, h in enumerate(hands):
            for c in h:
                where[c].add(seat)
    assert len(seen) == 500
    assert all(s == {0, 1, 2, 3} for s in where.values())


# -- the generator reaches every kind of situation ---------------------------------------------


def test_random_games_reach_every_situation() -> None:
    """Not a rule: checks that the random play used above is rich enough to test the rules."""
    rng = random.Random(2024)
    kinds: Counter[str] = Counter()
    for _ in range(600):
        variant = Variant(**{k: rng.choice(v) for k, v in SWITCHES.items()})
        deck = DECK[:] if rng.random() < 0.2 else rng.sample(DECK, 36)
        game = Game(
            None,
            tuple(deck),
            Seat(rng.randrange(4)),
            variant,
            tuple(rng.randrange(2**16) for _ in range(MAX_ACTIONS)),
        )
        deal = game.new_deal()
        i = 0
        while not deal.is_over():
            kinds[str(deal.phase)] += 1
            deal.apply(choose(deal, game.choices[i]))
            i += 1
        for e in deal.events:
            kinds[f"{e.how} {'yes' if e.yes else 'no'}"] += 1
            if e.yes and e.points == 1:
                kinds["little trump"] += 1
        if deal.result().tricks[0] in (0, 9):
            kinds["porvoo"] += 1
    for kind in (
        "play",
        "declaration",
        "answer",
        "declare yes",
        "ask-whole yes",
        "ask-whole no",
        "ask-half yes",
        "ask-half no",
        "little trump",
    ):
        assert kinds[kind] > 0, (kind, kinds)


# -- the match (RULES.md 2, 6) --------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**64 - 1), st.sampled_from(list(Seat)), variants)
def test_match_scoring_and_dealers(seed: int, first_dealer: Seat, variant: Variant) -> None:
    """2.1-2.4 and 6.1-6.4 over a random match."""
    rng = random.Random(seed)
    match = Match(variant, first_dealer)
    score = (0, 0)
    dealer = first_dealer
    target = variant.target
    for n in range(60):
        if match.is_over():
            break
        deal = match.start_deal(rng=rng)
        assert deal.dealer == dealer  # 2.1, 2.3
        ace_of_clubs = next(s for s in Seat if 35 in deal.hand(s))
        if n == 0 and variant.first_forehand == "club_ace_holder":
            assert deal.forehand == ace_of_clubs
        else:
            assert deal.forehand == Seat((dealer + 1) % 4)  # 2.2
        assert deal.trump is None  # 2.4
        assert all(len(h) == 9 for h in deal.hands)
        while not deal.is_over():
            match.apply(rng.choice(deal.legal_actions()))
        r = deal.result()
        after = []
        for team in Team:
            if r.tricks[team] == 0:  # 6.1
                new = 0
                assert r.game_points[team] == 0  # 6.4
            else:  # 6.2
                new = score[team] + r.game_points[team]
                if new > target:
                    new = variant.overshoot_to
            after.append(new)
        ds = match.deal_scores[-1]
        assert ds.before == score
        assert ds.game_points == r.game_points
        assert not any(p and o for p, o in zip(ds.porvoo, ds.overshoot, strict=True))
        score = (after[0], after[1])
        assert match.score == score == ds.after
        assert len(match.deal_scores) == len(match.deals) == n + 1
        on = [t for t in Team if score[t] == target]
        assert match.winner == (on[0] if len(on) == 1 else None)  # 6.3
        both = len(on) == 2
        assert match.is_draw == (both and variant.both_on_target == "draw")
        assert match.is_over() == (len(on) == 1 or match.is_draw)
        dealer = deal.forehand  # 2.3
        assert match.next_dealer == dealer
    if match.is_over():
        try:
            match.start_deal(rng=rng)
        except ValueError:
            pass
        else:
            raise AssertionError("a deal was started after the match was over")
