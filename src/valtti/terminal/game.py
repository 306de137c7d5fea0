"""``valtti play`` starting: the options checked, a match resumed from a record or from the kept
ones, who sits where taken from a record's meta, the question about an unfinished match.

``start`` makes a ``session.Session`` ready to run; ``StartError`` says why one cannot start.
"""

from __future__ import annotations

import reprlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Final, Literal

from rich.console import Console

from valtti.engine import Match, Seat, Variant
from valtti.engine.meta import RecordMeta
from valtti.engine.record import Record
from valtti.engine.variant import SwitchError
from valtti.players import make_player
from valtti.players.sandbox import SANDBOX, Sandbox
from valtti.players.spec import PlayerSpecError, PlayerSpecFault
from valtti.table import PlayerFault, fresh_seed
from valtti.terminal import glyphs, i18n, records, saving, unfinished
from valtti.terminal.i18n import N_, _
from valtti.terminal.lineinput import LineReader
from valtti.terminal.phrases import seat_text
from valtti.terminal.saving import Kept
from valtti.terminal.session import (
    DEFAULT_PLAYER,
    EXIT_PLAYER_FAULT,
    Session,
    Setup,
)
from valtti.terminal.unfinished import Choice

EXIT_MALFORMED: Final = records.EXIT_MALFORMED

#: What is wrong with a player's name (``--partner``, ``--opponents``, a record's players).
SPEC_FAULTS: Final[dict[PlayerSpecFault, str]] = {
    PlayerSpecFault.UNKNOWN_PLAYER: N_("unknown player {spec}: known are {known}"),
    PlayerSpecFault.UNKNOWN_LEVEL: N_("unknown {player} level {level}: levels are {known}"),
    PlayerSpecFault.NO_LEVELS: N_("the {player} player has no levels"),
}


def spec_text(error: PlayerSpecError) -> str:
    """A player name that cannot be made, in the active language."""
    return _(SPEC_FAULTS[error.fault]).format(
        spec=repr(error.player),
        player=error.player,
        level=repr(error.level),
        known=", ".join(error.known),
    )


class StartError(Exception):
    """The match cannot start: a bad option or an unreadable record; ``status`` is the exit code."""

    def __init__(self, message: str, status: int = EXIT_MALFORMED) -> None:
        super().__init__(message)
        self.status = status


def _setup(
    source: Path | None,
    meta: RecordMeta,
    seat: str | None,
    partner: str | None,
    opponents: str | None,
    seed: int | None,
    sandbox: Sandbox,
) -> Setup:
    """The options given win; what they leave open comes from a record's meta, then defaults.

    ``source`` is the record's file; a player in its meta that would start a program is
    refused (``make_player(..., trusted=False)``): only the options may name one, and it runs
    in ``sandbox``.
    """
    # A bad value read from the record names the file it comes from.
    where = f"{source}: " if source is not None else ""
    if seat:
        given = seat
    elif meta.seat is not None:
        given = str(meta.seat)
    else:
        # A seat the record writes that is no seat is refused, not taken as the default.
        given = str(meta.extra.get("seat", "S"))
    try:
        you = Seat.parse(given)
    except ValueError:
        raise StartError(
            ("" if seat else where)
            + _("unknown seat {given}: seats are N, E, S, W (north, east, south, west)").format(
                given=reprlib.repr(given)  # a record's meta may hold anything
            )
        ) from None
    players = {}
    for s in Seat:
        if s == you:
            continue
        chosen = partner if s == you.partner else opponents
        spec = chosen or meta.player_at(s) or DEFAULT_PLAYER
        try:
            # A record is data from whoever wrote it: it never chooses a program to run.
            make_player(spec, trusted=bool(chosen), sandbox=sandbox).close()
        except PlayerSpecError as e:
            if e.fault is PlayerSpecFault.STARTS_PROGRAM:
                option = "--partner" if s == you.partner else "--opponents"
                raise StartError(
                    _(
                        "{path} names the program {spec} as the player at {seat}. A record "
                        "never starts a program: to let it play, name it yourself with "
                        "{option} '{spec}'."
                    ).format(path=source, spec=spec, seat=s, option=option)
                ) from None
            raise StartError(("" if chosen else where) + spec_text(e)) from None
        except ValueError as e:
            raise StartError(("" if chosen else where) + str(e)) from None
        except Exception as e:  # a program that cannot start or greet: its fault, named
            fault = PlayerFault(s, str(spec), f"{type(e).__name__}: {e}")
            raise StartError(
                _("The computer player at {seat} ({player}) failed: {what}").format(
                    seat=seat_text(s), player=spec, what=str(e)
                ),
                EXIT_PLAYER_FAULT,
            ) from fault
        players[s] = spec
    if seed is None:
        seed = meta.seed if meta.seed is not None else fresh_seed()
    return Setup(you, players, seed, sandbox)


