"""The game in the player's words: events, tricks, locks and the engine's reasons, translated.

The engine explains an illegal action in English (``Deal.why_illegal``); ``reason_text`` turns
each of its explanations into a catalogue message addressed to the player to move.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final

from valtti.engine import Card, Event, Observation, Seat, Suit, Team, Trick
from valtti.terminal.i18n import N_, NC_, _, ngettext, pgettext

_SEAT: Final = r"[NESW]"
_SUIT: Final = r"(?P<suit>[SHDC])"
_CARD: Final = r"(?P<card>[6-9TJQKA][SHDC])"

#: The engine's reasons (``Deal.why_illegal``), each with the message it is shown as.
REASONS: Final[tuple[tuple[re.Pattern[str], str], ...]] = tuple(
    (re.compile(pattern + "$"), message)
    for pattern, message in (
        (r"the deal is over", N_("the deal is over")),
        (
            # "\S+'s": the engine's text has a literal "{x}" there (an f-string slip).
            rf"{_SEAT} must first answer (?P<seat>{_SEAT})'s question by naming one of "
            r"\S+'s marriages \(RULES\.md 4\.2b\)",
            N_("you must first answer {seat}'s question by naming one of your marriages"),
        ),
        (rf"{_SEAT} does not hold {_CARD}", N_("you do not hold {card}")),
        (
            r"the leader of trick 1 must lead an ace when holding one \(first_trick_ace=on\)",
            N_("the leader of trick 1 must lead an ace when holding one"),
        ),
        (
            rf"{_SEAT} must follow suit: {_SUIT} was led \(RULES\.md 3\.2a\)",
            N_("you must follow suit: {suit} was led"),
        ),
        (
            rf"{_SEAT} must follow {_SUIT} with a card that beats {_CARD} "
            r"\(RULES\.md 3\.2a, 3\.3\)",
            N_("you must follow {suit} with a card that beats {card} when you have one"),
        ),
        (
            rf"{_SEAT} has no {_SUIT} and must play a trump \((?P<trump>[SHDC])\) "
            r"\(RULES\.md 3\.2b\)",
            N_("you have no {suit} and must play a trump ({trump})"),
        ),
        (
            rf"{_SEAT} has no {_SUIT} and must play a trump that beats {_CARD} "
            r"\(RULES\.md 3\.2b\)",
            N_("you have no {suit} and must play a trump that beats {card} when you have one"),
        ),
        (
            r"there is no declaration before trick 1 \(RULES\.md 4\.1\)",
            N_("there are no declarations or questions before trick 1"),
        ),
        (
            rf"{_SEAT} has already made this window's one declaration or question and must lead "
            r"\(RULES\.md 4\.2\)",
            N_("you have made your one declaration or question of this turn and must now lead"),
        ),
        (
            r"declarations and questions are made only by a trick's winner before leading the "
            r"next \(RULES\.md 4\.1\)",
            N_("only a trick's winner may declare or ask, before leading the next trick"),
        ),
        (
            rf"{_SUIT} has already been declared this deal \(RULES\.md 4\.4\)",
            N_("{suit} has already been declared this deal"),
        ),
        (
            rf"{_SEAT} does not hold both K{_SUIT} and Q(?P=suit)",
            N_("you do not hold both the king and the queen of {suit}"),
        ),
        (
            rf"{_SEAT} is locked by an earlier question: {_SEAT}'s own marriages are broken "
            r"\(RULES\.md 4\.3\)",
            N_("you are locked by an earlier question: your own marriages are broken"),
        ),
        (
            r"(?P<team>NS|EW) made trumps this deal and may not ask for a whole marriage "
            r"\(whole_ask_after_trump=not_trump_team\)",
            N_("your team made trumps this deal and may not ask for a whole marriage"),
        ),
        (
            r"no one may ask for a whole marriage once trumps are set "
            r"\(whole_ask_after_trump=nobody\)",
            N_("no one may ask for a whole marriage once trumps are set"),
        ),
        (
            rf"asking for half {_SUIT} needs exactly one of K(?P=suit) and Q(?P=suit) in hand "
            r"\(RULES\.md 4\.2c\)",
            N_("asking for half {suit} needs exactly one of its king and queen in your hand"),
        ),
        (r"no question is waiting for an answer", N_("no question is waiting for an answer")),
        (
            rf"{_SEAT} cannot name {_SUIT}: no unbroken, undeclared K(?P=suit)\+Q(?P=suit) in hand "
            r"\(RULES\.md 4\.2b\)",
            N_("you cannot name {suit}: you hold no unbroken, undeclared marriage of {suit}"),
        ),
    )
)


def translate_reason(reason: str) -> str | None:
    """The catalogue's form of an engine reason, or ``None`` if the engine said something new."""
    for pattern, message in REASONS:
        found = pattern.match(reason)
        if found is not None:
            fields = found.groupdict()
            card = fields.get("card")
            return _(message).format(
                seat=fields.get("seat"),
                suit=_symbol(fields.get("suit")),
                trump=_symbol(fields.get("trump")),
                card=None if card is None else Card.parse(card).unicode(),
            )
    return None


