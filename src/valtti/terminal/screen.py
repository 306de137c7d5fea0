"""The table on the terminal, drawn with rich: one seat's view of the deal, the columns, the log.

Everything shown comes from an ``Observation`` of the viewing seat (plus, in a replay, the
other hands face up), so the screen cannot show what the seat may not know. The score sheets
shown under it (the tricks, a deal's end, the match's deals) are ``sheets``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from rich import box
from rich.align import Align
from rich.cells import cell_len
from rich.console import (
    Console,
    ConsoleOptions,
    Group,
    JustifyMethod,
    RenderableType,
    RenderResult,
)
from rich.measure import Measurement
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from valtti.engine import (
    ActionKind,
    Card,
    CardSet,
    DealResult,
    Observation,
    Phase,
    Seat,
    Suit,
    Team,
    Trick,
)
from valtti.terminal.commands import action_words
from valtti.terminal.i18n import N_, _, ngettext
from valtti.terminal.phrases import (
    event_text,
    played_by,
    player_text,
    points_text,
    score_text,
    seat_text,
    seats_text,
    team_text,
)

RED_SUITS = frozenset({Suit.H, Suit.D})
LOG_LINES = 6


@dataclass(frozen=True, slots=True)
class View:
    """What one screen shows."""

    observation: Observation  #: the viewer's; its ``score`` is the match score before the deal
    deal_number: int
    labels: Mapping[Seat, str]  #: who plays each seat, e.g. "random"; "" for a person
    log: Sequence[str] = ()  #: the latest events, oldest first
    hands: Mapping[Seat, CardSet] = field(default_factory=dict)  #: other hands, face up (replay)
    winning: Card | None = None  #: the winning card of the trick in play (``Deal.winning_card``)
    #: The viewer's seat is a person's, who is "you" (a replay of others' match: nobody's).
    person: bool = True


def suit_style(suit: Suit) -> str:
    return "red" if suit in RED_SUITS else ""


def card_text(card: Card, style: str = "") -> Text:
    """A card in its suit's colour (♥♦ red)."""
    return Text.assemble((card.unicode(), f"{suit_style(card.suit)} {style}".strip()))


def face_up(card: Card, winning: bool) -> Text:
    """A card lying on the table; the winning card so far is bold and underlined."""
    colour = "red" if card.suit in RED_SUITS else "black"
    style = f"{colour} on white" + (" bold underline" if winning else "")
    # Left-justified: centring a text strips its trailing space (the table centres it whole).
    return Text.assemble((f" {card.unicode()} ", style), justify="left")


def render(view: View, log_lines: int = LOG_LINES) -> RenderableType:
    """The whole screen in the full layout, with the last ``log_lines`` lines of the log."""
    return Group(*board(view), log(view.log, log_lines))


def board(view: View) -> list[RenderableType]:
    """The full layout without the log: the header, the table beside the columns, the hand."""
    middle = Table.grid(expand=True, padding=(0, 1))
    middle.add_column(ratio=3)
    middle.add_column(ratio=2)
    middle.add_row(table(view), info(view))
    return [header(view), middle, hand(view)]


def compact_board(view: View) -> list[RenderableType]:
    """The compact layout without the log, for a small terminal: no frames but the hand's,
    and no hand once it is empty."""
    parts = [compact_header(view), compact_table(view), compact_info(view)]
    return [*parts, hand(view)] if view.observation.hand else parts


@dataclass(frozen=True, slots=True)
class Keyed:
    """A reply with a key to what it shows (the hint's columns), or where to read further (the
    rules page's): in the reply's frame (titled ``title``), the key goes on its bottom edge,
    where it costs no line; where the edge is too short for it, on lines of its own at the
    end."""

    body: RenderableType
    key: str
    title: str | None = None

    def __rich__(self) -> RenderableType:
        return Group(self.body, Text(self.key, style="dim"))


@dataclass(frozen=True, slots=True)
class _KeyedPanel:
    note: Keyed

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        key = Text(self.note.key, style="dim")
        edge = cell_len(key.plain) <= options.max_width - 4  # the corners and a space each side
        body = self.note.body
        # Inside, it wraps between its parts where it can.
        parts = tuple(Text(part, style="dim") for part in self.note.key.split(" · "))
        yield Panel(
            body if edge else Group(body, _Joined(parts, "left", " · ")),
            title=self.note.title,
            subtitle=key if edge else None,
            subtitle_align="left",
            border_style="yellow",
        )


