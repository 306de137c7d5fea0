"""What each viewer of a table is sent: its state frame (docs/WEB.md), built from the engine's
views (RULES.md 7) and encoded once per change however many connections share it; and a
finished match's record and replay steps."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Sequence
from typing import Any

from valtti.engine import ActionKind, CardSet, Match, Seat
from valtti.engine.inference import whole_answer_is_no
from valtti.engine.meta import RecordMeta
from valtti.engine.record import Record
from valtti.web.db.rows import SeatRow, TableRow


def table_summary(
    table: TableRow, seats: Sequence[SeatRow], match: Match | None, connected: Iterable[Seat]
) -> dict[str, Any]:
    """The table's summary (docs/WEB.md); ``connected``: the seats a connection plays."""
    present = set(connected)
    score = (0, 0) if match is None else match.score
    winner = None
    if match is not None and match.is_over():
        winner = "draw" if match.is_draw else str(match.winner)
    return {
        "id": table.id,
        "name": table.name,
        "created": table.created.isoformat(),
        "status": table.status,
        "variant": table.variant.changes(),
        "seats": [_seat_summary(row, row.seat in present) for row in seats],
        "turn_seconds": table.turn_seconds,
        "time_bank_seconds": table.time_bank_seconds,
        "hints": table.hints,
        "score": {"NS": score[0], "EW": score[1]},
        "winner": winner,
        "deals": 0 if match is None else len(match.deals),
        "rematch": table.next_id,
        "listed": table.listed,
        "closed": table.closed,
    }


def _seat_summary(row: SeatRow, present: bool) -> dict[str, Any]:
    """One seat of a summary; a person's also says who stands in for them (``stand_in``)."""
    seat: dict[str, Any] = {
        "seat": str(row.seat),
        "kind": row.kind,
        "name": row.name,
        "connected": row.kind == "computer" or (row.kind == "human" and present),
    }
    if row.kind == "human":
        seat["stand_in"] = row.stand_in
    return seat


class Frames:
    """The state frames of one table's match, with what stays the same between changes
    encoded once: the summary (until something it shows changes) and the scored deals'
    columns."""

    def __init__(self) -> None:
        self.columns = DealColumns()
        #: ``table_summary()`` encoded, and what it was encoded for.
        self._summary: tuple[tuple[object, ...], str] | None = None

    def summary_json(
        self,
        table: TableRow,
        seats: Sequence[SeatRow],
        match: Match | None,
        connected: frozenset[Seat],
    ) -> str:
        """``json.dumps(table_summary(…))``, encoded again only when something it shows may
        have changed: the status, a seat, who is connected, or a deal's start or end (the
        score, the winner and the number of deals change only then)."""
        deal = None if match is None else match.deal
        shown = (
            table.status,
            table.next_id,
            tuple(seats),
            connected,
            0 if match is None else len(match.deals),
            deal is not None and deal.is_over(),
        )
        if self._summary is None or self._summary[0] != shown:
            self._summary = (shown, json.dumps(table_summary(table, seats, match, connected)))
        return self._summary[1]

    def states(
        self,
        summary: str,
        match: Match | None,
        viewers: Iterable[Seat | None],
        clock: str = "null",
        between: str = "null",
        timed_out: str = "[]",
    ) -> dict[Seat | None, str]:
        """Each viewer's state frame, with the count of the public actions it may know of
        (``seq``: the engine's ``public_action_count`` of the match it sees); ``clock``: the
        turn clock's JSON, the same for every viewer (referee/turns.py); ``between``: who is ready
        for the next deal or a rematch, as JSON (``ends.Waiting``); ``timed_out``: the deal's
        public actions a stand-in made for a person out of time, as JSON (``turns.Stood``)."""
        head = (
            f'{{"type":"state","table":{summary},"clock":{clock},"between":{between},'
            f'"timed_out":{timed_out},'
        )
        bodies = _bodies(match, viewers, self.columns)
        return {viewer: head + body for viewer, body in bodies.items()}


def observations_json(match: Match, seats: Iterable[Seat | None]) -> dict[Seat | None, str]:
    """``match.view(seat)`` as JSON for each of ``seats`` (``None``: a spectator).

    The seats that see the same position (all of them, but while a partner chooses a
    marriage: the partner, and the others) differ only in seat, hand and legal actions, so the
    rest is taken from one observation and encoded once (a test holds this to the engine's).
    """
    deal = match.deal
    assert deal is not None
    positions: dict[bool, list[Seat | None]] = {}
    for seat in seats:
        positions.setdefault(deal.seen_by(seat) is deal, []).append(seat)
    out: dict[Seat | None, str] = {}
    for group in positions.values():
        seen = deal.seen_by(group[0])
        to_move = seen.current_player
        out |= _views_json(match, Seat.N if to_move is None else to_move, group)
    return out


def _views_json(match: Match, source: Seat, seats: Iterable[Seat | None]) -> dict[Seat | None, str]:
    """The views of ``seats`` built from ``source``'s observation, whose legal actions and
    refusals are its own (empty for the others): for seats who see the position ``source``
    sees. A spectator's is the engine's."""
    deal = match.deal
    assert deal is not None
    observation = match.observation(source)
    public = observation.public()
    legal = json.dumps([str(a) for a in observation.legal_actions])
    refusals = json.dumps([r.to_dict() for r in observation.refusals])
    rest = json.dumps(public)[1:]
    out: dict[Seat | None, str] = {}
    for seat in seats:
        if seat is None:
            out[seat] = json.dumps(match.view(None))
        else:
            hand = _hand_json(deal.hand_mask(seat))
            mine, why = (legal, refusals) if seat == source else ("[]", "[]")
            out[seat] = f'{{"seat":"{seat}","hand":{hand},"legal":{mine},"refusals":{why},{rest}'
    return out


