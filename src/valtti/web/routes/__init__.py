"""The HTTP API and the pages, one router a resource (docs/WEB.md): ``pages`` (the lobby, a
table's page, the rules), ``options`` (``/api/options``), ``server`` (``/api/server``),
``tables`` (``/api/tables``: the list, a new table, a summary), ``seats`` (taking a seat),
``records`` (a finished match's record and replay), ``review`` (a finished match's review),
``websocket`` (a table's WebSocket), and in club mode ``club`` (``/api/club``: accounts,
members, settings), ``nights`` (``/api/club/nights``: club nights) and ``passkeys``
(``/api/club/passkeys``: members' passkeys). ``create_app``
includes each of ``ROUTERS``."""

from __future__ import annotations

from typing import Final

from fastapi import APIRouter

from valtti.web.routes import (
    club,
    nights,
    options,
    pages,
    passkeys,
    records,
    review,
    seats,
    server,
    tables,
    websocket,
)

ROUTERS: Final[tuple[APIRouter, ...]] = (
    pages.router,
    options.router,
    server.router,
    tables.router,
    seats.router,
    records.router,
    review.router,
    websocket.router,
    club.router,
    nights.router,
    passkeys.router,
)
