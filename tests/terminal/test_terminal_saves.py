"""The kept matches of ``valtti play`` (issues 33 and 41): the folder of saves, each save locked
while a session has it open, the question before another match starts, ``--saves`` and
``--resume N``, and the cases in which a match was lost.

Each case of issue 33 ends with every unfinished match still resumable: a new game over an
unfinished one; ``--resume A`` then ``--resume B``; resuming a finished record; garbage in the
newest save; two games started at once. Issue 41's: a match another session has open is
neither resumed nor discarded, and is read again when the player answers; a session left
before the player moved is kept nowhere and removes nothing; what a killed session leaves is
tidied up; an empty save says so.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from valtti.cli import main
from valtti.engine.record import Record
from valtti.terminal import i18n
from valtti.terminal.game import StartError, start
from valtti.terminal.saving import (
    LEGACY,
    SAVE_NAME,
    SAVES_KEPT,
    UNREADABLE,
    InUseError,
    Kept,
    Saves,
    lock_path,
)
from valtti.terminal.session import Session

RANDOM = {"partner": "random", "opponents": "random"}
NEW = ["--fast", "--partner", "random", "--opponents", "random"]


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.use("en")
    yield
    i18n.use("en")


def _console(out: io.StringIO) -> Console:
    return Console(file=out, width=80, color_system=None, highlight=False)


def begin(
    folder: Path | None,
    lines: list[str] | None = None,
    ask: Callable[[str], str] | None = None,
    **options: object,
) -> tuple[Session, io.StringIO]:
    """A session kept in ``folder`` (none: nowhere) reading ``lines``, then the end of input."""
    out = io.StringIO()
    if "resume" not in options:
        options = {"seed": 2, **RANDOM, **options}
    s = start(
        fast=True,
        language=options.pop("language", "en"),  # type: ignore[arg-type]
        console=_console(out),
        saves=None if folder is None else Saves(folder),
        ask=ask,
        **options,  # type: ignore[arg-type]
    )
    remaining = list(lines or [])

    def read(_prompt: str) -> str:
        if not remaining:
            raise EOFError
        return remaining.pop(0)

    s.drawing.read = read
    return s, out


@cache
def first_move(seed: int) -> str:
    """The first legal move of the player's first turn in the match of ``seed`` (random
    players), as a record writes it."""
    s, _out = begin(None, seed=seed)
    moves: list[str] = []

    def read(_prompt: str) -> str:
        if moves:
            raise EOFError
        deal = s.match.deal
        assert deal is not None
        moves.append(str(deal.legal_actions()[0]))
        return moves[0]

    s.drawing.read = read
    s.run()
    return moves[0]


def leave(folder: Path, seed: int = 2, **options: object) -> Session:
    """A new match in ``folder``, left (the end of input) after the player's first move: kept."""
    s, _out = begin(folder, [first_move(seed)], seed=seed, **options)
    s.run()
    assert s.autosave is not None and s.autosave.exists()
    return s


def saved(path: Path, seed: int) -> Record:
    """An unfinished match saved with ``save`` at its first turn, and nothing kept."""
    s, _out = begin(None, [f"save {path}", "quit", "y"], seed=seed)
    s.run()
    return Record.from_json(path.read_text())


def goes_on(kept: Kept, record: Record) -> bool:
    """Whether ``kept`` is the match of ``record`` played on: the same cards, the same actions
    first."""
    mine, theirs = kept.record.deals, record.deals
    return (
        len(mine) >= len(theirs)
        and all(m.hands == t.hands for m, t in zip(mine, theirs, strict=False))
        and mine[0].actions[: len(theirs[0].actions)] == theirs[0].actions
    )


def finished(path: Path) -> Record:
    """A whole match (seed 3, the first legal move each turn) saved at its end."""

    def move(s: Session, prompt: str) -> str:
        if s.match.is_over():
            return f"save {path}" if not path.exists() else "y" if "(y/n)" in prompt else ""
        deal = s.match.deal
        return "" if deal is None or deal.is_over() else str(deal.legal_actions()[0])

    s, _out = begin(None, seed=3)
    s.drawing.read = lambda prompt: move(s, prompt)
    s.run()
    record = Record.from_json(path.read_text())
    assert record.replay().is_over()
    return record


def kept(folder: Path) -> list[Kept]:
    return Saves(folder).scan().kept