def note_panel(note: RenderableType) -> RenderableType:
    """The reply to the player's last input: an explanation, help, the score."""
    if isinstance(note, Keyed):
        return _KeyedPanel(note)
    return Panel(Text(note) if isinstance(note, str) else note, border_style="yellow")


#: Each switch's value away from the default (RULES.md 8), as the header tells it.
SWITCH_WORDS: Final[Mapping[tuple[str, object], str]] = {
    ("target", 12): N_("target 12"),
    ("first_forehand", "club_ace_holder"): N_("the holder of the ace of clubs leads deal 1"),
    ("whole_ask_after_trump", "anyone"): N_("anyone may ask whole after trumps"),
    ("whole_ask_after_trump", "nobody"): N_("nobody may ask whole after trumps"),
    ("must_overtrump", False): N_("no need to overtrump"),
    ("must_trump_if_cannot_overtrump", False): N_("any card when unable to overtrump"),
    ("first_trick_ace", "on"): N_("trick 1 led with an ace"),
    ("both_on_target", "continue"): N_("both on target: play on"),
}


def variant_text(view: View) -> str:
    """The rule variant in play: its switches that differ from the default ones, in words."""
    changes = view.observation.variant.changes()
    if not changes:
        return _("Rules: default")
    switches = ", ".join(_(SWITCH_WORDS[change]) for change in changes.items())
    return _("Rules: {switches}").format(switches=switches)


def _header_parts(view: View, words: int) -> tuple[Text, Text, Text]:
    """Deal and trick, trumps, the match score: with ``words`` 2 all of them, 1 without the
    dealer, 0 in fewest (no "Match:", a dash for no trumps)."""
    obs = view.observation
    score = obs.score or (0, 0)
    trick = min(len(obs.tricks) + 1, 9)
    short = words == 0
    deal = Text(_("Deal {number}").format(number=view.deal_number), style="bold")
    if words == 2:
        deal.append(" · " + _("dealer {seat}").format(seat=seat_text(obs.dealer)))
    deal.append(" · " + _("trick {number}/9").format(number=trick))
    trumps = Text(_("Trumps") + ": ", style="bold")
    if obs.trump is None or obs.trump_team is None:
        # Once the deal is over there are no trumps to come: "yet" would say there might be.
        none = _("none") if obs.phase is Phase.OVER else _("none yet")
        trumps.append("–" if short else none, style="dim")
    else:
        trumps.append(obs.trump.symbol, style=suit_style(obs.trump) + " bold")
        if not short:
            trumps.append(f" ({team_text(obs.trump_team)})")
    target = _("(to {target})").format(target=obs.variant.target)
    match = Text.assemble(
        ("" if short else _("Match") + ": ", "bold"), score_text(score) + " ", (target, "dim")
    )
    return deal, trumps, match


@dataclass(frozen=True, slots=True)
class _HeaderLine:
    """Deal, trick, trumps and the match score on one line, in fewer words where the width is
    too small for them all."""

    view: View

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        # The most words that leave two spaces between the parts.
        for words in (2, 1, 0):
            parts = _header_parts(self.view, words)
            if sum(cell_len(p.plain) for p in parts) + 4 <= options.max_width:
                break
        # A space between the columns: where the line wraps, no two of them run together.
        line = Table.grid(expand=True, padding=(0, 1))
        line.add_column(justify="left")
        line.add_column(justify="center")
        line.add_column(justify="right")
        line.add_row(*parts)
        yield line


def _header_line(view: View) -> RenderableType:
    return _HeaderLine(view)


@dataclass(frozen=True, slots=True)
class _Header:
    """The full layout's header: the deal, trumps and score in a frame, the rules on its bottom
    edge; where that edge is too short for them (it would cut them), on lines of their own
    inside the frame, wrapped between the switches."""

    view: View

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        rules = Text(variant_text(self.view), style="dim")
        edge = cell_len(rules.plain) <= options.max_width - 6  # corners, dashes and spaces
        yield Panel(
            _header_line(self.view) if edge else Group(_header_line(self.view), rules),
            title="valtti",
            title_align="left",
            subtitle=rules if edge else None,
            subtitle_align="right",
            box=box.ROUNDED,
        )


