"""Small builders for the rules tests: hands, scripted play, refusals, whole-deal patterns.

Scripts are RECORD.md tokens separated by spaces, commas or ``|`` (the bar is only for the
reader, e.g. between tricks); ``declare``, ``ask-half`` and ``answer`` take the next word as
their suit, so ``"AS 6S QS 7S | declare d | AD ..."`` reads as it is written.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from valtti.engine import (
    CARDS,
    Action,
    CardSet,
    Deal,
    IllegalActionError,
    Match,
    Seat,
    Suit,
    Variant,
)

_SUITED_WORDS = ("declare", "ask-half", "answer")


def cs(text: str) -> CardSet:
    return CardSet.parse(text)


def hands_of(
    N: str = "", E: str = "", S: str = "", W: str = "", void: Mapping[str, str] | None = None
) -> tuple[CardSet, CardSet, CardSet, CardSet]:
    """Four hands of nine from partial holdings.

    The cards not named are dealt in deck order, each to the seat that still lacks the most
    cards (ties N, E, S, W), never giving a seat a suit listed for it in ``void``
    (e.g. ``void={"S": "C", "E": "SH"}``).
    """
    given = [cs(t) for t in (N, E, S, W)]
    seen = 0
    for seat, hand in zip("NESW", given, strict=True):
        if len(hand) > 9:
            raise ValueError(f"{seat} is given {len(hand)} cards")
        if hand.mask & seen:
            raise ValueError(f"{seat} repeats {CardSet(hand.mask & seen)}")
        seen |= hand.mask
    voids = [{Suit.parse(ch) for ch in (void or {}).get(seat, "")} for seat in "NESW"]
    masks = [h.mask for h in given]
    for card in CARDS:
        if seen >> card & 1:
            continue
        need = [
            (9 - bin(masks[i]).count("1"), -i)
            for i in range(4)
            if bin(masks[i]).count("1") < 9 and card.suit not in voids[i]
        ]
        if not need:
            raise ValueError(f"no seat can take {card}")
        i = -max(need)[1]
        masks[i] |= card.bit
    n, e, s, w = (CardSet(m) for m in masks)
    assert len(n) == len(e) == len(s) == len(w) == 9
    return n, e, s, w


def tokens(script: str | Iterable[str]) -> list[Action]:
    """Parse a script (see the module text) into actions."""
    if not isinstance(script, str):
        script = " ".join(script)
    words = script.replace(",", " ").replace("|", " ").split()
    out: list[Action] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w.lower() in _SUITED_WORDS:
            out.append(Action.parse(f"{w} {words[i + 1]}"))
            i += 2
        else:
            out.append(Action.parse(w))
            i += 1
    return out


def drive(deal: Deal | Match, script: str | Iterable[str]) -> None:
    """Apply every action of the script; an illegal one fails loudly with its position."""
    for n, action in enumerate(tokens(script), 1):
        try:
            deal.apply(action)
        except IllegalActionError as e:  # a broken script, not a rules failure
            raise AssertionError(f"script action {n} ({action}) refused: {e}") from e


def autoplay(deal: Deal, plays: int | None = None) -> None:
    """Play the lowest-numbered legal card ``plays`` times (default: to the end), never declaring.

    Any declaration window is passed by leading at once; an open question is answered with the
    first eligible suit.
    """
    n = 0
    while not deal.is_over() and (plays is None or n < plays):
        actions = deal.legal_actions()
        cards = [a for a in actions if a.card is not None]
        deal.apply(cards[0] if cards else actions[0])
        n += 1


def make_deal(
    hands: Sequence[CardSet],
    dealer: str | Seat = "W",
    script: str | Iterable[str] = "",
    variant: Variant | None = None,
) -> Deal:
    """A deal (forehand left of the dealer, so N leads with the default dealer W) after a script."""
    dealer = Seat.parse(dealer) if isinstance(dealer, str) else dealer
    deal = Deal(hands, dealer, variant)
    drive(deal, script)
    return deal


def legal(deal: Deal) -> set[str]:
    """The legal actions as RECORD.md tokens."""
    return {str(a) for a in deal.legal_actions()}


def cards_legal(deal: Deal) -> set[str]:
    """The legal card plays only."""
    return {str(a) for a in deal.legal_actions() if a.card is not None}


def declarations_legal(deal: Deal) -> set[str]:
    """The legal declarations, questions and answers only."""
    return {str(a) for a in deal.legal_actions() if a.card is None}


def snapshot(deal: Deal) -> tuple[Any, ...]:
    """Everything observable about a deal, to show a refused action changed nothing."""
    return (
        deal.history,
        deal.hands,
        tuple(deal.legal_actions()),
        deal.legal_mask(),
        deal.phase,
        deal.current_player,
        deal.trump,
        deal.trump_team,
        deal.events,
        deal.locked,
        deal.asker,
        deal.tricks,
        deal.current_trick,
        deal.winning_card,
        deal.result(),
    )


def assert_refused(deal: Deal, action: str | int, *fragments: str) -> IllegalActionError:
    """``apply`` raises ``IllegalActionError`` whose reason holds every fragment, deal unchanged."""
    a = Action.parse(action) if isinstance(action, str) else action
    before = snapshot(deal)
    assert not deal.is_legal(a)
    with pytest.raises(IllegalActionError) as info:
        deal.apply(a)
    err = info.value
    reason = err.reason.lower()
    for fragment in fragments:
        assert fragment.lower() in reason, f"{fragment!r} not in reason {err.reason!r}"
    assert err.legal == before[2]
    assert deal.why_illegal(a) == err.reason
    assert snapshot(deal) == before
    return err


def trick_points(deal: Deal) -> tuple[int, int]:
    """Card points per team counted here from the completed tricks (RULES.md 1.3, 5.1)."""
    pts = [0, 0]
    for trick in deal.tricks:
        pts[trick.winner.team] += sum(c.points for c in trick.cards)
    return pts[0], pts[1]


# -- whole-deal patterns for match tests -----------------------------------------------------
#
# A pattern is four hands given relative to the forehand (P0 leads trick 1, P1 is on its left,
# P2 is its partner, P3 on its right) and a script. Rotating the hands to the real forehand
# leaves the script valid (actions do not name seats), so one pattern serves every deal of a
# match whatever the dealer. Each pattern's outcome is argued in its comment and asserted by the
# tests that use it.


@dataclass(frozen=True)
class Pattern:
    name: str
    hands: tuple[str, str, str, str]  # P0..P3
    script: str
    #: game points of the forehand's team and of the other team, and whether each took a trick
    fh_points: int
    other_points: int
    fh_tricks: int
    other_tricks: int


def rotate(pattern_hands: Sequence[str], forehand: Seat) -> tuple[CardSet, ...]:
    """The pattern's P0..P3 hands placed so that P0 sits at ``forehand``."""
    out: list[CardSet] = [CardSet()] * 4
    for i, text in enumerate(pattern_hands):
        out[(forehand + i) & 3] = cs(text)
    return tuple(out)


