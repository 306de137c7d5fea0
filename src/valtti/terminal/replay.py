"""``valtti replay FILE --show``: a record stepped through trick by trick on the game's screen.

A step ends where the next trick is led (after the winner's declaration or question, if any) or
where a deal stops; every hand is shown face up.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.text import Text

from valtti.engine import Match, Seat
from valtti.engine.meta import RecordMeta
from valtti.terminal import glyphs
from valtti.terminal.commands import HELP, QUIT, word
from valtti.terminal.i18n import NC_, _, ngettext
from valtti.terminal.layout import Fitted, screen
from valtti.terminal.phrases import deal_start_text, news
from valtti.terminal.screen import View, render
from valtti.terminal.sheets import deal_summary, result_line

BACK = NC_("command", "back")


@dataclass(frozen=True, slots=True)
class Step:
    deal: int  #: index into ``match.deals``
    position: int  #: how many of the deal's actions have been taken


def steps(match: Match) -> list[Step]:
    """Every deal's start, each point where the next trick is about to be led, and its end."""
    found = []
    for index, deal in enumerate(match.deals):
        history = deal.history
        found.append(Step(index, 0))
        for position in range(1, len(history) + 1):
            following = history[position] if position < len(history) else None
            leads = following is not None and following.card is not None
            trick = deal.after(position).current_trick
            if following is None or (leads and trick is not None and not trick.cards):
                found.append(Step(index, position))
    return found


NEXT = NC_("command", "next")
DEAL = NC_("command", "deal")
PREVIOUS = NC_("command", "previous")


