"""A review in the player's words (``coach.review``): a legend of the marks and the unit, then
for each deal a line of the match equity over its decisions with their marks under it, what each
reviewed team lost, its costliest decisions with the better move and its reason, and, in full,
every decision.

``valtti review`` and the terminal's ``review`` share these lines; they fit 80 columns. Every
loss is in match equity, and a team none of whose seats was reviewed is not named. ``drawn``
says whether the line is drawn (the screen, ``valtti review``) or told in words (the line mode,
for screen readers).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Collection, Sequence
from typing import Final

from rich.text import Text

from valtti.coach.review import MARKS, DealReview, MatchReview, Reviewed, review
from valtti.engine import Match, Seat, Team
from valtti.players.equity import match_equity
from valtti.terminal.commands import action_words
from valtti.terminal.hints import reason_words
from valtti.terminal.i18n import _, decimal, ngettext
from valtti.terminal.phrases import seat_text, team_text
from valtti.terminal.rulebook import Page

#: The width the review's lines wrap at: inside the terminal's reply frame at 80 columns.
WIDTH: Final = 76
#: The line's heights, from a match equity of −1 (the team has lost) to 1 (it has won), each an
#: eighth of the range; plain ASCII stand-ins in ``glyphs.STAND_INS``.
LEVELS: Final = "▁▂▃▄▅▆▇█"
#: The columns a point of the line takes: three, so that a mark (``??``) fits under its decision
#: with a space before the next one's.
POINT: Final = 3
#: A space the lines are not broken at.
NBSP: Final = "\u00a0"


def _reviewed_teams(seats: Collection[Seat]) -> list[tuple[Team, str]]:
    """Each team with a reviewed seat, and how it is named: the team where both its seats were
    reviewed, the seat where one was."""
    named = []
    for team in Team:
        mine = [seat for seat in sorted(seats) if seat.team is team]
        if len(mine) == 2:
            named.append((team, team_text(team)))
        elif len(mine) == 1:
            named.append((team, seat_text(mine[0])))
    return named


def _losses(lost: tuple[float, float], seats: Collection[Seat]) -> str:
    """The reviewed teams' losses, e.g. ``NS 0.06, EW 0.12`` or ``N 0.06``."""
    return ", ".join(f"{name} {decimal(lost[team], 2)}" for team, name in _reviewed_teams(seats))


def _unsolved(count: int) -> str:
    """What the open-hand sums leave out, if anything."""
    if not count:
        return ""
    return " " + ngettext(
        "({count} decision was not solved with every hand open within the review's budget.)",
        "({count} decisions were not solved with every hand open within the review's budget.)",
        count,
    ).format(count=count)


def line_team(seats: Collection[Seat]) -> Team:
    """Whose match equity the deals' lines show: the reviewed seats' team where they are of one
    team, else NS."""
    teams = {seat.team for seat in seats}
    return teams.pop() if len(teams) == 1 else Team.NS


def legend(seats: Collection[Seat], drawn: bool = True) -> list[str]:
    """What the marks, the unit and (``drawn``) the deals' lines mean, wrapped: the marks in
    one line."""
    marks = ", ".join(f"{mark} {decimal(least, 2)}" for least, mark in sorted(MARKS))
    marked = _("A move is marked where it lost at least: {marks}.").format(marks=marks)
    if drawn:
        unit = _(
            "Match equity: a team's chance to win the match less its chance to lose it. Each "
            "deal's line: {team}'s at its start, after each decision and at its end, from "
            "{lowest}-1 to {highest}+1."
        ).format(  # a block stays with its number
            team=team_text(line_team(seats)), lowest=LEVELS[0] + NBSP, highest=LEVELS[-1] + NBSP
        )
    else:
        unit = _(
            "Match equity: a team's chance to win the match less its chance to lose it, from -1 "
            "to +1."
        )
    return [*textwrap.wrap(marked, WIDTH), *textwrap.wrap(unit, WIDTH)]


def _level(equity: float) -> str:
    """The block for a match equity of −1 to 1."""
    return LEVELS[min(len(LEVELS) - 1, max(0, int((equity + 1) / 2 * len(LEVELS))))]