def deals(record: Record) -> object:
    return record.to_dict()["deals"]


def never(prompt: str) -> str:
    raise AssertionError(f"asked: {prompt!r}")


def answers(*given: str) -> tuple[Callable[[str], str], list[str]]:
    """A reader of the question that answers ``given`` in turn, and the prompts it saw."""
    prompts: list[str] = []
    left = list(given)

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if not left:
            raise EOFError
        return left.pop(0)

    return read, prompts


def flat(text: str) -> str:
    """``text`` on one line, its words as they are, without the frames of the screen."""
    return " ".join(text.translate({ord(c): " " for c in "│╭╮╰╯─"}).split())


# -- the folder of saves -------------------------------------------------------------------------


def test_each_session_has_a_file_of_its_own(tmp_path: Path) -> None:
    saves = Saves(tmp_path)
    names = {saves.new_path().name for _ in range(200)}
    assert len(names) == 200
    assert all(SAVE_NAME.match(n) and f"-{os.getpid()}-" in n for n in names)
    first, second = leave(tmp_path, 2), leave(tmp_path, 3)
    assert first.autosave != second.autosave
    assert {p.name for p in tmp_path.iterdir()} == {first.autosave.name, second.autosave.name}  # type: ignore[union-attr]


def test_the_kept_matches_come_newest_first(tmp_path: Path) -> None:
    paths = [leave(tmp_path, seed).autosave for seed in (2, 3, 4)]
    for path, when in zip(paths, (1000, 3000, 2000), strict=True):
        assert path is not None
        os.utime(path, (when, when))
    assert [k.path for k in kept(tmp_path)] == [paths[1], paths[2], paths[0]]
    assert [k.meta.seed for k in kept(tmp_path)] == [3, 4, 2]


def test_a_file_that_cannot_be_read_is_set_aside_and_the_others_are_intact(
    tmp_path: Path,
) -> None:
    good = [leave(tmp_path, seed).autosave for seed in (2, 3)]
    before = {p: p.read_bytes() for p in good if p is not None}
    garbage = Saves(tmp_path).new_path()
    garbage.write_text("garbage")
    illegal = Saves(tmp_path).new_path()
    record = Record.from_json(next(iter(before.values())))
    record.deals[0].actions.append("AS")  # not legal there (nor perhaps held)
    illegal.write_text(record.to_json())
    scan = Saves(tmp_path).scan()
    assert sorted(k.path for k in scan.kept) == sorted(before)
    assert {a.path for a in scan.set_aside} == {garbage, illegal}
    for aside in scan.set_aside:
        assert aside.now.name.endswith(UNREADABLE) and aside.now.parent == tmp_path
    assert garbage.with_name(garbage.stem + UNREADABLE).read_text() == "garbage"
    assert {p: p.read_bytes() for p in before} == before
    assert Saves(tmp_path).scan().set_aside == []  # set aside once, then left alone


def test_a_finished_match_comes_after_the_unfinished_and_other_files_are_left_alone(
    tmp_path: Path,
) -> None:
    over = Saves(tmp_path).new_path()
    finished(over)
    unfinished = leave(tmp_path, seed=3).autosave
    os.utime(over, (time.time() + 60,) * 2)  # played last: it still comes after
    other = tmp_path / "notes.txt"
    other.write_text("mine")
    scan = Saves(tmp_path).scan()
    assert [(k.path, k.finished) for k in scan.kept] == [(unfinished, False), (over, True)]
    assert [k.path for k in scan.unfinished] == [unfinished] and scan.set_aside == []
    assert over.exists() and other.read_text() == "mine"


def test_an_empty_save_is_set_aside_saying_it_is_empty(tmp_path: Path) -> None:
    for text in ("", " \n"):
        empty = Saves(tmp_path).new_path()
        empty.write_text(text)
        (aside,) = Saves(tmp_path).scan().set_aside
        assert aside.path == empty and aside.error == "the file is empty: there is no record in it"


