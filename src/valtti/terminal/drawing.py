"""How a ``valtti play`` session shows itself: the table fitted to the terminal, drawn again at
a new size, or in the plain mode told a line at a time.

``Drawing`` is the part of ``session.Session`` that draws; the session sets the state it reads.
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
    from valtti.terminal.session import Setup


class Drawing:
    """The session's screens: the table and what is under it, or the plain mode's lines."""

    console: Console
    match: Match
    setup: Setup
    log: list[str]
    plain: bool
    style: str  #: the prompts' style ("" in the plain mode)
    read: Callable[[str], str]
    reader: LineReader
    _told: int  #: how many log lines the plain mode has told
    _turn_told: tuple[int, int] | None  #: the turn it last told (deal, action)
    #: The last draw's reply and parts under the table, to draw again at a new size.
    _shown: tuple[RenderableType | Page | None, tuple[RenderableType, ...]] | None
    _page: int  #: the page of the reply shown (``paging``)

    @property
    def you(self) -> Seat:
        return self.setup.you

    def _line(self, prompt: str) -> str:
        """A prompt as it is shown: on a line of its own in the plain mode."""
        return prompt.rstrip() + "\n" if self.plain else prompt

    def _view(self) -> View:
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

    def _draw(
        self, note: RenderableType | Page | None = None, *more: RenderableType, prompt: str = ""
    ) -> None:
        """The table, then ``more`` (the deal's or the match's end), then the reply ``note``,
        fitted to the terminal's size as it is now with room for ``prompt`` under it; in the
        plain mode, only what is new."""
        if self.plain:
            self._tell(note.plain if isinstance(note, Page) else note, *more)
            return
        if self._shown is None or note is not self._shown[0]:
            self._page = 0  # a new reply starts at its first page
        self._shown = (note, more)
        self.console.clear()
        if isinstance(note, Page):
            self.console.print(page_screen(self.console, note.body, prompt, self._page))
        else:
            view = self._view()
            self.console.print(screen(self.console, view, note, more, prompt, self._page))

    def _redraw(self, prompt: str) -> None:
        """The screen drawn again as it was, for ``prompt`` (Ctrl-L)."""
        if self._shown is not None:
            note, more = self._shown
            self._draw(note, *more, prompt=prompt)

    def _turn(self, step: int, prompt: str) -> None:
        """The reply shown turned by ``step`` pages (PgDn: 1, PgUp: -1), drawn for ``prompt``."""
        self._page += step
        self._redraw(prompt)

    def _offer(self, prompt: str, words: list[str]) -> None:
        """Tab's choices in the reply's place, for ``prompt``: the header stays in view. The
        reply shown before comes back at the next draw (Ctrl-L)."""
        if self._shown is None or isinstance(self._shown[0], Page):
            more: tuple[RenderableType, ...] = ()
        else:
            more = self._shown[1]
        choices = Text(_("Tab: {choices}").format(choices="   ".join(words)))
        self.console.clear()
        self.console.print(screen(self.console, self._view(), choices, more, prompt))

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
            if waiting and self._shown is not None:
                note, more = self._shown
                self._draw(note, *more, prompt=waiting[-1])
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

    def _tell(self, note: RenderableType | None, *more: RenderableType) -> None:
        """The plain mode's draw: the new log lines, the state at a new turn, then the rest."""

        def print_(part: RenderableType) -> None:
            # Never wrapped by the program: a line stays one line for the screen reader. Plain
            # text is never markup: "help [a card or declaration]" keeps its brackets.
            self.console.print(part, soft_wrap=True, markup=False)

        for line in self.log[self._told :]:
            print_(line)
        self._told = len(self.log)
        deal = self.match.deal
        if deal is not None and deal.current_player == self.you:
            turn = (len(self.match.deals), len(deal.history))
            if turn != self._turn_told:
                self._turn_told = turn
                for line in turn_lines(self._view()):
                    print_(line)
        for part in more:
            print_(part.plain if isinstance(part, Fitted) else part)
        if note is not None:
            print_(note.plain if isinstance(note, Fitted) else note)

    def _summary(self) -> Fitted:
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
