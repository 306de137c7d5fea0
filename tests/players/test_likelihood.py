"""Inference (players/likelihood.py): world weights from the other seats' actual play, never
any weight for a world that the public play contradicts."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from valtti.engine import NUM_ACTIONS, Action, CardSet, Deal, Observation, Seat, Suit, Variant
from valtti.engine.variant import SWITCHES
from valtti.players import make_player
from valtti.players.knowledge import infer
from valtti.players.likelihood import LearnedLikelihood, replay_consistent
from valtti.players.sampler import Hands, Sampler
from valtti.research.imitate import play_deal

#: The likelihoods the package ships: the learned player's policy, the self-model pimc uses.
LIKELIHOODS = (LearnedLikelihood.shipped(), LearnedLikelihood.self_model())

VARIANTS = [Variant(**{n: SWITCHES[n][i % len(SWITCHES[n])] for n in SWITCHES}) for i in range(4)]

#: N wins trick 1 with AD; S and W show a diamond void, S then a club void; E a club void.
HANDS = [
    CardSet.parse(h)
    for h in (
        "AD QH KS QS 6C 7C 8C 9C JC",
        "6D 7D 8D 9D JD QD KD TD 6H",
        "AS TS JS 9S 8S 7S 6S AH TH",
        "KH JH 9H 8H 7H AC TC QC KC",
    )
]


def scripted(question: str) -> Deal:
    """Trick 1, N's ``question`` (answered "no"), trick 2 to W's AC, W to lead."""
    deal = Deal(HANDS, Seat.W)  # N leads
    for token in ("AD", "6D", "6S", "7H", question, "6C", "7D", "7S", "AC"):
        deal.apply(Action.parse(token))
    assert not any(e.yes for e in deal.events)
    return deal


def swap(hands: Hands, a: Seat, card_a: str, b: Seat, card_b: str) -> Hands:
    out = [h.mask for h in hands]
    ca, cb = CardSet.parse(card_a).mask, CardSet.parse(card_b).mask
    assert out[a] & ca and out[b] & cb
    out[a] ^= ca | cb
    out[b] ^= ca | cb
    return (CardSet(out[0]), CardSet(out[1]), CardSet(out[2]), CardSet(out[3]))


def check(obs: Observation, consistent: list[Hands], contradicting: list[Hands]) -> None:
    knowledge = infer(obs)
    for hands in consistent:
        assert knowledge.consistent(hands) and replay_consistent(obs, hands) is not None
    for hands in contradicting:
        assert not knowledge.consistent(hands) and replay_consistent(obs, hands) is None
    for likelihood in LIKELIHOODS:
        weights = likelihood.weights(obs, consistent + contradicting)
        good, bad = weights[: len(consistent)], weights[len(consistent) :]
        assert all(w > 0 and math.isfinite(w) for w in good)
        assert all(w == 0.0 for w in bad)
        assert max(good) == 1.0


def test_worlds_that_contradict_a_void_or_a_half_question_weigh_nothing() -> None:
    deal = scripted("ask-half H")  # S has no KH: "no"
    obs = deal.observation(Seat.E)
    now = deal.hands
    check(
        obs,
        consistent=[
            now,
            swap(now, Seat.N, "9C", Seat.W, "JH"),
            swap(now, Seat.N, "KS", Seat.S, "8S"),
        ],
        contradicting=[
            swap(now, Seat.W, "KH", Seat.S, "AH"),  # S would have answered "yes"
            swap(now, Seat.S, "8S", Seat.N, "8C"),  # S showed a club void
            swap(now, Seat.N, "QH", Seat.W, "JH"),  # N asked half H without KH or QH
        ],
    )


def test_worlds_that_contradict_a_whole_question_weigh_nothing() -> None:
    deal = scripted("ask-whole")  # S holds no marriage: "no"
    obs = deal.observation(Seat.E)
    now = deal.hands
    s_marriage = swap(swap(now, Seat.S, "9S", Seat.W, "KH"), Seat.S, "8S", Seat.N, "QH")
    check(
        obs,
        consistent=[now, swap(now, Seat.S, "9S", Seat.W, "KH")],
        contradicting=[s_marriage],
    )


def test_sampled_worlds_all_weigh_more_than_nothing_and_shuffled_ones_match_the_knowledge() -> None:
    rng = random.Random(8)
    for n in range(12):
        likelihood = LIKELIHOODS[n % 2]
        deal = Deal.shuffled(rng, Seat(n % 4), VARIANTS[n % len(VARIANTS)])
        players = [make_player("heuristic", seed=s) for s in range(4)]
        stop = rng.randrange(2, 30)
        while len(deal.history) < stop and not deal.is_over():
            seat = deal.current_player
            assert seat is not None
            deal.apply(players[seat].choose(deal.observation(seat)))
        if deal.is_over() or deal.current_player is None:
            continue
        seat = Seat(rng.randrange(4))
        obs = deal.observation(seat)
        knowledge = infer(obs)
        sampled = [Sampler(knowledge).sample(rng) for _ in range(20)]
        # Shuffles of the hidden cards among the hidden seats, consistent or not.
        hidden = [s for s in Seat if s != seat]
        shuffled = []
        for _ in range(40):
            cards = [c for s in hidden for c in deal.hand(s)]
            rng.shuffle(cards)
            out = list(deal.hands)
            at = 0
            for s in hidden:
                k = len(deal.hand(s))
                out[s] = CardSet(cards[at : at + k])
                at += k
            shuffled.append((out[0], out[1], out[2], out[3]))
        weights = likelihood.weights(obs, sampled + shuffled)
        assert all(w > 0 and math.isfinite(w) for w in weights[: len(sampled)])
        for hands, w in zip(shuffled, weights[len(sampled) :], strict=True):
            assert (w > 0) == knowledge.consistent(hands)
            assert math.isfinite(w)


@pytest.mark.slow  # two deals of pimc:hard
def test_the_self_model_predicts_pimc_hards_own_play_better_than_chance() -> None:
    # Deals the model was not fitted to (it was fitted to seed 977's), all four seats' choices.
    decisions = play_deal("pimc:hard-repeatable", seed=5, number=0)
    decisions = decisions + play_deal("pimc:hard-repeatable", seed=5, number=1)
    assert len(decisions) >= 30
    model = LearnedLikelihood.self_model()
    assert model.temperature == 1.0
    bits = np.arange(NUM_ACTIONS, dtype=np.uint64)
    allowed = ((decisions.legal[:, None] >> bits) & np.uint64(1)).astype(bool)
    logits = np.where(allowed, model.model.values(decisions.x).astype(np.float64), -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    log_chance = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    taken = log_chance[np.arange(len(decisions)), decisions.action].mean()
    uniform = -np.log(allowed.sum(axis=1)).mean()
    assert taken > uniform + 0.2, (taken, uniform)


def test_after_partner_names_spades_the_true_deal_weighs_more_than_nothing() -> None:
    """A ♠ named in answer to an ask-whole was read as no answer (``Suit.S`` is 0): every
    world, the true one too, then weighed 0, and the players fell back to uniform weights."""
    hands = [
        CardSet.parse(h)
        for h in (
            "AD 6H 7H 8H 9H 6C 7C 8C 9C",
            "6D 8D 9D JD QD KD TD JH 7S",
            "KS QS KH QH AS TS 6S 7D 8S",
            "JS 9S AH TH AC TC QC KC JC",
        )
    ]
    deal = Deal(hands, Seat.W)  # N leads
    for token in ("AD", "6D", "7D", "JS", "ask-whole", "answer S"):
        deal.apply(Action.parse(token))
    (event,) = [e for e in deal.events if e.how == "ask-whole"]
    assert event.yes and event.suit == Suit.S  # S held two marriages: it named ♠
    for seat in Seat:
        if deal.current_player is None:
            break
        observation = deal.observation(seat)
        for likelihood in LIKELIHOODS:
            assert likelihood.weights(observation, [deal.hands])[0] > 0, seat


def test_over_whole_matches_the_true_deal_weighs_more_than_nothing_at_every_decision() -> None:
    """Every decision of four matches of the heuristic player (declarations, questions both
    ways, answers): the hands as they are weigh more than nothing for every seat's view."""
    from valtti.table import Computer, Table

    decisions = 0
    for seed in range(4):
        table = Table({s: Computer("heuristic") for s in Seat}, seed)
        while not table.match.is_over() and len(table.match.deals) < 6:
            if table.needs_deal:
                table.start_deal()
            deal = table.match.deal
            assert deal is not None
            for seat in Seat:
                observation = table.match.observation(seat)
                for likelihood in LIKELIHOODS:
                    assert likelihood.weights(observation, [deal.hands])[0] > 0
            decisions += 1
            table.apply(table.decide())
    assert decisions > 500
