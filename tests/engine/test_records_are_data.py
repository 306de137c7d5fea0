"""A record is data: resuming or replaying one never starts a program it names (issue: records that
run programs). Only a player named on the command line may be a program."""

from __future__ import annotations

import contextlib
import json
import random
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from valtti.cli import main
from valtti.engine import Match, Seat
from valtti.engine.record import Record
from valtti.players import make_player
from valtti.players.registry import untrusted_spec
from valtti.players.sandbox import NO_SANDBOX
from valtti.players.spec import PlayerSpecError, PlayerSpecFault
from valtti.web.referee.bots import PLAYERS


def _record(path: Path, players: dict[str, str]) -> Path:
    match = Match(first_dealer=Seat.W)
    match.start_deal(rng=random.Random(5))
    meta = {"program": "valtti play", "seat": "S", "seed": 5, "players": players}
    path.write_text(Record.of_match(match, meta).to_json(), encoding="utf-8")
    return path


def _touch(marker: Path) -> str:
    return "external:sh -c " + shlex.quote(f"touch {shlex.quote(str(marker))}")


def test_resume_refuses_a_program_named_by_the_record(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    record = _record(tmp_path / "m.json", {"N": _touch(marker), "E": "random", "W": "random"})
    result = CliRunner().invoke(main, ["play", "--lang", "en", "--resume", str(record)])
    assert result.exit_code == 2, result.output
    assert "A record never starts a program" in result.output
    assert "N" in result.output and "--partner" in result.output
    assert not marker.exists()


def test_resume_refuses_it_in_finnish_too(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    record = _record(tmp_path / "m.json", {"N": "random", "E": _touch(marker), "W": "random"})
    result = CliRunner().invoke(main, ["play", "--lang", "fi", "--resume", str(record)])
    assert result.exit_code == 2, result.output
    assert "ei koskaan käynnistä" in result.output and "--opponents" in result.output
    assert not marker.exists()


def test_a_program_named_on_the_command_line_runs(tmp_path: Path) -> None:
    """The control: the same player, named by the user, is started (so the refusal is real)."""
    marker = tmp_path / "ran"
    record = _record(tmp_path / "m.json", {"N": "random", "E": "random", "W": "random"})
    CliRunner().invoke(
        main,
        [
            *("play", "--lang", "en", "--fast", "--resume", str(record)),
            *("--opponents", _touch(marker), "--sandbox", "none"),  # to touch the test's file
        ],
        input="",
    )
    assert marker.exists()


def test_replay_show_never_starts_a_program(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    players = {s: _touch(marker) for s in "NEW"}
    record = _record(tmp_path / "m.json", players)
    assert json.loads(record.read_text())["meta"]["players"]["N"].startswith("external:")
    for args in (["replay", str(record), "--show"], ["replay", str(record)], ["hint", str(record)]):
        result = CliRunner().invoke(main, args, input="q\n")
        assert result.exit_code == 0, (args, result.output)
    assert not marker.exists()


def test_resume_refuses_a_model_named_by_the_record_that_is_no_model(tmp_path: Path) -> None:
    """A record naming ``learned:FILE`` of something else is refused in the model loader's
    words, with the record named, and never with numpy's advice to load the file unsafely."""
    text = tmp_path / "passwd"
    text.write_text("root:x:0:0:root:/root:/bin/sh\n")
    truncated = tmp_path / "cut.npz"
    truncated.write_bytes(b"PK\x03\x04" + bytes(100))
    for model in (text, truncated):
        players = {"N": f"learned:{model}", "E": "random", "W": "random"}
        record = _record(tmp_path / "m.json", players)
        result = CliRunner().invoke(main, ["play", "--lang", "en", "--resume", str(record)])
        assert result.exit_code == 2, result.output
        output = " ".join(result.output.split())
        assert f"{record}: {model} is not a model (an .npz of weight arrays): " in output
        assert "allow_pickle" not in output and "Traceback" not in output


def test_a_spec_from_others_never_starts_a_program(tmp_path: Path) -> None:
    """The one check every host that reads a spec from others makes (a record's meta in the
    terminal, a request at the web table): ``untrusted_spec``, or ``make_player`` untrusted."""
    marker = tmp_path / "ran"
    for spec in (_touch(marker), " External:" + _touch(marker)[len("external:") :]):
        with pytest.raises(PlayerSpecError) as refused:
            untrusted_spec(spec)
        assert refused.value.fault is PlayerSpecFault.STARTS_PROGRAM
        with pytest.raises(PlayerSpecError) as refused:
            make_player(spec, 1, trusted=False)
        assert refused.value.fault is PlayerSpecFault.STARTS_PROGRAM
    assert not marker.exists()
    for name in PLAYERS:  # what the web table offers passes the same check
        assert untrusted_spec(name) == name
    make_player("random", 1, trusted=False).close()
    with contextlib.suppress(Exception):  # the control: a person's own option starts it
        # (a program that never greets: refused after; unconfined, to touch the test's file)
        make_player(_touch(marker), 1, sandbox=NO_SANDBOX).close()
    assert marker.exists()