def header(view: View) -> RenderableType:
    return _Header(view)


def compact_header(view: View) -> RenderableType:
    rules = Text.assemble(("valtti", "bold"), " · ", (variant_text(view), "dim"))
    return Group(_header_line(view), rules, Rule(style="dim"))


def _on_table(obs: Observation) -> tuple[Trick | None, bool]:
    """The trick to show: the one in play, or the last one taken while the next is unled."""
    current = obs.current_trick
    if current is not None and current.cards:
        return current, False
    if obs.tricks:
        return obs.tricks[-1], True
    return current, False


def _places(you: Seat) -> tuple[Seat, Seat, Seat, Seat]:
    """The viewer, then the seats on its left, across (its partner) and on its right."""
    return you, you.left, you.partner, you.partner.left


def _on_table_now(view: View) -> tuple[Trick | None, bool, dict[Seat, Card], Seat | None]:
    """The trick shown (``_on_table``), whether it was taken, who played which of its cards,
    and who takes it or is winning it so far."""
    trick, taken = _on_table(view.observation)
    played = dict(trick.plays) if trick is not None else {}
    return trick, taken, played, _winning_seat(trick, taken, view.winning)


def _role(view: View, seat: Seat) -> str:
    """The word for a seat of the person's team ("you", "partner"); none in others' matches."""
    you = view.observation.seat
    if not view.person:
        return ""
    return _("you") if seat == you else _("partner") if seat == you.partner else ""


def table(view: View) -> RenderableType:
    """The four seats around the trick: the viewer at the bottom, partner at the top."""
    obs = view.observation
    you, left, top, right = _places(obs.seat)
    trick, taken, played, winner = _on_table_now(view)

    def seat(s: Seat) -> RenderableType:
        text = Text(seat_text(s), style="bold", justify="center")
        role = _role(view, s)
        if role:
            text.append(f" · {role}", style="bold")
        if obs.current_player == s:
            text.append(" ◀", style="bold yellow")
        if view.labels.get(s):
            text.append("\n" + player_text(view.labels[s]), style="dim")
        count = obs.hand_sizes[s]
        text.append("\n" + ngettext("{n} card", "{n} cards", count).format(n=count), style="dim")
        if s in obs.locked:
            text.append("\n" + _("locked"), style="magenta")
        if s in view.hands:
            return Group(text, _hand_line(view.hands[s], justify="center"))
        return text

    def card(s: Seat) -> RenderableType:
        c = played.get(s)
        return Text("") if c is None else Align.center(face_up(c, s == winner))

    def place(s: Seat) -> RenderableType:
        return Group(Align.center(seat(s)), card(s))

    grid = Table.grid(expand=True)
    for _column in range(3):
        grid.add_column(justify="center", ratio=1)
    grid.add_row("", place(top), "")
    grid.add_row(place(left), _trick_caption(trick, taken, winner), place(right))
    grid.add_row("", Group(card(you), Align.center(seat(you))), "")
    return Panel(grid, title=_("Table"), title_align="left", box=box.ROUNDED)


def _winning_seat(trick: Trick | None, taken: bool, winning: Card | None) -> Seat | None:
    if trick is None:
        return None
    if taken:
        return trick.winner
    return played_by(trick, winning)


def _trick_caption(trick: Trick | None, taken: bool, winner: Seat | None) -> Text:
    if trick is None:
        return Text("")
    if taken:
        assert trick.winner is not None
        return Text(
            _("Trick {number} to {seat}\n{points}").format(
                number=trick.number,
                seat=seat_text(trick.winner),
                points=points_text(trick.points),
            ),
            style="dim",
        )
    if not trick.cards:
        return Text(_("Trick {number}").format(number=trick.number), style="dim")
    caption = _("Trick {number}\n{seat} led").format(
        number=trick.number, seat=seat_text(trick.leader)
    )
    if winner is not None:
        caption += "\n" + _("{seat} wins so far").format(seat=seat_text(winner))
    return Text(caption)


