"""The server's encoding of each seat's observation is the engine's, however it is built."""

from __future__ import annotations

import json
import random

import pytest
from tests.web.crafted import answered_match

from valtti.engine import Action, CardSet, Match, Seat, Variant
from valtti.web.referee.frames import observations_json, replay_steps


def assert_views_are_observations(match: Match) -> None:
    """Each seat's view is its observation; a spectator's is that of a seat not to move."""
    views = observations_json(match, [*Seat, None])
    for seat in Seat:
        assert json.loads(views[seat]) == match.observation(seat).to_dict()
    watcher = next(s for s in Seat if s != match.current_player)
    spectator = match.observation(watcher).to_dict() | {"seat": None, "hand": [], "legal": []}
    assert json.loads(views[None]) == spectator


@pytest.mark.parametrize("seed", range(3))
def test_each_seats_view_is_its_observation(seed: int) -> None:
    rng = random.Random(seed)
    match = Match(Variant(first_forehand="club_ace_holder"), Seat(seed % 4))
    for _ in range(3):
        match.start_deal(rng=rng)
        while True:
            assert_views_are_observations(match)
            deal = match.deal
            assert deal is not None
            if deal.is_over():
                break
            match.apply(rng.choice(match.legal_actions()))
        if match.is_over():
            break


def test_views_while_a_partner_chooses_a_marriage() -> None:
    # N wins trick 1 and asks whole; S holds the marriages of diamonds and spades.
    hands = ("AC 6C 7C 8C 9C JC KH 9H AS", "QC 6S 7S 8S 6D 7D 8D 9D JD",
             "KC KD QD KS QS JH TH AH QH", "TC 6H 7H 8H 9S JS TS TD AD")  # fmt: skip
    match = Match(Variant(), Seat.W)
    match.start_deal([CardSet.parse(h) for h in hands])
    for token in ("AC", "QC", "KC", "TC", "ask-whole"):
        match.apply(Action.parse(token))
    assert match.current_player is Seat.S
    assert_views_are_observations(match)
    views = {v: json.loads(text) for v, text in observations_json(match, [*Seat, None]).items()}
    assert views[Seat.S]["phase"] == "answer" and views[Seat.S]["legal"] == ["answer S", "answer D"]
    for viewer in (Seat.N, Seat.E, Seat.W, None):
        assert views[viewer]["phase"] != "answer" and views[viewer]["asker"] is None
        assert views[viewer]["history"] == ["AC", "QC", "KC", "TC"]
        assert views[viewer]["legal"] == []


def test_a_replay_step_shows_the_partner_choosing_as_the_engine_does() -> None:
    # North asks for a whole marriage; South, holding several, is to move until it names one.
    match = answered_match()
    steps = replay_steps(match)
    asked = next(i for i, s in enumerate(steps) if s["action"] == "ask-whole")
    assert steps[asked + 1]["action"] == "answer D"
    pending = steps[asked]["observation"]
    at = match.after(0, match.deals[0].history.index(Action.parse("ask-whole")) + 1)
    assert at.current_player is Seat.S and at.deal is not None
    assert pending["phase"] == str(at.deal.phase) == "answer"
    assert pending["to_move"] == "S" and pending["asker"] == "N"
    assert pending["hand"] == [] and pending["legal"] == [] and pending["seat"] is None
    # The answer's step: North leads on, the question answered.
    answered = steps[asked + 1]["observation"]
    assert answered["phase"] == "play" and answered["to_move"] == "N"
    assert [e["how"] for e in answered["events"]] == ["ask-whole"]