def test_an_earlier_versions_autosave_is_taken_in_never_over_a_good_one(tmp_path: Path) -> None:
    """The issue's last case: garbage in ``autosave.json`` and a good
    ``autosave.previous.json``; the good one becomes a kept match, the garbage is set aside."""
    data = tmp_path / "data"
    data.mkdir()
    autosave, previous = (data / name for name in LEGACY)
    good = saved(tmp_path / "good.json", seed=5)
    previous.write_text(good.to_json())
    autosave.write_text("garbage")
    saves = Saves(data / "saves", legacy=[autosave, previous])
    scan = saves.scan()
    assert [deals(k.record) for k in scan.kept] == [deals(good)]
    assert SAVE_NAME.match(scan.kept[0].path.name)
    assert [(a.path, a.now.name) for a in scan.set_aside] == [(autosave, "autosave" + UNREADABLE)]
    assert (data / ("autosave" + UNREADABLE)).read_text() == "garbage"
    assert not autosave.exists() and not previous.exists()
    again = saves.scan()
    assert [k.path for k in again.kept] == [scan.kept[0].path] and again.set_aside == []


def _twenty(tmp_path: Path) -> tuple[Saves, list[Path]]:
    """A folder of ``SAVES_KEPT`` kept matches, the oldest first."""
    text = leave(tmp_path / "one", seed=2).autosave.read_text()  # type: ignore[union-attr]
    saves = Saves(tmp_path / "many")
    saves.folder.mkdir()
    paths = []
    for n in range(SAVES_KEPT):
        path = saves.new_path(when=1000 + n)
        path.write_text(text)
        os.utime(path, (1000 + n, 1000 + n))
        paths.append(path)
    return saves, paths


def test_at_most_twenty_are_kept_and_the_oldest_removed_is_told(tmp_path: Path) -> None:
    saves, paths = _twenty(tmp_path)
    s, _out = begin(saves.folder, [first_move(3)], seed=3, if_unfinished="keep")
    assert not any(
        "is removed" in line for line in s.drawing.log
    )  # not before the player has moved
    s.run()
    assert any("The oldest kept match, of " in line for line in s.drawing.log)
    assert any(f"at most {SAVES_KEPT} are kept" in line for line in s.drawing.log)
    now = [k.path for k in kept(saves.folder)]
    assert len(now) == SAVES_KEPT and now[0] == s.autosave and paths[0] not in now
    assert set(paths[1:]) <= set(now)


def test_a_session_left_before_a_move_is_thrown_away_and_removes_nothing(tmp_path: Path) -> None:
    """Issue 41: the twenty kept do not count a session started and left at once."""
    saves, paths = _twenty(tmp_path)
    for lines in ([], ["quit", "y"]):
        s, out = begin(saves.folder, seed=3, if_unfinished="keep")
        read, prompts = answers(*lines)
        s.drawing.read = read
        s.run()
        assert [k.path for k in kept(saves.folder)] == paths[::-1]
        assert not any("is removed" in line for line in s.drawing.log)
        assert out.getvalue().rstrip().endswith("Nothing is kept: you had made no move.")
    assert prompts[-1] == "Leave the match? You have made no move yet: it is not kept. (y/n) > "


def test_the_oldest_open_in_another_session_is_not_removed(tmp_path: Path) -> None:
    saves, paths = _twenty(tmp_path)
    held = saves.take(paths[0])
    try:
        s, _out = begin(saves.folder, [first_move(3)], seed=3, if_unfinished="keep")
        s.run()
        now = [k.path for k in kept(saves.folder)]
        assert paths[0] in now and paths[1] not in now and len(now) == SAVES_KEPT
    finally:
        held.close()


def test_a_save_is_locked_while_a_session_has_it_open(tmp_path: Path) -> None:
    first = leave(tmp_path)
    path = first.autosave
    assert path is not None and not lock_path(path).exists()  # let go when the session ended
    saves = Saves(tmp_path)
    assert saves.scan().kept[0].holder is None
    mine = saves.take(path)
    assert lock_path(path).read_text() == f"{os.getpid()}\n"
    (found,) = saves.scan().kept  # another session's look at the folder
    assert found.holder == os.getpid()
    with pytest.raises(InUseError) as refused:
        saves.take(path)
    assert refused.value.pid == os.getpid()
    with pytest.raises(InUseError):
        saves.discard(path)
    assert path.exists()
    mine.close()
    assert not lock_path(path).exists()
    saves.take(path).close()
    saves.discard(path)
    assert not path.exists() and list(tmp_path.iterdir()) == []


