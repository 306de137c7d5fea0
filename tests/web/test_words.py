"""One catalogue of words for the terminal and the web (valtti.locale): the pages' JSON
catalogues are written from it (``python -m valtti.web.words``) and are exactly that, complete in
both languages; a text the terminal and a page both say is one message, translated once."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from valtti import locale
from valtti.locale import rules
from valtti.terminal import i18n
from valtti.web import words

PACKAGE = Path(words.__file__).resolve().parent.parent


@pytest.mark.parametrize("language", locale.LANGUAGES)
def test_the_pages_catalogue_is_the_one_written_from_the_catalogue(language: str) -> None:
    on_disk = (words.STATIC_I18N / f"{language}.json").read_text("utf-8")
    assert on_disk == words.catalogue_json(language), "run: python -m valtti.web.words"
    assert list(json.loads(on_disk)) == list(words.WORDS)


def test_there_is_no_other_catalogue() -> None:
    """The gettext catalogues and the JSON written from them: no second source of words."""
    po = sorted(p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.po*"))
    assert po == [
        "locale/en/LC_MESSAGES/valtti.po",
        "locale/fi/LC_MESSAGES/valtti.po",
        "locale/valtti.pot",
    ]
    pages = sorted(p.name for p in words.STATIC_I18N.iterdir())
    assert pages == [f"{language}.json" for language in locale.LANGUAGES]


def test_both_languages_say_every_word() -> None:
    english, finnish = words.words("en"), words.words("fi")
    assert english.keys() == finnish.keys() == words.WORDS.keys()
    assert all(english.values()) and all(finnish.values())
    assert finnish["lobby.create.heading"] == "Uusi pöytä"


def test_a_word_the_terminal_says_too_is_translated_once() -> None:
    """The suits' names are the terminal's and the pages' both: one message."""
    fi = i18n.translations("fi")
    for suit in "SHDC":
        context, text = words.WORDS[f"suit.{suit}"]
        assert context == "suit"
        assert words.words("fi")[f"suit.{suit}"] == fi.pgettext("suit", text) != text
    assert sum(1 for m in locale.catalogue("fi") if m.id == "spades") == 1


def test_a_word_not_translated_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(words.WORDS, "lobby.unknown", words.N_("A text nobody translated"))
    with pytest.raises(LookupError, match=r"fi: lobby\.unknown"):
        words.words("fi")


def test_the_rules_page_draws_the_rules_sections() -> None:
    """static/rules.js lays out the one rules text (valtti.locale.rules) as the terminal does:
    the same sections, parts and lists, in the same order."""
    script = (words.STATIC_I18N.parent / "rules.js").read_text("utf-8")
    found = re.search(r"const SECTIONS = (\[.*?\n\]);", script, re.S)
    assert found, "rules.js has no SECTIONS"
    drawn = json.loads(re.sub(r",(\s*[\]\)])", r"\1", found[1]))

    def laid_out(section: rules.Section) -> list[object]:
        return [section.name, [list(p) if isinstance(p, tuple) else p for p in section.parts]]

    assert drawn == [laid_out(section) for section in rules.SECTIONS]
    assert {f"rules.{s.name}" for s in rules.SECTIONS} <= set(words.WORDS)
