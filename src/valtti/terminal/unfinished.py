"""The unfinished matches as the player sees them: ``valtti play --saves``, the question asked
before a new match (or another file) while one is kept, and what the log says of them.

The store itself is ``saving.Saves``; every text here is in the active language.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from enum import Enum
from pathlib import Path
from typing import Final

from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from valtti.engine import Seat
from valtti.terminal.i18n import NC_, _, pgettext
from valtti.terminal.phrases import player_text, score_text, seat_text
from valtti.terminal.saving import Kept, Scan, SetAside


class Choice(Enum):
    """What to do with the unfinished match kept when another is to start."""

    RESUME = "resume"
    KEEP = "keep"
    DISCARD = "discard"


#: The words of the answers (their first letters are the keys), as ``pgettext("choice", …)``.
WORDS: Final = {
    Choice.RESUME: NC_("choice", "resume"),
    Choice.KEEP: NC_("choice", "keep"),
    Choice.DISCARD: NC_("choice", "discard"),
}


def when_text(kept: Kept) -> str:
    """When the match was last played, in local time: ``2025-01-05 14:03``."""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(kept.modified))


def match_text(kept: Kept, between: str = "; ") -> str:
    """The deal, the trick, the score, then who plays (after ``between``): ``deal 3, trick
    2/9, NS 4 – EW 6; you S; N E W: random``."""
    meta = kept.meta
    taken = kept.match.observation(Seat.S if meta.seat is None else meta.seat).tricks
    where = _("deal {deal}, trick {trick}/9, {score}").format(
        deal=len(kept.match.deals),
        trick=min(len(taken) + 1, 9),
        score=score_text(kept.match.score),
    )
    who = []
    if meta.seat is not None:
        who.append(_("you {seat}").format(seat=seat_text(meta.seat)))
    groups: dict[str, list[str]] = {}
    for seat in Seat:
        spec = meta.player_at(seat)
        if spec is not None and seat != meta.seat:
            groups.setdefault(player_text(spec), []).append(seat_text(seat))
    who.extend(f"{' '.join(seats)}: {player}" for player, seats in groups.items())
    return where + between + "; ".join(who) if who else where


def listing(scan: Scan, folder: Path) -> list[RenderableType]:
    """``valtti play --saves``: the unfinished matches, newest first, numbered as ``--resume``
    takes them, with when each was last played, its deal, trick, score and players (on a line
    of its own, so that a row fits 80 columns). A line of text
    is a ``Text`` (to print unwrapped: it may hold a long path)."""
    told: list[RenderableType] = [Text(aside_text(a)) for a in scan.set_aside]
    if not scan.kept:
        told.append(Text(_("No unfinished match is kept (in {folder}).").format(folder=folder)))
        return told
    told.append(Text(_("Unfinished matches, newest first (in {folder}):").format(folder=folder)))
    grid = Table.grid(padding=(0, 2))
    grid.add_column(justify="right", no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column()
    for number, kept in enumerate(scan.kept, start=1):
        grid.add_row(str(number), when_text(kept), match_text(kept, "\n"))
    told.append(grid)
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


def words() -> list[str]:
    """The answers' words in the active language, then in English: what Tab offers."""
    told = [pgettext("choice", w) for w in WORDS.values()]
    return told + [w for w in WORDS.values() if w not in told]


def answer(line: str) -> Choice | None:
    """The choice a typed answer names: the key or the word (or its start) in the active
    language or in English; Enter keeps. ``None`` for anything else."""
    typed = line.strip().lower()
    if not typed:
        return Choice.KEEP
    for choice, word in WORDS.items():
        for said in (pgettext("choice", word).lower(), word):
            if said.startswith(typed):
                return choice
    return None


def ask(
    kept: Kept, more: int, resuming: Path | None, read: Callable[[str], str], console: Console
) -> Choice:
    """Ask what to do with ``kept`` (the newest unfinished match; ``more`` others are kept)
    before a new match starts, or before the match in ``resuming`` goes on: asked again until
    the answer is one. ``read`` shows the prompt and reads a line; ``EOFError`` and
    ``KeyboardInterrupt`` come through from it."""
    console.print(
        Text(_("An unfinished match is kept, last played {when}:").format(when=when_text(kept))),
        soft_wrap=True,
    )
    console.print(Text("  " + match_text(kept)))
    if more:
        console.print(
            Text("  " + _("({count} more kept: valtti play --saves lists them)").format(count=more))
        )
    keys = {c.value: _key(c) for c in Choice}
    if resuming is None:
        question = _(
            "Resume it ({resume}), keep it and start a new match ({keep}), or discard it "
            "({discard})? [{keep}] > "
        ).format(**keys)
    else:
        question = _(
            "Resume it ({resume}), keep it and go on with {file} ({keep}), or discard it "
            "({discard})? [{keep}] > "
        ).format(file=resuming.name, **keys)
    while True:
        chosen = answer(read(question))
        if chosen is not None:
            return chosen
        console.print(Text(_("Please answer {resume}, {keep} or {discard}.").format(**keys)))


def notes(
    choice: Choice | None, kept: Kept | None, asked: bool, aside: Sequence[SetAside]
) -> list[str]:
    """What the new session's log says of the unfinished match and the files set aside:
    ``choice`` for ``kept`` (``asked``: whether the player or the options chose it, not kept
    only because input is no terminal)."""
    told = [aside_text(a) for a in aside]
    if kept is None or choice is None:
        return told
    when = when_text(kept)
    if choice is Choice.KEEP and not asked:
        told.append(
            _(
                "The input is not a terminal: the unfinished match of {when} is kept without "
                "asking (valtti play --saves lists it)."
            ).format(when=when)
        )
    elif choice is Choice.KEEP:
        told.append(
            _("The unfinished match of {when} is kept (valtti play --saves lists it).").format(
                when=when
            )
        )
    elif choice is Choice.DISCARD:
        told.append(_("The unfinished match of {when} is discarded.").format(when=when))
    return told


def removed_text(removed: Sequence[Kept], limit: int) -> list[str]:
    """The oldest unfinished matches removed to keep at most ``limit``."""
    return [
        _("The oldest unfinished match, of {when}, is removed: at most {count} are kept.").format(
            when=when_text(old), count=limit
        )
        for old in removed
    ]
