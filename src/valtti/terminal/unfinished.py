"""The kept matches as the player sees them: ``valtti play --saves``, the question asked before
a new match (or another file) while one is kept, and what the log says of them.

The store itself is ``saving.Saves``; every text here is in the active language.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from enum import Enum
from pathlib import Path
from typing import Final

from rich.console import Console
from rich.text import Text

from valtti.engine import Seat
from valtti.terminal.i18n import NC_, _, ngettext, pgettext
from valtti.terminal.phrases import player_text, score_text, seat_text
from valtti.terminal.saving import Kept, Scan, SetAside


class Choice(Enum):
    """What to do with the kept match when another is to start, or with one that another
    ``valtti play`` has open."""

    RESUME = "resume"
    KEEP = "keep"
    DISCARD = "discard"
    VIEW = "view"  #: look at it as it is, read-only
    COPY = "copy"  #: play on from a copy of it, in a save of this session's own


#: The words of the answers (their first letters are the keys), as ``pgettext("choice", …)``.
WORDS: Final = {
    Choice.RESUME: NC_("choice", "resume"),
    Choice.KEEP: NC_("choice", "keep"),
    Choice.DISCARD: NC_("choice", "discard"),
    Choice.VIEW: NC_("choice", "view"),
    Choice.COPY: NC_("choice", "copy"),
}
#: The answers to the question about a match nobody has open, and about one another has.
FREE: Final = (Choice.RESUME, Choice.KEEP, Choice.DISCARD)
OPEN: Final = (Choice.RESUME, Choice.VIEW, Choice.COPY, Choice.KEEP)


def when_text(kept: Kept | float) -> str:
    """When the match was last played (``kept`` or its time), in local time:
    ``2025-01-05 14:03``."""
    modified = kept if isinstance(kept, float | int) else kept.modified
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(modified))


def where_text(kept: Kept) -> str:
    """How far the match has gone, and its score: ``deal 3, trick 2/9, NS 4 – EW 6``, ``deal 3
    over, NS 4 – EW 6`` between deals, ``finished after 9 deals, NS 10 – EW 7``."""
    match = kept.match
    score = score_text(match.score)
    deals = len(match.deals)
    if match.is_over():
        told = ngettext(
            "finished after {deals} deal, {score}", "finished after {deals} deals, {score}", deals
        )
        return told.format(deals=deals, score=score)
    deal = match.deal
    if deal is not None and deal.is_over():
        return _("deal {deal} over, {score}").format(deal=deals, score=score)
    taken = match.observation(Seat.S if kept.meta.seat is None else kept.meta.seat).tricks
    return _("deal {deal}, trick {trick}/9, {score}").format(
        deal=deals, trick=len(taken) + 1, score=score
    )


def who_text(kept: Kept) -> str:
    """Who plays: ``you S; N E W: random``."""
    meta = kept.meta
    who = []
    if meta.seat is not None:
        who.append(_("you {seat}").format(seat=seat_text(meta.seat)))
    groups: dict[str, list[str]] = {}
    for seat in Seat:
        spec = meta.player_at(seat)
        if spec is not None and seat != meta.seat:
            groups.setdefault(player_text(spec), []).append(seat_text(seat))
    who.extend(f"{' '.join(seats)}: {player}" for player, seats in groups.items())
    return "; ".join(who)


def match_text(kept: Kept) -> str:
    """How far the match has gone, then who plays: ``deal 3, trick 2/9, NS 4 – EW 6; you S;
    N E W: random``."""
    who = who_text(kept)
    return where_text(kept) + ("; " + who if who else "")


def open_text(kept: Kept | int) -> str:
    """That another ``valtti play`` has the match open (``kept``'s, or the process id of the
    one that has it), and which."""
    pid = kept if isinstance(kept, int) else kept.holder
    if pid is not None and pid > 0:
        return _("open in another valtti play (process {pid})").format(pid=pid)
    return _("open in another valtti play")


def open_line(kept: Kept | int) -> str:
    """``open_text`` as a sentence of its own."""
    pid = kept if isinstance(kept, int) else kept.holder
    if pid is not None and pid > 0:
        return _("Another valtti play has it open (process {pid}).").format(pid=pid)
    return _("Another valtti play has it open.")


def listing(scan: Scan, folder: Path) -> list[Text]:
    """``valtti play --saves``: the matches kept, numbered as ``--resume`` takes them: the
    unfinished ones newest first, then the finished ones (kept until their player leaves
    them), each with when it was last played, how far it went and its score, under it who
    plays (a row fits 80 columns), and the match another ``valtti play`` has open marked so.
    Lines of text, to print unwrapped (one may hold a long path) and with no trailing spaces."""
    told = [Text(aside_text(a)) for a in scan.set_aside]
    unfinished = scan.unfinished
    if not unfinished:
        told.append(Text(_("No unfinished match is kept (in {folder}).").format(folder=folder)))
    width = len(str(len(scan.kept)))
    indent = " " * (width + 2 + len(when_text(0.0)) + 2)
    for number, kept in enumerate(scan.kept, start=1):
        if number == 1 and unfinished:
            heading = _("Unfinished matches, newest first (in {folder}):").format(folder=folder)
            told.append(Text(heading))
        if number == len(unfinished) + 1:
            told.append(Text(_("Finished matches, kept until you leave them:")))
        told.append(Text(f"{number:>{width}}  {when_text(kept)}  {where_text(kept)}"))
        who = who_text(kept)
        if who:
            told.append(Text(indent + who))
        if kept.holder is not None:
            told.append(Text(indent + open_text(kept)))
    if scan.kept:
        told.append(
            Text(
                _("Go on with one: {command} NUMBER (with no number: the newest).").format(
                    command="valtti play --resume"
                )
            )
        )
    return told


def aside_text(aside: SetAside) -> str:
    """A file that could not be read, set aside."""
    return _("The saved match {name} cannot be read ({error}): it is set aside as {aside}.").format(
        name=aside.path.name, error=aside.error, aside=aside.now.name
    )


def _key(choice: Choice) -> str:
    return pgettext("choice", WORDS[choice])[:1]


def words(choices: Collection[Choice] = tuple(Choice)) -> list[str]:
    """The words of ``choices`` in the active language, then in English: what Tab offers."""
    told = [pgettext("choice", WORDS[c]) for c in choices]
    return told + [WORDS[c] for c in choices if WORDS[c] not in told]


def answer(line: str, choices: Collection[Choice] = FREE) -> Choice | None:
    """The one of ``choices`` that a typed answer names: the key or the word (or its start) in
    the active language, else in English; Enter keeps. ``None`` for anything else."""
    typed = line.strip().lower()
    if not typed:
        return Choice.KEEP
    for translated in (True, False):
        for choice in choices:
            said = pgettext("choice", WORDS[choice]) if translated else WORDS[choice]
            if said.lower().startswith(typed):
                return choice
    return None


def ask(
    kept: Kept, more: int, resuming: Path | None, read: Callable[[str], str], console: Console
) -> Choice:
    """Ask what to do with ``kept`` (the newest unfinished match, or the one asked for; ``more``
    others are kept) before a new match starts, or before the match in ``resuming`` goes on:
    asked again until the answer is one. Where another ``valtti play`` has it open it cannot
    be resumed, nor discarded: it may be viewed read-only or played on from a copy, or resumed
    once that one has left it (``OPEN``). ``read`` shows the prompt and reads a line;
    ``EOFError`` and ``KeyboardInterrupt`` come through from it."""
    console.print(
        Text(_("An unfinished match is kept, last played {when}:").format(when=when_text(kept))),
        soft_wrap=True,
    )
    console.print(Text("  " + match_text(kept)))
    busy = kept.holder is not None
    if busy:
        console.print(Text("  " + open_line(kept)))
    if more:
        console.print(
            Text("  " + _("({count} more kept: valtti play --saves lists them)").format(count=more))
        )
    keys = {c.value: _key(c) for c in Choice}
    if busy and resuming is None:
        question = _(
            "Resume it once the other has left it ({resume}), view it read-only ({view}), play "
            "on from a copy of it ({copy}), or keep it and start a new match ({keep})? "
            "[{keep}] > "
        ).format(**keys)
    elif busy:
        question = _(
            "Resume it once the other has left it ({resume}), view it read-only ({view}), play "
            "on from a copy of it ({copy}), or keep it and go on with {file} ({keep})? "
            "[{keep}] > "
        ).format(file=resuming.name if resuming else "", **keys)
    elif resuming is None:
        question = _(
            "Resume it ({resume}), keep it and start a new match ({keep}), or discard it "
            "({discard})? [{keep}] > "
        ).format(**keys)
    else:
        question = _(
            "Resume it ({resume}), keep it and go on with {file} ({keep}), or discard it "
            "({discard})? [{keep}] > "
        ).format(file=resuming.name, **keys)
    choices = OPEN if busy else FREE
    while True:
        chosen = answer(read(question), choices)
        if chosen is not None:
            return chosen
        if busy:
            again = _("Please answer {resume}, {view}, {copy} or {keep}.")
        else:
            again = _("Please answer {resume}, {keep} or {discard}.")
        console.print(Text(again.format(**keys)))


def notes(choice: Choice | None, kept: Kept | None, asked: bool) -> list[str]:
    """What the new session's log says of the unfinished match ``kept`` it did not go on with:
    ``choice`` (``asked``: whether the player or the options chose it, not kept only because
    input is no terminal)."""
    if kept is None or choice is None:
        return []
    when = when_text(kept)
    if choice is Choice.KEEP and not asked:
        return [
            _(
                "The input is not a terminal: the unfinished match of {when} is kept without "
                "asking (valtti play --saves lists it)."
            ).format(when=when)
        ]
    if choice is Choice.KEEP:
        return [
            _("The unfinished match of {when} is kept (valtti play --saves lists it).").format(
                when=when
            )
        ]
    if choice is Choice.DISCARD:
        return [_("The unfinished match of {when} is discarded.").format(when=when)]
    return []


def removed_text(removed: Sequence[float], limit: int) -> list[str]:
    """The oldest matches removed (when each was last played) to keep at most ``limit``."""
    return [
        _("The oldest kept match, of {when}, is removed: at most {count} are kept.").format(
            when=when_text(old), count=limit
        )
        for old in removed
    ]
