"""The HTTP API's answers (docs/WEB.md, "HTTP") as Pydantic response models.

The routes answer through these models, and the OpenAPI schema (``/api/openapi.json``) shows
them. Each model's fields are in the order of docs/WEB.md, and a field is left out of an answer
only where docs/WEB.md leaves it out (``stand_in``: a person's seat only, ``OtherSeat``). The
record and the replay of a finished match are encoded once and sent as they are: their models
(``MatchRecord``, ``Replay``) only describe them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field

from valtti.engine import Seat
from valtti.players import shipped
from valtti.web.db.rows import ClosedBy, ListedStatus, TableStatus

SeatLetter = Literal["N", "E", "S", "W"]
#: A variant switch's value (RULES.md 8): a number, a word, or on/off.
SwitchValue = bool | int | str


class Switch(BaseModel):
    """A variant switch and its values, the default first."""

    name: str
    values: list[SwitchValue]


class Level(BaseModel):
    """A level offered to people: its name, the computer player behind it, and how strong the
    leaderboard found it (game points a deal over ``club``, the club level, with its 95 %
    interval; ``None`` for the club level itself)."""

    name: str
    player: str
    points: float | None
    low: float | None
    high: float | None

    @classmethod
    def of(cls, level: shipped.Level, strength: shipped.Strength | None) -> Level:
        """The level as offered, with its strength where the leaderboard measured it."""
        if strength is None:
            return cls(name=level.name, player=level.player, points=None, low=None, high=None)
        return cls(
            name=level.name,
            player=level.player,
            points=strength.points,
            low=strength.low,
            high=strength.high,
        )


class Options(BaseModel):
    """``GET /api/options``: the engine's variant switches, the computer players a seat may be
    given, and the levels among them (weakest first) with the date of the leaderboard that
    measured them."""

    variant: list[Switch]
    players: list[str]
    levels: list[Level]
    measured: str


class Reach(BaseModel):
    """``GET /api/server``: where people open the server, and where friends on the local
    network can."""

    public_url: str | None
    lan_urls: list[str]


class PersonSeat(BaseModel):
    """A person's seat in a summary."""

    seat: SeatLetter
    kind: Literal["human"]
    name: str | None
    connected: bool  #: whether a connection plays the seat
    #: The computer player standing in while the person is away, or ``None``.
    stand_in: str | None


class OtherSeat(BaseModel):
    """An open seat, or a computer player's, in a summary: no ``stand_in``."""

    seat: SeatLetter
    kind: Literal["open", "computer"]
    name: str | None
    connected: bool  #: always for a computer player, never for an open seat


SeatSummary = Annotated[PersonSeat | OtherSeat, Field(discriminator="kind")]


class Score(BaseModel):
    """The match score of each team."""

    NS: int
    EW: int


class TableSummary(BaseModel):
    """A table's summary: ``GET /api/tables/{id}``, and the ``table`` of a state frame."""

    id: str
    name: str | None  #: as its creator gave it, if they did
    created: str  #: ISO 8601, UTC
    status: TableStatus
    variant: dict[str, SwitchValue]  #: the switches changed from their defaults
    seats: list[SeatSummary]  #: N, E, S, W
    turn_seconds: int | None
    time_bank_seconds: int  #: each person's time bank for the match (0: none)
    hints: bool
    score: Score
    winner: Literal["NS", "EW", "draw"] | None
    deals: int
    rematch: str | None  #: the rematch's table, once there is one
    listed: bool  #: whether the lobby's list shows it (a game against the computer: no)
    closed: ClosedBy | None  #: why a closed table was closed


class ListedTable(TableSummary):
    """A summary in the lobby's list."""

    #: Unfinished, and nobody connected to it for ``rooms.IDLE_AFTER``.
    idle: bool


class TableList(BaseModel):
    """``GET /api/tables``: one page of the lobby's list."""

    tables: list[ListedTable]
    status: ListedStatus | None
    page: int
    pages: int
    total: int


class CreatedTable(BaseModel):
    """``POST /api/tables``: the new table."""

    id: str
    link: str  #: the table's page at the address the request was made to
    token: str | None  #: the creator's seat token, when they took a seat
    creator_token: str
    seat: SeatLetter | None
    #: In club mode: the link a member gives a guest, who may take a seat with it.
    guest_link: str | None = None


class TakenSeat(BaseModel):
    """``POST /api/tables/{id}/seats/{seat}``: the seat's token."""

    token: str
    seat: SeatLetter


class RecordDeal(BaseModel):
    """One deal of a record (RECORD.md)."""

    dealer: SeatLetter | None = None
    hands: dict[SeatLetter, list[str]]
    actions: list[str]
    meta: dict[str, Any] | None = None


class MatchRecord(BaseModel):
    """``GET /api/tables/{id}/record``: the finished match as a RECORD.md file."""

    format: str
    variant: dict[str, SwitchValue] | None = None  #: left out for the default rules
    deals: list[RecordDeal]
    meta: dict[str, Any]


class ReplayStep(BaseModel):
    """One step of a replay: the start of a deal, or one action."""

    deal: int
    seq: int
    action: str | None
    hands: dict[SeatLetter, list[str]]
    observation: dict[str, Any]  #: a spectator's, with a partner's choice (Match.replay_view)
    deals: list[dict[str, Any]]


class Replay(BaseModel):
    """``GET /api/tables/{id}/replay``: every step of a finished match."""

    steps: list[ReplayStep]


class Refusal(BaseModel):
    """A refused request: its code and message (docs/WEB.md), and any fields the code adds."""

    model_config = ConfigDict(extra="allow")

    error: str
    message: str


def letter(seat: Seat) -> SeatLetter:
    """A seat as the answers write it."""
    return cast(SeatLetter, str(seat))


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route's refusals with these HTTP statuses."""
    return {status: {"model": Refusal, "description": _REFUSED[status]} for status in statuses}


_REFUSED = {
    400: "Refused: a malformed request (bad_request, or the field's own code)",
    401: "Club mode: sign in as a member first (not_signed_in, bad_sign_in)",
    403: "Not yours to do (not_creator; club mode: bad_csrf, not_admin, reserved)",
    404: "No such table (not_found)",
    409: "Refused: taken, not_finished, finished or closed (club mode: name_taken, set_up)",
    413: "The body is over 16 KiB (too_large)",
    429: "Too many from one client address (too_many)",
    503: "Not made this time; asking again tries again (review_failed)",
}
