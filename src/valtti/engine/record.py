"""Game records (RECORD.md): read, write and replay with validation.

Reading checks the structure (``RecordFormatError``: what is malformed as a ``RecordFault``, a
code and its arguments); replaying checks every action against the rules
(``IllegalRecordAction`` names the deal, the action, the token, the reason and the legal
actions there). Front ends translate both codes and their arguments; ``str()`` is the engine's
English.
"""

from __future__ import annotations

import json
import math
import reprlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, BinaryIO, Final

from valtti.engine.actions import Action
from valtti.engine.cards import (
    NUM_CARDS,
    Card,
    CardSet,
    Seat,
    not_a_card_text,
    unknown_seat_text,
)
from valtti.engine.match import Match
from valtti.engine.meta import RecordMeta
from valtti.engine.refusal import Refusal, RefusalCode
from valtti.engine.variant import SwitchError, Variant, bad_value_text, unknown_switch_text

FORMAT: Final = "marjapussi-record/1"
#: The longest record read, in bytes (or characters of text): a whole match takes about 1.3 kB
#: a deal, so this is thousands of deals, while a file of any size would be read into memory
#: several times over. A reader of a file needs read no more than one byte beyond it.
MAX_RECORD_BYTES: Final = 8 * 2**20
_SEAT_NAMES: Final = ("N", "E", "S", "W")


class RecordFaultCode(StrEnum):
    """What is malformed in a record file.

    The arguments each code sets on its ``RecordFault``: ``deal`` (from 1) for every code about
    one deal, and for ``UNKNOWN_KEY`` and ``META_NOT_OBJECT`` in a deal (``None``: the record's
    own keys); ``seat`` is the hand's seat for ``HAND_NOT_LIST``, ``BAD_CARD``, ``HAND_SIZE``
    and ``DEALT_TWICE`` (the second hand dealt ``card``, ``first`` the first), the dealer
    written for ``WRONG_DEALER`` (``dealer``: the one the rules give); ``given`` is the value
    as written for ``NOT_A_NUMBER``, ``NUMBER_TOO_LARGE``, ``UNKNOWN_KEY`` (the key),
    ``FORMAT``, ``BAD_SWITCH_VALUE``, ``BAD_DEALER`` and ``BAD_CARD``; ``switch`` for the two
    switch codes; ``count`` for ``HAND_SIZE`` (the cards in the hand) and ``TOO_LONG`` (the
    limit in MiB); ``line`` and ``column`` (from 1) for ``BAD_JSON``, ``position`` (from 0,
    characters, or bytes for ``BAD_ENCODING``) for both decoding codes.
    """

    TOO_LONG = "too_long"  #: the text is longer than ``count`` MiB
    TOO_DEEP = "too_deep"  #: the JSON is nested deeper than it can be read
    TOO_MANY_DIGITS = "too_many_digits"  #: an integer of more than 4,300 digits
    BAD_JSON = "bad_json"  #: not JSON: wrong at ``line``, ``column``
    BAD_ENCODING = "bad_encoding"  #: not text: byte ``position`` does not decode
    NOT_A_NUMBER = "not_a_number"  #: ``given`` (``NaN``, ``Infinity``) is no JSON number
    NUMBER_TOO_LARGE = "number_too_large"  #: the number ``given`` is past a float's range
    NOT_AN_OBJECT = "not_an_object"  #: the record is no JSON object
    UNKNOWN_KEY = "unknown_key"  #: the key ``given`` is none of the format's (RECORD.md)
    FORMAT = "format"  #: the format is ``given``, not ``FORMAT``
    VARIANT_NOT_OBJECT = "variant_not_object"  #: ``variant`` is no object
    UNKNOWN_SWITCH = "unknown_switch"  #: ``switch`` is no switch of RULES.md 8
    BAD_SWITCH_VALUE = "bad_switch_value"  #: ``switch`` cannot be ``given``
    NO_DEALS = "no_deals"  #: ``deals`` is no list, or an empty one
    NO_FIRST_DEALER = "no_first_dealer"  #: the first deal names no dealer
    DEAL_NOT_OBJECT = "deal_not_object"  #: a deal is no object
    BAD_DEALER = "bad_dealer"  #: the dealer ``given`` is not a seat
    HANDS = "hands"  #: ``hands`` does not give one hand for each seat
    HAND_NOT_LIST = "hand_not_list"  #: ``seat``'s hand is no list of strings
    BAD_CARD = "bad_card"  #: ``given`` in ``seat``'s hand is not a card
    DEALT_TWICE = "dealt_twice"  #: ``card`` is in ``first``'s hand and in ``seat``'s
    HAND_SIZE = "hand_size"  #: ``seat``'s hand has ``count`` cards, not 9
    ACTIONS_NOT_LIST = "actions_not_list"  #: ``actions`` is no list of strings
    META_NOT_OBJECT = "meta_not_object"  #: ``meta`` is no object
    MATCH_OVER = "match_over"  #: the match was over before this deal
    AFTER_UNFINISHED = "after_unfinished"  #: the deal before this one stops part-way
    WRONG_DEALER = "wrong_dealer"  #: the dealer written is ``seat``, not ``dealer`` (2.3)


