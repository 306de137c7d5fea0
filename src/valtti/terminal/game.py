"""``valtti play``: a whole match in the terminal, you and three computer players.

The seats are a ``Table`` (``valtti.table``): randomness comes only from the match seed, from
which the table derives the first dealer, each deal's cards and each computer decision. A saved
record keeps the seed, the seats and the players under ``meta``, so a resumed match continues
exactly as it would have gone on.
"""

from __future__ import annotations

import secrets
import signal
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from valtti.engine import Action, Deal, Match, Phase, Seat, Variant
from valtti.engine.record import IllegalRecordAction, Record, RecordFormatError
from valtti.players import hint, make_player
from valtti.players.registry import starts_program
from valtti.table import Computer, Table
from valtti.terminal import glyphs, guide, i18n
from valtti.terminal.commands import (
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
    Tricks,
    action_words,
    parse,
    word,
)
from valtti.terminal.i18n import _
from valtti.terminal.layout import Fitted, screen
from valtti.terminal.phrases import deal_start_text, news, reason_text
from valtti.terminal.plain import turn_lines
from valtti.terminal.screen import (
    View,
    deal_summary,
    match_table,
    result_line,
    tricks_table,
)

PROGRAM: Final = "valtti play"
DEFAULT_PLAYER: Final = "heuristic"
#: Seconds each computer move stays on the screen (none with ``--fast``).
MOVE_PAUSE: Final = 1.0
EXIT_ILLEGAL: Final = 1
EXIT_MALFORMED: Final = 2


@dataclass(frozen=True, slots=True)
class Setup:
    """Who sits where and the match seed; kept in a record's ``meta``."""

    you: Seat
    players: Mapping[Seat, str]  #: the computer seats' player specs (``make_player``)
    seed: int

    def meta(self) -> dict[str, Any]:
        return {
            "program": PROGRAM,
            "seat": str(self.you),
            "seed": self.seed,
            "players": {str(s): spec for s, spec in sorted(self.players.items())},
        }

    def table(self, match: Match | None = None, variant: Variant | None = None) -> Table:
        """The seats: a fresh computer player for each decision (nothing to restore on a
        resume), and the person, whose moves the session applies."""
        seats = {seat: Computer(spec) for seat, spec in self.players.items()}
        return Table(seats, self.seed, match, variant=variant)