class DealColumns:
    """The public columns of one match's deals as JSON: ``match.summary()["deals"]`` encoded
    by ``json.dumps``, to the byte, as a state frame carries them.

    A scored deal's columns never change, so each is encoded once; only the deal in play is
    built again for each state.
    """

    def __init__(self) -> None:
        self._scored: list[str] = []  #: each scored deal's columns, encoded

    def json(self, match: Match) -> str:
        """The columns of ``match``, the match this was first asked about (or a later
        state of it)."""
        scores = match.deal_scores
        while len(self._scored) < len(scores):
            self._scored.append(json.dumps(match.deal_summary(len(self._scored))))
        in_play = [
            json.dumps(match.deal_summary(i)) for i in range(len(self._scored), len(match.deals))
        ]
        # json.dumps separates a list's items with ", ".
        return f"[{', '.join([*self._scored, *in_play])}]"


@functools.lru_cache(maxsize=4096)
def _hand_json(mask: int) -> str:
    """The hand of ``mask`` (a ``CardSet``'s) as JSON, encoded once: a hand stays the same in
    every state of its table until its seat plays a card."""
    return json.dumps(CardSet(mask).tokens())


def _futile(match: Match, viewer: Seat | None) -> str:
    """The legal actions of ``viewer``, to move, that cannot succeed, as JSON: ``ask-whole``
    when the engine proves the partner's answer "no" (``whole_answer_is_no``)."""
    deal = match.deal
    if viewer is None or deal is None or deal.current_player != viewer:
        return "[]"
    if not any(a.kind is ActionKind.ASK_WHOLE for a in deal.legal_actions()):
        return "[]"
    proven = whole_answer_is_no(match.observation(viewer), viewer.partner)
    return '["ask-whole"]' if proven else "[]"


def _bodies(
    match: Match | None, viewers: Iterable[Seat | None], columns: DealColumns
) -> dict[Seat | None, str]:
    """For each viewer, its state frame after ``"table": summary,`` (docs/WEB.md);
    ``columns``: the match's."""
    if match is None or match.deal is None:
        tail = '"deal":0,"observation":null,"last_trick":null,"deals":[]}'
        return {v: f'"seq":0,"you":{_seat_json(v)},"futile":[],{tail}' for v in viewers}
    tail = (
        f'"deal":{len(match.deals)},"last_trick":{json.dumps(_last_trick(match))},'
        f'"deals":{columns.json(match)}}}'
    )
    deal = match.deal
    views = observations_json(match, viewers)
    counts: dict[bool, int] = {}  #: by whether the viewer sees the match itself
    out = {}
    for v, view in views.items():
        # The ask-whole a viewer may not know of yet is not counted for it (RULES.md 7.2).
        itself = deal.seen_by(v) is deal
        if itself not in counts:
            counts[itself] = (match if itself else match.seen_by(v)).public_action_count()
        futile = _futile(match, v) if itself else "[]"
        out[v] = (
            f'"seq":{counts[itself]},"you":{_seat_json(v)},"futile":{futile},'
            f'"observation":{view},{tail}'
        )
    return out


def _seat_json(seat: Seat | None) -> str:
    return "null" if seat is None else f'"{seat}"'


def _last_trick(match: Match) -> dict[str, Any] | None:
    """The match's latest completed trick, which may be the previous deal's last."""
    for deal in reversed(match.deals):
        if deal.tricks:
            t = deal.tricks[-1]
            return {
                "number": t.number,
                "leader": str(t.leader),
                "cards": [str(c) for c in t.cards],
                "winner": None if t.winner is None else str(t.winner),
            }
    return None


def replay_steps(match: Match) -> list[dict[str, Any]]:
    """One step at the start of each deal and one after each action (docs/WEB.md), each with
    every hand and the public part of the position, a partner's choice of marriage included
    (``Match.replay_view``)."""
    steps: list[dict[str, Any]] = []
    for index, deal in enumerate(match.deals):
        for n in range(len(deal.history) + 1):
            action = deal.history[n - 1] if n else None
            at = match.after(index, n)
            shown = at.deal
            assert shown is not None
            steps.append(
                {
                    "deal": index + 1,
                    "seq": at.public_action_count(),
                    "action": None if action is None else str(action),
                    "hands": {str(s): shown.hand(s).tokens() for s in Seat},
                    "observation": at.replay_view(),
                    "deals": at.summary()["deals"],
                }
            )
    return steps


def match_record(row: TableRow, seats: Sequence[SeatRow], match: Match) -> Record:
    """The match as a RECORD.md record, its players and the table under ``meta``."""
    return Record.of_match(
        match,
        RecordMeta(
            program="valtti serve",
            table=row.id,
            created=row.created.isoformat(),
            seed=row.seed,
            players={str(r.seat): r.name for r in seats},
            seats={str(r.seat): r.kind for r in seats},
        ),
    )
