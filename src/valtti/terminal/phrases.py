"""The game in the player's words: events, tricks, locks and the engine's refusals, translated.

The engine says why an action is refused as a ``Refusal`` (``Deal.refusal``): a code and its
arguments. ``reason_text`` gives each code's catalogue message, addressed to the player to move.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from valtti.engine import (
    Action,
    Card,
    Event,
    Observation,
    Refusal,
    RefusalCode,
    Seat,
    Suit,
    Team,
    Trick,
)
from valtti.terminal.commands import action_words
from valtti.terminal.i18n import N_, NC_, _, ngettext, pgettext

#: The message of each refusal code; its fields are the refusal's arguments.
REASONS: Final[dict[RefusalCode, str]] = {
    RefusalCode.OVER: N_("the deal is over"),
    RefusalCode.ANSWER_PENDING: N_(
        "you must first answer {asker}'s question by naming one of your marriages"
    ),
    RefusalCode.NOT_HELD: N_("you do not hold {action}"),
    RefusalCode.FIRST_ACE: N_("the leader of trick 1 must lead an ace when holding one"),
    RefusalCode.FOLLOW: N_("you must follow suit: {suit} was led"),
    RefusalCode.FOLLOW_BEAT: N_(
        "you must follow {suit} with a card that beats {card} when you have one"
    ),
    RefusalCode.TRUMP: N_("you have no {suit} and must play a trump ({trump})"),
    RefusalCode.TRUMP_BEAT: N_(
        "you have no {suit} and must play a trump that beats {card} when you have one"
    ),
    RefusalCode.BEFORE_FIRST_TRICK: N_("there are no declarations or questions before trick 1"),
    RefusalCode.WINDOW_USED: N_(
        "you have made your one declaration or question of this turn and must now lead"
    ),
    RefusalCode.NOT_WINDOW: N_(
        "only a trick's winner may declare or ask, before leading the next trick"
    ),
    RefusalCode.DECLARED: N_("{suit} has already been declared this deal"),
    RefusalCode.NO_MARRIAGE: N_("you do not hold both the king and the queen of {suit}"),
    RefusalCode.LOCKED: N_("you are locked by an earlier question: your own marriages are broken"),
    RefusalCode.WHOLE_TRUMP_TEAM: N_(
        "your team made trumps this deal and may not ask for a whole marriage"
    ),
    RefusalCode.WHOLE_NOBODY: N_("no one may ask for a whole marriage once trumps are set"),
    RefusalCode.HALF_NOT_ONE: N_(
        "asking for half {suit} needs exactly one of its king and queen in your hand"
    ),
    RefusalCode.NO_QUESTION: N_("no question is waiting for an answer"),
    RefusalCode.NOT_ELIGIBLE: N_(
        "you cannot name {suit}: you hold no unbroken, undeclared marriage of {suit}"
    ),
    RefusalCode.NOT_AN_ACTION: N_("{given} is not an action"),
}


#: The messages of ``REASONS`` that speak to the player, told of a seat instead (a record's
#: illegal action is some seat's, not the reader's); ``{seat}`` is the seat to move.
REASONS_OF: Final[dict[RefusalCode, str]] = {
    RefusalCode.ANSWER_PENDING: N_(
        "{seat} must first answer {asker}'s question by naming one of their marriages"
    ),
    RefusalCode.NOT_HELD: N_("{seat} does not hold {action}"),
    RefusalCode.FOLLOW: N_("{seat} must follow suit: {suit} was led"),
    RefusalCode.FOLLOW_BEAT: N_(
        "{seat} must follow {suit} with a card that beats {card} when holding one"
    ),
    RefusalCode.TRUMP: N_("{seat} has no {suit} and must play a trump ({trump})"),
    RefusalCode.TRUMP_BEAT: N_(
        "{seat} has no {suit} and must play a trump that beats {card} when holding one"
    ),
    RefusalCode.WINDOW_USED: N_(
        "{seat} has made the one declaration or question of this turn and must now lead"
    ),
    RefusalCode.NO_MARRIAGE: N_("{seat} does not hold both the king and the queen of {suit}"),
    RefusalCode.LOCKED: N_(
        "{seat} is locked by an earlier question: their own marriages are broken"
    ),
    RefusalCode.WHOLE_TRUMP_TEAM: N_(
        "{seat}'s team made trumps this deal and may not ask for a whole marriage"
    ),
    RefusalCode.HALF_NOT_ONE: N_(
        "asking for half {suit} needs exactly one of its king and queen in {seat}'s hand"
    ),
    RefusalCode.NOT_ELIGIBLE: N_(
        "{seat} cannot name {suit}: they hold no unbroken, undeclared marriage of {suit}"
    ),
}


def reason_text(refusal: Refusal, seat: Seat | None = None) -> str:
    """Why ``refusal``'s action is refused, addressed to the player to move; with ``seat``,
    told of that seat (the one to move) instead."""
    action = refusal.action
    told = REASONS_OF.get(refusal.code) if seat is not None else None
    return _(told or REASONS[refusal.code]).format(
        seat=None if seat is None else seat_text(seat),
        asker=None if refusal.asker is None else seat_text(refusal.asker),
        action=action.card.unicode() if action is not None and action.card is not None else action,
        suit=_symbol(refusal.suit),
        trump=_symbol(refusal.trump),
        card=None if refusal.card is None else refusal.card.unicode(),
        team=None if refusal.team is None else team_text(refusal.team),
        given=refusal.given if isinstance(refusal.given, str) else repr(refusal.given),
    )


def _symbol(suit: Suit | None) -> str | None:
    return None if suit is None else suit.symbol


#: The seats' letters and the teams' names as the active language writes them (Finnish: P I E L
#: for pohjoinen, itä, etelä, länsi, and the teams PE and IL).
SEAT_LETTERS: Final = (NC_("seat", "N"), NC_("seat", "E"), NC_("seat", "S"), NC_("seat", "W"))
TEAM_NAMES: Final = (NC_("team", "NS"), NC_("team", "EW"))


#: The computer players ``valtti play`` offers, by their level, as the web table names them:
#: "heuristic" says nothing to a player. Any other player (a model's file, a program) goes by
#: the name it was given.
PLAYER_NAMES: Final[dict[str, str]] = {
    "random": NC_("player", "random"),
    "beginner": NC_("player", "beginner"),
    "club": NC_("player", "club player"),
    "heuristic": NC_("player", "strong club player"),
    "learned": NC_("player", "learned"),
    "search:easy": NC_("player", "easy"),
    "search:medium": NC_("player", "medium"),
    "search:hard": NC_("player", "expert"),
    "pimc:easy": NC_("player", "easy (PIMC)"),
    "pimc:medium": NC_("player", "medium (PIMC)"),
    "pimc:hard": NC_("player", "hard (PIMC)"),
}


def player_text(spec: str) -> str:
    """What a seat's computer player is called at the table: ``club`` is "club player",
    "kerhopelaaja" (its level, ``players.shipped.LEVELS``); a spec the game does not offer stays
    as it was given."""
    name = PLAYER_NAMES.get(spec.strip().lower())
    return spec if name is None else pgettext("player", name)


def seat_text(seat: Seat) -> str:
    """A seat's letter in the active language."""
    return pgettext("seat", SEAT_LETTERS[seat])


