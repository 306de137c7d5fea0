"""The terminal game on any terminal: the layout fitted to the size, plain characters, the line
mode, looking back at the tricks, the words of the answer help and the log, the Finnish seats
and teams, and the replay viewer's keys."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator

import pytest
from click.testing import CliRunner
from rich.console import Console
from rich.text import Text

from helpers import hands_of
from valtti.cli import main
from valtti.engine import Action, Deal, Phase, Seat, Variant
from valtti.engine.record import Record
from valtti.engine.variant import SWITCHES
from valtti.players.shipped import LEVELS, strengths
from valtti.terminal import drawing, glyphs, guide, i18n, layout, phrases
from valtti.terminal.commands import Tricks, parse
from valtti.terminal.game import start
from valtti.terminal.replay import Viewer
from valtti.terminal.screen import SWITCH_WORDS, Keyed
from valtti.terminal.session import Session


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.use("en")
    yield
    i18n.use("en")


def console(width: int = 80, height: int = 24, stream: io.StringIO | None = None) -> Console:
    # A terminal, so that the screen is cleared before each draw; no colours.
    return Console(
        file=stream or io.StringIO(),
        width=width,
        height=height,
        color_system=None,
        force_terminal=True,
    )


def lines_of(con: Console, renderable: object) -> list[str]:
    con.print(renderable)
    out = con.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out.splitlines()


def answering() -> Deal:
    """S must name one of two marriages: N took trick 1 and asked for a whole marriage."""
    hands = hands_of(N="AD KH QH", E="6D", S="KS QS KC QC 7D", W="8D")
    deal = Deal(list(hands), Seat.W)
    for token in ("AD", "6D", "7D", "8D", "ask-whole"):
        deal.apply(Action.parse(token))
    assert deal.phase is Phase.ANSWER
    return deal


def session(**options: object) -> tuple[Session, io.StringIO]:
    out = io.StringIO()
    con = Console(file=out, width=80, height=24, color_system=None, highlight=False)
    s = start(seed=2, partner="random", opponents="random", fast=True, console=con, **options)  # type: ignore[arg-type]
    return s, out


def scripted(s: Session, lines: list[str]) -> list[str]:
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if lines:
            return lines.pop(0)
        raise EOFError

    s.drawing.read = read
    return prompts


def first_legal(s: Session) -> str:
    deal = s.match.deal
    assert deal is not None
    return str(deal.legal_actions()[0])


def drawn_screens(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The lines of each screen the game draws from now on (the table, or a page in its place),
    as an 80×24 terminal shows them."""
    screens: list[list[str]] = []

    def drawn(con: Console, *args: object) -> object:
        shown = layout.screen(con, *args)  # type: ignore[arg-type]
        screens.append(lines_of(console(), shown))
        return shown

    def paged(con: Console, *args: object) -> object:
        shown = layout.page_screen(con, *args)  # type: ignore[arg-type]
        screens.append(lines_of(console(), shown))
        return shown

    monkeypatch.setattr(drawing, "screen", drawn)
    monkeypatch.setattr(drawing, "page_screen", paged)
    return screens


# -- the layout ----------------------------------------------------------------------------------


@pytest.mark.parametrize("reply", ["help", "hint", "tricks", "score"])
def test_at_80x24_the_header_stays_on_screen_under_every_reply(reply: str) -> None:
    s, _out = session()
    deal = s.table.start_deal()
    while deal.current_player != s.you or len(deal.history) < 9:
        deal.apply(deal.legal_actions()[0])
    # Log lines too long for one row (a kept autosave's path) take two rows, not one.
    s.drawing.log[:0] = ["The match that was in progress is kept in " + "/very/long/path" * 6] * 2
    note = s.replies.answer(parse(reply, list(deal.hand(s.you))), deal)
    assert note is not None
    con = console()
    shown = lines_of(con, layout.screen(con, s.drawing.view(), note))
    assert len(shown) <= 23  # the prompt's line stays free
    assert "Trumps:" in shown[0] and "Match: NS 0 – EW 0" in shown[0]
    assert "Rules: default" in shown[1]
    assert any(line.startswith("╭─ Your hand (S)") for line in shown)


