"""The client's messages and request bodies (docs/WEB.md) as Pydantic models.

Each field is checked by a validator that refuses with the code and message docs/WEB.md gives
(a ``PydanticCustomError`` whose type is the code); ``refusal`` turns Pydantic's errors into
that ``RoomError``. A message's form error that has no code of its own (a missing field, a
wrong JSON type) is ``bad_message`` with the message its model names for the field.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, ClassVar, Final, Literal, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainValidator,
    TypeAdapter,
    ValidationError,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import PydanticCustomError

from valtti.engine import Seat, Variant
from valtti.players.registry import untrusted_spec
from valtti.players.spec import PlayerSpecError
from valtti.web.referee.bots import PLAYERS
from valtti.web.referee.chat import EMOTES, MAX_TEXT
from valtti.web.referee.errors import RoomError
from valtti.web.referee.seats import NICKNAME_MAX, TABLE_NAME_MAX, nickname_fault, trim_nickname
from valtti.web.referee.turns import (
    DEFAULT_TURN_SECONDS,
    MAX_BANK_SECONDS,
    MAX_TURN_SECONDS,
    bank_for,
)

T = TypeVar("T")

#: The error codes a validator refuses with (the others are the form's).
CODES: Final = frozenset(
    {
        "bad_request",
        "bad_message",
        "bad_seat",
        "bad_player",
        "bad_nickname",
        "bad_name",
        "bad_variant",
        "bad_chat",
    }
)


def _refuse(code: str, message: str) -> PydanticCustomError:
    # With no context pydantic-core fills in no fields: the message is shown as written, braces
    # and all (doubling them showed "{{" to the client).
    return PydanticCustomError(code, message)


def _seat(value: object) -> Seat:
    if not isinstance(value, str) or value.upper() not in Seat.__members__:
        raise _refuse("bad_seat", f"not a seat: {value!r} (N, E, S or W)")
    return Seat[value.upper()]


def _player(value: object) -> str:
    """A computer player the lobby offers (``PLAYERS``), named in a request: from others, so
    never one that would start a program (``untrusted_spec``)."""
    name = value.strip().lower() if isinstance(value, str) else ""
    try:
        offered = untrusted_spec(name) in PLAYERS
    except PlayerSpecError:
        offered = False
    if not offered:
        known = ", ".join(PLAYERS)
        raise _refuse("bad_player", f"unknown computer player {value!r}: one of {known}")
    return name


#: A computer player the lobby offers, for other requests' models (a club night's).
player_name = _player


def _written_name(value: object, code: str, what: str, most: int = NICKNAME_MAX) -> str:
    """A name as a nickname is written (``seats.nickname_fault``), ``what`` of at most
    ``most`` characters; refused with ``code``."""
    if not isinstance(value, str):
        raise _refuse(code, f"the {what} must be a string")
    name = trim_nickname(value)
    fault = nickname_fault(name, most, f"a {what}")
    if fault is not None:
        raise _refuse(code, fault)
    return name


def _nickname(value: object) -> str:
    return _written_name(value, "bad_nickname", "nickname")


def _table_name(value: object) -> str | None:
    """A table's name, of at most TABLE_NAME_MAX; ``null``: none."""
    return (
        None if value is None else _written_name(value, "bad_name", "table's name", TABLE_NAME_MAX)
    )


def _variant(value: object) -> Variant:
    if not isinstance(value, dict):
        raise _refuse("bad_variant", "variant is an object of switch names and values")
    try:
        return Variant.from_mapping(value)
    except ValueError as e:
        raise _refuse("bad_variant", str(e)) from None


def _players(value: object) -> dict[Seat, str | None]:
    """Each seat's computer player, or ``None`` for an open seat (the default)."""
    if not isinstance(value, dict):
        raise _refuse("bad_request", 'seats is an object: {"N": "open" | player, …}')
    players: dict[Seat, str | None] = dict.fromkeys(Seat)
    for name, player in value.items():
        players[_seat(name)] = None if player == "open" else _player(player)
    return players


def _turn_seconds(value: object) -> int | None:
    """A turn time: whole seconds from 1 to MAX_TURN_SECONDS, or ``null``/0 for none (not
    ``false`` or ``0.0``, which equal 0 too)."""
    if value is None or (type(value) is int and value == 0):
        return None
    if type(value) is not int or not 1 <= value <= MAX_TURN_SECONDS:
        raise _refuse(
            "bad_request",
            f"turn_seconds is a whole number of seconds from 1 to {MAX_TURN_SECONDS}, or null",
        )
    return value


def _bank_seconds(value: object) -> int | None:
    """A time bank: whole seconds from 0 to MAX_BANK_SECONDS, or ``null`` for the default."""
    if value is None:
        return None
    if type(value) is not int or not 0 <= value <= MAX_BANK_SECONDS:
        raise _refuse(
            "bad_request",
            f"time_bank_seconds is a whole number of seconds from 0 to {MAX_BANK_SECONDS}, or null",
        )
    return value


