"""Rebuilding a whole deal from one seat's observation and a guess at the hidden hands."""

from __future__ import annotations

from collections.abc import Sequence

from valtti.engine import Action, CardSet, Deal, Observation, Phase, Seat


def played_by(observation: Observation) -> tuple[CardSet, CardSet, CardSet, CardSet]:
    """The cards each seat has played so far, N E S W."""
    played: list[list[int]] = [[], [], [], []]
    tricks = list(observation.tricks)
    if observation.current_trick is not None:
        tricks.append(observation.current_trick)
    for trick in tricks:
        for seat, card in trick.plays:
            played[seat].append(card)
    n, e, s, w = (CardSet(cards) for cards in played)
    return (n, e, s, w)


def rebuild(observation: Observation, hands: Sequence[CardSet]) -> Deal:
    """The deal at the observed point if the seats hold ``hands`` now (N E S W).

    The observer's own hand must be the observed one. The public history is replayed, so
    ``IllegalActionError`` (a ``ValueError``) means the hands contradict what was seen.
    """
    if hands[observation.seat] != observation.hand:
        raise ValueError(f"{observation.seat}'s hand must be the observed one")
    played = played_by(observation)
    deal = Deal(
        [hands[i] | played[i] for i in range(4)],
        observation.dealer,
        observation.variant,
        observation.forehand,
    )
    answers = [e.suit for e in observation.events if e.how == "ask-whole" and e.yes]
    for action in observation.history:
        deal.apply(action)
        answered = sum(1 for e in deal.events if e.how == "ask-whole" and e.yes)
        if deal.phase is Phase.ANSWER and answered < len(answers):
            # Partner held several marriages in these hands; the public event says which was named.
            named = answers[answered]
            assert named is not None
            deal.apply(Action.answer(named))
    if deal.current_player != observation.current_player:
        raise ValueError("the rebuilt deal does not reach the observed position")
    return deal


def hidden_seats(observation: Observation) -> tuple[Seat, ...]:
    """The seats whose cards the observer cannot see."""
    return tuple(s for s in Seat if s != observation.seat)
