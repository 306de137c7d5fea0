"""Rebuilding a whole deal from one seat's observation and a guess at the hidden hands."""

from __future__ import annotations

from collections.abc import Sequence

from valtti.engine import CardSet, Deal, Observation


def rebuild(observation: Observation, hands: Sequence[CardSet]) -> Deal:
    """The deal at the observed point if the seats hold ``hands`` now (N E S W).

    The observer's own hand must be the observed one. The public history is replayed
    (``Deal.of_observation``), so ``IllegalActionError`` (a ``ValueError``) means the hands
    contradict what was seen.
    """
    if hands[observation.seat] != observation.hand:
        raise ValueError(f"{observation.seat}'s hand must be the observed one")
    deal = Deal.of_observation(observation, hands)
    if deal.current_player != observation.current_player:
        raise ValueError("the rebuilt deal does not reach the observed position")
    return deal
