"""A fast rule-based playout with every hand open: how a hint finishes the first tricks of a
line cheaply before the exact solver takes over (``players.appraise``).

Each seat plays by a few rules of thumb seeing every card: in a declaration window it declares
a marriage when it can (no question: their locks are the solver's to weigh); following, it
gives its partner's winning trick the most points it can without overtaking it, takes an
opponent's trick with its cheapest winning card, and otherwise throws its cheapest card;
leading, it leads its cheapest card. No randomness: the same position, the same line.
"""

from __future__ import annotations

from valtti.engine import Action, ActionKind, Deal, Phase, Seat, beats_card


def rule_action(deal: Deal) -> Action:
    """The action the rules of thumb choose for the seat to move in ``deal`` (not over)."""
    legal = deal.legal_actions()
    if len(legal) == 1:
        return legal[0]
    declarations = [a for a in legal if a.kind is ActionKind.DECLARE]
    if declarations:
        return declarations[0]
    if deal.phase is Phase.ANSWER:
        return legal[0]
    cards = [a for a in legal if a.kind is ActionKind.PLAY]
    winning = deal.winning_card
    trick = deal.current_trick

    def cheap(a: Action) -> tuple[int, int]:
        card = a.card
        assert card is not None
        return (card.points, card.rank)

    if winning is None or trick is None:
        return min(cards, key=cheap)
    trump = deal.trump
    winner = Seat((trick.leader + trick.cards.index(winning)) % 4)
    mover = deal.current_player
    assert mover is not None
    beating = [a for a in cards if beats_card(a.card or 0, winning, trump)]
    if winner.team == mover.team:
        # The partner's trick so far: give it points, not a card that takes it over.
        keep = [a for a in cards if a not in beating] or cards
        return max(keep, key=lambda a: (cheap(a)[0], -cheap(a)[1]))
    if beating:
        return min(beating, key=cheap)
    return min(cards, key=cheap)


def play_to(deal: Deal, tricks: int) -> list[Action]:
    """Play ``deal`` on by ``rule_action`` until ``tricks`` tricks are complete and the next
    has no card yet (its window, if any, still open), or the deal is over; the actions played."""
    played = []
    while not deal.is_over():
        trick = deal.current_trick
        if deal.tricks_played >= tricks and trick is not None and not trick.cards:
            break
        action = rule_action(deal)
        deal.apply(action)
        played.append(action)
    return played
