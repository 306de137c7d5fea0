"""How a ``valtti play`` session shows itself: the table fitted to the terminal, drawn again at
a new size, or in the plain mode told a line at a time.

A ``session.Session`` has one ``Drawing``: it holds what is shown (the match, the log of
events, the reply on the screen and its page) and how a line is read at the prompt.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from rich.console import Console, RenderableType
from rich.text import Text

from valtti.engine import Match, Seat
from valtti.terminal.i18n import _
from valtti.terminal.layout import Fitted, page_screen, screen
from valtti.terminal.lineinput import LineReader
from valtti.terminal.plain import turn_lines
from valtti.terminal.rulebook import Page
from valtti.terminal.screen import View
from valtti.terminal.sheets import deal_summary

if TYPE_CHECKING:
    from valtti.terminal.setup import Setup


class Drawing:
    """The session's screens: the table and what is under it, or the plain mode's lines.

    ``read`` shows a prompt and returns a line; by default a ``LineReader`` (line editing,
    history and ``completions`` at a terminal), whose Ctrl-L, PgUp/PgDn and Tab draw here.
    """

    def __init__(
        self,
        console: Console,
        match: Match,
        setup: Setup,
        plain: bool,
        read: Callable[[str], str] | None,
        completions: Callable[[str], list[str]],
    ) -> None:
        self.console = console
        self.match = match  #: the match shown (a take-back sets it back)
        self.setup = setup
        self.plain = plain
        self.style = "" if plain else "bold"  #: the prompts' style
        self.reader = LineReader(
            console,
            self.style,
            completions,
            redraw=None if plain else self.redraw,
            turn=None if plain else self.turn,
            offer=None if plain else self.offer,
        )
        self.read: Callable[[str], str] = read or self.reader
        self.log: list[str] = []  #: the events told, a line each
        self.told = 0  #: how many log lines the plain mode has told
        self.turn_told: tuple[int, int] | None = None  #: the turn it last told (deal, action)
        #: The last draw's reply and parts under the table, to draw again at a new size.
        self.shown: tuple[RenderableType | Page | None, tuple[RenderableType, ...]] | None = None
        self.page = 0  #: the page of the reply shown (``paging``)

    @property
    def you(self) -> Seat:
        return self.setup.you

    def line(self, prompt: str) -> str:
        """A prompt as it is shown: on a line of its own in the plain mode."""
        return prompt.rstrip() + "\n" if self.plain else prompt

    def view(self) -> View:
        deal = self.match.deal
        assert deal is not None
        observation = self.match.observation(self.you)
        if deal.is_over():
            # The header tells the score there is now, this deal's points counted.
            observation = observation.with_score(self.match.score)
        return View(
            observation=observation,
            deal_number=len(self.match.deals),
            labels=self.setup.players,
            log=self.log,
            winning=deal.winning_card,
        )

    def draw(
        self, note: RenderableType | Page | None = None, *more: RenderableType, prompt: str = ""
    ) -> None:
        """The table, then ``more`` (the deal's or the match's end), then the reply ``note``,
        fitted to the terminal's size as it is now with room for ``prompt`` under it; in the
        plain mode, only what is new."""
        if self.plain:
            self.tell(note.plain if isinstance(note, Page) else note, *more)
            return
        if self.shown is None or note is not self.shown[0]:
            self.page = 0  # a new reply starts at its first page
        self.shown = (note, more)
        self.console.clear()
        if isinstance(note, Page):
            self.console.print(page_screen(self.console, note.body, prompt, self.page))
        else:
            view = self.view()
            self.console.print(screen(self.console, view, note, more, prompt, self.page))

    def redraw(self, prompt: str) -> None:
        """The screen drawn again as it was, for ``prompt`` (Ctrl-L)."""
        if self.shown is not None:
            note, more = self.shown
            self.draw(note, *more, prompt=prompt)

    def turn(self, step: int, prompt: str) -> None:
        """The reply shown turned by ``step`` pages (PgDn: 1, PgUp: -1), drawn for ``prompt``."""
        self.page += step
        self.redraw(prompt)

    def offer(self, prompt: str, words: list[str]) -> None:
        """Tab's choices in the reply's place, for ``prompt``: the header stays in view. The
        reply shown before comes back at the next draw (Ctrl-L)."""
        if self.shown is None or isinstance(self.shown[0], Page):
            more: tuple[RenderableType, ...] = ()
        else:
            more = self.shown[1]
        choices = Text(_("Tab: {choices}").format(choices="   ".join(words)))
        self.console.clear()
        self.console.print(screen(self.console, self.view(), choices, more, prompt))

    @contextmanager
    def redrawn_on_resize(self) -> Iterator[None]:
        """While inside, a change of the terminal's size at a prompt redraws the screen at once,
        the prompt and the line typed so far under it."""
        if self.plain or not hasattr(signal, "SIGWINCH") or not self.console.is_terminal:
            yield
            return
        read = self.read
        waiting: list[str] = []

        def reading(prompt: str) -> str:
            waiting.append(prompt)
            try:
                return read(prompt)
            finally:
                waiting.pop()

        def resized(_signal: int, _frame: object) -> None:
            # Only while a prompt waits: never in the middle of a draw.
            if waiting and self.shown is not None:
                note, more = self.shown
                self.draw(note, *more, prompt=waiting[-1])
                typed = self.reader.shown_line() if read is self.reader else ""
                self.console.print(Text(waiting[-1], style=self.style), end="")
                self.console.print(Text(typed), end="")

        previous = signal.signal(signal.SIGWINCH, resized)
        self.read = reading
        try:
            yield
        finally:
            signal.signal(signal.SIGWINCH, previous)
            self.read = read

    def tell(self, note: RenderableType | None, *more: RenderableType) -> None:
        """The plain mode's draw: the new log lines, the state at a new turn, then the rest."""

        def print_(part: RenderableType) -> None:
            # Never wrapped by the program: a line stays one line for the screen reader. Plain
            # text is never markup: "help [a card or declaration]" keeps its brackets.
            self.console.print(part, soft_wrap=True, markup=False)

        for line in self.log[self.told :]:
            print_(line)
        self.told = len(self.log)
        deal = self.match.deal
        if deal is not None and deal.current_player == self.you:
            turn = (len(self.match.deals), len(deal.history))
            if turn != self.turn_told:
                self.turn_told = turn
                for line in turn_lines(self.view()):
                    print_(line)
        for part in more:
            print_(part.plain if isinstance(part, Fitted) else part)
        if note is not None:
            print_(note.plain if isinstance(note, Fitted) else note)

    def summary(self) -> Fitted:
        match = self.match
        deal = match.deal
        assert deal is not None and deal.is_over()
        facts = (
            len(match.deals),
            deal.result(),
            match.deal_scores[-1],
            deal.events,
            self.you,
            match.variant.target,
        )
        return Fitted(
            deal_summary(*facts),
            deal_summary(*facts, columns=False),
            deal_summary(*facts, framed=False),
        )
