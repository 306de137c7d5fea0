"""A reply longer than its place on the screen, in pages: PgDn or ``more`` turns to the next,
PgUp to the one before; the last line of a page says which page it is and how to turn.

Pages are counted from 0 and taken modulo their number, so that turning never runs off either
end: ``more`` on the last page comes back to the first, PgUp on the first goes to the last.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.segment import Segment
from rich.text import Text

from valtti.terminal.commands import MORE, word
from valtti.terminal.i18n import _


def page_bounds(count: int, rows: int, marker_rows: int = 1) -> list[tuple[int, int]]:
    """Where each page of ``count`` lines starts and ends (``(start, end)``) in ``rows`` rows:
    one page where they all fit, else as many lines a page as leave ``marker_rows`` for the
    marker (one line at least)."""
    if count <= rows:
        return [(0, count)]
    size = max(rows - marker_rows, 1)
    return [(start, min(start + size, count)) for start in range(0, count, size)]


def marker_text(page: int, pages: int) -> str:
    """The last line of page ``page`` (from 0) of ``pages``: which it is and how to turn."""
    number = page % pages + 1
    if number < pages:
        return _("— more: PgDn or {more} · page {number} of {pages} —").format(
            more=word(MORE), number=number, pages=pages
        )
    return _("— end · page {number} of {pages} · back: PgUp —").format(number=number, pages=pages)


@dataclass(frozen=True, slots=True)
class Headed:
    """A reply whose first lines head each of its pages (a title and a table's column titles):
    ``body`` is the whole reply, ``head`` its heading alone (the table without rows), drawn
    only to count the lines of ``body`` that head every page."""

    body: RenderableType
    head: RenderableType

    def __rich__(self) -> RenderableType:
        return self.body


@dataclass(frozen=True, slots=True)
class Paged:
    """Page ``page`` of ``inner`` cut in pages of ``rows`` rows, the marker last where there
    is more than one page; ``page`` counts from 0, modulo the number of pages. A ``Headed``
    reply's heading tops every page, where it leaves two rows for the rest."""

    inner: RenderableType
    rows: int
    page: int = 0

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        whole = options.update(height=None)
        inner, head = self.inner, 0
        if isinstance(self.inner, Headed):
            inner = self.inner.body
            head = len(console.render_lines(self.inner.head, whole, pad=False))
        lines = console.render_lines(inner, whole, pad=False)
        if len(lines) <= self.rows or self.rows - head < 2:
            head = 0  # all on one page, or no room for the heading on each
        heading, lines = lines[:head], lines[head:]
        rows = max(self.rows - head, 1)

        def marker(page: int, pages: int) -> list[list[Segment]]:
            text = Text(marker_text(page, pages), style="dim")
            return console.render_lines(text, whole, pad=False)

        bounds = page_bounds(len(lines), rows)
        if len(bounds) > 1:
            # A narrow terminal wraps the marker: each page gives up the rows it takes.
            tall = max(len(marker(0, len(bounds))), len(marker(-1, len(bounds))))
            bounds = page_bounds(len(lines), rows, tall)
        page = self.page % len(bounds)
        start, end = bounds[page]
        shown = heading + lines[start:end] + (marker(page, len(bounds)) if len(bounds) > 1 else [])
        for line in shown:
            yield from line
            yield Segment.line()
