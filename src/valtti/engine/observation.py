"""What one seat may know (RULES.md 7): its own hand and everything public, nothing else."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from valtti.engine.actions import Action
from valtti.engine.cards import Card, CardSet, Seat, Suit, Team
from valtti.engine.refusal import Refusal
from valtti.engine.variant import Variant
from valtti.engine.views import DealResult, Event, Phase, Trick


@dataclass(frozen=True, slots=True)
class Observation:
    """One seat's view of a deal (and of the match score, when taken from a match).

    Two deals that differ only in cards hidden from ``seat`` give equal observations. While a
    partner chooses which of several marriages to name (the ANSWER phase; with
    ``answer_steps``, after any "yes"), every other seat sees the deal as it was before the
    ask-whole, with no legal actions.
    """

    seat: Seat
    hand: CardSet
    variant: Variant
    dealer: Seat
    forehand: Seat
    phase: Phase
    current_player: Seat | None
    trump: Suit | None
    trump_team: Team | None
    tricks: tuple[Trick, ...]  #: completed tricks
    current_trick: Trick | None
    events: tuple[Event, ...]
    locked: frozenset[Seat]
    asker: Seat | None  #: whose ask-whole awaits the choice, seen only by the choosing partner
    hand_sizes: tuple[int, int, int, int]
    result: DealResult  #: the public columns so far
    legal_actions: tuple[Action, ...]  #: empty unless ``seat`` is to move
    #: The actions so far without ``answer`` tokens: which of several marriages partner chose is
    #: public (the event names it), that there was a choice is not (RULES.md 7.2).
    history: tuple[Action, ...]
    score: tuple[int, int] | None = None  #: the match score before this deal, by team
    #: Why each card of ``hand`` that is not legal may not be played (``Deal.refusals``, whose
    #: ``Refusal``s are built only when read): empty unless ``seat`` is to move.
    refusals: Sequence[Refusal] = ()
    #: Which deal of its match this is, from 1 (``Match.observation``); ``None`` for a deal
    #: observed on its own (``Deal.observation``), which knows nothing of a match.
    deal_number: int | None = None
    #: The deal's ``answer_steps`` (``Deal``): a deal rebuilt from this view
    #: (``Deal.of_observation``) must step through the same phases as the real one. Not in
    #: ``to_dict`` (docs/PROTOCOL.md): a bot meets it only as a forced ``answer`` to make.
    answer_steps: bool = False

    def with_score(self, score: tuple[int, int]) -> Observation:
        return replace(self, score=score)

    def played(self) -> CardSet:
        """Every card played so far, this trick included."""
        cards = [c for t in self.tricks for c in t.cards]
        if self.current_trick is not None:
            cards.extend(self.current_trick.cards)
        return CardSet(cards)

    def played_by(self) -> tuple[CardSet, CardSet, CardSet, CardSet]:
        """The cards each seat has played so far, N E S W."""
        played: list[list[Card]] = [[], [], [], []]
        tricks = self.tricks if self.current_trick is None else (*self.tricks, self.current_trick)
        for trick in tricks:
            for seat, card in trick.plays:
                played[seat].append(card)
        n, e, s, w = (CardSet(cards) for cards in played)
        return (n, e, s, w)

    def public(self) -> dict[str, Any]:
        """``to_dict()`` without ``seat``, ``hand``, ``legal`` and ``refusals``: what every
        viewer of the same position shares (a spectator's view is this with no seat, hand,
        legal action or refusal)."""
        out = self.to_dict()
        del out["seat"], out["hand"], out["legal"], out["refusals"]
        return out

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form with RECORD.md tokens."""

        def trick(t: Trick | None) -> dict[str, Any] | None:
            if t is None:
                return None
            return {
                "number": t.number,
                "leader": str(t.leader),
                "cards": [str(c) for c in t.cards],
                "winner": None if t.winner is None else str(t.winner),
            }

        def text(v: object) -> str | None:
            return None if v is None else str(v)

        return {
            "seat": str(self.seat),
            "hand": self.hand.tokens(),
            "variant": self.variant.changes(),
            "dealer": str(self.dealer),
            "forehand": str(self.forehand),
            "phase": str(self.phase),
            "to_move": text(self.current_player),
            "trump": text(self.trump),
            "trump_team": text(self.trump_team),
            "tricks": [trick(t) for t in self.tricks],
            "current_trick": trick(self.current_trick),
            "events": [
                {
                    "after_trick": e.after_trick,
                    "seat": str(e.seat),
                    "how": e.how,
                    "suit": text(e.suit),
                    "yes": e.yes,
                    "points": e.points,
                }
                for e in self.events
            ],
            "locked": sorted(str(s) for s in self.locked),
            "asker": text(self.asker),
            "hand_sizes": dict(zip("NESW", self.hand_sizes, strict=True)),
            "tricks_won": Team.named(self.result.tricks),
            "card_points": Team.named(self.result.card_points),
            "game_points": Team.named(self.result.game_points),
            "legal": [str(a) for a in self.legal_actions],
            "history": [str(a) for a in self.history],
            "score": None if self.score is None else Team.named(self.score),
            "refusals": [r.to_dict() for r in self.refusals],
            "deal_number": self.deal_number,
        }
