"""The plain line mode (``valtti play --plain``) for screen readers: no frames, no redraws.

Each event is one line of the log as it happens; when it is the player's turn a few lines tell
the state of the deal, the trick on the table, the hand and what is legal.
"""

from __future__ import annotations

from valtti.terminal.i18n import _
from valtti.terminal.phrases import (
    event_text,
    legal_text,
    played_by,
    score_text,
    seat_text,
    seats_text,
    team_text,
)
from valtti.terminal.screen import View, variant_text


def turn_lines(view: View) -> list[str]:
    """What a player needs to know to move, a fact a line."""
    obs = view.observation
    trumps = (
        _("none yet")
        if obs.trump is None or obs.trump_team is None
        else f"{obs.trump.symbol} ({team_text(obs.trump_team)})"
    )
    lines = [
        " · ".join(
            (
                _("Deal {number}").format(number=view.deal_number),
                _("trick {number}/9").format(number=min(len(obs.tricks) + 1, 9)),
                _("Trumps") + ": " + trumps,
                _("Match")
                + ": "
                + score_text(obs.score or (0, 0))
                + " "
                + _("(to {target})").format(target=obs.variant.target),
                variant_text(view),
            )
        )
    ]
    if obs.events:
        said = "; ".join(event_text(e) for e in obs.events)
        lines.append(_("Marriages and questions") + ": " + said)
    if obs.locked:
        lines.append(_("Locked") + ": " + seats_text(obs.locked))
    trick = obs.current_trick
    if trick is not None and trick.cards:
        plays = ", ".join(f"{seat_text(s)} {c.unicode()}" for s, c in trick.plays)
        winner = played_by(trick, view.winning)
        line = _("Trick {number}").format(number=trick.number) + ": " + plays
        if winner is not None:
            line += "; " + _("{seat} wins so far").format(seat=seat_text(winner))
        lines.append(line)
    lines.append(
        _("Your hand ({seat})").format(seat=seat_text(obs.seat))
        + ": "
        + " ".join(f"{n}:{c.unicode()}" for n, c in enumerate(obs.hand, start=1))
    )
    lines.append(_("Legal") + ": " + legal_text(obs.hand, obs.legal_actions))
    return lines