def info(view: View) -> RenderableType:
    """The deal's three columns per team, the declarations and questions, the locks."""
    obs = view.observation
    you = obs.seat
    columns = team_columns(obs.result, you)
    said = Text(_("Marriages and questions") + ":\n", style="bold")
    if obs.events:
        said.append("\n".join(event_text(e) for e in obs.events))
    else:
        said.append(_("none yet"), style="dim")
    locked = Text(_("Locked") + ": ", style="bold")
    locked.append(seats_text(obs.locked) if obs.locked else _("nobody"), style="magenta")
    return Panel(Group(columns, said, locked), title=_("This deal"), title_align="left")


def compact_table(view: View) -> RenderableType:
    """The four seats around the trick, each on one line where the width allows: the viewer
    at the bottom (``_Around``)."""
    obs = view.observation
    you, left, top, right = _places(obs.seat)
    trick, taken, played, winner = _on_table_now(view)

    def seat(s: Seat) -> RenderableType:
        text = Text(seat_text(s), style="bold")
        role = _role(view, s)
        if role:
            text.append(f" {role}", style="bold")
        count = obs.hand_sizes[s]
        text.append(" " + ngettext("{n} card", "{n} cards", count).format(n=count), style="dim")
        if s in obs.locked:
            text.append(" " + _("locked"), style="magenta")
        if obs.current_player == s:
            text.append(" ◀", style="bold yellow")
        if s in played:
            text.append(" ")
            text.append_text(face_up(played[s], s == winner))
        if s in view.hands:  # a replay: the hand face up on a line of its own
            return Group(text, _hand_line(view.hands[s]))
        return text

    caption = _trick_caption(trick, taken, winner)
    parts = tuple(caption.split("\n")) if caption.plain else ()
    return _Around(
        seat(top), seat(left), _Joined(parts, separator=" · ", dim=False), seat(right), seat(you)
    )