def equity_rows(
    team: Team, start: float, decisions: Sequence[Reviewed], end: float | None
) -> list[str]:
    """``team``'s match equity as a line: its value at the deal's start, a block for each
    decision (``Reviewed.equity``, NS's) and one for the deal's end (``end``, NS's; ``None``
    while the deal is being played), between the start's and the end's values; each decision's
    mark under its block. A line too long for one row goes on in the next."""
    sign = 1.0 if team is Team.NS else -1.0
    values = [start, *(d.equity for d in decisions), *([] if end is None else [end])]
    marks = [None, *(d.mark for d in decisions), None]
    label = f"{team_text(team)} {decimal(sign * start, 2, signed=True)} "
    last = "" if end is None else " " + decimal(sign * end, 2, signed=True)
    per_row = (WIDTH - len(label) - len(last)) // POINT
    rows = []
    for first in range(0, len(values), per_row):
        chunk = range(first, min(first + per_row, len(values)))
        margin = label if first == 0 else " " * len(label)
        line = "".join(_level(sign * values[i]) * POINT for i in chunk)
        rows.append(margin + line + (last if chunk.stop == len(values) else ""))
        under = "".join((marks[i] or "").ljust(POINT) for i in chunk).rstrip()
        if under:
            rows.append(" " * len(label) + under)
    return rows


def _equity_words(team: Team, start: float, end: float | None) -> str:
    """The line in words, for the line mode."""
    sign = 1.0 if team is Team.NS else -1.0
    words = {"team": team_text(team), "start": decimal(sign * start, 2, signed=True)}
    if end is None:
        return _("{team}'s match equity at the start: {start}.").format(**words)
    return _("{team}'s match equity: {start} at the start, {end} at the end.").format(
        end=decimal(sign * end, 2, signed=True), **words
    )


def deal_heading(deal: DealReview, seats: Collection[Seat]) -> str:
    """What each reviewed team lost in the deal, on what its seats knew and with every hand
    open."""
    return _(
        "Deal {number}: lost on what each seat knew {lost} of match equity; with every hand "
        "open {open}."
    ).format(
        number=deal.number,
        lost=_losses(deal.lost, seats),
        open=_losses(deal.exact_lost, seats),
    ) + _unsolved(deal.unsolved)


def costly_lines(rank: int, decision: Reviewed) -> list[str]:
    """One costly decision: who played what (with its mark), the better move by how much and
    why; the best move with every hand open."""
    words = {
        "rank": rank,
        "trick": decision.trick,
        "seat": seat_text(decision.seat),
        "played": action_words(decision.played),
        "mark": decision.mark or "",
        "best": action_words(decision.best),
        "loss": decimal(decision.loss, 2),
        "deals": decision.deals,
        "reason": "—" if decision.reason is None else reason_words(decision.reason, decision.even),
    }
    if decision.every_deal:
        text = _(
            "{rank}. Trick {trick}, {seat} played {played}{mark}: {best} was better by {loss} of "
            "match equity on what {seat} knew (all {deals} possible deals), because {reason}."
        ).format(**words)
    else:
        text = _(
            "{rank}. Trick {trick}, {seat} played {played}{mark}: {best} was better by {loss} of "
            "match equity on what {seat} knew ({deals} deals), because {reason}."
        ).format(**words)
    if decision.exact_best is None or decision.exact_loss is None:
        text += " " + _("With every hand open it was not solved within the review's budget.")
    elif decimal(decision.exact_loss, 2) != decimal(0.0, 2):  # what shows as 0.00 is none
        text += " " + _(
            "With every hand open the best was {exact_best}, {exact_loss} better than {played}."
        ).format(
            exact_best=action_words(decision.exact_best),
            exact_loss=decimal(decision.exact_loss, 2),
            played=words["played"],
        )
    else:
        text += " " + _("With every hand open {played} was as good as any.").format(**words)
    return textwrap.wrap(text, WIDTH, subsequent_indent="   ")


def deal_summary(
    deal: DealReview, seats: Collection[Seat], end: float | None, drawn: bool = True
) -> list[str]:
    """The deal's heading, its line (``drawn``; else in words) from its start to ``end`` (NS's
    match equity after the deal, ``None`` while it is played), and its costliest decisions (or
    that none lost anything)."""
    lines = textwrap.wrap(deal_heading(deal, seats), WIDTH)
    team = line_team(seats)
    if drawn:
        lines.extend(equity_rows(team, deal.equity, deal.decisions, end))
    else:
        lines.append(_equity_words(team, deal.equity, end))
    if not deal.costliest:
        lines.append(_("No decision lost anything on what its seat knew."))
    for rank, decision in enumerate(deal.costliest, start=1):
        lines.extend(costly_lines(rank, decision))
    return lines


