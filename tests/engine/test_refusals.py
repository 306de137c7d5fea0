"""Refusals as data: every ``RefusalCode`` comes from a real position, says the engine's English
in ``str()`` and has an English and a Finnish message in the terminal and in the web page."""

from __future__ import annotations

import json
import pickle
import random
import re
import string
from collections.abc import Callable
from pathlib import Path

import pytest

from valtti.engine import (
    ACTIONS,
    Action,
    Card,
    CardSet,
    Deal,
    IllegalActionError,
    Phase,
    Refusal,
    RefusalCode,
    Seat,
    Variant,
)
from valtti.engine.record import IllegalRecordAction, Record
from valtti.terminal import i18n, phrases

CATALOGUES = Path(__file__).resolve().parents[2] / "src" / "valtti" / "web" / "static" / "i18n"

#: The engine's English before refusals were data, word for word, from a refusal's arguments.
ENGLISH: dict[RefusalCode, Callable[[Refusal], str]] = {
    RefusalCode.OVER: lambda r: "the deal is over",
    RefusalCode.ANSWER_PENDING: lambda r: (
        f"{r.seat} must first answer {r.asker}'s question by naming one "
        f"of {r.seat}'s marriages (RULES.md 4.2b)"
    ),
    RefusalCode.NOT_HELD: lambda r: f"{r.seat} does not hold {r.action}",
    RefusalCode.FIRST_ACE: lambda r: (
        "the leader of trick 1 must lead an ace when holding one (first_trick_ace=on)"
    ),
    RefusalCode.FOLLOW: lambda r: f"{r.seat} must follow suit: {r.suit} was led (RULES.md 3.2a)",
    RefusalCode.FOLLOW_BEAT: lambda r: (
        f"{r.seat} must follow {r.suit} with a card that beats {r.card} (RULES.md 3.2a, 3.3)"
    ),
    RefusalCode.TRUMP: lambda r: (
        f"{r.seat} has no {r.suit} and must play a trump ({r.trump}) (RULES.md 3.2b)"
    ),
    RefusalCode.TRUMP_BEAT: lambda r: (
        f"{r.seat} has no {r.suit} and must play a trump that beats {r.card} (RULES.md 3.2b)"
    ),
    RefusalCode.BEFORE_FIRST_TRICK: lambda r: (
        "there is no declaration before trick 1 (RULES.md 4.1)"
    ),
    RefusalCode.WINDOW_USED: lambda r: (
        f"{r.seat} has already made this window's one declaration or question and must lead "
        "(RULES.md 4.2)"
    ),
    RefusalCode.NOT_WINDOW: lambda r: (
        "declarations and questions are made only by a trick's winner before leading the next "
        "(RULES.md 4.1)"
    ),
    RefusalCode.DECLARED: lambda r: f"{r.suit} has already been declared this deal (RULES.md 4.4)",
    RefusalCode.NO_MARRIAGE: lambda r: f"{r.seat} does not hold both K{r.suit} and Q{r.suit}",
    RefusalCode.LOCKED: lambda r: (
        f"{r.seat} is locked by an earlier question: {r.seat}'s own marriages are broken "
        "(RULES.md 4.3)"
    ),
    RefusalCode.WHOLE_TRUMP_TEAM: lambda r: (
        f"{r.team} made trumps this deal and may not ask for a whole marriage "
        "(whole_ask_after_trump=not_trump_team)"
    ),
    RefusalCode.WHOLE_NOBODY: lambda r: (
        "no one may ask for a whole marriage once trumps are set (whole_ask_after_trump=nobody)"
    ),
    RefusalCode.HALF_NOT_ONE: lambda r: (
        f"asking for half {r.suit} needs exactly one of K{r.suit} and Q{r.suit} in hand "
        "(RULES.md 4.2c)"
    ),
    RefusalCode.NO_QUESTION: lambda r: "no question is waiting for an answer",
    RefusalCode.NOT_ELIGIBLE: lambda r: (
        f"{r.seat} cannot name {r.suit}: no unbroken, undeclared K{r.suit}+Q{r.suit} in hand "
        "(RULES.md 4.2b)"
    ),
    RefusalCode.NOT_AN_ACTION: lambda r: (
        f"not an action number: {r.given!r} (parse tokens with Action.parse)"
        if isinstance(r.given, str)
        else f"not an action: {r.given!r} (actions are numbered 0 to 48)"
    ),
}

