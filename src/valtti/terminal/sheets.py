"""The score sheets on the terminal, drawn with rich: the tricks taken, a deal's end and how its
game points were made, the match's deals one a row, who won the match.

The table itself (``screen``) shows the deal in play; these are the replies and the ends of
deals and matches shown under it, and the replay's.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from valtti.engine import DealResult, DealScore, Event, Seat, Suit, Team, Trick
from valtti.terminal.i18n import _
from valtti.terminal.phrases import score_text, seat_text, team_text
from valtti.terminal.screen import card_text, suit_style, team_columns


def tricks_table(tricks: Sequence[Trick], you: Seat) -> RenderableType:
    """The tricks of the deal so far, one a row: who led, each seat's card, who took it."""
    grid = Table(box=None, padding=(0, 1), pad_edge=False, show_edge=False)
    grid.add_column(_("trick"), justify="right")
    grid.add_column(_("led"), justify="center")
    for s in Seat:
        style = "bold" if s == you else ""
        grid.add_column(seat_text(s), justify="right", header_style=style)
    grid.add_column(_("taken by"), justify="center")
    grid.add_column(_("points"), justify="right")
    for trick in tricks:
        plays = dict(trick.plays)
        # The card that took the trick is bold and underlined.
        cards = [
            Text("")
            if s not in plays
            else card_text(plays[s], "bold underline" if s == trick.winner else "")
            for s in Seat
        ]
        grid.add_row(
            str(trick.number),
            seat_text(trick.leader),
            *cards,
            "" if trick.winner is None else seat_text(trick.winner),
            "" if trick.winner is None else str(trick.points),
        )
    return grid


def deal_summary(
    number: int,
    result: DealResult,
    score: DealScore,
    events: Sequence[Event],
    you: Seat,
    target: int,
    *,
    framed: bool = True,
    columns: bool = True,
) -> RenderableType:
    """The end of a deal: the three columns, how the game points were made, the match score.

    Without ``columns`` the three columns are left out (the compact table shows them); not
    ``framed``, it is lines of text for the plain line mode.
    """
    lines = Text()
    for team in Team:
        lines.append(f"{team_text(team)}: ", style="bold")
        lines.append(_made_of(team, result, events) + "\n")
    for team in Team:
        lines.append(_score_change(team, score, target) + "\n")
    lines.rstrip()
    title = _("Deal {number} is over").format(number=number)
    parts = [team_columns(result, you, framed), lines] if columns else [lines]
    if not framed:
        return Group(Text(title, style="bold"), *parts)
    return Panel(Group(*parts), title=title, title_align="left", border_style="green")


def _made_of(team: Team, result: DealResult, events: Sequence[Event]) -> str:
    parts = []
    for e in events:
        if e.yes and e.team == team and e.suit is not None:
            trumps = e.points == 2
            made = _("{suit} trumps {points}") if trumps else _("little trump {suit} {points}")
            parts.append(made.format(suit=e.suit.symbol, points=e.points))
    if result.last == team:
        parts.append(_("last trick 1"))
    if result.victory == team:
        parts.append(
            _("victory ({card_points} card points) 1").format(card_points=result.card_points[team])
        )
    made = " + ".join(parts) if parts else _("nothing")
    return f"{made} = {result.game_points[team]}"


def _score_change(team: Team, score: DealScore, target: int) -> str:
    before, points, after = score.before[team], score.game_points[team], score.after[team]
    if score.porvoo[team]:
        return _("{team} took no trick: to Porvoo, {before} → 0").format(
            team=team_text(team), before=before
        )
    if score.overshoot[team]:
        return _("{team} {before} + {points} = {total}, over {target}: back to {after}").format(
            team=team_text(team),
            before=before,
            points=points,
            total=before + points,
            target=target,
            after=after,
        )
    return _("{team} {before} + {points} = {after}").format(
        team=team_text(team), before=before, points=points, after=after
    )


def match_table(
    deals: Sequence[tuple[Seat, Suit | None]],
    scores: Sequence[DealScore],
    framed: bool = True,
    newest_first: bool = False,
    marked: bool | None = None,
) -> RenderableType:
    """One row per finished deal: dealer, trumps, the game points, the score after it and what
    moved it besides the points (a team to Porvoo, a team over the target: a column ``marked``
    by itself where a deal did); ``newest_first``: the last deal on top. The columns' titles
    and the numbers are never cut nor wrapped: where the width is short, the marks wrap."""
    grid = Table(box=box.SIMPLE_HEAD if framed else None, padding=(0, 1), show_edge=False)
    for title in (_("deal"), _("dealer"), _("trumps"), *map(team_text, Team), _("score")):
        grid.add_column(title, justify="right", no_wrap=True)
    marks = _marked(scores) if marked is None else marked
    if marks:
        grid.add_column("", justify="left")
    rows = list(enumerate(zip(deals, scores, strict=False), start=1))
    for number, ((dealer, trump), s) in reversed(rows) if newest_first else rows:
        grid.add_row(
            str(number),
            seat_text(dealer),
            Text("–") if trump is None else Text(trump.symbol, style=suit_style(trump)),
            f"+{s.game_points[Team.NS]}",
            f"+{s.game_points[Team.EW]}",
            f"{s.after[Team.NS]} – {s.after[Team.EW]}",
            *([_score_marks(s)] if marks else []),
        )
    return grid


def final_score(
    result: RenderableType,
    last: RenderableType,
    deals: Sequence[tuple[Seat, Suit | None]],
    scores: Sequence[DealScore],
    framed: bool = True,
) -> tuple[RenderableType, RenderableType]:
    """The match's end on a page of its own: its title, ``result`` (who won), every deal, the
    newest (the deciding one) first, and ``last`` (how the last deal was scored); and its
    heading, down to the deals' columns' titles, which tops each page where the terminal is
    too small for it whole."""
    title = Text(_("The match is over"), style="bold green")
    table = match_table(deals, scores, framed=framed, newest_first=True)
    titles = match_table(deals[:0], scores[:0], framed=framed, marked=_marked(scores))
    return (
        Group(title, result, Text(""), table, Text(""), last),
        Group(title, result, Text(""), titles),
    )


def _marked(scores: Sequence[DealScore]) -> bool:
    """Whether a deal of ``scores`` sent a team to Porvoo or back from over the target."""
    return any(any(s.porvoo) or any(s.overshoot) for s in scores)


def _score_marks(score: DealScore) -> str:
    """A team sent to Porvoo or back from over the target by the deal, in a few words."""
    marks = []
    for team in Team:
        if score.porvoo[team]:
            marks.append(_("{team} to Porvoo").format(team=team_text(team)))
        if score.overshoot[team]:
            marks.append(_("{team} over target").format(team=team_text(team)))
    return ", ".join(marks)


def result_line(winner: Team | None, draw: bool, score: tuple[int, int], you: Seat | None) -> str:
    """Who won the match, from the player's side (``None``: nobody's, a record of others)."""
    shown = score_text(score)
    if draw:
        return _("The match is a draw, both teams on target: {score}").format(score=shown)
    if you is not None and winner == you.team:
        return _("You and your partner win the match: {score}").format(score=shown)
    assert winner is not None  # not a draw
    return _("{team} win the match: {score}").format(team=team_text(winner), score=shown)
