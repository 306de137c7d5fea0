"""uvicorn's h11 protocol with the defences against slow clients (slowloris) that lie below the
application, which never hears of a connection until its request head is complete
(docs/WEB.md, "Security").

- **A request arrives whole in time.** A connection has ``SocketLimits.request_seconds`` from
  the moment it opens, or from the first byte of its next request, to send that request whole
  (line, headers and body); then it is closed. Bytes trickling in never extend the time. While
  the application answers, and between requests (where uvicorn's keep-alive timeout closes an
  idle connection), no such time runs; a WebSocket, once its handshake has arrived, is the
  WebSocket protocol's (it is closed when it leaves the server's pings unanswered).
- **Connections per client address.** One peer address (an IPv6 one: its /64 network, as
  ``security.address_key``) may hold ``SocketLimits.per_address`` HTTP connections open
  at once; one more is closed as soon as it is accepted: it holds a file descriptor only for a
  moment. WebSockets are not counted here but by ``security.Guard``
  (``--connections-per-address``), which knows the client behind a trusted proxy; the proxy's
  own address (``SocketLimits.exempt``) is not limited here, since every client comes from it.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
from dataclasses import dataclass
from typing import ClassVar, Final, cast

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from valtti.web.security import address_key

#: Seconds a client has to send a whole request, by default.
REQUEST_SECONDS: Final = 10.0
#: HTTP connections one client address may hold open at once, by default: several browsers
#: behind one address (a club's network) each open up to six while a page loads.
HTTP_CONNECTIONS_PER_ADDRESS: Final = 64
#: macOS's most open files per process (``OPEN_MAX``) where the hard limit says "unlimited".
_OPEN_MAX: Final = 10240

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True)
class SocketLimits:
    """What ``SlowClientGuard`` allows. A limit of 0 is no limit."""

    request_seconds: float = REQUEST_SECONDS
    per_address: int = HTTP_CONNECTIONS_PER_ADDRESS
    #: Peers not limited per address: the reverse proxies of ``--trust-proxy``.
    exempt: tuple[Network, ...] = ()

    def limits(self, host: str) -> bool:
        """Whether the connections of the peer ``host`` are counted against ``per_address``."""
        if self.per_address <= 0:
            return False
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return True
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        return not any(address in network for network in self.exempt)


class SlowClientGuard(H11Protocol):
    """uvicorn's ``H11Protocol`` with ``SocketLimits``; ``with_limits`` makes the class that
    ``uvicorn.Config(http=…)`` takes, one per server (it holds the counts of its connections)."""

    socket_limits: ClassVar[SocketLimits] = SocketLimits()
    #: HTTP connections open per client address (``address_key``), of this class's server.
    open_per_address: ClassVar[dict[str, int]] = {}

    #: The timer that closes this connection unless its request arrives whole first.
    _deadline: asyncio.TimerHandle | None = None
    #: The key this connection is counted under in ``open_per_address``, while it is.
    _counted: str | None = None

    @classmethod
    def with_limits(cls, limits: SocketLimits) -> type[SlowClientGuard]:
        """A subclass that enforces ``limits``, with counts of its own."""
        attributes = {"socket_limits": limits, "open_per_address": {}}
        return cast(type[SlowClientGuard], type(cls.__name__, (cls,), attributes))

    def connection_made(  # type: ignore[override]
        self, transport: asyncio.Transport
    ) -> None:
        super().connection_made(transport)
        if self.client is not None and self.socket_limits.limits(self.client[0]):
            key = address_key(self.client[0])
            if self.open_per_address.get(key, 0) >= self.socket_limits.per_address:
                transport.close()
                return
            self.open_per_address[key] = self.open_per_address.get(key, 0) + 1
            self._counted = key
        self._watch()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        # A pipelined request already read (or begun) is taken up here.
        super().on_response_complete()
        self._watch()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        # The handshake has arrived whole, and the connection is no longer this protocol's:
        # it leaves these counts for the WebSockets' own (security.Guard).
        self._stop_watching()
        self._uncount()
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_watching()
        self._uncount()
        super().connection_lost(exc)

    def _watch(self) -> None:
        """Start the request's time when a request is due or under way, else stop it.

        A fresh connection's first request is due at once; a later one once its first byte is
        in (before that, uvicorn's keep-alive timeout runs).
        """
        if (
            self.socket_limits.request_seconds <= 0
            or self.transport.is_closing()
            or self.transport.get_protocol() is not self  # a WebSocket now
        ):
            self._stop_watching()
            return
        state = self.conn.their_state
        awaited = state is h11.SEND_BODY or (
            state is h11.IDLE and (self.cycle is None or bool(self.conn.trailing_data[0]))
        )
        if not awaited:
            self._stop_watching()
        elif self._deadline is None:
            self._deadline = self.loop.call_later(
                self.socket_limits.request_seconds, self._too_slow
            )

    def _stop_watching(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def _uncount(self) -> None:
        if self._counted is None:
            return
        left = self.open_per_address[self._counted] - 1
        if left:
            self.open_per_address[self._counted] = left
        else:
            del self.open_per_address[self._counted]
        self._counted = None


def raise_file_limit() -> None:
    """Raise this process's limit of open files from the soft one (often 1024) to the most the
    system lets it have (the hard limit): each connection is a file, and a few hundred slow
    clients from addresses of their own would otherwise leave none to accept a player with.
    The event loop (epoll, kqueue) takes any number, unlike ``select``, which nothing here uses.
    """
    try:
        import resource
    except ImportError:  # Windows: no such limit
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    # macOS says its hard limit is infinite but refuses a soft one over OPEN_MAX.
    wanted = _OPEN_MAX if hard == resource.RLIM_INFINITY else hard
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return
    with contextlib.suppress(ValueError, OSError):  # a system that refuses keeps its limit
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
