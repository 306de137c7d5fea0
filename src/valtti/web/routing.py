"""The route classes of the HTTP API's routers (web/routes/): a GET route takes HEAD, and a
route with a body reads it only up to MAX_BODY bytes."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any, Final

from fastapi import Request
from fastapi.responses import Response
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException

#: The largest HTTP request body (docs/WEB.md).
MAX_BODY: Final = 16 * 1024


class Route(APIRoute):
    """A route that takes HEAD wherever it takes GET, as Starlette's own routes do (FastAPI's
    do not: a HEAD on a page was a 405). The endpoint answers it as a GET, whose body the
    server (uvicorn) leaves out for a HEAD. The OpenAPI schema shows the GET alone
    (``app.WebApp.openapi``)."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **options: Any) -> None:
        super().__init__(path, endpoint, **options)
        if self.methods and "GET" in self.methods:
            self.methods.add("HEAD")


class BodyLimitedRoute(Route):
    """A route that reads its body as a ``LimitedRequest``."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def limited(request: Request) -> Response:
            return await handler(LimitedRequest(request.scope, request.receive))

        return limited


class LimitedRequest(Request):
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
