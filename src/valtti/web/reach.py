"""Who can open a ``valtti serve``: the addresses of this machine that others on the network
reach it at, and the start message that tells them (docs/HOSTING.md, "Friends on your network")."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Final
from urllib.parse import urlsplit

#: Hosts that listen on every interface.
ANY_HOST: Final = ("0.0.0.0", "::", "")


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, IPv6 with or without brackets) is this machine
    only: ``localhost`` or a loopback address."""
    name = host.strip().strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def interface_addresses() -> list[str]:
    """Every address of this machine's network interfaces, read from the system: no traffic."""
    import socket

    import psutil

    families = (socket.AF_INET, socket.AF_INET6)
    return [
        a.address
        for addresses in psutil.net_if_addrs().values()
        for a in addresses
        if a.family in families
    ]


def lan_addresses(host: str, interfaces: Iterable[str]) -> list[str]:
    """The addresses among ``interfaces`` at which others reach a server listening on
    ``host``: for every interface (``0.0.0.0``: IPv4 only), each one that is neither loopback
    nor link-local, private ones first; for one address, that one unless it is loopback."""
    if host not in ANY_HOST:
        return [] if is_loopback(host) else [host]
    found: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = []
    for text in interfaces:
        try:
            address = ipaddress.ip_address(text.split("%", 1)[0])
        except ValueError:
            continue
        if address.version == 6 and host == "0.0.0.0":
            continue
        if address.is_loopback or address.is_link_local or address.is_multicast:
            continue
        if address not in found:
            found.append(address)
    found.sort(key=lambda a: (not a.is_private, a.version))
    return [str(a) for a in found]


def own_names(host: str) -> frozenset[str]:
    """The names a server listening on ``host``, a loopback address or name, answers to
    (``security.Policy.hosts``): ``localhost``, this machine's name (``hostname`` and
    ``hostname.local``; looking up its full name could wait on the network) and ``host`` itself
    when it is a name."""
    import socket

    machine = socket.gethostname().lower()
    names = {"localhost", machine, f"{machine}.local"}
    if host not in ANY_HOST:
        names.add(host.strip().strip("[]").lower())
    return frozenset(n for n in names if n)


def url(host: str, port: int) -> str:
    """``http://host:port/``, an IPv6 address in brackets."""
    name = host.strip("[]")
    return f"http://[{name}]:{port}/" if ":" in name else f"http://{name}:{port}/"


def start_lines(host: str, port: int, lan: list[str], public_url: str | None) -> list[str]:
    """What ``valtti serve`` says after its first line (where to open it on this machine): who
    else can open it, and how to let others in when nobody else can."""
    if public_url is not None:
        return [f"valtti: people open {public_url}/ (the public address, --public-url)"]
    if host not in ANY_HOST and is_loopback(host):
        return [
            "valtti: only this machine can open it; to let friends on your network in, "
            "start it with --host 0.0.0.0 (and allow the port in the firewall)"
        ]
    if not lan:
        return ["valtti: listening on every interface, but none has a network address now"]
    others = ", ".join(url(a, port) for a in lan[1:])
    more = f" (or {others})" if others else ""
    return [f"valtti: friends on your network can open {url(lan[0], port)}{more}"]


def local_url(host: str, port: int) -> str:
    """The address to open the server at on this machine."""
    return url("127.0.0.1" if host in ANY_HOST else host, port)


def home_url(
    host: str, port: int, lan: list[str], public_url: str | None, proxied: bool
) -> str | None:
    """The one address this machine's browser is sent to when it opens a page at a loopback
    address (``moved_to``), so that a seat's key kept by the browser for one address serves
    them all: the first LAN address when there is one, else the address ``local_url`` prints.
    ``None`` behind a proxy (``public_url``, ``proxied``), whose requests may come from a
    loopback address and whose names are the proxy's to choose."""
    if public_url is not None or proxied:
        return None
    return url(lan[0], port) if lan else local_url(host, port)


def moved_to(home: str, requested: str) -> str | None:
    """Where a page asked for at the URL ``requested`` moves (``home`` with its path and
    query), or ``None``: only from a loopback name or address other than home's, on home's
    port (another port is a tunnel or a proxy, which home might not reach)."""
    there, asked = urlsplit(home), urlsplit(requested)
    name = asked.hostname or ""
    port = asked.port or (443 if asked.scheme == "https" else 80)
    if not is_loopback(name) or port != there.port or asked.netloc == there.netloc:
        return None
    query = f"?{asked.query}" if asked.query else ""
    return f"{there.scheme}://{there.netloc}{asked.path}{query}"
