"""What is malformed in a record, as data: every ``RecordFaultCode`` comes from a real malformed
file, says the engine's English of before in ``str()`` and carries the place it names."""

from __future__ import annotations

import json
import random
import reprlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from helpers import to_9_6
from valtti.engine import Card, Match, Seat, Variant
from valtti.engine.record import (
    MAX_RECORD_BYTES,
    Record,
    RecordFault,
    RecordFaultCode,
    RecordFormatError,
)
from valtti.terminal import i18n, records

Spoil = Callable[[dict[str, Any]], str | bytes]


def _edit(change: Callable[[dict[str, Any]], object]) -> Spoil:
    """A spoiler that changes the record's JSON object in place, then writes it."""

    def spoil(record: dict[str, Any]) -> str:
        change(record)
        return json.dumps(record, indent=2)

    return spoil


def _over() -> dict[str, Any]:
    """The record of a whole match, played to its end with random legal actions."""
    rng = random.Random(7)
    match = Match(Variant(), Seat.N)
    while not match.is_over():
        deal = match.start_deal(rng=rng)
        while not deal.is_over():
            match.apply(rng.choice(deal.legal_actions()))
    return Record.of_match(match).to_dict()


def _one_deal_more(record: dict[str, Any]) -> str:
    over = _over()
    over["deals"].append(record["deals"][1])
    del over["deals"][-1]["dealer"]
    record.update(over)
    return json.dumps(record)


@dataclass(frozen=True)
class Example:
    """A malformed record (``spoil`` makes it from a valid one, ``to_9_6``'s: three deals, dealt
    by E, S and W), the fault it has and the English the engine said of it before faults were
    data, word for word."""

    spoil: Spoil
    english: str
    fault: RecordFault


_SWITCHES = (
    "target, overshoot_to, first_forehand, whole_ask_after_trump, must_overtrump, "
    "must_trump_if_cannot_overtrump, first_trick_ace, both_on_target"
)
_CARD_HINT = "(write rank then suit, e.g. AS, TD, 10d; ranks A T K Q J 9 8 7 6, suits S H D C)"
C = RecordFaultCode

