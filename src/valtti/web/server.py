"""The web server's start-up (``valtti serve``): its settings checked, the database opened and
held, the address bound, the start message said, then the application (``create_app``) run
under uvicorn.

Nothing here parses a command line: ``run_server`` takes one ``ServerSettings``. What cannot be
started is an exception: a ``SettingError`` names the setting at fault (before anything is
opened, or the host once the database is); a ``StartupError`` is the one line to say when the
database cannot be opened or the address cannot be listened on.
"""

from __future__ import annotations

import copy
import logging
import re
import socket
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from ipaddress import IPv4Network, IPv6Network

    from valtti.web.db.store import Store

__all__ = ["EXIT_STARTUP", "ServerSettings", "SettingError", "StartupError", "run_server"]

#: Exit status of ``serve`` when it cannot start: the database cannot be opened, or the
#: address cannot be listened on (uvicorn's own start-up failure is 3 too).
EXIT_STARTUP = 3

_TOKEN: Final = re.compile(r"((?:creator_)?token=)[^&\s\"']+")
#: Seconds a stopping server lets the requests under way finish: one that waits for a review
#: (made at the lowest priority, it may take minutes on a busy machine) is then cut off.
STOP_SECONDS: Final = 5


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """What a server is started with; ``valtti serve``'s options, by the same names."""

    #: the address to listen on: 0.0.0.0 lets others on the network in
    host: str = "127.0.0.1"
    port: int = 8000
    #: ``sqlite:///PATH`` or ``postgresql://…``; ``None``: ``Store.default_url()``
    db_url: str | None = None
    bot_delay: float = 0.8  #: seconds a computer move waits, so that people can follow it
    bot_workers: int | None = None  #: processes the computer players think in (None: cores - 1)
    #: the limits per client address (0: no limit): new tables and seats taken in any minute,
    #: WebSockets and other connections held open at once
    tables_per_minute: int = 10
    joins_per_minute: int = 20
    connections_per_address: int = 16
    http_connections_per_address: int = 64
    request_seconds: float = 10.0  #: seconds a client has to send a whole request (0: no limit)
    next_deal_seconds: float = 20.0  #: seconds a deal's end waits for the people to say ready
    #: hours an unfinished table may have nobody connected before it is closed (0: never)
    close_idle_hours: float = 24.0
    #: the address people open behind a reverse proxy: the share links use it and only pages
    #: from it may play
    public_url: str | None = None
    #: the proxy addresses or networks whose forwarded headers are believed, comma-separated;
    #: ``None``: never
    trust_proxy: str | None = None
    #: club mode (docs/HOSTING.md, "A club"): members sign in, and only they (and their
    #: guests) create and join tables
    club: bool = False
    #: hours a member's session lasts after signing in (club mode)
    session_hours: float = 24.0 * 14


class SettingError(ValueError):
    """A setting the server cannot start with: ``setting`` is its ``ServerSettings`` name."""

    def __init__(self, message: str, setting: str) -> None:
        super().__init__(message)
        self.setting = setting


class StartupError(Exception):
    """The server cannot start: the database cannot be opened, or the address cannot be
    listened on. Its text is the one line to say; the exit status is ``EXIT_STARTUP``."""


def run_server(settings: ServerSettings, say: Callable[[str], None] = print) -> int:
    """Check ``settings``, open and hold the database, bind the address, ``say`` where to open
    the server, and serve until stopped. The exit status: 0, or ``EXIT_STARTUP`` when uvicorn
    did not start. ``SettingError`` and ``StartupError`` when it cannot start (nothing said
    yet, and nothing left open)."""
    import uvicorn

    from valtti.web import reach
    from valtti.web.app import create_app
    from valtti.web.club.accounts import AccountSettings
    from valtti.web.routes.websocket import MAX_MESSAGE
    from valtti.web.security import MAX_HEAD, Policy, public_origin
    from valtti.web.slowclients import SlowClientGuard, SocketLimits, raise_file_limit

    s = settings
    public_url = s.public_url
    if public_url is not None:
        try:
            public_url = public_origin(public_url)
        except ValueError as e:
            raise SettingError(str(e), "public_url") from None
    proxies = () if s.trust_proxy is None else proxy_networks(s.trust_proxy)
    url, shown = database_url(s.db_url)
    # The database is opened (and held: one server per database) and the address bound before
    # anything says where to open the server, so that either failure is the one line printed.
    raise_file_limit()  # every connection is a file: take as many as the system allows
    store = open_store(url, shown)
    try:
        sock = listen(s.host, s.port)
    except BaseException:
        store.close()
        raise
    host, port = s.host, s.port
    lan = reach.lan_addresses(host, reach.interface_addresses())
    say(f"valtti: open {reach.local_url(host, port)} in a browser (database {shown}; Ctrl+C stops)")
    for line in reach.start_lines(host, port, lan, public_url):
        say(line)
    # Listening on this machine only, a name other than its own can only be another site's
    # pointed here (DNS rebinding). On a network, friends may use any name the network gives
    # it; behind a proxy (--public-url) the proxy picks the names and only the public origin's
    # pages may play.
    alone = public_url is None and host not in reach.ANY_HOST and reach.is_loopback(host)
    hosts = reach.own_names(host) if alone else None
    policy = Policy(public_url, s.connections_per_address, s.joins_per_minute, hosts)
    app = create_app(
        store,
        bot_delay=s.bot_delay,
        bot_workers=s.bot_workers,
        tables_per_minute=s.tables_per_minute,
        policy=policy,
        lan_urls=[reach.url(a, port) for a in lan],
        home=reach.home_url(host, port, lan, public_url, s.trust_proxy is not None),
        next_deal_seconds=s.next_deal_seconds,
        close_idle_after=timedelta(hours=s.close_idle_hours) if s.close_idle_hours else None,
        club=AccountSettings(session_hours=s.session_hours) if s.club else None,
    )
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        access_log=False,
        log_config=log_config(),  # no seat token in the log
        # httptools would take a request head of any size into memory; h11 refuses one over
        # MAX_HEAD before the application sees it. Slow clients are closed below the
        # application too, which hears of a connection only once its request head is whole.
        http=SlowClientGuard.with_limits(
            SocketLimits(s.request_seconds, s.http_connections_per_address, proxies)
        ),
        h11_max_incomplete_event_size=MAX_HEAD,
        # By default no forwarded header is believed: any client could claim any address.
        proxy_headers=s.trust_proxy is not None,
        forwarded_allow_ips=s.trust_proxy or "",
        # A frame far over the message limit is cut off by the protocol layer, unread.
        ws_max_size=16 * MAX_MESSAGE,
        # Compressing each state frame (about 2 kB) would cost more CPU than the rest of a move.
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=STOP_SECONDS,
    )
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    finally:
        store.close()  # closed by the application already, unless it never started
    return 0 if server.started else EXIT_STARTUP


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


