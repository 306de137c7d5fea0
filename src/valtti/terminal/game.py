"""``valtti play``: a whole match in the terminal, you and three computer players.

The seats are a ``Table`` (``valtti.table``): randomness comes only from the match seed, from
which the table derives the first dealer, each deal's cards and each computer decision. A saved
record keeps the seed, the seats and the players under ``meta``, so a resumed match continues
exactly as it would have gone on; so does a match after ``undo`` when the player plays the same.
The match in progress is kept after every action, in a file of the session's own in the folder
of saves (``saving``), until it is over.
"""

from __future__ import annotations

import reprlib
import shlex
import signal
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from valtti.engine import Action, ActionKind, Deal, Match, Phase, Seat, Variant
from valtti.engine.meta import RecordMeta
from valtti.engine.record import Record
from valtti.engine.variant import SwitchError
from valtti.players import make_player
from valtti.players.explain import explain
from valtti.players.registry import starts_program
from valtti.players.spec import PlayerSpecError, PlayerSpecFault
from valtti.table import Computer, PlayerFault, Table, derive_seed, fresh_seed
from valtti.terminal import glyphs, guide, i18n, records, rulebook, saving, unfinished
from valtti.terminal.commands import (
    NO,
    SAVE,
    YES,
    Command,
    Empty,
    Help,
    Hint,
    InputError,
    Play,
    Quit,
    Save,
    Score,
    Topic,
    Tricks,
    Undo,
    action_words,
    completions,
    parse,
    word,
)
from valtti.terminal.hints import hint_heading, hint_key, hint_lines
from valtti.terminal.i18n import N_, _
from valtti.terminal.layout import Fitted, page_screen, screen
from valtti.terminal.lineinput import LineReader, file_names
from valtti.terminal.phrases import deal_start_text, legal_text, news, reason_text, seat_text
from valtti.terminal.plain import turn_lines
from valtti.terminal.rulebook import Page
from valtti.terminal.saving import Kept
from valtti.terminal.screen import (
    Keyed,
    View,
    deal_summary,
    match_table,
    result_line,
    tricks_table,
)
from valtti.terminal.unfinished import Choice

PROGRAM: Final = "valtti play"
DEFAULT_PLAYER: Final = "heuristic"
#: Seconds each computer move stays on the screen (none with ``--fast``).
MOVE_PAUSE: Final = 1.0
EXIT_MALFORMED: Final = records.EXIT_MALFORMED
#: Exit status when a computer player fails (the match is in the autosave).
EXIT_PLAYER_FAULT: Final = 3
#: Exit status when the player leaves at Ctrl-C (128 + SIGINT, as a shell reports it).
EXIT_INTERRUPTED: Final = 130

#: How a prompt between deals ends: Enter, the player leaving, or a take-back (play goes on).
Ending = Literal["next", "leave", "undone"]


@dataclass(frozen=True, slots=True)
class Setup:
    """Who sits where and the match seed; kept in a record's ``meta``."""

    you: Seat
    players: Mapping[Seat, str]  #: the computer seats' player specs (``make_player``)
    seed: int

    def meta(self, takebacks: int = 0) -> dict[str, Any]:
        """The record's ``meta`` (``RecordMeta``), with the number of take-backs if there were
        any (a match with take-backs is not played straight)."""
        return RecordMeta(
            program=PROGRAM,
            seat=self.you,
            seed=self.seed,
            players={str(s): spec for s, spec in sorted(self.players.items())},
            takebacks=takebacks or None,
        ).to_dict()

    def table(self, match: Match | None = None, variant: Variant | None = None) -> Table:
        """The seats, and the person, whose moves the session applies. The project's players
        are made fresh for each decision, seeded by the position (nothing to restore on a resume
        or a take-back); an external program is started once for the table (docs/PROTOCOL.md),
        when it sits down, and stopped when it closes."""
        seats = {
            seat: Computer(spec, derive_seed(self.seed, "player", str(seat)))
            if starts_program(spec)
            else Computer(spec)
            for seat, spec in self.players.items()
        }
        return Table(seats, self.seed, match, variant=variant)