# The forehand's team takes all nine tricks. P0 holds the top spades and hearts, P1 the low
# ones (one more heart than P0, one less spade), P2/P3 only diamonds and clubs. P0 leads all
# nine tricks and wins each: P1 always follows below it (or, void in spades at trick 6, holds no
# trump), P2 and P3 never hold the led suit nor a trump. ``{d1}``/``{d2}`` are the windows after
# tricks 1 and 2 (declare S: trumps, +2; declare H: +1).
_SWEEP_HANDS = (
    "AS TS KS QS JS AH TH KH QH",
    "9S 8S 7S 6S JH 9H 8H 7H 6H",
    "AD TD KD QD JD AC TC KC QC",
    "9D 8D 7D 6D JC 9C 8C 7C 6C",
)
_SWEEP_SCRIPT = (
    "AS 6S JD 6D | {d1} AH 6H QD 7D | {d2} TS 7S KD 8D | KS 8S TD 9D | QS 9S AD 6C"
    " | JS 7H QC 7C | TH 8H KC 8C | KH 9H TC 9C | QH JH AC JC"
)


def sweep(marriages: int) -> Pattern:
    """The forehand's team takes every trick; marriages 0, 2 (trumps) or 3 (and a little trump).

    Game points: marriages + last + victory (120 card points); the other team goes to Porvoo.
    """
    d1 = "declare S" if marriages >= 2 else ""
    d2 = "declare H" if marriages >= 3 else ""
    return Pattern(
        f"sweep{marriages}",
        _SWEEP_HANDS,
        _SWEEP_SCRIPT.format(d1=d1, d2=d2),
        marriages + 2,
        0,
        9,
        0,
    )