@dataclass(frozen=True, slots=True)
class _Around:
    """The compact table's rows: ``top``, then ``left``, the trick's ``caption`` and ``right``
    side by side, then ``bottom``. A space at least between two columns, so that no two run
    together. The sides take two sevenths of the width each, or more where their lines are
    longer and the middle still has room for the widest part of the caption and the seats above
    and below, the caption breaking between its parts (``Trick 3 · W led`` over ``N wins so
    far``); else the sides wrap too."""

    top: RenderableType
    left: RenderableType
    caption: _Joined
    right: RenderableType
    bottom: RenderableType

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width

        def measured(part: RenderableType) -> Measurement:
            return Measurement.get(console, options, part)

        sides = [measured(self.left), measured(self.right)]
        middle = max(self.caption.widest, *(measured(p).maximum for p in (self.top, self.bottom)))
        room = (width - 2 - middle) // 2
        # Two sevenths each where that is room enough (the middle then as wide as it can be).
        wanted = max(max(m.maximum for m in sides), (width - 2) * 2 // 7)
        side = max(min(wanted, room), max(m.minimum for m in sides), 1)
        grid = Table.grid(expand=True, padding=(0, 0, 0, 1), pad_edge=False)
        grid.add_column(justify="center", width=side)
        grid.add_column(justify="center", ratio=1)
        grid.add_column(justify="center", width=side)
        grid.add_row("", self.top, "")
        grid.add_row(self.left, self.caption, self.right)
        grid.add_row("", self.bottom, "")
        yield grid


def compact_info(view: View) -> RenderableType:
    """The deal's columns, the locks, and the declarations and questions, in a few lines."""
    obs = view.observation
    result = obs.result
    teams = "–".join(team_text(t) for t in Team)
    line = Text(f"{teams}: ", style="bold")
    rows = (
        (_("tricks"), result.tricks),
        (_("card points"), result.card_points),
        (_("game points"), result.game_points),
    )
    line.append(" · ".join(f"{title} {v[Team.NS]}–{v[Team.EW]}" for title, v in rows))
    line.append(" · ")
    line.append(_("Locked") + ": ", style="bold")
    line.append(seats_text(obs.locked) if obs.locked else _("nobody"), style="magenta")
    if obs.events:
        line.append("\n" + _("Marriages and questions") + ": ", style="bold")
        line.append("; ".join(event_text(e) for e in obs.events))
    return line


def team_columns(result: DealResult, you: Seat, framed: bool = True) -> RenderableType:
    """The three columns per team (RULES.md 5): tricks, card points, game points."""
    columns = Table(box=box.SIMPLE_HEAD if framed else None, padding=(0, 1), pad_edge=False)
    columns.add_column("", no_wrap=True)
    for team in Team:
        style = "bold" if team == you.team else ""
        columns.add_column(team_text(team), justify="right", no_wrap=True, header_style=style)
    rows = (
        (_("tricks"), result.tricks),
        (_("card points"), result.card_points),
        (_("game points"), result.game_points),
    )
    for title, values in rows:
        columns.add_row(title, *(str(values[team]) for team in Team))
    return columns


@dataclass(frozen=True, slots=True)
class _Joined:
    """Parts on a line with ``separator`` between two of them (dim with ``dim``): a hand's
    suits, a dim "│" between two, or a trick's caption, " · " between its parts. Where they are
    wider than their place they wrap between two parts, and the separator goes (it would be
    left alone at the end of a line); a part wider than the place on its own wraps between its
    words."""

    parts: tuple[Text, ...]
    justify: JustifyMethod | None = None  #: ``None``: as the place's (a table column's)
    separator: str = " │ "
    dim: bool = True

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        between = cell_len(self.separator)
        lines: list[Text] = []
        for part in self.parts:
            if lines and lines[-1].cell_len + between + part.cell_len <= width:
                lines[-1].append(self.separator, style="dim" if self.dim else part.style)
                lines[-1].append_text(part)
            else:
                lines.extend(part.wrap(console, width))
        text = Text("\n").join(lines)
        text.justify = self.justify
        yield text

    @property
    def widest(self) -> int:
        """The width of the widest part."""
        return max((p.cell_len for p in self.parts), default=0)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        if not self.parts:
            return Measurement(0, 0)
        between = cell_len(self.separator)
        one_line = sum(p.cell_len for p in self.parts) + between * (len(self.parts) - 1)
        widest = max(cell_len(w) for p in self.parts for w in p.plain.split())
        return Measurement(widest, one_line).clamp(max_width=options.max_width)


def _hand_line(
    cards: CardSet,
    legal: frozenset[Card] = frozenset(),
    numbered: bool = False,
    justify: JustifyMethod | None = None,
) -> _Joined:
    """Cards grouped by suit; with ``numbered`` each card has the number to type for it."""
    suits = []
    number = 0
    for suit in Suit:
        text = Text()
        for i, c in enumerate(cards.suit(suit)):
            number += 1
            if i:
                text.append(" ")
            if numbered:
                text.append(f"{number}:", style="cyan" if c in legal else "dim")
            text.append_text(card_text(c, "bold reverse" if c in legal else "dim" if legal else ""))
        if text:
            suits.append(text)
    return _Joined(tuple(suits), justify)


def hand(view: View) -> RenderableType:
    """The viewer's hand with the legal cards highlighted, and the legal actions spelled out."""
    obs = view.observation
    legal = obs.legal_actions
    playable = frozenset(a.card for a in legal if a.card is not None)
    body: list[RenderableType] = [_hand_line(obs.hand, playable, numbered=bool(legal))]
    if legal:
        cards = [c for c in obs.hand if c in playable]  # in the hand's order
        words = [a for a in legal if a.kind is not ActionKind.PLAY]
        line = Text(_("Legal") + ": ", style="bold")
        line.append_text(Text(" ").join(card_text(c) for c in cards))
        if words:
            if cards:
                line.append(" · ")
            line.append(" · ".join(action_words(a) for a in words), style="bold cyan")
        body.append(line)
    elif obs.current_player is not None and (obs.current_player != obs.seat or view.hands):
        # In a replay (every hand shown) the viewer's own seat is to play too.
        waiting = _("{seat} to play").format(seat=seat_text(obs.current_player))
        body.append(Text(waiting, style="dim"))
    title = _("Your hand ({seat})") if view.person else _("Hand ({seat})")
    return Panel(
        Group(*body),
        title=title.format(seat=seat_text(obs.seat)),
        title_align="left",
        box=box.ROUNDED,
    )


def log(lines: Sequence[str], count: int = LOG_LINES) -> RenderableType:
    """The last ``count`` lines of the log (at least one) in a panel."""
    shown = list(lines[-max(count, 1) :])
    text = Text("\n".join(shown) if shown else _("The deal begins."))
    return Panel(text, title=_("What happened"), title_align="left", box=box.ROUNDED)
