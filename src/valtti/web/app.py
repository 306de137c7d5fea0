"""The web server: the lobby and table pages, the HTTP API and each table's WebSocket.

``create_app`` builds the FastAPI application of docs/WEB.md; ``valtti serve`` runs it with
uvicorn. The referee of each table is its ``Room``; this module only reads requests and
messages into their models (``messages``) and hands them on.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import re
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Final

from fastapi import APIRouter, FastAPI, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.routing import Match
from starlette.websockets import WebSocketDisconnect

from valtti.engine.variant import SWITCHES
from valtti.web.bots import PLAYERS, Bots
from valtti.web.chat import Limits
from valtti.web.connection import CLOSE_POLICY, THROTTLES, Connection
from valtti.web.ends import NEXT_DEAL_SECONDS
from valtti.web.errors import RoomError
from valtti.web.messages import (
    ActionMessage,
    BackMessage,
    ChatMessage,
    HintMessage,
    NewTable,
    PingMessage,
    ReadyMessage,
    ReplaceMessage,
    SeatName,
    StandInMessage,
    TakeSeat,
    read_message,
    refusal,
)
from valtti.web.room import Room
from valtti.web.rooms import Rooms
from valtti.web.security import Guard, PerMinute, Policy, client_of
from valtti.web.store import Store, TableStatus

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
    "bad_method": 405,
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
    db: str | Store,
    *,
    bot_delay: float = 0.8,
    bot_workers: int | None = None,
    tables_per_minute: int = TABLES_PER_MINUTE,
    policy: Policy | None = None,
    lan_urls: Sequence[str] = (),
    next_deal_seconds: float = NEXT_DEAL_SECONDS,
) -> FastAPI:
    """The application over the database at the URL ``db`` (opened on start), or over the
    open ``Store`` ``db``; either is closed on shutdown.

    On start it resumes every unfinished table; each computer move waits ``bot_delay`` seconds
    (thinking included) so that people can follow; ``bot_workers`` processes think for them.
    One client address may create ``tables_per_minute`` tables in any minute (0: any number).
    ``policy`` is what its ``Guard`` allows; ``lan_urls`` the addresses friends on the local
    network can open it at (``GET /api/server``); ``next_deal_seconds`` how long a deal's
    end waits for the people to say ready (0: the next deal at once).
    """
    creations = _Creations(tables_per_minute)
    chats = Limits()
    policy = policy or Policy()
    reach = {"public_url": policy.public_url, "lan_urls": list(lan_urls)}

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = db if isinstance(db, Store) else await asyncio.to_thread(Store, db)
        bots = Bots(bot_workers)
        rooms = Rooms(store, bots, bot_delay, next_deal_seconds)
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

    app = FastAPI(
        title="valtti", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None
    )
    app.add_middleware(Guard, policy=policy)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(RoomError)
    async def refused(request: Request, error: RoomError) -> JSONResponse:
        return _refused(error)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        return _refused(refusal(error.errors(), message=False))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> Response:
        if error.status_code == 413:
            return _refused(RoomError("too_large", f"a body is at most {MAX_BODY} bytes"))
        if error.status_code == 400:  # a body FastAPI could not read (JSON nested too deep)
            return _refused(RoomError("bad_request", "the body is not valid JSON"))
        if error.status_code == 404:
            return _not_found(request)
        if error.status_code == 405:
            refusal = RoomError(
                "bad_method", f"{request.method} is not taken at {request.url.path}"
            )
            # Starlette names only the first route of the path; ``Allow`` names every method.
            taken = [
                method
                for method in ("DELETE", "GET", "HEAD", "PATCH", "POST", "PUT")
                if any(
                    route.matches({**request.scope, "method": method})[0] is Match.FULL
                    for route in app.router.routes
                )
            ]
            return _refused(refusal, {"Allow": ", ".join(taken)} if taken else error.headers)
        return JSONResponse({"detail": error.detail}, error.status_code, error.headers)

    pages = APIRouter(include_in_schema=False, route_class=_Route)

    @pages.get("/")
    async def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "lobby.html")

    @pages.get("/t/{table_id}", response_model=None)
    async def table_page(request: Request, table_id: str) -> Response:
        if await _rooms(request).get(table_id) is None:
            return _not_found(request)
        return FileResponse(STATIC / "table.html")

    @pages.get("/rules")
    async def rules_page() -> FileResponse:
        return FileResponse(STATIC / "rules.html")

    options = APIRouter(prefix="/api/options", route_class=_Route)

    @options.get("")
    async def table_options() -> dict[str, Any]:
        return {
            "variant": [
                {"name": name, "values": list(values)} for name, values in SWITCHES.items()
            ],
            "players": list(PLAYERS),
        }

    server = APIRouter(prefix="/api/server", route_class=_Route)

    @server.get("")
    async def server_reach() -> dict[str, Any]:
        return reach

    tables = APIRouter(prefix="/api/tables", route_class=_BodyLimited)

    @tables.get("")
    async def list_tables(
        request: Request,
        status: TableStatus | None = None,
        page: Annotated[int, Query(ge=1, le=1_000_000)] = 1,
    ) -> dict[str, Any]:
        return await _rooms(request).listing(status, page)

    @tables.post("", status_code=201)
    async def create_table(request: Request, body: NewTable) -> dict[str, Any]:
        creations.admit(client_of(request.scope))
        creator = body.creator
        room, creator_token, token = await _rooms(request).create(
            body.variant, body.seats, creator, body.turn_seconds, body.hints
        )
        return {
            "id": room.id,
            "link": f"{request.base_url}t/{room.id}",
            "token": token,
            "creator_token": creator_token,
            "seat": None if creator is None else str(creator[0]),
        }

    @tables.get("/{table_id}")
    async def table_summary(request: Request, table_id: str) -> dict[str, Any]:
        return (await _room(request, table_id)).summary()

    @tables.post("/{table_id}/seats/{seat}")
    async def take_seat(
        request: Request, table_id: str, seat: SeatName, body: TakeSeat
    ) -> dict[str, Any]:
        room = await _room(request, table_id)
        token = await room.join(seat, body.nickname)
        return {"token": token, "seat": str(seat)}

    @tables.get("/{table_id}/record")
    async def record(request: Request, table_id: str) -> Response:
        room = await _finished(request, table_id)
        return Response(
            room.record().to_json(),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="valtti-{room.id}.json"'},
        )

    @tables.get("/{table_id}/replay")
    async def replay(request: Request, table_id: str) -> Response:
        room = await _finished(request, table_id)
        return Response(await room.replay_json(), media_type="application/json")

    @tables.websocket("/{table_id}/ws")
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
        sender = _Sender(_rooms(websocket), chats, client_of(websocket.scope))
        await _play(websocket, room, connection, sender)

    for router in (pages, options, server, tables):
        app.include_router(router)
    return app


class _Sender:
    """Where a connection's messages go beyond its room: the server's tables (for a
    rematch) and chat rates, and the client's address."""

    def __init__(self, rooms: Rooms, chats: Limits, address: str) -> None:
        self.rooms = rooms
        self.chats = chats
        self.address = address