def decision_table(deal: DealReview) -> list[str]:
    """Every decision of the deal: the trick, the seat, the move played with its mark and its
    value, the best move and its value on what the seat knew, and the loss with every hand
    open."""
    trick, seat, played, value, best = _("trick"), _("seat"), _("played"), _("value"), _("best")
    exact = _("open loss")
    lines = [f"{trick:>5} {seat:<4} {played:<14} {value:>6} {best:<12} {value:>6} {exact:>9}"]
    costly = {d.step for d in deal.costliest}
    for d in deal.decisions:
        star = "*" if d.step in costly else " "
        open_loss = "—" if d.exact_loss is None else decimal(d.exact_loss, 2)
        move = action_words(d.played) + (d.mark or "")
        lines.append(
            f"{d.trick:>5} {seat_text(d.seat):<4} {move:<14} "
            f"{decimal(d.value, 2, signed=True):>6} {action_words(d.best):<12} "
            f"{decimal(d.best_value, 2, signed=True):>6} {open_loss:>8}{star}"
        )
    return lines


def match_total(review: MatchReview, full: bool = False) -> list[str]:
    """What each reviewed team lost over the reviewed deals, on what its seats knew and with
    every hand open (``full``: saying what marks the costliest in the decisions' tables)."""
    text = _(
        "The match: lost on what each seat knew {lost} of match equity; with every hand open "
        "{open}."
    ).format(
        lost=_losses(review.lost, review.seats), open=_losses(review.exact_lost, review.seats)
    ) + _unsolved(review.unsolved)
    if full:
        text += " " + _("* marks the costliest.")
    return textwrap.wrap(text, WIDTH)


def deal_end(match: Match, number: int) -> float | None:
    """NS's match equity after deal ``number`` (from 1) of ``match``: the score it left (1 or −1
    where it ended the match), ``None`` while it is being played."""
    scores = match.deal_scores
    if number > len(scores):
        return None
    return match_equity(match.variant)(scores[number - 1].after)


def review_lines(
    review: MatchReview, match: Match, full: bool = False, drawn: bool = True
) -> list[str]:
    """The whole review of ``match``: the legend, each deal's summary (``full``: with every
    decision), then the match's losses by reviewed team. Losses are changes of match equity for
    the mover's team; the lines are drawn (``drawn``) or told in words."""
    lines = [*legend(review.seats, drawn), ""]
    for deal in review.deals:
        lines.extend(deal_summary(deal, review.seats, deal_end(match, deal.number), drawn))
        if full:
            lines.extend(decision_table(deal))
        lines.append("")
    return lines + match_total(review, full)


def review_reply(
    match: Match,
    seat: Seat,
    number: int | None = None,
    reviewing: Callable[[str], None] = lambda _line: None,
) -> str | Page:
    """The terminal's ``review``: ``seat``'s decisions in deal ``number`` of ``match``; with no
    number, in the last finished deal, or in every deal once the match is over (each deal's
    line and costliest, and what your team lost over the match). A review is a page in the
    table's place (read whole, in pages where it is long; Enter goes back), its line drawn on
    the screen and told in words in the line mode; a refusal a line. A deal being played is
    never reviewed: its hands are still hidden. ``reviewing`` is told what is being reviewed
    before the work starts (a deal takes seconds, a match up to a minute)."""
    finished = [n for n, deal in enumerate(match.deals, start=1) if deal.is_over()]
    if number is None and match.is_over():
        reviewing(_("Reviewing your decisions in the whole match (up to a minute)…"))
        whole = review(match, [seat])
        title = [_("Your decisions in each deal of the match:"), ""]
        return _page(*(title + review_lines(whole, match, drawn=d) for d in (True, False)))
    if number is None and not finished:
        return _("No deal has finished yet: there is nothing to review.")
    if number is not None and not 1 <= number <= len(match.deals):
        return _("There is no deal {number}: the deals so far are 1 to {dealt}.").format(
            number=number, dealt=len(match.deals)
        )
    if number is not None and number not in finished:
        return _("Deal {number} is being played: it is reviewed once it ends.").format(
            number=number
        )
    chosen = number or finished[-1]
    reviewing(_("Reviewing your decisions in deal {number}…").format(number=chosen))
    (deal,) = review(match, [seat], numbers=[chosen]).deals
    end = deal_end(match, chosen)
    return _page(
        *([*legend([seat], d), "", *deal_summary(deal, [seat], end, d)] for d in (True, False))
    )


def _page(drawn: list[str], told: list[str]) -> Page:
    """The review on the screen (its lines drawn) and in the line mode (told in words)."""
    return Page(Text("\n".join(drawn)), "\n".join(told))
