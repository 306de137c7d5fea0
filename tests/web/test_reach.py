"""Who can open a `valtti serve`: the addresses it names and what its start message says
(valtti.web.reach), and the uvicorn settings it starts with. The interfaces are given, or read
from this machine: nothing is sent, and nothing here listens."""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from valtti.cli import main
from valtti.web import reach
from valtti.web.security import MAX_HEAD, public_origin
from valtti.web.slowclients import SlowClientGuard, SocketLimits

INTERFACES = [
    "127.0.0.1",
    "::1",
    "81.2.69.160",
    "192.168.1.20",
    "fe80::1%eth0",
    "169.254.3.4",
    "fd00::2",
    "10.0.0.3",
    "192.168.1.20",
]


def test_every_interface_but_loopback_and_link_local_private_ones_first() -> None:
    assert reach.lan_addresses("0.0.0.0", INTERFACES) == ["192.168.1.20", "10.0.0.3", "81.2.69.160"]
    assert reach.lan_addresses("::", INTERFACES) == [
        "192.168.1.20",
        "10.0.0.3",
        "fd00::2",
        "81.2.69.160",
    ]


def test_one_address_is_itself_unless_loopback() -> None:
    assert reach.lan_addresses("192.168.1.20", INTERFACES) == ["192.168.1.20"]
    for host in ("127.0.0.1", "localhost", "::1", "[::1]", "127.0.1.1"):
        assert reach.lan_addresses(host, INTERFACES) == [], host
        assert reach.is_loopback(host), host
    assert not reach.is_loopback("192.168.1.20") and not reach.is_loopback("cards.example.org")


def test_this_machines_interfaces_are_addresses() -> None:
    found = reach.interface_addresses()
    for text in found:
        ipaddress.ip_address(text.split("%", 1)[0])
    for address in reach.lan_addresses("::", found):
        assert not reach.is_loopback(address)


def test_the_start_message() -> None:
    assert reach.local_url("0.0.0.0", 8000) == "http://127.0.0.1:8000/"
    assert reach.url("fd00::2", 8000) == "http://[fd00::2]:8000/"
    (alone,) = reach.start_lines("127.0.0.1", 8000, [], None)
    assert "only this machine" in alone and "--host 0.0.0.0" in alone
    (lan,) = reach.start_lines("0.0.0.0", 8000, ["192.168.1.20", "10.0.0.3"], None)
    assert lan == (
        "valtti: friends on your network can open http://192.168.1.20:8000/ "
        "(or http://10.0.0.3:8000/)"
    )
    (none,) = reach.start_lines("0.0.0.0", 8000, [], None)
    assert "none has a network address" in none
    (public,) = reach.start_lines("127.0.0.1", 8000, [], "https://cards.example.org")
    assert "https://cards.example.org/" in public


def test_a_public_url_is_its_origin() -> None:
    assert public_origin("https://Cards.Example.org/") == "https://cards.example.org"
    assert public_origin("http://cards.example.org:8080") == "http://cards.example.org:8080"
    for bad in ("ftp://x.org", "https://x.org/valtti", "https://x.org/?a=1", "x.org", "http://:80"):
        with pytest.raises(ValueError):
            public_origin(bad)


def test_a_public_url_with_a_port_out_of_range_says_so() -> None:
    """``https://x.org:99999`` was told "the public URL's port is not a number"; and port 0,
    which no browser opens, was taken."""
    for bad in ("https://x.org:99999", "https://x.org:0", "https://x.org:abc"):
        with pytest.raises(ValueError, match=r"the public URL's port is not a port \(1 to 65535\)"):
            public_origin(bad)


def _serve(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *options: str) -> tuple[str, Any]:
    """``valtti serve`` with these options, up to where it would start uvicorn: what it said,
    and what it would have started uvicorn with (its socket is bound, but nothing listens)."""
    import uvicorn

    started: dict[str, Any] = {}

    class Server:
        def __init__(self, config: None) -> None:
            self.started = True

        def run(self, sockets: list[socket.socket]) -> None:
            for sock in sockets:  # bound by serve itself
                started["bound"] = sock.getsockname()
                sock.close()

    monkeypatch.setattr(uvicorn, "Config", lambda app, **kw: started.update(app=app, **kw))
    monkeypatch.setattr(uvicorn, "Server", Server)
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    result = CliRunner().invoke(main, ["serve", "--db", db, *options])
    assert result.exit_code == 0, result.output
    return result.output, started


def test_serve_on_every_interface_names_the_lan_addresses(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(reach, "interface_addresses", lambda: ["127.0.0.1", "192.168.1.20"])
    said, started = _serve(monkeypatch, tmp_path, "--host", "0.0.0.0", "--port", "8123")
    assert "open http://127.0.0.1:8123/ in a browser" in said
    assert "friends on your network can open http://192.168.1.20:8123/" in said
    assert started["host"] == "0.0.0.0" and started["bound"] == ("0.0.0.0", 8123)
    # No forwarded header is believed, and the head is limited, unless told otherwise; slow
    # clients are limited by default, and no address is exempt.
    assert started["proxy_headers"] is False
    assert issubclass(started["http"], SlowClientGuard)
    assert started["http"].socket_limits == SocketLimits()
    assert started["h11_max_incomplete_event_size"] == MAX_HEAD


def test_serve_trusts_only_the_proxies_it_is_told(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _, started = _serve(monkeypatch, tmp_path, "--trust-proxy", "--port", "8123")
    assert started["proxy_headers"] is True and started["forwarded_allow_ips"] == "127.0.0.1,::1"
    assert started["port"] == 8123
    loopback = (ipaddress.ip_network("127.0.0.1"), ipaddress.ip_network("::1"))
    assert started["http"].socket_limits.exempt == loopback
    _, started = _serve(monkeypatch, tmp_path, "--trust-proxy", "10.0.0.5,10.0.0.0/24")
    assert started["forwarded_allow_ips"] == "10.0.0.5,10.0.0.0/24"
    # The proxies' connections are not limited per address: every client comes through them.
    limits = started["http"].socket_limits
    assert limits.exempt == (ipaddress.ip_network("10.0.0.5"), ipaddress.ip_network("10.0.0.0/24"))
    assert not limits.limits("10.0.0.7") and not limits.limits("::ffff:10.0.0.5")
    assert limits.limits("10.0.1.1") and limits.limits("192.0.2.1")