# The same cards, but the forehand holds the low spades and hearts and its right-hand opponent
# P3 the top ones: P0 leads 6S, P1/P2 (only diamonds and clubs) discard, P3 must beat and wins;
# then P3 leads out as in ``sweep``. The forehand's team goes to Porvoo.
def opp_sweep(marriages: int) -> Pattern:
    d1 = "declare S" if marriages >= 2 else ""
    d2 = "declare H" if marriages >= 3 else ""
    return Pattern(
        f"opp_sweep{marriages}",
        (_SWEEP_HANDS[1], _SWEEP_HANDS[2], _SWEEP_HANDS[3], _SWEEP_HANDS[0]),
        (
            f"6S JD 6D AS | {d1} AH 6H QD 7D | {d2} TS 7S KD 8D | KS 8S TD 9D | QS 9S AD 6C"
            " | JS 7H QC 7C | TH 8H KC 8C | KH 9H TC 9C | QH JH AC JC"
        ),
        0,
        marriages + 2,
        0,
        9,
    )


# The forehand takes tricks 1-8 and declares spades (trumps, +2) after trick 1, and with
# ``marriages=3`` clubs (+1) after trick 2; P1 keeps the jack of spades and trumps the lone
# 6H that P0 must lead to trick 9. The other team: one trick (6H JS AH JH = 15 card points),
# last, 1 game point. The forehand's team: 105 card points, marriages + victory.
def split_last(marriages: int) -> Pattern:
    assert marriages in (2, 3)
    d2 = "declare C" if marriages == 3 else ""
    return Pattern(
        f"split_last{marriages}",
        (
            "AS TS KS QS AC TC KC QC 6H",
            "JS 9S 8S 7S 6S JC 9C 8C 7C",
            "AD TD KD QD JD AH TH KH QH",
            "9D 8D 7D 6D JH 9H 8H 7H 6C",
        ),
        (
            f"AS 6S JD 6C | declare S AC 7C QD 6D | {d2} TS 7S KD 7D | KS 8S TD 8D"
            " | QS 9S AD 9D | TC 8C QH 7H | KC 9C KH 8H | QC JC TH 9H | 6H JS AH JH"
        ),
        marriages + 1,
        1,
        8,
        1,
    )


# The forehand's team takes trick 1 only: P0 leads AC, P1 (only spades and hearts) discards JS,
# P2 and P3 follow with low clubs. P0 then leads 7H, which P1 must beat; P1 leads out its top
# spades and hearts, P0 following below it all the way. With ``marriages`` 2 or 3 P1 declares
# spades after trick 2 and hearts after trick 3. Forehand's team: 1 trick (AC JS 6C QC = 16),
# 0 game points; the other team: marriages + last + victory.
def take_first(marriages: int) -> Pattern:
    d2 = "declare S" if marriages >= 2 else ""
    d3 = "declare H" if marriages >= 3 else ""
    return Pattern(
        f"take_first{marriages}",
        (
            "9S 8S 7S 6S JH 9H 8H 7H AC",
            "AS TS KS QS JS AH TH KH QH",
            "9D 8D 7D 6D JC 9C 8C 7C 6C",
            "AD TD KD QD JD TC KC QC 6H",
        ),
        (
            f"AC JS 6C QC | 7H AH JC 6H | {d2} AS 9D AD 6S | {d3} TS 8D TD 7S | KS 7D KD 8S"
            " | QS 6D QD 9S | TH 9C JD 8H | KH 8C KC 9H | QH 7C TC JH"
        ),
        0,
        marriages + 2,
        1,
        8,
    )


def play_pattern(match: Match, pattern: Pattern, forehand: Seat | None = None) -> Deal:
    """Start the match's next deal with the pattern's hands turned to its forehand, play it."""
    fh = match.next_dealer.left if forehand is None else forehand
    deal = match.start_deal(rotate(pattern.hands, fh))
    assert deal.forehand == fh
    drive(match, pattern.script)
    assert deal.is_over()
    fh_team = fh.team
    result = deal.result()
    assert result.game_points[fh_team] == pattern.fh_points, pattern.name
    assert result.game_points[fh_team.other] == pattern.other_points, pattern.name
    assert result.tricks[fh_team] == pattern.fh_tricks, pattern.name
    assert result.tricks[fh_team.other] == pattern.other_tricks, pattern.name
    return deal


