"""Property-based tests of what one seat may see (RULES.md 7): its own hand and what is public.

(a) Two deals at the same public position that differ only in cards hidden from seat X give
    the same ``observation(X)``. The second deal is built from the first by moving the unplayed
    cards of the three other seats among them (each keeps the cards it has played and its hand
    size), then replaying the same actions. Moves that change something public (an action no
    longer legal, a question answered differently) are rejected; if none is left, the example
    is skipped with ``assume``.
(b) An observation never holds another seat's current cards: only the seat's own hand, cards
    already played, and the legal actions only when it is the seat's turn.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from tests.strategies import DECK, marriage_hands, variants

from valtti.engine import (
    Action,
    Card,
    CardSet,
    Deal,
    IllegalActionError,
    Match,
    Observation,
    Phase,
    Seat,
    Variant,
)
from valtti.engine.actions import ActionKind

TOKENS = frozenset(DECK)
MAX_ACTIONS = 52


@st.composite
def initial_hands(draw: st.DrawFn) -> tuple[CardSet, ...]:
    """Four hands of nine: shuffled from a drawn seed, or with each suit's K+Q dealt together to
    a drawn seat (so that marriages, questions and answers are frequent)."""
    if draw(st.booleans()):
        return tuple(
            Deal.shuffled(random.Random(draw(st.integers(0, 2**64 - 1))), Seat.N).initial_hands
        )
    hands = draw(marriage_hands())
    return tuple(CardSet.parse(h) for h in hands)


@st.composite
def positions(draw: st.DrawFn, max_stop: int = MAX_ACTIONS) -> Deal:
    """A deal played by hypothesis's choices for a drawn number of actions, with or without
    ``answer_steps``."""
    deal = Deal(
        draw(initial_hands()),
        draw(st.sampled_from(list(Seat))),
        draw(variants),
        answer_steps=draw(st.booleans()),
    )
    stop = draw(st.integers(0, max_stop))
    choices = draw(st.lists(st.integers(0, 2**16 - 1), min_size=stop, max_size=stop))
    for c in choices:
        if deal.is_over():
            break
        legal = deal.legal_actions()
        special = [a for a in legal if a >= 36]
        # c % 4 == 1 prefers a declaration or question when there is one
        deal.apply(
            special[(c // 4) % len(special)] if special and c % 4 == 1 else legal[c % len(legal)]
        )
    return deal


def public(deal: Deal) -> tuple[object, ...]:
    """What RULES.md 7.1 makes public, and the counts anyone can see."""
    return (
        deal.dealer,
        deal.forehand,
        deal.variant,
        deal.phase,
        deal.current_player,
        deal.trump,
        deal.trump_team,
        deal.tricks,
        deal.current_trick,
        deal.events,
        deal.locked,
        deal.asker,
        deal.result(),
        tuple(len(h) for h in deal.hands),
        deal.history,
    )


def alternatives(deal: Deal, seat: Seat, rng: random.Random) -> Iterator[list[list[Card]]]:
    """Current hands of the other seats with their unplayed cards moved among them: first some
    full redistributions, then every single exchange of two cards, in random order."""
    others = [s for s in Seat if s != seat]
    current = {s: list(deal.hand(s)) for s in others}
    pool = [c for s in others for c in current[s]]
    for _ in range(20):
        rng.shuffle(pool)
        out, i = [], 0
        for s in others:
            out.append(pool[i : i + len(current[s])])
            i += len(current[s])
        yield out
    swaps = [
        (i, a, j, b)
        for i in range(3)
        for j in range(i + 1, 3)
        for a in range(len(current[others[i]]))
        for b in range(len(current[others[j]]))
    ]
    rng.shuffle(swaps)
    for i, a, j, b in swaps:
        out = [list(current[s]) for s in others]
        out[i][a], out[j][b] = out[j][b], out[i][a]
        yield out


def hidden_twin(deal: Deal, seat: Seat, rng: random.Random) -> Deal | None:
    """A deal at the same public position whose hidden hands differ, or ``None``."""
    others = [s for s in Seat if s != seat]
    for alt in alternatives(deal, seat, rng):
        if all(CardSet(h) == deal.hand(s) for s, h in zip(others, alt, strict=True)):
            continue
        initial = list(deal.initial_hands)
        for s, h in zip(others, alt, strict=True):
            played = deal.initial_hands[s] - deal.hand(s)  # each seat keeps what it played
            initial[s] = played | CardSet(h)
        twin = Deal(
            initial, deal.dealer, deal.variant, deal.forehand, answer_steps=deal.answer_steps
        )
        try:
            for a in deal.history:
                twin.apply(a)
        except IllegalActionError:
            continue  # a play that showed something about the hidden cards
        if public(twin) == public(deal):
            return twin
    return None


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(positions(max_stop=42), st.sampled_from(list(Seat)), st.integers(0, 2**32 - 1))
def test_hidden_cards_do_not_change_the_observation(deal: Deal, seat: Seat, seed: int) -> None:
    twin = hidden_twin(deal, seat, random.Random(seed))
    event(f"over: {deal.is_over()}, found: {twin is not None}")
    assume(twin is not None)
    event(f"tricks played: {deal.tricks_played // 3 * 3}+, declaration events: {len(deal.events)}")
    assert twin is not None
    assert twin.hand(seat) == deal.hand(seat)
    assert twin.hands != deal.hands  # the hidden cards really differ...
    assert twin.observation(seat) == deal.observation(seat)  # ...and seat cannot tell
    assert twin.observation(seat).to_dict() == deal.observation(seat).to_dict()
    for other in Seat:  # while a seat whose hand changed can
        if twin.hand(other) != deal.hand(other):
            assert twin.observation(other) != deal.observation(other)


def cards_in(value: object) -> set[int]:
    """Every card anywhere in an observation: cards, card sets, and the cards of card actions."""
    if isinstance(value, Action):
        return set() if value.card is None else {int(value.card)}
    if isinstance(value, Card):
        return {int(value)}
    if isinstance(value, CardSet):
        return {int(c) for c in value}
    if isinstance(value, (tuple, list, frozenset, set)):
        return set().union(*(cards_in(v) for v in value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return set().union(*(cards_in(getattr(value, f.name)) for f in dataclasses.fields(value)))
    return set()


def strings_in(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from strings_in(k)
            yield from strings_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings_in(v)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_observation_shows_only_own_hand_and_public_cards(deal: Deal) -> None:
    played = {int(c) for t in deal.tricks for c in t.cards}
    if deal.current_trick is not None:
        played |= {int(c) for c in deal.current_trick.cards}
    sizes = tuple(len(h) for h in deal.hands)
    for seat in Seat:
        obs = deal.observation(seat)
        own = {int(c) for c in deal.hand(seat)}
        hidden = {int(c) for s in Seat if s != seat for c in deal.hand(s)}
        assert hidden.isdisjoint(own | played)
        assert obs.seat == seat
        assert obs.hand == deal.hand(seat)
        if deal.current_player == seat:
            assert obs.legal_actions == tuple(deal.legal_actions())
        else:
            assert obs.legal_actions == ()
        assert all(a.card in deal.hand(seat) for a in obs.legal_actions if a.card is not None)
        seen = cards_in(obs)
        assert seen <= own | played, CardSet(seen - own - played)
        assert seen.isdisjoint(hidden)
        assert obs.played() == CardSet(played)
        assert obs.hand_sizes == sizes
        d = obs.to_dict()
        assert json.loads(json.dumps(d)) == d
        assert d["hand"] == [str(c) for c in deal.hand(seat)]
        assert d["legal"] == [str(a) for a in obs.legal_actions]
        shown = {s for s in strings_in(d) if s in TOKENS}
        assert shown <= {str(Card(c)) for c in own | played}
        assert shown.isdisjoint(str(Card(c)) for c in hidden)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**64 - 1), st.sampled_from(list(Seat)), variants)
def test_match_observation_carries_the_score_before_the_deal(
    seed: int, first: Seat, variant: Variant
) -> None:
    rng = random.Random(seed)
    match = Match(variant, first)
    for number in range(1, 7):
        if match.is_over():
            break
        before = match.score
        deal = match.start_deal(rng=rng)
        while True:
            seat = Seat(rng.randrange(4))
            obs = match.observation(seat)
            assert isinstance(obs, Observation)
            assert obs.score == before
            assert obs.to_dict()["score"] == {"NS": before[0], "EW": before[1]}
            # A match's observation is the deal's with the match around it: the score before
            # the deal and the deal's number; a deal observed alone has no number.
            assert obs.deal_number == obs.to_dict()["deal_number"] == number
            assert deal.observation(seat).deal_number is None
            assert dataclasses.replace(obs, score=None, deal_number=None) == deal.observation(seat)
            if deal.is_over():
                break
            match.apply(rng.choice(deal.legal_actions()))


#: N wins trick 1 and asks whole; S holds the marriages of diamonds and spades (RULES.md 4.2b).
TWO_MARRIAGES = ("AC 6C 7C 8C 9C JC KH 9H AS", "QC 6S 7S 8S 6D 7D 8D 9D JD",
                 "KC KD QD KS QS JH TH AH QH", "TC 6H 7H 8H 9S JS TS TD AD")  # fmt: skip
WON_FIRST = ("AC", "QC", "KC", "TC")


def played(hands: tuple[str, ...], tokens: tuple[str, ...]) -> Deal:
    """The deal of ``hands`` dealt by W (so N leads) after ``tokens``."""
    deal = Deal([CardSet.parse(h) for h in hands], Seat.W)
    for token in tokens:
        deal.apply(Action.parse(token))
    return deal


def test_only_the_answering_partner_sees_its_choice() -> None:
    """RULES.md 7.2: that the partner had several marriages is private. Until it names one,
    every other seat sees the deal as before the ask-whole, with nothing to do."""
    deal = played(TWO_MARRIAGES, (*WON_FIRST, "ask-whole"))
    before = played(TWO_MARRIAGES, WON_FIRST)
    assert deal.phase is Phase.ANSWER and deal.current_player is Seat.S
    for seat in (Seat.N, Seat.E, Seat.W):
        obs = deal.observation(seat)
        assert obs == dataclasses.replace(before.observation(seat), legal_actions=())
        assert obs.phase is not Phase.ANSWER and obs.asker is None
        assert obs.history == tuple(Action.parse(t) for t in WON_FIRST)
    assert before.observation(Seat.N).legal_actions  # the asker could act before it asked
    partner = deal.observation(Seat.S)
    assert partner.phase is Phase.ANSWER and partner.asker is Seat.N
    assert partner.legal_actions == tuple(deal.legal_actions())
    assert {a.kind for a in partner.legal_actions} == {ActionKind.ANSWER}
    assert partner.history[-1] == Action.parse("ask-whole")


def test_once_answered_nobody_else_can_tell_there_was_a_choice() -> None:
    """With one marriage S answers at once; with two it chooses. Once it has answered, the
    seats that see neither S's hand nor W's see the same in both deals."""
    one = list(TWO_MARRIAGES)
    one[Seat.S], one[Seat.W] = (
        one[Seat.S].replace("KS", "9S"),
        one[Seat.W].replace("9S", "KS"),
    )
    twin = played(tuple(one), (*WON_FIRST, "ask-whole"))
    assert twin.phase is not Phase.ANSWER
    deal = played(TWO_MARRIAGES, (*WON_FIRST, "ask-whole", "answer D"))
    assert twin.events == deal.events and twin.history != deal.history
    for seat in (Seat.N, Seat.E):
        assert twin.observation(seat) == deal.observation(seat)


def test_the_public_actions_each_viewer_may_count() -> None:
    """RULES.md 7.2, as the web table counts moves (``seq``): the match's public actions are
    every action but the answers; while a partner chooses, the ask-whole counts for that
    partner alone, and once answered it counts for everyone, the answer never."""
    match = Match(first_dealer=Seat.W)
    match.start_deal([CardSet.parse(h) for h in TWO_MARRIAGES])
    for token in (*WON_FIRST, "ask-whole"):
        match.apply(Action.parse(token))
    deal = match.deal
    assert deal is not None and deal.phase is Phase.ANSWER
    assert (
        deal.public_history
        == deal.history
        == tuple(Action.parse(t) for t in (*WON_FIRST, "ask-whole"))
    )
    assert match.public_action_count() == 5
    assert match.seen_by(Seat.S).public_action_count() == 5  # the partner choosing
    for viewer in (Seat.N, Seat.E, Seat.W, None):
        assert match.seen_by(viewer).public_action_count() == 4
    match.apply(Action.parse("answer D"))
    assert deal.public_history == deal.history[:-1]
    assert deal.observation(Seat.E).history == deal.public_history
    for viewer in (*Seat, None):
        assert match.seen_by(viewer).public_action_count() == 5
    match.apply(deal.legal_actions()[0])
    assert match.public_action_count() == 6
