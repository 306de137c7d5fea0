"""``GET /api/options``: what a new table may be given."""

from __future__ import annotations

from fastapi import APIRouter

from valtti.engine.variant import SWITCHES
from valtti.players.shipped import LEVELS, strengths
from valtti.web.answers import Level, Options, Switch
from valtti.web.referee.bots import PLAYERS
from valtti.web.routing import Route

router = APIRouter(prefix="/api/options", tags=["options"], route_class=Route)


@router.get("")
async def table_options() -> Options:
    """The engine's variant switches (RULES.md 8, the default value first), the computer
    players a seat may be given, and the levels among them with their strengths."""
    measured = strengths()
    return Options(
        variant=[Switch(name=name, values=list(values)) for name, values in SWITCHES.items()],
        players=list(PLAYERS),
        levels=[Level.of(level, measured.players.get(level.player)) for level in LEVELS],
        measured=measured.date,
    )