@dataclass(frozen=True, slots=True)
class RecordFault:
    """What is malformed in a record, and where: a code and the facts it names.

    Arguments a code does not use are ``None`` (see ``RecordFaultCode``).
    """

    code: RecordFaultCode
    deal: int | None = None  #: the deal, from 1
    seat: Seat | None = None  #: the hand's seat, or the dealer written
    first: Seat | None = None  #: for ``DEALT_TWICE``: the seat first dealt the card
    dealer: Seat | None = None  #: for ``WRONG_DEALER``: the dealer the rules give
    card: Card | None = None  #: for ``DEALT_TWICE``: the card dealt twice
    given: object = None  #: the value as written (a JSON value; long ones are shortened in text)
    switch: str | None = None  #: the variant switch's name
    count: int | None = None  #: a hand's number of cards, or the limit in MiB
    line: int | None = None  #: for ``BAD_JSON``: the line, from 1
    column: int | None = None  #: for ``BAD_JSON``: the column, from 1
    position: int | None = None  #: where decoding fails, from 0
    #: The decoder's own English, for ``str()`` only: json's message (``BAD_JSON``, without its
    #: place) or Python's (``BAD_ENCODING``).
    detail: str | None = None

    def __str__(self) -> str:
        code, given = self.code, reprlib.repr(self.given)
        where = "the record" if self.deal is None else f"deal {self.deal}"
        if code is RecordFaultCode.TOO_LONG:
            return f"not a record: longer than {self.count} MiB, far more than a whole match takes"
        if code is RecordFaultCode.TOO_DEEP:
            return "not a record: JSON nested too deep"
        if code is RecordFaultCode.TOO_MANY_DIGITS:
            return "not a record: a number with too many digits"
        if code is RecordFaultCode.BAD_JSON:
            place = f"line {self.line} column {self.column} (char {self.position})"
            return f"not valid JSON: {self.detail}: {place}"
        if code is RecordFaultCode.BAD_ENCODING:
            return f"not valid JSON: {self.detail}"
        if code is RecordFaultCode.NOT_A_NUMBER:
            return f"not valid JSON: {self.given} is no JSON number"
        if code is RecordFaultCode.NUMBER_TOO_LARGE:
            return f"not valid JSON: the number {given} is too large"
        if code is RecordFaultCode.NOT_AN_OBJECT:
            return "a record is a JSON object with keys format, variant, deals"
        if code is RecordFaultCode.UNKNOWN_KEY:
            return f'{where}: unknown key {given} (extra information belongs under "meta")'
        if code is RecordFaultCode.FORMAT:
            return f"format must be {FORMAT!r}, not {given}"
        if code is RecordFaultCode.VARIANT_NOT_OBJECT:
            return "variant must be an object of switch names and values"
        if code is RecordFaultCode.UNKNOWN_SWITCH:
            assert self.switch is not None
            return unknown_switch_text(self.switch)
        if code is RecordFaultCode.BAD_SWITCH_VALUE:
            assert self.switch is not None
            return bad_value_text(self.switch, self.given)
        if code is RecordFaultCode.NO_DEALS:
            return "deals must be a non-empty list"
        if code is RecordFaultCode.NO_FIRST_DEALER:
            return f"{where}: dealer is required in the first deal"
        if code is RecordFaultCode.DEAL_NOT_OBJECT:
            return f"{where}: a deal is an object with keys dealer, hands, actions"
        if code is RecordFaultCode.BAD_DEALER:
            if isinstance(self.given, str):
                return f"{where}: {unknown_seat_text(self.given)}"
            return f"{where}: dealer must be one of N, E, S, W"
        if code is RecordFaultCode.HANDS:
            return f"{where}: hands must give the cards of each of N, E, S, W"
        if code is RecordFaultCode.HAND_NOT_LIST:
            return f"{where}: {self.seat}'s hand must be a list of card tokens"
        if code is RecordFaultCode.BAD_CARD:
            assert isinstance(self.given, str)
            return f"{where}: {self.seat}'s hand: {not_a_card_text(self.given)}"
        if code is RecordFaultCode.DEALT_TWICE:
            if self.first == self.seat:
                return f"{where}: {self.card} is twice in {self.seat}'s hand"
            return f"{where}: {self.card} is dealt twice (to {self.first} and to {self.seat})"
        if code is RecordFaultCode.HAND_SIZE:
            return f"{where}: {self.seat}'s hand has {self.count} cards, not 9"
        if code is RecordFaultCode.ACTIONS_NOT_LIST:
            return f"{where}: actions must be a list of action tokens"
        if code is RecordFaultCode.META_NOT_OBJECT:
            return f"{where}: meta must be an object"
        if code is RecordFaultCode.MATCH_OVER:
            return f"{where}: the match was already over"
        if code is RecordFaultCode.AFTER_UNFINISHED:
            assert self.deal is not None
            return f"{where}: deal {self.deal - 1} stops part-way but another deal follows"
        assert code is RecordFaultCode.WRONG_DEALER, code
        return f"{where}: dealer must be {self.dealer} (RULES.md 2.3), not {self.seat}"


