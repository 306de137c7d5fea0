"""The package's generator, ``SplitMix`` (the engine's ``rng_next`` and ``rng_below``): SplitMix64
as published, drawn alike from Python and in C, and refusing what it cannot draw."""

from __future__ import annotations

import pytest

from valtti.engine import Deal, Seat, SplitMix

MASK = (1 << 64) - 1


def splitmix64(state: int) -> tuple[int, int]:
    """The reference algorithm (Steele, Lea and Flood; Vigna's splitmix64.c): (output, state)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31), state


def test_it_draws_the_published_sequence() -> None:
    rng = SplitMix(1234567)  # the test vector of splitmix64.c's usual seed
    assert [rng.getrandbits(64) for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


@pytest.mark.parametrize("seed", [0, 1, 2**32, 2**64 - 1, 2**64 + 5, -1])
def test_each_draw_is_the_reference_algorithms(seed: int) -> None:
    rng, state = SplitMix(seed), seed & MASK
    for k in (64, 1, 32, 63, 7):
        out, state = splitmix64(state)
        assert rng.getrandbits(k) == out >> (64 - k)
    for n in (1, 4, 36, 10**12, 2**64 - 1):
        out, state = splitmix64(state)
        assert rng.randrange(n) == out % n


def test_a_deal_shuffled_from_it_is_reproducible() -> None:
    one, two = (Deal.shuffled(SplitMix(9), Seat.N) for _ in range(2))
    assert one.hands == two.hands
    assert Deal.shuffled(SplitMix(10), Seat.N).hands != one.hands


def test_it_refuses_what_it_cannot_draw() -> None:
    rng = SplitMix(3)
    for k in (0, 65, -1):
        with pytest.raises(ValueError, match="k is 1 to 64"):
            rng.getrandbits(k)
    for n in (0, -3, 2**64):
        with pytest.raises(ValueError, match="randrange needs"):
            rng.randrange(n)
    with pytest.raises(TypeError):
        SplitMix(1.5)  # type: ignore[arg-type]
    assert rng.getrandbits(64) == SplitMix(3).getrandbits(64)  # nothing drawn by the refusals
