"""``valtti play`` in a real 80×24 pseudo-terminal: a dumb terminal gets the line mode, the C
locale plain characters, ``NO_COLOR`` no colours, Ctrl-L draws the screen again at once, and
with only standard output sent to a file the player still sees every line there."""

from __future__ import annotations

import os
import re
import shlex
import sys
from pathlib import Path

import pytest

#: A real terminal session each: the full tier (CONTRIBUTING.md).
pytestmark = pytest.mark.e2e

pexpect = pytest.importorskip("pexpect")

from test_terminal_e2e_small import data_home  # noqa: E402, F401  (autouse: saves of its own)

ROWS, COLUMNS = 24, 80
TURN = r"Your (lead|card) > "
#: A colour in an escape sequence (SGR): a foreground or background, of 8, 256 or 16M colours.
COLOUR = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9;]*)?m")


def play(*args: str, **env: str) -> pexpect.spawn:  # type: ignore[name-defined]
    environment = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    for name in ("LC_ALL", "LC_CTYPE"):  # the locale is the test's
        environment.pop(name, None)
    environment.update({"TERM": "xterm-256color", "LANG": "C.UTF-8", **env})
    return pexpect.spawn(
        sys.executable,
        ["-m", "valtti", "play", "--seed", "2", "--fast", "--lang", "en", "--partner", "random",
         "--opponents", "random", *args],
        env=environment,
        dimensions=(ROWS, COLUMNS),
        encoding="utf-8",
        codec_errors="strict",
        timeout=30,
    )  # fmt: skip


def leave(child: pexpect.spawn) -> None:  # type: ignore[name-defined]
    child.sendline("quit")
    child.expect_exact("(y/n)")
    child.sendline("y")
    child.expect(pexpect.EOF)


def test_ctrl_l_draws_the_table_again_at_once_and_keeps_the_line() -> None:
    child = play(NO_COLOR="1")
    child.expect(TURN)
    child.send("10")
    child.send("\x0c")  # Ctrl-L
    # The screen is cleared and the whole table drawn again, before any Enter.
    child.expect_exact("\x1b[2J")
    child.expect("Your hand \\(S\\)")
    child.expect(TURN)
    child.expect_exact("10")  # the line typed so far is back at the prompt
    child.send("h\r")  # 10h, which is not legal: the line was kept
    child.expect("10♥ is not legal")
    leave(child)


def test_a_dumb_terminal_gets_the_line_mode() -> None:
    child = play(TERM="dumb")
    child.expect(r"Your card >\r\n")
    said = child.before
    assert "Your hand (S): 1:Q♠" in said and "╭" not in said
    assert "\x1b[2J" not in said
    leave(child)


def test_the_c_locale_gets_plain_characters() -> None:
    child = play(LANG="C", LC_ALL="C")
    child.expect(TURN)
    said = re.sub(r"\x1b\[[0-9;?]*[ -/]*[@-~]", "", child.before)
    assert "1:QS | 2:10H 3:JH" in said and "♠" not in said and "╭" not in said
    leave(child)


@pytest.mark.parametrize("no_color", ["1", ""])
def test_no_color_leaves_the_colours_out(no_color: str) -> None:
    child = play(NO_COLOR=no_color)
    child.expect(TURN)
    coloured = COLOUR.search(child.before) is not None
    assert coloured is not bool(no_color), repr(child.before[:400])
    leave(child)


def test_with_standard_output_in_a_file_the_player_still_sees_the_hand(tmp_path: Path) -> None:
    """Issue 41: ``valtti play > game.txt`` at a terminal: the line mode writes each line to the
    file and to the terminal the player types at (standard error), the hand and the prompt
    too; the file holds the whole transcript."""
    transcript = tmp_path / "game.txt"
    command = " ".join(
        shlex.quote(a)
        for a in (sys.executable, "-m", "valtti", "play", "--seed", "2", "--fast", "--lang", "en",
                  "--partner", "random", "--opponents", "random")
    )  # fmt: skip
    environment = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    environment.update(TERM="xterm-256color", LANG="C.UTF-8")
    child = pexpect.spawn(
        "/bin/sh", ["-c", f"exec {command} > {shlex.quote(str(transcript))}"],
        env=environment, dimensions=(ROWS, COLUMNS), encoding="utf-8", timeout=30,
    )  # fmt: skip
    child.expect_exact("[Enter plays Q♠] Your card >")
    shown = child.before
    assert "Your hand (S): 1:Q♠ 2:10♥ 3:J♥" in shown and "Legal: Q♠" in shown
    child.sendline("")
    child.expect(r"Your (card|lead) >")
    assert "S plays Q♠" in child.before
    leave(child)
    written = transcript.read_text(encoding="utf-8")
    assert "Your hand (S): 1:Q♠ 2:10♥ 3:J♥" in written and "S plays Q♠" in written
    assert written.count("[Enter plays Q♠] Your card >") == 1  # the prompt written once there
