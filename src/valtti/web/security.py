"""The web server's defences against other sites and greedy clients (docs/WEB.md, "Security").

``Guard`` is ASGI middleware in front of the whole application: it refuses a request made to a
name the server does not answer to (another site's name pointed at this machine: DNS
rebinding), a state-changing request or a WebSocket upgrade from another site's page, a request
body that is not JSON and more than ``Policy.connections_per_address`` WebSockets open at once
from one client address, and it gives every HTTP response headers that keep the pages out of
other sites' frames. A request the application has no route for (an unknown path, or a method
the path does not take) is left to the application's own 404 or 405. The limits on tables
created and seats taken per client address
(``PerMinute``) are the routes' (web/deps.py). A request's head is at most
``MAX_HEAD`` bytes: uvicorn's h11 parser (as ``valtti serve`` runs it) stops reading one that
grows past that, and ``Guard`` refuses one that arrived whole. Slow clients (a request that
never arrives whole) are held off below the application, by ``slowclients.SlowClientGuard``.

A client address is the connection's own peer unless ``valtti serve --trust-proxy`` names the
proxy, whose ``X-Forwarded-For`` uvicorn then reads: a forwarded header is never believed from
anyone else. An IPv6 client counts as its /64 network (``client_of``).
"""

from __future__ import annotations

import ipaddress
import json
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The most bytes of a request's line and headers. uvicorn's h11 stops reading one that is not
#: complete within this size (400); ``Guard`` refuses a complete one over it (431).
MAX_HEAD: Final = 16 * 1024
#: WebSockets one client address may hold open at once, by default.
CONNECTIONS_PER_ADDRESS: Final = 16
#: Seats one client address may take in any minute, by default.
JOINS_PER_MINUTE: Final = 20

#: On every HTTP response. The pages run only their own module scripts and connect only to
#: their own server; styles may be inline (an element's style attribute), which runs no code.
SECURITY_HEADERS: Final = (
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        b"img-src 'self' data: blob:; media-src 'self' data: blob:; connect-src 'self'; "
        b"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)

_SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})