class Session:
    """The match loop: draws the table, reads the player's input, moves the computer seats.

    ``read`` shows a prompt and returns a line (``EOFError`` at the end of input); ``pause``
    waits so that a computer move can be followed. With ``plain`` (the line mode for screen
    readers) nothing is redrawn: each event is told once, a line each, and prompts are lines.
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
    ) -> None:
        self.table = table
        self.match = table.match
        self.setup = setup
        self.console = console
        style = "" if plain else "bold"
        self.read = read or (lambda prompt: console.input(Text(prompt, style=style)))
        self.pause = pause
        self.fast = fast
        self.plain = plain
        self.log: list[str] = []
        self._told = 0  #: how many log lines the plain mode has told
        self._turn_told: tuple[int, int] | None = None  #: the turn it last told (deal, action)
        #: The last draw's reply and parts under the table, to draw again at a new size.
        self._shown: tuple[RenderableType | None, tuple[RenderableType, ...]] | None = None

    @property
    def you(self) -> Seat:
        return self.setup.you

    def run(self) -> None:
        """Play until the match is over or the player leaves."""
        try:
            while not self.match.is_over():
                if self.table.needs_deal:
                    self._start_deal()
                deal = self.match.deal
                assert deal is not None
                if self.table.to_move == self.you:
                    if not self._your_turn(deal):
                        return
                else:
                    self._computer_turn()
                if deal.is_over() and not self.match.is_over() and not self._deal_over():
                    return
            self._match_over()
        except EOFError:
            self.console.print(_("End of input: leaving the match."))
        except KeyboardInterrupt:
            self.console.print("\n" + _("Interrupted: leaving the match."))

    # -- moves ----------------------------------------------------------------------------------

    def _start_deal(self) -> None:
        deal = self.table.start_deal()
        self.log.append(deal_start_text(len(self.match.deals), deal.dealer, deal.forehand))

    def _apply(self, action: Action) -> None:
        before = self.match.observation(self.you)
        self.table.apply(action)
        self.log.extend(news(before, self.match.observation(self.you)))

    def _computer_turn(self) -> None:
        self._apply(self.table.decide())
        if not self.fast:
            self._draw()
            self.pause(MOVE_PAUSE)

    def _your_turn(self, deal: Deal) -> bool:
        """Read input until a legal action is taken (``True``) or the player leaves (``False``)."""
        note: RenderableType | None = None
        while True:
            self._draw(note)
            line = self.read(self._prompt(deal))
            try:
                command = parse(line, list(deal.hand(self.you)))
            except InputError as e:
                note = str(e)
                continue
            match command:
                case Play(action):
                    refusal = deal.refusal(action)
                    if refusal is None:
                        self._apply(action)
                        return True
                    note = _("{action} is not legal: {reason}. Legal now: {legal}").format(
                        action=action_words(action),
                        reason=reason_text(refusal),
                        legal=" ".join(action_words(a) for a in deal.legal_actions()),
                    )
                case Quit():
                    if self._confirm_leave():
                        return False
                    note = None
                case _:
                    note = self._answer(command, deal)

    def _prompt(self, deal: Deal) -> str:
        trick = deal.current_trick
        if deal.phase is Phase.DECLARATION:
            text = _("You took the trick: declare, ask or lead")
        elif deal.phase is Phase.ANSWER:
            text = _("Name a marriage")
        elif trick is None or not trick.cards:
            text = _("Your lead")
        else:
            text = _("Your card")
        return self._line(f"{text} > ")

    def _line(self, prompt: str) -> str:
        """A prompt as it is shown: on a line of its own in the plain mode."""
        return prompt.rstrip() + "\n" if self.plain else prompt

    def _answer(self, command: Command, deal: Deal | None) -> RenderableType | None:
        """The reply to a command that is not a move; ``deal`` is the one waiting for the player."""
        match command:
            case Help(None):
                return guide.moment(deal, self.you) if deal is not None else guide.usage()
            case Help(action) if action is not None:
                if deal is None:
                    return _("No deal is being played: there is nothing to explain.")
                return guide.explain(deal, action)
            case Hint():
                return self._hint(deal)
            case Score():
                return self._score()
            case Tricks(last):
                return self._tricks(last)
            case Save(path):
                return self._save(Path(path))
            case Play(_action):
                return _("No deal is being played: press Enter to go on.")
        return None

    def _hint(self, deal: Deal | None) -> RenderableType:
        """The search player's estimate of every legal action, best first."""
        if deal is None:
            return _("No deal is being played: there is nothing to hint.")
        # The seed a computer player would decide with here: the same hint at the same point.
        estimates = hint(self.match.observation(self.you), seed=self.table.decision_seed())
        said = _(
            "The search player would take {action}. Its estimate of each of your {n} legal "
            "moves, in match points for your team (more is better):"
        ).format(action=action_words(estimates[0][0]), n=len(estimates))
        moves = [Text(f"{action_words(a):<12} {value:+.2f}") for a, value in estimates]
        if self.plain:
            return "\n".join([said, *(m.plain for m in moves)])
        return Group(Text(said), Columns(moves, padding=(0, 3)))

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
        return Group(Text(line), match_table(finished, match.deal_scores, framed=not self.plain))

    def _save(self, path: Path) -> str:
        text = Record.of_match(self.match, meta=self.setup.meta()).to_json()
        try:
            path.write_text(text + "\n", encoding="utf-8")
        except OSError as e:
            return _("Could not save to {path}: {error}").format(path=path, error=e.strerror or e)
        if self.match.is_over():
            return _("Saved to {path}.").format(path=path)
        return _("Saved to {path}. Continue later with: valtti play --resume {path}").format(
            path=path
        )

    def _confirm_leave(self) -> bool:
        answer = self.read(
            self._line(_("Leave the match? Play that is not saved is lost. (y/n) > "))
        )
        yes = word(YES).lower()
        return answer.strip().lower() in ("y", "yes", yes, yes[:1])

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

    def _draw(self, note: RenderableType | None = None, *more: RenderableType) -> None:
        """The table, then ``more`` (the deal's or the match's end), then the reply ``note``,
        fitted to the terminal's size as it is now; in the plain mode, only what is new."""
        if self.plain:
            self._tell(note, *more)
            return
        self._shown = (note, more)
        self.console.clear()
        self.console.print(screen(self.console, self._view(), note, more))

    @contextmanager
    def redrawn_on_resize(self) -> Iterator[None]:
        """While inside, a change of the terminal's size at a prompt redraws the screen at once
        (the line typed so far is kept, though no longer shown)."""
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
                self._draw(note, *more)
                self.console.print(Text(waiting[-1], style="bold"), end="")

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
            # Never wrapped by the program: a line stays one line for the screen reader.
            self.console.print(part, soft_wrap=True)

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
            print_(note)

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

    def _deal_over(self) -> bool:
        """Show how the deal was scored; ``False`` if the player leaves instead of going on."""
        prompt = self._line(_("Enter: next deal · score · save FILE · quit > "))
        return self._until_enter(prompt, self._summary(), confirm=True)

    def _match_over(self) -> None:
        match = self.match
        finished = [(d.dealer, d.trump) for d in match.deals]
        result = Text(result_line(match.winner, match.is_draw, match.score, self.you), "bold")
        table = match_table(finished, match.deal_scores)
        over = Panel(Group(result, table), title=_("The match is over"), border_style="green")
        told = Group(result, match_table(finished, match.deal_scores, framed=False))
        prompt = self._line(_("The match is over. save FILE to keep it, Enter to leave > "))
        self._until_enter(prompt, self._summary(), Fitted(over, over, told), confirm=False)

    def _until_enter(self, prompt: str, *shown: RenderableType, confirm: bool) -> bool:
        """Show ``shown`` under the table and answer commands until Enter (``True``) or ``quit``
        (``False``; with ``confirm`` only once the player confirms)."""
        note: RenderableType | None = None
        while True:
            self._draw(note, *shown)
            try:
                command = parse(self.read(prompt), [])
            except InputError as e:
                note = str(e)
                continue
            match command:
                case Empty():
                    return True
                case Quit():
                    if not confirm or self._confirm_leave():
                        return False
                    note = None
                case _:
                    note = self._answer(command, None)


