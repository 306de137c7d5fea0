"""The ``valtti`` command (click): one module a command, each parsing its options and handing
over to the layer that does the work; ``common`` holds what they share.

``main`` is the entry point (``valtti.cli:main``); each command's module is imported when that
command runs (``common.Commands``), so that ``valtti hint`` does not start the web server's
imports, nor ``valtti serve`` the arena's.
"""

from __future__ import annotations

from valtti.cli.common import COMMANDS, EXIT_INTERRUPTED, EXIT_MALFORMED, VARIANT_HELP, main

__all__ = ["COMMANDS", "EXIT_INTERRUPTED", "EXIT_MALFORMED", "VARIANT_HELP", "main"]
