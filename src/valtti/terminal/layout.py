"""Fitting the screen to the terminal's size, measured anew at each draw.

The full layout (framed header, table beside the deal's columns, hand, log) is drawn where it
fits with the reply and a log line; below that the compact layout, whose header is two lines.
The reply pane (help, hints, the tricks) goes under the table and never pushes the header off:
the log gives up its rows first, then the deal's columns and the table, and a reply taller than
what is left is shown a page at a time (``paging``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.segment import Segment
from rich.text import Text

from valtti.terminal.commands import SCORE, word
from valtti.terminal.i18n import _
from valtti.terminal.paging import Paged
from valtti.terminal.phrases import trick_line, trick_lines
from valtti.terminal.screen import Keyed, View, board, compact_board, log, note_panel

#: Below this width the full layout's columns are too narrow.
FULL_WIDTH: Final = 72
#: Rows the full layout keeps for a reply, so that a short reply moves nothing else.
REPLY_ROWS: Final = 6
#: A log panel with one line.
LOG_ROWS: Final = 3
#: The smallest reply pane kept when rows run out: its frame and two lines.
PANE_ROWS: Final = 4


@dataclass(frozen=True, slots=True)
class Fitted:
    """A part shown as ``full`` in the full layout, as ``compact`` in the compact one and as
    ``plain`` (no frames) in the plain line mode."""

    full: RenderableType
    compact: RenderableType
    plain: RenderableType

    def __rich__(self) -> RenderableType:
        return self.full


@dataclass(frozen=True, slots=True)
class Cropped:
    """The first ``rows`` lines of ``inner`` (at least one), the last ones saying what was cut
    and where to read it whole (one, or two where the saying wraps): a long match's end, whose
    deals ``score`` shows in pages."""

    inner: RenderableType
    rows: int

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        lines = console.render_lines(self.inner, options.update(height=None), pad=False)
        if len(lines) > self.rows:

            def saying(kept: int) -> list[list[Segment]]:
                cut = len(lines) - kept
                more = _("… {n} more lines: {score} shows them all, a page at a time").format(
                    n=cut, score=word(SCORE)
                )
                return console.render_lines(Text(more, style="dim"), options, pad=False)

            kept = max(self.rows, 1) - 1
            more = saying(kept)
            if len(more) > 1:  # a narrow terminal: the saying takes the rows of more lines
                kept = max(max(self.rows, 1) - len(more), 0)
                more = saying(kept)
            lines = lines[:kept] + more
        for line in lines:
            yield from line
            yield Segment.line()


def prompt_rows(console: Console, prompt: str) -> int:
    """The terminal lines ``prompt`` takes, with the cursor after it: a prompt as wide as the
    terminal, or wider, wraps (a Finnish one at 60 columns), and the header must not scroll off."""
    return (cell_len(prompt) + console.width) // max(console.width, 1)


def screen(
    console: Console,
    view: View,
    note: RenderableType | None = None,
    more: Sequence[RenderableType] = (),
    prompt: str = "",
    page: int = 0,
) -> RenderableType:
    """The whole screen for the console's current size, the lines of ``prompt`` left free below
    it (one at least); ``more`` (a deal's or the match's end) goes under the table, the reply
    ``note`` last, at its page ``page`` where it is longer than its place (``paging``). Each
    ``Fitted`` part, the note too, shows as its full or its compact part as the layout is."""
    rows = console.height - prompt_rows(console, prompt)
    options = console.options.update(height=None)

    def height(part: RenderableType) -> int:
        return len(console.render_lines(part, options, pad=False))

    def last_lines(lines: Sequence[str], space: int) -> list[str]:
        # The last of ``lines`` that fit in ``space`` rows with the panel's two borders (a long
        # line wraps to two or more).
        inside = options.update(width=max(console.width - 4, 1))  # borders and padding
        rows_left, count = space - 2, 0
        for line in reversed(lines[-max(space - 2, 0) :]):
            rows_left -= len(console.render_lines(Text(line), inside, pad=False))
            if rows_left < 0:
                break
            count += 1
        return list(lines[len(lines) - count :]) if count else []

    def fitted_log(space: int) -> list[RenderableType]:
        # The log's last lines, or no log where even the last one does not fit. Where the first
        # cards of the last trick would be cut (a question and the next trick's plays after it
        # at 80x24), that trick is told on one line, then what followed it.
        shown = last_lines(view.log, space)
        taken = view.observation.tricks
        told = trick_lines(taken[-1]) if taken else []
        start = _last_index(view.log, told)
        if start is not None and len(shown) < len(view.log) - start:
            shown = last_lines([trick_line(taken[-1]), *view.log[start + len(told) :]], space)
        return [log(shown, len(shown))] if shown or not view.log else []

    pane = None if note is None else note_panel(note.full if isinstance(note, Fitted) else note)
    pane_rows = 0 if pane is None else height(pane)
    tail = [] if pane is None else [pane]
    if console.width >= FULL_WIDTH:
        parts = [*board(view), *(m.full if isinstance(m, Fitted) else m for m in more)]
        # Under a deal's end no rows are kept for a reply: the log there is the deal's last word.
        free = rows - sum(map(height, parts)) - max(pane_rows, 0 if more else REPLY_ROWS)
        if free >= LOG_ROWS:
            return Group(*parts[:3], *fitted_log(free), *parts[3:], *tail)
    if isinstance(note, Fitted):
        note = note.compact
        pane = note_panel(note)
        pane_rows = height(pane)
        tail = [pane]
    head, *body = compact_board(view)
    ends = [m.compact if isinstance(m, Fitted) else m for m in more]
    fixed = height(head) + sum(map(height, ends))
    # The deal's columns go first, then the table, to show a reply whole or in fewer pages;
    # the hand last, where even a few lines of the reply would not fit beside it.
    for drop in (1, 0):
        if not body or fixed + sum(map(height, body)) + pane_rows <= rows:
            break
        body.pop(drop)
    if body and fixed + sum(map(height, body)) + min(pane_rows, PANE_ROWS) > rows:
        body.pop(0)
    if ends and fixed + min(pane_rows, PANE_ROWS) > rows:  # a long match's end: cut it
        ends = [Cropped(Group(*ends), rows - height(head) - min(pane_rows, PANE_ROWS))]
        fixed = height(head) + sum(map(height, ends))
    left = rows - fixed - sum(map(height, body))
    if pane is not None and note is not None and pane_rows > left:
        cut: RenderableType = Paged(Text(note) if isinstance(note, str) else note, left - 2, page)
        if isinstance(note, Keyed):
            # The key stays whole (on the frame's edge, or on lines of its own) where a line of
            # the rest is left beside it: the rest is paged.
            rest = left - 2 - (height(note_panel(Keyed(Text(""), note.key))) - 3)
            if rest >= 1:
                cut = Keyed(Paged(note.body, rest, page), note.key)
        pane = note_panel(cut)
        tail = [pane]
        pane_rows = height(pane)
    log_rows = left - pane_rows
    logged = fitted_log(log_rows) if log_rows >= LOG_ROWS else []
    return Group(head, *body, *logged, *ends, *tail)


def page_screen(
    console: Console, body: RenderableType, prompt: str = "", page: int = 0
) -> RenderableType:
    """A page shown instead of the table (``help rules``), at its page ``page`` where the
    terminal is too small for it whole, the lines of ``prompt`` left free below it."""
    return Paged(body, console.height - prompt_rows(console, prompt), page)


def _last_index(lines: Sequence[str], run: Sequence[str]) -> int | None:
    """Where the last occurrence of ``run`` starts in ``lines``; ``None`` if it is not there (or
    is empty)."""
    if run:
        for start in range(len(lines) - len(run), -1, -1):
            if list(lines[start : start + len(run)]) == list(run):
                return start
    return None