def test_what_a_killed_session_left_is_tidied_up(tmp_path: Path) -> None:
    """A temporary file of a write cut short and a lock file nobody holds are removed by the
    next look at the folder, but not those of a save that a session has open."""
    first, second = leave(tmp_path, seed=2).autosave, leave(tmp_path, seed=3).autosave
    assert first is not None and second is not None
    cut = tmp_path / f".{first.name}.k9f2x1.tmp"
    cut.write_text('{"format": ')
    lock_path(tmp_path / "20250101-000000-1-abcdef.json").write_text("1\n")
    lock_path(first).write_text("1\n")  # a killed session's: nobody holds it
    held = Saves(tmp_path).take(second)
    writing = tmp_path / f".{second.name}.a8b7c6.tmp"
    writing.write_text("{")
    try:
        Saves(tmp_path).scan()
        left = sorted(p.name for p in tmp_path.iterdir())
        assert left == sorted([first.name, second.name, lock_path(second).name, writing.name])
    finally:
        held.close()
    Saves(tmp_path).scan()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([first.name, second.name])


def test_a_save_is_written_beside_synced_then_renamed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    done: list[str] = []
    sync, replace = os.fsync, os.replace

    def fsync(descriptor: int) -> None:
        done.append("fsync")
        sync(descriptor)

    def renamed(source: str, target: str) -> None:
        assert Path(source).parent == Path(target).parent and Path(source).exists()
        done.append("rename")
        replace(source, target)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", renamed)
    s = leave(tmp_path)
    assert s.autosave is not None and Record.from_json(s.autosave.read_text())
    # Each write: the file's data to the disk, then the rename, then the folder's entry.
    assert done[:3] == ["fsync", "rename", "fsync"] and len(done) % 3 == 0
    assert [p.name for p in tmp_path.iterdir()] == [s.autosave.name]


# -- the question --------------------------------------------------------------------------------

QUESTION = "Resume it (r), keep it and start a new match (k), or discard it (d)? [k] > "


def test_the_question_asks_again_until_answered_and_keeps(tmp_path: Path) -> None:
    earlier = leave(tmp_path, seed=3)
    read, prompts = answers("maybe", "k")
    s, out = begin(tmp_path, [first_move(2)], ask=read)
    assert prompts == [QUESTION, QUESTION]
    said = out.getvalue()
    assert said.endswith("Please answer r, k or d.\n")
    assert "An unfinished match is kept, last played 20" in said
    assert "  deal 1, trick 2/9, NS 0 – EW 0; you S; N E W: random\n" in said
    assert any(line.endswith("is kept (valtti play --saves lists it).") for line in s.drawing.log)
    s.run()
    assert [k.path for k in kept(tmp_path)] == [s.autosave, earlier.autosave]


@pytest.mark.parametrize("answer", ["", "k", "keep", "K"])
def test_enter_and_the_word_keep_keep_it(tmp_path: Path, answer: str) -> None:
    earlier = leave(tmp_path, seed=3)
    s, _out = begin(tmp_path, ask=answers(answer)[0])
    assert s.setup.seed == 2 and earlier.autosave is not None and earlier.autosave.exists()


def test_resume_it_goes_on_with_the_kept_match_as_it_was(tmp_path: Path) -> None:
    earlier = leave(tmp_path, seed=3)
    assert earlier.autosave is not None
    record = Record.from_json(earlier.autosave.read_text())
    s, _out = begin(tmp_path, ask=answers("r")[0], seed=5, seat="N")  # for the new match
    assert s.setup.seed == 3 and str(s.you) == "S"
    assert deals(Record.of_match(s.match)) == deals(record)
    assert any(line.startswith("Resumed the unfinished match of 20") for line in s.drawing.log)
    s.run()
    assert [k.path for k in kept(tmp_path)] == [s.autosave]  # the same match, not a copy


def test_discard_it_removes_only_the_newest(tmp_path: Path) -> None:
    older, newer = leave(tmp_path, seed=4), leave(tmp_path, seed=3)
    assert newer.autosave is not None and older.autosave is not None
    os.utime(older.autosave, (1000, 1000))
    read, _prompts = answers("d")
    s, out = begin(tmp_path, ask=read)
    assert "(1 more kept: valtti play --saves lists them)" in out.getvalue()
    assert not newer.autosave.exists() and older.autosave.exists()
    assert any(line.endswith("is discarded.") for line in s.drawing.log)


