"""``help rules``, ``help cards`` and ``help TERM``: the rules of docs/RULES.md in the game.

The rules are the text of the web's rules page (``valtti.locale.rules``, the one rules text for
players), a page of its own in pages where the terminal is too small, with the switches of the
match in play and how the moves are typed. The cards and each of the game's words are a reply
under the table; their numbers are the engine's (``RANK_POINTS``, ``DECK_POINTS``…) or the
match's variant's (the target and the score after overshooting it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from rich.console import Group, RenderableType
from rich.padding import Padding
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
from valtti.locale.rules import SECTIONS
from valtti.locale.rules import TEXTS as RULES
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


def _rule(key: str) -> str:
    """A text of the rules (``valtti.locale.rules``) in the active language."""
    return _(RULES[key])


def rules_parts(variant: Variant) -> list[tuple[str, str]]:
    """The rules for players (``valtti.locale.rules``: the web's rules page's text), each part
    with how it is shown: ``"title"``, ``"heading"``, ``"text"`` or ``"item"`` (of a list);
    then the switches of ``variant`` that differ from the basic rules, how the moves are typed,
    and where the full rules are."""
    parts = [("title", _rule("rules.title")), ("text", _rule("rules.intro"))]
    for section in SECTIONS:
        parts.append(("heading", _rule(f"rules.{section.name}")))
        for part in section.parts:
            names = part if isinstance(part, tuple) else (part,)
            kind = "item" if isinstance(part, tuple) else "text"
            parts.extend((kind, _rule(f"rules.{section.name}.{name}")) for name in names)
    changes = variant.changes()
    if changes:
        switches = ", ".join(_(SWITCH_WORDS[change]) for change in changes.items())
        parts.append(("text", _("This match: {switches}.").format(switches=switches)))
    typed = _("The moves as typed: {declare} S, {ask} {whole}, {ask} {half} S (S a suit).")
    parts.append(("text", typed.format(**command_words())))
    parts.append(("text", _rule("rules.full")))
    return parts


def more_text() -> str:
    """Where the rules page says to look further."""
    return _("{help} cards: order and points · {help} terms: the game's words").format(
        **command_words()
    )


def rules_page(variant: Variant) -> Page:
    """``help rules``: a page of its own (in pages where the terminal is too small for it
    whole), in a frame titled as the web's rules page is."""
    parts = rules_parts(variant)
    title = parts[0][1]
    shown: list[RenderableType] = []
    for kind, text in parts[1:]:
        if kind == "heading":
            shown.append(Text("\n" + text, style="bold"))
        elif kind == "item":
            shown.append(Padding(Text("- " + text), (0, 0, 0, 2)))
        else:
            shown.append(Text(text))
    told = [
        ("\n" + text if kind == "heading" else f"  - {text}" if kind == "item" else text)
        for kind, text in parts[1:]
    ]
    more = more_text()
    # Where the frame's bottom edge is too short for where to read further, it goes inside.
    body = note_panel(Keyed(Group(*shown), more, title=title))
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
