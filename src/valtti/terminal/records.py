"""A record file as the terminal's commands read it (``valtti play --resume``, ``valtti replay``,
``valtti hint``): what is wrong with it, and ``valtti replay``'s summary, in the active language.

The engine says what is wrong as data, which is told here in the player's words: an illegal
action (``IllegalRecordAction``: the deal, the action's number, its token, the ``Refusal``) as
the game tells a refused move, what is malformed (``RecordFormatError.fault``: a
``RecordFaultCode`` and its arguments) from ``FAULTS``. Seats, cards and values in a fault are
written as the file has them (RECORD.md's tokens), for they are what is to be mended there.
"""

from __future__ import annotations

import dataclasses
import json
import reprlib
from pathlib import Path
from typing import Any, Final

from valtti.engine import Action, Match, RefusalCode, Seat, Suit, Team
from valtti.engine.record import (
    FORMAT,
    MAX_RECORD_BYTES,
    IllegalRecordAction,
    Record,
    RecordFault,
    RecordFaultCode,
    RecordFormatError,
)
from valtti.engine.variant import SWITCHES, SwitchError, allowed_text
from valtti.terminal.i18n import N_, NC_, _, pgettext
from valtti.terminal.phrases import legal_text, reason_text, seat_text, team_text

EXIT_ILLEGAL: Final = 1
EXIT_MALFORMED: Final = 2

#: How a marriage was made, as ``Match.summary`` names it.
HOWS: Final = {
    "declare": NC_("how", "declaration"),
    "ask-whole": NC_("how", "asking whole"),
    "ask-half": NC_("how", "asking half"),
}


#: The message of each fault code; ``where`` is the deal (or the record) the fault is in, the
#: other fields the fault's arguments (``known``: the switches there are, ``allowed``: the
#: values of ``switch``, ``previous``: the deal before ``deal``).
FAULTS: Final[dict[RecordFaultCode, str]] = {
    RecordFaultCode.TOO_LONG: N_(
        "not a record: longer than {count} MiB, far more than a whole match takes"
    ),
    RecordFaultCode.TOO_DEEP: N_("not a record: JSON nested too deep"),
    RecordFaultCode.TOO_MANY_DIGITS: N_("not a record: a number with too many digits"),
    RecordFaultCode.BAD_JSON: N_("not valid JSON: an error at line {line}, column {column}"),
    RecordFaultCode.BAD_ENCODING: N_(
        "not valid JSON: the text cannot be decoded at byte {position}"
    ),
    RecordFaultCode.NOT_A_NUMBER: N_("not valid JSON: {given} is no JSON number"),
    RecordFaultCode.NUMBER_TOO_LARGE: N_("not valid JSON: the number {given} is too large"),
    RecordFaultCode.NOT_AN_OBJECT: N_("a record is a JSON object with keys format, variant, deals"),
    RecordFaultCode.UNKNOWN_KEY: N_(
        '{where}: unknown key {given} (extra information belongs under "meta")'
    ),
    RecordFaultCode.FORMAT: N_("format must be {format}, not {given}"),
    RecordFaultCode.VARIANT_NOT_OBJECT: N_("variant must be an object of switch names and values"),
    RecordFaultCode.UNKNOWN_SWITCH: N_("unknown variant switch {switch}: known are {known}"),
    RecordFaultCode.BAD_SWITCH_VALUE: N_(
        "variant switch {switch} cannot be {given}: allowed {allowed}"
    ),
    RecordFaultCode.NO_DEALS: N_("deals must be a non-empty list"),
    RecordFaultCode.NO_FIRST_DEALER: N_("{where}: dealer is required in the first deal"),
    RecordFaultCode.DEAL_NOT_OBJECT: N_(
        "{where}: a deal is an object with keys dealer, hands, actions"
    ),
    RecordFaultCode.BAD_DEALER: N_("{where}: the dealer must be one of N, E, S, W, not {given}"),
    RecordFaultCode.HANDS: N_("{where}: hands must give the cards of each of N, E, S, W"),
    RecordFaultCode.HAND_NOT_LIST: N_("{where}: {seat}'s hand must be a list of card tokens"),
    RecordFaultCode.BAD_CARD: N_(
        "{where}: {seat}'s hand: not a card: {given} (write rank then suit, e.g. AS, TD, 10d; "
        "ranks A T K Q J 9 8 7 6, suits S H D C)"
    ),
    RecordFaultCode.DEALT_TWICE: N_("{where}: {card} is dealt twice (to {first} and to {seat})"),
    RecordFaultCode.HAND_SIZE: N_("{where}: {seat}'s hand has {count} cards, not 9"),
    RecordFaultCode.ACTIONS_NOT_LIST: N_("{where}: actions must be a list of action tokens"),
    RecordFaultCode.META_NOT_OBJECT: N_("{where}: meta must be an object"),
    RecordFaultCode.MATCH_OVER: N_("{where}: the match was already over"),
    RecordFaultCode.AFTER_UNFINISHED: N_(
        "{where}: deal {previous} stops part-way but another deal follows"
    ),
    RecordFaultCode.WRONG_DEALER: N_(
        "{where}: the dealer must be {dealer} (RULES.md 2.3), not {seat}"
    ),
}


