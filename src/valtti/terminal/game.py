"""``valtti play`` starting: the options checked, a match resumed from a record or from the kept
ones, who sits where taken from a record's meta, the question about an unfinished match.

``start`` makes a ``session.Session`` ready to run; ``StartError`` says why one cannot start.
"""

from __future__ import annotations

import dataclasses
import reprlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

from rich.console import Console

from valtti.engine import Match, Seat, Variant
from valtti.engine.meta import RecordMeta
from valtti.engine.record import Record
from valtti.engine.variant import SwitchError
from valtti.players import make_player
from valtti.players.sandbox import SANDBOX, Sandbox
from valtti.players.shipped import level_player
from valtti.players.spec import PlayerSpecError, PlayerSpecFault
from valtti.table import PlayerFault, fresh_seed
from valtti.terminal import glyphs, i18n, records, saving, unfinished
from valtti.terminal.i18n import N_, _
from valtti.terminal.lineinput import LineReader
from valtti.terminal.phrases import seat_text
from valtti.terminal.saving import Kept
from valtti.terminal.session import DEFAULT_PLAYER, EXIT_PLAYER_FAULT, Session, takebacks_of
from valtti.terminal.setup import Setup
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
        if chosen:
            chosen = level_player(chosen)  # "expert": the player behind the level
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
#: it without asking elsewhere), keep it (``--new``), discard it (``--discard``).
IfUnfinished = Literal["ask", "keep", "discard"]


