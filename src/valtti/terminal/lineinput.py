"""Reading a line at a terminal: line editing, history and completion with GNU readline.

Standard Python's ``readline`` edits the line that ``input()`` reads (arrows, Home/End, Ctrl-R
search, a history of the session's lines) wherever standard input and output are a terminal;
elsewhere (a pipe, a test) ``Console.input`` reads a plain line. The prompt goes to ``input``
itself, its styles marked as invisible to readline, so that readline knows where the line
starts when it redraws it.

Ctrl-L, which readline would have clear the screen, draws the game's screen again at once: it
is bound to a macro that ends the line with a form feed and accepts it, and a line so ended is
not a line read but the screen drawn again and the same line to edit on.
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
#: Draws the screen again under which the prompt given waits.
Redraw = Callable[[str], None]

#: What Ctrl-L ends the line with: the form feed, the key's own character.
_REDRAW: Final = "\f"


class LineReader:
    """``read(prompt)`` with readline's editing and ``completer``'s words at the Tab key;
    ``KeyboardInterrupt`` at Ctrl-C, ``EOFError`` at Ctrl-D on an empty line; with ``redraw``,
    Ctrl-L calls it and goes on reading the same line."""

    def __init__(
        self,
        console: Console,
        style: str,
        completer: Completer,
        redraw: Redraw | None = None,
    ) -> None:
        self.console = console
        self.style = style
        self.completer = completer
        self.redraw = redraw
        self._offered: list[str] = []
        self.edits = readline is not None and sys.stdin.isatty() and console.is_terminal
        if self.edits:
            readline.set_completer(self._complete)
            readline.set_completer_delims(" \t")
            readline.parse_and_bind("tab: complete")
            if redraw is not None:
                # To the line's end, a form feed typed as itself (quoted-insert), then Enter.
                readline.parse_and_bind(r'"\C-l": "\C-e\C-v\C-l\C-m"')

    def __call__(self, prompt: str) -> str:
        if not self.edits:
            if not self.console.is_terminal and sys.stdin.isatty() and sys.stderr.isatty():
                # The output goes to a file: the prompt is also shown where the player types.
                encoding = sys.stderr.encoding or "ascii"
                shown = prompt if glyphs.shows_unicode(encoding) else glyphs.plain(prompt, encoding)
                sys.stderr.write(shown)
                sys.stderr.flush()
            return self.console.input(Text(prompt, style=self.style))
        typed = ""
        while True:
            line = self._input(prompt, typed)
            if self.redraw is None or not line.endswith(_REDRAW):
                return line
            typed = line.replace(_REDRAW, "")
            length = readline.get_current_history_length()
            if length:  # the line is not done: it is no line of the history
                readline.remove_history_item(length - 1)
            self.redraw(prompt)

    def _input(self, prompt: str, typed: str) -> str:
        """A line read after ``prompt`` with ``typed`` already on it."""
        if not typed:
            return input(self.visible(prompt))

        def put_back() -> None:
            readline.insert_text(typed)
            readline.redisplay()

        readline.set_pre_input_hook(put_back)
        try:
            return input(self.visible(prompt))
        finally:
            readline.set_pre_input_hook(None)

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