def _seed(given: int | str | None) -> int | None:
    """A seed given as a number or as the command line's text; ``StartError`` for text that is
    no whole number, in the active language (the text is parsed here, not by the command line,
    so that the message can be)."""
    if given is None or isinstance(given, int):
        return given
    try:
        return int(given.strip())
    except ValueError:
        raise StartError(
            _("--seed takes a whole number, not {given}").format(given=reprlib.repr(given))
        ) from None


def _resume(path: Path) -> tuple[Match, Record]:
    try:
        return records.read(path)
    except records.RecordError as e:
        raise StartError(str(e), e.status) from None


#: What to do with an unfinished match kept when another is to start: ask at a terminal (keep
#: it without asking elsewhere), keep it (``--yes``), discard it (``--discard``).
IfUnfinished = Literal["ask", "keep", "discard"]


def start(
    *,
    seat: str | None = None,
    partner: str | None = None,
    opponents: str | None = None,
    seed: int | str | None = None,
    variant: str | None = None,
    language: str | None = None,
    fast: bool = False,
    resume: Path | int | None = None,
    console: Console | None = None,
    ascii_only: bool = False,
    unicode: bool = False,
    plain: bool = False,
    saves: saving.Saves | None = None,
    if_unfinished: IfUnfinished = "ask",
    ask: Callable[[str], str] | None = None,
    sandbox: Sandbox = SANDBOX,
) -> Session:
    """A session ready to ``run``: a new match, or the one saved in ``resume`` (a record file,
    or the number of an unfinished match kept in ``saves``: 1 is the newest).

    A resumed match keeps its record's variant, seed and count of take-backs; ``StartError``
    for a bad option or file, in ``language``: ``seat`` and ``seed`` may be the command line's
    text, checked here. ``ascii_only`` draws with plain characters (so does a terminal whose
    encoding or locale cannot show Unicode; ``unicode``: whatever the locale); ``plain`` is the
    line mode for screen readers.

    ``saves``: where the match is kept as it goes (``saving.Saves.default()`` for ``valtti
    play``), in a file of the session's own; ``None``, nowhere. A new match, or an unfinished
    one from a file, while an unfinished match is kept there: ``if_unfinished`` says what
    becomes of the newest kept (``unfinished.Choice``), asking with ``ask`` (by default at
    a terminal only: where standard input is none, it is kept without asking). ``EOFError``
    or ``KeyboardInterrupt`` when the player leaves at the question. A program named as a
    player runs in ``sandbox``.
    """
    i18n.use(language or i18n.default_language())
    out = console or glyphs.console(ascii_only, unicode=unicode)
    seed = _seed(seed)
    if resume is not None and (variant is not None or seed is not None):
        raise StartError(_("--variant and --seed come from the record when resuming"))
    if if_unfinished == "discard" and isinstance(resume, int):
        raise StartError(
            _(
                "--discard discards the newest unfinished match before another starts: not "
                "with --resume alone or a number"
            )
        )
    scan = saves.scan() if saves is not None else saving.Scan()
    chosen: Kept | None = None  # the kept match to go on with
    from_file: tuple[Path, Match, Record] | None = None
    if isinstance(resume, int):
        chosen = _numbered(scan, resume, saves)
    elif resume is not None:
        chosen = scan.find(resume)
        if chosen is None:
            match, record = _resume(resume)
            from_file = resume, match, record
            # The file holds a match kept as it is now (saved, left, resumed): go on with it.
            chosen = next((k for k in scan.kept if k.is_same_match(record)), None)
    # Every option is checked before anything is asked.
    if from_file is not None:
        path, match, record = from_file
        setup = _setup(
            path, RecordMeta.from_dict(record.meta), seat, partner, opponents, None, sandbox
        )
    elif chosen is not None:
        setup = _setup(chosen.path, chosen.meta, seat, partner, opponents, None, sandbox)
    else:
        try:
            rules = Variant.parse(variant) if variant else Variant()
        except SwitchError as e:
            raise StartError(records.switch_text(e)) from None
        except ValueError as e:  # a switch without a value or named twice
            raise StartError(str(e)) from None
        setup = _setup(None, RecordMeta(), seat, partner, opponents, seed, sandbox)
    log = [unfinished.aside_text(a) for a in scan.set_aside]
    newest = scan.kept[0] if scan.kept else None
    finished = from_file is not None and from_file[1].is_over()
    if chosen is None and newest is not None and not finished:
        # A new match, or another file: the newest kept match is not pushed aside unasked.
        choice, asked = _choose(newest, len(scan.kept) - 1, resume, if_unfinished, ask, out)
        log += unfinished.notes(choice, newest, asked, ())
        if choice is Choice.RESUME:
            # As it was: the options given were for the other match.
            chosen, from_file = newest, None
            setup = _setup(newest.path, newest.meta, None, None, None, None, sandbox)
        elif choice is Choice.DISCARD:
            assert saves is not None
            saves.discard(newest)
    if from_file is not None:
        path, match, record = from_file
        session = _resumed(setup, match, record, out, fast, plain)
        session.log.append(_("Resumed from {path}.").format(path=path))
    elif chosen is not None:
        session = _resumed(setup, chosen.match, chosen.record, out, fast, plain)
        when = unfinished.when_text(chosen)
        session.log.append(_("Resumed the unfinished match of {when}.").format(when=when))
    else:
        session = Session(setup.table(variant=rules), setup, out, fast=fast, plain=plain)
    session.log[:0] = log
    if saves is not None:
        if chosen is not None:
            session.autosave = saves.claim(chosen)
        else:
            session.autosave = saves.new_path()
            if not session.match.is_over():  # one more match to keep: room for it
                others = [k for k in scan.kept if k.path.exists()]
                removed = saves.prune(others)
                session.log[:0] = unfinished.removed_text(removed, saves.limit)
    return session


