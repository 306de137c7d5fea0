"""Replies longer than their place at 80×24, in pages: how lines are cut in pages and marked,
and each reply the issue named (help in a declaration window, the tricks at a deal's end, the
score after many deals, the hint, the last trick) read to its last line with ``more``, the
header in view on every page."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text

from valtti.engine import DealScore, Seat
from valtti.terminal import drawing, i18n, layout
from valtti.terminal.commands import More, action_words
from valtti.terminal.game import start
from valtti.terminal.paging import Headed, Paged, marker_text, page_bounds
from valtti.terminal.saving import Saves
from valtti.terminal.session import Session
from valtti.terminal.sheets import match_table

#: The marker of a page that is not the last, and of the last.
MORE = re.compile(r"— more: PgDn or more · page (\d+) of (\d+) —")
END = re.compile(r"— end · page (\d+) of (\d+) · back: PgUp —")


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.use("en")
    yield
    i18n.use("en")


# -- cutting in pages ----------------------------------------------------------------------------


def test_lines_that_fit_are_one_page() -> None:
    assert page_bounds(5, 5) == [(0, 5)]
    assert page_bounds(0, 3) == [(0, 0)]


def test_each_page_leaves_the_marker_its_rows() -> None:
    assert page_bounds(10, 4) == [(0, 3), (3, 6), (6, 9), (9, 10)]
    assert page_bounds(10, 4, marker_rows=2) == [(0, 2), (2, 4), (4, 6), (6, 8), (8, 10)]
    assert page_bounds(3, 1) == [(0, 1), (1, 2), (2, 3)]  # one line a page at least


def test_the_marker_says_the_page_and_the_way_on() -> None:
    assert marker_text(0, 3) == "— more: PgDn or more · page 1 of 3 —"
    assert marker_text(2, 3) == "— end · page 3 of 3 · back: PgUp —"
    assert marker_text(-1, 3) == marker_text(2, 3)  # counted modulo the pages
    assert marker_text(3, 3) == marker_text(0, 3)
    i18n.use("fi")
    assert marker_text(0, 2) == "— lisää: PgDn tai lisää · sivu 1/2 —"


def _rendered(renderable: object, width: int = 40) -> list[str]:
    con = Console(file=io.StringIO(), width=width, color_system=None)
    con.print(renderable)
    return con.file.getvalue().splitlines()  # type: ignore[attr-defined]


@pytest.mark.parametrize(("page", "first", "last"), [(0, 0, 3), (1, 4, 7), (2, 8, 9), (3, 0, 3)])
def test_a_page_shows_its_lines_then_the_marker(page: int, first: int, last: int) -> None:
    body = Text("\n".join(f"line {n}" for n in range(10)))
    shown = _rendered(Paged(body, 5, page))
    assert shown[:-1] == [f"line {n}" for n in range(first, last + 1)]
    assert ("page 3 of 3" in shown[-1]) is (page == 2)


@pytest.mark.parametrize("page", [0, 1, 2])
def test_a_headed_reply_repeats_its_heading_on_every_page(page: int) -> None:
    head = Text("title\ncolumns")
    body = Text("title\ncolumns\n" + "\n".join(f"line {n}" for n in range(6)))
    shown = _rendered(Paged(Headed(body, head), 5, page))
    assert shown[:2] == ["title", "columns"]
    assert shown[2:-1] == [f"line {n}" for n in range(2 * page, min(2 * page + 2, 6))]
    assert f"page {page + 1} of 3" in shown[-1]


def test_a_heading_with_no_room_beside_it_is_not_repeated() -> None:
    body = Text("title\ncolumns\n" + "\n".join(f"line {n}" for n in range(6)))
    shown = _rendered(Paged(Headed(body, Text("title\ncolumns")), 3, 1))
    assert shown[:-1] == ["line 0", "line 1"]


def test_a_reply_that_fits_has_no_marker() -> None:
    body = Text("\n".join(f"line {n}" for n in range(5)))
    assert _rendered(Paged(body, 5, 7)) == [f"line {n}" for n in range(5)]


def test_a_marker_wrapped_at_a_narrow_width_keeps_within_the_rows() -> None:
    body = Text("\n".join(f"line {n}" for n in range(10)))
    for page in range(6):
        shown = _rendered(Paged(body, 5, page), width=20)
        assert len(shown) <= 5 and shown[0].startswith("line"), shown


# -- each reply at 80×24, read to its end --------------------------------------------------------


def first_legal(s: Session) -> str:
    deal = s.match.deal
    assert deal is not None
    return str(deal.legal_actions()[0])


class Pager:
    """Plays the first legal move until ``at`` says so, types ``reply``, then ``more`` until the
    last page shows, and once more (back to the first page); the screens of the reply's pages
    drawn at 80×24."""

    def __init__(
        self,
        s: Session,
        monkeypatch: pytest.MonkeyPatch,
        at: Callable[[Session, str], bool],
        reply: str,
    ) -> None:
        self.s, self.at, self.reply = s, at, reply
        self.screens: list[list[str]] = []
        self.pages: list[list[str]] = []
        self.asked = False

        def drawn(con: Console, *args: object, **kwargs: object) -> object:
            shown = layout.screen(con, *args, **kwargs)  # type: ignore[arg-type]
            out = Console(file=io.StringIO(), width=80, height=24, color_system=None)
            out.print(shown)
            self.screens.append(out.file.getvalue().splitlines())  # type: ignore[attr-defined]
            return shown

        monkeypatch.setattr(drawing, "screen", drawn)
        s.drawing.read = self

    def __call__(self, prompt: str) -> str:
        if not self.asked:
            if self.at(self.s, prompt):
                self.asked = True
                return self.reply
            return "" if prompt.startswith("Enter") else first_legal(self.s)
        self.pages.append(self.screens[-1])
        if not any(MORE.search(line) for line in self.pages[0]):
            raise EOFError  # the reply fits: one page
        ended = [p for p in self.pages if any(END.search(line) for line in p)]
        if (ended and self.pages[-1] is not ended[0]) or len(self.pages) > 12:
            raise EOFError
        return "more"

    def read_through(self) -> tuple[list[list[str]], str]:
        """The pages in order, and their text run together without the frames."""
        self.s.run()
        pages = self.pages
        for page in pages:
            assert len(page) <= 23, page  # the prompt's line stays free
            assert "Trumps:" in page[0] and "Match:" in page[0], page
        text = " ".join(line.strip("│╭╮╰╯─ ") for page in pages for line in page)
        said = " ".join(text.split())
        first = MORE.search("\n".join(pages[0]))
        if first is None:  # one page, whole
            assert len(pages) == 1 and not END.search(said), pages
            return pages, said
        total = int(first.group(2))
        assert len(pages) == total + 1
        for number, page in enumerate(pages[:-1], start=1):
            marker = MORE if number < total else END
            found = [m for line in page if (m := marker.search(line))]
            assert found and found[0].groups() == (str(number), str(total)), page
        assert pages[-1] == pages[0]  # more on the last page: the first again
        return pages[:-1], said


@pytest.fixture
def session(tmp_path: Path) -> Callable[[int], Session]:
    def make(seed: int) -> Session:
        con = Console(file=io.StringIO(), width=80, height=24, color_system=None)
        return start(
            seed=seed,
            partner="random",
            opponents="random",
            fast=True,
            console=con,
            language="en",
            saves=Saves(tmp_path),
        )

    return make


def declaring(s: Session, prompt: str) -> bool:
    """Seed 22: S wins a trick in deal 1 and may declare or ask."""
    return prompt.startswith("You took the trick")


def test_help_in_a_declaration_window_reads_to_its_last_line(
    session: Callable[[int], Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    s = session(22)
    pages, said = Pager(s, monkeypatch, declaring, "help").read_through()
    assert "You took the trick. Before leading" in " ".join(" ".join(pages[0]).split())
    assert "PgDn or more for the next, PgUp for the one before." in said  # the help's last line
    assert "PgUp for the one before." in " ".join(" ".join(pages[-1]).split())


def test_the_hint_reads_to_its_last_move(
    session: Callable[[int], Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    s = session(22)
    pager = Pager(s, monkeypatch, declaring, "hint")
    legal: list[str] = []

    def at(s: Session, prompt: str) -> bool:
        if declaring(s, prompt):
            deal = s.match.deal
            assert deal is not None
            legal.extend(action_words(a) for a in deal.legal_actions())
            return True
        return False

    pager.at = at
    _pages, said = pager.read_through()
    assert len(legal) > 5 and all(move in said for move in legal), (legal, said)


def deal_over(s: Session, prompt: str) -> bool:
    return prompt.startswith("Enter: next deal")


def test_the_tricks_at_a_deals_end_read_to_the_ninth(
    session: Callable[[int], Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    pages, _said = Pager(session(2), monkeypatch, deal_over, "tricks").read_through()
    rows = [line for page in pages for line in page if re.match(r"│\s+\d\s+[NESW]\s", line)]
    numbers = {int(row.split()[1]) for row in rows}
    assert numbers == set(range(1, 10)), rows


def test_the_score_after_many_deals_reads_to_the_first(
    session: Callable[[int], Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    def late(s: Session, prompt: str) -> bool:
        return deal_over(s, prompt) and len(s.match.deals) >= 10

    s = session(7)
    pages, said = Pager(s, monkeypatch, late, "score").read_through()
    assert len(pages) > 1
    rows = [line for page in pages for line in page if re.match(r"│\s+\d+\s+[NESW]\s", line)]
    numbers = [int(row.split()[1]) for row in rows]
    assert numbers == list(range(len(s.match.deals), 0, -1)), rows  # the newest deal first
    assert "deal" in said and "score" in said


def test_the_last_trick_fits_whole(
    session: Callable[[int], Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    s = session(2)
    pager = Pager(s, monkeypatch, deal_over, "last")
    s.drawing.read = lambda prompt: pager(prompt) if not pager.asked else _eof()
    s.run()
    shown = pager.screens[-1]
    assert len(shown) <= 23 and "Trumps:" in shown[0]
    assert any(re.match(r"│\s+9\s+[NESW]\s", line) for line in shown), shown
    assert not any(MORE.search(line) or END.search(line) for line in shown)


def _eof() -> str:
    raise EOFError


def test_more_with_nothing_shown_says_so(session: Callable[[int], Session]) -> None:
    s = session(2)
    assert "There is no reply shown" in str(s.replies.answer(More(), None))


def test_more_in_the_line_mode_says_each_reply_is_whole(tmp_path: Path) -> None:
    con = Console(file=io.StringIO(), width=80, color_system=None)
    s = start(seed=2, partner="random", opponents="random", fast=True, console=con,
              language="en", saves=Saves(tmp_path), plain=True)  # fmt: skip
    assert "tells each reply whole" in str(s.replies.answer(More(), None))


def test_the_score_marks_porvoo_and_overshoot() -> None:
    scores = [
        DealScore((9, 4), (2, 0), (11, 4), (False, False), (False, False)),
        DealScore((3, 4), (1, 0), (4, 0), (False, True), (True, False)),
    ]
    shown = "\n".join(_rendered(match_table([(Seat.N, None), (Seat.E, None)], scores), 90))
    assert "EW to Porvoo" in shown and "NS over target" in shown
    assert shown.count("Porvoo") == 1
