"""``/api/tables/{id}/ws``: a table's WebSocket (docs/WEB.md). The connection plays the seat
of its ``token`` (a spectator watches without one); this module reads its messages into their
models (``messages``) and hands them to the table's ``Room``, and sends the frames the room
queues for it."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Final

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from valtti.web.club.deps import MaybeClub, Visitor, VisitorDep
from valtti.web.club.service import Club
from valtti.web.deps import LimitsDep, RoomsDep
from valtti.web.messages import (
    ActionMessage,
    BackMessage,
    ChatMessage,
    HintMessage,
    PingMessage,
    ReadyMessage,
    ReplaceMessage,
    StandInMessage,
    read_message,
)
from valtti.web.referee.chat import Limits
from valtti.web.referee.connection import CLOSE_POLICY, THROTTLES, Connection
from valtti.web.referee.errors import RoomError
from valtti.web.referee.room import Room
from valtti.web.referee.rooms import Rooms
from valtti.web.security import client_of

#: The largest message a client may send (docs/WEB.md).
MAX_MESSAGE: Final = 4096
#: Close codes for an unknown table and an unknown token.
CLOSE_NO_TABLE: Final = 4404
CLOSE_BAD_TOKEN: Final = 4401
#: Close code for a spectator who may not watch (club mode, docs/HOSTING.md).
CLOSE_NOT_WATCHER: Final = 4403
_PONG: Final = '{"type":"pong"}'

router = APIRouter(prefix="/api/tables")


@router.websocket("/{table_id}/ws")
async def table_socket(
    websocket: WebSocket,
    table_id: str,
    rooms: RoomsDep,
    limits: LimitsDep,
    club: MaybeClub,
    visitor: VisitorDep,
    token: str | None = None,
    guest: str | None = None,
) -> None:
    await websocket.accept()
    room = await rooms.get(table_id)
    if room is None:
        await websocket.close(CLOSE_NO_TABLE)
        return
    if not token and not await _may_watch(websocket, room, club, visitor, guest):
        await websocket.close(CLOSE_NOT_WATCHER)
        return
    connection = Connection()
    try:
        await room.connect(connection, token)
    except RoomError:
        await websocket.close(CLOSE_BAD_TOKEN)
        return
    sender = _Sender(rooms, limits.chats, client_of(websocket.scope))
    await _play(websocket, room, connection, sender)


async def _may_watch(
    websocket: WebSocket, room: Room, club: Club | None, visitor: Visitor, guest: str | None
) -> bool:
    """Whether a spectator may watch the table: never a club night's table while other
    tables of its round play the same deals; in club mode, members and the table's guests
    only unless the club lets anyone watch."""
    if club is None:
        return True
    if await websocket.app.state.nights.embargoed(room.id):
        return False
    if visitor.member is not None or club.is_guest_key(room.id, guest):
        return True
    return await club.watchers() == "anyone"


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
        await sender.rooms.left(room)
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
