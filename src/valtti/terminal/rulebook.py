"""``help rules``, ``help cards`` and ``help TERM``: the rules of docs/RULES.md in the game.

The rules are one page that fits 80×24 in English and Finnish, each paragraph closed by the
sections of docs/RULES.md it sums up; the cards and each of the game's words are a reply under
the table. Every number is the engine's (``RANK_POINTS``, ``DECK_POINTS``…) or the match's
variant's (the target and the score after overshooting it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from valtti.engine import (
    DECK_POINTS,
    HALF_DECK_POINTS,
    LITTLE_TRUMP_POINTS,
    TRUMP_MARRIAGE_POINTS,
    Rank,
    Variant,
)
from valtti.engine.cards import RANK_POINTS
from valtti.terminal.commands import TOPICS, command_words, word
from valtti.terminal.i18n import _
from valtti.terminal.screen import SWITCH_WORDS, Keyed, note_panel


@dataclass(frozen=True, slots=True)
class Page:
    """A reply shown instead of the table, until the player types the next line; ``plain`` is
    what the line mode tells."""

    body: RenderableType
    plain: RenderableType


def ranks_text() -> str:
    """The ranks from the highest down: A 10 K Q J 9 8 7 6 (RULES.md 1.2)."""
    return " ".join(_rank(r) for r in reversed(Rank))


def _rank(rank: Rank) -> str:
    return "10" if rank is Rank.TEN else str(rank)


def _numbers(variant: Variant) -> dict[str, object]:
    """The numbers the texts name: the engine's and the variant's."""
    return {
        "trump": TRUMP_MARRIAGE_POINTS,
        "little": LITTLE_TRUMP_POINTS,
        "deck": DECK_POINTS,
        "halfdeck": HALF_DECK_POINTS,
        "target": variant.target,
        "overshoot": variant.overshoot_to,
        "ace": RANK_POINTS[Rank.ACE],
        "ten": RANK_POINTS[Rank.TEN],
        "ranks": ranks_text(),
        **command_words(),
    }


def _whole_rule(variant: Variant) -> str:
    if variant.whole_ask_after_trump == "not_trump_team":
        return _("not once your team has made trumps")
    if variant.whole_ask_after_trump == "nobody":
        return _("not once there are trumps")
    return _("also after trumps")


def rules_lines(variant: Variant) -> list[str | tuple[str, str]]:
    """The rules in short, a paragraph a line (the screen wraps them); a move and what it is
    as a pair."""
    n = _numbers(variant)
    lines: list[str | tuple[str, str]] = [
        _(
            "Four players, N and S against E and W; 36 cards ({ranks} in each suit, from high "
            "to low), nine each. The forehand, left of the dealer, leads trick 1 and deals the "
            "next deal. A deal starts without trumps. [1, 2]"
        ).format(**n),
        _(
            "Follow suit and beat the trick's best card if you can, even your partner's (once "
            "the trick is trumped, any card of the suit); else play a trump, a higher one if "
            "you can; else any card. [3]"
        ),
        _(
            "A marriage is the K and Q of a suit. Who wins one of tricks 1–8 may make one move "
            "before leading [4.2]:"
        ),
        (
            _("{declare} S").format(**n),
            _("K and Q of S in your own hand"),
        ),
        (
            _("{ask} {whole}").format(**n),
            _("your partner names a K+Q or says no; you are locked ({when})").format(
                when=_whole_rule(variant)
            ),
        ),
        (
            _("{ask} {half} S").format(**n),
            _("you hold K or Q of S; your partner says if they hold the other; both locked"),
        ),
        _(
            "Locked: your own K+Q are broken for the deal [4.3]. The first marriage makes "
            "trumps, +{trump}; later ones are little trumps, +{little} [4.4]."
        ).format(**n),
        _(
            "A deal: the last trick (the 9th) +1; the victory, over {halfdeck} of the {deck} "
            "card points, +1. [5]"
        ).format(**n),
        _(
            "The match: the points are added up; exactly {target} wins; over {target} falls "
            "back to {overshoot}; a team with no trick in a deal goes to Porvoo: 0. [6]"
        ).format(**n),
    ]
    changes = variant.changes()
    if changes:
        switches = ", ".join(_(SWITCH_WORDS[change]) for change in changes.items())
        lines.append(_("This match: {switches}. [8]").format(switches=switches))
    return lines


def more_text() -> str:
    """Where the rules page says to look further."""
    return _("{help} cards: order and points · {help} terms: the game's words").format(
        **command_words()
    )


def rules_page(variant: Variant) -> Page:
    """``help rules``: a page of its own, in a frame titled with the document it sums up."""
    lines = rules_lines(variant)
    title = _("The rules in short (docs/RULES.md)")
    parts: list[RenderableType] = []
    moves: Table | None = None  # the moves, in columns
    for line in lines:
        if isinstance(line, str):
            parts.append(Text(line))
            moves = None
            continue
        if moves is None:
            moves = Table.grid(padding=(0, 1))
            moves.add_column(no_wrap=True)
            moves.add_column()
            parts.append(moves)
        moves.add_row("  " + line[0], line[1])
    told = [line if isinstance(line, str) else f"  {line[0]}: {line[1]}" for line in lines]
    more = more_text()
    # Where the frame's bottom edge is too short for where to read further, it goes inside.
    body = note_panel(Keyed(Group(*parts), more, title=title))
    return Page(body, "\n".join([title, *told, more]))


def cards_text(variant: Variant) -> str:
    """``help cards``: the order, the card points and what the game points are."""
    points = ", ".join(f"{_rank(r)} {RANK_POINTS[r]}" for r in reversed(Rank) if RANK_POINTS[r])
    nothing = " ".join(_rank(r) for r in reversed(Rank) if not RANK_POINTS[r])
    n = _numbers(variant)
    return "\n".join(
        (
            _("In every suit, from high to low: {ranks} (RULES.md 1.2).").format(**n),
            _(
                "Card points: {points}; {nothing} nothing; {deck} in the deck. The aces and tens "
                "are the checkmaters (RULES.md 1.3, 1.4)."
            ).format(points=points, nothing=nothing, **n),
            _(
                "A trick goes to its highest trump, or without one to the highest card of the "
                "suit led (RULES.md 3.1)."
            ),
            _(
                "Game points are counted apart: a marriage {trump} (making trumps) or {little} (a "
                "little trump), the last trick 1, over {halfdeck} card points 1 (RULES.md 5.1)."
            ).format(**n),
        )
    )


#: Each word's explanation; each is given the numbers of ``_numbers``.
_TERMS: Final[dict[str, Callable[[], str]]] = {
    "trumps": lambda: _(
        "Trumps (valtti): a deal starts without them; the first marriage declared or found by "
        "a question makes its suit trumps for the rest of the deal, +{trump}. A trump beats "
        "every card of another suit (RULES.md 2.4, 3.1, 4.4)."
    ),
    "marriage": lambda: _(
        "Marriage (pari): the king and queen of one suit. The winner of one of tricks 1–8 may, "
        "before leading, declare one ({declare} S), ask the partner for a whole one ({ask} "
        "{whole}) or for the other half of one ({ask} {half} S). The first makes trumps, "
        "+{trump}; the later ones are little trumps, +{little} (RULES.md 4)."
    ),
    "locked": lambda: _(
        "Locked (lukittu): who asks is locked, and after {ask} {half} the partner too. Till the "
        "deal ends a locked player's own K+Q are broken: they can be neither declared nor named "
        "in an answer. A locked player may still ask (RULES.md 4.2, 4.3)."
    ),
    "little trump": lambda: _(
        "Little trump (pikkuvaltti): a marriage declared or found once there are trumps: "
        "+{little}, and the trumps stay. Only the first marriage makes trumps, +{trump} "
        "(RULES.md 4.4)."
    ),
    "last": lambda: _(
        "The last trick (viimeinen tikki), trick 9: +1 game point to the team that takes it, "
        "with no extra card points (RULES.md 5.1). The command {last} shows the last trick "
        "taken."
    ),
    "victory": lambda: _(
        "Victory (voitto): more than {halfdeck} of the deal's {deck} card points, +1 game "
        "point; at {halfdeck}–{halfdeck} nobody has it (RULES.md 5.1)."
    ),
    "overshoot": lambda: _(
        "Overshoot (yli): a team whose score would go over the target, {target}, falls back to "
        "{overshoot}. Only exactly {target} wins (RULES.md 6.2, 6.3)."
    ),
    "Porvoo": lambda: _(
        "Porvoo: a team that takes no trick in a deal goes to Porvoo: its score becomes 0, "
        "whatever it was (RULES.md 6.1, 6.4)."
    ),
    "forehand": lambda: _(
        "Forehand (etukäsi): who leads trick 1 of a deal, the player to the dealer's left; the "
        "forehand deals the next deal (RULES.md 2.2, 2.3)."
    ),
    "checkmaters": lambda: _(
        "Checkmaters (matit, mateiksi): the aces and tens, the cards worth most: {ace} and {ten} "
        "card points (RULES.md 1.4)."
    ),
}


def terms_text() -> str:
    """``help terms``: the words ``help`` explains, in the active language."""
    listed = ", ".join(word(key, "topic") for key in _TERMS)
    return _("{help} and one of the game's words: {words}.").format(words=listed, **command_words())


def answer(topic: str, variant: Variant) -> Page | str:
    """What ``help`` says of ``topic``, one of ``commands.TOPICS``."""
    assert topic in TOPICS
    if topic == "rules":
        return rules_page(variant)
    if topic == "cards":
        return cards_text(variant)
    if topic == "terms":
        return terms_text()
    return _TERMS[topic]().format(**_numbers(variant))
