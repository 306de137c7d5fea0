"""The deals' columns a state frame carries are the engine's summary, to the byte, however
they are built (valtti.web.referee.frames.DealColumns keeps the scored deals' encoded)."""

from __future__ import annotations

import json
import random

import pytest

from valtti.engine import Match, Seat, Variant
from valtti.web.referee.frames import DealColumns


@pytest.mark.parametrize("seed", range(3))
def test_the_columns_are_the_summarys_deals(seed: int) -> None:
    rng = random.Random(seed)
    match = Match(Variant(), Seat(seed % 4))
    columns = DealColumns()
    while not match.is_over():
        match.start_deal(rng=rng)
        deal = match.deal
        assert deal is not None
        while True:
            assert columns.json(match) == json.dumps(match.summary()["deals"])
            if deal.is_over():
                break
            match.apply(rng.choice(match.legal_actions()))
    assert len(match.deals) > 1  # scored deals were encoded once and kept
