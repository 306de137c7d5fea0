"""The web server: the lobby and table pages, the HTTP API and each table's WebSocket.

``create_app`` builds the FastAPI application of docs/WEB.md; ``valtti serve`` runs it with
uvicorn. The referee of each table is its ``Room``; this module only reads requests and
messages, checks their form and hands them on.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import logging
import re
import time
from collections import deque
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Final

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect

from valtti.engine import Seat, Variant
from valtti.engine.variant import SWITCHES
from valtti.web.bots import PLAYERS, Bots
from valtti.web.room import (
    CLOSE_POLICY,
    THROTTLES,
    Connection,
    Room,
    RoomError,
    Rooms,
    check_nickname,
    check_player,
    check_seat,
)
from valtti.web.store import Store

STATIC: Final = Path(__file__).parent / "static"
#: The largest message a client may send (docs/WEB.md).
MAX_MESSAGE: Final = 4096
#: Close codes for an unknown table and an unknown token.
CLOSE_NO_TABLE: Final = 4404
CLOSE_BAD_TOKEN: Final = 4401
#: The largest HTTP request body.
MAX_BODY: Final = 16 * 1024
#: Tables one client address may create in any minute, by default.
TABLES_PER_MINUTE: Final = 10
#: HTTP status of each refusal code; the others are 400.
_STATUS: Final = {
    "not_found": 404,
    "taken": 409,
    "not_finished": 409,
    "too_large": 413,
    "too_many": 429,
}
_PONG: Final = '{"type":"pong"}'

log = logging.getLogger(__name__)

_TOKEN: Final = re.compile(r"((?:creator_)?token=)[^&\s\"']+")


class HideTokens(logging.Filter):
    """Masks ``token=…`` in a log record (uvicorn logs each WebSocket's path with its query),
    so that the log never holds a seat token that works."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = _TOKEN.sub(r"\1***", message)
        if masked != message:
            record.msg, record.args = masked, None
        return True


def log_config() -> dict[str, Any]:
    """uvicorn's logging configuration, with ``HideTokens`` on each of its handlers."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"hide_tokens": {"()": HideTokens}}
    for handler in config["handlers"].values():
        handler["filters"] = [*handler.get("filters", []), "hide_tokens"]
    return config


def create_app(
    db_url: str,
    *,
    bot_delay: float = 0.8,
    bot_workers: int | None = None,
    tables_per_minute: int = TABLES_PER_MINUTE,
) -> FastAPI:
    """The application over the database at ``db_url``.

    On start it resumes every unfinished table; each computer move waits ``bot_delay`` seconds
    (thinking included) so that people can follow; ``bot_workers`` processes think for them.
    One client address may create ``tables_per_minute`` tables in any minute (0: any number).
    """
    creations = _Creations(tables_per_minute)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store, db_url)
        bots = Bots(bot_workers)
        rooms = Rooms(store, bots, bot_delay)
        app.state.rooms = rooms
        try:
            await bots.warm_up()
            resumed = await rooms.resume()
            if resumed:
                log.info("resumed %d unfinished tables", resumed)
            yield
        finally:
            rooms.close()
            bots.close()
            store.close()

    app = FastAPI(title="valtti", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(RoomError)
    async def refused(request: Request, error: RoomError) -> JSONResponse:
        return JSONResponse(
            {"error": error.code, "message": error.message, **error.extra},
            status_code=_STATUS.get(error.code, 400),
        )

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "lobby.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "table.html")

    @app.get("/rules", include_in_schema=False)
    async def rules_page() -> FileResponse:
        return FileResponse(STATIC / "rules.html")

    @app.get("/api/options")
    async def table_options() -> dict[str, Any]:
        return {
            "variant": [
                {"name": name, "values": list(values)} for name, values in SWITCHES.items()
            ],
            "players": list(PLAYERS),
        }

    @app.get("/api/tables")
    async def list_tables(request: Request) -> dict[str, Any]:
        return {"tables": await _rooms(request).summaries()}

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request) -> dict[str, Any]:
        body = await _body(request)
        creations.admit(request.client.host if request.client else "")
        variant = _variant(body.get("variant", {}))
        players = _players(body.get("seats", {}))
        creator = None
        if body.get("seat") is not None:
            seat = check_seat(body["seat"])
            if players[seat] is not None:
                raise RoomError("bad_seat", f"seat {seat} is given to a computer player")
            creator = (seat, check_nickname(body.get("nickname")))
        room, creator_token, token = await _rooms(request).create(variant, players, creator)
        return {
            "id": room.id,
            "link": f"{request.base_url}t/{room.id}",
            "token": token,
            "creator_token": creator_token,
            "seat": None if creator is None else str(creator[0]),
        }

    @app.get("/api/tables/{table_id}")
    async def table_summary(request: Request, table_id: str) -> dict[str, Any]:
        return (await _room(request, table_id)).summary()

    @app.post("/api/tables/{table_id}/seats/{seat}")
    async def take_seat(request: Request, table_id: str, seat: str) -> dict[str, Any]:
        room = await _room(request, table_id)
        body = await _body(request)
        where = check_seat(seat)
        token = await room.join(where, check_nickname(body.get("nickname")))
        return {"token": token, "seat": str(where)}

    @app.get("/api/tables/{table_id}/record")
    async def record(request: Request, table_id: str) -> Response:
        room = await _finished(request, table_id)
        return Response(
            room.record().to_json(),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="valtti-{room.id}.json"'},
        )

    @app.get("/api/tables/{table_id}/replay")
    async def replay(request: Request, table_id: str) -> Response:
        room = await _finished(request, table_id)
        return Response(await room.replay_json(), media_type="application/json")

    @app.websocket("/api/tables/{table_id}/ws")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        room = await _rooms(websocket).get(table_id)
        if room is None:
            await websocket.close(CLOSE_NO_TABLE)
            return
        connection = Connection()
        try:
            await room.connect(connection, websocket.query_params.get("token"))
        except RoomError:
            await websocket.close(CLOSE_BAD_TOKEN)
            return
        await _play(websocket, room, connection)

    return app


async def _play(websocket: WebSocket, room: Room, connection: Connection) -> None:
    """Read the connected connection's messages until it closes; its own task sends its
    frames."""
    writer = asyncio.create_task(_write(websocket, connection))
    loop = asyncio.get_running_loop()
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            if not connection.admit(loop.time()):
                connection.send(RoomError("throttled", "more than 20 messages a second").frame())
                if connection.throttles >= THROTTLES:
                    connection.close(CLOSE_POLICY)
                    break
                continue
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            try:
                await _handle(room, connection, raw)
            except RoomError as e:
                connection.send(e.frame())
    finally:
        await room.disconnect(connection)
        if writer.done() or connection.closing:
            # Let the writer send what was queued before the close it was told to make.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 5.0)
        writer.cancel()


async def _write(websocket: WebSocket, connection: Connection) -> None:
    """Send the connection's frames in order; an ``int`` is the code to close with."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while True:
            frame = await connection.next()
            if isinstance(frame, int):
                await websocket.close(frame)
                return
            await websocket.send_text(frame)


async def _handle(room: Room, connection: Connection, raw: str | bytes) -> None:
    """Carry out one client message (docs/WEB.md); a refusal raises ``RoomError``."""
    # A character is at least one byte, so only a long text needs encoding to measure.
    if len(raw) > MAX_MESSAGE or (
        isinstance(raw, str) and len(raw) * 4 > MAX_MESSAGE and len(raw.encode()) > MAX_MESSAGE
    ):
        raise RoomError("too_large", f"a message is at most {MAX_MESSAGE} bytes")
    message = _json_object(
        raw,
        ("bad_json", "the message is not valid JSON"),
        ("bad_message", "a message is a JSON object with a type"),
    )
    kind = message.get("type")
    if kind == "action":
        token = message.get("action")
        seq = message.get("seq")
        if not isinstance(token, str):
            raise RoomError("bad_message", "action must be an action token, e.g. AS")
        if seq is not None and (not isinstance(seq, int) or isinstance(seq, bool)):
            raise RoomError("bad_message", "seq must be a whole number")
        await room.act(connection, token, seq)
    elif kind == "replace":
        fields = [message.get(k) for k in ("seat", "player", "creator_token")]
        if not all(isinstance(f, str) for f in fields):
            raise RoomError("bad_message", "replace needs seat, player and creator_token")
        seat, player, creator_token = fields
        await room.replace(check_seat(seat), check_player(player), str(creator_token))
    elif kind == "ping":
        connection.send(_PONG)
    else:
        raise RoomError("bad_message", f"unknown message type {kind!r}: action, replace, ping")


class _Creations:
    """When each client address created its latest tables, to refuse a flood of them."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._times: dict[str, deque[float]] = {}

    def admit(self, address: str) -> None:
        """Count a creation from ``address``; ``RoomError("too_many")`` past the limit."""
        if self.per_minute <= 0:
            return
        now = time.monotonic()
        if len(self._times) > 10_000:
            # Forget the addresses with no creation in the last minute.
            self._times = {a: t for a, t in self._times.items() if now - t[-1] < 60.0}
        times = self._times.setdefault(address, deque(maxlen=self.per_minute))
        if len(times) == self.per_minute and now - times[0] < 60.0:
            raise RoomError("too_many", f"at most {self.per_minute} new tables a minute")
        times.append(now)


def _rooms(request: Request | WebSocket) -> Rooms:
    rooms: Rooms = request.app.state.rooms
    return rooms


async def _room(request: Request, table_id: str) -> Room:
    room = await _rooms(request).get(table_id)
    if room is None:
        raise RoomError("not_found", f"no table {table_id!r}")
    return room


async def _finished(request: Request, table_id: str) -> Room:
    room = await _room(request, table_id)
    if room.status != "finished":
        raise RoomError("not_finished", "the match is not over: its record holds every hand")
    return room


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read only up to MAX_BODY bytes (``too_large`` beyond)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise RoomError("too_large", f"a body is at most {MAX_BODY} bytes")
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise RoomError("too_large", f"a body is at most {MAX_BODY} bytes")
    return _json_object(
        raw,
        ("bad_request", "the body is not valid JSON"),
        ("bad_request", "the body is a JSON object"),
    )


def _json_object(
    raw: str | bytes | bytearray, not_json: tuple[str, str], not_object: tuple[str, str]
) -> dict[str, Any]:
    """``raw`` parsed as a JSON object; else ``RoomError`` with the code and message given."""
    try:
        value = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        # RecursionError: JSON nested deeper than Python's stack.
        raise RoomError(*not_json) from None
    if not isinstance(value, dict):
        raise RoomError(*not_object)
    return value


def _variant(switches: object) -> Variant:
    if not isinstance(switches, dict):
        raise RoomError("bad_variant", "variant is an object of switch names and values")
    try:
        return Variant.from_mapping(switches)
    except ValueError as e:
        raise RoomError("bad_variant", str(e)) from None


def _players(seats: object) -> dict[Seat, str | None]:
    """Each seat's computer player, or ``None`` for an open seat (the default)."""
    if not isinstance(seats, dict):
        raise RoomError("bad_request", 'seats is an object: {"N": "open" | player, …}')
    players: dict[Seat, str | None] = dict.fromkeys(Seat)
    for name, value in seats.items():
        seat = check_seat(name)
        players[seat] = None if value == "open" else check_player(value)
    return players
