"""The ``valtti play`` session: a whole match in the terminal, you and three computer players.

The seats are a ``Table`` (``valtti.table``): randomness comes only from the match seed, from
which the table derives the first dealer, each deal's cards and each computer decision. A saved
record keeps the seed, the seats and the players under ``meta``, so a resumed match continues
exactly as it would have gone on; so does a match after ``undo`` when the player plays the same.
The match is kept after every action once the player has made a decision (a match resumed from
the folder of saves from the start), in a save of the session's own in the folder of saves
(``saving``), which the session holds locked until it ends; a finished match stays there until
the player leaves it, and leaving asks first.

A session has its screens (``drawing.Drawing``) and its replies to the commands that are not
moves (``replies.Replies``); its seats and seed are a ``setup.Setup``. A session is started
(options, a resumed record, a kept match) by ``game.start``.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Final, Literal

from rich.console import Console, RenderableType
from rich.text import Text

from valtti.engine import Action, ActionKind, Deal, Match, Phase, Seat
from valtti.engine.meta import RecordMeta
from valtti.engine.record import Record
from valtti.table import PlayerFault, Table
from valtti.terminal import records, saving, unfinished
from valtti.terminal.commands import (
    SAVE,
    Empty,
    InputError,
    MisreadError,
    Play,
    Quit,
    Undo,
    action_words,
    completions,
    parse,
    word,
)
from valtti.terminal.drawing import Drawing
from valtti.terminal.i18n import _
from valtti.terminal.lineinput import file_names
from valtti.terminal.phrases import deal_start_text, legal_text, news, reason_text, seat_text
from valtti.terminal.replies import Replies
from valtti.terminal.rulebook import Page
from valtti.terminal.setup import Setup

DEFAULT_PLAYER: Final = "club"
#: Seconds each computer move stays on the screen (none with ``--fast``).
MOVE_PAUSE: Final = 1.0
#: Exit status when a computer player fails (the match is in the autosave).
EXIT_PLAYER_FAULT: Final = 3
#: Exit status when the player leaves at Ctrl-C (128 + SIGINT, as a shell reports it).
EXIT_INTERRUPTED: Final = 130

#: How a prompt between deals ends: Enter, the player leaving, or a take-back (play goes on).
Ending = Literal["next", "leave", "undone"]
#: The signals that end a session as the end of input does, the match kept: ``kill`` and a
#: terminal closed (where the system has them).
ENDING_SIGNALS: Final = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class Ended(Exception):
    """The process was told to end by ``signal`` (``ENDING_SIGNALS``)."""

    def __init__(self, signal: int) -> None:
        super().__init__(signal)
        self.signal = signal


class Session:
    """The match loop: draws the table, reads the player's input, moves the computer seats.

    ``read`` shows a prompt and returns a line (``EOFError`` at the end of input,
    ``KeyboardInterrupt`` at Ctrl-C); by default a ``LineReader`` (line editing, history and
    completion at a terminal). ``pause`` waits so that a computer move can be followed. With
    ``plain`` (the line mode for screen readers) nothing is redrawn: each event is told once, a
    line each, and prompts are lines. ``slot``: the save the match is written to after every
    action, the session's own (``saving``), once ``keeping`` (a match kept already, or once
    the player has made a decision); ``takebacks``: how many the match has had; ``resumed``:
    the record the match was resumed from, whose extra keys every save keeps. With
    ``watching`` (the save of a match another ``valtti play`` has open) the session only shows
    it, read-only, as it is there.
    """

    def __init__(
        self,
        table: Table,
        setup: Setup,
        console: Console,
        read: Callable[[str], str] | None = None,
        pause: Callable[[float], None] = time.sleep,
        fast: bool = False,
        plain: bool = False,
        slot: saving.Slot | None = None,
        takebacks: int = 0,
        resumed: Record | None = None,
    ) -> None:
        self.table = table
        self.setup = setup
        self.console = console
        self.drawing = Drawing(console, table.match, setup, plain, read, self._completions)
        self.replies = Replies(self.drawing, self._record)
        self.pause = pause
        self.fast = fast
        self.slot = slot
        #: Whether the match is worth its save: kept already, or the player has decided.
        self.keeping = False
        self.watching: Path | None = None
        self._autosaved = False  #: whether the autosave holds the match as it is now
        self._autosave_failed = False  #: whether the last write failed (told once)
        self.takebacks = takebacks
        self.resumed = resumed
        #: The log's length at each of the player's decisions (deal index, actions before).
        self._log_at: dict[tuple[int, int], int] = {}
        self._deals_seen = 0  #: the deals whose end the player has seen and gone on from

    @property
    def match(self) -> Match:
        """The match played (the one shown: a take-back sets it back)."""
        return self.drawing.match

    @property
    def you(self) -> Seat:
        return self.setup.you

    @property
    def autosave(self) -> Path | None:
        """The file the match is kept in (``slot``'s), if any."""
        return None if self.slot is None else self.slot.path

    def run(self) -> int:
        """Play until the match is over or the player leaves; the exit status.

        Ctrl-C asks whether to leave (``EXIT_INTERRUPTED`` if so, else play goes on); the end
        of input (Ctrl-D) leaves with the match in the autosave; a computer player's fault ends
        the match with a message naming it (``EXIT_PLAYER_FAULT``), the match autosaved;
        ``kill`` (SIGTERM) or a closed terminal (SIGHUP) ends it as the end of input does, with
        128 and the signal's number. The table's kept players (external programs) are closed
        and the save let go at the end, however it comes.
        """
        try:
            with _ending_on_signals():
                if self.watching is not None:
                    return self._watch()
                return self._run()
        finally:
            self.table.close()
            if self.slot is not None:
                self.slot.close()

    def _run(self) -> int:
        try:
            self.table.sit_down()
        except PlayerFault as fault:
            self._fault(fault)
            return EXIT_PLAYER_FAULT
        while True:
            try:
                self._play()
                return 0
            except EOFError:
                self.console.print(_("End of input: leaving the match."))
                self._left()
                return 0
            except Ended as e:
                self._ended(e.signal)
                return 128 + e.signal
            except KeyboardInterrupt:
                self.console.print()
                try:
                    leave = self._confirm_leave()
                except KeyboardInterrupt:
                    leave = True  # a second Ctrl-C
                if leave:
                    self.console.print("\n" + _("Interrupted: leaving the match."))
                    self._left(asked=True)
                    return EXIT_INTERRUPTED
            except PlayerFault as fault:
                self._fault(fault)
                return EXIT_PLAYER_FAULT

    def _play(self) -> None:
        """Play on until the match is over and seen, or the player leaves."""
        while True:
            while not self.match.is_over():
                deal = self.match.deal
                if deal is not None and deal.is_over() and self._deals_seen < len(self.match.deals):
                    # Its end is shown until the player goes on (again after a Ctrl-C there).
                    ending = self._deal_over()
                    if ending == "leave":
                        self._left(asked=True)
                        return
                    if ending == "next":
                        self._deals_seen = len(self.match.deals)
                    continue
                if self.table.needs_deal:
                    self._start_deal()
                deal = self.match.deal
                assert deal is not None
                if self.table.to_move != self.you:
                    self._computer_turn()
                elif not self._your_turn(deal):
                    self._left(asked=True)
                    return
            if self._match_over() != "undone":
                self._left(asked=True)
                return

    # -- moves ----------------------------------------------------------------------------------

    def _start_deal(self) -> None:
        deal = self.table.start_deal()
        self.drawing.log.append(deal_start_text(len(self.match.deals), deal.dealer, deal.forehand))

    def _apply(self, action: Action) -> None:
        before = self.match.observation(self.you)
        self.table.apply(action)
        self.drawing.log.extend(news(before, self.match.observation(self.you)))
        self._keep()

    def _computer_turn(self) -> None:
        self._apply(self.table.decide())
        if not self.fast:
            self.drawing.draw()
            self.pause(MOVE_PAUSE)

    def _your_turn(self, deal: Deal) -> bool:
        """Read input until a legal action is taken (``True``) or the player leaves (``False``)."""
        note: RenderableType | Page | None = None
        while True:
            prompt = self._back() if isinstance(note, Page) else self._prompt(deal)
            self.drawing.draw(note, prompt=prompt)
            line = self.drawing.read(prompt)
            try:
                answering = deal.phase is Phase.ANSWER
                command = parse(line, list(deal.hand(self.you)), answering, deal.legal_actions())
            except MisreadError as e:
                note = self._misread(e, deal)
                continue
            except InputError as e:
                note = str(e)
                continue
            if isinstance(command, Empty) and isinstance(note, Page):
                note = None  # Enter under a page goes back to the table
                continue
            only = _only_card(deal)
            if isinstance(command, Empty) and only is not None:
                command = Play(only)
            match command:
                case Play(action):
                    refusal = deal.refusal(action)
                    if refusal is None:
                        self._log_at[len(self.match.deals) - 1, len(deal.history)] = len(
                            self.drawing.log
                        )
                        self.keeping = True  # a decision: the match is worth its save
                        self._apply(action)
                        return True
                    note = _("{action} is not legal: {reason}. Legal now: {legal}").format(
                        action=action_words(action),
                        reason=reason_text(refusal),
                        legal=legal_text(deal.hand(self.you), deal.legal_actions()),
                    )
                case Quit():
                    if self._confirm_leave():
                        return False
                    note = None
                case Undo():
                    note = self._undo()
                    if note is None:
                        return True
                case _:
                    note = self.replies.answer(command, deal)

    def _misread(self, misread: MisreadError, deal: Deal) -> str:
        """A line not understood whose nearest reading is a move that is not legal: why not,
        as the engine says, and what is legal."""
        refusal = deal.refusal(misread.action)
        assert refusal is not None  # a misread is of a move that is not legal
        return _(
            "{text}: if you meant {action}, it is not legal: {reason}. Legal now: {legal}"
        ).format(
            text=misread.text,
            action=action_words(misread.action),
            reason=reason_text(refusal),
            legal=legal_text(deal.hand(self.you), deal.legal_actions()),
        )

    def _prompt(self, deal: Deal) -> str:
        trick = deal.current_trick
        legal = deal.legal_actions()
        if deal.phase is Phase.DECLARATION and any(a.kind is not ActionKind.PLAY for a in legal):
            # Where nothing can be declared or asked (one card left, a king alone after
            # trumps) the window is only a lead.
            text = _("You took the trick: declare, ask or lead")
        elif deal.phase is Phase.ANSWER:
            text = _("Name a marriage")
        elif trick is None or not trick.cards:
            text = _("Your lead")
        else:
            text = _("Your card")
        only = _only_card(deal)
        if only is not None:
            # Before the words, so that the prompt still ends as every turn's does.
            card = only.card
            assert card is not None
            text = _("[Enter plays {card}]").format(card=card.unicode()) + " " + text
        return self.drawing.line(f"{text} > ")

    def _back(self, final: bool = False) -> str:
        """The prompt under a reply or a page (``help rules``): Enter goes back to the table
        (to the final score with ``final``), a command is taken."""
        if final:
            return self.drawing.line(_("Enter: back to the final score > "))
        return self.drawing.line(_("Enter: back to the table > "))

    def _confirm_leave(self) -> bool:
        """Whether the player means to leave (the end of input says yes)."""
        # The question says whether the match is kept: only if the autosave could be written
        # (not to an unwritable directory), and not a finished match once it is left.
        self._keep()
        try:
            if self._autosaved and self.match.is_over():
                return self.replies.yes(
                    _(
                        "Leave? The finished match is then removed from the saves: save FILE "
                        "keeps its record. (y/n) > "
                    )
                )
            if self._autosaved:
                kept = _("Leave the match? It is kept: valtti play --resume goes on. (y/n) > ")
                return self.replies.yes(kept)
            if self._thrown_away():
                return self.replies.yes(
                    _("Leave the match? You have made no move yet: it is not kept. (y/n) > ")
                )
            return self.replies.yes(_("Leave the match? Play that is not saved is lost. (y/n) > "))
        except EOFError:
            return True

    def _thrown_away(self) -> bool:
        """Whether the match would be kept but is not worth it: the player has made no move."""
        return self.slot is not None and not self.keeping and not self._autosave_failed

    # -- keeping the match ----------------------------------------------------------------------

    def _record(self) -> str:
        """The match as a record's text, as a save writes it."""
        meta = self.setup.meta(self.takebacks)
        record = Record.of_match(self.match, meta=meta, kept=self.resumed)
        return record.to_json() + "\n"

    def _keep(self) -> None:
        """Write the match to its save as it is now, a finished one too (it stays until the
        player leaves it); not before it is worth it (``keeping``), and not a match not yet
        dealt (nothing to keep)."""
        if self.slot is None or not self.keeping or not self.match.deals:
            return
        try:
            removed = self.slot.write(self._record())
        except (OSError, saving.InUseError) as e:
            if not self._autosave_failed:
                error = getattr(e, "strerror", None) or e
                self.drawing.log.append(
                    _("Could not write the autosave {path}: {error}").format(
                        path=self.autosave, error=error
                    )
                )
            self._autosaved = False
            self._autosave_failed = True
        else:
            self._autosaved = True
            self._autosave_failed = False
            self.drawing.log.extend(unfinished.removed_text(removed, self.slot.saves.limit))

    def _left(self, asked: bool = False) -> None:
        """Keep the match the player leaves in its save, and tell where it is; a finished
        match is removed from the saves where the player was asked and said to leave."""
        self._keep()
        if self._autosaved and self.match.is_over() and asked:
            assert self.slot is not None
            with contextlib.suppress(OSError):
                self.slot.remove()
            self._autosaved = False
            return
        if self._autosaved:
            if self.match.is_over():
                told = _(
                    "The finished match stays in the saves until you leave it: {path}. {command} "
                    "lists it."
                ).format(path=self.autosave, command="valtti play --saves")
            else:
                told = _("The match so far is saved in {path}. Go on with it: {command}").format(
                    path=self.autosave, command="valtti play --resume"
                )
            # A path the terminal wraps stays whole to copy.
            self.console.print(Text(told), soft_wrap=True)
        elif self._thrown_away() and not self.match.is_over():
            self.console.print(_("Nothing is kept: you had made no move."))

    def _ended(self, number: int) -> None:
        """The end of a session told to end by a signal: the match kept, said where the
        terminal is still there (not after SIGHUP, a terminal closed)."""
        self._keep()
        if number != getattr(signal, "SIGHUP", None):
            with contextlib.suppress(OSError):
                self.console.print(_("Told to end: leaving the match."))
                self._left()

    def _fault(self, fault: PlayerFault) -> None:
        """The end of a match whose computer player failed: what failed, and where the match is."""
        what = str(fault).removeprefix(f"{fault.spec} at {fault.seat}: ")
        self.console.print(
            Text(
                _("The computer player at {seat} ({player}) failed: {what}").format(
                    seat=seat_text(fault.seat), player=fault.spec, what=what
                )
            ),
            soft_wrap=True,  # a path the terminal wraps stays whole to copy
        )
        self.keeping = True  # to go on with another player at that seat, before a move too
        self._keep()
        if self._autosaved:
            option = "--partner" if fault.seat == self.you.partner else "--opponents"
            self.console.print(
                Text(
                    _(
                        "The match so far is saved in {path}. To go on with another player "
                        "there: {command}"
                    ).format(
                        path=self.autosave,
                        command=f"valtti play --resume {option} {DEFAULT_PLAYER}",
                    )
                ),
                soft_wrap=True,  # a path the terminal wraps stays whole to copy
            )

    # -- taking back ----------------------------------------------------------------------------

    def _previous_decision(self) -> tuple[int, int] | None:
        """The player's last decision before now: (deal index, actions before it), if any."""
        for index in range(len(self.match.deals) - 1, -1, -1):
            deal = self.match.deals[index]
            for n in range(len(deal.history) - 1, -1, -1):
                if deal.after(n).current_player == self.you:
                    return index, n
        return None

    def _undo(self) -> str | None:
        """Go back to the position before the player's last action (``None``), or say why not.

        The table is set again at that position; its computer players decide by the seed and
        the position, so the same play brings the same answers.
        """
        found = self._previous_decision()
        if found is None:
            return _("There is nothing to take back: you have not moved yet in this match.")
        self.table.close()
        self.drawing.match = self.match.after(*found)
        self.table = self.setup.table(self.match)
        self.table.sit_down()  # external programs start afresh at the position (PROTOCOL.md)
        self.takebacks += 1
        self._deals_seen = min(self._deals_seen, found[0])
        told = self._log_at.get(found)
        self._log_at = {at: n for at, n in self._log_at.items() if at < found}
        if told is not None:
            del self.drawing.log[told:]
            self.drawing.told = min(self.drawing.told, told)
        self.drawing.turn_told = None
        self.drawing.log.append(
            _("Taken back to your previous decision (take-back {n} in this match).").format(
                n=self.takebacks
            )
        )
        self._keep()
        return None

    def _completions(self, line: str) -> list[str]:
        first, *rest = line.split(maxsplit=1) or [""]
        if first.lower() in (SAVE, word(SAVE).lower()) and (rest or line.endswith(" ")):
            return file_names(rest[0] if rest else "")
        deal = self.match.deal
        finished = sum(d.is_over() for d in self.match.deals)
        if deal is None or deal.is_over() or deal.current_player != self.you:
            return completions(line, [], [], finished)
        return completions(line, list(deal.hand(self.you)), deal.legal_actions(), finished)

    def _deal_over(self) -> Ending:
        """Show how the deal was scored until the player goes on, leaves or takes back."""
        prompt = self.drawing.line(_("Enter: next deal · score · save FILE · quit > "))
        return self._until_enter(prompt, self.drawing.summary())

    def _match_over(self) -> Ending:
        """Show the final score, a page of its own, until the player leaves or takes back."""
        prompt = self.drawing.line(_("The match is over: review · save FILE · Enter: leave > "))
        return self._until_enter(prompt, base=self.replies.final_score())

    def _until_enter(self, prompt: str, *shown: RenderableType, base: Page | None = None) -> Ending:
        """Show ``shown`` under the table, or the page ``base`` in its place (the match's end),
        and answer commands until Enter, ``quit`` (once the player confirms) or ``undo``. Enter
        closes a reply shown first; with ``base`` it is leaving, and asks first."""
        note: RenderableType | Page | None = None
        while True:
            asked = prompt if note is None else self._back(base is not None)
            self.drawing.draw(base if note is None else note, *shown, prompt=asked)
            try:
                command = parse(self.drawing.read(asked), [])
            except InputError as e:
                note = str(e)
                continue
            match command:
                case Empty() if note is not None:
                    note = None  # Enter closes the reply
                case Empty() if base is None:
                    return "next"
                case Empty() | Quit():
                    if self._confirm_leave():
                        return "leave"
                    note = None
                case Undo():
                    note = self._undo()
                    if note is None:
                        return "undone"
                case _:
                    note = self.replies.answer(command, None)

    # -- a match another valtti play has open ---------------------------------------------------

    def _watch(self) -> int:
        """Show the match that another ``valtti play`` has open, read-only: the commands that
        change nothing answer, a move is refused, Enter reads it again as it is now, ``quit``
        or the end of input leaves."""
        watching = self.watching
        assert watching is not None
        note: RenderableType | Page | None = None
        prompt = self.drawing.line(_("Read-only · Enter: as it is now · quit > "))
        while True:
            asked = self._back() if isinstance(note, Page) else prompt
            self.drawing.draw(note, prompt=asked)
            try:
                line = self.drawing.read(asked)
            except (EOFError, KeyboardInterrupt, Ended):
                return 0
            deal = self.match.deal
            if deal is None or deal.is_over() or deal.current_player != self.you:
                deal = None
            try:
                hand = [] if deal is None else list(deal.hand(self.you))
                command = parse(line, hand, legal=() if deal is None else deal.legal_actions())
            except InputError as e:
                note = str(e)
                continue
            match command:
                case Empty() if isinstance(note, Page):
                    note = None
                case Empty():
                    note = self._look_again()
                case Quit():
                    return 0
                case Play() | Undo():
                    note = _(
                        "This match is read-only here: {open}. To play on, leave (quit) and "
                        "resume it once that one has left it, or play on from a copy of it."
                    ).format(open=unfinished.open_text(saving.holder(watching) or 0))
                case _:
                    note = self.replies.answer(command, deal)

    def _look_again(self) -> str | None:
        """Read the match watched again: as it is now, what happened since in the log; what
        became of it where it is no longer open there."""
        assert self.watching is not None
        try:
            match, record = records.read(self.watching)
        except records.RecordError as e:
            if not self.watching.exists():
                return _(
                    "The match is no longer kept: the other valtti play ended it. quit leaves."
                )
            return str(e)
        before, after = self.match.observation(self.you), match.observation(self.you)
        if len(match.deals) == len(self.match.deals):
            self.drawing.log.extend(news(before, after))
        else:
            deal = match.deal
            assert deal is not None
            self.drawing.log.append(deal_start_text(len(match.deals), deal.dealer, deal.forehand))
            self.drawing.log.extend(
                news(match.after(len(match.deals) - 1, 0).observation(self.you), after)
            )
        # What a save from here writes: the match as it is there, its take-backs too.
        self.drawing.match, self.resumed, self.takebacks = match, record, takebacks_of(record)
        if saving.holder(self.watching) is None:
            return _(
                "The other valtti play has left this match: quit, then valtti play --resume "
                "goes on with it."
            )
        return None


def takebacks_of(record: Record) -> int:
    """How many take-backs the match of ``record`` has had (its meta's count, if any)."""
    takebacks = RecordMeta.from_dict(record.meta).takebacks
    return takebacks if takebacks is not None and takebacks > 0 else 0


@contextlib.contextmanager
def _ending_on_signals() -> Iterator[None]:
    """While inside, ``ENDING_SIGNALS`` raise ``Ended`` (where this is the main thread, which
    alone may set what a signal does): the session leaves as at the end of input, and a write
    cut short leaves no temporary file."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def end(number: int, _frame: object) -> None:
        raise Ended(number)

    previous = {number: signal.signal(number, end) for number in ENDING_SIGNALS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _only_card(deal: Deal) -> Action | None:
    """The one legal action if it is a card: Enter on an empty line plays it."""
    legal = deal.legal_actions()
    if len(legal) == 1 and legal[0].kind is ActionKind.PLAY:
        return legal[0]
    return None
