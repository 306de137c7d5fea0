"""The web server's application: the pages, the HTTP API and each table's WebSocket.

``create_app`` builds the FastAPI application of docs/WEB.md, which ``valtti serve`` runs with
uvicorn: the routers of web/routes (one a resource), behind the ``security.Guard`` middleware,
with the refusals of docs/WEB.md as its error answers and the OpenAPI schema at
``/api/openapi.json``. The referee of each table is its ``Room``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import warnings
from collections.abc import AsyncIterator, Mapping, Sequence
from datetime import timedelta
from importlib import metadata
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.routing import Match
from starlette.types import Scope

from valtti.web.answers import Reach
from valtti.web.club.accounts import AccountSettings
from valtti.web.club.nights import Nights
from valtti.web.club.passkeys import Passkeys
from valtti.web.club.service import Club
from valtti.web.db.store import Store
from valtti.web.deps import ClientLimits
from valtti.web.messages import refusal
from valtti.web.referee.bots import Bots
from valtti.web.referee.chat import Limits
from valtti.web.referee.ends import NEXT_DEAL_SECONDS
from valtti.web.referee.errors import RoomError
from valtti.web.referee.reviews import Reviews
from valtti.web.referee.room import Room
from valtti.web.referee.rooms import CLOSE_IDLE_AFTER, Rooms
from valtti.web.routes import ROUTERS
from valtti.web.routes.pages import STATIC, not_found_page
from valtti.web.routing import MAX_BODY
from valtti.web.security import Guard, PerMinute, Policy

#: Tables one client address may create in any minute, by default.
TABLES_PER_MINUTE: Final = 10
#: Where the OpenAPI schema of the HTTP API is served (docs/WEB.md).
OPENAPI_URL: Final = "/api/openapi.json"
#: HTTP status of each refusal code; the others are 400.
_STATUS: Final = {
    "not_found": 404,
    "taken": 409,
    "not_finished": 409,
    "finished": 409,
    "closed": 409,
    "not_creator": 403,
    "review_failed": 503,
    "bad_method": 405,
    "too_large": 413,
    "too_many": 429,
    "not_signed_in": 401,
    "bad_sign_in": 401,
    "bad_csrf": 403,
    "not_admin": 403,
    "reserved": 403,
    "name_taken": 409,
    "set_up": 409,
    "bad_passkey": 400,
}

log = logging.getLogger(__name__)


class WebApp(FastAPI):
    """The application, whose OpenAPI schema says what it answers: each GET once (it takes
    HEAD too, ``routing.Route``), and a refused request as its ``Refusal``, not FastAPI's
    ``422``."""

    def openapi(self) -> dict[str, Any]:
        if self.openapi_schema is None:
            with warnings.catch_warnings():
                # The GET and HEAD of one route share its operation id; the HEAD is left out.
                warnings.filterwarnings("ignore", "Duplicate Operation ID", UserWarning)
                schema = super().openapi()
            for operations in schema.get("paths", {}).values():
                operations.pop("head", None)
                for operation in operations.values():
                    operation.get("responses", {}).pop("422", None)
            schemas = schema.get("components", {}).get("schemas", {})
            # Only the models an operation uses, and those they use (not FastAPI's 422).
            used: set[str] = set()
            todo = [schema.get("paths", {})]
            while todo:
                for name in re.findall(r'"#/components/schemas/([^"]+)"', json.dumps(todo.pop())):
                    if name not in used and name in schemas:
                        used.add(name)
                        todo.append(schemas[name])
            for name in set(schemas) - used:
                del schemas[name]
            self.openapi_schema = schema
        return self.openapi_schema


def create_app(
    db: str | Store,
    *,
    bot_delay: float = 0.8,
    bot_workers: int | None = None,
    tables_per_minute: int = TABLES_PER_MINUTE,
    policy: Policy | None = None,
    lan_urls: Sequence[str] = (),
    home: str | None = None,
    next_deal_seconds: float = NEXT_DEAL_SECONDS,
    close_idle_after: timedelta | None = CLOSE_IDLE_AFTER,
    club: AccountSettings | None = None,
) -> FastAPI:
    """The application over the database at the URL ``db`` (opened on start), or over the
    open ``Store`` ``db``; either is closed on shutdown.

    On start it resumes every unfinished table; each computer move waits ``bot_delay`` seconds
    (thinking included) so that people can follow; ``bot_workers`` processes think for them.
    One client address may create ``tables_per_minute`` tables in any minute (0: any number).
    ``policy`` is what its ``Guard`` allows, and how many seats one client address may take
    in any minute; ``lan_urls`` the addresses friends on the local network can open it at
    (``GET /api/server``); ``home`` the address a page asked for at another loopback address
    moves to (``reach.home_url``; ``None``: none moves); ``next_deal_seconds`` how long a
    deal's end waits for the people to say ready (0: the next deal at once);
    ``close_idle_after`` how long an unfinished table may have nobody connected before it is
    closed (``None``: never), looked at on start and then now and then (``Rooms.sweep``).
    ``club``: club mode (docs/HOSTING.md, "A club") with these account settings; ``None``: the
    server as anyone may use it.
    """
    policy = policy or Policy()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = db if isinstance(db, Store) else await asyncio.to_thread(Store, db)
        bots = Bots(bot_workers)
        reviews = Reviews(store, bots)
        nights: Nights | None = None

        def finished(room: Room) -> None:
            reviews.begin(room)
            if nights is not None:
                nights.finished(room)

        rooms = Rooms(
            store, bots, bot_delay, next_deal_seconds, close_idle_after, on_finished=finished
        )
        app.state.rooms = rooms
        app.state.reviews = reviews
        if club is not None:
            app.state.club = Club(store, club)
            await app.state.club.start()
            app.state.nights = nights = Nights(store, rooms, app.state.club)
            app.state.passkeys = Passkeys(app.state.club)
        sweep: asyncio.Task[None] | None = None
        try:
            await bots.warm_up()
            resumed = await rooms.resume()
            if nights is not None:
                await nights.resume()
            if resumed:
                log.info("resumed %d unfinished tables", resumed)
            closed = await rooms.close_idle()
            if closed:
                log.info("closed %d tables nobody was at for %s", closed, close_idle_after)
            sweep = asyncio.create_task(rooms.sweep())
            yield
        finally:
            if sweep is not None:
                sweep.cancel()
            rooms.close()
            reviews.close()
            bots.close()
            store.close()

    app = WebApp(
        title="valtti",
        summary="Marjapussi tables: the HTTP API of docs/WEB.md",
        version=_version(),
        lifespan=lifespan,
        openapi_url=OPENAPI_URL,
        docs_url=None,
        redoc_url=None,
    )
    app.state.limits = ClientLimits(
        creations=PerMinute(tables_per_minute),
        joins=PerMinute(policy.joins_per_minute),
        chats=Limits(),
    )
    app.state.reach = Reach(public_url=policy.public_url, lan_urls=list(lan_urls))
    app.state.home = home
    app.state.club = None  #: the ``Club`` in club mode, once started
    app.state.nights = None  #: its club nights
    app.state.passkeys = None  #: its members' passkeys
    app.add_middleware(Guard, policy=policy, routed=lambda scope: _takes(app, scope))
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    _answer_refusals(app)
    for router in ROUTERS:
        app.include_router(router)
    return app


def _answer_refusals(app: FastAPI) -> None:
    """Answer every refusal, and every error FastAPI or Starlette raise, as docs/WEB.md says:
    ``{"error": code, "message": text}`` under /api/, the not-found page elsewhere."""

    @app.exception_handler(RoomError)
    async def refused(request: Request, error: RoomError) -> Response:
        if error.code == "not_found" and not _under_api(request):
            return not_found_page()
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
            if _under_api(request):
                return _refused(RoomError("not_found", f"no such resource: {request.url.path}"))
            return not_found_page()
        if error.status_code == 405:
            refusal = RoomError(
                "bad_method", f"{request.method} is not taken at {request.url.path}"
            )
            # Starlette names only the first route of the path; ``Allow`` names every method.
            taken = [
                method
                for method in ("DELETE", "GET", "HEAD", "PATCH", "POST", "PUT")
                if _takes(app, {**request.scope, "method": method})
            ]
            return _refused(refusal, {"Allow": ", ".join(taken)} if taken else error.headers)
        return JSONResponse({"detail": error.detail}, error.status_code, error.headers)


def _takes(app: FastAPI, scope: Scope) -> bool:
    """Whether a route of ``app`` takes the request of ``scope``: its path and method."""
    return any(route.matches(scope)[0] is Match.FULL for route in app.router.routes)


def _under_api(request: Request) -> bool:
    return request.url.path == "/api" or request.url.path.startswith("/api/")


def _refused(error: RoomError, headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse(
        {"error": error.code, "message": error.message, **error.extra},
        status_code=_STATUS.get(error.code, 400),
        headers=headers,
    )


def _version() -> str:
    try:
        return metadata.version("valtti")
    except metadata.PackageNotFoundError:
        return "0"