#: What each code's refusal carries beside ``code`` (``trump`` for plays once trumps are set).
ARGUMENTS: dict[RefusalCode, set[str]] = {
    RefusalCode.OVER: {"action"},
    RefusalCode.ANSWER_PENDING: {"seat", "action", "asker"},
    RefusalCode.NOT_HELD: {"seat", "action"},
    RefusalCode.FIRST_ACE: {"seat", "action"},
    RefusalCode.FOLLOW: {"seat", "action", "suit"},
    RefusalCode.FOLLOW_BEAT: {"seat", "action", "suit", "card"},
    RefusalCode.TRUMP: {"seat", "action", "suit", "trump"},
    RefusalCode.TRUMP_BEAT: {"seat", "action", "suit", "card", "trump"},
    RefusalCode.BEFORE_FIRST_TRICK: {"seat", "action"},
    RefusalCode.WINDOW_USED: {"seat", "action"},
    RefusalCode.NOT_WINDOW: {"seat", "action"},
    RefusalCode.DECLARED: {"seat", "action", "suit"},
    RefusalCode.NO_MARRIAGE: {"seat", "action", "suit"},
    RefusalCode.LOCKED: {"seat", "action"},
    RefusalCode.WHOLE_TRUMP_TEAM: {"seat", "action", "team"},
    RefusalCode.WHOLE_NOBODY: {"seat", "action"},
    RefusalCode.HALF_NOT_ONE: {"seat", "action", "suit"},
    RefusalCode.NO_QUESTION: {"seat", "action"},
    RefusalCode.NOT_ELIGIBLE: {"seat", "action", "suit"},
    RefusalCode.NOT_AN_ACTION: {"seat", "given"},
}

PLAY_CODES = {
    RefusalCode.FIRST_ACE,
    RefusalCode.FOLLOW,
    RefusalCode.FOLLOW_BEAT,
    RefusalCode.TRUMP,
    RefusalCode.TRUMP_BEAT,
}


def answering(turn: int = 0) -> Deal:
    """S must name one of two marriages: N took trick 1 and asked for a whole marriage (with
    every seat ``turn`` places further round the table)."""
    fixed = {Seat.N: "AD KH QH", Seat.E: "6D", Seat.S: "KS QS KC QC 7D", Seat.W: "8D"}
    hands = {Seat((s + turn) % 4): list(CardSet.parse(cards)) for s, cards in fixed.items()}
    rest = [Card(c) for c in range(36) if all(c not in h for h in hands.values())]
    for seat in Seat:
        while len(hands[seat]) < 9:
            hands[seat].append(rest.pop())
    deal = Deal([CardSet(hands[s]) for s in Seat], Seat((3 + turn) % 4))
    for token in ("AD", "6D", "7D", "8D", "ask-whole"):
        deal.apply(Action.parse(token))
    assert deal.phase is Phase.ANSWER
    return deal


def positions() -> list[Deal]:
    """Random deals rich in declarations and questions, in the variants whose refusals differ,
    at every point of play, and a partner choosing a marriage."""
    variants = [
        Variant(),
        Variant.parse("first_trick_ace=on,whole_ask_after_trump=nobody"),
        Variant.parse("must_overtrump=false,must_trump_if_cannot_overtrump=false"),
    ]
    out = [answering()]
    for i in range(64):
        rng = random.Random(i)
        deal = (
            answering(i % 4)
            if i < 4
            else Deal.shuffled(rng, Seat(i % 4), variants[i % len(variants)])
        )
        while True:
            out.append(deal.copy())
            if deal.is_over():
                break
            legal = deal.legal_actions()
            talk = [a for a in legal if a.card is None]
            deal.apply(rng.choice(talk) if talk and rng.random() < 0.7 else rng.choice(legal))
    return out


@pytest.fixture(scope="module")
def examples() -> dict[RefusalCode, list[Refusal]]:
    """Every refusal of every action in every position of ``positions``, by code."""
    found: dict[RefusalCode, list[Refusal]] = {}
    for deal in positions():
        for action in (*ACTIONS, "AS", 49, None):
            refusal = deal.refusal(action)
            if refusal is not None:
                found.setdefault(refusal.code, []).append(refusal)
    return found


def test_every_code_comes_from_a_real_position(examples: dict[RefusalCode, list[Refusal]]) -> None:
    assert set(examples) == set(RefusalCode)


@pytest.mark.parametrize("code", list(RefusalCode))
def test_each_code_says_the_engines_english_and_carries_its_arguments(
    code: RefusalCode, examples: dict[RefusalCode, list[Refusal]]
) -> None:
    for refusal in examples[code]:
        assert str(refusal) == ENGLISH[code](refusal)
        form = refusal.to_dict()
        assert form["code"] == code.value
        wanted = ARGUMENTS[code] | ({"trump"} if refusal.trump is not None else set())
        if code is RefusalCode.NOT_AN_ACTION and refusal.seat is None:
            wanted = wanted - {"seat"}
        assert set(form) - {"code"} == wanted, form
        assert json.loads(json.dumps(form)) == form
        if refusal.action is not None:
            assert form["action"] == str(refusal.action)
            assert Action.parse(form["action"]) == refusal.action