class Session:
    """The match loop: draws the table, reads the player's input, moves the computer seats.

    ``read`` shows a prompt and returns a line (``EOFError`` at the end of input,
    ``KeyboardInterrupt`` at Ctrl-C); by default a ``LineReader`` (line editing, history and
    completion at a terminal). ``pause`` waits so that a computer move can be followed. With
    ``plain`` (the line mode for screen readers) nothing is redrawn: each event is told once, a
    line each, and prompts are lines. ``autosave``: the file the match is written to after
    every action (removed when the match is over), the session's own (``saving``);
    ``takebacks``: how many the match has had; ``resumed``: the record the match was resumed
    from, whose extra keys every save keeps.
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
        autosave: Path | None = None,
        takebacks: int = 0,
        resumed: Record | None = None,
    ) -> None:
        self.table = table
        self.match = table.match
        self.setup = setup
        self.console = console
        self.style = "" if plain else "bold"
        self.reader = LineReader(
            console, self.style, self._completions, redraw=None if plain else self._redraw
        )
        self.read: Callable[[str], str] = read or self.reader
        self.pause = pause
        self.fast = fast
        self.plain = plain
        self.log: list[str] = []
        self._told = 0  #: how many log lines the plain mode has told
        self._turn_told: tuple[int, int] | None = None  #: the turn it last told (deal, action)
        #: The last draw's reply and parts under the table, to draw again at a new size.
        self._shown: tuple[RenderableType | Page | None, tuple[RenderableType, ...]] | None = None
        self.autosave = autosave
        self._autosaved = False  #: whether the autosave holds the match as it is now
        self._autosave_failed = False  #: whether the last write failed (told once)
        self.takebacks = takebacks
        self.resumed = resumed
        #: The log's length at each of the player's decisions (deal index, actions before).
        self._log_at: dict[tuple[int, int], int] = {}
        self._deals_seen = 0  #: the deals whose end the player has seen and gone on from

    @property
    def you(self) -> Seat:
        return self.setup.you

    def run(self) -> int:
        """Play until the match is over or the player leaves; the exit status.

        Ctrl-C asks whether to leave (``EXIT_INTERRUPTED`` if so, else play goes on); the end
        of input (Ctrl-D) leaves with the match in the autosave; a computer player's fault ends
        the match with a message naming it (``EXIT_PLAYER_FAULT``), the match autosaved. The
        table's kept players (external programs) are closed at the end, however it comes.
        """
        try:
            return self._run()
        finally:
            self.table.close()

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
            except KeyboardInterrupt:
                self.console.print()
                try:
                    leave = self._confirm_leave()
                except KeyboardInterrupt:
                    leave = True  # a second Ctrl-C
                if leave:
                    self.console.print("\n" + _("Interrupted: leaving the match."))
                    self._left()
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
                        self._left()
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
                    self._left()
                    return
            if self._match_over() != "undone":
                return

    # -- moves ----------------------------------------------------------------------------------

    def _start_deal(self) -> None:
        deal = self.table.start_deal()
        self.log.append(deal_start_text(len(self.match.deals), deal.dealer, deal.forehand))

    def _apply(self, action: Action) -> None:
        before = self.match.observation(self.you)
        self.table.apply(action)
        self.log.extend(news(before, self.match.observation(self.you)))
        self._keep()

    def _computer_turn(self) -> None:
        self._apply(self.table.decide())
        if not self.fast:
            self._draw()
            self.pause(MOVE_PAUSE)

    def _your_turn(self, deal: Deal) -> bool:
        """Read input until a legal action is taken (``True``) or the player leaves (``False``)."""
        note: RenderableType | Page | None = None
        while True:
            prompt = self._back() if isinstance(note, Page) else self._prompt(deal)
            self._draw(note, prompt=prompt)
            line = self.read(prompt)
            try:
                answering = deal.phase is Phase.ANSWER
                command = parse(line, list(deal.hand(self.you)), answering)
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
                        self._log_at[len(self.match.deals) - 1, len(deal.history)] = len(self.log)
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
                    note = self._answer(command, deal)

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
        return self._line(f"{text} > ")

    def _back(self) -> str:
        """The prompt under a page (``help rules``): Enter goes back, a command is taken."""
        return self._line(_("Enter: back to the table > "))

    def _line(self, prompt: str) -> str:
        """A prompt as it is shown: on a line of its own in the plain mode."""
        return prompt.rstrip() + "\n" if self.plain else prompt

    def _answer(self, command: Command, deal: Deal | None) -> RenderableType | Page | None:
        """The reply to a command that is not a move; ``deal`` is the one waiting for the player."""
        match command:
            case Help(None):
                return guide.moment(deal, self.you) if deal is not None else guide.usage()
            case Help(action) if action is not None:
                if deal is None:
                    return _("No deal is being played: there is nothing to explain.")
                return guide.explain(deal, action)
            case Topic(name):
                return rulebook.answer(name, self.match.variant)
            case Hint():
                return self._hint(deal)
            case Score():
                return self._score()
            case Tricks(last):
                return self._tricks(last)
            case Save(path):
                return self._save(Path(path).expanduser())
            case Play(_action):
                return _("No deal is being played: press Enter to go on.")
        return None

    def _hint(self, deal: Deal | None) -> RenderableType:
        """The computer player's estimate of every legal action, best first, with its reason."""
        if deal is None:
            return _("No deal is being played: there is nothing to hint.")
        # The seed a computer player would decide with here: the same hint at the same point.
        explanations = explain(self.match.observation(self.you), seed=self.table.decision_seed())
        heading, key = hint_heading(explanations), hint_key(explanations)
        table = hint_lines(explanations)
        lines = [Text(line) for line in table]
        # A small terminal has no rows for the long key: a short one goes on the frame's edge.
        return Fitted(
            Group(Text(heading), Text(key, style="dim"), *lines),
            Keyed(Group(Text(heading), *lines), hint_key(explanations, short=True)),
            "\n".join([heading, key, *table]),
        )

    def _tricks(self, last: bool) -> RenderableType:
        """The tricks taken so far in the deal (or the one that just ended), or the last one."""
        if self.match.deal is None:
            return _("No deal is being played: there is nothing to show.")
        taken = self.match.observation(self.you).tricks
        if not taken:
            return _("No trick has been taken yet in this deal.")
        shown = taken[-1:] if last else taken
        title = (_("The last trick") if last else _("The tricks of deal {number}")).format(
            number=len(self.match.deals)
        )
        return Group(Text(title, style="bold"), tricks_table(shown, self.you))

    def _score(self) -> RenderableType:
        match = self.match
        finished = [(d.dealer, d.trump) for d in match.deals if d.is_over()]
        # The team names are in the message: the Finnish one calls them PE and IL.
        line = _("Match score: NS {ns}, EW {ew}; the target is exactly {target}.").format(
            ns=match.score[0], ew=match.score[1], target=match.variant.target
        )
        if not finished:  # no deal scored yet: no empty sheet
            return Text(line + " " + _("No deal has been scored yet."))
        return Group(Text(line), match_table(finished, match.deal_scores, framed=not self.plain))

    def _record(self) -> str:
        meta = self.setup.meta(self.takebacks)
        record = Record.of_match(self.match, meta=meta, kept=self.resumed)
        return record.to_json() + "\n"

    def _save(self, path: Path) -> str:
        try:
            if saving.is_file_there(path) and not self._replace(path):
                return _("Not saved: {path} is kept as it was.").format(path=path)
            saving.write_atomic(path, self._record())
        except saving.NotRegularFileError:
            return _("Not saved: {path} is not a file.").format(path=path)
        except (OSError, ValueError) as e:  # ValueError: a NUL in the name
            error = getattr(e, "strerror", None) or e
            return _("Could not save to {path}: {error}").format(path=path, error=error)
        if self.match.is_over():
            return _("Saved to {path}.").format(path=path)
        return _("Saved to {path}. Continue later with: {command}").format(
            path=path, command=f"valtti play --resume {shlex.quote(str(path))}"
        )

    def _replace(self, path: Path) -> bool:
        """Whether the player agrees to replace the file at ``path`` (the end of input: no)."""
        try:
            return self._yes(_("{path} exists. Replace it? (y/n) > ").format(path=path))
        except (EOFError, KeyboardInterrupt):
            return False

    def _confirm_leave(self) -> bool:
        """Whether the player means to leave (the end of input says yes)."""
        # The question says whether the match is kept: only if the autosave could be written
        # (not to an unwritable directory, nor once the match is over and the autosave gone).
        self._keep()
        try:
            if not self._autosaved:
                return self._yes(_("Leave the match? Play that is not saved is lost. (y/n) > "))
            kept = _("Leave the match? It is kept: valtti play --resume goes on. (y/n) > ")
            return self._yes(kept)
        except EOFError:
            return True

    def _yes(self, question: str) -> bool:
        """Yes or no to ``question``, asked again until the answer is one of them."""
        yes, no = word(YES).lower(), word(NO).lower()
        prompt = question
        while True:
            answer = self.read(self._line(prompt)).strip().lower()
            if answer in ("y", "yes", yes, yes[:1]):
                return True
            if answer in ("n", "no", no, no[:1]):
                return False
            prompt = _("Please answer y or n. ") + question

    # -- keeping the match ----------------------------------------------------------------------

    def _keep(self) -> None:
        """Write the match to the autosave, or remove it once the match is over (a match not
        yet dealt has nothing to keep)."""
        if self.autosave is None or not self.match.deals:
            return
        try:
            if self.match.is_over():
                self.autosave.unlink(missing_ok=True)
                self._autosaved = False
            else:
                self.autosave.parent.mkdir(parents=True, exist_ok=True)
                saving.write_atomic(self.autosave, self._record())
                self._autosaved = True
        except OSError as e:
            if not self._autosave_failed:
                self.log.append(
                    _("Could not write the autosave {path}: {error}").format(
                        path=self.autosave, error=e.strerror or e
                    )
                )
            self._autosaved = False
            self._autosave_failed = True
        else:
            self._autosave_failed = False

    def _left(self) -> None:
        """Keep the match the player leaves in the autosave, and tell where it is."""
        self._keep()
        if self._autosaved and not self.match.is_over():
            self.console.print(
                Text(
                    _("The match so far is saved in {path}. Go on with it: {command}").format(
                        path=self.autosave, command="valtti play --resume"
                    )
                ),
                soft_wrap=True,  # a path the terminal wraps stays whole to copy
            )

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
        self.match = self.match.after(*found)
        self.table = self.setup.table(self.match)
        self.table.sit_down()  # external programs start afresh at the position (PROTOCOL.md)
        self.takebacks += 1
        self._deals_seen = min(self._deals_seen, found[0])
        told = self._log_at.get(found)
        self._log_at = {at: n for at, n in self._log_at.items() if at < found}
        if told is not None:
            del self.log[told:]
            self._told = min(self._told, told)
        self._turn_told = None
        self.log.append(
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
        if deal is None or deal.is_over() or deal.current_player != self.you:
            return completions(line, [], [])
        return completions(line, list(deal.hand(self.you)), deal.legal_actions())

    # -- screens --------------------------------------------------------------------------------

    def _view(self) -> View:
        deal = self.match.deal
        assert deal is not None
        observation = self.match.observation(self.you)
        if deal.is_over():
            # The header tells the score there is now, this deal's points counted.
            observation = observation.with_score(self.match.score)
        return View(
            observation=observation,
            deal_number=len(self.match.deals),
            labels=self.setup.players,
            log=self.log,
            winning=deal.winning_card,
        )

    def _draw(
        self, note: RenderableType | Page | None = None, *more: RenderableType, prompt: str = ""
    ) -> None:
        """The table, then ``more`` (the deal's or the match's end), then the reply ``note``,
        fitted to the terminal's size as it is now with room for ``prompt`` under it; in the
        plain mode, only what is new."""
        if self.plain:
            self._tell(note.plain if isinstance(note, Page) else note, *more)
            return
        self._shown = (note, more)
        self.console.clear()
        if isinstance(note, Page):
            self.console.print(page_screen(self.console, note.body, prompt))
        else:
            self.console.print(screen(self.console, self._view(), note, more, prompt))

    def _redraw(self, prompt: str) -> None:
        """The screen drawn again as it was, for ``prompt`` (Ctrl-L)."""
        if self._shown is not None:
            note, more = self._shown
            self._draw(note, *more, prompt=prompt)

    @contextmanager
    def redrawn_on_resize(self) -> Iterator[None]:
        """While inside, a change of the terminal's size at a prompt redraws the screen at once,
        the prompt and the line typed so far under it."""
        if self.plain or not hasattr(signal, "SIGWINCH") or not self.console.is_terminal:
            yield
            return
        read = self.read
        waiting: list[str] = []

        def reading(prompt: str) -> str:
            waiting.append(prompt)
            try:
                return read(prompt)
            finally:
                waiting.pop()

        def resized(_signal: int, _frame: object) -> None:
            # Only while a prompt waits: never in the middle of a draw.
            if waiting and self._shown is not None:
                note, more = self._shown
                self._draw(note, *more, prompt=waiting[-1])
                typed = self.reader.shown_line() if read is self.reader else ""
                self.console.print(Text(waiting[-1], style=self.style), end="")
                self.console.print(Text(typed), end="")

        previous = signal.signal(signal.SIGWINCH, resized)
        self.read = reading
        try:
            yield
        finally:
            signal.signal(signal.SIGWINCH, previous)
            self.read = read

    def _tell(self, note: RenderableType | None, *more: RenderableType) -> None:
        """The plain mode's draw: the new log lines, the state at a new turn, then the rest."""

        def print_(part: RenderableType) -> None:
            # Never wrapped by the program: a line stays one line for the screen reader. Plain
            # text is never markup: "help [a card or declaration]" keeps its brackets.
            self.console.print(part, soft_wrap=True, markup=False)

        for line in self.log[self._told :]:
            print_(line)
        self._told = len(self.log)
        deal = self.match.deal
        if deal is not None and deal.current_player == self.you:
            turn = (len(self.match.deals), len(deal.history))
            if turn != self._turn_told:
                self._turn_told = turn
                for line in turn_lines(self._view()):
                    print_(line)
        for part in more:
            print_(part.plain if isinstance(part, Fitted) else part)
        if note is not None:
            print_(note.plain if isinstance(note, Fitted) else note)

    def _summary(self) -> Fitted:
        match = self.match
        deal = match.deal
        assert deal is not None and deal.is_over()
        facts = (
            len(match.deals),
            deal.result(),
            match.deal_scores[-1],
            deal.events,
            self.you,
            match.variant.target,
        )
        return Fitted(
            deal_summary(*facts),
            deal_summary(*facts, columns=False),
            deal_summary(*facts, framed=False),
        )

    def _deal_over(self) -> Ending:
        """Show how the deal was scored until the player goes on, leaves or takes back."""
        prompt = self._line(_("Enter: next deal · score · save FILE · quit > "))
        return self._until_enter(prompt, self._summary(), confirm=True)

    def _match_over(self) -> Ending:
        match = self.match
        finished = [(d.dealer, d.trump) for d in match.deals]
        result = Text(result_line(match.winner, match.is_draw, match.score, self.you), "bold")
        table = match_table(finished, match.deal_scores)
        over = Panel(Group(result, table), title=_("The match is over"), border_style="green")
        told = Group(result, match_table(finished, match.deal_scores, framed=False))
        prompt = self._line(_("The match is over. save FILE to keep it, Enter to leave > "))
        return self._until_enter(prompt, self._summary(), Fitted(over, over, told), confirm=False)

    def _until_enter(self, prompt: str, *shown: RenderableType, confirm: bool) -> Ending:
        """Show ``shown`` under the table and answer commands until Enter, ``quit`` (with
        ``confirm`` only once the player confirms) or ``undo``."""
        note: RenderableType | Page | None = None
        while True:
            asked = self._back() if isinstance(note, Page) else prompt
            self._draw(note, *shown, prompt=asked)
            try:
                command = parse(self.read(asked), [])
            except InputError as e:
                note = str(e)
                continue
            match command:
                case Empty() if isinstance(note, Page):
                    note = None  # Enter under a page goes back to the table
                case Empty():
                    return "next"
                case Quit():
                    if not confirm or self._confirm_leave():
                        return "leave"
                    note = None
                case Undo():
                    note = self._undo()
                    if note is None:
                        return "undone"
                case _:
                    note = self._answer(command, None)


def _only_card(deal: Deal) -> Action | None:
    """The one legal action if it is a card: Enter on an empty line plays it."""
    legal = deal.legal_actions()
    if len(legal) == 1 and legal[0].kind is ActionKind.PLAY:
        return legal[0]
    return None


# -- starting ----------------------------------------------------------------------------------


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
) -> Setup:
    """The options given win; what they leave open comes from a record's meta, then defaults.

    ``source`` is the record's file; a player in its meta that would start a program is
    refused (``make_player(..., trusted=False)``): only the options may name one.
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
            make_player(spec, trusted=bool(chosen)).close()
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
    return Setup(you, players, seed)


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
    or ``KeyboardInterrupt`` when the player leaves at the question.
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
        setup = _setup(path, RecordMeta.from_dict(record.meta), seat, partner, opponents, None)
    elif chosen is not None:
        setup = _setup(chosen.path, chosen.meta, seat, partner, opponents, None)
    else:
        try:
            rules = Variant.parse(variant) if variant else Variant()
        except SwitchError as e:
            raise StartError(records.switch_text(e)) from None
        except ValueError as e:  # a switch without a value or named twice
            raise StartError(str(e)) from None
        setup = _setup(None, RecordMeta(), seat, partner, opponents, seed)
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
            setup = _setup(newest.path, newest.meta, None, None, None, None)
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
