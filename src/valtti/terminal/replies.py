"""The replies to a ``valtti play`` command that is not a move: help, the rules, a hint, the
score, the tricks, saving to a file; and the yes-or-no questions.

A ``session.Session`` has one ``Replies``, which reads the match and the screen from its
``Drawing`` and has the match's record made by the session (``record``).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path

from rich.console import Group, RenderableType
from rich.text import Text

from valtti.coach.explain import explain
from valtti.engine import Deal, Match, Seat
from valtti.terminal import guide, rulebook, saving
from valtti.terminal.commands import (
    NO,
    YES,
    Command,
    Help,
    Hint,
    More,
    Play,
    Review,
    Save,
    Score,
    Topic,
    Tricks,
    word,
)
from valtti.terminal.drawing import Drawing
from valtti.terminal.hints import Hanging, hint_heading, hint_key, hint_lines, reason_column
from valtti.terminal.i18n import _
from valtti.terminal.layout import Fitted
from valtti.terminal.paging import Headed
from valtti.terminal.review import review_reply
from valtti.terminal.rulebook import Page
from valtti.terminal.screen import Keyed
from valtti.terminal.sheets import (
    deal_summary,
    final_score,
    match_table,
    result_line,
    tricks_table,
)


class Replies:
    """The session's answers to the commands that are not moves, and its questions."""

    def __init__(self, drawing: Drawing, record: Callable[[], str]) -> None:
        self.drawing = drawing
        self.record = record  #: the match's record as a save writes it

    @property
    def match(self) -> Match:
        return self.drawing.match

    @property
    def you(self) -> Seat:
        return self.drawing.you

    def answer(self, command: Command, deal: Deal | None) -> RenderableType | Page | None:
        """The reply to a command that is not a move; ``deal`` is the one waiting for the player."""
        match command:
            case Help(None):
                return guide.moment(deal, self.you) if deal is not None else guide.usage()
            case Help(action) if action is not None:
                if deal is None:
                    return _("No deal is being played: there is nothing to explain.")
                return guide.explain(deal, action)
            case Topic(name):
                return rulebook.answer(name, self.match.variant)
            case Hint():
                return self._hint(deal)
            case Review(number):
                return review_reply(self.match, self.you, number, self._reviewing)
            case Score():
                return self._score()
            case Tricks(last):
                return self._tricks(last)
            case Save(path):
                return self._save(Path(path).expanduser())
            case More():
                return self._more()
            case Play(_action):
                return _("No deal is being played now: there are no cards to play.")
        return None

    def _reviewing(self, line: str) -> None:
        """Said under the prompt while a review is made: until it is drawn the screen would
        otherwise stand still for up to a minute."""
        self.drawing.console.print(Text(line))

    def _more(self) -> RenderableType | Page:
        """The reply shown, turned to its next page (``paging``)."""
        shown = None if self.drawing.shown is None else self.drawing.shown[0]
        if self.drawing.plain:
            return _("The line mode tells each reply whole: there are no pages to turn.")
        if shown is None:
            return _("There is no reply shown to turn the pages of.")
        self.drawing.page += 1
        return shown

    def _hint(self, deal: Deal | None) -> RenderableType:
        """The computer player's estimate of every legal action, best first, with its reason."""
        if deal is None:
            return _("No deal is being played: there is nothing to hint.")
        # Seeded from the position inside explain: the same hint at the same point.
        hint = explain(self.match.observation(self.you))
        heading, key = hint_heading(hint.moves), hint_key(hint)
        table = hint_lines(hint)
        lines = [Hanging(line, reason_column(table)) for line in table]
        # A small terminal has no rows for the long key: a short one goes on the frame's edge.
        # The heading and the columns' titles (the table's first line) top each page.
        full, compact = [Text(heading), Text(key, style="dim")], [Text(heading)]
        return Fitted(
            Headed(Group(*full, *lines), Group(*full, *lines[:1])),
            Keyed(
                Headed(Group(*compact, *lines), Group(*compact, *lines[:1])),
                hint_key(hint, short=True),
            ),
            "\n".join([heading, key, *table]),
        )

    def _tricks(self, last: bool) -> RenderableType:
        """The tricks taken so far in the deal (or the one that just ended), or the last one."""
        if self.match.deal is None:
            return _("No deal is being played: there is nothing to show.")
        taken = self.match.observation(self.you).tricks
        if not taken:
            return _("No trick has been taken yet in this deal.")
        shown = taken[-1:] if last else taken
        title = (_("The last trick") if last else _("The tricks of deal {number}")).format(
            number=len(self.match.deals)
        )
        heading = Text(title, style="bold")
        whole, titles = tricks_table(shown, self.you), tricks_table([], self.you)
        return Headed(Group(heading, whole), Group(heading, titles))

    def _score(self) -> RenderableType | Page:
        match = self.match
        if match.is_over():
            return self.final_score()
        finished = [(d.dealer, d.trump) for d in match.deals if d.is_over()]
        # The team names are in the message: the Finnish one calls them PE and IL.
        line = _("Match score: NS {ns}, EW {ew}; the target is exactly {target}.").format(
            ns=match.score[0], ew=match.score[1], target=match.variant.target
        )
        if not finished:  # no deal scored yet: no empty sheet
            return Text(line + " " + _("No deal has been scored yet."))
        # The newest deal on top: it is what the player asks after, and in view at once.
        table = match_table(
            finished, match.deal_scores, framed=not self.drawing.plain, newest_first=True
        )
        titles = match_table([], [], framed=not self.drawing.plain)
        return Headed(Group(Text(line), table), Group(Text(line), titles))

    def final_score(self) -> Page:
        """The match's end, a page of its own: who won, how the last deal was scored, and
        every deal, the newest first (``sheets.final_score``)."""
        match = self.match
        deal = match.deal
        assert deal is not None and match.is_over()
        result = Text(result_line(match.winner, match.is_draw, match.score, self.you), "bold")
        facts = (
            len(match.deals),
            deal.result(),
            match.deal_scores[-1],
            deal.events,
            self.you,
            match.variant.target,
        )
        last = deal_summary(*facts, framed=False, columns=False)
        deals = [(d.dealer, d.trump) for d in match.deals]
        body, head = final_score(result, last, deals, match.deal_scores)
        plain, _head = final_score(result, last, deals, match.deal_scores, framed=False)
        return Page(Headed(body, head), plain)

    def _save(self, path: Path) -> str:
        try:
            if saving.is_file_there(path) and not self._replace(path):
                return _("Not saved: {path} is kept as it was.").format(path=path)
            saving.write_atomic(path, self.record())
        except saving.NotRegularFileError:
            return _("Not saved: {path} is not a file.").format(path=path)
        except (OSError, ValueError) as e:  # ValueError: a NUL in the name
            error = getattr(e, "strerror", None) or e
            return _("Could not save to {path}: {error}").format(path=path, error=error)
        if self.match.is_over():
            return _("Saved to {path}.").format(path=path)
        return _("Saved to {path}. Continue later with: {command}").format(
            path=path, command=f"valtti play --resume {shlex.quote(str(path))}"
        )

    def _replace(self, path: Path) -> bool:
        """Whether the player agrees to replace the file at ``path`` (the end of input: no)."""
        try:
            return self.yes(_("{path} exists. Replace it? (y/n) > ").format(path=path))
        except (EOFError, KeyboardInterrupt):
            return False

    def yes(self, question: str) -> bool:
        """Yes or no to ``question``, asked again until the answer is one of them."""
        yes, no = word(YES).lower(), word(NO).lower()
        prompt = question
        while True:
            answer = self.drawing.read(self.drawing.line(prompt)).strip().lower()
            if answer in ("y", "yes", yes, yes[:1]):
                return True
            if answer in ("n", "no", no, no[:1]):
                return False
            prompt = _("Please answer y or n. ") + question
