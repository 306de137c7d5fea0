"""The Marjapussi rules engine: cards, actions, variants, one deal, the match, records.

Pure: no I/O, and no randomness except from a generator passed in.
"""

from valtti.engine._deal import CardRefusals, Deal, deal_hands
from valtti.engine.actions import ACTIONS, NUM_ACTIONS, Action, ActionKind
from valtti.engine.cards import CARDS, NUM_CARDS, Card, CardSet, Rank, Seat, Suit, Team
from valtti.engine.match import DealScore, Match, score_deal
from valtti.engine.observation import Observation
from valtti.engine.refusal import Refusal, RefusalCode
from valtti.engine.variant import Variant
from valtti.engine.views import DealResult, Event, IllegalActionError, Marriage, Phase, Trick

__all__ = [
    "ACTIONS",
    "CARDS",
    "NUM_ACTIONS",
    "NUM_CARDS",
    "Action",
    "ActionKind",
    "Card",
    "CardRefusals",
    "CardSet",
    "Deal",
    "DealResult",
    "DealScore",
    "Event",
    "IllegalActionError",
    "Marriage",
    "Match",
    "Observation",
    "Phase",
    "Rank",
    "Refusal",
    "RefusalCode",
    "Seat",
    "Suit",
    "Team",
    "Trick",
    "Variant",
    "deal_hands",
    "score_deal",
]
