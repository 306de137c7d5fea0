"""The server's encoding of each seat's observation is the engine's, however it is built."""

from __future__ import annotations

import json
import random

import pytest

from valtti.engine import Match, Seat, Variant
from valtti.web.room import observations_json


@pytest.mark.parametrize("seed", range(3))
def test_each_seats_view_is_its_observation(seed: int) -> None:
    rng = random.Random(seed)
    match = Match(Variant(first_forehand="club_ace_holder"), Seat(seed % 4))
    everyone = [*Seat, None]
    for _ in range(3):
        match.start_deal(rng=rng)
        while True:
            views = observations_json(match, everyone)
            for seat in Seat:
                assert json.loads(views[seat]) == match.observation(seat).to_dict()
            spectator = match.observation(Seat.N).to_dict() | {
                "seat": None,
                "hand": [],
                "legal": [],
            }
            assert json.loads(views[None]) == spectator
            deal = match.deal
            assert deal is not None
            if deal.is_over():
                break
            match.apply(rng.choice(match.legal_actions()))
        if match.is_over():
            break