def to_9_6() -> Match:
    """NS 9, EW 6 through three real deals (first dealer E, so S, W, N lead them): RULES.md 9
    case 10 before its deal."""
    match = Match(Variant(), Seat.E)
    for expected in [(4, 1), (5, 5), (9, 6)]:
        play_pattern(match, split_last(3))
        assert match.score == expected
    return match


# RULES.md 9 case 11's deal, given from the forehand (P0 .. P3 clockwise), like a pattern.
CASE_11_HANDS = (
    "TD TC AH TH JH 9H 8H 7H 6H",
    "AD AC KH QH 6S 7S 8S 9S 6D",
    "KD KC AS KS QS JD 9D JC 9C",
    "QD QC TS JS 8D 7D 8C 7C 6C",
)
CASE_11_SCRIPT = (
    # P1 wins trick 1 (TD AD KD QD = 28) and declares hearts: trumps, EW +2.
    "TD AD KD QD | declare H"
    # P1 wins trick 2 (AC KC QC TC = 28) and leads at once.
    " | AC KC QC TC"
    # P1 leads 6S; P0, void in spades, must trump and wins; P0 asks whole and P2 names its only
    # marriage, spades: a little trump, NS +1.
    " | 6S AS TS 6H | ask-whole"
    # P0 draws P1's trumps and leads out: NS take tricks 3-9, 64 card points and the last.
    " | AH QH JD 8D | TH KH 9D 7D | JH 7S JC 8C | 9H 8S 9C 7C | 8H 9S KS 6C | 7H 6D QS JS"
)


# -- fixed deals shared by several test files ---------------------------------------------------

# A deal in which N wins trick 1 with AS and declares hearts, so that trick 2 is played with
# hearts as trumps: N has KH QH and diamonds, E no diamonds but AH 8H, S no diamonds but TH 7H,
# W the top diamonds and 9H JH 6H.
TRUMP_HANDS = (
    cs("AS KH QH 6D 7D 8D 9D JD QD"),
    cs("6S AH 8H AC TC KC QC JC 9C"),
    cs("7S TH 7H 8C 7C 6C 8S 9S JS"),
    cs("TS KS QS 9H JH 6H AD TD KD"),
)
TRUMP_OPENING = "AS 6S 7S TS | declare H"


def trump_deal(script: str = "", variant: Variant | None = None) -> Deal:
    deal = make_deal(TRUMP_HANDS, "W", TRUMP_OPENING, variant)
    assert deal.trump == Suit.H
    drive(deal, script)
    return deal


# N holds AS TS KS QS JS AH TH KH QH (two marriages), E the low spades and hearts, S the top
# diamonds and clubs (two marriages: KD QD, KC QC), W the low diamonds and clubs. N leads and,
# as long as the trumps are spades or there are none, wins every trick it leads.
SWEEP_HANDS = rotate(sweep(0).hands, Seat.N)
SWEEP_TRICKS = [
    "AS 6S JD 6D",
    "AH 6H QD 7D",
    "TS 7S KD 8D",
    "KS 8S TD 9D",
    "QS 9S AD 6C",
    "JS 7H QC 7C",
    "TH 8H KC 8C",
    "KH 9H TC 9C",
    "QH JH AC JC",
]


def sweep_deal(script: str = "") -> Deal:
    return make_deal(SWEEP_HANDS, "W", script)


# As SWEEP_HANDS, but S's queens of diamonds and clubs are W's: S has no marriage at all.
NO_MARRIAGE_HANDS = (
    SWEEP_HANDS[0],
    SWEEP_HANDS[1],
    cs("AD TD KD JD 9D AC TC KC JC"),
    cs("QD 8D 7D 6D QC 9C 8C 7C 6C"),
)
NO_MARRIAGE_TRICKS = ["AS 6S JD 6D", "AH 6H 9D 7D"]

# E wins trick 1 and declares hearts (trumps for EW); S wins trick 2 and declares diamonds (a
# little trump for NS); N wins trick 3. S then still holds KD QD (declared) and KC QC.
OTHER_TEAM_HANDS = (
    cs("6S 8C AD AH TH JH 9H 8H 7H"),
    cs("AS KS QS JS TS KH QH 6C 7D"),
    cs("7S 9S AC KC QC KD QD 6D 6H"),
    cs("8S 7C TC JC 9C 8D TD JD 9D"),
)
OTHER_TEAM_SCRIPT = "6S AS 7S 8S | declare H | 6C AC 7C 8C | declare D | 6D 8D AD 7D"
