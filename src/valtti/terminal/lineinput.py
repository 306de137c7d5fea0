"""Reading a line at a terminal: line editing, history and completion with GNU readline.

Standard Python's ``readline`` edits the line that ``input()`` reads (arrows, Home/End, Ctrl-R
search, a history of the session's lines) wherever standard input and output are a terminal;
elsewhere (a pipe, a test) ``Console.input`` reads a plain line. The prompt goes to ``input``
itself, its styles marked as invisible to readline, so that readline knows where the line
starts when it redraws it.
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import sys
from collections.abc import Callable
from typing import Final

from rich.console import Console
from rich.text import Text

from valtti.terminal import glyphs

try:
    import readline
except ImportError:  # Windows, or a Python built without it: plain lines
    readline = None  # type: ignore[assignment]

#: A terminal escape sequence: what readline must not count as the prompt's width.
_ESCAPE: Final = re.compile(r"(\x1b\[[0-9;?]*[ -/]*[@-~])")

#: The words the last word of a line may become, given the whole line so far.
Completer = Callable[[str], list[str]]


class LineReader:
    """``read(prompt)`` with readline's editing and ``completer``'s words at the Tab key;
    ``KeyboardInterrupt`` at Ctrl-C, ``EOFError`` at Ctrl-D on an empty line."""

    def __init__(self, console: Console, style: str, completer: Completer) -> None:
        self.console = console
        self.style = style
        self.completer = completer
        self._offered: list[str] = []
        self.edits = readline is not None and sys.stdin.isatty() and console.is_terminal
        if self.edits:
            readline.set_completer(self._complete)
            readline.set_completer_delims(" \t")
            readline.parse_and_bind("tab: complete")

    def __call__(self, prompt: str) -> str:
        if not self.edits:
            return self.console.input(Text(prompt, style=self.style))
        return input(self.visible(prompt))

    def visible(self, prompt: str) -> str:
        """``prompt`` as the console writes it, its escape sequences hidden from readline."""
        with self.console.capture() as captured:
            self.console.print(Text(prompt, style=self.style), end="", soft_wrap=True)
        text = captured.get()
        if glyphs.is_plain(self.console):
            stream = self.console.file
            assert isinstance(stream, glyphs.PlainStream)
            text = glyphs.plain(text, stream.target)
        return _ESCAPE.sub("\x01\\1\x02", text)

    def forget(self) -> None:
        """Forget the lines read so far: ↑ at a later prompt does not bring them back."""
        if self.edits:
            readline.clear_history()

    def shown_line(self) -> str:
        """The line typed so far at the prompt that waits."""
        return readline.get_line_buffer() if self.edits else ""

    def _complete(self, _text: str, state: int) -> str | None:
        # readline asks for the words one by one (state 0, 1, …) until None.
        with contextlib.suppress(Exception):  # a fault here would be silent inside readline
            if state == 0:
                line = readline.get_line_buffer()[: readline.get_endidx()]
                self._offered = self.completer(line)
            if state < len(self._offered):
                return self._offered[state]
        return None


def file_names(typed: str) -> list[str]:
    """The files and directories (with a ``/``) whose names start with ``typed``, written as it
    is (``~`` kept): what ``save`` may complete to."""
    expanded = os.path.expanduser(typed)
    found = []
    for name in sorted(glob.glob(glob.escape(expanded) + "*")):
        shown = typed + name[len(expanded) :]
        found.append(shown + "/" if os.path.isdir(name) else shown)
    return found
