"""Game records (RECORD.md): read, write and replay with validation.

Reading checks the structure (``RecordFormatError``); replaying checks every action against the
rules (``IllegalRecordAction`` names the deal, the action, the token, the reason and the legal
actions there).
"""

from __future__ import annotations

import json
import math
import reprlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Final

from valtti.engine.actions import Action
from valtti.engine.cards import NUM_CARDS, Card, CardSet, Seat
from valtti.engine.match import Match
from valtti.engine.refusal import Refusal, RefusalCode
from valtti.engine.variant import Variant

FORMAT: Final = "marjapussi-record/1"
#: The longest record read, in bytes (or characters of text): a whole match takes about 1.3 kB
#: a deal, so this is thousands of deals, while a file of any size would be read into memory
#: several times over. A reader of a file needs read no more than one byte beyond it.
MAX_RECORD_BYTES: Final = 8 * 2**20
_SEAT_NAMES: Final = ("N", "E", "S", "W")


class RecordFormatError(ValueError):
    """The record is not well formed: bad JSON, a wrong card, a duplicate card, a wrong dealer…"""


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
        cls, match: Match, meta: dict[str, Any] | None = None, kept: Record | None = None
    ) -> Record:
        """The record of a match as played so far; every deal names its dealer. Its actions
        are each deal's ``decisions``: an ``answer`` forced by ``answer_steps`` is no action
        (RECORD.md), so the record replays as played without it.

        ``kept``: the record the match was replayed from. Its extra keys are kept on rewrite
        (RECORD.md): its ``meta`` under ``meta``'s keys, and each deal's ``meta`` where the
        match still has that deal (the same dealer and hands).
        """
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
                f"not a record: longer than {MAX_RECORD_BYTES // 2**20} MiB, "
                "far more than a whole match takes"
            )
        try:
            data = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
        except RecordFormatError:
            raise
        except RecursionError:
            raise RecordFormatError("not a record: JSON nested too deep") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise RecordFormatError(f"not valid JSON: {e}") from None
        except ValueError:  # Python reads no integer of more than 4,300 digits
            raise RecordFormatError("not a record: a number with too many digits") from None
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
            raise RecordFormatError("a record is a JSON object with keys format, variant, deals")
        _only_keys(data, {"format", "variant", "deals", "meta"}, "the record")
        if data.get("format") != FORMAT:
            given = reprlib.repr(data.get("format"))
            raise RecordFormatError(f"format must be {FORMAT!r}, not {given}")
        switches = data.get("variant", {})
        if not isinstance(switches, dict):
            raise RecordFormatError("variant must be an object of switch names and values")
        try:
            variant = Variant.from_mapping(switches)
        except ValueError as e:
            raise RecordFormatError(str(e)) from None
        deals = data.get("deals")
        if not isinstance(deals, list) or not deals:
            raise RecordFormatError("deals must be a non-empty list")
        records = [_read_deal(d, i + 1) for i, d in enumerate(deals)]
        if records[0].dealer is None:
            raise RecordFormatError("deal 1: dealer is required in the first deal")
        return cls(variant, records, _meta(data, "the record"))

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
                raise RecordFormatError(f"deal {number}: the match was already over")
            previous = match.deal
            if previous is not None and not previous.is_over():
                raise RecordFormatError(
                    f"deal {number}: deal {number - 1} stops part-way but another deal follows"
                )
            if rec.dealer is not None and rec.dealer != match.next_dealer:
                raise RecordFormatError(
                    f"deal {number}: dealer must be {match.next_dealer} (RULES.md 2.3), "
                    f"not {rec.dealer}"
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
    raise RecordFormatError(f"not valid JSON: {name} is no JSON number")


def _finite(text: str) -> float:
    """A JSON number with a fraction or exponent; one past what a float holds (``1e999``) is
    refused, as NaN and Infinity are: a record is JSON that any program reads."""
    value = float(text)
    if not math.isfinite(value):
        raise RecordFormatError(f"not valid JSON: the number {reprlib.repr(text)} is too large")
    return value


def _canonical(token: str) -> str:
    """The canonical spelling of an action token; one that does not parse is kept as written."""
    try:
        return str(Action.parse(token))
    except ValueError:
        return token


def _four(hands: Sequence[CardSet]) -> tuple[CardSet, CardSet, CardSet, CardSet]:
    return (hands[0], hands[1], hands[2], hands[3])


def _only_keys(obj: Mapping[str, Any], allowed: set[str], where: str) -> None:
    extra = sorted(set(obj) - allowed)
    if extra:
        raise RecordFormatError(
            f"{where}: unknown key {reprlib.repr(extra[0])} "
            '(extra information belongs under "meta")'
        )


def _meta(obj: Mapping[str, Any], where: str) -> dict[str, Any] | None:
    meta = obj.get("meta")
    if meta is not None and not isinstance(meta, dict):
        raise RecordFormatError(f"{where}: meta must be an object")
    return meta


def _read_deal(data: Any, number: int) -> DealRecord:
    where = f"deal {number}"
    if not isinstance(data, dict):
        raise RecordFormatError(f"{where}: a deal is an object with keys dealer, hands, actions")
    _only_keys(data, {"dealer", "hands", "actions", "meta"}, where)
    dealer = None
    if data.get("dealer") is not None:
        if not isinstance(data["dealer"], str):
            raise RecordFormatError(f"{where}: dealer must be one of N, E, S, W")
        try:
            dealer = Seat.parse(data["dealer"])
        except ValueError as e:
            raise RecordFormatError(f"{where}: {e}") from None
    hands = data.get("hands")
    if not isinstance(hands, dict) or sorted(k.upper() for k in hands) != sorted(_SEAT_NAMES):
        raise RecordFormatError(f"{where}: hands must give the cards of each of N, E, S, W")
    read: list[CardSet] = []
    seen: dict[Card, str] = {}
    by_seat = {k.upper(): v for k, v in hands.items()}
    for name in _SEAT_NAMES:
        tokens = by_seat[name]
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise RecordFormatError(f"{where}: {name}'s hand must be a list of card tokens")
        cards = []
        for token in tokens:
            try:
                card = Card.parse(token)
            except ValueError as e:
                raise RecordFormatError(f"{where}: {name}'s hand: {e}") from None
            if card in seen:
                raise RecordFormatError(
                    f"{where}: {card} is dealt twice (to {seen[card]} and to {name})"
                )
            seen[card] = name
            cards.append(card)
        if len(cards) != 9:
            raise RecordFormatError(f"{where}: {name}'s hand has {len(cards)} cards, not 9")
        read.append(CardSet(cards))
    assert len(seen) == NUM_CARDS
    actions = data.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordFormatError(f"{where}: actions must be a list of action tokens")
    return DealRecord(_four(read), list(actions), dealer, _meta(data, where))
