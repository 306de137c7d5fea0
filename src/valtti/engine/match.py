"""The match: deals in turn, the score to exactly the target, Porvoo, overshoot (RULES.md 2, 6)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from valtti.engine._deal import Deal, SplitMix
from valtti.engine.actions import Action
from valtti.engine.cards import CARDS, CardSet, Rank, Seat, Suit, Team
from valtti.engine.observation import Observation
from valtti.engine.variant import Variant
from valtti.engine.views import DealResult

CLUB_ACE = CARDS[Suit.C * 9 + Rank.ACE]

#: How a match ended: a team won, a draw, or ``None`` while it is unfinished (or was stopped).
Outcome = Literal["NS", "EW", "draw"] | None


@dataclass(frozen=True, slots=True)
class DealScore:
    """How one deal moved the match score (RULES.md 6), indexed by ``Team``."""

    before: tuple[int, int]
    game_points: tuple[int, int]
    after: tuple[int, int]
    porvoo: tuple[bool, bool]  #: took no trick: score to 0 (6.1)
    overshoot: tuple[bool, bool]  #: went past the target: score to overshoot_to (6.2)
    outcome: Outcome = None  #: how the match stands after it (6.3, ``match_outcome``)


def _team_score(
    before: int, game_points: int, took_a_trick: bool, variant: Variant
) -> tuple[int, bool]:
    """One team's match score after a deal and whether it overshot (RULES.md 6.1, 6.2): 0
    without a trick (Porvoo), else the sum, or ``overshoot_to`` when that is past the target."""
    score = before + game_points if took_a_trick else 0
    overshot = score > variant.target
    return (variant.overshoot_to if overshot else score), overshot


def match_outcome(score: tuple[int, int], variant: Variant) -> Outcome:
    """How a match standing at ``score`` (NS, EW) after a deal has ended (RULES.md 6.3): the
    team exactly on the target alone has won, both on it is a draw (``both_on_target=draw``);
    ``None`` otherwise (the match goes on, or under ``continue`` both go on from the target)."""
    ns, ew = score[0] == variant.target, score[1] == variant.target
    if ns and ew:
        return "draw" if variant.both_on_target == "draw" else None
    return "NS" if ns else "EW" if ew else None


def match_score_after(
    score: tuple[int, int],
    game_points: tuple[int, int],
    took_a_trick: tuple[bool, bool],
    variant: Variant,
) -> tuple[tuple[int, int], Outcome]:
    """What a deal does to a match standing at ``score``: the score after it and the match's
    outcome then (``match_outcome``), for a deal in which the teams made ``game_points`` and
    took a trick or not (``took_a_trick``), each indexed by ``Team`` (RULES.md 6.1 to 6.3).
    ``score_deal`` is this for a deal's result; a player weighing outcomes asks here."""
    after = (
        _team_score(score[0], game_points[0], took_a_trick[0], variant)[0],
        _team_score(score[1], game_points[1], took_a_trick[1], variant)[0],
    )
    return after, match_outcome(after, variant)


def score_deal(before: tuple[int, int], result: DealResult, variant: Variant) -> DealScore:
    """Apply one finished deal's result to the match score (RULES.md 6.1 to 6.3)."""
    points, tricks = result.game_points, result.tricks
    ns = _team_score(before[0], points[0], tricks[0] > 0, variant)
    ew = _team_score(before[1], points[1], tricks[1] > 0, variant)
    after = (ns[0], ew[0])
    return DealScore(
        before,
        points,
        after,
        (tricks[0] == 0, tricks[1] == 0),
        (ns[1], ew[1]),
        match_outcome(after, variant),
    )


def match_goes_on(score: tuple[int, int], variant: Variant) -> bool:
    """Whether a match standing at ``score`` (NS, EW) deals again (RULES.md 6.3): both teams
    from 0 to the target, and not one alone on it, nor both where that is a draw."""
    target = variant.target
    return all(0 <= s <= target for s in score) and match_outcome(score, variant) is None


def forehand_of(dealer: Seat, hands: Sequence[CardSet], variant: Variant, first_deal: bool) -> Seat:
    """Who leads trick 1 (RULES.md 2.2; variant first_forehand on the first deal)."""
    if first_deal and variant.first_forehand == "club_ace_holder":
        return next(Seat(i) for i, hand in enumerate(hands) if CLUB_ACE in hand)
    return dealer.left


