"""Club mode's request bodies and answers (docs/HOSTING.md, "A club"), as Pydantic models."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from valtti.engine import Variant
from valtti.web.club.duplicate import Movement
from valtti.web.club.ratings import shown
from valtti.web.club.service import Watchers
from valtti.web.db.club import Member
from valtti.web.messages import Switches, TurnSeconds, player_name

Text = Annotated[str, Field(strict=True, max_length=512)]


class SignUp(BaseModel):
    """``POST /api/club/signup``: a name and a password, with an invitation's token (none only
    for the club's first member, its administrator: ``POST /api/club/setup``)."""

    name: Text
    password: Text
    invitation: Text | None = None


class SignIn(BaseModel):
    """``POST /api/club/signin``."""

    name: Text
    password: Text


class PasswordChange(BaseModel):
    """``POST /api/club/password``: the current password and the new one."""

    current: Text
    new: Text


class MemberStatus(BaseModel):
    """``POST /api/club/members/{id}/status``: an administrator disables or enables a member."""

    disabled: Annotated[bool, Field(strict=True)]


class ClubSettings(BaseModel):
    """``GET`` and ``POST /api/club/settings``: who may watch a table."""

    watchers: Watchers


class MemberAnswer(BaseModel):
    """A member as the pages show one."""

    id: int
    name: str
    admin: bool
    disabled: bool
    rating: float  #: ``mu - 3 sigma``
    mu: float
    sigma: float

    @classmethod
    def of(cls, member: Member) -> MemberAnswer:
        return cls(
            id=member.id,
            name=member.name,
            admin=member.admin,
            disabled=member.disabled,
            rating=shown(member.mu, member.sigma),
            mu=round(member.mu, 2),
            sigma=round(member.sigma, 2),
        )


class Me(BaseModel):
    """``GET /api/club/me``: whether the server is a club's, whether it still needs its first
    member (``setup``), and the signed-in member with the CSRF token their page sends back."""

    club: bool
    setup: bool = False
    member: MemberAnswer | None = None
    csrf: str | None = None


class Invitation(BaseModel):
    """A new invitation: the link to give, and when it expires."""

    link: str
    token: str
    expires: str


class InvitationState(BaseModel):
    """``GET /api/club/invitations/{token}``: whether it can still be used."""

    open: bool


class NightSeat(BaseModel):
    """``POST /api/club/nights/{id}/seat``: the member's table of the round, and its seat."""

    table: str
    token: str
    seat: Literal["N", "E", "S", "W"]


class TableNight(BaseModel):
    """``GET /api/club/nights/table/{id}``: the night and round of a table, and whether every
    table of the round has finished."""

    night: str
    round: int
    released: bool


class RatingStep(BaseModel):
    """One change of a member's rating, and what made it (``table:ID`` or ``night:ID``)."""

    at: str
    source: str
    before: float
    after: float


class PlayedAnswer(BaseModel):
    """A finished match a member played: the table, their seat, its name, when it ended."""

    id: str
    seat: Literal["N", "E", "S", "W"]
    name: str | None
    finished: str | None


class MemberPage(BaseModel):
    """``GET /api/club/members/{id}``: a member, their rating's history, and the finished
    matches they played, newest first."""

    member: MemberAnswer
    history: list[RatingStep]
    tables: list[PlayedAnswer]


MAX_TABLES = 8
MAX_ROUNDS = 12
MAX_DEALS = 12


def _computer(value: str) -> str:
    return player_name(value)


class NewNight(BaseModel):
    """``POST /api/club/nights``: a club night (docs/HOSTING.md, "A club night"): its name,
    tables, rounds, deals a round, the movement, the members who play (in slot order: with
    ``pairs`` each two in a row are a pair), the computer player of every other seat, the
    variant and each person's time for a turn."""

    name: Annotated[str, Field(strict=True, min_length=1, max_length=40)]
    tables: Annotated[int, Field(strict=True, ge=2, le=MAX_TABLES)] = 2
    rounds: Annotated[int, Field(strict=True, ge=1, le=MAX_ROUNDS)] = 2
    deals: Annotated[int, Field(strict=True, ge=1, le=MAX_DEALS)] = 4
    movement: Movement = "pairs"
    members: Annotated[list[Annotated[int, Field(strict=True)]], Field(max_length=4 * MAX_TABLES)]
    computer: Annotated[str, AfterValidator(_computer)] = "heuristic"
    variant: Switches = Field(default_factory=Variant)
    turn_seconds: TurnSeconds = None

    model_config = ConfigDict(arbitrary_types_allowed=True)

    @model_validator(mode="after")
    def _fits(self) -> NewNight:
        if len(self.members) > 4 * self.tables:
            raise ValueError(f"{self.tables} tables seat at most {4 * self.tables} members")
        if len(set(self.members)) != len(self.members):
            raise ValueError("a member is named twice")
        return self


class PasskeyOptions(BaseModel):
    """A passkey ceremony's first step: its key, and the WebAuthn options for the browser
    (``PublicKeyCredential.parseCreationOptionsFromJSON`` or ``…RequestOptionsFromJSON``)."""

    ceremony: str
    options: dict[str, Any]


class PasskeySignUp(BaseModel):
    """``POST /api/club/passkeys/signup/options``: the invitation and the new member's name."""

    invitation: Text
    name: Text


class PasskeyAnswer(BaseModel):
    """A passkey ceremony's second step: its key, and the browser's credential as JSON
    (``PublicKeyCredential.toJSON()``)."""

    ceremony: Text
    credential: dict[str, Any]