def team_text(team: Team) -> str:
    """A team's name in the active language."""
    return pgettext("team", TEAM_NAMES[team])


def score_text(score: tuple[int, int]) -> str:
    """A match score by team, e.g. ``NS 4 – EW 7``."""
    return f"{team_text(Team.NS)} {score[Team.NS]} – {team_text(Team.EW)} {score[Team.EW]}"


def in_hand_order(hand: Iterable[Card], actions: Iterable[Action]) -> list[Action]:
    """``actions`` as the hand shows them: the cards in the hand's order, then the rest."""
    order: dict[Card | None, int] = {card: i for i, card in enumerate(hand)}
    return sorted(actions, key=lambda a: order.get(a.card, len(order)))  # no card: at the end


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(c.unicode() for c in cards)


def legal_text(hand: Iterable[Card], legal: Iterable[Action]) -> str:
    """What is legal as the hand panel writes it: the cards in the hand's order, then each
    declaration, question or answer, set apart by ``·`` (``Q♠ 8♠ · declare ♣ · ask whole``)."""
    ordered = in_hand_order(hand, legal)
    cards = [a.card for a in ordered if a.card is not None]
    words = [action_words(a) for a in ordered if a.card is None]
    return " · ".join(([cards_text(cards)] if cards else []) + words)


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


def trick_line(trick: Trick) -> str:
    """A taken trick on one line: who took it, then each card in the order played."""
    assert trick.winner is not None  # only a taken trick is told whole
    plays = ", ".join(f"{seat_text(seat)} {card.unicode()}" for seat, card in trick.plays)
    return _("{seat} takes trick {number} ({points}): {plays}").format(
        seat=seat_text(trick.winner),
        number=trick.number,
        points=points_text(trick.points),
        plays=plays,
    )


def trick_lines(trick: Trick) -> list[str]:
    """The lines of the log (``news``) that tell a taken trick: its plays, then who took it."""
    assert trick.winner is not None
    return [play_text(seat, card) for seat, card in trick.plays] + [
        trick_text(trick.number, trick.winner, trick.points)
    ]


def play_text(seat: Seat, card: Card) -> str:
    return _("{seat} plays {card}").format(seat=seat_text(seat), card=card.unicode())


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
        lines.append(play_text(seat, card))
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