class Match:
    """A match of deals until one team is exactly on the target, or a draw.

    Play goes through ``apply()`` (or the latest deal's own ``apply()``); a deal is scored as soon
    as it is finished. ``start_deal()`` begins the next one with the dealer the rules give.
    ``answer_steps``: every deal's (``Deal``), off for the table and on in ``valtti.research``.
    """

    def __init__(
        self,
        variant: Variant | None = None,
        first_dealer: Seat = Seat.N,
        *,
        answer_steps: bool = False,
    ) -> None:
        """``TypeError`` for a variant that is no ``Variant`` or ``answer_steps`` no bool, as
        ``Deal`` says them, now rather than at the first deal."""
        if not isinstance(variant, Variant | None):
            raise TypeError(f"variant must be a Variant, not {type(variant).__name__}")
        if not isinstance(answer_steps, bool):
            raise TypeError(f"answer_steps must be a bool, not {type(answer_steps).__name__}")
        self.variant = variant or Variant()
        self.first_dealer = Seat(first_dealer)
        self.answer_steps = answer_steps
        self.deals: list[Deal] = []
        self._scores: list[DealScore] = []

    @property
    def deal_scores(self) -> list[DealScore]:
        """How each finished deal moved the score."""
        if len(self._scores) < len(self.deals) and self.deals[-1].is_over():
            before = self._scores[-1].after if self._scores else (0, 0)
            self._scores.append(score_deal(before, self.deals[-1].result(), self.variant))
        return self._scores

    @property
    def score(self) -> tuple[int, int]:
        """The current match score, NS then EW."""
        scores = self.deal_scores
        return scores[-1].after if scores else (0, 0)

    @property
    def deal(self) -> Deal | None:
        """The latest deal (finished or not), or ``None`` before the first."""
        return self.deals[-1] if self.deals else None

    @property
    def next_dealer(self) -> Seat:
        """The next deal's dealer: the first dealer, then each deal's forehand (RULES.md 2.3)."""
        return self.deals[-1].forehand if self.deals else self.first_dealer

    @property
    def winner(self) -> Team | None:
        """The team exactly on the target alone after a deal (RULES.md 6.3)."""
        outcome = self.outcome
        return None if outcome is None or outcome == "draw" else Team[outcome]

    @property
    def is_draw(self) -> bool:
        return self.outcome == "draw"

    def is_over(self) -> bool:
        return not match_goes_on(self.score, self.variant)

    @property
    def outcome(self) -> Outcome:
        """``"NS"`` or ``"EW"`` for the winner, ``"draw"``, or ``None`` while unfinished."""
        return match_outcome(self.score, self.variant)

    def start_deal(
        self,
        hands: Sequence[CardSet] | None = None,
        rng: random.Random | SplitMix | None = None,
    ) -> Deal:
        """Begin the next deal with the given hands, or hands shuffled from ``rng``.

        ``ValueError`` while a deal is unfinished or once the match is over.
        """
        if self.deal is not None and not self.deal.is_over():
            raise ValueError("the current deal is not finished")
        if self.is_over():
            raise ValueError("the match is over")
        dealer = self.next_dealer
        if hands is None:
            if rng is None:
                raise ValueError("start_deal needs hands or a random generator")
            steps = self.answer_steps
            deal = Deal.shuffled(rng, dealer, self.variant, answer_steps=steps)
            forehand = forehand_of(dealer, deal.hands, self.variant, not self.deals)
            if forehand != deal.forehand:
                deal = Deal(deal.hands, dealer, self.variant, forehand, answer_steps=steps)
        else:
            hands = [h if isinstance(h, CardSet) else CardSet(h) for h in hands]
            forehand = forehand_of(dealer, hands, self.variant, not self.deals)
            deal = Deal(hands, dealer, self.variant, forehand, answer_steps=self.answer_steps)
        self.deals.append(deal)
        return deal

    def _current(self) -> Deal:
        if self.deal is None or self.deal.is_over():
            raise ValueError("no deal is being played: start the next deal first")
        return self.deal

    def legal_actions(self) -> list[Action]:
        deal = self.deal
        return [] if deal is None else deal.legal_actions()

    @property
    def current_player(self) -> Seat | None:
        return None if self.deal is None else self.deal.current_player

    def apply(self, action: int) -> None:
        """Apply an action to the current deal, scoring the deal when it ends."""
        self._current().apply(action)

    def observation(self, seat: Seat) -> Observation:
        """The seat's view of the latest deal with the score before it and its deal number."""
        deal = self._latest()
        return replace(
            deal.observation(seat), score=self._score_before(deal), deal_number=len(self.deals)
        )

    def view(self, viewer: Seat | None) -> dict[str, Any]:
        """What ``viewer`` may know of the latest deal (RULES.md 7), JSON-ready: a seat's
        ``observation(seat).to_dict()``; a spectator's (``None``) the ``public()`` part of
        what every seat but a partner choosing a marriage sees, with ``"seat": None``, no hand
        and no legal actions."""
        if viewer is not None:
            return self.observation(viewer).to_dict()
        return self._public_view(self._latest().seen_by(None))

    def replay_view(self) -> dict[str, Any]:
        """The latest deal as it stands, for anyone once the match is over (a replay): a
        spectator's ``view(None)`` but while a partner chooses which marriage to name, shown as
        the engine has it (the ANSWER phase, the partner to move, ``asker``), not as the deal
        before the ``ask-whole``: RULES.md 7.2 hides the choice only while the match is played."""
        return self._public_view(self._latest())

    def _public_view(self, deal: Deal) -> dict[str, Any]:
        """``deal`` (the latest, or what a spectator sees of it) without seat, hand or legal
        actions."""
        # Seen by the seat to move, a deal is itself (Deal.seen_by); its public part is then
        # the same for every seat.
        to_move = deal.current_player
        seen = deal.observation(Seat.N if to_move is None else to_move)
        public = replace(seen, score=self._score_before(deal), deal_number=len(self.deals)).public()
        return {"seat": None, "hand": [], "legal": [], "refusals": [], **public}

    def _score_before(self, deal: Deal) -> tuple[int, int]:
        return self.deal_scores[len(self.deals) - 1].before if deal.is_over() else self.score

    def after(self, deal_index: int, n: int) -> Match:
        """A new match: this one up to deal ``deal_index`` (from 0), after that deal's first
        ``n`` actions (``Deal.after``); the deals before it as played."""
        if not 0 <= deal_index < len(self.deals):
            raise ValueError(f"a match of {len(self.deals)} deals has no deal {deal_index}")
        out = Match(self.variant, self.first_dealer, answer_steps=self.answer_steps)
        out.deals = [d.copy() for d in self.deals[:deal_index]]
        out.deals.append(self.deals[deal_index].after(n))
        out._scores = self.deal_scores[:deal_index]
        return out

    def seen_by(self, viewer: Seat | None) -> Match:
        """The match as ``viewer`` (a seat, or ``None``: a spectator) may see it: itself, or
        while a partner chooses which marriage to name, for anyone else the match before the
        ``ask-whole`` (``Deal.seen_by``; a new match)."""
        deal = self.deal
        if deal is None or deal.seen_by(viewer) is deal:
            return self
        return self.after(len(self.deals) - 1, len(deal.history) - 1)

    def public_action_count(self) -> int:
        """How many of the match's actions are public (RULES.md 7.1, 7.2): every action of
        every deal but the ``answer``s (``Deal.public_history``), the table's count of moves.
        What a viewer (a seat, or ``None``: a spectator) may know of is that of the match it
        sees, ``seen_by(viewer).public_action_count()``: while a partner chooses which marriage
        to name, the ``ask-whole`` counts for that partner alone."""
        return sum(len(deal.public_history) for deal in self.deals)

    def deal_summary(self, index: int) -> dict[str, Any]:
        """The public columns of deal ``index`` (from 0): dealer, trumps, marriages, tricks,
        card and game points, and the match score after it (so far, while it is played); and
        how it was scored: the score ``before`` it, the team that took the ``last`` trick and
        the one with more than 60 card points (``victory``), and per team whether it went to
        ``porvoo`` (RULES.md 6.1) or past the target (``overshoot``, 6.2): all false while it
        is played."""
        deal = self.deals[index]
        result = deal.result()
        scores = self.deal_scores
        return {
            "dealer": str(deal.dealer),
            "trump": None if deal.trump is None else str(deal.trump),
            "marriages": [
                {
                    "suit": str(m.suit),
                    "team": str(m.team),
                    "seat": str(m.seat),
                    "how": m.how,
                    "points": m.points,
                }
                for m in deal.marriages
            ],
            "tricks": Team.named(result.tricks),
            "card_points": Team.named(result.card_points),
            "game_points": Team.named(result.game_points),
            "score": Team.named(scores[index].after if index < len(scores) else self.score),
            "before": Team.named(scores[index].before if index < len(scores) else self.score),
            "last": None if result.last is None else str(result.last),
            "victory": None if result.victory is None else str(result.victory),
            "porvoo": Team.named(scores[index].porvoo if index < len(scores) else (False, False)),
            "overshoot": Team.named(
                scores[index].overshoot if index < len(scores) else (False, False)
            ),
        }

    def summary(self) -> dict[str, Any]:
        """Each deal's public columns (``deal_summary``), the winner, and who is to move with
        which actions. The ``valtti replay --json`` object (docs/PLAYING.md, "Records and
        replays")."""
        to_move = self.current_player
        return {
            "deals": [self.deal_summary(i) for i in range(len(self.deals))],
            "winner": self.outcome,
            "to_move": None if to_move is None else str(to_move),
            "legal": [str(a) for a in self.legal_actions()],
        }

    def _latest(self) -> Deal:
        if self.deal is None:
            raise ValueError("no deal has been started")
        return self.deal