@pytest.mark.parametrize("code", list(RefusalCode))
def test_each_code_has_an_english_and_a_finnish_message_in_the_terminal(
    code: RefusalCode, examples: dict[RefusalCode, list[Refusal]]
) -> None:
    message = phrases.REASONS[code]
    assert i18n.translations("en").gettext(message) == message  # English is the source
    finnish = i18n.translations("fi").gettext(message)
    assert finnish != message and finnish
    for language in i18n.LANGUAGES:
        i18n.use(language)
        try:
            said = phrases.reason_text(examples[code][0])
        finally:
            i18n.use("en")
        assert said and "{" not in said, said


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("code", list(RefusalCode))
def test_each_code_has_an_english_and_a_finnish_message_on_the_web_page(code: RefusalCode) -> None:
    catalogues = {
        lang: json.loads((CATALOGUES / f"{lang}.json").read_text("utf-8")) for lang in ("en", "fi")
    }
    key = f"refusal.{code.value}"
    en, fi = catalogues["en"][key], catalogues["fi"][key]
    assert en and fi and en != fi
    # Each names only arguments that the code's refusals carry, and both name the same ones.
    assert _fields(en) == _fields(fi)
    assert _fields(en) <= ARGUMENTS[code] | {"trump"}


def test_the_web_catalogues_name_no_unknown_code() -> None:
    for lang in ("en", "fi"):
        keys = json.loads((CATALOGUES / f"{lang}.json").read_text("utf-8"))
        codes = {k.removeprefix("refusal.") for k in keys if k.startswith("refusal.")}
        assert codes == {c.value for c in RefusalCode}, lang


def test_the_terminal_has_no_regular_expression_over_engine_text() -> None:
    source = Path(phrases.__file__).read_text("utf-8")
    assert not re.search(r"^\s*(import re|from re )", source, re.M)


def test_refusal_why_illegal_is_legal_and_the_error_agree() -> None:
    for deal in positions()[::7]:
        for action in ACTIONS:
            refusal = deal.refusal(action)
            assert (refusal is None) == deal.is_legal(action)
            assert deal.why_illegal(action) == (None if refusal is None else str(refusal))
            if refusal is not None:
                with pytest.raises(IllegalActionError) as info:
                    deal.copy().apply(action)
                assert info.value.refusal == refusal and info.value.reason == str(refusal)


def test_the_refusals_of_a_hand_are_those_of_its_cards() -> None:
    """``Deal.refusals`` gives, for the seat to move, each held card's refusal in card order
    (and nothing for another seat); the observation carries the same, and pickles."""
    seen: set[RefusalCode] = set()
    for deal in positions():
        to_move = deal.current_player
        for seat in Seat:
            refusals = deal.refusals(seat)
            if seat != to_move:
                assert list(refusals) == [] and not refusals and len(refusals) == 0
                continue
            expected = [
                r for c in deal.hand(seat) if (r := deal.refusal(Action.play(c))) is not None
            ]
            assert list(refusals) == expected and len(refusals) == len(expected)
            assert refusals.cards == CardSet([r.action for r in expected if r.action is not None])
            for c in deal.hand(seat):
                assert refusals.of(c) == deal.refusal(Action.play(c))
            observation = deal.observation(seat)
            assert list(observation.refusals) == expected
            assert observation.to_dict()["refusals"] == [r.to_dict() for r in expected]
            assert pickle.loads(pickle.dumps(observation)) == observation
            # Nothing but what the refusals say is kept: no asker of an earlier question,
            # which would tell that a partner had had a choice of marriages (RULES.md 7.2).
            kept = refusals.__reduce__()[1]
            if deal.phase is not Phase.ANSWER and len(kept) > 1:
                assert kept[-1] == 0, kept
            seen.update(r.code for r in expected)
    assert seen == PLAY_CODES | {RefusalCode.ANSWER_PENDING}


def test_a_record_with_an_illegal_action_carries_its_refusal() -> None:
    deal = answering()
    record = Record.from_dict(
        {
            "format": "marjapussi-record/1",
            "variant": {},
            "deals": [
                {
                    "dealer": "W",
                    "hands": {str(s): deal.initial_hands[s].tokens() for s in Seat},
                    "actions": ["AD", "6D", "7D", "8D", "declare D"],
                }
            ],
        }
    )
    with pytest.raises(IllegalRecordAction) as info:
        record.replay()
    assert info.value.refusal.code is RefusalCode.NO_MARRIAGE
    assert info.value.reason == str(info.value.refusal)
    bad = Record.from_dict(
        {
            "format": "marjapussi-record/1",
            "variant": {},
            "deals": [
                {
                    "dealer": "W",
                    "hands": {str(s): deal.initial_hands[s].tokens() for s in Seat},
                    "actions": ["AD", "XX"],
                }
            ],
        }
    )
    with pytest.raises(IllegalRecordAction) as info:
        bad.replay()
    assert info.value.refusal == Refusal(RefusalCode.NOT_AN_ACTION, Seat.E, given="XX")
