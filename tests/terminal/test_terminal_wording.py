"""Small wording of the terminal game in both languages (issue 33): no "none yet" for trumps
once a deal is over, a header that does not wrap at 60 columns, a record's illegal action told
of the seat to move, a card twice in one hand said so, and ``valtti replay``'s summary in the
game's suits and words."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from helpers import drive, rotate, sweep, to_9_6
from valtti.cli import main
from valtti.engine import Action, Card, Match, Seat, Suit
from valtti.engine.record import Record, RecordFault, RecordFaultCode
from valtti.terminal import i18n, layout, records
from valtti.terminal.game import start
from valtti.terminal.phrases import seat_text
from valtti.terminal.saving import Saves


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.use("en")
    yield
    i18n.use("en")


def lines(width: int, height: int, renderable: object) -> list[str]:
    con = Console(file=io.StringIO(), width=width, height=height, color_system=None)
    con.print(renderable)
    return con.file.getvalue().splitlines()  # type: ignore[attr-defined]


@pytest.mark.parametrize("language", ["en", "fi"])
def test_a_deal_over_without_trumps_has_none_not_none_yet(tmp_path: Path, language: str) -> None:
    con = Console(file=io.StringIO(), width=80, height=24, color_system=None)
    s = start(seed=2, partner="random", opponents="random", fast=True, console=con,
              language=language, saves=Saves(tmp_path))  # fmt: skip
    deal = s.table.start_deal()
    yet = lines(80, 24, layout.screen(con, s.drawing.view()))[0]
    while not deal.is_over():
        deal.apply(deal.legal_actions()[0])
    assert deal.trump is None  # seed 2's first deal, played so: no marriage declared
    over = lines(80, 24, layout.screen(con, s.drawing.view()))[0]
    none_yet, none = ("none yet", "none") if language == "en" else ("ei vielä", "ei")
    assert none_yet in yet and none_yet not in over and f" {none} " in f"{over} ", over


@pytest.mark.parametrize("language", ["en", "fi"])
@pytest.mark.parametrize("width", [60, 80])
def test_the_header_stays_one_line(tmp_path: Path, language: str, width: int) -> None:
    con = Console(file=io.StringIO(), width=width, height=20, color_system=None)
    s = start(seed=2, partner="random", opponents="random", fast=True, console=con,
              language=language, saves=Saves(tmp_path))  # fmt: skip
    s.table.start_deal()
    shown = lines(width, 20, layout.screen(con, s.drawing.view()))
    target = "(to 10)" if language == "en" else "(tavoite 10)"
    assert target in shown[0] and shown[1].startswith("valtti"), shown[:3]
    if width == 80 and language == "en":
        assert "dealer W" in shown[0] and "none yet" in shown[0]  # all the words where they fit
    if width == 80:
        assert re.search(r"\S {2,}\S.* {2,}\S", shown[0]), shown[0]  # the parts kept apart


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "deal 2: JS is twice in S's hand"),
        ("fi", "jako 2: kortti JS on kahdesti pelaajan S kädessä"),
    ],
)
def test_a_card_twice_in_one_hand_is_said_so(language: str, said: str) -> None:
    i18n.use(language)
    fault = RecordFault(RecordFaultCode.DEALT_TWICE, 2, Seat.S, first=Seat.S, card=Card.parse("JS"))
    assert records.fault_text(fault) == said
    apart = RecordFault(RecordFaultCode.DEALT_TWICE, 2, Seat.S, first=Seat.N, card=Card.parse("JS"))
    assert "N" in records.fault_text(apart)  # two hands: both named


def _illegal_record(tmp_path: Path) -> tuple[Path, Seat]:
    """A record whose second card is one its seat does not hold: the path and the seat."""
    match = Match()
    deal = match.start_deal(rng=random.Random(1))
    first = deal.legal_actions()[0]
    match.apply(first)
    seat = deal.current_player
    assert seat is not None
    record = Record.of_match(match)
    foreign = next(c for c in deal.hand(seat.left) if c not in deal.hand(seat))
    record.deals[0].actions.append(str(Action.play(foreign)))
    path = tmp_path / "illegal.json"
    path.write_text(record.to_json(), encoding="utf-8")
    return path, seat


@pytest.mark.parametrize(
    ("language", "holds"),
    [("en", "{seat} does not hold {card}"), ("fi", "pelaajalla {seat} ei ole korttia {card}")],
)
def test_a_records_illegal_action_is_told_of_its_seat(
    tmp_path: Path, language: str, holds: str
) -> None:
    path, seat = _illegal_record(tmp_path)
    out = CliRunner().invoke(main, ["replay", str(path), "--lang", language])
    assert out.exit_code == 1
    said = " ".join(out.output.split())
    record = Record.from_json(path.read_text())
    card = Card.parse(record.deals[0].actions[-1]).unicode()
    i18n.use(language)
    assert holds.format(seat=seat_text(seat), card=card) in said, said
    assert "you do not" not in said and "sinulla" not in said


def _declared_match(tmp_path: Path) -> Path:
    """A match of four deals whose last deal has a marriage declared (RULES.md 9's sweep)."""
    match = to_9_6()
    pattern = sweep(2)
    match.start_deal(rotate(pattern.hands, Seat.E))
    drive(match, pattern.script)
    path = tmp_path / "declared.json"
    path.write_text(Record.of_match(match).to_json(), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("options", "spades"), [([], "♠"), (["--ascii"], "S")], ids=["unicode", "ascii"]
)
def test_the_replay_summary_writes_suits_and_moves_as_the_game(
    tmp_path: Path, options: list[str], spades: str
) -> None:
    path = _declared_match(tmp_path)
    out = CliRunner().invoke(main, ["replay", str(path), "--lang", "en", *options])
    assert out.exit_code == 0, out.output
    marriages = [line for line in out.output.splitlines() if "marriage" in line]
    assert marriages, out.output
    assert all(" by declaration, +" in m or " by asking " in m for m in marriages), marriages
    symbols = {s.symbol for s in Suit}
    heads = [line for line in out.output.splitlines() if line.startswith("Deal ")]
    trumps = {h.rsplit("trumps ", 1)[1] for h in heads}
    if spades == "♠":
        assert trumps - {"none"} <= symbols and trumps - {"none"}, heads
    else:
        assert not symbols & set(out.output) and trumps - {"none"} <= set("SHDC"), heads


def test_the_replay_summary_writes_what_is_legal_as_the_hand_panel(tmp_path: Path) -> None:
    """Seed 22 stopped where S may declare or ask: the cards, then each move set apart."""
    con = Console(file=io.StringIO(), width=80, height=24, color_system=None)
    s = start(seed=22, partner="random", opponents="random", fast=True, console=con,
              language="en", saves=Saves(tmp_path / "saves"))  # fmt: skip
    path = tmp_path / "window.json"

    def read(prompt: str) -> str:
        deal = s.match.deal
        assert deal is not None
        if prompt.startswith("You took the trick"):
            path.write_text(s._record(), encoding="utf-8")
            raise EOFError
        return str(deal.legal_actions()[0])

    s.drawing.read = read
    s.run()
    out = CliRunner().invoke(main, ["replay", str(path), "--lang", "en"])
    last = out.output.splitlines()[-1]
    assert last.startswith("In progress: S to move; legal: "), last
    assert re.search(r"legal: (\S+[♠♥♦♣] )+· (declare|ask) ", last), last
    assert "ask-half" not in last and "declare-" not in last