async def _play(websocket: WebSocket, room: Room, connection: Connection, sender: _Sender) -> None:
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
                await _handle(room, connection, raw, sender)
            except RoomError as e:
                connection.send(e.frame())
    finally:
        await room.disconnect(connection)
        await _rooms(websocket).left(room)
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


async def _handle(room: Room, connection: Connection, raw: str | bytes, sender: _Sender) -> None:
    """Carry out one client message (docs/WEB.md); a refusal raises ``RoomError``."""
    # A character is at least one byte, so only a long text needs encoding to measure.
    if len(raw) > MAX_MESSAGE or (
        isinstance(raw, str) and len(raw) * 4 > MAX_MESSAGE and len(raw.encode()) > MAX_MESSAGE
    ):
        raise RoomError("too_large", f"a message is at most {MAX_MESSAGE} bytes")
    match read_message(raw):
        case ActionMessage(action=action, seq=seq):
            await room.act(connection, action, seq)
        case ReplaceMessage(seat=seat, player=player, creator_token=creator_token):
            await room.replace(seat, player, creator_token)
        case StandInMessage(seat=seat):
            await room.stand_in(connection, seat)
        case BackMessage():
            await room.back(connection)
        case ReadyMessage():
            if await room.ready(connection):
                await sender.rooms.rematch(room)
        case ChatMessage(text=text, emote=emote):
            if connection.seat is None:
                raise RoomError("not_seated", "spectators read the chat; the seated write")
            sender.chats.admit(connection, sender.address, asyncio.get_running_loop().time())
            room.chat.post(connection, room.seats, text, emote, room.connections)
        case HintMessage(seq=seq):
            await room.hint(connection, seq)
        case PingMessage():
            connection.send(_PONG)


class _LimitedRequest(Request):
    """A request whose body is read only up to MAX_BODY bytes (``413`` beyond, before the
    rest is read)."""

    async def body(self) -> bytes:
        if not hasattr(self, "_body"):
            declared = self.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > MAX_BODY:
                raise HTTPException(413)
            raw = bytearray()
            async for chunk in self.stream():
                raw += chunk
                if len(raw) > MAX_BODY:
                    raise HTTPException(413)
            self._body = bytes(raw)
        return self._body


class _Route(APIRoute):
    """A route that takes HEAD wherever it takes GET, as Starlette's own routes do (FastAPI's
    do not: a HEAD on a page was a 405). The endpoint answers it as a GET, whose body the
    server (uvicorn) leaves out for a HEAD."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **options: Any) -> None:
        super().__init__(path, endpoint, **options)
        if self.methods and "GET" in self.methods:
            self.methods.add("HEAD")


class _BodyLimited(_Route):
    """A route that reads its body as a ``_LimitedRequest``."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def limited(request: Request) -> Response:
            return await handler(_LimitedRequest(request.scope, request.receive))

        return limited


class _Creations:
    """When each client address created its latest tables, to refuse a flood of them."""

    def __init__(self, per_minute: int) -> None:
        self._window = PerMinute(per_minute)

    def admit(self, address: str) -> None:
        """Count a creation from ``address``; ``RoomError("too_many")`` past the limit."""
        if not self._window.admit(address):
            raise RoomError("too_many", f"at most {self._window.limit} new tables a minute")


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


def _not_found(request: Request) -> Response:
    """404: the error body of docs/WEB.md under /api/, the not-found page elsewhere."""
    if request.url.path == "/api" or request.url.path.startswith("/api/"):
        return _refused(RoomError("not_found", f"no such resource: {request.url.path}"))
    return FileResponse(STATIC / "notfound.html", status_code=404)


def _refused(error: RoomError, headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse(
        {"error": error.code, "message": error.message, **error.extra},
        status_code=_STATUS.get(error.code, 400),
        headers=headers,
    )
