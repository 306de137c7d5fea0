"""Why an action is refused, as data: a ``RefusalCode`` with its arguments.

The deal decides legality (``Deal.refusal``); a ``Refusal`` is what it found, so that front ends
translate the code and its arguments into their own words. ``str()`` is the engine's English.
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from valtti.engine.actions import NUM_ACTIONS, Action
from valtti.engine.cards import Card, Seat, Suit, Team


class RefusalCode(StrEnum):
    """Why an action is not legal now; each names the rule that refuses it.

    The arguments each code sets on its ``Refusal``: ``seat`` (the player to move) for all but
    ``OVER``, ``action`` for all but ``NOT_AN_ACTION``; ``suit`` is the suit led for the play
    codes (``FOLLOW`` … ``TRUMP_BEAT``, and ``trump`` once trumps are set), the marriage's suit
    for ``DECLARED``, ``NO_MARRIAGE``, ``HALF_NOT_ONE`` and ``NOT_ELIGIBLE``; ``card`` is the
    card to beat (``FOLLOW_BEAT``, ``TRUMP_BEAT``); ``asker`` for ``ANSWER_PENDING``, ``team``
    for ``WHOLE_TRUMP_TEAM``, ``given`` for ``NOT_AN_ACTION``.
    """

    OVER = "over"  #: the deal is over
    ANSWER_PENDING = "answer_pending"  #: ``asker``'s ask-whole awaits seat's answer (4.2b)
    NOT_HELD = "not_held"  #: seat does not hold the action's card
    FIRST_ACE = "first_ace"  #: trick 1 must be led with an ace when holding one (variant)
    FOLLOW = "follow"  #: seat must follow ``suit`` (3.2a)
    FOLLOW_BEAT = "follow_beat"  #: seat must follow ``suit`` with a card beating ``card`` (3.3)
    TRUMP = "trump"  #: no ``suit``: seat must play a trump (``trump``) (3.2b)
    TRUMP_BEAT = "trump_beat"  #: no ``suit``: seat must play a trump beating ``card`` (3.2b)
    BEFORE_FIRST_TRICK = "before_first_trick"  #: no declaration before trick 1 (4.1)
    WINDOW_USED = "window_used"  #: seat made this window's one declaration and must lead (4.2)
    NOT_WINDOW = "not_window"  #: only a trick's winner declares, before the next lead (4.1)
    DECLARED = "declared"  #: ``suit`` is declared already (4.4)
    NO_MARRIAGE = "no_marriage"  #: seat lacks K and Q of ``suit``
    LOCKED = "locked"  #: seat is locked by an earlier question (4.3)
    WHOLE_TRUMP_TEAM = "whole_trump_team"  #: ``team`` made trumps: no ask-whole (variant)
    WHOLE_NOBODY = "whole_nobody"  #: no ask-whole once trumps are set (variant)
    HALF_NOT_ONE = "half_not_one"  #: ask-half ``suit`` needs exactly one of its K, Q (4.2c)
    NO_QUESTION = "no_question"  #: an answer with no question waiting
    NOT_ELIGIBLE = "not_eligible"  #: seat cannot name ``suit`` (4.2b)
    NOT_AN_ACTION = "not_an_action"  #: ``given`` is not an action at all


@dataclass(frozen=True, slots=True)
class Refusal:
    """One refused action: why (``code``) and the facts the reason names.

    Arguments a code does not use are ``None`` (see ``RefusalCode``).
    """

    code: RefusalCode
    seat: Seat | None = None  #: the player to move, whose action it was
    action: Action | None = None  #: the refused action (``None`` for ``NOT_AN_ACTION``)
    suit: Suit | None = None  #: the suit led, or the marriage's suit
    card: Card | None = None  #: the card to beat
    trump: Suit | None = None  #: the trump suit
    team: Team | None = None  #: the team that made trumps
    asker: Seat | None = None  #: whose question awaits an answer
    given: object = None  #: for ``NOT_AN_ACTION``: what was given instead of an action

    def __str__(self) -> str:
        x, s, win, code = self.seat, self.suit, self.card, self.code
        if code is RefusalCode.NOT_AN_ACTION:
            given = reprlib.repr(self.given)
            if isinstance(self.given, str):
                return f"not an action number: {given} (parse tokens with Action.parse)"
            return f"not an action: {given} (actions are numbered 0 to {NUM_ACTIONS - 1})"
        if code is RefusalCode.OVER:
            return "the deal is over"
        if code is RefusalCode.ANSWER_PENDING:
            return (
                f"{x} must first answer {self.asker}'s question by naming one "
                f"of {x}'s marriages (RULES.md 4.2b)"
            )
        if code is RefusalCode.NOT_HELD:
            return f"{x} does not hold {self.action}"
        if code is RefusalCode.FIRST_ACE:
            return "the leader of trick 1 must lead an ace when holding one (first_trick_ace=on)"
        if code is RefusalCode.FOLLOW:
            return f"{x} must follow suit: {s} was led (RULES.md 3.2a)"
        if code is RefusalCode.FOLLOW_BEAT:
            return f"{x} must follow {s} with a card that beats {win} (RULES.md 3.2a, 3.3)"
        if code is RefusalCode.TRUMP:
            return f"{x} has no {s} and must play a trump ({self.trump}) (RULES.md 3.2b)"
        if code is RefusalCode.TRUMP_BEAT:
            return f"{x} has no {s} and must play a trump that beats {win} (RULES.md 3.2b)"
        if code is RefusalCode.BEFORE_FIRST_TRICK:
            return "there is no declaration before trick 1 (RULES.md 4.1)"
        if code is RefusalCode.WINDOW_USED:
            return (
                f"{x} has already made this window's one declaration or question "
                "and must lead (RULES.md 4.2)"
            )
        if code is RefusalCode.NOT_WINDOW:
            return (
                "declarations and questions are made only by a trick's winner "
                "before leading the next (RULES.md 4.1)"
            )
        if code is RefusalCode.DECLARED:
            return f"{s} has already been declared this deal (RULES.md 4.4)"
        if code is RefusalCode.NO_MARRIAGE:
            return f"{x} does not hold both K{s} and Q{s}"
        if code is RefusalCode.LOCKED:
            return (
                f"{x} is locked by an earlier question: {x}'s own marriages are broken "
                "(RULES.md 4.3)"
            )
        if code is RefusalCode.WHOLE_TRUMP_TEAM:
            return (
                f"{self.team} made trumps this deal and may not ask for a whole marriage "
                "(whole_ask_after_trump=not_trump_team)"
            )
        if code is RefusalCode.WHOLE_NOBODY:
            return (
                "no one may ask for a whole marriage once trumps are set "
                "(whole_ask_after_trump=nobody)"
            )
        if code is RefusalCode.HALF_NOT_ONE:
            return f"asking for half {s} needs exactly one of K{s} and Q{s} in hand (RULES.md 4.2c)"
        if code is RefusalCode.NO_QUESTION:
            return "no question is waiting for an answer"
        assert code is RefusalCode.NOT_ELIGIBLE, code
        return f"{x} cannot name {s}: no unbroken, undeclared K{s}+Q{s} in hand (RULES.md 4.2b)"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form: ``code`` and each argument that is set, as RECORD.md tokens
        (``given``: the string given, or the ``repr`` of anything else)."""
        out: dict[str, Any] = {"code": str(self.code)}
        for name in ("seat", "action", "suit", "card", "trump", "team", "asker"):
            value = getattr(self, name)
            if value is not None:
                out[name] = str(value)
        if self.code is RefusalCode.NOT_AN_ACTION:
            out["given"] = self.given if isinstance(self.given, str) else repr(self.given)
        return out