def public_origin(url: str) -> str:
    """The origin (``https://host[:port]``) of a public URL as ``--public-url`` takes it.

    ``ValueError`` for anything but an http(s) URL of a host with no path, query or fragment:
    the pages live at the root of their origin.
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("a public URL is http://HOST[:PORT] or https://HOST[:PORT]")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise ValueError("a public URL is only the server's origin: no path, query or user")
    try:
        port = parts.port  # a port that is not a number, or past 65535, raises here
    except ValueError:
        port = 0
    if port == 0:
        raise ValueError("the public URL's port is not a port (1 to 65535)")
    return f"{parts.scheme}://{parts.netloc.lower()}"


@dataclass(frozen=True)
class Policy:
    """What ``Guard`` allows, and the seats one client address may take in any minute (the
    route's limit, web/deps.py). A limit of 0 is no limit."""

    #: The origin people open the server at (``public_origin``), e.g. behind a reverse proxy;
    #: ``None``: each request's own origin (its scheme and ``Host``).
    public_url: str | None = None
    connections_per_address: int = CONNECTIONS_PER_ADDRESS
    joins_per_minute: int = JOINS_PER_MINUTE
    #: The names (lower case, no port) a request's ``Host`` may give besides an IP address;
    #: ``None``: any. A page of another site whose name was pointed at this machine (DNS
    #: rebinding) gives that site's name and is refused; an address is not a site's name.
    hosts: frozenset[str] | None = None


class PerMinute:
    """How often each client address did one thing in the last minute, to refuse a flood."""

    def __init__(self, limit: int) -> None:
        self.limit = limit  #: 0: any number
        self._times: dict[str, deque[float]] = {}

    def admit(self, address: str) -> bool:
        """Count one more from ``address``; ``False`` (not counted) past the limit."""
        if self.limit <= 0:
            return True
        now = time.monotonic()
        if len(self._times) > 10_000:
            # Forget the addresses with nothing in the last minute.
            self._times = {a: t for a, t in self._times.items() if now - t[-1] < 60.0}
        times = self._times.setdefault(address, deque(maxlen=self.limit))
        if len(times) == self.limit and now - times[0] < 60.0:
            return False
        times.append(now)
        return True


class Guard:
    """ASGI middleware that enforces a ``Policy`` and adds ``SECURITY_HEADERS``.

    ``routed(scope)`` says whether the application has a route that takes the request's method
    at its path: only such a request's body is checked (``_not_json``), so that a method a
    path does not take is answered 405 and an unknown path 404, whatever its body.
    """

    def __init__(
        self, app: ASGIApp, policy: Policy, routed: Callable[[Scope], bool] = lambda _: True
    ) -> None:
        self.app = app
        self.policy = policy
        self.routed = routed
        self._open: dict[str, int] = {}  # WebSockets open per client address

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(n, v) for n, v in SECURITY_HEADERS if n not in have]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        refusal = _too_large(scope) or self._other_name(scope)
        if refusal is None and scope["method"] not in _SAFE_METHODS:
            refusal = self._cross_site(scope)
            if refusal is None and self.routed(scope):
                refusal = _not_json(scope)
        if refusal is not None:
            await _refuse_http(send_with_headers, *refusal)
            return
        await self.app(scope, receive, send_with_headers)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        refusal = _too_large(scope) or self._other_name(scope) or self._cross_site(scope)
        address = client_of(scope)
        limit = self.policy.connections_per_address
        if refusal is None and 0 < limit <= self._open.get(address, 0):
            refusal = (429, "too_many", f"at most {limit} connections from one address")
        if refusal is not None:
            await _refuse_websocket(scope, send, *refusal)
            return
        self._open[address] = self._open.get(address, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            self._open[address] -= 1
            if not self._open[address]:
                del self._open[address]

    def _other_name(self, scope: Scope) -> tuple[int, str, str] | None:
        """A refusal when the ``Host`` names a site this server is not (``Policy.hosts``)."""
        hosts = self.policy.hosts
        host = _header(scope, b"host")
        if hosts is None or host is None:
            return None
        name = host_name(host)
        # *.localhost is this machine in every browser: no other site can be given that name.
        if name is not None and (name in hosts or name.endswith(".localhost") or _is_address(name)):
            return None
        names = ", ".join(sorted(hosts))
        return (
            400,
            "bad_host",
            (
                f"this server is not {host.strip()!r}: open it at its address or as {names} "
                "(to use another name, start it with valtti serve --public-url http://NAME:PORT)"
            ),
        )

    def _cross_site(self, scope: Scope) -> tuple[int, str, str] | None:
        """A refusal when the request comes from a page of another origin.

        A request with no ``Origin`` is not a browser's cross-site request (browsers send it on
        every cross-origin POST and WebSocket), so other programs may leave it out.
        """
        origin = _header(scope, b"origin")
        if origin is None:
            return None
        allowed = self.policy.public_url or _own_origin(scope)
        if origin.strip().lower() == allowed:
            return None
        refused = f"requests from {origin!r} are refused: only from {allowed!r}"
        return 403, "bad_origin", f"{refused} (behind a proxy, see valtti serve --public-url)"


def host_name(host: str) -> str | None:
    """The name or address of a ``Host`` header's value (lower case, no port, brackets or
    final dot); ``None`` when it is not one (a user part, a path: no browser sends those)."""
    text = host.strip()
    if any(c in text for c in "@/\\?#") or not text:
        return None
    try:
        name = urlsplit(f"//{text}").hostname
    except ValueError:
        return None
    return name.removesuffix(".") or None if name else None


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _too_large(scope: Scope) -> tuple[int, str, str] | None:
    """A refusal of a head over ``MAX_HEAD``: one that came in a single read is complete
    before h11 can measure it."""
    line = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"") + 16
    size = line + sum(len(name) + len(value) + 4 for name, value in scope["headers"])
    if size <= MAX_HEAD:
        return None
    return 431, "too_large", f"a request's headers are at most {MAX_HEAD} bytes"


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            text: str = value.decode("latin-1")
            return text
    return None


def _own_origin(scope: Scope) -> str:
    """The origin the request was made to: its scheme and ``Host`` header."""
    scheme = {"ws": "http", "wss": "https"}.get(scope["scheme"], scope["scheme"])
    return f"{scheme}://{(_header(scope, b'host') or '').strip().lower()}"


def client_of(scope: Scope) -> str:
    """Whom the limits per client address count a request or WebSocket for
    (``address_key`` of its client's address)."""
    client = scope.get("client")
    return address_key(str(client[0]) if client else "")


def address_key(host: str) -> str:
    """Whom a limit per client address counts the address ``host`` as: the address, or for an
    IPv6 address its /64 network, every address of which one home or host is given (it could
    take a fresh one for each connection)."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if address.version == 6 and address.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return host


def _not_json(scope: Scope) -> tuple[int, str, str] | None:
    """A refusal unless the body is declared JSON: a cross-site form or a ``no-cors`` fetch
    can only send ``text/plain``, a form type or none."""
    declared = _header(scope, b"content-type") or ""
    if declared.split(";", 1)[0].strip().lower() == "application/json":
        return None
    return 415, "bad_content_type", "a request body is JSON: Content-Type: application/json"


def _body(code: str, message: str) -> bytes:
    return json.dumps({"error": code, "message": message}).encode()


async def _refuse_http(send: Send, status: int, code: str, message: str) -> None:
    body = _body(code, message)
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _refuse_websocket(scope: Scope, send: Send, status: int, code: str, message: str) -> None:
    """Answer the upgrade with an HTTP refusal where the server can (the ASGI denial response),
    else close it before it opens (uvicorn answers 403)."""
    if "websocket.http.response" not in (scope.get("extensions") or {}):
        await send({"type": "websocket.close", "code": 1008})
        return
    body = _body(code, message)
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    await send({"type": "websocket.http.response.start", "status": status, "headers": headers})
    await send({"type": "websocket.http.response.body", "body": body})
