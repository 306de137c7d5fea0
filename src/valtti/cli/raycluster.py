"""The Ray probe of ``arena`` and ``train``: whether a Ray cluster answers at ``--address``,
before Ray is asked to join it."""

from __future__ import annotations

import socket

import click

#: Seconds to wait for a Ray cluster's head to take a connection: ``ray.init`` given an address
#: that nothing listens on retries without end, and the command would never say why.
RAY_CONNECT_SECONDS = 5.0


def ray_cluster_answers(address: str) -> None:
    """Refuse ``--address`` (``HOST:PORT`` or ``ray://HOST:PORT``; ``auto`` and ``local`` are
    Ray's own) when nothing there takes a connection within ``RAY_CONNECT_SECONDS``."""
    if address in ("auto", "local"):
        return
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise click.BadParameter(
            f"{address!r} is no Ray cluster's address: HOST:PORT, ray://HOST:PORT or auto",
            param_hint="--address",
        )
    try:
        socket.create_connection((host.strip("[]"), int(port)), RAY_CONNECT_SECONDS).close()
    except OSError as e:
        raise click.BadParameter(
            f"no Ray cluster answers at {address} ({e.strerror or e})", param_hint="--address"
        ) from None