#: The embeddings, overrides and isolates of Unicode's bidirectional algorithm (the marks
#: LRM and RLM, which turn nothing round, are allowed).
_BIDI_CONTROLS: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _chat_text(value: object) -> str:
    if not isinstance(value, str):
        raise _refuse("bad_chat", "text must be a string")
    text = value.strip()
    if not 1 <= len(text) <= MAX_TEXT:
        raise _refuse("bad_chat", f"a chat text has 1 to {MAX_TEXT} characters")
    if any(unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in text):
        raise _refuse("bad_chat", "a chat text has no control characters or line breaks")
    # An override or isolate would turn round what follows it, the sender's name included.
    if any(c in _BIDI_CONTROLS for c in text):
        raise _refuse("bad_chat", "a chat text has no bidirectional overrides or isolates")
    return text


def _emote(value: object) -> str:
    if value not in EMOTES:
        raise _refuse("bad_chat", f"unknown emote {value!r}: one of {', '.join(EMOTES)}")
    assert isinstance(value, str)
    return value


def _text(check: Callable[[str], T]) -> Callable[[object], T]:
    """``check`` for a string; anything else is a message's form error (``bad_message``)."""

    def checked(value: object) -> T:
        if not isinstance(value, str):
            raise PydanticCustomError("string_type", "Input should be a valid string")
        return check(value)

    return checked


SeatName = Annotated[
    Seat, BeforeValidator(_seat), WithJsonSchema({"type": "string", "enum": ["N", "E", "S", "W"]})
]
Nickname = Annotated[str, BeforeValidator(_nickname)]
Switches = Annotated[
    Variant,
    PlainValidator(_variant),
    WithJsonSchema({"type": "object", "additionalProperties": {"type": ["string", "integer"]}}),
]
TurnSeconds = Annotated[
    int | None,
    PlainValidator(_turn_seconds),
    WithJsonSchema({"type": ["integer", "null"]}),
]
TableName = Annotated[
    str | None, PlainValidator(_table_name), WithJsonSchema({"type": ["string", "null"]})
]
BankSeconds = Annotated[
    int | None,
    PlainValidator(_bank_seconds),
    WithJsonSchema({"type": ["integer", "null"]}),
]
Players = Annotated[
    dict[Seat, str | None],
    PlainValidator(_players),
    WithJsonSchema({"type": "object", "additionalProperties": {"type": "string"}}),
]


# -- request bodies --------------------------------------------------------------------------


class NewTable(BaseModel):
    """``POST /api/tables``: the variant, each seat's computer player or ``"open"``, the
    seat and nickname the creator takes (if any), the table's name (none unless given), each
    person's time for a turn
    (``turn_seconds``: DEFAULT_TURN_SECONDS unless given; ``null`` or 0: no limit), each
    person's time bank for the match (``time_bank_seconds``: ``turns.bank_for`` unless given;
    none without a turn time), whether a seated person may ask for a hint on their turn
    (``hints``, on unless given), and whether the lobby lists the table (``listed``: unless
    given, all but a game against the computer)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    variant: Switches = Field(default_factory=Variant)
    seats: Players = Field(default_factory=lambda: dict.fromkeys(Seat))
    seat: SeatName | None = None
    nickname: Any = None
    name: TableName = None
    turn_seconds: TurnSeconds = DEFAULT_TURN_SECONDS
    time_bank_seconds: BankSeconds = None
    hints: Annotated[bool, Field(strict=True)] = True
    listed: Annotated[bool | None, Field(strict=True)] = None

    @model_validator(mode="after")
    def _creator(self) -> NewTable:
        if self.seat is not None:
            if self.seats[self.seat] is not None:
                raise _refuse("bad_seat", f"seat {self.seat} is given to a computer player")
            self.nickname = _nickname(self.nickname)
        return self

    @property
    def bank(self) -> int:
        """Each person's time bank: as given, else the default for the turn time."""
        return bank_for(self.turn_seconds, self.time_bank_seconds)

    @property
    def creator(self) -> tuple[Seat, str] | None:
        """The seat and nickname the creator takes, or ``None``."""
        return None if self.seat is None else (self.seat, self.nickname)

    @property
    def in_lobby(self) -> bool:
        """Whether the lobby lists the table: as given, else unless it is a game against the
        computer (the creator's seat, and computer players at every other), which nobody
        could join: its player's own."""
        if self.listed is not None:
            return self.listed
        if self.seat is None:
            return True
        return any(p is None for s, p in self.seats.items() if s != self.seat)


class CloseTable(BaseModel):
    """``POST /api/tables/{id}/close``: the creator's token."""

    creator_token: Annotated[str, Field(strict=True)]


class TakeSeat(BaseModel):
    """``POST /api/tables/{id}/seats/{seat}``."""

    nickname: Nickname = Field(default=None, validate_default=True)


# -- WebSocket messages ----------------------------------------------------------------------


class ActionMessage(BaseModel):
    """Play this action for my seat, on the ``seq`` the client has seen (if given)."""

    malformed: ClassVar[Mapping[str, str]] = {
        "action": "action must be an action token, e.g. AS",
        "seq": "seq must be a whole number",
    }

    type: Literal["action"]
    action: Annotated[str, Field(strict=True)]
    seq: Annotated[int | None, Field(strict=True)] = None