class RecordFormatError(ValueError):
    """The record is not well formed: bad JSON, a wrong card, a duplicate card, a wrong dealer…
    (``fault``: what and where, as data; ``str()``: the engine's English)."""

    def __init__(self, fault: RecordFault) -> None:
        super().__init__(str(fault))
        self.fault = fault


class IllegalRecordAction(ValueError):
    """An action in the record is not legal where it stands (``refusal``: why, as data)."""

    def __init__(
        self,
        deal: int,
        number: int,
        token: str,
        reason: str,
        legal: Sequence[Action],
        refusal: Refusal,
    ):
        self.deal = deal  #: from 1
        self.number = number  #: the action's number within the deal, from 1
        self.token = token
        self.reason = reason  #: in English: the parser's for a token that is no action
        self.legal = tuple(legal)
        self.refusal = refusal
        super().__init__(
            f"deal {deal}, action {number} {reprlib.repr(token)}: {reason}; "
            f"legal there: {' '.join(map(str, self.legal)) or 'none'}"
        )


@dataclass
class DealRecord:
    """One deal of a record: its dealer (if written), the hands as dealt and the action tokens."""

    hands: tuple[CardSet, CardSet, CardSet, CardSet]
    actions: list[str] = field(default_factory=list)
    dealer: Seat | None = None
    meta: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.dealer is not None:
            out["dealer"] = str(self.dealer)
        out["hands"] = {
            name: hand.tokens() for name, hand in zip(_SEAT_NAMES, self.hands, strict=True)
        }
        out["actions"] = [_canonical(token) for token in self.actions]
        if self.meta is not None:
            out["meta"] = self.meta
        return out


