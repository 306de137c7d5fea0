"""Whether an ask-whole can still succeed (``whole_answer_is_no``, RULES.md 4.2b, 4.3, 4.6):
the engine proves the partner's "no" from the public record and the asker's own hand, and a
proof is never wrong."""

from __future__ import annotations

import dataclasses

from hidden_hands import VARIANTS, deal_of, play, random_game
from valtti.engine import Action, ActionKind, Seat, marriage_suits
from valtti.engine.inference import whole_answer_is_no

N, E, S, W = Seat

#: N wins trick 1 with the ace of clubs; S holds no K+Q (its KC falls in trick 1, its QD's
#: king is W's), but nothing public says so before it answers.
HANDS = (
    "AC 6C 7C 8C 9C JC KH 9H AS",
    "QC 6S 7S 8S 6D 7D 8D QH JD",
    "KC JH 9D TH AH 9S JS TS QD",
    "TC 6H 7H 8H QS KS KD TD AD",
)


def test_a_no_to_ask_whole_proves_the_next_one_cannot_succeed() -> None:
    deal = play(deal_of(*HANDS), "AC, QC, KC, TC")
    assert not whole_answer_is_no(deal.observation(N), S)  # S might hold KS QS or KD QD
    assert Action.parse("ask-whole") in deal.legal_actions()
    play(deal, "ask-whole")
    assert deal.events[-1].how == "ask-whole" and not deal.events[-1].yes
    # Every seat's view proves it now: S answered "no" and only loses cards.
    assert whole_answer_is_no(deal.observation(N), S)
    assert whole_answer_is_no(deal.observation(E), S)


def test_a_partner_with_one_card_left_always_answers_no() -> None:
    observation = play(deal_of(*HANDS), "AC, QC, KC, TC").observation(N)
    assert not whole_answer_is_no(observation, S)
    assert whole_answer_is_no(dataclasses.replace(observation, hand_sizes=(8, 8, 1, 8)), S)


def test_a_proven_no_is_the_answer_the_partner_would_give() -> None:
    """At every window of random deals rich in marriages: when the engine proves the
    partner's "no", the partner's true hand has no marriage it could name (and both cases
    come up)."""
    proven = unproven = 0
    for seed in range(60):
        for deal in random_game(seed, VARIANTS[seed % len(VARIANTS)], rich=True):
            mover = deal.current_player
            legal = deal.legal_actions() if mover is not None else []
            if mover is None or not any(a.kind is ActionKind.ASK_WHOLE for a in legal):
                continue
            partner = mover.partner
            if whole_answer_is_no(deal.observation(mover), partner):
                proven += 1
                declared = [e.suit for e in deal.events if e.yes and e.suit is not None]
                assert not marriage_suits(deal.hands[partner], partner, declared, deal.locked)
            else:
                unproven += 1
    assert proven and unproven
