"""The unfinished matches in a real 80×24 pseudo-terminal: the question before a new match while
one is kept, in English and in Finnish; ``--saves``; ``--resume N``; Ctrl-D at the question.
The saves are kept under a temporary ``XDG_DATA_HOME``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

#: A real terminal session each: the full tier (CONTRIBUTING.md).
pytestmark = pytest.mark.e2e

pexpect = pytest.importorskip("pexpect")

from test_terminal_e2e_small import ANSI, TURN, play, spawn  # noqa: E402 - after the skip
from valtti.terminal.saving import Saves  # noqa: E402

QUESTION = "Resume it (r), keep it and start a new match (k), or discard it (d)? [k] > "
KYSYMYS = "Jatka sitä (j), säilytä se ja aloita uusi ottelu (s) vai hylkää se (h)? [s] > "


@pytest.fixture(autouse=True)
def saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Saves:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return Saves(tmp_path / "data" / "valtti" / "saves")


def _leave(child: pexpect.spawn, answer: str = "y") -> str:
    child.sendline("quit")
    child.expect_exact(") > ")
    child.sendline(answer)
    child.expect(pexpect.EOF)
    return ANSI.sub("", child.before)


def _asked(child: pexpect.spawn, question: str) -> str:
    """What was shown before ``question``, without colours, on one line."""
    child.expect_exact(question)
    return " ".join(ANSI.sub("", child.before).split())


def test_a_new_match_asks_and_enter_keeps_r_resumes(saves: Saves) -> None:
    child = play()  # seed 2: one legal card, Enter plays it
    child.expect(TURN)
    child.sendline("")
    child.expect(TURN)
    _leave(child)
    assert [k.meta.seed for k in saves.scan().kept] == [2]

    child = play("--seed", "3")
    shown = _asked(child, QUESTION)
    assert re.search(r"An unfinished match is kept, last played \d{4}-\d\d-\d\d \d\d:\d\d:", shown)
    assert "deal 1, trick 2/9, NS 0 – EW 0; you S; N E W: random" in shown
    child.sendline("")
    child.expect(TURN)
    _leave(child)
    assert [k.meta.seed for k in saves.scan().kept] == [3, 2]

    listing = spawn("play", "--saves", "--lang", "en")
    listing.expect(pexpect.EOF)
    lines = [line.rstrip() for line in ANSI.sub("", listing.before).splitlines()]
    assert lines[0].startswith("Unfinished matches, newest first (in ")
    when = r"\d{4}-\d\d-\d\d \d\d:\d\d"
    assert re.fullmatch(rf"1  {when}  deal 1, trick 1/9, NS 0 – EW 0", lines[-5])
    assert re.fullmatch(rf"2  {when}  deal 1, trick 2/9, NS 0 – EW 0", lines[-3])
    assert lines[-4] == lines[-2] == " " * 21 + "you S; N E W: random"
    assert lines[-1].startswith("Go on with one: ")

    child = spawn("play", "--resume", "2", "--fast", "--lang", "en")
    child.expect(TURN)
    assert "Resumed the unfinished match of " in " ".join(ANSI.sub("", child.before).split())
    _leave(child)
    assert [k.meta.seed for k in saves.scan().kept] == [2, 3]

    child = play("--seed", "4")
    child.expect_exact(QUESTION)
    child.sendline("x")
    child.expect_exact("Please answer r, k or d.")
    child.expect_exact(QUESTION)
    child.sendline("r")
    child.expect(TURN)
    _leave(child)
    assert [k.meta.seed for k in saves.scan().kept] == [2, 3]  # the seed-2 match went on


def test_the_question_in_finnish_and_discard(saves: Saves) -> None:
    child = play()
    child.expect(TURN)
    _leave(child)
    child = spawn("play", "--seed", "3", "--fast", "--lang", "fi", "--partner", "random",
                  "--opponents", "random")  # fmt: skip
    shown = _asked(child, KYSYMYS)
    assert "Kesken jäänyt ottelu on tallessa, pelattu viimeksi " in shown
    assert "jako 1, tikki 1/9, PE 0 – IL 0; sinä E; P I L: satunnainen" in shown
    child.sendline("h")
    child.expect(r"(Sinun korttisi|Sinun aloituksesi) > ")
    _leave(child, "k")
    assert [k.meta.seed for k in saves.scan().kept] == [3]

    listing = spawn("play", "--saves", "--lang", "fi")
    listing.expect(pexpect.EOF)
    lines = ANSI.sub("", listing.before).splitlines()
    assert lines[0].startswith("Kesken jääneet ottelut, uusin ensin (kansiossa ")
    assert lines[-1] == "Jatka yhtä: valtti play --resume NUMERO (ilman numeroa: uusinta)."


def test_ctrl_d_at_the_question_starts_nothing(saves: Saves) -> None:
    child = play()
    child.expect(TURN)
    _leave(child)
    before = [k.path for k in saves.scan().kept]
    child = play("--seed", "3")
    child.expect_exact(QUESTION)
    child.send("\x04")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "Traceback" not in child.before
    assert [k.path for k in saves.scan().kept] == before