#: ``DEALT_TWICE`` where the card is twice in one hand ("to S and to S" would read wrong).
TWICE_IN_ONE_HAND: Final = N_("{where}: {card} is twice in {seat}'s hand")


class RecordError(Exception):
    """A record that cannot be read or replayed: the message says why in the active language;
    ``status`` is the exit status (``EXIT_ILLEGAL`` or ``EXIT_MALFORMED``)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def read(path: Path) -> tuple[Match, Record]:
    """The record at ``path`` and its match replayed; ``RecordError`` if it cannot be (an
    empty file, or one of white space only, is said to be empty)."""
    try:
        with path.open("rb") as stream:
            # As ``Record.load`` reads (no further than one byte past the most a record
            # holds), to say so where there is nothing in the file.
            data = stream.read(MAX_RECORD_BYTES + 1)
        if not data.strip():
            message = _("{path}: the file is empty: there is no record in it").format(path=path)
            raise RecordError(message, EXIT_MALFORMED)
        record = Record.from_json(data)
        return record.replay(), record
    except OSError as e:
        message = _("cannot read {path}: {error}").format(path=path, error=e.strerror or e)
        raise RecordError(message, EXIT_MALFORMED) from None
    except IllegalRecordAction as e:
        message = _("{path}: illegal action: {error}").format(path=path, error=illegal_text(e))
        raise RecordError(message, EXIT_ILLEGAL) from None
    except RecordFormatError as e:
        message = _("{path}: malformed record: {error}").format(
            path=path, error=fault_text(e.fault)
        )
        raise RecordError(message, EXIT_MALFORMED) from None


def switch_text(error: SwitchError) -> str:
    """A switch that ``--variant`` gives and RULES.md 8 lacks, or its bad value, in the active
    language: in the words of a record's (``valtti play`` reads both)."""
    code = RecordFaultCode.BAD_SWITCH_VALUE if error.known else RecordFaultCode.UNKNOWN_SWITCH
    fault = RecordFault(code, switch=error.switch, given=error.value)
    return fault_text(fault, allowed=error.allowed)


def fault_text(fault: RecordFault, *, allowed: str | None = None) -> str:
    """What is malformed in a record and where, in the active language; ``allowed``: a bad
    switch value's alternatives as the input spells them (by default as a record does)."""
    where = _("the record") if fault.deal is None else _("deal {deal}").format(deal=fault.deal)
    switch = fault.switch
    if allowed is None and switch is not None and switch in SWITCHES:
        allowed = allowed_text(switch)
    same = fault.code is RecordFaultCode.DEALT_TWICE and fault.first == fault.seat
    return _(TWICE_IN_ONE_HAND if same else FAULTS[fault.code]).format(
        where=where,
        seat=fault.seat,
        first=fault.first,
        dealer=fault.dealer,
        card=fault.card,
        given=_written(fault.given),
        switch=None if switch is None else reprlib.repr(switch),
        known=", ".join(SWITCHES),
        allowed=allowed,
        count=fault.count,
        line=fault.line,
        column=fault.column,
        position=fault.position,
        format=repr(FORMAT),
        previous=None if fault.deal is None else fault.deal - 1,
    )


def _written(value: object) -> str:
    """A value of the file as the file writes it, short (it may be huge): a text quoted, any
    other JSON value in JSON's spelling (``true``, ``null``, not Python's ``True``, ``None``)."""
    if isinstance(value, str):
        return reprlib.repr(value)
    text = json.dumps(value, ensure_ascii=False, default=repr)
    limit = reprlib.aRepr.maxother
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