def _numbered(scan: saving.Scan, number: int, saves: saving.Saves | None) -> Kept:
    """The kept match of that number in ``valtti play --saves`` (1: the newest)."""
    if saves is None:
        raise ValueError("a kept match is resumed by its number only with saves")
    if not scan.kept:
        raise StartError(
            _("There is no unfinished match to go on with: none is kept in {folder}.").format(
                folder=saves.folder
            )
        )
    if not 1 <= number <= len(scan.kept):
        raise StartError(
            _(
                "There is no unfinished match number {number}: valtti play --saves lists "
                "them, 1 to {count}."
            ).format(number=number, count=len(scan.kept))
        )
    return scan.kept[number - 1]


def _resumed(
    setup: Setup,
    match: Match,
    record: Record,
    out: Console,
    fast: bool,
    plain: bool,
) -> Session:
    takebacks = RecordMeta.from_dict(record.meta).takebacks
    counted = takebacks if takebacks is not None and takebacks > 0 else 0
    return Session(
        setup.table(match), setup, out, fast=fast, plain=plain, takebacks=counted,
        resumed=record,
    )  # fmt: skip


def _choose(
    newest: Kept,
    more: int,
    resume: Path | int | None,
    if_unfinished: IfUnfinished,
    ask: Callable[[str], str] | None,
    out: Console,
) -> tuple[Choice, bool]:
    """What becomes of the newest kept match, and whether the player or the options chose it
    (``False``: input is no terminal, so it is kept without asking)."""
    if if_unfinished == "keep":
        return Choice.KEEP, True
    if if_unfinished == "discard":
        return Choice.DISCARD, True
    resuming = resume if isinstance(resume, Path) else None
    if ask is not None:
        return unfinished.ask(newest, more, resuming, ask, out), True
    if not sys.stdin.isatty():
        return Choice.KEEP, False  # never wait for an answer that cannot come
    # Line editing as at the game's prompts; Tab offers the words of the answers.
    reader = LineReader(
        out, "", lambda typed: [w for w in unfinished.words() if w.startswith(typed)]
    )
    try:
        return unfinished.ask(newest, more, resuming, reader, out), True
    finally:
        reader.forget()  # the answer is no line of the game's