class ReplaceMessage(BaseModel):
    """The creator hands a seat to a computer player."""

    malformed: ClassVar[Mapping[str, str]] = dict.fromkeys(
        ("seat", "player", "creator_token"), "replace needs seat, player and creator_token"
    )

    type: Literal["replace"]
    seat: Annotated[Seat, PlainValidator(_text(_seat))]
    player: Annotated[str, PlainValidator(_text(_player))]
    creator_token: Annotated[str, Field(strict=True)]


class StandInMessage(BaseModel):
    """A seated person hands the seat of a person who is away to a stand-in."""

    malformed: ClassVar[Mapping[str, str]] = {"seat": "stand_in needs a seat"}

    type: Literal["stand_in"]
    seat: Annotated[Seat, PlainValidator(_text(_seat))]


class BackMessage(BaseModel):
    """I am back: my stand-in leaves my seat."""

    malformed: ClassVar[Mapping[str, str]] = {}

    type: Literal["back"]


class ReadyMessage(BaseModel):
    """My seat is ready for the next deal (or, after the match, for a rematch)."""

    malformed: ClassVar[Mapping[str, str]] = {}

    type: Literal["ready"]


class ChatMessage(BaseModel):
    """Say ``text`` (1 to 200 characters after trimming, no control characters) or one of
    the ``emote`` names to the table."""

    malformed: ClassVar[Mapping[str, str]] = {}

    type: Literal["chat"]
    text: Annotated[str | None, PlainValidator(_chat_text)] = None
    emote: Annotated[str | None, PlainValidator(_emote)] = None

    @model_validator(mode="after")
    def _one(self) -> ChatMessage:
        if (self.text is None) == (self.emote is None):
            raise _refuse("bad_chat", "a chat message has either text or emote")
        return self


class HintMessage(BaseModel):
    """What the PIMC computer player (pimc:hard) makes of each legal move of my seat, and why:
    on my turn, on the ``seq`` the client has seen (if given)."""

    malformed: ClassVar[Mapping[str, str]] = {"seq": "seq must be a whole number"}

    type: Literal["hint"]
    seq: Annotated[int | None, Field(strict=True)] = None


class PingMessage(BaseModel):
    malformed: ClassVar[Mapping[str, str]] = {}

    type: Literal["ping"]


AnyMessage = (
    ActionMessage
    | ReplaceMessage
    | StandInMessage
    | BackMessage
    | ReadyMessage
    | ChatMessage
    | HintMessage
    | PingMessage
)
ClientMessage = Annotated[AnyMessage, Field(discriminator="type")]
_MESSAGES: Final = TypeAdapter[ClientMessage](ClientMessage)
#: For each message type, the message of a form error of each field.
_MALFORMED: Final[Mapping[str, Mapping[str, str]]] = {
    "action": ActionMessage.malformed,
    "replace": ReplaceMessage.malformed,
    "stand_in": StandInMessage.malformed,
    "back": BackMessage.malformed,
    "ready": ReadyMessage.malformed,
    "chat": ChatMessage.malformed,
    "hint": HintMessage.malformed,
    "ping": PingMessage.malformed,
}


def read_message(raw: str | bytes) -> AnyMessage:
    """The client message in ``raw``; ``RoomError`` (bad_json, bad_message, bad_seat,
    bad_player) as docs/WEB.md gives them."""
    try:
        return _MESSAGES.validate_json(raw)
    except ValidationError as e:
        raise refusal(e.errors(), message=True) from None


def refusal(errors: Sequence[Mapping[str, Any]], *, message: bool) -> RoomError:
    """The ``RoomError`` for Pydantic's ``errors`` of a client message (``message``) or of a
    request body (whose ``loc`` starts with where the value was: body, path…).

    A form error comes before a validator's refusal, as a message's fields are read before
    they are checked.
    """
    form = [e for e in errors if e["type"] not in CODES]
    first = form[0] if form else errors[0]
    if first["type"] in CODES:
        return RoomError(first["type"], first["msg"])
    loc = tuple(first["loc"]) if message else tuple(first["loc"])[1:]
    if first["type"] == "json_invalid":
        if message:
            return RoomError("bad_json", "the message is not valid JSON")
        return RoomError("bad_request", "the body is not valid JSON")
    if not message:
        if not loc:
            return RoomError("bad_request", "the body is a JSON object")
        return RoomError("bad_request", f"{loc[0]}: {first['msg']}")
    if first["type"] == "union_tag_invalid":
        kind = first["input"].get("type") if isinstance(first["input"], dict) else None
        known = "action, replace, stand_in, back, ready, chat, hint, ping"
        return RoomError("bad_message", f"unknown message type {kind!r}: {known}")
    if len(loc) >= 2 and loc[0] in _MALFORMED:
        field = str(loc[1])
        return RoomError("bad_message", _MALFORMED[str(loc[0])].get(field, field))
    return RoomError("bad_message", "a message is a JSON object with a type")