def illegal_text(e: IllegalRecordAction) -> str:
    """Where the illegal action stands, why it is refused (told of the seat to move there) and
    what was legal there, as the record writes actions."""
    refusal = e.refusal
    token = reprlib.repr(e.token)  # quoted as the file has it, and short: it may be huge
    if refusal.code is RefusalCode.NOT_AN_ACTION:  # that reason says it of the token itself
        why = reason_text(dataclasses.replace(refusal, given=token))
    else:
        reason = reason_text(refusal, refusal.seat)  # of the seat to move: not the reader
        why = _("{token} is not legal: {reason}").format(token=token, reason=reason)
    where = (
        _("deal {deal}, action {number}").format(deal=e.deal, number=e.number)
        if refusal.seat is None  # the deal is over: nobody is to move
        else _("deal {deal}, action {number} ({seat} to move)").format(
            deal=e.deal, number=e.number, seat=seat_text(refusal.seat)
        )
    )
    return _("{where}: {why}; legal there: {legal}").format(
        where=where, why=why, legal=" ".join(map(str, e.legal)) or _("nothing")
    )


def summary_text(summary: dict[str, Any]) -> str:
    """``valtti replay``'s text: each deal's marriages and columns, how a Porvoo or an overshoot
    moved the score, the match score and the result (``Match.summary``). Suits and actions are
    written as the game writes them (``♠``, ``ask half ♥``): a console of ``glyphs`` shows them
    as letters where the output cannot."""
    teams = [team_text(t) for t in Team]
    labels = {
        "tricks": _("tricks"),
        "card_points": _("card points"),
        "game_points": _("game points"),
        "score": _("score"),
    }
    width = max(map(len, labels.values())) + 1
    lines = []
    for number, d in enumerate(summary["deals"], start=1):
        # A deal stopped part-way: its columns so far, the score not yet changed by it.
        going = number == len(summary["deals"]) and summary["to_move"]
        head = (
            _("Deal {number} (in progress: so far): dealer {dealer}, trumps {trump}")
            if going
            else _("Deal {number}: dealer {dealer}, trumps {trump}")
        )
        trump = Suit[d["trump"]].symbol if d["trump"] else _("none")
        lines.append(head.format(number=number, dealer=_seat(d["dealer"]), trump=trump))
        for m in d["marriages"]:
            how = pgettext("how", HOWS[m["how"]])
            lines.append(
                "  "
                + _("marriage {suit}: {seat} ({team}) by {how}, +{points}").format(
                    suit=Suit[m["suit"]].symbol,
                    seat=_seat(m["seat"]),
                    team=_team(m["team"]),
                    how=how,
                    points=m["points"],
                )
            )
        lines.append(f"  {'':{width}}" + "".join(f" {t:>4}" for t in teams))
        for key, label in labels.items():
            lines.append(f"  {label:{width}} {d[key]['NS']:>4} {d[key]['EW']:>4}")
        # Said, or a score that drops after a deal with game points reads as a mistake.
        for team in ("NS", "EW"):
            if d["porvoo"][team]:
                said = _("{team} took no trick: its score became 0 (Porvoo, RULES.md 6.1)")
                lines.append("  " + said.format(team=_team(team)))
            if d["overshoot"][team]:
                said = _("{team} went past the target: its score became {score} (RULES.md 6.2)")
                lines.append("  " + said.format(team=_team(team), score=d["score"][team]))
    last = summary["deals"][-1]["score"]
    lines.append(
        _("Match: {ns} {ns_score}, {ew} {ew_score}").format(
            ns=teams[Team.NS], ns_score=last["NS"], ew=teams[Team.EW], ew_score=last["EW"]
        )
    )
    if summary["winner"] == "draw":
        lines.append(_("Result: a draw, both teams on target"))
    elif summary["winner"]:
        lines.append(_("Result: {team} wins").format(team=_team(summary["winner"])))
    elif summary["to_move"]:
        legal = [Action.parse(a) for a in summary["legal"]]
        lines.append(
            _("In progress: {seat} to move; legal: {legal}").format(
                seat=_seat(summary["to_move"]),
                legal=legal_text([c for a in legal if (c := a.card) is not None], legal),
            )
        )
    else:
        lines.append(_("In progress: the next deal is to be dealt"))
    return "\n".join(lines)


def _seat(name: str) -> str:
    return seat_text(Seat[name])


def _team(name: str) -> str:
    return team_text(Team[name])
