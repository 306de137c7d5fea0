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

from valtti.engine import Match, Seat
from valtti.terminal import i18n
from valtti.terminal.commands import QUIT, word
from valtti.terminal.i18n import NC_, _
from valtti.terminal.phrases import deal_start_text, news
from valtti.terminal.screen import View, deal_summary, render

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


class Viewer:
    """Steps through a replayed match from one seat's side, all hands face up."""

    def __init__(self, match: Match, seat: Seat, labels: Mapping[Seat, str]) -> None:
        self.match = match
        self.seat = seat
        self.labels = labels
        self.steps = steps(match)

    def frame(self, number: int) -> RenderableType:
        """The screen at step ``number`` (from 0)."""
        step = self.steps[number]
        deal = self.match.deals[step.deal]
        now = deal.after(step.position)
        before = self.steps[number - 1] if number else None
        since = before.position if before is not None and before.deal == step.deal else 0
        scores = self.match.deal_scores
        score = scores[step.deal - 1].after if step.deal else (0, 0)
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
        )
        if not now.is_over():
            return render(view)
        return Group(
            render(view),
            deal_summary(
                step.deal + 1,
                now.result(),
                scores[step.deal],
                now.events,
                self.seat,
                self.match.variant.target,
            ),
        )

    def run(self, console: Console, read: Callable[[str], str]) -> None:
        """Enter steps on, ``back`` steps back, ``quit`` (or the end of input) leaves."""
        number = 0
        last = len(self.steps) - 1
        while True:
            console.clear()
            console.print(self.frame(number))
            prompt = _("Step {number} of {total} · Enter: next · {back} · {quit} > ").format(
                number=number + 1, total=last + 1, back=word(BACK), quit=word(QUIT)
            )
            try:
                answer = read(prompt).strip().lower()
            except (EOFError, KeyboardInterrupt):
                return
            if _means(answer, QUIT):
                return
            if _means(answer, BACK):
                number = max(number - 1, 0)
            elif number == last:
                return
            else:
                number += 1


def _means(answer: str, english: str) -> bool:
    """The word, in English or the active language, or its first letter."""
    words = (english, word(english).lower())
    return bool(answer) and any(answer in (w, w[:1]) for w in words)


def show(match: Match, meta: Mapping[str, Any] | None, console: Console | None = None) -> None:
    """Step through ``match`` on the terminal, from the side of the seat a ``valtti play``
    record was played from (S for another record)."""
    i18n.use(i18n.default_language())
    meta = meta or {}
    players = meta.get("players")
    players = players if isinstance(players, dict) else {}
    labels = {s: str(players.get(str(s), "")) for s in Seat}
    seat = Seat[str(meta["seat"])] if str(meta.get("seat")) in Seat.__members__ else Seat.S
    out = console or Console(highlight=False)
    Viewer(match, seat, labels).run(out, lambda prompt: out.input(prompt))