# -- starting ----------------------------------------------------------------------------------


class StartError(Exception):
    """The match cannot start: a bad option or an unreadable record; ``status`` is the exit code."""

    def __init__(self, message: str, status: int = EXIT_MALFORMED) -> None:
        super().__init__(message)
        self.status = status


def _setup(
    source: Path | None,
    meta: Mapping[str, Any],
    seat: str | None,
    partner: str | None,
    opponents: str | None,
    seed: int | None,
) -> Setup:
    """The options given win; what they leave open comes from a record's meta, then defaults.

    ``source`` is the record's file; an ``external:`` player in its meta is refused.
    """
    # A bad value read from the record names the file it comes from.
    where = f"{source}: " if source is not None else ""
    try:
        you = Seat.parse(seat or str(meta.get("seat", "S")))
    except ValueError as e:
        raise StartError(("" if seat else where) + str(e)) from None
    known = meta.get("players")
    known = known if isinstance(known, dict) else {}
    players = {}
    for s in Seat:
        if s == you:
            continue
        chosen = partner if s == you.partner else opponents
        spec = chosen or known.get(str(s)) or DEFAULT_PLAYER
        if not chosen and starts_program(str(spec)):
            # A record is data from whoever wrote it: it never chooses a program to run.
            option = "--partner" if s == you.partner else "--opponents"
            raise StartError(
                _(
                    "{path} names the program {spec} as the player at {seat}. A record never "
                    "starts a program: to let it play, name it yourself with {option} '{spec}'."
                ).format(path=source, spec=spec, seat=s, option=option)
            )
        try:
            make_player(str(spec)).close()
        except ValueError as e:
            raise StartError(("" if chosen else where) + str(e)) from None
        players[s] = str(spec)
    stored = meta.get("seed")
    if seed is None:
        seed = stored if isinstance(stored, int) else secrets.randbits(32)
    return Setup(you, players, seed)


def _resume(path: Path) -> tuple[Match, dict[str, Any]]:
    try:
        record = Record.from_json(path.read_bytes())
        return record.replay(), dict(record.meta or {})
    except OSError as e:
        message = _("cannot read {path}: {error}").format(path=path, error=e.strerror or e)
        raise StartError(message) from None
    except IllegalRecordAction as e:
        message = _("{path}: illegal action: {error}").format(path=path, error=e)
        raise StartError(message, EXIT_ILLEGAL) from None
    except RecordFormatError as e:
        message = _("{path}: malformed record: {error}").format(path=path, error=e)
        raise StartError(message) from None


def start(
    *,
    seat: str | None = None,
    partner: str | None = None,
    opponents: str | None = None,
    seed: int | None = None,
    variant: str | None = None,
    language: str | None = None,
    fast: bool = False,
    resume: Path | None = None,
    console: Console | None = None,
    ascii_only: bool = False,
    plain: bool = False,
) -> Session:
    """A session ready to ``run``: a new match, or the one saved in ``resume``.

    A resumed match keeps its record's variant and seed; ``StartError`` for a bad option or file.
    ``ascii_only`` draws with plain characters (so does a terminal that cannot show Unicode);
    ``plain`` is the line mode for screen readers.
    """
    i18n.use(language or i18n.default_language())
    out = console or glyphs.console(ascii_only)
    if resume is not None:
        if variant is not None or seed is not None:
            raise StartError(_("--variant and --seed come from the record when resuming"))
        match, meta = _resume(resume)
        setup = _setup(resume, meta, seat, partner, opponents, None)
        session = Session(setup.table(match), setup, out, fast=fast, plain=plain)
        session.log.append(_("Resumed from {path}.").format(path=resume))
        return session
    try:
        rules = Variant.parse(variant) if variant else Variant()
    except ValueError as e:
        raise StartError(str(e)) from None
    setup = _setup(None, {}, seat, partner, opponents, seed)
    table = setup.table(variant=rules)
    return Session(table, setup, out, fast=fast, plain=plain)
