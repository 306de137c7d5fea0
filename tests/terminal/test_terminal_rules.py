"""The rules inside the game (``help rules``, ``help cards``, ``help TERM``) and a terminal
program's manners: the line mode where the output is no terminal or ``TERM=dumb``, plain
characters where the locale or the encoding cannot show the suits."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from valtti.engine import DECK_POINTS, HALF_DECK_POINTS, Variant
from valtti.locale.rules import SECTIONS
from valtti.locale.rules import TEXTS as RULES
from valtti.terminal import glyphs, i18n, rulebook
from valtti.terminal.commands import TOPICS, Help, Topic, completions, parse, word
from valtti.terminal.game import start

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
#: The words of the game that ``help`` explains, besides the rules and the cards.
TERMS = [t for t in TOPICS if t not in ("rules", "cards", "terms")]


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.use("en")
    yield
    i18n.use("en")


def shown(
    lang: str, lines: list[str], variant: str | None = None, size: tuple[int, int] = (80, 24)
) -> list[str]:
    """The last screen drawn at ``size`` after the player typed ``lines``, the prompt on its
    last line."""
    out = io.StringIO()
    width, height = size
    con = Console(
        file=out,
        width=width,
        height=height,
        color_system=None,
        force_terminal=True,
        highlight=False,
    )
    s = start(
        seed=2, partner="random", opponents="random", fast=True, console=con, language=lang,
        variant=variant,
    )  # fmt: skip
    typed = list(lines)
    last: list[str] = []

    def read(prompt: str) -> str:
        last[:] = ANSI.sub("", out.getvalue().split("\x1b[2J")[-1] + prompt).splitlines()
        if typed:
            return typed.pop(0)
        raise EOFError

    s.drawing.read = read
    s.run()
    return last


@pytest.mark.parametrize("lang", ["en", "fi"])
@pytest.mark.parametrize("variant", [None, "target=12"])
def test_the_rules_are_the_rules_pages_text_read_to_the_end_at_80_by_24(
    lang: str, variant: str | None
) -> None:
    """``help rules`` shows the web's rules page's text (valtti.locale.rules), in pages that fit
    80×24, ``more`` turning them to the last."""
    i18n.use(lang)
    command = f"{word('help')} {word('rules', 'topic')}"
    screens = [shown(lang, [command, *[word("more")] * turns], variant) for turns in range(4)]
    for screen in screens:
        assert len(screen) <= 24 and max(map(len, screen)) <= 80, "\n".join(screen)
        assert screen[-1].startswith(("Enter: back to the table >", "Enter: takaisin pöytään >"))
    assert i18n._(RULES["rules.title"]) in screens[0][0]
    text = " ".join(line.strip("│ ") for screen in screens for line in screen)
    for section in SECTIONS:
        assert i18n._(RULES[f"rules.{section.name}"]) in text, section.name
    assert ("page 4 of 4" if lang == "en" else "sivu 4/4") in screens[-1][-2]
    assert "docs/RULES.md" in text and "Porvoo" in text and f"{HALF_DECK_POINTS}" in text
    # The seats in the language's letters, as the table shows them (Finnish P I E L).
    assert {"en": "N, E, S, W", "fi": "P, I, E, L"}[lang] in text
    switches = {"en": "This match: target 12.", "fi": "Tämä ottelu: tavoite 12."}[lang]
    assert (switches in text) == (variant is not None)


def test_enter_under_the_rules_goes_back_and_plays_nothing() -> None:
    # S's only legal card is Q♠: Enter would play it, but not under the rules page.
    screen = shown("en", ["help rules", ""])
    assert screen[-1] == "[Enter plays Q♠] Your card > "
    text = "\n".join(screen)
    assert "Your hand (S)" in text and "1:Q♠ │ 2:10♥" in text


def test_a_command_under_the_rules_is_taken() -> None:
    screen = shown("en", ["help rules", "help cards"])
    text = "\n".join(screen)
    assert "A 10 K Q J 9 8 7 6" in text and "A 11, 10 10, K 4, Q 3, J 2" in text
    assert f"{DECK_POINTS} in the deck" in text


def test_the_rules_tell_the_variant_in_play() -> None:
    text = " ".join(rulebook.rules_page(Variant(target=12)).plain.split())
    assert "The target is exactly 10: a team that goes over falls back to 7." in text
    assert "This match: target 12." in text
    anyone = rulebook.rules_page(Variant(whole_ask_after_trump="anyone")).plain
    assert "This match: anyone may ask whole after trumps." in anyone
    assert "This match:" not in rulebook.rules_page(Variant()).plain


@pytest.mark.parametrize("lang", ["en", "fi"])
@pytest.mark.parametrize("term", TERMS)
def test_each_word_of_the_game_is_explained(lang: str, term: str) -> None:
    i18n.use(lang)
    typed = f"{word('help')} {word(term, 'topic')}"
    assert parse(typed, []) == Topic(term)
    text = rulebook.answer(term, Variant())
    assert isinstance(text, str) and "RULES.md" in text and "{" not in text
    screen = shown(lang, [typed])
    assert "Not understood" not in "\n".join(screen) and "Ei ymmärretty" not in "\n".join(screen)
    assert any(text.split()[0].rstrip(":") in line for line in screen), screen


@pytest.mark.parametrize(
    ("typed", "topic"),
    [
        ("help rules", "rules"),
        ("help RULES", "rules"),
        ("? rules", "rules"),
        ("help points", "cards"),
        ("help cards", "cards"),
        ("help locked", "locked"),
        ("help porvoo", "Porvoo"),
        ("help little trump", "little trump"),
        ("help little-trump", "little trump"),
        ("help last", "last"),
        ("help pikkuvaltti", "little trump"),
        ("help matit", "checkmaters"),
        ("help etukäsi", "forehand"),
        ("help terms", "terms"),
    ],
)
def test_help_names_its_topics_in_either_language(typed: str, topic: str) -> None:
    assert parse(typed, []) == Topic(topic)
    i18n.use("fi")
    assert parse(typed.replace("help", "ohje"), []) == Topic(topic)


def test_help_with_a_card_or_a_command_is_as_before() -> None:
    assert parse("help hint", []) == Help()
    assert parse("help", []) == Help()
    assert "rules" in completions("help ", [], [])
    assert completions("help ru", [], []) == ["rules"]


def test_the_numbers_are_the_engines() -> None:
    cards = rulebook.cards_text(Variant())
    assert isinstance(cards, str)
    assert f"{DECK_POINTS} in the deck" in cards and f"over {HALF_DECK_POINTS} card points" in cards
    assert rulebook.ranks_text() == "A 10 K Q J 9 8 7 6"
    over = rulebook.answer("overshoot", Variant(target=12))
    assert isinstance(over, str) and "target, 12, falls back to 7" in over


def test_the_rules_in_the_line_mode_are_lines() -> None:
    out = io.StringIO()
    con = Console(file=out, width=80, height=24, color_system=None, highlight=False)
    s = start(seed=2, partner="random", opponents="random", fast=True, console=con, plain=True)
    typed = ["help rules"]

    def read(prompt: str) -> str:
        out.write(prompt)
        if typed:
            return typed.pop(0)
        raise EOFError

    s.drawing.read = read
    s.run()
    said = out.getvalue()
    assert isinstance(rulebook.answer("rules", Variant()), rulebook.Page)
    assert "Rules of Marjapussi\n" in said and "╭" not in said
    assert "\n1. Players, cards, points\n" in said
    assert "  - Declare: show a marriage you hold yourself" in said
    assert "Enter: back to the table >\n" in said


# -- manners --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("env", "shows"),
    [
        ({"LANG": "C"}, False),
        ({"LC_ALL": "C", "LANG": "fi_FI.UTF-8"}, False),
        ({"LANG": "POSIX"}, False),
        ({"LANG": "fi_FI.ISO-8859-1"}, False),
        ({"LC_ALL": "C.UTF-8", "LANG": "C"}, True),
        ({"LANG": "fi_FI.UTF-8"}, True),
        ({"LANG": "en_US.utf8"}, True),
        ({"LANG": "C", "LC_CTYPE": "en_US.UTF-8"}, True),
        ({}, True),
    ],
)
def test_the_locale_decides_the_characters(env: dict[str, str], shows: bool) -> None:
    assert glyphs.locale_shows_unicode(env) is shows


def test_the_line_mode_is_chosen_for_a_file_and_a_dumb_terminal() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert glyphs.wants_plain(io.StringIO(), {"TERM": "xterm"})
    assert not glyphs.wants_plain(Tty(), {"TERM": "xterm"})
    assert glyphs.wants_plain(Tty(), {"TERM": "dumb"})


def run_play(tmp_path: Path, *args: str, answers: str = "quit\ny\n", **env: str) -> str:
    """``valtti play`` with its output to a pipe and ``answers`` as its input."""
    environment = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
    environment.update(XDG_DATA_HOME=str(tmp_path), **env)
    done = subprocess.run(
        [sys.executable, "-m", "valtti", "play", "--seed", "2", "--fast", "--lang", "en",
         "--partner", "random", "--opponents", "random", *args],
        input=answers.encode(), capture_output=True, env=environment, timeout=120, check=True,
    )  # fmt: skip
    return done.stdout.decode("utf-8")


def test_output_to_a_file_is_the_line_mode_with_its_prompts(tmp_path: Path) -> None:
    said = run_play(tmp_path, answers="help porvoo\nquit\ny\n")
    assert "\x1b" not in said and "╭" not in said and "│" not in said
    assert "[Enter plays Q♠] Your card >\n" in said
    assert "Your hand (S): 1:Q♠ 2:10♥" in said
    assert "Porvoo: a team that takes no trick" in said


def test_the_screen_can_be_forced_into_a_file(tmp_path: Path) -> None:
    said = run_play(tmp_path, "--screen")
    assert "╭─ Your hand (S)" in said and "\x1b[" not in said  # a file has no colours


def test_a_dumb_terminal_gets_the_line_mode(tmp_path: Path) -> None:
    # With the screen forced, as if the output were a terminal, TERM=dumb is still told apart.
    assert glyphs.wants_plain(sys.stdin if sys.stdin.isatty() else None, {"TERM": "dumb"})
    said = run_play(tmp_path, TERM="dumb")
    assert "╭" not in said and "Your card >\n" in said


@pytest.mark.parametrize(
    "env",
    [
        {"LANG": "C", "LC_ALL": "C"},
        {"LANG": "C", "LC_ALL": "C", "PYTHONIOENCODING": "ascii"},
        {"PYTHONIOENCODING": "latin-1"},
    ],
)
def test_a_locale_or_encoding_without_the_suits_gets_letters(
    tmp_path: Path, env: dict[str, str]
) -> None:
    said = run_play(tmp_path, **env)
    assert "Your hand (S): 1:QS 2:10H 3:JH" in said and said.isascii(), said
    forced = run_play(tmp_path, "--unicode", **env)
    if "PYTHONIOENCODING" in env:  # what the encoding cannot write stays out all the same
        assert "♠" not in forced
    else:
        assert "1:Q♠ 2:10♥" in forced