@dataclass
class Record:
    """A whole match, or one stopped part-way, in the RECORD.md form."""

    variant: Variant = field(default_factory=Variant)
    deals: list[DealRecord] = field(default_factory=list)
    meta: dict[str, Any] | None = None

    @classmethod
    def of_match(
        cls,
        match: Match,
        meta: dict[str, Any] | RecordMeta | None = None,
        kept: Record | None = None,
    ) -> Record:
        """The record of a match as played so far; every deal names its dealer. Its actions
        are each deal's ``decisions``: an ``answer`` forced by ``answer_steps`` is no action
        (RECORD.md), so the record replays as played without it. ``meta``: what goes under
        ``meta``, a ``RecordMeta`` as its ``to_dict()``.

        ``kept``: the record the match was replayed from. Its extra keys are kept on rewrite
        (RECORD.md): its ``meta`` under ``meta``'s keys, and each deal's ``meta`` where the
        match still has that deal (the same dealer and hands).
        """
        if isinstance(meta, RecordMeta):
            meta = meta.to_dict()
        old = kept.deals if kept is not None else []
        deals = []
        for i, deal in enumerate(match.deals):
            hands = _four(deal.initial_hands)
            same = i < len(old) and old[i].hands == hands and old[i].dealer in (None, deal.dealer)
            extra = old[i].meta if same else None
            deals.append(DealRecord(hands, [str(a) for a in deal.decisions], deal.dealer, extra))
        if kept is not None and kept.meta is not None:
            meta = {**kept.meta, **(meta or {})}
        return cls(match.variant, deals, meta)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT}
        changes = self.variant.changes()
        if changes:
            out["variant"] = changes
        out["deals"] = [d.to_dict() for d in self.deals]
        if self.meta is not None:
            out["meta"] = self.meta
        return out

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> Record:
        """Parse a record file's text; ``RecordFormatError`` says what is wrong, also for a
        text of more than ``MAX_RECORD_BYTES``."""
        if len(text) > MAX_RECORD_BYTES:
            raise RecordFormatError(
                RecordFault(RecordFaultCode.TOO_LONG, count=MAX_RECORD_BYTES // 2**20)
            )
        try:
            data = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
        except RecordFormatError:
            raise
        except RecursionError:
            raise RecordFormatError(RecordFault(RecordFaultCode.TOO_DEEP)) from None
        except json.JSONDecodeError as e:
            raise RecordFormatError(
                RecordFault(
                    RecordFaultCode.BAD_JSON,
                    line=e.lineno,
                    column=e.colno,
                    position=e.pos,
                    detail=e.msg,
                )
            ) from None
        except UnicodeDecodeError as e:
            raise RecordFormatError(
                RecordFault(RecordFaultCode.BAD_ENCODING, position=e.start, detail=str(e))
            ) from None
        except ValueError:  # Python reads no integer of more than 4,300 digits
            raise RecordFormatError(RecordFault(RecordFaultCode.TOO_MANY_DIGITS)) from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, file: BinaryIO) -> Record:
        """``from_json`` of what an open binary file holds, read no further than one byte past
        ``MAX_RECORD_BYTES`` (``/dev/zero`` is refused, not read for ever)."""
        return cls.from_json(file.read(MAX_RECORD_BYTES + 1))

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        """Check and read a record's JSON object; ``RecordFormatError`` says what is wrong."""
        if not isinstance(data, dict):
            raise RecordFormatError(RecordFault(RecordFaultCode.NOT_AN_OBJECT))
        _only_keys(data, {"format", "variant", "deals", "meta"}, None)
        if data.get("format") != FORMAT:
            raise RecordFormatError(RecordFault(RecordFaultCode.FORMAT, given=data.get("format")))
        switches = data.get("variant", {})
        if not isinstance(switches, dict):
            raise RecordFormatError(RecordFault(RecordFaultCode.VARIANT_NOT_OBJECT))
        try:
            variant = Variant.from_mapping(switches)
        except SwitchError as e:
            if not e.known:
                raise RecordFormatError(
                    RecordFault(RecordFaultCode.UNKNOWN_SWITCH, switch=e.switch)
                ) from None
            raise RecordFormatError(
                RecordFault(RecordFaultCode.BAD_SWITCH_VALUE, switch=e.switch, given=e.value)
            ) from None
        deals = data.get("deals")
        if not isinstance(deals, list) or not deals:
            raise RecordFormatError(RecordFault(RecordFaultCode.NO_DEALS))
        records = [_read_deal(d, i + 1) for i, d in enumerate(deals)]
        if records[0].dealer is None:
            raise RecordFormatError(RecordFault(RecordFaultCode.NO_FIRST_DEALER, deal=1))
        return cls(variant, records, _meta(data, None))

    def replay(self) -> Match:
        """Replay every deal, checking each action and each dealer.

        ``IllegalRecordAction`` for an action that is not legal; ``RecordFormatError`` for a
        wrong dealer, a deal after the match ended, or a deal after one left unfinished.
        """
        first = self.deals[0].dealer
        assert first is not None  # from_dict requires it
        match = Match(self.variant, first)
        for number, rec in enumerate(self.deals, start=1):
            if match.is_over():
                raise RecordFormatError(RecordFault(RecordFaultCode.MATCH_OVER, deal=number))
            previous = match.deal
            if previous is not None and not previous.is_over():
                raise RecordFormatError(RecordFault(RecordFaultCode.AFTER_UNFINISHED, deal=number))
            if rec.dealer is not None and rec.dealer != match.next_dealer:
                raise RecordFormatError(
                    RecordFault(
                        RecordFaultCode.WRONG_DEALER,
                        deal=number,
                        seat=rec.dealer,
                        dealer=match.next_dealer,
                    )
                )
            deal = match.start_deal(rec.hands)
            for i, token in enumerate(rec.actions, start=1):
                try:
                    action = Action.parse(token)
                except ValueError as e:
                    refused = Refusal(RefusalCode.NOT_AN_ACTION, deal.current_player, given=token)
                    raise IllegalRecordAction(
                        number, i, token, str(e), deal.legal_actions(), refused
                    ) from None
                refusal = deal.refusal(action)
                if refusal is not None:
                    raise IllegalRecordAction(
                        number, i, token, str(refusal), deal.legal_actions(), refusal
                    )
                match.apply(action)
        return match