def proxy_networks(addresses: str) -> tuple[IPv4Network | IPv6Network, ...]:
    """The networks of a ``trust_proxy`` list (an address is a network of one); a list with
    an entry that is no IP address or network (which uvicorn would take as a name no peer ever
    has) is refused."""
    import ipaddress

    networks = []
    for entry in addresses.split(","):
        entry = entry.strip()
        try:
            networks.append(ipaddress.ip_network(entry))
        except ValueError as e:
            why = f" ({e})" if "/" in entry else ""
            raise SettingError(
                f"{entry!r} is not an IP address or network{why}", "trust_proxy"
            ) from None
    return tuple(networks)


def database_url(db_url: str | None) -> tuple[str, str]:
    """The database URL to open (``db_url``, or the default when ``None``) and the URL to show,
    its password masked; ``SettingError`` for a URL that is no database's, of a database not
    supported, or of one in memory, whose tables a restart loses."""
    from sqlalchemy import make_url
    from sqlalchemy.exc import ArgumentError

    from valtti.web.db.store import DRIVERS, Store

    forms = "give sqlite:///PATH or postgresql://USER:PASSWORD@HOST/NAME"
    # An empty --db is refused as an empty path is: it quietly served the default database.
    if db_url is not None and not db_url.strip():
        raise SettingError(f"an empty URL: {forms}", "db_url")
    url = Store.default_url() if db_url is None else db_url
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise SettingError(f"not a database URL: {forms}", "db_url") from None
    except ValueError:  # SQLAlchemy reads the port with int(): never echo the URL's password
        raise SettingError(
            f"not a database URL: its port is not a number: {forms}", "db_url"
        ) from None
    shown = parsed.render_as_string(hide_password=True)
    if parsed.drivername not in DRIVERS:
        raise SettingError(
            f"{shown}: only SQLite (sqlite:///PATH) and PostgreSQL (postgresql://…) are supported",
            "db_url",
        )
    if parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:"):
        written = shown if parsed.password else url.strip()  # as typed, unless a password
        raise SettingError(
            f"{written} is a database in memory, whose tables a restart loses: give a file, "
            "sqlite:///PATH",
            "db_url",
        )
    return url, shown


def open_store(url: str, shown: str) -> Store:
    """The ``Store`` of ``url``, held as this server's own, or ``StartupError`` with one line
    saying why not (``shown``: the URL with its password masked)."""
    from alembic.util import CommandError
    from sqlalchemy.exc import DBAPIError, SQLAlchemyError

    from valtti.web.db.locks import DatabaseInUse, NoSchema
    from valtti.web.db.store import Store

    try:
        return Store(url, sole=True)
    except (DatabaseInUse, NoSchema) as e:
        reason = str(e)
    except DBAPIError as e:
        reason = str(e.orig)
    except OSError as e:
        reason = f"{e.strerror or e}: {e.filename}" if e.filename else str(e.strerror or e)
    except (SQLAlchemyError, CommandError, ImportError) as e:
        reason = str(e)
    # A driver's message may span lines (PostgreSQL's hints). psycopg's never holds the password.
    reason = "; ".join(line.strip() for line in reason.splitlines() if line.strip())
    raise StartupError(f"valtti: cannot open the database {shown}: {reason}")


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` (as uvicorn binds one); ``SettingError`` for a host
    that is no address of this machine, ``StartupError`` when it cannot be bound."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except socket.gaierror as e:
        sock.close()
        raise SettingError(
            f"{host!r} is no address of this machine ({e.strerror})", "host"
        ) from None
    except OSError as e:
        sock.close()
        raise StartupError(
            f"valtti: cannot listen on {host} port {port}: {e.strerror or e}"
        ) from None
    return sock
