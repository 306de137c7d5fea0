"""The hint in the player's words: each legal move's value, its share of the worlds where it is
best and the main reason (``coach.explain``), translated.

A ``Reason`` is a code with arguments; ``REASONS`` gives each code's catalogue message,
addressed to the player to move. ``valtti hint`` and the terminal's ``hint`` share these lines.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from valtti.coach.explain import Explanation, Hint, Reason, ReasonCode
from valtti.engine import ActionKind, Seat
from valtti.terminal.commands import action_words
from valtti.terminal.i18n import N_, _, decimal, ngettext, percent
from valtti.terminal.phrases import seat_text

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderResult

#: The message of each reason code; ``{card}``, ``{suit}`` and ``{points}`` are its arguments.
REASONS: Final[dict[ReasonCode, str]] = {
    ReasonCode.KEEPS_LAST: N_("keeps {card} for the last trick"),
    ReasonCode.TAKES_LAST: N_("your partner takes the last trick"),
    ReasonCode.GIVES_UP_LAST: N_("gives up the last trick"),
    ReasonCode.TAKES_VICTORY: N_("takes the victory point (over 60)"),
    ReasonCode.GIVES_UP_VICTORY: N_("gives up the victory point"),
    ReasonCode.DECLARES: N_("declares {suit}: trumps, +2"),
    ReasonCode.MAKES_MARRIAGE: N_("your team makes the {suit} marriage (+{points})"),
    ReasonCode.MISSES_MARRIAGE: N_("your team misses the {suit} marriage"),
    ReasonCode.LOCKS_MARRIAGE: N_("its locks break your {suit} marriage"),
    ReasonCode.STOPS_MARRIAGE: N_("stops the opponents' {suit} marriage"),
    ReasonCode.ALLOWS_MARRIAGE: N_("lets the opponents make the {suit} marriage"),
    ReasonCode.REACHES_TARGET: N_("reaches the target exactly"),
    ReasonCode.MISSES_TARGET: N_("misses the target"),
    ReasonCode.STOPS_OPPONENTS: N_("stops the opponents reaching the target"),
    ReasonCode.LETS_OPPONENTS_WIN: N_("lets the opponents reach the target"),
    ReasonCode.SECURES_DRAW: N_("the match ends in a draw"),
    ReasonCode.ENDS_IN_DRAW: N_("the match ends in a draw"),
    ReasonCode.AVOIDS_DRAW: N_("the match goes on instead of ending in a draw"),
    ReasonCode.MISSES_DRAW: N_("the match goes on instead of ending in a draw"),
    ReasonCode.AVOIDS_OVERSHOOT: N_("avoids overshooting the target"),
    ReasonCode.OVERSHOOTS: N_("overshoots the target: back to {points}"),
    ReasonCode.OPPONENTS_OVERSHOOT: N_("the opponents overshoot the target: back to {points}"),
    ReasonCode.OPPONENTS_AVOID_OVERSHOOT: N_("the opponents avoid overshooting the target"),
    ReasonCode.SAVES_PORVOO: N_("saves your team from Porvoo"),
    ReasonCode.RISKS_PORVOO: N_("risks Porvoo for your team"),
    ReasonCode.SENDS_TO_PORVOO: N_("sends the opponents to Porvoo"),
    ReasonCode.FREES_OPPONENTS: N_("lets the opponents escape Porvoo"),
    ReasonCode.WINS_POINTS: N_("wins {points} card points more"),
    ReasonCode.LOSES_POINTS: N_("loses {points} card points"),
    ReasonCode.ONLY: N_("the only legal move"),
    ReasonCode.BEST_ON_AVERAGE: N_("the best on average"),
    ReasonCode.AS_GOOD: N_("as good as the best"),
    ReasonCode.ABOUT_EQUAL: N_("about equal: the difference is within chance"),
    ReasonCode.WORSE_ON_AVERAGE: N_("worse on average"),
}
#: The widest the moves' column grows: longer lists of moves alike push their line only.
MOVES_WIDTH: Final = 12
#: The messages a code's arguments choose instead of ``REASONS``'s.
LITTLE_TRUMP: Final = N_("declares {suit}: a little trump, +1")
PARTNERS_MARRIAGE: Final = N_("its locks break your partner's {suit} marriage")


def message(reason: Reason) -> str:
    """The untranslated message of ``reason``: its code's, or the one its arguments choose."""
    if reason.code is ReasonCode.DECLARES and reason.points == 1:
        return LITTLE_TRUMP
    if reason.code is ReasonCode.LOCKS_MARRIAGE and reason.partner:
        return PARTNERS_MARRIAGE
    return REASONS[reason.code]


def reason_words(reason: Reason, even: bool = True) -> str:
    """The reason in the active language, addressed to the player to move; one that not every
    deal of the hint shows says in how many of them it does (certain words only where all do),
    and where the deals weigh differently (``even`` false) its share of their weight too."""
    words = _(message(reason)).format(
        card=None if reason.card is None else reason.card.unicode(),
        suit=None if reason.suit is None else reason.suit.symbol,
        points=reason.points,
    )
    if reason.share is None or reason.deals is None or reason.shown is None or reason.certain:
        return words
    if even:
        return ngettext(
            "in {k} of the {n} deal: {reason}",
            "in {k} of the {n} deals: {reason}",
            reason.deals,
        ).format(k=reason.shown, n=reason.deals, reason=words)
    return ngettext(
        "in {k} of the {n} deal ({share} by likelihood): {reason}",
        "in {k} of the {n} deals ({share} by likelihood): {reason}",
        reason.deals,
    ).format(k=reason.shown, n=reason.deals, share=percent(reason.share), reason=words)


