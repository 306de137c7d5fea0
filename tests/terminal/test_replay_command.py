"""``valtti replay FILE``: the text it prints for a record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_record_faults import EXAMPLES

from helpers import drive, opp_sweep, rotate, to_9_6
from valtti.cli import main
from valtti.engine import Card, Seat
from valtti.engine.record import Record


def test_porvoo_and_overshoot_are_said_where_the_score_jumps(tmp_path: Path) -> None:
    """RULES.md 9 case 10: NS 9 take all tricks for 4 game points, so their score goes to 7,
    and EW's 6 to 0. The columns alone show the score fall after a deal with game points."""
    match = to_9_6()
    match.start_deal(rotate(opp_sweep(2).hands, Seat.E))
    drive(match, opp_sweep(2).script)
    path = tmp_path / "case10.json"
    path.write_text(Record.of_match(match).to_json(), encoding="utf-8")
    out = CliRunner().invoke(main, ["replay", str(path)])
    assert out.exit_code == 0, out.output
    last = out.output[out.output.rindex("Deal 4:") :].splitlines()
    assert "  score           7    0" in last
    assert "  NS went past the target: its score became 7 (RULES.md 6.2)" in last
    assert "  EW took no trick: its score became 0 (Porvoo, RULES.md 6.1)" in last
    # No other deal of the match had either.
    assert out.output.count("went past") == out.output.count("took no trick") == 1


@pytest.mark.parametrize(
    ("options", "said"),
    [(["--json", "--show"], "do not go together"), (["--json", "--ascii"], "JSON has no suit")],
)
def test_options_that_cannot_go_together_are_refused(
    tmp_path: Path, options: list[str], said: str
) -> None:
    """They were taken silently: --show went on without --json, --ascii changed nothing."""
    match = to_9_6()
    path = tmp_path / "record.json"
    path.write_text(Record.of_match(match).to_json(), encoding="utf-8")
    out = CliRunner().invoke(main, ["replay", str(path), *options], input="q\n")
    assert out.exit_code == 2 and said in out.output


def test_a_deal_stopped_part_way_is_said_to_be_in_progress(tmp_path: Path) -> None:
    """Its columns are the deal's so far and its score row the score before it: said, or the
    deal reads as one that ended there."""
    match = to_9_6()
    deal = match.start_deal(rotate(opp_sweep(2).hands, Seat.E))
    match.apply(deal.legal_actions()[0])
    path = tmp_path / "part.json"
    path.write_text(Record.of_match(match).to_json(), encoding="utf-8")
    out = CliRunner().invoke(main, ["replay", str(path)])
    assert out.exit_code == 0, out.output
    heads = [line for line in out.output.splitlines() if line.startswith("Deal ")]
    assert heads[-1].startswith(f"Deal {len(match.deals)} (in progress: so far): ")
    assert all("in progress" not in head for head in heads[:-1])


#: A Finnish environment, as gettext reads it (the first of these that is set names it).
FINNISH = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "fi_FI.UTF-8"}


@pytest.mark.parametrize(("options", "env"), [(["--lang", "fi"], {}), ([], FINNISH)])
def test_the_summary_is_in_the_language_of_the_terminal(
    tmp_path: Path, options: list[str], env: dict[str, str]
) -> None:
    path = tmp_path / "record.json"
    path.write_text(Record.of_match(to_9_6()).to_json(), encoding="utf-8")
    out = CliRunner().invoke(main, ["replay", str(path), *options], env=env)
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0].startswith("Jako 1: jakaja I, valtti: "), lines  # E deals: itä
    assert "                   PE   IL" in lines  # the widest label is korttipisteet
    assert any(line.startswith("  korttipisteet ") for line in lines), lines
    assert lines[-2:] == ["Ottelu: PE 9, IL 6", "Kesken: seuraava jako on vielä jakamatta"]


def _spoiled(tmp_path: Path) -> tuple[Path, str]:
    """A record whose second action plays again the card the first played; and its token."""
    match = to_9_6()
    record = Record.of_match(match).to_dict()
    actions = record["deals"][0]["actions"]
    actions[1] = actions[0]
    path = tmp_path / "spoiled.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path, actions[0]