def _deal_rows(lines: list[str]) -> list[int]:
    """The deals' numbers in the rows of the final score, as shown."""
    return [int(line.split()[0]) for line in lines if re.match(r"\s+\d+\s+[NESW]\s", line)]


@pytest.mark.parametrize("seed", [2, 7])  # 7 and 14 deals
def test_at_80x24_the_final_score_is_a_page_of_its_own_the_newest_deal_first(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    """Issue 41: every deal under the columns' titles, the deciding one on top; a match too
    long for one page is turned a page at a time, the titles on each; a reply goes under the
    table, and Enter comes back to the final score."""
    out = io.StringIO()
    con = Console(file=out, width=80, height=24, color_system=None, highlight=False)
    s = start(seed=seed, partner="random", opponents="random", fast=True, console=con)
    screens = drawn_screens(monkeypatch)
    replies = ["more", "help", "", "score"]
    at: dict[str, list[str]] = {}

    def read(prompt: str) -> str:
        if s.match.is_over():
            at[replies[0] if replies else "end"] = screens[-1]
            if not replies:
                raise EOFError
            return replies.pop(0)
        return "" if prompt.startswith("Enter") else first_legal(s)

    s.drawing.read = read
    s.run()
    deals = len(s.match.deals)
    over, turned = at["more"], at["help"]
    assert over[0] == "The match is over" and over[1].startswith("You and your partner win")
    assert f"Deal {deals} is over" in over + turned  # how the last deal was scored, under them
    for page in (over, turned):
        assert len(page) <= 23
        assert any(re.match(r"\s+deal\s+dealer\s+trumps\s+NS\s+EW\s+score", line) for line in page)
    rows = _deal_rows(over) + ([] if over == turned else _deal_rows(turned))
    assert rows == list(range(deals, 0, -1))  # every deal once, the deciding one on top
    if deals <= 10:  # one page
        assert over == turned and not any("— more" in line for line in over)
    else:  # two: the title and the columns' titles on each
        assert over[-1] == "— more: PgDn or more · page 1 of 2 —"
        assert turned[:5] == over[:5] and turned[-1] == "— end · page 2 of 2 · back: PgUp —"
    helped = at[""]
    assert "Match:" in helped[0] and "Rules: default" in helped[1]  # the table, the header
    assert at["score"] == over and at["end"] == over  # Enter: back to the final score


@pytest.mark.parametrize("seed", [2, 7])  # a question before S plays fourth; three of them
def test_at_80x24_the_log_shows_every_card_of_the_last_trick(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    out = io.StringIO()
    con = Console(file=out, width=80, height=24, color_system=None, highlight=False)
    s = start(seed=seed, partner="random", opponents="random", fast=True, console=con)
    shown = drawn_screens(monkeypatch)
    checked = 0

    def read(prompt: str) -> str:
        nonlocal checked
        if len(s.match.deals) > 1:
            raise EOFError
        tricks = s.match.observation(s.you).tricks
        if tricks:
            lines = shown[-1]
            top = next(i for i, line in enumerate(lines) if line.startswith("╭─ What happened"))
            bottom = next(i for i in range(top, len(lines)) if lines[i].startswith("╰"))
            logged = "\n".join(lines[top + 1 : bottom])
            trick = tricks[-1]
            assert all(card.unicode() in logged for _seat, card in trick.plays), lines
            assert f"takes trick {trick.number}" in logged, lines
            checked += 1
        return "" if prompt.startswith("Enter") else first_legal(s)

    s.drawing.read = read
    s.run()
    assert checked >= 9  # each turn after the first trick, and the deal's end


def test_the_full_layout_where_it_fits_and_the_log_uses_the_height() -> None:
    s, _out = session()
    deal = s.table.start_deal()
    for _ in range(20):
        deal.apply(deal.legal_actions()[0])
        s.drawing.log.append(f"event {len(deal.history)}")
    tall = console(120, 60)
    shown = lines_of(tall, layout.screen(tall, s.drawing.view()))
    assert shown[0].startswith("╭─ valtti")
    assert sum(line.startswith("│ event") for line in shown) == 20  # every line there is
    short = console(120, 40)
    shown = lines_of(short, layout.screen(short, s.drawing.view()))
    logged = sum(line.startswith("│ event") for line in shown)
    assert 6 < logged < 20 and len(shown) <= 39
    narrow = console(60, 40)
    assert not lines_of(narrow, layout.screen(narrow, s.drawing.view()))[0].startswith("╭─ valtti")


def test_a_reply_taller_than_the_screen_is_shown_in_pages() -> None:
    s, _out = session()
    s.table.start_deal()
    con = console(80, 16)
    note = "\n".join(f"line {n}" for n in range(40))
    first = lines_of(con, layout.screen(con, s.drawing.view(), note))
    assert len(first) <= 15 and "Trumps:" in first[0]
    assert any("— more: PgDn or more · page 1 of " in line for line in first), first
    con = console(80, 16)
    last = lines_of(con, layout.screen(con, s.drawing.view(), note, page=-1))
    assert len(last) <= 15 and "Trumps:" in last[0]
    assert any("line 39" in line for line in last) and any("— end · page" in ln for ln in last)


@pytest.mark.parametrize("width", [80, 50])
def test_a_reply_in_pages_keeps_its_key(width: int) -> None:
    """The hint's key is on its frame's edge (at 50 columns, too short for it, on lines of its
    own, broken between its parts): paging the moves keeps the key whole on every page."""
    s, _out = session()
    s.table.start_deal()
    key = "value: match equity change · best: share of 9 sampled deals where best"
    body = Text("\n".join(f"line {n}" for n in range(40)))
    for page in (0, -1):
        con = console(width, 20)
        shown = lines_of(con, layout.screen(con, s.drawing.view(), Keyed(body, key), page=page))
        assert len(shown) <= 19 and "Trumps:" in shown[0]
        assert any("page" in line for line in shown)
        said = " ".join(" ".join(line.strip("│╰─╯ ") for line in shown).split())
        assert all(part in said for part in key.split(" · ")), shown
    assert any("line 39" in line for line in shown)


def test_a_tiny_terminal_never_says_zero_more_lines() -> None:
    """At 20×8 the header alone fills the screen: nothing under it was cut, so nothing says so."""
    s, _out = session()
    s.table.start_deal()
    con = console(20, 8)
    shown = lines_of(con, layout.screen(con, s.drawing.view()))
    assert not any("more lines" in line for line in shown), shown
    assert "Deal 1" in shown[0]


def test_the_header_shows_the_variant_and_the_score_after_a_deal() -> None:
    s, _out = session(variant="target=12,first_trick_ace=on")
    scripted(s, [])
    deal = s.table.start_deal()
    while not deal.is_over():
        s.match.apply(deal.legal_actions()[0])
    con = console(120, 50)
    shown = "\n".join(
        lines_of(con, layout.screen(con, s.drawing.view(), None, [s.drawing.summary()]))
    )
    ns, ew = s.match.score
    assert (ns, ew) != (0, 0)
    assert f"Match: NS {ns} – EW {ew} (to 12)" in shown
    assert "Rules: target 12, trick 1 led with an ace" in shown


LONG_VARIANT = (
    "target=12,first_forehand=club_ace_holder,whole_ask_after_trump=anyone,must_overtrump=false,"
    "must_trump_if_cannot_overtrump=false,first_trick_ace=on,both_on_target=continue"
)


@pytest.mark.parametrize(("width", "height"), [(80, 24), (100, 40), (160, 50)])
def test_a_long_variant_wraps_between_its_switches_and_is_shown_whole(
    width: int, height: int
) -> None:
    s, _out = session(variant=LONG_VARIANT)
    s.table.start_deal()
    con = console(width, height)
    shown = lines_of(con, layout.screen(con, s.drawing.view()))
    words = " ".join(" ".join(shown).replace("│", " ").split())
    for switch in Variant.parse(LONG_VARIANT).changes().items():
        assert SWITCH_WORDS[switch] in words, (switch, shown)  # whole: not cut off
    assert len(shown) <= height - 1


def test_every_switch_away_from_its_default_has_its_words() -> None:
    """The header told the raw names (must_overtrump=false), also in Finnish."""
    away = {(name, value) for name, values in SWITCHES.items() for value in values[1:]}
    assert away == set(SWITCH_WORDS)
    i18n.use("fi")
    finnish = {i18n._(words) for words in SWITCH_WORDS.values()}
    assert len(finnish) == len(SWITCH_WORDS) and not finnish & set(SWITCH_WORDS.values())


# -- plain characters ----------------------------------------------------------------------------


def test_plain_characters_keep_the_width() -> None:
    assert glyphs.plain("A♠ · 10♥ — K♦ → Q♣ ◀") == "AS - 10H - KD > QC <"
    assert glyphs.plain("Kätesi (E)") == "Katesi (E)"
    assert glyphs.plain("Kätesi (E)", "latin-1") == "Kätesi (E)"
    assert glyphs.shows_unicode("utf-8") and not glyphs.shows_unicode("latin-1")
    assert not glyphs.shows_unicode("no-such-codec")


def test_a_terminal_that_cannot_show_unicode_gets_plain_characters() -> None:
    raw = io.BytesIO()
    latin = io.TextIOWrapper(raw, encoding="latin-1")
    con = glyphs.console(stream=latin)  # type: ignore[arg-type]
    assert glyphs.is_plain(con)
    s = start(seed=2, partner="random", opponents="random", fast=True, console=con)
    scripted(s, ["help", "hint", "tricks"])
    s.run()
    latin.flush()
    text = raw.getvalue().decode("latin-1")
    assert "Trumps:" in text and "Legal:" in text
    assert all(ord(c) < 128 for c in text), {c for c in text if ord(c) >= 128}
    assert "+-" in text  # ASCII frames
    assert not glyphs.is_plain(glyphs.console(stream=io.TextIOWrapper(io.BytesIO(), "utf-8")))  # type: ignore[arg-type]
    assert glyphs.is_plain(glyphs.console(True, io.TextIOWrapper(io.BytesIO(), "utf-8")))  # type: ignore[arg-type]


# -- the plain line mode -------------------------------------------------------------------------


def test_the_line_mode_tells_each_event_once_without_frames_or_redraws() -> None:
    s, out = session(plain=True)
    moves = ["help", "hint", "tricks"]
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) > 30:
            raise EOFError
        deal = s.match.deal
        over = deal is None or deal.is_over()
        if moves[:1] == ["hint"] and not over and len(deal.legal_actions()) < 2:
            return first_legal(s)  # a forced move's hint has no columns: ask at a choice
        return moves.pop(0) if moves else "" if over else first_legal(s)

    s.drawing.read = read
    s.run()
    text = out.getvalue()
    assert "\x1b" not in text  # no clearing, no cursor moves
    assert not set("╭╮╰╯│─") & set(text)
    assert all(p.endswith("\n") for p in prompts)  # each prompt is a line of its own
    lines = text.splitlines()
    assert lines[0].startswith("Deal 1: ")
    assert sum(line.startswith("Your hand (S): 1:") for line in lines) >= 5
    assert any(line.startswith("Legal: ") for line in lines)
    # The hint in lines: what it is, what its columns say, a header and a line per move.
    at = next(i for i, line in enumerate(lines) if line.startswith("The computer player would"))
    assert lines[at + 1].startswith("value: the change of your team's match equity")
    assert lines[at + 2].split() == ["move", "value", "best", "why"]
    first_deal = lines[: next(i for i, line in enumerate(lines) if "Deal 1 is over" in line)]
    plays = [line for line in first_deal if " plays " in line]
    assert len(plays) == 36
    assert len(plays) == len(set(plays))  # no event is told twice


# -- looking back --------------------------------------------------------------------------------


def test_tricks_and_last_show_the_tricks_taken() -> None:
    s, _out = session()
    deal = s.table.start_deal()
    assert "No trick has been taken yet" in str(s.replies._tricks(last=False))
    while deal.tricks_played < 3 or deal.current_player != s.you:
        deal.apply(deal.legal_actions()[0])
    assert parse("tricks", []) == Tricks() and parse("last", []) == Tricks(last=True)
    con = console(100, 60)
    every = "\n".join(lines_of(con, s.replies._tricks(last=False)))
    assert "The tricks of deal 1" in every
    for trick in deal.tricks:
        row = next(line for line in every.splitlines() if line.split()[:1] == [str(trick.number)])
        assert str(trick.leader) == row.split()[1]
        for _seat, card in trick.plays:
            assert card.unicode() in row
        assert row.split()[-2:] == [str(trick.winner), str(trick.points)]
    con = console(100, 60)
    last = lines_of(con, s.replies._tricks(last=True))
    assert last[0] == "The last trick" and len(last) == 3
    assert last[2].split()[0] == str(deal.tricks[-1].number)


def test_hint_lists_every_legal_move() -> None:
    s, _out = session()
    deal = s.table.start_deal()
    while deal.current_player != s.you:
        deal.apply(deal.legal_actions()[0])
    con = console(80, 40)
    said = "\n".join(lines_of(con, s.replies._hint(deal)))
    legal = deal.legal_actions()
    assert f"your {len(legal)} legal move" in " ".join(said.split())
    for action in legal:
        assert action.card is None or action.card.unicode() in said


def test_at_80x24_the_hint_shows_every_move_with_its_reason() -> None:
    s, _out = session()
    deal = s.table.start_deal()
    # S leads with at least seven legal moves.
    while deal.current_player != s.you or len(deal.legal_actions()) < 7:
        deal.apply(deal.legal_actions()[0])
    note = s.replies._hint(deal)
    con = console()
    shown = lines_of(con, layout.screen(con, s.drawing.view(), note))
    assert len(shown) <= 23
    assert not any("more lines" in line for line in shown)
    text = " ".join(" ".join(shown).split())
    assert "move value best why" in text
    for action in deal.legal_actions():
        assert action.card is None or action.card.unicode() in text


# -- words ---------------------------------------------------------------------------------------


def test_the_answer_help_says_only_the_asker_is_locked() -> None:
    said = " ".join(guide.moment(answering(), Seat.S).split())
    assert "broken for this deal" not in said
    assert "the question locks only N" in said and "declare another" in said


def test_the_log_tells_the_question_before_the_lock() -> None:
    deal = answering()
    before_ask = Deal(deal.initial_hands, deal.dealer, deal.variant, deal.forehand)
    for action in deal.history[:-1]:
        before_ask.apply(action)
    asked = phrases.news(before_ask.observation(Seat.S), deal.observation(Seat.S))
    assert asked == ["N asks you for a whole marriage"]
    answered = deal.copy()
    answered.apply(Action.parse("answer S"))
    told = phrases.news(deal.observation(Seat.S), answered.observation(Seat.S))
    assert told[0].startswith("N asks for a whole marriage: yes, ♠")
    assert told[-1] == "Locked now: N"
    # Another seat sees the ask and the answer at once, in the same order.
    seen = phrases.news(before_ask.observation(Seat.E), answered.observation(Seat.E))
    assert seen[0].startswith("N asks for a whole marriage: yes") and seen[-1] == "Locked now: N"


def test_finnish_seat_letters_and_team_names() -> None:
    i18n.use("fi")
    assert [phrases.seat_text(s) for s in Seat] == ["P", "I", "E", "L"]
    assert phrases.seats_text({Seat.S, Seat.N}) == "P E"
    assert phrases.deal_start_text(1, Seat.S, Seat.W) == "Jako 1: E jakaa, L aloittaa."
    assert phrases.score_text((3, 5)) == "PE 3 – IL 5"
    said = " ".join(guide.moment(answering(), Seat.S).split())
    assert said.startswith("P kysyi sinulta kokonaista paria")
    s, out = session(language="fi")
    scripted(s, ["tilanne"])
    s.run()
    shown = out.getvalue()
    assert "Kätesi (E)" in shown and "P kumppani" in shown and "E sinä" in shown
    assert "PE 0 – IL 0" in shown and "Ottelun tilanne: PE 0, IL 0" in shown
    i18n.use("en")
    assert [phrases.seat_text(s) for s in Seat] == ["N", "E", "S", "W"]


@pytest.mark.parametrize(
    ("language", "names"),
    [
        ("en", ("strong club player", "hard (PIMC)")),
        ("fi", ("vahva kerhopelaaja", "vaikea (PIMC)")),
    ],
)
def test_the_table_names_computer_players_by_their_level(
    language: str, names: tuple[str, str]
) -> None:
    # The table said "heuristic" under a seat, in Finnish too: a program's name, not a level.
    i18n.use(language)
    out = io.StringIO()
    con = Console(file=out, width=100, height=40, color_system=None, highlight=False)
    s = start(
        seed=2,
        partner="heuristic",
        opponents="pimc:hard",
        fast=True,
        console=con,
        language=language,
    )
    scripted(s, [])
    s.run()
    shown = out.getvalue()
    assert names[0] in shown and names[1] in shown
    assert "heuristic" not in shown and "pimc:" not in shown
    # A player the game does not offer by a level goes by the name it was given.
    assert phrases.player_text("learned:model.npz") == "learned:model.npz"


def test_a_level_seats_the_program_behind_it_and_help_says_how_strong_each_is() -> None:
    s = start(seed=2, partner="Beginner", opponents="expert", fast=True, console=console())
    assert s.setup.players == {Seat.N: "beginner", Seat.E: "search:hard", Seat.W: "search:hard"}
    shown = CliRunner().invoke(main, ["play", "--help"], terminal_width=100).output
    measured = strengths()
    said = " ".join(shown.split())
    assert f"Levels (the leaderboard of {measured.date}):" in said
    for level in LEVELS:
        strength = measured.players[level.player]
        how = (
            "the reference"
            if strength.low is None
            else f"{strength.points:+.2f} game points a deal against club"
        )
        assert f"{level.name} ({level.player}): {how}" in said


def test_a_bad_seat_in_a_record_names_the_file(tmp_path: object) -> None:
    from pathlib import Path

    from valtti.terminal.game import StartError

    assert isinstance(tmp_path, Path)
    s, _out = session()
    s.table.start_deal()
    meta = {**s.setup.meta(), "seat": "X"}
    path = tmp_path / "bad.json"
    path.write_text(Record.of_match(s.match, meta=meta).to_json())
    with pytest.raises(StartError, match=f"^{path}: "):
        start(resume=path, console=console())
    meta = {**s.setup.meta(), "players": {"N": "nobody", "E": "random", "W": "random"}}
    path.write_text(Record.of_match(s.match, meta=meta).to_json())
    with pytest.raises(StartError, match=f"^{path}: unknown player 'nobody'"):
        start(resume=path, console=console())


# -- the replay viewer ---------------------------------------------------------------------------


def reading(answers: list[str], prompts: list[str]) -> Callable[[str], str]:
    """A reader that gives ``answers`` in turn (taking them off the list) and keeps each
    prompt in ``prompts``."""

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return answers.pop(0)

    return read


def _played_match() -> Viewer:
    s, _out = session()
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        deal = s.match.deal
        if s.match.is_over() and "(y/n)" in prompt:
            return "y"
        if s.match.is_over() or deal is None or deal.is_over():
            return ""
        return first_legal(s)

    s.drawing.read = read
    s.run()
    assert len(s.match.deals) >= 3
    return Viewer(s.match, Seat.S, {})


def test_the_replay_keys() -> None:
    viewer = _played_match()
    answers = ["", "n", "b", "d", "d 3", "xyzzy", "p", "help", "q"]
    prompts: list[str] = []
    out = io.StringIO()
    viewer.run(console(120, 60, out), reading(answers, prompts))
    steps = [int(p.split()[1]) for p in prompts]
    deal_2, deal_3 = viewer.deal_start(1) + 1, viewer.deal_start(2) + 1
    assert steps == [1, 2, 3, 2, deal_2, deal_3, deal_3, deal_2, deal_2]
    screens = out.getvalue().split("\x1b[2J")
    assert "Not understood: xyzzy." in screens[-3] and "deal N" in screens[-3]
    assert "Enter or next: the next trick" in screens[-1]
    assert "Not understood" not in screens[-1]


def test_the_replay_says_when_a_key_cannot_move_past_the_first_or_last_step() -> None:
    viewer = _played_match()
    deals, last = len(viewer.match.deals), len(viewer.steps) - 1
    to_last = ["n"] * (last - viewer.deal_start(deals - 1))
    answers = ["b", "p", "n", f"d {deals}", *to_last, "n", "b", "q"]
    prompts: list[str] = []
    out = io.StringIO()
    viewer.run(console(120, 60, out), reading(answers, prompts))
    screens = [" ".join(s.split()) for s in out.getvalue().split("\x1b[2J")[1:]]
    assert "This is the first step." in screens[1] and "This is the first step." in screens[2]
    assert "This is the first step." not in screens[3]  # "n" moved on
    assert "This is the last step: Enter leaves." in screens[-2]
    assert "This is the last step" not in screens[-1]  # "b" moved back


def test_the_replay_says_whose_turn_it_is_also_when_it_is_the_viewers() -> None:
    viewer = _played_match()
    turns = {}
    for number, step in enumerate(viewer.steps):
        now = viewer.match.deals[step.deal].after(step.position)
        if not now.is_over():
            turns.setdefault(now.current_player, number)
    assert set(turns) == set(Seat)
    for seat, number in turns.items():
        out = io.StringIO()
        console(120, 60, out).print(viewer.frame(number))
        assert f"{seat} to play" in out.getvalue(), seat


def test_the_replay_ends_at_the_last_step_or_on_quit() -> None:
    viewer = _played_match()
    deals = len(viewer.match.deals)
    answers = [f"d {deals + 5}", f"d {deals}", *[""] * 12]
    prompts: list[str] = []
    out = io.StringIO()
    viewer.run(console(120, 60, out), reading(answers, prompts))
    assert answers  # Enter at the last step left before the answers ran out
    # The last step's prompt says that Enter leaves there; every other says it steps on.
    assert f"Step {len(viewer.steps)} of " in prompts[-1] and "Enter: leave" in prompts[-1]
    assert all("Enter: next" in p for p in prompts[:-1])
    screens = out.getvalue().split("\x1b[2J")
    assert f"This record has {deals} deals: deal 1 to {deals}." in screens[2]
    # The last step says how the match ended, for nobody's side in a record of others.
    match = viewer.match
    assert match.winner is not None or match.is_draw
    said = "draw" if match.is_draw else f"{match.winner} win the match"
    assert said in screens[-1] and "You and your partner" not in screens[-1]
    # Nobody's side: no seat is "you" or "partner", the hand is S's.
    assert "Your hand" not in screens[-1] and "Hand (S)" in screens[-1]
    assert " you" not in screens[-1] and "partner" not in screens[-1]


def test_each_draw_uses_the_size_the_terminal_has_now() -> None:
    out = io.StringIO()
    con = Console(file=out, width=120, height=50, color_system=None, force_terminal=True)
    s = start(seed=2, partner="random", opponents="random", fast=True, console=con)
    s.table.start_deal()
    s.drawing.draw()
    first = out.getvalue().split("\x1b[2J")[-1].splitlines()[0]
    assert first.endswith("╮") and len(first.removeprefix("\x1b[H")) == 120
    con.size = (80, 24)  # the window was made smaller
    s.drawing.draw("help")
    shown = out.getvalue().split("\x1b[2J")[-1].removeprefix("\x1b[H").splitlines()
    assert "Trumps:" in shown[0] and len(shown) <= 23 and max(map(len, shown)) <= 80
