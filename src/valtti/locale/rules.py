"""The rules for players, in sections (RULES.md 1 to 6 and the variants): the one text that the
terminal's ``help rules`` and the web's /rules page both show, in the one catalogue of words.

Each text's key is the web page's (``rules.<section>.<part>``: static/rules.js draws the
sections in the order ``SECTIONS`` gives, ``tests/web/test_words.py`` checks that they agree);
the terminal reads them by the same keys (``terminal.rulebook``). ``tests/test_rules_texts.py``
holds them to RULES.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from valtti.locale import N_


@dataclass(frozen=True, slots=True)
class Section:
    """One section: its name (``s1``…, ``variants``: the key of its heading, and the page's
    anchor), and its parts in order: a paragraph's name, or a list's items' names."""

    name: str
    parts: tuple[str | tuple[str, ...], ...]


#: Every text of the rules, by its key, in English.
TEXTS: Final[dict[str, str]] = {
    "rules.title": N_("Rules of Marjapussi"),
    "rules.intro": N_(
        "Marjapussi is a Finnish trick-taking game for four players in two teams. The king and "
        "queen of one suit — a marriage — declared, or found by asking your partner, makes trumps "
        "part-way through a deal. These are the rules the tables here play by."
    ),
    "rules.s1": N_("1. Players, cards, points"),
    "rules.s1.p1": N_(
        "Four players sit clockwise N, E, S, W (north, east, south, west); partners sit opposite, "
        "so team NS plays team EW."
    ),
    "rules.s1.p2": N_(
        "The deck has 36 cards: spades, hearts, diamonds and clubs, each ranked ace, 10, king, "
        "queen, jack, 9, 8, 7, 6 from high to low."
    ),
    "rules.s1.p3": N_(
        "Card points: ace 11, ten 10, king 4, queen 3, jack 2, the rest 0: 120 in the deck."
    ),
    "rules.s2": N_("2. Deal and lead"),
    "rules.s2.p1": N_(
        "The first dealer is drawn at random. Each player gets nine cards. The player left of the "
        "dealer (the forehand) leads the first trick, and deals the next deal. Every deal starts "
        "without trumps."
    ),
    "rules.s3": N_("3. Tricks"),
    "rules.s3.p1": N_(
        "There are nine tricks; play goes clockwise, and the winner of a trick leads the next. A "
        "trick is won by the highest trump in it or, when there is none, by the highest card of "
        "the suit led."
    ),
    "rules.s3.p2": N_(
        "The leader may play any card. After that you must follow the suit led, and beat the "
        "winning card if you can; once someone has trumped a trick of another suit, any card of "
        "the suit led will do."
    ),
    "rules.s3.p3": N_(
        "If you cannot follow suit and trumps are set, you must play a trump, one that beats the "
        "winning card if you can. Only with neither the suit led nor a trump may you play any "
        "card. You must beat even your partner's card."
    ),
    "rules.s4": N_("4. Marriages, questions and trumps"),
    "rules.s4.p1": N_(
        "A marriage is the king and queen of one suit. Only the player who has just won one of "
        "tricks 1 to 8 may, before leading the next, do one of these (leading at once is doing "
        "none):"
    ),
    "rules.s4.declare": N_(
        "Declare: show a marriage you hold yourself, of a suit not yet declared."
    ),
    "rules.s4.whole": N_(
        "Ask for a whole marriage: your partner says whether they hold the king and queen of a "
        "suit not yet declared and, if so, names one (their choice when they hold several; the "
        "others stay hidden). Afterwards you are locked. A team that has already made trumps may "
        "not ask for a whole marriage."
    ),
    "rules.s4.half": N_(
        "Ask for a half: you hold exactly one of the king and the queen of a suit not yet "
        "declared, and ask whether your partner holds the other one; you do not say which one you "
        "hold. Afterwards you and your partner are both locked."
    ),
    "rules.s4.p2": N_(
        "A locked player's own marriages are broken for the rest of the deal: they can no longer "
        "be declared or named. A marriage split between partners is not affected."
    ),
    "rules.s4.p3": N_(
        "The first marriage of a deal (declared, or a “yes”) makes its suit trumps and scores 2 "
        "game points for its team; each later one scores 1 (a little trump). A “no” scores "
        "nothing, but the question is spent and its locks still apply. Each suit counts once a "
        "deal. After trick 8 everyone has one card left, so only a question for a half can still "
        "succeed, and its “yes” can still make trumps for the last trick."
    ),
    "rules.s5": N_("5. Scoring a deal"),
    "rules.s5.p1": N_(
        "Each team has three columns: tricks, card points and game points. The game points are the "
        "team's marriage points, plus 1 for the last trick (it carries no extra card points), plus "
        "1 for more than 60 card points (at 60–60 nobody gets it)."
    ),
    "rules.s6": N_("6. Scoring the match"),
    "rules.s6.p1": N_(
        "After each deal every team adds its game points to its score. A team that took no trick "
        "goes to Porvoo: its score falls to 0."
    ),
    "rules.s6.p2": N_(
        "The target is exactly 10: a team that goes over falls back to 7. A team exactly on the "
        "target wins; if both reach it after the same deal, the match is a draw."
    ),
    "rules.variants": N_("Variants (chosen when a table is made)"),
    "rules.variants.p1": N_("The target is exactly 12 instead of 10."),
    "rules.variants.p2": N_(
        "The first deal is led by the holder of the ace of clubs instead of the player left of the "
        "dealer."
    ),
    "rules.variants.p3": N_(
        "Asking for a whole marriage once trumps are set: not by the team that made trumps (basic "
        "rules), by anyone, or by nobody."
    ),
    "rules.variants.p4": N_(
        "Once a trick has been trumped, a player who cannot follow suit must overtrump when able "
        "(basic rules), or may play any trump; one who cannot overtrump must still trump (basic "
        "rules), or may play any card."
    ),
    "rules.variants.p5": N_(
        "The first trick must be led with an ace when the leader holds one (not in the basic "
        "rules)."
    ),
    "rules.variants.p6": N_(
        "Both teams on the target after the same deal: a draw (basic rules), or play on until one "
        "team alone is on the target."
    ),
    "rules.full": N_(
        "This page is a summary. The complete rules, numbered, with the variants and worked cases, "
        "are docs/RULES.md in valtti's source; the saved-game format is docs/RECORD.md."
    ),
}

#: The sections, in order; the title, the introduction and the word on the full rules
#: (``rules.title``, ``rules.intro``, ``rules.full``) come before and after them.
SECTIONS: Final = (
    Section("s1", ("p1", "p2", "p3")),
    Section("s2", ("p1",)),
    Section("s3", ("p1", "p2", "p3")),
    Section("s4", ("p1", ("declare", "whole", "half"), "p2", "p3")),
    Section("s5", ("p1",)),
    Section("s6", ("p1", "p2")),
    Section("variants", (("p1", "p2", "p3", "p4", "p5", "p6"),)),
)
