"""Reading a line at a terminal: line editing, history and completion with GNU readline.

Standard Python's ``readline`` edits the line that ``input()`` reads (arrows, Home/End, Ctrl-R
search, a history of the session's lines) wherever standard input and output are a terminal;
elsewhere (a pipe, a test) ``Console.input`` reads a plain line. The prompt goes to ``input``
itself, its styles marked as invisible to readline, so that readline knows where the line
starts when it redraws it.

Ctrl-L, which readline would have clear the screen, draws the game's screen again at once: it
is bound to a macro that ends the line with a form feed and accepts it, and a line so ended is
not a line read but the screen drawn again and the same line to edit on. PgDn and PgUp turn the
pages of a long reply in the same way, each ending the line with a control character of its own.
Tab's list of choices is drawn by the game (inside the screen, where it scrolls nothing off),
not by readline under the prompt; a word completed alone is followed by a space.
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import sys
from collections.abc import Callable, Sequence
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
#: Turns the reply shown by a number of pages (1: PgDn, -1: PgUp), for the prompt given.
Turn = Callable[[int, str], None]
#: Shows Tab's choices (the words a line may go on with) for the prompt given.
Offer = Callable[[str, list[str]], None]

#: What Ctrl-L ends the line with: the form feed, the key's own character.
_REDRAW: Final = "\f"
#: What PgDn and PgUp end the line with (Ctrl-N and Ctrl-P, typed as themselves), and their
#: escape sequences (xterm's, which tmux and most terminals send).
_PAGES: Final = {"\x0e": 1, "\x10": -1}
_PAGE_KEYS: Final = {"\\e[6~": "\\C-n", "\\e[5~": "\\C-p"}


class LineReader:
    """``read(prompt)`` with readline's editing and ``completer``'s words at the Tab key;
    ``KeyboardInterrupt`` at Ctrl-C, ``EOFError`` at Ctrl-D on an empty line; with ``redraw``,
    Ctrl-L calls it, with ``turn`` PgDn and PgUp call it, and reading goes on with the same
    line; with ``offer``, it shows Tab's list of choices."""

    def __init__(
        self,
        console: Console,
        style: str,
        completer: Completer,
        redraw: Redraw | None = None,
        turn: Turn | None = None,
        offer: Offer | None = None,
    ) -> None:
        self.console = console
        self.style = style
        self.completer = completer
        self.redraw = redraw
        self.turn = turn
        self.offer = offer
        self._offered: list[str] = []
        self._prompt = ""  #: the prompt that waits
        self.edits = readline is not None and sys.stdin.isatty() and console.is_terminal
        if self.edits:
            readline.set_completer(self._complete)
            readline.set_completer_delims(" \t")
            readline.parse_and_bind("tab: complete")
            # To the line's end, the key's character typed as itself (quoted-insert), then Enter.
            if redraw is not None:
                readline.parse_and_bind(r'"\C-l": "\C-e\C-v\C-l\C-m"')
            if turn is not None:
                for key, character in _PAGE_KEYS.items():
                    readline.parse_and_bind(f'"{key}": "\\C-e\\C-v{character}\\C-m"')
            readline.set_completion_display_matches_hook(
                None if offer is None else self._show_choices
            )

    def __call__(self, prompt: str) -> str:
        if not self.edits:
            return self.console.input(Text(prompt, style=self.style))
        typed = ""
        while True:
            line = self._input(prompt, typed)
            key = line[-1:]
            keyed = (key == _REDRAW and self.redraw) or (key in _PAGES and self.turn)
            if not keyed:
                return line
            typed = line.replace(key, "")
            length = readline.get_current_history_length()
            if length:  # the line is not done: it is no line of the history
                readline.remove_history_item(length - 1)
            if key == _REDRAW and self.redraw is not None:
                self.redraw(prompt)
            elif self.turn is not None:
                self.turn(_PAGES[key], prompt)

    def _input(self, prompt: str, typed: str) -> str:
        """A line read after ``prompt`` with ``typed`` already on it."""
        self._prompt = prompt
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
                offered = self._offered[state]
                # readline (as Python sets it up) adds nothing after a word completed alone.
                return offered if offered.endswith("/") else offered + " "
        return None

    def _show_choices(self, _substitution: str, matches: Sequence[str], _longest: int) -> None:
        # In place of readline's list, which would scroll the screen: readline then draws
        # nothing again, so the prompt and the line so far are written back after it.
        with contextlib.suppress(Exception):  # a fault here would be silent inside readline
            assert self.offer is not None
            self.offer(self._prompt, [m.rstrip() for m in matches])
            shown = self.visible(self._prompt).replace("\x01", "").replace("\x02", "")
            sys.stdout.write(shown + readline.get_line_buffer())
            sys.stdout.flush()


def file_names(typed: str) -> list[str]:
    """The files and directories (with a ``/``) whose names start with ``typed``, written as it
    is (``~`` kept): what ``save`` may complete to."""
    expanded = os.path.expanduser(typed)
    found = []
    for name in sorted(glob.glob(glob.escape(expanded) + "*")):
        shown = typed + name[len(expanded) :]
        found.append(shown + "/" if os.path.isdir(name) else shown)
    return found
