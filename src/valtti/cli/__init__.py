"""The ``valtti`` command (click): one module a command, each parsing its options and handing
over to the layer that does the work; ``common`` holds what they share.

``main`` is the entry point (``valtti.cli:main``); importing this package registers every
command with it.
"""

from __future__ import annotations

from valtti.cli import (
    arena,
    bench,
    hint,
    leaderboard,
    loadtest,
    play,
    replay,
    review,
    serve,
    train,
)
from valtti.cli.common import EXIT_INTERRUPTED, EXIT_MALFORMED, VARIANT_HELP, main
from valtti.cli.raycluster import RAY_CONNECT_SECONDS, ray_cluster_answers
from valtti.web.server import EXIT_STARTUP

__all__ = [
    "EXIT_INTERRUPTED",
    "EXIT_MALFORMED",
    "EXIT_STARTUP",
    "RAY_CONNECT_SECONDS",
    "VARIANT_HELP",
    "arena",
    "bench",
    "hint",
    "leaderboard",
    "loadtest",
    "main",
    "play",
    "ray_cluster_answers",
    "replay",
    "review",
    "serve",
    "train",
]