EXAMPLES: dict[str, Example] = {
    "too long": Example(
        lambda r: json.dumps(r) + " " * MAX_RECORD_BYTES,
        "not a record: longer than 8 MiB, far more than a whole match takes",
        RecordFault(C.TOO_LONG, count=8),
    ),
    "too deep": Example(
        lambda r: "[" * 100_000 + "]" * 100_000,
        "not a record: JSON nested too deep",
        RecordFault(C.TOO_DEEP),
    ),
    "too many digits": Example(
        lambda r: '{"format": "marjapussi-record/1", "deals": ' + "9" * 5000 + "}",
        "not a record: a number with too many digits",
        RecordFault(C.TOO_MANY_DIGITS),
    ),
    "bad json": Example(
        lambda r: json.dumps(r, indent=2)[:70],  # '{\n  "format": …,\n  "deals": […"dealer"'
        "not valid JSON: Expecting ':' delimiter: line 5 column 15 (char 70)",
        RecordFault(C.BAD_JSON, line=5, column=15, position=70, detail="Expecting ':' delimiter"),
    ),
    "bad encoding": Example(
        lambda r: b'{"format": "\xff"}',
        "not valid JSON: 'utf-8' codec can't decode byte 0xff in position 12: invalid start byte",
        RecordFault(
            C.BAD_ENCODING,
            position=12,
            detail="'utf-8' codec can't decode byte 0xff in position 12: invalid start byte",
        ),
    ),
    "nan": Example(
        lambda r: json.dumps(r)[:-1] + ', "meta": {"time": NaN}}',
        "not valid JSON: NaN is no JSON number",
        RecordFault(C.NOT_A_NUMBER, given="NaN"),
    ),
    "huge number": Example(
        lambda r: json.dumps(r)[:-1] + ', "meta": {"time": 1e999}}',
        "not valid JSON: the number '1e999' is too large",
        RecordFault(C.NUMBER_TOO_LARGE, given="1e999"),
    ),
    "not an object": Example(
        lambda r: "[]",
        "a record is a JSON object with keys format, variant, deals",
        RecordFault(C.NOT_AN_OBJECT),
    ),
    "record key": Example(
        _edit(lambda r: r.update(players=["a"])),
        "the record: unknown key 'players' (extra information belongs under \"meta\")",
        RecordFault(C.UNKNOWN_KEY, given="players"),
    ),
    "deal key": Example(
        _edit(lambda r: r["deals"][1].update(comment="")),
        "deal 2: unknown key 'comment' (extra information belongs under \"meta\")",
        RecordFault(C.UNKNOWN_KEY, 2, given="comment"),
    ),
    "format": Example(
        _edit(lambda r: r.update(format="marjapussi-record/2")),
        "format must be 'marjapussi-record/1', not 'marjapussi-record/2'",
        RecordFault(C.FORMAT, given="marjapussi-record/2"),
    ),
    "no format": Example(
        _edit(lambda r: r.pop("format")),
        "format must be 'marjapussi-record/1', not None",
        RecordFault(C.FORMAT),
    ),
    "variant list": Example(
        _edit(lambda r: r.update(variant=["target"])),
        "variant must be an object of switch names and values",
        RecordFault(C.VARIANT_NOT_OBJECT),
    ),
    "unknown switch": Example(
        _edit(lambda r: r.update(variant={"trumps": "on"})),
        f"unknown variant switch 'trumps': known are {_SWITCHES}",
        RecordFault(C.UNKNOWN_SWITCH, switch="trumps"),
    ),
    "switch value": Example(
        _edit(lambda r: r.update(variant={"target": 11})),
        "variant switch target cannot be 11: allowed 10 | 12",
        RecordFault(C.BAD_SWITCH_VALUE, switch="target", given=11),
    ),
    "yes-no value": Example(
        _edit(lambda r: r.update(variant={"must_overtrump": "maybe"})),
        "variant switch must_overtrump cannot be 'maybe': allowed true | false",
        RecordFault(C.BAD_SWITCH_VALUE, switch="must_overtrump", given="maybe"),
    ),
    "no deals": Example(
        _edit(lambda r: r.update(deals=[])),
        "deals must be a non-empty list",
        RecordFault(C.NO_DEALS),
    ),
    "no first dealer": Example(
        _edit(lambda r: r["deals"][0].pop("dealer")),
        "deal 1: dealer is required in the first deal",
        RecordFault(C.NO_FIRST_DEALER, 1),
    ),
    "deal not object": Example(
        _edit(lambda r: r["deals"].__setitem__(1, "deal")),
        "deal 2: a deal is an object with keys dealer, hands, actions",
        RecordFault(C.DEAL_NOT_OBJECT, 2),
    ),
    "dealer text": Example(
        _edit(lambda r: r["deals"][1].update(dealer="north")),
        "deal 2: unknown seat 'north' (seats are N, E, S, W)",
        RecordFault(C.BAD_DEALER, 2, given="north"),
    ),
    "dealer number": Example(
        _edit(lambda r: r["deals"][0].update(dealer=3)),
        "deal 1: dealer must be one of N, E, S, W",
        RecordFault(C.BAD_DEALER, 1, given=3),
    ),
    "hands": Example(
        _edit(lambda r: r["deals"][2]["hands"].pop("E")),
        "deal 3: hands must give the cards of each of N, E, S, W",
        RecordFault(C.HANDS, 3),
    ),
    "hand not list": Example(
        _edit(lambda r: r["deals"][1]["hands"].update(E="AS KS")),
        "deal 2: E's hand must be a list of card tokens",
        RecordFault(C.HAND_NOT_LIST, 2, Seat.E),
    ),
    "bad card": Example(
        _edit(lambda r: r["deals"][1]["hands"]["W"].__setitem__(4, "XS")),
        f"deal 2: W's hand: not a card: 'XS' {_CARD_HINT}",
        RecordFault(C.BAD_CARD, 2, Seat.W, given="XS"),
    ),
    "dealt twice": Example(
        _edit(lambda r: r["deals"][1]["hands"]["S"].__setitem__(0, "js")),  # N holds JS
        "deal 2: JS is dealt twice (to N and to S)",
        RecordFault(C.DEALT_TWICE, 2, Seat.S, first=Seat.N, card=Card.parse("JS")),
    ),
    "twice in one hand": Example(
        _edit(lambda r: r["deals"][1]["hands"]["S"].__setitem__(1, "JH")),  # S's first card
        "deal 2: JH is twice in S's hand",
        RecordFault(C.DEALT_TWICE, 2, Seat.S, first=Seat.S, card=Card.parse("JH")),
    ),
    "hand size": Example(
        _edit(lambda r: r["deals"][1]["hands"]["E"].pop()),
        "deal 2: E's hand has 8 cards, not 9",
        RecordFault(C.HAND_SIZE, 2, Seat.E, count=8),
    ),
    "actions": Example(
        _edit(lambda r: r["deals"][1].update(actions="JS 9S")),
        "deal 2: actions must be a list of action tokens",
        RecordFault(C.ACTIONS_NOT_LIST, 2),
    ),
    "record meta": Example(
        _edit(lambda r: r.update(meta=[])),
        "the record: meta must be an object",
        RecordFault(C.META_NOT_OBJECT),
    ),
    "deal meta": Example(
        _edit(lambda r: r["deals"][2].update(meta=1)),
        "deal 3: meta must be an object",
        RecordFault(C.META_NOT_OBJECT, 3),
    ),
    "match over": Example(
        _one_deal_more,
        "deal {n}: the match was already over",
        RecordFault(C.MATCH_OVER),  # its deal: the one added
    ),
    "after unfinished": Example(
        _edit(lambda r: r["deals"][1].update(actions=r["deals"][1]["actions"][:5])),
        "deal 3: deal 2 stops part-way but another deal follows",
        RecordFault(C.AFTER_UNFINISHED, 3),
    ),
    "wrong dealer": Example(
        _edit(lambda r: r["deals"][2].update(dealer="E")),
        "deal 3: dealer must be W (RULES.md 2.3), not E",
        RecordFault(C.WRONG_DEALER, 3, Seat.E, dealer=Seat.W),
    ),
}


