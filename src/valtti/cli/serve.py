"""``valtti serve``: the web tables. The options make a ``ServerSettings``, which
``valtti.web.server.run_server`` starts the server with."""

from __future__ import annotations

import sys
from typing import Any

import click

from valtti.cli.common import Hours, Seconds, fail, main
from valtti.web.server import EXIT_STARTUP, ServerSettings, SettingError, StartupError, run_server

#: The most seconds ``serve``'s waits may be set to: a deal's end waiting longer, or a
#: computer move (``inf`` stopped every table's state frames at the deal's end).
MAX_WAIT_SECONDS = 86400
#: The most hours ``--close-idle-hours`` may be (a year).
MAX_IDLE_HOURS = 24 * 366
#: The settings of a server started with no option: the options' defaults.
DEFAULT = ServerSettings()


@main.command()
@click.option(
    "--host",
    default=DEFAULT.host,
    show_default=True,
    help="The address to listen on: 0.0.0.0 lets others on the network in.",
)
@click.option("--port", default=DEFAULT.port, show_default=True, type=click.IntRange(1, 65535))
@click.option(
    "--db",
    "db_url",
    metavar="URL",
    help="sqlite:///PATH or postgresql://USER:PASSWORD@HOST/NAME  "
    "[default: valtti.db in the user's data directory]",
)
@click.option(
    "--bot-delay",
    metavar="SECONDS",
    default=DEFAULT.bot_delay,
    show_default=True,
    type=Seconds(MAX_WAIT_SECONDS),
    help="Seconds a computer move waits, so that people can follow it.",
)
@click.option(
    "--bot-workers",
    type=click.IntRange(min=1),
    help="Processes the computer players think in.  [default: cores - 1, at least 1]",
)
@click.option(
    "--tables-per-minute",
    default=DEFAULT.tables_per_minute,
    show_default=True,
    type=click.IntRange(min=0),
    help="New tables one client address may create in any minute (0: no limit).",
)
@click.option(
    "--joins-per-minute",
    default=DEFAULT.joins_per_minute,
    show_default=True,
    type=click.IntRange(min=0),
    help="Seats one client address may take in any minute (0: no limit).",
)
@click.option(
    "--connections-per-address",
    default=DEFAULT.connections_per_address,
    show_default=True,
    type=click.IntRange(min=0),
    help="WebSockets one client address may hold open at once (0: no limit).",
)
@click.option(
    "--http-connections-per-address",
    default=DEFAULT.http_connections_per_address,
    show_default=True,
    type=click.IntRange(min=0),
    help="Other connections (HTTP, not yet a WebSocket) one client address may hold open at "
    "once; one more is closed at once. A --trust-proxy address has no such limit "
    "(0: no limit).",
)
@click.option(
    "--request-seconds",
    metavar="SECONDS",
    default=DEFAULT.request_seconds,
    show_default=True,
    type=Seconds(MAX_WAIT_SECONDS),
    help="Seconds a client has to send a whole request, from connecting or from the request's "
    "first byte; a slower connection is closed (0: no limit).",
)
@click.option(
    "--next-deal-seconds",
    metavar="SECONDS",
    default=DEFAULT.next_deal_seconds,
    show_default=True,
    type=Seconds(MAX_WAIT_SECONDS),
    help="Seconds a deal's end waits for the people to say ready (0: the next deal at once).",
)
@click.option(
    "--close-idle-hours",
    metavar="HOURS",
    default=DEFAULT.close_idle_hours,
    show_default=True,
    type=Hours(MAX_IDLE_HOURS),
    help="Hours an unfinished table may have nobody connected before it is closed: it leaves "
    "the lobby and nothing more is played there (0: never).",
)
@click.option(
    "--public-url",
    metavar="URL",
    help="The address people open, e.g. https://cards.example.org behind a reverse proxy: "
    "the share links use it and only pages from it may play.",
)
@click.option(
    "--trust-proxy",
    metavar="[ADDRS]",
    is_flag=False,
    flag_value="127.0.0.1,::1",
    help="Take client addresses from X-Forwarded-For (and the scheme from X-Forwarded-Proto) "
    "of requests from these proxy addresses or networks (10.0.0.0/8), comma-separated "
    "(alone: 127.0.0.1,::1).  "
    "[default: never]",
)
@click.option(
    "--club",
    is_flag=True,
    help="Club mode (docs/HOSTING.md): members sign in, and only they and the guests they "
    "invite create and join tables; club nights and ratings. The first to open the server "
    "makes the administrator's account (or: valtti club admin NAME).",
)
@click.option(
    "--session-hours",
    metavar="HOURS",
    default=DEFAULT.session_hours,
    show_default=True,
    type=Hours(MAX_IDLE_HOURS),
    help="Hours a member stays signed in (club mode).",
)
def serve(**options: Any) -> None:
    """Run the web tables (docs/WEB.md): a lobby to create and join tables, play in the browser.

    Every unfinished table in the database goes on where it was.
    """
    # Each option is the setting of the same name.
    try:
        status = run_server(ServerSettings(**options), say=click.echo)
    except SettingError as e:
        params = click.get_current_context().command.params
        option = next(p.opts[0] for p in params if p.name == e.setting)
        raise click.BadParameter(str(e), param_hint=option) from None
    except StartupError as e:
        fail(str(e), EXIT_STARTUP)
    if status:
        sys.exit(status)