@pytest.mark.parametrize(
    "command",
    [["replay"], ["hint", "--lang", "fi"], ["play", "--lang", "fi", "--fast", "--resume"]],
    ids=["replay", "hint", "play"],
)
def test_a_record_s_illegal_action_is_told_in_the_language_of_the_terminal(
    tmp_path: Path, command: list[str]
) -> None:
    path, card = _spoiled(tmp_path)
    out = CliRunner().invoke(main, [*command, str(path)], env=FINNISH)
    assert out.exit_code == 1, out.output
    said = " ".join(out.output.split())
    assert said.startswith(f"{path}: sääntöjenvastainen siirto: jako 1, siirto 2 (vuorossa "), said
    shown = Card.parse(card).unicode()
    # Told of the seat to move, not of the reader ("sinulla": you).
    seat = said.split("(vuorossa ")[1][0]
    assert f"'{card}' ei ole sallittu: pelaajalla {seat} ei ole korttia {shown}; siellä " in said
    assert not {"deal", "action", "legal", "hold"} & set(said.split()), said


@pytest.mark.parametrize("command", [["replay"], ["hint"]])
def test_a_malformed_record_is_told_in_the_language_of_the_terminal(
    tmp_path: Path, command: list[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{}", encoding="utf-8")
    out = CliRunner().invoke(main, [*command, str(path)], env=FINNISH)
    assert out.exit_code == 2, out.output
    assert out.output.startswith(f"{path}: virheellinen pöytäkirja: "), out.output
    out = CliRunner().invoke(main, [*command, str(tmp_path / "none.json")], env=FINNISH)
    assert out.exit_code == 2 and out.output.startswith("tiedostoa "), out.output


def test_a_token_that_is_no_action_is_named_shortened(tmp_path: Path) -> None:
    record = Record.of_match(to_9_6()).to_dict()
    record["deals"][0]["actions"][1] = "X" * 100_000
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = CliRunner().invoke(main, ["replay", str(path), "--lang", "en"])
    assert out.exit_code == 1 and len(out.output) < len(str(path)) + 200, out.output[:400]
    assert ": illegal action: deal 1, action 2 (W to move): 'XXX" in out.output
    assert "XXX' is not an action; legal there: " in out.output


@pytest.mark.parametrize(
    ("example", "said"),
    [
        ("bad json", "ei kelvollista JSONia: virhe rivillä 5, sarakkeessa 15"),
        ("dealt twice", "jako 2: kortti JS on jaettu kahdesti (käsiin N ja S)"),
        ("wrong dealer", "jako 3: jakajan on oltava W (RULES.md 2.3), ei E"),
        ("switch value", "sääntövalinta 'target' ei voi olla 11: sallitut 10 | 12"),
        ("too long", "ei pöytäkirja: pidempi kuin 8 MiB, paljon enemmän kuin koko ottelu vie"),
    ],
)
def test_what_is_malformed_is_said_in_finnish_with_its_place(
    tmp_path: Path, example: str, said: str
) -> None:
    """It was the engine's English under Finnish: the terminal translates the fault's code."""
    path = tmp_path / "bad.json"
    text = EXAMPLES[example].spoil(Record.of_match(to_9_6()).to_dict())
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    out = CliRunner().invoke(main, ["replay", str(path), "--lang", "fi"])
    assert out.exit_code == 2, out.output
    assert out.output == f"{path}: virheellinen pöytäkirja: {said}\n"


@pytest.mark.parametrize(
    "command",
    [["replay"], ["hint"], ["play", "--fast", "--resume"]],
    ids=["replay", "hint", "play"],
)
def test_replay_hint_and_resume_say_a_repeated_card_in_finnish(
    tmp_path: Path, command: list[str]
) -> None:
    path = tmp_path / "autosave.json"
    path.write_text(EXAMPLES["dealt twice"].spoil(Record.of_match(to_9_6()).to_dict()))
    out = CliRunner().invoke(main, [*command, str(path)], env=FINNISH)
    assert out.exit_code == 2, out.output
    said = " ".join(out.output.split())
    assert (
        said
        == f"{path}: virheellinen pöytäkirja: jako 2: kortti JS on jaettu kahdesti (käsiin N ja S)"
    )
