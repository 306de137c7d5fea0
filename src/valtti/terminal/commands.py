"""What the player types: card tokens, card numbers, declaration words and the table commands.

Words are accepted in English and in the active language (the catalogue's ``command`` context),
so ``declare h``, ``ask half s``, ``answer c``, ``help``… always work, and ``ilmoita h``,
``kysy puoli s``, ``vastaa c``, ``ohje``… work in Finnish. A suit is its letter (S H D C), its
symbol or its name, in English and in the active language (the ``suit`` context): ``declare
hearts``, ``ilmoita hertta``.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from valtti.engine import Action, ActionKind, Card, Suit
from valtti.terminal.i18n import NC_, _, pgettext

# The command words (English forms; each is translated in the "command" context).
DECLARE: Final = NC_("command", "declare")
ASK: Final = NC_("command", "ask")
WHOLE: Final = NC_("command", "whole")
HALF: Final = NC_("command", "half")
ANSWER: Final = NC_("command", "answer")
HELP: Final = NC_("command", "help")
HINT: Final = NC_("command", "hint")
REVIEW: Final = NC_("command", "review")
SCORE: Final = NC_("command", "score")
TRICKS: Final = NC_("command", "tricks")
LAST: Final = NC_("command", "last")
SAVE: Final = NC_("command", "save")
QUIT: Final = NC_("command", "quit")
UNDO: Final = NC_("command", "undo")
MORE: Final = NC_("command", "more")
YES: Final = NC_("command", "yes")
NO: Final = NC_("command", "no")
#: The suits' names (English forms; each is translated in the "suit" context).
SUIT_NAMES: Final = {
    Suit.S: NC_("suit", "spades"),
    Suit.H: NC_("suit", "hearts"),
    Suit.D: NC_("suit", "diamonds"),
    Suit.C: NC_("suit", "clubs"),
}
#: What ``help`` tells besides the moment: the rules, the cards and the game's words (English
#: forms; each is translated in the "topic" context), each with the other names it answers to
#: in any language (the Finnish game's words too).
TOPICS: Final = {
    NC_("topic", "rules"): ("rule", "säännöt", "sääntö"),
    NC_("topic", "cards"): ("card", "points", "kortit", "kortti", "pisteet"),
    NC_("topic", "terms"): ("words", "sanat", "termit"),
    NC_("topic", "trumps"): ("trump", "valtti", "valtit"),
    NC_("topic", "marriage"): ("marriages", "pari", "parit"),
    NC_("topic", "locked"): ("lock", "locks", "lukittu", "lukitus"),
    NC_("topic", "little trump"): ("little", "pikkuvaltti"),
    NC_("topic", "last"): ("last trick", "viimeinen", "viimeinen tikki", "vika"),
    NC_("topic", "victory"): ("voitto", "voittopiste"),
    NC_("topic", "overshoot"): ("over", "ylitys", "yli"),
    NC_("topic", "Porvoo"): ("porvooseen",),
    NC_("topic", "forehand"): ("etukäsi", "aloittaja"),
    NC_("topic", "checkmaters"): ("checkmater", "matit", "mateiksi", "matti"),
}


def word(english: str, context: str = "command") -> str:
    """A command word (or, in the ``suit`` context, a suit's name) as the player types it in
    the active language."""
    return pgettext(context, english)


def _is(text: str, english: str, context: str = "command") -> bool:
    return text in (english, word(english, context).lower())


@dataclass(frozen=True, slots=True)
class Play:
    """Take an action: a card, a declaration, a question or an answer."""

    action: Action


@dataclass(frozen=True, slots=True)
class Help:
    """Explain the current moment, or why one action is or is not legal."""

    action: Action | None = None


@dataclass(frozen=True, slots=True)
class Topic:
    """Tell one of ``TOPICS``: the rules, the cards or one of the game's words."""

    name: str


@dataclass(frozen=True, slots=True)
class Hint:
    """Show what the computer would do."""


@dataclass(frozen=True, slots=True)
class Review:
    """Review the player's decisions in deal ``number``; with none, in the last finished deal,
    or in the whole match once it is over (``terminal.review``)."""

    number: int | None = None


@dataclass(frozen=True, slots=True)
class Score:
    """Show the match score and the deals so far."""


@dataclass(frozen=True, slots=True)
class Tricks:
    """Show the tricks of the deal so far; with ``last`` only the last one taken."""

    last: bool = False


@dataclass(frozen=True, slots=True)
class More:
    """Turn the reply shown to its next page (``paging``)."""


@dataclass(frozen=True, slots=True)
class Save:
    """Write the match so far to a record file."""

    path: str


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the position to the player's previous decision."""


@dataclass(frozen=True, slots=True)
class Quit:
    """Leave the match (after a confirmation)."""


@dataclass(frozen=True, slots=True)
class Empty:
    """An empty line."""


Command = Play | Help | Topic | Hint | Review | Score | Tricks | More | Save | Undo | Quit | Empty


class InputError(ValueError):
    """A line that is not a command; the message (in the active language) says what is accepted."""


class MisreadError(InputError):
    """A line not understood whose nearest reading is ``action``, which is not legal now: the
    message says it was not understood; the session says why ``action`` is not legal (the
    engine's reason), offering only what is."""

    def __init__(self, message: str, text: str, action: Action) -> None:
        super().__init__(message)
        self.text = text
        self.action = action


#: The longest line taken as a command: a longer one (a paste gone wrong) is refused whole.
MAX_LINE: Final = 200


def parse(
    line: str, hand: Sequence[Card], answering: bool = False, legal: Sequence[Action] = ()
) -> Command:
    """The command on ``line``; card numbers count from 1 in ``hand`` as shown on the screen.
    ``answering`` (the player names a marriage): a suit alone is the answer. ``legal``: the
    engine's legal actions now, which a line not understood is matched against ("did you
    mean")."""
    if len(line) > MAX_LINE:
        raise InputError(
            _("A line of {n} characters is too long (at most {most}): nothing was done.").format(
                n=len(line), most=MAX_LINE
            )
        )
    words = line.split()
    if not words:
        return Empty()
    first = words[0].lower()
    rest = line.strip()[len(words[0]) :].strip()
    if first == "?" or _is(first, HELP):
        # help hint, help save …: the general help, which says what each command does.
        about = rest.split()[0].lower() if rest else ""
        named = topic(rest)
        if named is not None:
            return Topic(named)
        if not rest or any(_is(about, c) for c in _OTHER_COMMANDS):
            return Help(None)
        try:
            return Help(parse_action(rest, hand))
        except InputError:
            # help explains a move that is not legal too: a move near is offered as one.
            meant = did_you_mean(rest, ())
            near = action_words(meant) if isinstance(meant, Action) else _near_topic(rest)
            if near is None:
                raise
            if not isinstance(meant, Action):
                near = word(near, "topic")
            raise InputError(
                _("Not understood: {text}. Did you mean: {meant}?").format(
                    text=line.strip(), meant=f"{word(HELP)} {near}"
                )
            ) from None
    if _is(first, SAVE):
        name = rest.strip("\"'")  # save "my match.json" is the file my match.json
        if not name.strip():
            raise InputError(_("Save needs a file name, e.g. save match.json"))
        return Save(name)
    if _is(first, REVIEW):
        if len(words) == 1:
            return Review()
        if len(words) == 2 and words[1].isdecimal() and len(words[1]) <= 4:
            return Review(int(words[1]))
        raise InputError(
            _("Review takes a deal's number or nothing, e.g. {review} 2").format(
                review=word(REVIEW)
            )
        )
    if len(words) == 1:
        if _is(first, HINT):
            return Hint()
        if _is(first, SCORE):
            return Score()
        if _is(first, TRICKS):
            return Tricks()
        if _is(first, LAST):
            return Tricks(last=True)
        if _is(first, MORE):
            return More()
        if _is(first, UNDO):
            return Undo()
        if _is(first, QUIT):
            return Quit()
    return Play(parse_action(line, hand, answering, legal))


def parse_action(
    text: str, hand: Sequence[Card], answering: bool = False, legal: Sequence[Action] = ()
) -> Action:
    """An action from a card token, a card number or declaration words (while ``answering``,
    also a suit alone); ``InputError`` if none, saying what was meant where it is near one of
    them (``legal``: the legal actions now, which complete a move missing its suit)."""
    action = _action(text, hand, answering)
    if action is not None:
        return action
    meant = did_you_mean(text, legal)
    if isinstance(meant, Action) and legal:
        raise MisreadError(_not_understood(text, answering), text.strip(), meant)
    if isinstance(meant, str):
        raise InputError(meant)
    # Nothing near, or a move while none is legal (no deal waits for the player).
    raise InputError(_not_understood(text, answering))


def _not_understood(text: str, answering: bool) -> str:
    """A line that is not understood, and what is: a card, a move, ``help``."""
    if answering:
        return _(
            "Not understood: {text}. Name the suit of a marriage you hold: c, d, h or s "
            "(or '{answer} c'), or type '{help}'."
        ).format(text=text.strip(), **command_words())
    return _(
        "Not understood: {text}. Type a card (as, 10d, td) or its number, "
        "'{declare} h', '{ask} {whole}', '{ask} {half} s', '{answer} c', or '{help}'."
    ).format(text=text.strip(), **command_words())


def _action(text: str, hand: Sequence[Card], answering: bool) -> Action | None:
    """The action ``text`` names (see ``parse_action``); ``None`` if none; ``InputError`` for a
    card number that is none of the hand's."""
    shown = text.strip()
    # A number before "-" is read as a space (ask-whole): -1 is no card, not card 1.
    if re.fullmatch(r"[+-]?\d+", shown):
        if not hand:  # a deal's or the match's end: no cards to number
            raise InputError(_("No deal is being played now: there are no cards to play."))
        number = int(shown)
        if shown[0] in "+-" or not 1 <= number <= len(hand):
            raise InputError(
                _("There is no card number {number}: your cards are numbered 1 to {last}.").format(
                    number=shown, last=len(hand)
                )
            )
        return Action.play(hand[number - 1])
    words = text.lower().replace("-", " ").split()
    if answering and len(words) == 1 and (answer := _suit(words[0])) is not None:
        return Action.answer(answer)
    if len(words) == 1:
        try:
            return Action.play(Card.parse(words[0]))
        except ValueError:
            pass
    if len(words) == 2 and _is(words[0], ASK) and _is(words[1], WHOLE):
        return Action.ask_whole()
    suit = _suit(words[-1]) if len(words) >= 2 else None
    if suit is not None:
        if len(words) == 2 and _is(words[0], DECLARE):
            return Action.declare(suit)
        if len(words) == 2 and _is(words[0], ANSWER):
            return Action.answer(suit)
        if len(words) == 3 and _is(words[0], ASK) and _is(words[1], HALF):
            return Action.ask_half(suit)
    return None


#: The command words, keyed as the messages' placeholders name them.
_WORDS: Final = {
    "declare": DECLARE,
    "ask": ASK,
    "whole": WHOLE,
    "half": HALF,
    "answer": ANSWER,
    "help": HELP,
    "hint": HINT,
    "review": REVIEW,
    "score": SCORE,
    "tricks": TRICKS,
    "last": LAST,
    "more": MORE,
    "save": SAVE,
    "undo": UNDO,
    "quit": QUIT,
}


def command_words() -> dict[str, str]:
    """Every command word in the active language, keyed as the messages' placeholders name it."""
    return {name: word(english) for name, english in _WORDS.items()}


def topic(text: str) -> str | None:
    """The topic of ``TOPICS`` that ``text`` names (its English key, its name in the active
    language or another of its names, in any case, spaces and hyphens as the player likes);
    ``None`` if none."""
    shown = _squeezed(text)
    for key, others in TOPICS.items():
        if shown in {_squeezed(n) for n in (key, word(key, "topic"), *others)}:
            return key
    return None


def _squeezed(text: str) -> str:
    return "".join(text.lower().replace("-", " ").split())


def _suit(text: str) -> Suit | None:
    """The suit ``text`` names: a letter, a symbol or a name (in English or the active
    language); ``None`` if none."""
    try:
        return Suit.parse(text)
    except ValueError:
        pass
    return next((suit for suit, name in SUIT_NAMES.items() if _is(text, name, "suit")), None)


def action_words(action: Action) -> str:
    """What to type for a declaration, a question or an answer, in the active language."""
    suit = "" if action.suit is None else " " + action.suit.symbol
    kind = action.kind
    if kind is ActionKind.DECLARE:
        return word(DECLARE) + suit
    if kind is ActionKind.ASK_WHOLE:
        return f"{word(ASK)} {word(WHOLE)}"
    if kind is ActionKind.ASK_HALF:
        return f"{word(ASK)} {word(HALF)}{suit}"
    if kind is ActionKind.ANSWER:
        return word(ANSWER) + suit
    card = action.card
    assert card is not None
    return card.unicode()


def card_token(card: Card) -> str:
    """A card as the player types it: ``as``, ``10h``."""
    text = str(card).lower()
    return "10" + text[1:] if text.startswith("t") else text


#: The commands that are not actions.
_OTHER_COMMANDS: Final = (HELP, HINT, REVIEW, SCORE, TRICKS, LAST, MORE, UNDO, SAVE, QUIT)
#: The words that start a move, and the kinds of the legal actions each may start.
_MOVE_WORDS: Final = {
    DECLARE: (ActionKind.DECLARE,),
    ASK: (ActionKind.ASK_WHOLE, ActionKind.ASK_HALF),
    ANSWER: (ActionKind.ANSWER,),
}
#: How close a mistyped word must be to a command word to be taken for it (difflib's ratio).
_NEAR: Final = 0.75


def _vocabulary() -> dict[str, str]:
    """The words of moves and commands, the suits' names and letters, in English and the active
    language: each as typed, to the English word it means (a suit: its letter)."""
    known: dict[str, str] = {}
    for english in (*_MOVE_WORDS, WHOLE, HALF, *_OTHER_COMMANDS):
        known[english] = known[word(english).lower()] = english
    for suit, name in SUIT_NAMES.items():
        letter = suit.name.lower()
        known[letter] = known[name] = known[word(name, "suit").lower()] = letter
    return known


def did_you_mean(text: str, legal: Sequence[Action]) -> str | Action | None:
    """What a line not understood most likely meant, in the active language: each mistyped word
    taken for the nearest command word (``decalre s``: declare ♠; ``hlep rules``: help rules),
    or a move missing its suit completed by the ``legal`` actions that would complete it
    (``ask half``: the suits that may be asked now); ``None`` where nothing is near. Only a
    legal move is offered: a move read that is not one of ``legal`` is returned, for the
    engine to say why."""
    known = _vocabulary()
    typed = text.lower().replace("-", " ").split()
    words = []
    for w in typed:
        near = difflib.get_close_matches(w, known, n=1, cutoff=_NEAR) if len(w) > 2 else []
        words.append(known[w] if w in known else known[near[0]] if near else w)
    if not typed:
        return None
    shown = text.strip()
    if words[0] in _OTHER_COMMANDS and typed[0] != words[0]:
        rest = shown[len(text.split()[0]) :].strip()
        if _takes(words[0], rest):
            meant = f"{word(words[0])} {rest}".strip()
            return _("Not understood: {text}. Did you mean: {meant}?").format(
                text=shown, meant=meant
            )
        return None
    action = _action(" ".join(words), [], answering=False)
    if action is not None and action in legal:
        return _("Not understood: {text}. Did you mean: {meant}?").format(
            text=shown, meant=action_words(action)
        )
    if action is not None:
        return action
    started = _started(words)
    if started is None:
        return None
    completing = [a for a in legal if action_words(a).startswith(started) and a.suit is not None]
    if not completing:
        return _("'{words}' needs a suit, and none can be named now.").format(words=started)
    return _("'{words}' needs a suit. Legal now: {actions}.").format(
        words=started, actions=_(" or ").join(action_words(a) for a in completing)
    )


def _takes(command: str, rest: str) -> bool:
    """Whether ``rest`` is what the command ``command`` (English) takes after its word: a topic,
    a move or a command after ``help``, a file after ``save``, a deal's number after
    ``review``, nothing after the others."""
    if not rest:
        return True
    if command == HELP:
        about = rest.split()[0].lower()
        return (
            topic(rest) is not None
            or any(_is(about, c) for c in _OTHER_COMMANDS)
            or _action(rest, [], answering=False) is not None
        )
    if command == SAVE:
        return True
    return command == REVIEW and rest.isdecimal() and len(rest) <= 4


def _near_topic(text: str) -> str | None:
    """The topic of ``TOPICS`` whose name (in English or the active language) ``text`` nearly
    is: ``rulse``, ``sääntöt``."""
    names = {
        _squeezed(n): key
        for key, others in TOPICS.items()
        for n in (key, word(key, "topic"), *others)
    }
    near = difflib.get_close_matches(_squeezed(text), names, n=1, cutoff=_NEAR)
    return names[near[0]] if near else None


def _started(words: Sequence[str]) -> str | None:
    """The words of a move that lacks only its suit, as ``action_words`` writes them; ``None``
    if ``words`` are not such a start."""
    if words in (["declare"], ["answer"]):
        return word(words[0])
    if words == ["ask", "half"]:
        return f"{word(ASK)} {word(HALF)}"
    return None


#: The words a line may start with besides a card, in the order completion offers them.
_FIRST_WORDS: Final = (
    *_MOVE_WORDS,
    HELP,
    HINT,
    REVIEW,
    SCORE,
    TRICKS,
    LAST,
    MORE,
    UNDO,
    SAVE,
    QUIT,
)


def completions(
    line: str, hand: Sequence[Card], legal: Sequence[Action], finished: int = 0
) -> list[str]:
    """What the last word of ``line`` may become: the cards of ``hand`` (only the legal ones
    where one fits) and the command words of the active language, a move's word only where
    one of the ``legal`` actions starts with it; after a move's word, its next words, only
    those of legal actions (a suit only where it is legal); after ``review``, the numbers of
    the ``finished`` deals (1 to ``finished``)."""
    words = line.lower().split()
    if line[-1:].isspace() or not line:
        words.append("")
    *before, last = words
    kinds = {a.kind for a in legal}
    if not before:
        # The legal cards alone where one fits (a terminal lists what it offers sorted).
        playable = {a.card for a in legal if a.card is not None}
        cards = [card_token(c) for c in hand if c in playable]
        if not any(c.startswith(last) for c in cards):
            cards = [card_token(c) for c in hand]
        moves = [w for w in _FIRST_WORDS if w not in _MOVE_WORDS or kinds & {*_MOVE_WORDS[w]}]
        offered = cards + [word(w) for w in moves]
    elif len(before) == 1 and _is(before[0], ASK):
        # The English words after an English one, which every language takes.
        english = before[0] == ASK
        asked = [(WHOLE, ActionKind.ASK_WHOLE), (HALF, ActionKind.ASK_HALF)]
        offered = [w if english else word(w) for w, kind in asked if kind in kinds]
    elif len(before) == 1 and (before[0] == "?" or _is(before[0], HELP)):
        offered = [word(t, "topic").lower() for t in TOPICS if " " not in word(t, "topic")]
    elif len(before) == 1 and (_is(before[0], DECLARE) or _is(before[0], ANSWER)):
        kind = ActionKind.DECLARE if _is(before[0], DECLARE) else ActionKind.ANSWER
        offered = _suit_words([a for a in legal if a.kind is kind])
    elif len(before) == 1 and _is(before[0], REVIEW):
        offered = [str(n) for n in range(1, finished + 1)]
    elif len(before) == 2 and _is(before[0], ASK) and _is(before[1], HALF):
        offered = _suit_words([a for a in legal if a.kind is ActionKind.ASK_HALF])
    else:
        return []
    return [w for w in offered if w.lower().startswith(last)]


def _suit_words(actions: Sequence[Action]) -> list[str]:
    """The suits of ``actions``: their letters, then their names in the active language."""
    suits = [a.suit for a in actions if a.suit is not None]
    return [s.name.lower() for s in suits] + [word(SUIT_NAMES[s], "suit") for s in suits]