def _no_constant(name: str) -> float:
    raise RecordFormatError(RecordFault(RecordFaultCode.NOT_A_NUMBER, given=name))


def _finite(text: str) -> float:
    """A JSON number with a fraction or exponent; one past what a float holds (``1e999``) is
    refused, as NaN and Infinity are: a record is JSON that any program reads."""
    value = float(text)
    if not math.isfinite(value):
        raise RecordFormatError(RecordFault(RecordFaultCode.NUMBER_TOO_LARGE, given=text))
    return value


def _canonical(token: str) -> str:
    """The canonical spelling of an action token; one that does not parse is kept as written."""
    try:
        return str(Action.parse(token))
    except ValueError:
        return token


def _four(hands: Sequence[CardSet]) -> tuple[CardSet, CardSet, CardSet, CardSet]:
    return (hands[0], hands[1], hands[2], hands[3])


def _only_keys(obj: Mapping[str, Any], allowed: set[str], deal: int | None) -> None:
    """``deal``: the deal whose keys ``obj`` holds (``None``: the record's own)."""
    extra = sorted(set(obj) - allowed)
    if extra:
        raise RecordFormatError(RecordFault(RecordFaultCode.UNKNOWN_KEY, deal, given=extra[0]))


def _meta(obj: Mapping[str, Any], deal: int | None) -> dict[str, Any] | None:
    meta = obj.get("meta")
    if meta is not None and not isinstance(meta, dict):
        raise RecordFormatError(RecordFault(RecordFaultCode.META_NOT_OBJECT, deal))
    return meta


def _dealer(given: object, number: int) -> Seat:
    """The dealer that deal ``number`` names as ``given``."""
    if isinstance(given, str):
        try:
            return Seat.parse(given)
        except ValueError:
            pass
    raise RecordFormatError(RecordFault(RecordFaultCode.BAD_DEALER, number, given=given))


def _read_deal(data: Any, number: int) -> DealRecord:
    if not isinstance(data, dict):
        raise RecordFormatError(RecordFault(RecordFaultCode.DEAL_NOT_OBJECT, number))
    _only_keys(data, {"dealer", "hands", "actions", "meta"}, number)
    dealer = None if data.get("dealer") is None else _dealer(data["dealer"], number)
    hands = data.get("hands")
    if not isinstance(hands, dict) or sorted(k.upper() for k in hands) != sorted(_SEAT_NAMES):
        raise RecordFormatError(RecordFault(RecordFaultCode.HANDS, number))
    read: list[CardSet] = []
    seen: dict[Card, Seat] = {}
    by_seat = {k.upper(): v for k, v in hands.items()}
    for seat in Seat:
        tokens = by_seat[seat.name]
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise RecordFormatError(RecordFault(RecordFaultCode.HAND_NOT_LIST, number, seat))
        cards = []
        for token in tokens:
            try:
                card = Card.parse(token)
            except ValueError:
                fault = RecordFault(RecordFaultCode.BAD_CARD, number, seat, given=token)
                raise RecordFormatError(fault) from None
            if card in seen:
                fault = RecordFault(
                    RecordFaultCode.DEALT_TWICE, number, seat, first=seen[card], card=card
                )
                raise RecordFormatError(fault)
            seen[card] = seat
            cards.append(card)
        if len(cards) != 9:
            fault = RecordFault(RecordFaultCode.HAND_SIZE, number, seat, count=len(cards))
            raise RecordFormatError(fault)
        read.append(CardSet(cards))
    assert len(seen) == NUM_CARDS
    actions = data.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordFormatError(RecordFault(RecordFaultCode.ACTIONS_NOT_LIST, number))
    return DealRecord(_four(read), list(actions), dealer, _meta(data, number))
