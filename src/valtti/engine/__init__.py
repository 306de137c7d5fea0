"""The Marjapussi rules engine: cards, actions, variants, one deal, the match, records, and
what the public record proves about the hidden hands.

Pure: no I/O, and no randomness except from a generator passed in (``random.Random``, or the
package's own, ``SplitMix``, which the compiled players and tables draw alike).
"""

from valtti.engine._deal import (
    CardRefusals,
    Deal,
    SplitMix,
    beats_card,
    deal_hands,
    marriage_suits,
    marriage_worth,
    play_shows,
    takes_victory,
    trick_winner,
    window_actions,
)
from valtti.engine.actions import ACTIONS, NUM_ACTIONS, Action, ActionKind
from valtti.engine.cards import (
    CARDS,
    DECK_POINTS,
    HALF_DECK_POINTS,
    LITTLE_TRUMP_POINTS,
    NUM_CARDS,
    TRUMP_MARRIAGE_POINTS,
    Card,
    CardSet,
    Rank,
    Seat,
    Suit,
    Team,
)
from valtti.engine.inference import Constraints, PairConstraint, constraints
from valtti.engine.match import (
    DealScore,
    Match,
    Outcome,
    match_outcome,
    match_score_after,
    score_deal,
)
from valtti.engine.observation import Observation
from valtti.engine.refusal import Refusal, RefusalCode
from valtti.engine.solver import DealValue, Solver
from valtti.engine.variant import Variant
from valtti.engine.views import DealResult, Event, IllegalActionError, Marriage, Phase, Trick

__all__ = [
    "ACTIONS",
    "CARDS",
    "DECK_POINTS",
    "HALF_DECK_POINTS",
    "LITTLE_TRUMP_POINTS",
    "NUM_ACTIONS",
    "NUM_CARDS",
    "TRUMP_MARRIAGE_POINTS",
    "Action",
    "ActionKind",
    "Card",
    "CardRefusals",
    "CardSet",
    "Constraints",
    "Deal",
    "DealResult",
    "DealScore",
    "DealValue",
    "Event",
    "IllegalActionError",
    "Marriage",
    "Match",
    "Observation",
    "Outcome",
    "PairConstraint",
    "Phase",
    "Rank",
    "Refusal",
    "RefusalCode",
    "Seat",
    "Solver",
    "SplitMix",
    "Suit",
    "Team",
    "Trick",
    "Variant",
    "beats_card",
    "constraints",
    "deal_hands",
    "marriage_suits",
    "marriage_worth",
    "match_outcome",
    "match_score_after",
    "play_shows",
    "score_deal",
    "takes_victory",
    "trick_winner",
    "window_actions",
]