def refused(example: Example) -> RecordFormatError:
    """The error that reading and replaying the example's record ends in."""
    text = example.spoil(Record.of_match(to_9_6()).to_dict())
    with pytest.raises(RecordFormatError) as info:
        Record.from_json(text).replay()
    return info.value


def test_every_code_comes_from_a_real_malformed_record() -> None:
    assert {e.fault.code for e in EXAMPLES.values()} == set(RecordFaultCode)


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_each_fault_says_the_engines_english_and_carries_its_place(name: str) -> None:
    example = EXAMPLES[name]
    error = refused(example)
    fault, english = example.fault, example.english
    if fault.code is RecordFaultCode.MATCH_OVER:  # the deal after the last of the whole match
        assert error.fault.deal is not None
        fault = RecordFault(fault.code, error.fault.deal)
        english = english.format(n=error.fault.deal)
    assert error.fault == fault
    assert str(error) == str(error.fault) == english


@pytest.mark.parametrize("code", list(RecordFaultCode))
def test_each_code_has_an_english_and_a_finnish_message_in_the_terminal(
    code: RecordFaultCode,
) -> None:
    message = records.FAULTS[code]
    assert i18n.translations("en").gettext(message) == message  # English is the source
    finnish = i18n.translations("fi").gettext(message)
    assert finnish != message and finnish
    for example in (e for e in EXAMPLES.values() if e.fault.code is code):
        for language in i18n.LANGUAGES:
            i18n.use(language)
            try:
                said = records.fault_text(refused(example).fault)
            finally:
                i18n.use("en")
            assert said and "{" not in said, said
            assert "None" not in said or "None" in example.english, said  # an argument unset


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_terminal_names_every_fact_of_the_fault(language: str) -> None:
    """Where the fault is (the deal, the hand, the line…) and what the file has there: none is
    lost in the translation (the place in characters only where line and column say it)."""
    i18n.use(language)
    try:
        for name, example in EXAMPLES.items():
            fault = refused(example).fault
            said = records.fault_text(fault)
            facts = [fault.deal, fault.seat, fault.first, fault.dealer, fault.card, fault.count]
            facts += [fault.line, fault.column, fault.switch]
            if fault.code is not RecordFaultCode.BAD_JSON:
                facts.append(fault.position)
            shown = [str(f) for f in facts if f is not None]
            if fault.given is not None:
                shown.append(reprlib.repr(fault.given))
            assert all(fact in said for fact in shown), (name, said, shown)
    finally:
        i18n.use("en")


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"variant": {"target": True}}, "variant switch 'target' cannot be true: allowed 10 | 12"),
        ({"variant": {"target": None}}, "variant switch 'target' cannot be null: allowed 10 | 12"),
        ({"format": False}, "format must be 'marjapussi-record/1', not false"),
        ({"variant": {"target": [12, 10]}}, "variant switch 'target' cannot be [12, 10]: allowed"),
    ],
)
def test_the_terminal_writes_a_json_value_as_the_file_does(
    change: dict[str, Any], said: str
) -> None:
    """docs/PLAYING.md: a record's faults are told "seats, cards and values as the file writes
    them", but a JSON ``true`` was told as Python's ``True`` and ``null`` as ``None``."""
    record = Record.of_match(to_9_6()).to_dict()
    record.update(change)
    with pytest.raises(RecordFormatError) as info:
        Record.from_json(json.dumps(record)).replay()
    assert said in records.fault_text(info.value.fault)