def test_the_question_in_finnish(tmp_path: Path) -> None:
    leave(tmp_path, seed=3)
    read, prompts = answers("x", "säilytä")
    s, out = begin(tmp_path, ask=read, language="fi")
    question = "Jatka sitä (j), säilytä se ja aloita uusi ottelu (s) vai hylkää se (h)? [s] > "
    assert prompts == [question, question]
    said = out.getvalue()
    assert said.endswith("Vastaa j, s tai h.\n")
    assert "Kesken jäänyt ottelu on tallessa, pelattu viimeksi 20" in said
    assert "jako 1, tikki 2/9, PE 0 – IL 0; sinä E; P I L: satunnainen" in said
    s, _out = begin(tmp_path, ask=answers("j")[0], language="fi")
    assert any(line.startswith("Jatketaan kesken jäänyttä ottelua") for line in s.drawing.log)
    s.run()  # left: another session may take it
    s, _out = begin(tmp_path, ask=answers("h")[0], language="fi")
    assert any(line.endswith("hylätään.") for line in s.drawing.log)


def test_the_end_of_input_at_the_question_starts_nothing(tmp_path: Path) -> None:
    earlier = leave(tmp_path, seed=3)
    with pytest.raises(EOFError):
        begin(tmp_path, ask=answers()[0])
    assert [k.path for k in kept(tmp_path)] == [earlier.autosave]


def test_yes_and_discard_ask_nothing(tmp_path: Path) -> None:
    earlier = leave(tmp_path, seed=3)
    s, _out = begin(tmp_path, [first_move(2)], ask=never, if_unfinished="keep")
    assert any(line.endswith("is kept (valtti play --saves lists it).") for line in s.drawing.log)
    s.run()
    assert len(kept(tmp_path)) == 2
    s, _out = begin(tmp_path, ask=never, if_unfinished="discard")
    assert any(line.endswith("is discarded.") for line in s.drawing.log)
    assert earlier.autosave is not None and earlier.autosave.exists()  # only the newest went
    assert len(kept(tmp_path)) == 1


def test_without_a_terminal_the_match_is_kept_and_said_in_one_line(tmp_path: Path) -> None:
    leave(tmp_path, seed=3)
    s, _out = begin(tmp_path)  # pytest's standard input is no terminal
    told = [line for line in s.drawing.log if "not a terminal" in line]
    assert told == [
        f"The input is not a terminal: the unfinished match of {told[0].split(' of ')[1][:16]} "
        "is kept without asking (valtti play --saves lists it)."
    ]


def test_bad_options_are_refused_before_anything_is_asked(tmp_path: Path) -> None:
    leave(tmp_path, seed=3)
    with pytest.raises(StartError, match="unknown player 'nobody'"):
        begin(tmp_path, ask=never, partner="nobody")
    with pytest.raises(StartError, match="--discard discards the newest"):
        begin(tmp_path, ask=never, resume=1, if_unfinished="discard")


# -- the cases of the issue ----------------------------------------------------------------------


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data" / "valtti" / "saves"


def play(*args: str, input: str = "") -> str:
    result = CliRunner().invoke(main, ["play", "--lang", "en", *args], input=input)
    assert result.exit_code == 0, result.output
    return result.output


def moved(seed: int, *args: str) -> str:
    """``valtti play`` of a new match of ``seed``, left after the player's first move."""
    return play("--seed", str(seed), *NEW, *args, input=first_move(seed) + "\n")


def test_a_new_game_over_an_unfinished_one(data_home: Path) -> None:
    moved(2)
    said = moved(3)
    assert "is kept without asking (valtti play --saves lists it)" in flat(said)
    assert [k.meta.seed for k in kept(data_home)] == [3, 2]
    said = play("--resume", "2", "--fast", input="quit\ny\n")
    assert "Resumed the unfinished match of " in said and "Leave the match?" in said
    assert [k.meta.seed for k in kept(data_home)] == [2, 3]


def test_resume_a_then_resume_b_keeps_a(tmp_path: Path, data_home: Path) -> None:
    a, b = saved(tmp_path / "A.json", seed=2), saved(tmp_path / "B.json", seed=3)
    play("--resume", str(tmp_path / "A.json"), "--fast", input=f"{first_move(2)}\nquit\ny\n")
    said = play("--resume", str(tmp_path / "B.json"), "--fast", input=f"{first_move(3)}\nquit\ny\n")
    assert f"Resumed from {tmp_path / 'B.json'}." in flat(said)
    now = kept(data_home)
    assert goes_on(now[0], b) and goes_on(now[1], a)
    said = play("--resume", "2", "--fast", input="quit\ny\n")  # A, by its number
    assert "Resumed the unfinished match of " in said
    assert [k.path for k in kept(data_home)] == [now[1].path, now[0].path]