@dataclass(frozen=True, slots=True)
class _Going:
    """How the session goes on: with ``kept`` (re-read when the player answered) as ``how``
    says (``RESUME`` in ``slot``, taken; ``VIEW`` read-only; ``COPY`` in a new save), or,
    with no ``kept``, a new match (or the file resumed)."""

    how: Choice | None = None
    kept: Kept | None = None
    slot: saving.Slot | None = None
    told: tuple[str, ...] = ()


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
    or the number of a match kept in ``saves``, as ``valtti play --saves`` lists them: 1 is the
    newest unfinished one).

    A resumed match keeps its record's variant, seed and count of take-backs; ``StartError``
    for a bad option or file, in ``language``: ``seat`` and ``seed`` may be the command line's
    text, checked here. ``ascii_only`` draws with plain characters (so does a terminal whose
    encoding or locale cannot show Unicode; ``unicode``: whatever the locale); ``plain`` is the
    line mode for screen readers.

    ``saves``: where the match is kept as it goes (``saving.Saves.default()`` for ``valtti
    play``), in a save of the session's own; ``None``, nowhere. A new match, or an unfinished
    one from a file, while an unfinished match is kept there: ``if_unfinished`` says what
    becomes of the newest kept (``unfinished.Choice``), asking with ``ask`` (by default at
    a terminal only: where standard input is none, it is kept without asking). A kept match
    is read again when the player has answered, and resumed only once this session holds it:
    one that another ``valtti play`` has open may be viewed read-only or played on from a
    copy. ``EOFError`` or ``KeyboardInterrupt`` when the player leaves at a question. A program
    named as a player runs in ``sandbox``.
    """
    i18n.use(language or i18n.default_language())
    out = console or glyphs.console(ascii_only, unicode=unicode, echo=glyphs.player_terminal())
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
            chosen = next((k for k in scan.unfinished if k.is_same_match(record)), None)
    # Every option is checked before anything is asked.
    if from_file is not None:
        path, match, record = from_file
        setup = _setup(
            path, RecordMeta.from_dict(record.meta), seat, partner, opponents, None, sandbox
        )
    elif chosen is not None:
        setup = _setup(chosen.path, chosen.meta, seat, partner, opponents, None, sandbox)
    else:
        setup = _setup(None, RecordMeta(), seat, partner, opponents, seed, sandbox)
    try:
        rules = Variant.parse(variant) if variant else Variant()
    except SwitchError as e:
        raise StartError(records.switch_text(e)) from None
    except ValueError as e:  # a switch without a value or named twice
        raise StartError(str(e)) from None
    read = _reader(ask, out)
    try:
        going = _decide(scan, chosen, from_file, resume, if_unfinished, saves, read, out)
    finally:
        if isinstance(read, LineReader):
            read.forget()  # the answers are no lines of the game's
    log = [unfinished.aside_text(a) for a in scan.set_aside] + list(going.told)
    kept = going.kept
    if kept is not None:
        if chosen is not None and kept.path == chosen.path:
            setup = _setup(kept.path, kept.meta, seat, partner, opponents, None, sandbox)
        else:  # as it was: the options given were for another match
            setup = _setup(kept.path, kept.meta, None, None, None, None, sandbox)
        session = _resumed(setup, kept.match, kept.record, out, fast, plain)
        if going.how is Choice.RESUME:
            session.slot, session.keeping = going.slot, True
        elif going.how is Choice.VIEW:
            session.watching = kept.path
        elif saves is not None:  # a copy: a save of its own
            session.slot = saves.new()
    elif from_file is not None:
        path, match, record = from_file
        setup = _setup(
            path, RecordMeta.from_dict(record.meta), seat, partner, opponents, None, sandbox
        )
        session = _resumed(setup, match, record, out, fast, plain)
        log.append(_("Resumed from {path}.").format(path=path))
        session.slot = saves.new() if saves is not None else None
    else:
        if chosen is not None:  # asked for, but not gone on with: the options are a new match's
            setup = _setup(None, RecordMeta(), seat, partner, opponents, None, sandbox)
        session = Session(setup.table(variant=rules), setup, out, fast=fast, plain=plain)
        session.slot = saves.new() if saves is not None else None
    session.drawing.log[:0] = log
    return session


def _reader(ask: Callable[[str], str] | None, out: Console) -> Callable[[str], str] | None:
    """What reads the answers to the questions before the match: ``ask``, or at a terminal the
    line editing of the game's prompts (Tab offers the words of the answers); ``None`` where
    input is no terminal (nothing is asked: an answer could not come)."""
    if ask is not None:
        return ask
    if not sys.stdin.isatty():
        return None
    return LineReader(out, "", lambda typed: [w for w in unfinished.words() if w.startswith(typed)])


def _decide(
    scan: saving.Scan,
    chosen: Kept | None,
    from_file: tuple[Path, Match, Record] | None,
    resume: Path | int | None,
    if_unfinished: IfUnfinished,
    saves: saving.Saves | None,
    read: Callable[[str], str] | None,
    out: Console,
) -> _Going:
    """How the session goes on: with ``chosen`` (asked for), or what becomes of the newest
    unfinished match kept when another starts. The kept match is read again once the player has
    answered, and taken on only once it is this session's (``Saves.take``): it may have been
    played on, finished, removed or opened in another ``valtti play`` meanwhile."""
    newest = scan.unfinished[0] if scan.unfinished else None
    resuming = resume if isinstance(resume, Path) else None
    more = len(scan.unfinished) - 1
    if saves is None:
        return _Going()
    if chosen is not None:
        kept, choice, asked = chosen, Choice.RESUME, True
    elif newest is not None and not (from_file is not None and from_file[1].is_over()):
        kept = newest
        choice, asked = _choose(newest, more, resuming, if_unfinished, read, out)
    else:
        return _Going()
    while True:
        now = saves.look(kept.path)
        if choice is Choice.KEEP:
            return _Going(told=tuple(unfinished.notes(choice, kept, asked)))
        if not isinstance(now, Kept):
            told = [unfinished.aside_text(now)] if isinstance(now, saving.SetAside) else []
            if choice is Choice.DISCARD:
                return _Going(told=tuple(told))
            # Finished and left, or discarded, in another valtti play meanwhile.
            gone = _("The match of {when} is no longer kept: another valtti play ended it.")
            told.append(gone.format(when=unfinished.when_text(kept)))
            if isinstance(resume, int) and read is None:
                raise StartError(told[-1])
            return _Going(told=tuple(told))
        if choice in (Choice.VIEW, Choice.COPY):
            return _Going(choice, now, None, (_shared_text(choice, now),))
        try:
            if choice is Choice.DISCARD:
                saves.discard(now.path)
                return _Going(told=tuple(unfinished.notes(choice, now, asked)))
            slot = saves.take(now.path)
        except FileNotFoundError:
            continue  # gone between the look and the lock: said at the next look
        except saving.InUseError as e:
            opened = dataclasses.replace(now, holder=e.pid)
            if read is None:
                if choice is Choice.DISCARD:
                    return _Going(told=(_not_discarded_text(opened),))
                raise StartError(_open_start_text(opened)) from None
            kept, choice, asked = opened, unfinished.ask(opened, more, resuming, read, out), True
            continue
        # This session's now: nobody writes it any more. It goes on as it is.
        taken = saves.look(now.path)
        if not isinstance(taken, Kept):  # cannot be read any more: set aside
            slot.close()
            told = [unfinished.aside_text(taken)] if isinstance(taken, saving.SetAside) else []
            return _Going(told=tuple(told))
        return _Going(Choice.RESUME, taken, slot, tuple(_resumed_text(taken, kept, from_file)))


def _resumed_text(
    taken: Kept, asked: Kept, from_file: tuple[Path, Match, Record] | None
) -> list[str]:
    """What the log says of the kept match ``taken`` on, as it is (``asked``: as it was when
    the player chose it; ``from_file``: the file it was asked for by, which it is)."""
    when = unfinished.when_text(taken)
    if from_file is not None:
        told = [_("Resumed from {path}.").format(path=from_file[0])]
    elif taken.finished:
        told = [
            _(
                "The match of {when} is over: here is its end (score, review, save FILE); "
                "leaving removes it from the saves."
            ).format(when=when)
        ]
    else:
        told = [_("Resumed the unfinished match of {when}.").format(when=when)]
    if not taken.is_same_match(asked.record):
        told.append(
            _(
                "It was played on meanwhile in another valtti play: it goes on as it is now, "
                "{where}."
            ).format(where=unfinished.where_text(taken))
        )
    return told


def _shared_text(choice: Choice, kept: Kept) -> str:
    """What the log says of a match another ``valtti play`` has open, viewed or copied here."""
    when = unfinished.when_text(kept)
    if choice is Choice.VIEW:
        return _(
            "The match of {when}, read-only: {open}. Enter shows it as it is now; quit leaves."
        ).format(when=when, open=unfinished.open_text(kept))
    return _(
        "A copy of the match of {when} as it is now, played on here in a save of its own: the "
        "other valtti play goes on with the match itself."
    ).format(when=when)


def _open_start_text(kept: Kept) -> str:
    """Why a match that another ``valtti play`` has open is not resumed without asking."""
    return _(
        "The match of {when} is {open}: it can be resumed once that one has left it (at a "
        "terminal, valtti play --resume also offers to view it or play on from a copy)."
    ).format(when=unfinished.when_text(kept), open=unfinished.open_text(kept))


def _not_discarded_text(kept: Kept) -> str:
    return _("The unfinished match of {when} is not discarded: it is {open}.").format(
        when=unfinished.when_text(kept), open=unfinished.open_text(kept)
    )


def _numbered(scan: saving.Scan, number: int, saves: saving.Saves | None) -> Kept:
    """The kept match of that number in ``valtti play --saves`` (1: the newest unfinished)."""
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
                "There is no kept match number {number}: valtti play --saves lists them, 1 to "
                "{count}."
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
    return Session(
        setup.table(match), setup, out, fast=fast, plain=plain, takebacks=takebacks_of(record),
        resumed=record,
    )  # fmt: skip


def _choose(
    newest: Kept,
    more: int,
    resuming: Path | None,
    if_unfinished: IfUnfinished,
    read: Callable[[str], str] | None,
    out: Console,
) -> tuple[Choice, bool]:
    """What becomes of the newest kept match, and whether the player or the options chose it
    (``False``: input is no terminal, so it is kept without asking)."""
    if if_unfinished == "keep":
        return Choice.KEEP, True
    if if_unfinished == "discard":
        return Choice.DISCARD, True
    if read is None:
        return Choice.KEEP, False  # never wait for an answer that cannot come
    return unfinished.ask(newest, more, resuming, read, out), True
