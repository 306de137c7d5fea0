"""Matches made with the engine and written into a store before its server starts: the deal
ends a test needs (an overshoot, a Porvoo, a match won), with no way in from the network.

In every deal North holds the aces and tens of spades, hearts and diamonds and the king and
queen of clubs, South every other club and the three other kings: North and South take every
trick (East and West go to Porvoo), and North declares clubs when ``declare`` says so.

``seeded_table`` stores a table with nothing dealt whose seed deals what a test needs, so that a
situation the test waits for is reached every run, not only in most matches.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from uuid import uuid4

from valtti.engine import CardSet, Match, Seat, Variant
from valtti.engine.actions import ActionKind
from valtti.web.db.rows import SeatRow, TableRow
from valtti.web.db.store import Store
from valtti.web.referee.seats import new_token, token_hash

HANDS = (
    CardSet.parse("AS AH AD AC TS TH TD KC QC"),  # N
    CardSet.parse("QS JS 9S 8S 7S 6S QH JH 9H"),  # E
    CardSet.parse("TC JC 9C 8C 7C 6C KS KH KD"),  # S
    CardSet.parse("8H 7H 6H QD JD 9D 8D 7D 6D"),  # W
)


def crafted_match(declares: Sequence[bool], part: int = 0) -> Match:
    """One deal of HANDS per item of ``declares``: North declares clubs in those that say so
    (trumps 2 + last trick 1 + victory 1 = 4 game points), else nothing is declared (2).
    Then, with ``part``, one more deal of HANDS stopped after that many actions (declaring)."""
    match = Match(Variant(), Seat.N)
    for declare in declares:
        deal = match.start_deal(HANDS)
        while not deal.is_over():
            _play(match, declare)
    if part:
        match.start_deal(HANDS)
        for _ in range(part):
            _play(match, True)
    return match


def ending_match(tricks: int = 1) -> Match:
    """A match ``tricks`` tricks from its end: two deals as ``crafted_match([True, True])`` (NS
    8), and a third of HANDS played without a declaration up to its last ``tricks`` tricks, each
    led by North: NS take them, and with the last the match (NS 10)."""
    match = crafted_match([True, True])
    deal = match.start_deal(HANDS)
    while len(deal.history) < 36 - 4 * tricks:
        _play(match, False)
    return match


#: South holds the ♥, ♦ and ♣ marriages: asked for a whole one, South chooses.
CHOICE_HANDS = (
    CardSet.parse("AS TS AH AD AC TC 9S 8S 7S"),  # N
    CardSet.parse("QS JS 6S 9H 8H 7H 6H JH 9D"),  # E
    CardSet.parse("KH QH KD QD KC QC 6C 7C 8C"),  # S
    CardSet.parse("KS TH TD JD 8D 7D 6D JC 9C"),  # W
)


def answered_match(part: int = 36) -> Match:
    """A finished match of CHOICE_HANDS (N deals first): in deals 1 and 2 North asks for a whole
    marriage at each chance and South, holding several, names ♦ (4 game points each); deal 3 is
    only played (2): NS 10 – EW 0. With ``part``, deal 3 stopped after that many actions (at 34
    South's last card and West's are all that is left)."""
    match = Match(Variant(), Seat.N)
    for ask, length in ((True, None), (True, None), (False, part)):
        deal = match.start_deal(CHOICE_HANDS)
        while not deal.is_over() and len(deal.history) != length:
            legal = deal.legal_actions()
            chosen = [a for a in legal if ask and str(a) in ("ask-whole", "answer D")]
            plays = [a for a in legal if a.kind is ActionKind.PLAY]
            match.apply(chosen[0] if chosen else plays[0] if plays else legal[0])
    assert match.is_over() == (part == 36)
    return match


def seeded_table(
    db_url: str,
    seed: int,
    people: Mapping[str, str],
    player: str,
    turn_seconds: int | None = None,
) -> tuple[str, dict[str, str]]:
    """Store a table of ``seed`` with nothing dealt yet (North deals first), its ``people``
    seated and ``player`` at the other seats: the seed deals every deal and seeds every
    computer decision, so the match goes the same way each time its people play alike (what a
    test waits for is reached, not only likely). The table's id and each person's seat token."""
    empty = Match(Variant(), Seat.N)
    table_id, tokens, _ = store_match(
        db_url, [], people, player, match=empty, seed=seed, turn_seconds=turn_seconds
    )
    return table_id, tokens


def _play(match: Match, declare: bool) -> None:
    """The first legal card, or North's clubs declared where ``declare`` and it may."""
    legal = match.deals[-1].legal_actions()
    declared = [a for a in legal if a.kind is ActionKind.DECLARE]
    plays = [a for a in legal if a.kind is ActionKind.PLAY]
    match.apply(declared[0] if declare and declared else plays[0])


def store_match(
    db_url: str,
    declares: Sequence[bool],
    people: Mapping[str, str] | None = None,
    player: str = "heuristic",
    part: int = 0,
    match: Match | None = None,
    seed: int = 12345,
    turn_seconds: int | None = None,
) -> tuple[str, dict[str, str], Match]:
    """Store ``crafted_match(declares, part)`` (or ``match``) as a table being played whose seats in
    ``people`` (seat → nickname; by default North, "Aino") are people, the others ``player``,
    with ``seed`` (it deals the deals after ``match``'s and seeds every computer decision) and
    ``turn_seconds``; the table's id, each person's seat token, and the match."""
    match = match or crafted_match(declares, part)
    people = {"N": "Aino"} if people is None else people
    tokens = {seat: new_token() for seat in people}
    rows = [
        SeatRow(s, "human", people[str(s)], token_hash(tokens[str(s)]))
        if str(s) in people
        else SeatRow(s, "computer", player, None)
        for s in Seat
    ]
    table = TableRow(
        id=f"crafted-{uuid4().hex[:10]}",
        created=datetime.now(UTC),
        variant=Variant(),
        first_dealer=Seat.N,
        seed=seed,
        creator_hash=token_hash(new_token()),
        status="playing",
        turn_seconds=turn_seconds,
    )
    store = Store(db_url)
    try:
        store.create_table(table, rows)
        for number, deal in enumerate(match.deals, 1):
            store.add_deal(
                table.id, number, deal.dealer, tuple(deal.after(0).hand(s) for s in Seat)
            )
            for index, action in enumerate(deal.history):
                store.add_action(table.id, number, index, str(action))
    finally:
        store.close()
    return table.id, tokens, match