def test_resume_another_file_names_it_in_the_question(tmp_path: Path) -> None:
    folder = tmp_path / "saves"
    earlier = leave(folder, seed=4)
    saved(tmp_path / "B.json", seed=3)
    read, prompts = answers("k")
    s, _out = begin(folder, [first_move(3)], ask=read, resume=tmp_path / "B.json")
    assert prompts == [
        "Resume it (r), keep it and go on with B.json (k), or discard it (d)? [k] > "
    ]
    s.run()
    assert [k.path for k in kept(folder)] == [s.autosave, earlier.autosave]


def test_a_file_that_is_the_kept_match_asks_nothing(tmp_path: Path) -> None:
    """``save`` then leave: the file and the save are one match, which goes on once."""
    folder = tmp_path / "saves"
    s, _out = begin(folder, [first_move(2), f"save {tmp_path / 'm.json'}", "quit", "y"])
    s.run()
    resumed, _out = begin(folder, ask=never, resume=tmp_path / "m.json")
    assert any(line == f"Resumed from {tmp_path / 'm.json'}." for line in resumed.drawing.log)
    resumed.run()
    assert [k.path for k in kept(folder)] == [resumed.autosave]


def test_resuming_a_finished_record_pushes_nothing_aside(tmp_path: Path, data_home: Path) -> None:
    record = tmp_path / "over.json"
    finished(record)
    moved(2)
    before = {k.path: k.path.read_bytes() for k in kept(data_home)}
    s, _out = begin(data_home, ask=never, resume=record)
    assert not any("kept" in line or "discarded" in line for line in s.drawing.log)
    s.run()
    said = play("--resume", str(record), input="\n")
    assert "The match is over" in said and "not a terminal" not in said
    assert {k.path: k.path.read_bytes() for k in kept(data_home)} == before


def test_garbage_in_the_newest_save_is_set_aside(data_home: Path) -> None:
    moved(2)
    moved(3, "--yes")
    good = {k.path: k.path.read_bytes() for k in kept(data_home)}
    garbage = Saves(data_home).new_path()
    garbage.write_text("garbage")
    said = flat(moved(4))
    assert (
        f"The saved match {garbage.name} cannot be read (malformed record: not valid JSON: " in said
    )
    assert f"it is set aside as {garbage.stem + UNREADABLE}." in said
    assert garbage.with_name(garbage.stem + UNREADABLE).read_text() == "garbage"
    now = kept(data_home)
    assert [k.meta.seed for k in now] == [4, 3, 2]
    assert {p: p.read_bytes() for p in good} == good
    for number in ("2", "3"):
        assert "Resumed the unfinished match" in play("--resume", number, input="quit\ny\n")