#: The hint's levels, as a player reads them.
_LEVELS: Final = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}


def nobody_to_move(path: Path) -> str:
    """Why there is no hint for the record at ``path``."""
    return _("{path}: nobody is to move where the record stops").format(path=path)


def to_move_line(seat: Seat, level: str) -> str:
    """Whose move the hint is for, and the level of the player that gives it."""
    return _("{seat} to move; the hint of the PIMC player ({level}).").format(
        seat=seat_text(seat), level=_(_LEVELS[level]) if level in _LEVELS else level
    )


def hint_heading(explanations: Sequence[Explanation]) -> str:
    """The computer player's choice, and how many moves follow; in answer to ``ask-whole`` the
    choice is a suit to name."""
    n = len(explanations)
    choice = explanations[0].action
    if choice.kind is ActionKind.ANSWER and choice.suit is not None:
        return ngettext(
            "The computer player would name {suit}, your {n} legal answer:",
            "The computer player would name {suit}. Each of your {n} legal answers:",
            n,
        ).format(suit=choice.suit.symbol, n=n)
    return ngettext(
        "The computer player would choose {action}, your {n} legal move:",
        "The computer player would choose {action}. Each of your {n} legal moves:",
        n,
    ).format(action=action_words(explanations[0].action), n=n)


def hint_key(hint: Hint, short: bool = False) -> str:
    """What the columns of ``hint_lines`` say, which deals they rest on (every possible one, or
    a sample) and how close the top two moves are; ``short``: on the reply frame's edge at 80
    columns (``screen.Keyed``), as a terminal too small for the long key shows it."""
    n = hint.deals
    if not n:
        return _("value: — · best: — (a forced move: nothing to weigh)")
    if short:
        text = (
            _("value: match equity change · best: share of all {n} possible deals where best")
            if hint.exact
            else _("value: match equity change · best: share of {n} sampled deals where best")
        )
    elif hint.exact:
        text = _(
            "value: the change of your team's match equity (the chance to win less the chance "
            "to lose), the mean over all {n} possible deals, each weighed by how likely the "
            "play so far makes it; best: the share of them where it is the best move (a tie "
            "shared)"
        )
    else:
        text = _(
            "value: the change of your team's match equity (the chance to win less the chance "
            "to lose), the mean over {n} sampled deals, drawn as likely as the play so far makes "
            "them; best: the share of them where it is the best move (a tie shared)"
        )
    text = text.format(n=n)
    if hint.fallback and not short:
        text += _(
            " (no deal drawn fits the play so far as the model of play expects: they are "
            "weighed alike)"
        )
    first, second = hint.moves[0], hint.moves[1]
    if short or first.value is None or second.value is None or first.error is None:
        return text
    if hint.exact:
        return _("{key}. The top two differ by {gap}.").format(
            key=text, gap=decimal(first.value - second.value, 2)
        )
    return _("{key}. The top two differ by {gap} ± {error}.").format(
        key=text,
        gap=decimal(first.value - second.value, 2),
        error=decimal(first.error, 2),
    )


def _signed(value: float) -> str:
    """``value`` to two decimals with its sign, as the web's hint shows it: none on a value that
    rounds to zero, which is no gain or loss."""
    text = decimal(value, 2, signed=True)
    return text[1:] if text == decimal(0.0, 2, signed=True) else text


def hint_lines(hint: Hint) -> list[str]:
    """A header, then one line a move, best first: the move, its value, its share of deals
    and the reason; moves alike in all three share a line."""
    rows: list[tuple[list[str], str, str, str]] = []
    for e in hint.moves:
        value = "—" if e.value is None else _signed(e.value)
        best = "—" if e.best_share is None else percent(e.best_share)
        shown = (value, best, reason_words(e.reason, hint.even))
        if rows and rows[-1][1:] == shown:
            rows[-1][0].append(action_words(e.action))
        else:
            rows.append(([action_words(e.action)], *shown))
    moves = [", ".join(r[0]) for r in rows]
    move, value, best, why = _("move"), _("value"), _("best"), _("why")
    width = min(max(len(move), *map(len, moves)), MOVES_WIDTH)
    values, shares = max(5, len(value)), max(4, len(best))
    lines = [f"{move:<{width}} {value:>{values}} {best:>{shares}}  {why}"]
    for m, (_moves, v, s, r) in zip(moves, rows, strict=True):
        if len(m) > width:  # too many moves alike for the column: on a line of their own
            lines.append(m)
            m = ""
        lines.append(f"{m:<{width}} {v:>{values}} {s:>{shares}}  {r}")
    return lines


def reason_column(lines: Sequence[str]) -> int:
    """Where the reasons begin on ``hint_lines``'s lines: their header ends with that column's
    title."""
    return len(lines[0]) - len(_("why"))


@dataclass(frozen=True, slots=True)
class Hanging:
    """One of ``hint_lines``'s lines, wrapped to the width it is drawn at with its later lines
    under the reasons' column (wrapped whole, a reason ran back under the moves)."""

    line: str
    indent: int

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.text import Text  # here: ``valtti hint`` prints its lines without rich

        width = options.max_width
        indent = self.indent if self.indent < width // 2 else 0
        for part in textwrap.wrap(self.line, width, subsequent_indent=" " * indent) or [""]:
            yield Text(part)
