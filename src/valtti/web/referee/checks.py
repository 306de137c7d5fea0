"""What a table refuses before its engine is asked (docs/WEB.md): a move while no deal is in
play (``waiting``, ``finished``, ``closed``, ``not_your_turn``) or on a stale ``seq``, and an
illegal action, with the engine's reason as data."""

from __future__ import annotations

from valtti.engine import Deal, Match, Refusal, Seat
from valtti.web.db.rows import TableStatus
from valtti.web.referee.errors import RoomError


def deal_in_play(status: TableStatus, match: Match | None) -> Deal:
    """The deal being played at a table of ``status``; else the RoomError of docs/WEB.md."""
    if status == "waiting":
        raise RoomError("waiting", "the table has not started: a seat is still open")
    if status == "finished":
        raise RoomError("finished", "the match is over")
    if status == "closed":
        raise RoomError("closed", "the table is closed")
    deal = None if match is None else match.deal
    if deal is None or deal.is_over():
        raise RoomError("not_your_turn", "the next deal is not dealt yet")
    return deal


def seen_in_play(
    status: TableStatus, match: Match | None, seat: Seat, seq: int | None
) -> tuple[Match, Deal, int]:
    """The match as ``seat`` may see it (RULES.md 7.2), its deal and its ``seq``, while a
    deal is in play and ``seq`` (when given) is that one; else the RoomError of docs/WEB.md
    (``waiting``, ``finished``, ``closed``, ``not_your_turn``, ``stale``)."""
    deal_in_play(status, match)
    assert match is not None
    seen = match.seen_by(seat)
    shown = seen.public_action_count()
    if seq is not None and seq != shown:
        raise RoomError("stale", f"the table is at {shown} actions, not {seq}")
    deal = seen.deal
    assert deal is not None
    return seen, deal, shown


def illegal(deal: Deal, refusal: Refusal, message: str | None = None) -> RoomError:
    """The ``illegal`` error in ``deal`` (as the seat sees it): ``message`` (by default the
    refusal's English), the legal tokens, and the refusal's code and arguments for the page
    to say in its language."""
    return RoomError(
        "illegal",
        str(refusal) if message is None else message,
        legal=[str(a) for a in deal.legal_actions()],
        refusal=refusal.to_dict(),
    )