def _spawn(data_home: Path, args: list[str]) -> subprocess.Popen[bytes]:
    env = {**os.environ, "XDG_DATA_HOME": str(data_home.parent.parent)}
    return subprocess.Popen(
        [sys.executable, "-m", "valtti", "play", "--lang", "en", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
    )


class _Follower:
    """What a ``valtti play`` process in the line mode says, read as it comes; ``turns`` is set
    each time it waits at a turn."""

    def __init__(self, child: subprocess.Popen[bytes]) -> None:
        self.child = child
        self.said = bytearray()
        self.turns: list[threading.Event] = [threading.Event() for _ in range(3)]
        self.thread = threading.Thread(target=self._follow, daemon=True)
        self.thread.start()

    def _follow(self) -> None:
        stream = self.child.stdout
        assert stream is not None
        seen = 0
        while chunk := stream.read1(4096):  # type: ignore[attr-defined]
            self.said += chunk
            # A prompt is a line of its own in the line mode.
            count = len(re.findall(rb"Your (?:card|lead) >\s*\n", self.said))
            while seen < min(count, len(self.turns)):
                self.turns[seen].set()
                seen += 1

    def text(self) -> str:
        return self.said.decode(errors="replace")

    def wait(self, turn: int) -> None:
        assert self.turns[turn].wait(60), self.text()

    def send(self, line: str) -> None:
        assert self.child.stdin is not None
        self.child.stdin.write(line.encode() + b"\n")
        self.child.stdin.flush()

    def first_legal(self) -> str:
        shown = re.findall(r"Legal: (\S+)", self.text())[-1]
        return shown.translate(str.maketrans({"♠": "s", "♥": "h", "♦": "d", "♣": "c"}))

    def leave(self) -> int:
        self.send("quit\ny")
        assert self.child.stdin is not None
        self.child.stdin.close()
        return self.child.wait(60)


def _two_at_once(data_home: Path, *runs: list[str]) -> None:
    """``valtti play`` in two processes at once: both wait at a turn, both move, both wait at
    the next, then both leave."""
    followers = [_Follower(_spawn(data_home, args)) for args in runs]
    try:
        for turn in (0, 1):
            for f in followers:  # both are at a turn, at the same time
                f.wait(turn)
            if turn == 0:
                for f in followers:
                    f.send(f.first_legal())
        for f in followers:
            assert f.leave() == 0, f.text()
    finally:
        for f in followers:
            if f.child.poll() is None:
                f.child.kill()
            f.thread.join(10)


def test_two_games_started_at_once_keep_both(data_home: Path) -> None:
    _two_at_once(data_home, ["--seed", "2", *NEW], ["--seed", "3", *NEW])
    both = kept(data_home)
    assert sorted(k.meta.seed for k in both) == [2, 3]  # type: ignore[type-var]
    assert len(list(data_home.iterdir())) == 2  # and nothing else: no temporary file, no lock
    for number in ("1", "2"):
        assert "Resumed the unfinished match" in play("--resume", number, input="quit\ny\n")


def test_a_match_one_session_has_open_is_not_resumed_by_another(data_home: Path) -> None:
    """Issue 41: the second ``--resume`` of one match is told that the first has it open, and
    nothing is lost: what the first played is kept."""
    moved(2)
    (before,) = kept(data_home)
    first = _Follower(_spawn(data_home, ["--resume", "--fast"]))
    try:
        first.wait(0)
        first.send(first.first_legal())
        first.wait(1)
        result = CliRunner().invoke(main, ["play", "--lang", "en", "--resume", "--fast"])
        assert result.exit_code == 2, result.output
        said = flat(result.output)
        assert re.search(
            r"The match of [-\d: ]+ is open in another valtti play \(process "
            + str(first.child.pid)
            + r"\): it can be resumed once that one has left it",
            said,
        ), said
        assert first.leave() == 0, first.text()
    finally:
        if first.child.poll() is None:
            first.child.kill()
        first.thread.join(10)
    (match,) = kept(data_home)
    assert match.holder is None and goes_on(match, before.record)
    assert len(match.record.deals[0].actions) > len(before.record.deals[0].actions)


# -- the command line ----------------------------------------------------------------------------


def test_saves_lists_the_matches_in_english_and_finnish(data_home: Path) -> None:
    """A row at 80 columns: the number, when it was last played, the deal, the trick and the
    score; under them the players."""
    assert play("--saves") == f"No unfinished match is kept (in {data_home}).\n"
    moved(2)
    play("--seed", "3", *NEW, "--opponents", "heuristic", input="8h\n")
    when = [time.strftime("%Y-%m-%d %H:%M", time.localtime(k.modified)) for k in kept(data_home)]
    lines = [line.rstrip() for line in play("--saves").splitlines()]
    assert lines == [
        f"Unfinished matches, newest first (in {data_home}):",
        f"1  {when[0]}  deal 1, trick 2/9, NS 0 – EW 0",
        "                     you S; N: random; E W: strong club player",
        f"2  {when[1]}  deal 1, trick 2/9, NS 0 – EW 0",
        "                     you S; N E W: random",
        "Go on with one: valtti play --resume NUMBER (with no number: the newest).",
    ]
    assert max(map(len, lines[1:])) <= 80
    finnish = CliRunner().invoke(main, ["play", "--saves", "--lang", "fi"]).output
    assert [line.rstrip() for line in finnish.splitlines()] == [
        f"Kesken jääneet ottelut, uusin ensin (kansiossa {data_home}):",
        f"1  {when[0]}  jako 1, tikki 2/9, PE 0 – IL 0",
        "                     sinä E; P: satunnainen; I L: vahva kerhopelaaja",
        f"2  {when[1]}  jako 1, tikki 2/9, PE 0 – IL 0",
        "                     sinä E; P I L: satunnainen",
        "Jatka yhtä: valtti play --resume NUMERO (ilman numeroa: uusinta).",
    ]


def test_resume_refuses_a_number_not_listed_and_flags_that_clash(data_home: Path) -> None:
    runner = CliRunner()
    moved(2)
    for args, says, status in [
        (["--resume", "5"], "There is no kept match number 5: valtti play --saves lists them, "
         "1 to 1.", 2),
        (["--resume", "--discard"], "--discard discards the newest unfinished match", 2),
        (["--new", "--discard"], "--new keeps the unfinished match, --discard discards it", 2),
        (["--yes", "--discard"], "--new keeps the unfinished match, --discard discards it", 2),
    ]:  # fmt: skip
        result = runner.invoke(main, ["play", "--lang", "en", *args])
        assert result.exit_code == status, result.output
        assert says in flat(result.output), result.output
    assert len(kept(data_home)) == 1
    shown = flat(runner.invoke(main, ["play", "--help"]).output)
    for option in ("--saves", "--new, --yes", "--discard", "--resume [N|FILE]"):
        assert option in shown, shown


@pytest.mark.parametrize("option", ["--new", "--yes"])
def test_new_starts_a_new_match_keeping_the_unfinished_one(data_home: Path, option: str) -> None:
    moved(2)
    said = flat(moved(3, option))
    assert "The unfinished match of " in said and "is kept (valtti play --saves lists it)" in said
    assert "not a terminal" not in said
    assert sorted(k.meta.seed for k in kept(data_home)) == [2, 3]  # type: ignore[type-var]


def test_discard_on_the_command_line(data_home: Path) -> None:
    moved(2)
    said = moved(3, "--discard")
    assert "is discarded." in flat(said)
    assert [k.meta.seed for k in kept(data_home)] == [3]


def test_an_empty_record_says_it_is_empty(tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text("")
    for language, says in [
        ("en", f"{empty}: the file is empty: there is no record in it"),
        ("fi", f"{empty}: tiedosto on tyhjä: siinä ei ole pöytäkirjaa"),
    ]:
        result = CliRunner().invoke(main, ["play", "--lang", language, "--resume", str(empty)])
        assert result.exit_code == 2 and says in result.output, result.output
        assert "line 1" not in result.output and "rivillä" not in result.output


def test_saves_tells_a_deal_over_a_finished_match_and_one_open(data_home: Path) -> None:
    """Issue 41: a match kept between deals is "deal 1 over", not "trick 9/9"; a finished one
    comes after the unfinished, marked so; one that a session has open says which; no line
    ends in spaces."""
    s, _out = begin(data_home, seed=5)

    def read(prompt: str) -> str:
        if prompt.startswith("Enter: next deal"):
            raise EOFError  # left at the deal's end
        deal = s.match.deal
        assert deal is not None
        return str(deal.legal_actions()[0])

    s.drawing.read = read
    s.run()
    over = Saves(data_home).new_path(when=time.time() - 60)
    finished(over)
    open_ = leave(data_home, seed=3).autosave
    assert open_ is not None
    held = Saves(data_home).take(open_)
    try:
        output = play("--saves")
    finally:
        held.close()
    assert all(line == line.rstrip() for line in output.splitlines()), output
    when = r"\d{4}-\d\d-\d\d \d\d:\d\d"
    pattern = [
        rf"Unfinished matches, newest first \(in {re.escape(str(data_home))}\):",
        rf"1  {when}  deal 1, trick \d/9, NS 0 – EW 0",
        " " * 21 + "you S; N E W: random",
        " " * 21 + f"open in another valtti play \\(process {os.getpid()}\\)",
        rf"2  {when}  deal 1 over, NS \d – EW \d",
        " " * 21 + "you S; N E W: random",
        "Finished matches, kept until you leave them:",
        rf"3  {when}  finished after \d+ deals, NS \d+ – EW \d+",
        " " * 21 + "you S; N E W: random",
        r"Go on with one: valtti play --resume NUMBER \(with no number: the newest\)\.",
    ]
    lines = output.splitlines()
    assert len(lines) == len(pattern), lines
    for line, expected in zip(lines, pattern, strict=True):
        assert re.fullmatch(expected, line), (line, expected)
    assert "trick 9/9" not in output