class Viewer:
    """Steps through a replayed match from one seat's side, all hands face up."""

    def __init__(
        self, match: Match, seat: Seat, labels: Mapping[Seat, str], person: bool = False
    ) -> None:
        """``person``: ``seat`` is the one a person played (a ``valtti play`` record)."""
        self.match = match
        self.seat = seat
        self.labels = labels
        self.person = person
        self.steps = steps(match)

    def parts(self, number: int) -> tuple[View, list[RenderableType]]:
        """The view at step ``number`` (from 0), and the deal's summary where it ends."""
        step = self.steps[number]
        deal = self.match.deals[step.deal]
        now = deal.after(step.position)
        before = self.steps[number - 1] if number else None
        since = before.position if before is not None and before.deal == step.deal else 0
        scores = self.match.deal_scores
        score = scores[step.deal - 1].after if step.deal else (0, 0)
        if now.is_over():
            score = scores[step.deal].after  # the header tells the score with this deal's points
        log = news(deal.after(since).observation(self.seat), now.observation(self.seat))
        if since == 0:
            log.insert(0, deal_start_text(step.deal + 1, deal.dealer, deal.forehand))
        observation = dataclasses.replace(
            now.observation(self.seat).with_score(score), legal_actions=()
        )
        view = View(
            observation=observation,
            deal_number=step.deal + 1,
            labels=self.labels,
            log=log,
            hands={s: now.hand(s) for s in Seat if s != self.seat},
            winning=now.winning_card,
            person=self.person,
        )
        if not now.is_over():
            return view, []
        facts = (
            step.deal + 1,
            now.result(),
            scores[step.deal],
            now.events,
            self.seat,
            self.match.variant.target,
        )
        summary = Fitted(
            deal_summary(*facts),
            deal_summary(*facts, columns=False),
            deal_summary(*facts, framed=False),
        )
        match = self.match
        if number < len(self.steps) - 1 or not match.is_over():
            return view, [summary]
        you = self.seat if self.person else None
        result = Text(result_line(match.winner, match.is_draw, match.score, you), "bold")
        return view, [summary, result]

    def frame(self, number: int) -> RenderableType:
        """The screen at step ``number`` (from 0) in the full layout."""
        view, more = self.parts(number)
        return Group(render(view), *more)

    def deal_start(self, deal: int) -> int:
        """The step where deal ``deal`` (from 0) begins."""
        return next(i for i, step in enumerate(self.steps) if step.deal == deal)

    def run(self, console: Console, read: Callable[[str], str]) -> None:
        """Enter (or ``next``) steps on, ``back`` steps back, ``deal`` goes to the next deal and
        ``deal N`` to deal N, ``previous`` to the previous deal, ``help`` tells the keys, ``quit``
        (or the end of input, or Enter at the last step) leaves."""
        number = 0
        last = len(self.steps) - 1
        note: RenderableType | None = None
        while True:
            view, more = self.parts(number)
            # Enter at the last step leaves: the prompt says so there.
            leave = _(
                "Step {number} of {total} · Enter: leave · {back} · {deal} [N] · {help} · {quit} > "
            )
            on = _(
                "Step {number} of {total} · Enter: next · {back} · {deal} [N] · {help} · {quit} > "
            )
            keys = leave if number == last else on
            prompt = keys.format(
                number=number + 1,
                total=last + 1,
                back=word(BACK),
                deal=word(DEAL),
                help=word(HELP),
                quit=word(QUIT),
            )
            console.clear()
            console.print(screen(console, view, note, more, prompt))
            try:
                answer = " ".join(read(prompt).lower().split())
            except (EOFError, KeyboardInterrupt):
                return
            if _means(answer, QUIT) or (not answer and number == last):
                return
            moved = self._move(answer, number)
            deals = len(self.match.deals)
            first, _space, rest = answer.partition(" ")
            if moved is None and _means(first, DEAL) and rest.isdigit():
                note = ngettext(
                    "This record has {n} deal: deal 1.",
                    "This record has {n} deals: deal 1 to {n}.",
                    deals,
                ).format(n=deals)
            elif moved is None:
                note = _keys(answer)
            elif moved == number == 0:
                note = _("This is the first step.")
            elif moved == number == last:
                note = _("This is the last step: Enter leaves.")
            else:
                number, note = moved, None

    def _move(self, answer: str, number: int) -> int | None:
        """The step that ``answer`` goes to from step ``number``; ``None`` if it means nothing."""
        last = len(self.steps) - 1
        deal = self.steps[number].deal
        if not answer or _means(answer, NEXT):
            return min(number + 1, last)
        if _means(answer, BACK):
            return max(number - 1, 0)
        if _means(answer, PREVIOUS):
            return self.deal_start(max(deal - 1, 0))
        first, _space, rest = answer.partition(" ")
        if not _means(first, DEAL):
            return None
        if not rest:
            return self.deal_start(deal + 1) if deal + 1 < len(self.match.deals) else last
        if rest.isdigit() and 1 <= int(rest) <= len(self.match.deals):
            return self.deal_start(int(rest) - 1)
        return None


def _keys(answer: str) -> str:
    """What the viewer understands; after a help request, or ``answer`` that it did not."""
    keys = _(
        "Enter or {next}: the next trick · {back}: the trick before · {deal}: the next deal · "
        "{deal} N: deal N · {previous}: the deal before · {quit}: leave. The first letter of "
        "a word is enough."
    ).format(
        next=word(NEXT),
        back=word(BACK),
        deal=word(DEAL),
        previous=word(PREVIOUS),
        quit=word(QUIT),
    )
    if answer == "?" or _means(answer, HELP):
        return keys
    return _("Not understood: {text}.").format(text=answer) + " " + keys


def _means(answer: str, english: str) -> bool:
    """The word, in English or the active language, or its first letter."""
    words = (english, word(english).lower())
    return bool(answer) and any(answer in (w, w[:1]) for w in words)


def show(match: Match, meta: Mapping[str, Any] | None, console: Console | None = None) -> None:
    """Step through ``match`` on the terminal, from the side of the seat a ``valtti play``
    record was played from (S for another record), in the active language."""
    fields = RecordMeta.from_dict(meta)
    labels = {s: fields.player_at(s) or "" for s in Seat}
    person = fields.seat is not None
    seat = Seat.S if fields.seat is None else fields.seat
    out = console or glyphs.console()
    Viewer(match, seat, labels, person).run(out, lambda prompt: out.input(prompt))
