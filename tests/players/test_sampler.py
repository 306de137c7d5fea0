"""The sampler: only consistent worlds, every one equally likely, and the benchmark."""

from __future__ import annotations

import dataclasses
import importlib.util
import random
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from hidden_hands import VARIANTS, Hands, agrees, all_worlds, random_game
from valtti.engine import CardSet, Deal, Observation, Seat, Variant
from valtti.players.knowledge import Knowledge, infer
from valtti.players.sampler import Sampler, sample_hands

RANDOM = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@RANDOM
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(VARIANTS), rich=st.booleans())
def test_samples_replay_the_public_record(seed: int, variant: Variant, rich: bool) -> None:
    """In random deals, for every observer at every other position: each sample is judged
    consistent, and the public history replays on it to the very same observation."""
    rng = random.Random(seed)
    for step, deal in enumerate(random_game(seed, variant, rich)):
        if step % 2:
            continue
        for seat in Seat:
            observation = deal.observation(seat)
            k = infer(observation)
            sampler = Sampler(k)
            for _ in range(2):
                hands = sampler.sample(rng)
                assert k.consistent(hands)
                assert agrees(observation, hands)


@RANDOM
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(VARIANTS))
def test_count_is_the_number_of_consistent_worlds(seed: int, variant: Variant) -> None:
    for step, deal in enumerate(random_game(seed, variant, rich=True)):
        if sum(len(h) for h in deal.hands) <= 12:
            observation = deal.observation(Seat(step % 4))
            k = infer(observation)
            assert Sampler(k).count == sum(map(k.consistent, all_worlds(observation)))


@RANDOM
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(VARIANTS))
def test_numbered_worlds_are_every_consistent_world_once(seed: int, variant: Variant) -> None:
    """``world(n)`` for ``n`` below ``count`` lists the consistent worlds, each once: what a hint
    values when there are no more of them than its budget (issue 42)."""
    for step, deal in enumerate(random_game(seed, variant, rich=True)):
        if sum(len(h) for h in deal.hands) <= 12:
            observation = deal.observation(Seat(step % 4))
            k = infer(observation)
            sampler = Sampler(k)
            numbered = [sampler.world(n) for n in range(sampler.count)]
            assert len(set(numbered)) == sampler.count
            assert set(numbered) == {w for w in all_worlds(observation) if k.consistent(w)}
            with pytest.raises(ValueError, match="is not below"):
                sampler.world(sampler.count)


# -- uniformity ------------------------------------------------------------------------------------


def spread(k: Knowledge) -> int:
    """Into how many sets of seats that may hold them the cards not known anywhere fall."""
    free = k.unseen - k.known[0] - k.known[1] - k.known[2] - k.known[3]
    return len({tuple(s for s in Seat if c in k.possible[s]) for c in free})


def late_position(wanted: Callable[[Knowledge], bool], rich: bool) -> Observation:
    """The first position of seeded random deals with three cards a hand, seen by a seat whose
    knowledge is ``wanted``, with the unknown cards spread over at least three sets of seats
    (so that the sampler makes several choices in a row), and 40 to 500 consistent worlds."""
    for seed in range(300):
        for deal in random_game(seed, Variant(), rich):
            if sum(len(h) for h in deal.hands) == 12:
                for seat in Seat:
                    observation = deal.observation(seat)
                    k = infer(observation)
                    if wanted(k) and spread(k) >= 3 and 40 <= Sampler(k).count <= 500:
                        return observation
    raise AssertionError("no such position in the first 300 seeded deals")


def frequencies(worlds: list[Hands], draw: Callable[[], Hands], draws: int) -> list[int]:
    counts = Counter(draw() for _ in range(draws))
    assert set(counts) <= set(worlds), "drew a world the engine does not allow"
    return [counts[w] for w in worlds]


KINDS: dict[str, tuple[Callable[[Knowledge], bool], bool]] = {
    "voids": (lambda k: any(k.voids[s] for s in Seat if s != k.observer), False),
    "not both": (lambda k: any(c.counts == {0, 1} for c in k.constraints), True),
    "exactly one": (lambda k: any(c.counts == {1} for c in k.constraints), True),
}


@pytest.mark.parametrize("kind", KINDS)
def test_samples_are_uniform_over_consistent_worlds(kind: str) -> None:
    observation = late_position(*KINDS[kind])
    # The worlds, as the engine judges them: replaying the public record on every candidate.
    worlds = [w for w in all_worlds(observation) if agrees(observation, w)]
    sampler = Sampler(infer(observation))
    assert sampler.count == len(worlds)
    rng = random.Random(1)
    observed = frequencies(worlds, lambda: sampler.sample(rng), 30 * len(worlds))
    assert chisquare(observed).pvalue > 0.001


def test_the_uniformity_check_catches_a_biased_sampler() -> None:
    """Dealing card by card to a random seat that may take it looks plausible but is biased;
    the chi-square check above must reject it."""
    observation = late_position(*KINDS["voids"])
    k = infer(observation)
    worlds = [w for w in all_worlds(observation) if agrees(observation, w)]
    rng = random.Random(1)

    def card_by_card() -> Hands:
        while True:
            hands = [h.mask for h in k.known]
            for card in k.unseen - CardSet(sum(hands)):
                seats = [
                    s
                    for s in Seat
                    if card in k.possible[s] and hands[s].bit_count() < k.hand_sizes[s]
                ]
                if not seats:
                    break
                hands[rng.choice(seats)] |= 1 << card
            world = (CardSet(hands[0]), CardSet(hands[1]), CardSet(hands[2]), CardSet(hands[3]))
            if k.consistent(world):
                return world

    observed = frequencies(worlds, card_by_card, 30 * len(worlds))
    assert chisquare(observed).pvalue < 1e-6


# -- edges, the short cut, the benchmark -----------------------------------------------------------


def test_finished_deal_has_one_world() -> None:
    deal = Deal.shuffled(random.Random(0), Seat.N)
    deal.playout(random.Random(1))
    sampler = Sampler(infer(deal.observation(Seat.S)))
    assert sampler.count == 1
    assert sampler.sample(random.Random(2)) == deal.hands


def test_knowledge_without_worlds_is_refused() -> None:
    deal = Deal.shuffled(random.Random(0), Seat.N)
    k = infer(deal.observation(Seat.N))
    with pytest.raises(ValueError, match="no hidden hands"):
        Sampler(dataclasses.replace(k, hand_sizes=(9, 9, 9, 8)))


def test_sample_hands_is_reproducible_and_keeps_the_observer_hand() -> None:
    deal = Deal.shuffled(random.Random(0), Seat.N)
    observation = deal.observation(Seat.E)
    first = sample_hands(observation, random.Random(7))
    assert first == sample_hands(observation, random.Random(7))
    assert first[Seat.E] == deal.hand(Seat.E) and agrees(observation, first)


def test_bench_reports_positive_figures() -> None:
    """tools/sampler_bench.py, the draw rate's measurement."""
    path = Path(__file__).resolve().parents[2] / "tools" / "sampler_bench.py"
    spec = importlib.util.spec_from_file_location("sampler_bench", path)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = tool  # its dataclass looks its module up there
    spec.loader.exec_module(tool)
    figures = tool.bench(positions=3, samples=20, seed=1)
    assert figures.positions == 3
    assert figures.sample_us > 0 and figures.samples_per_s == pytest.approx(1e6 / figures.sample_us)