def reason_text(reason: str) -> str:
    """An engine reason addressed to the player to move; an unknown one is shown as it is."""
    return translate_reason(reason) or reason


def _symbol(suit: str | None) -> str | None:
    return None if suit is None else Suit.parse(suit).symbol


#: The seats' letters and the teams' names as the active language writes them (Finnish: P I E L
#: for pohjoinen, itä, etelä, länsi, and the teams PE and IL).
SEAT_LETTERS: Final = (NC_("seat", "N"), NC_("seat", "E"), NC_("seat", "S"), NC_("seat", "W"))
TEAM_NAMES: Final = (NC_("team", "NS"), NC_("team", "EW"))


def seat_text(seat: Seat) -> str:
    """A seat's letter in the active language."""
    return pgettext("seat", SEAT_LETTERS[seat])


def team_text(team: Team) -> str:
    """A team's name in the active language."""
    return pgettext("team", TEAM_NAMES[team])


def score_text(score: tuple[int, int]) -> str:
    """A match score by team, e.g. ``NS 4 – EW 7``."""
    return f"{team_text(Team.NS)} {score[Team.NS]} – {team_text(Team.EW)} {score[Team.EW]}"


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(c.unicode() for c in cards)


def seats_text(seats: Iterable[Seat]) -> str:
    return " ".join(seat_text(s) for s in sorted(seats))


def points_text(points: int) -> str:
    return ngettext("{n} point", "{n} points", points).format(n=points)


def event_text(event: Event) -> str:
    """A declaration, or a question and its answer, and what it scored."""
    suit = "" if event.suit is None else event.suit.symbol
    if event.how == "declare":
        said = _("{seat} declares {suit}").format(seat=seat_text(event.seat), suit=suit)
    elif event.how == "ask-whole":
        said = (
            _("{seat} asks for a whole marriage: yes, {suit}")
            if event.yes
            else _("{seat} asks for a whole marriage: no")
        ).format(seat=seat_text(event.seat), suit=suit)
    else:
        said = (
            _("{seat} asks for half {suit}: yes")
            if event.yes
            else _("{seat} asks for half {suit}: no")
        ).format(seat=seat_text(event.seat), suit=suit)
    return said if not event.yes else f"{said} — {marriage_points_text(event)}"


def marriage_points_text(event: Event) -> str:
    """What a declared marriage scored: trumps (2) or a little trump (1)."""
    if event.points == 2:
        return _("{suit} trumps, {team} +2").format(
            suit=_suit_of(event), team=team_text(event.team)
        )
    return _("little trump {suit}, {team} +1").format(
        suit=_suit_of(event), team=team_text(event.team)
    )


def _suit_of(event: Event) -> str:
    assert event.suit is not None  # a declared marriage always has its suit
    return event.suit.symbol


def trick_text(number: int, winner: Seat, points: int) -> str:
    return _("{seat} takes trick {number} ({points})").format(
        seat=seat_text(winner), number=number, points=points_text(points)
    )


def deal_start_text(number: int, dealer: Seat, forehand: Seat) -> str:
    return _("Deal {number}: {dealer} deals, {forehand} leads.").format(
        number=number, dealer=seat_text(dealer), forehand=seat_text(forehand)
    )


def played_by(trick: Trick, card: Card | None) -> Seat | None:
    """Who played ``card`` to ``trick``, if anyone did."""
    return next((seat for seat, c in trick.plays if c == card), None)


def news(before: Observation, after: Observation) -> list[str]:
    """What happened between two observations of one seat, one line per play, trick and event.

    Only what ``after`` shows is told, so nothing hidden from the seat can appear.
    """
    lines = []
    plays_before = _plays(before)
    for seat, card in _plays(after)[len(plays_before) :]:
        lines.append(_("{seat} plays {card}").format(seat=seat_text(seat), card=card.unicode()))
    for trick in after.tricks[len(before.tricks) :]:
        assert trick.winner is not None  # completed tricks have a winner
        lines.append(trick_text(trick.number, trick.winner, trick.points))
    if after.asker is not None and before.asker is None:
        lines.append(_("{seat} asks you for a whole marriage").format(seat=seat_text(after.asker)))
    for event in after.events[len(before.events) :]:
        lines.append(event_text(event))
    # The asker is locked as soon as it asks, but the answering partner is told so after its
    # answer, under the question it answered.
    locked = after.locked - before.locked
    if before.asker is not None:
        locked |= after.locked & {before.asker}
    if after.asker is not None:
        locked -= {after.asker}
    if locked:
        lines.append(_("Locked now: {seats}").format(seats=seats_text(locked)))
    return lines


def _plays(observation: Observation) -> Sequence[tuple[Seat, Card]]:
    plays = [p for t in observation.tricks for p in t.plays]
    if observation.current_trick is not None:
        plays.extend(observation.current_trick.plays)
    return plays
