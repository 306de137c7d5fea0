"""A review in the player's words (``players.review``): each deal's losses by team, its
costliest decisions with the better move and its reason, and, in full, every decision.

``valtti review`` and the terminal's ``review`` share these lines; they fit 80 columns.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Final

from rich.text import Text

from valtti.engine import Match, Seat, Team
from valtti.players.review import DealReview, MatchReview, Reviewed, review
from valtti.terminal.commands import action_words
from valtti.terminal.hints import reason_words
from valtti.terminal.i18n import _, decimal, ngettext
from valtti.terminal.phrases import seat_text, team_text
from valtti.terminal.rulebook import Page

#: The width the review's lines wrap at: inside the terminal's reply frame at 80 columns.
WIDTH: Final = 76


def _lost(known: tuple[float, float], exact: tuple[float, float]) -> dict[str, str]:
    """The teams' names and their losses on what the seats knew and with every hand open, as
    a message's fields."""
    return {
        "ns_team": team_text(Team.NS),
        "ew_team": team_text(Team.EW),
        "ns": decimal(known[Team.NS], 2),
        "ew": decimal(known[Team.EW], 2),
        "open_ns": decimal(exact[Team.NS], 2),
        "open_ew": decimal(exact[Team.EW], 2),
    }


def _unsolved(count: int) -> str:
    """What the open-hand sums leave out, if anything."""
    if not count:
        return ""
    return " " + ngettext(
        "({count} decision was not solved with every hand open within the review's budget.)",
        "({count} decisions were not solved with every hand open within the review's budget.)",
        count,
    ).format(count=count)


def deal_heading(deal: DealReview) -> str:
    """What each team lost in the deal, on what its seats knew and with every hand open."""
    return _(
        "Deal {number}: lost on what each seat knew {ns_team} {ns}, {ew_team} {ew}; with every "
        "hand open {ns_team} {open_ns}, {ew_team} {open_ew}."
    ).format(number=deal.number, **_lost(deal.lost, deal.exact_lost)) + _unsolved(deal.unsolved)


def costly_lines(rank: int, decision: Reviewed) -> list[str]:
    """One costly decision: who played what, the better move by how much and why; the best
    move with every hand open."""
    words = {
        "rank": rank,
        "trick": decision.trick,
        "seat": seat_text(decision.seat),
        "played": action_words(decision.played),
        "best": action_words(decision.best),
        "loss": decimal(decision.loss, 2),
        "deals": decision.deals,
        "reason": "—" if decision.reason is None else reason_words(decision.reason, decision.even),
    }
    if decision.every_deal:
        text = _(
            "{rank}. Trick {trick}, {seat} played {played}: {best} was better by {loss} on what "
            "{seat} knew (all {deals} possible deals), because {reason}."
        ).format(**words)
    else:
        text = _(
            "{rank}. Trick {trick}, {seat} played {played}: {best} was better by {loss} on "
            "what {seat} knew ({deals} deals), because {reason}."
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


def deal_summary(deal: DealReview) -> list[str]:
    """The deal's heading and its costliest decisions (or that none lost anything)."""
    lines = textwrap.wrap(deal_heading(deal), WIDTH)
    if not deal.costliest:
        lines.append(_("No decision lost anything on what its seat knew."))
    for rank, decision in enumerate(deal.costliest, start=1):
        lines.extend(costly_lines(rank, decision))
    return lines


def decision_table(deal: DealReview) -> list[str]:
    """Every decision of the deal: the trick, the seat, the move played and its value, the best
    move and its value on what the seat knew, and the loss with every hand open."""
    trick, seat, played, value, best = _("trick"), _("seat"), _("played"), _("value"), _("best")
    exact = _("open loss")
    lines = [f"{trick:>5} {seat:<4} {played:<12} {value:>6} {best:<12} {value:>6} {exact:>9}"]
    costly = {d.step for d in deal.costliest}
    for d in deal.decisions:
        mark = "*" if d.step in costly else " "
        open_loss = "—" if d.exact_loss is None else decimal(d.exact_loss, 2)
        lines.append(
            f"{d.trick:>5} {seat_text(d.seat):<4} {action_words(d.played):<12} "
            f"{decimal(d.value, 2, signed=True):>6} {action_words(d.best):<12} "
            f"{decimal(d.best_value, 2, signed=True):>6} {open_loss:>8}{mark}"
        )
    return lines


def match_total(review: MatchReview, full: bool = False) -> list[str]:
    """What each team lost over the reviewed deals, on what its seats knew and with every hand
    open (``full``: saying what marks the costliest in the decisions' tables)."""
    text = _(
        "The match: lost on what each seat knew {ns_team} {ns}, {ew_team} {ew}; with "
        "every hand open {ns_team} {open_ns}, {ew_team} {open_ew} (changes of match "
        "equity)."
    ).format(**_lost(review.lost, review.exact_lost)) + _unsolved(review.unsolved)
    if full:
        text += " " + _("* marks the costliest.")
    return textwrap.wrap(text, WIDTH)


def review_lines(review: MatchReview, full: bool = False) -> list[str]:
    """The whole review: each deal's summary (``full``: with every decision), then the match's
    losses by team. Values are changes of match equity for the mover's team."""
    lines: list[str] = []
    for deal in review.deals:
        lines.extend(deal_summary(deal))
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
    costliest, and what each team lost over the match). A review is a page in the table's
    place (read whole, in pages where it is long; Enter goes back), a refusal a line. A deal
    being played is never reviewed: its hands are still hidden. ``reviewing`` is told what is
    being reviewed before the work starts (a deal takes seconds, a match up to a minute)."""
    finished = [n for n, deal in enumerate(match.deals, start=1) if deal.is_over()]
    if number is None and match.is_over():
        reviewing(_("Reviewing your decisions in the whole match (up to a minute)…"))
        whole = review(match, [seat])
        return _page([_("Your decisions in each deal of the match:"), "", *review_lines(whole)])
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
    return _page(deal_summary(deal))


def _page(lines: list[str]) -> Page:
    text = "\n".join(lines)
    return Page(Text(text), text)
