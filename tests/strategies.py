"""Hypothesis strategies shared by the property tests."""

from __future__ import annotations

from hypothesis import strategies as st

from valtti.engine import Variant
from valtti.engine.variant import SWITCHES

SUIT_CHARS = "SHDC"
DECK = [r + s for s in SUIT_CHARS for r in "6789JQKTA"]

#: Every combination of the variant switches' values.
variants = st.fixed_dictionaries(
    {name: st.sampled_from(values) for name, values in SWITCHES.items()}
).map(lambda d: Variant(**d))


@st.composite
def marriage_hands(draw: st.DrawFn) -> list[list[str]]:
    """Four hands of nine tokens with each suit's K+Q dealt together to a drawn seat, so that
    marriages, questions and answers are frequent."""
    owners = draw(st.lists(st.sampled_from(range(4)), min_size=4, max_size=4))
    rest = draw(st.permutations([c for c in DECK if c[0] not in "KQ"]))
    hands: list[list[str]] = [[], [], [], []]
    for s, seat in zip(SUIT_CHARS, owners, strict=True):
        hands[seat] += ["K" + s, "Q" + s]
    for c in rest:
        next(h for h in hands if len(h) < 9).append(c)
    return hands
