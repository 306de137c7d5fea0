"""The one catalogue of words (valtti.locale): in step with the code (the terminal's sources
and the web pages' words), Finnish complete, placeholders kept."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_from_file
from babel.messages.pofile import read_po

from valtti.engine import Action, Card
from valtti.terminal import commands, i18n
from valtti.web import words

LOCALE = Path(i18n.__file__).resolve().parent.parent / "locale"
SOURCES = Path(i18n.__file__).resolve().parent
WEB_WORDS = Path(words.__file__).resolve()
#: The rules for players, which the terminal and the web page both show.
RULES = LOCALE / "rules.py"

Key = tuple[str | None, str | tuple[str, ...]]


def _keys(catalog: Catalog) -> set[Key]:
    return {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)) for m in catalog if m.id}


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def test_the_template_holds_every_message_of_the_code() -> None:
    keywords = {**DEFAULT_KEYWORDS, "NC_": ((1, "c"), 2)}
    in_code: set[Key] = set()
    found = [
        (message, context)
        for _file, _line, message, _comments, context in extract_from_dir(
            SOURCES, keywords=keywords
        )
    ]
    found += [
        (message, context)
        for source in (WEB_WORDS, RULES)
        for _line, message, _comments, context in extract_from_file(
            "python", source, keywords=keywords
        )
    ]
    for message, context in found:
        in_code.add((context, message if isinstance(message, str) else tuple(message)))
    assert tuple(words.WORDS["suit.S"]) in in_code  # the web pages' words are read too
    template = _keys(_read(LOCALE / "valtti.pot"))
    assert in_code - template == set(), "run pybabel extract (see valtti/locale)"
    assert template - in_code == set(), "run pybabel extract (see valtti/locale)"


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_each_catalogue_follows_the_template(language: str) -> None:
    template = _keys(_read(LOCALE / "valtti.pot"))
    catalogue = _read(LOCALE / language / "LC_MESSAGES" / "valtti.po", language)
    assert _keys(catalogue) == template, "run pybabel update (see valtti/locale)"


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_finnish_translates_everything_with_the_same_placeholders() -> None:
    catalogue = _read(LOCALE / "fi" / "LC_MESSAGES" / "valtti.po", "fi")
    assert catalogue.num_plurals == 2
    for message in catalogue:
        if not message.id:
            continue
        assert not message.fuzzy, message.id
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        assert all(strings), f"untranslated: {message.id!r}"
        for translated in strings:
            assert _fields(translated) == _fields(ids[-1]), message.id


def test_english_is_the_source_language() -> None:
    """Its catalogue translates nothing: so the game reads none for English (i18n.SOURCE)."""
    catalogue = _read(LOCALE / "en" / "LC_MESSAGES" / "valtti.po", "en")
    assert [m.id for m in catalogue if m.id and m.string and any(m.string)] == []
    assert catalogue.plural_forms == "nplurals=2; plural=(n != 1);"  # as gettext's own
    assert i18n.SOURCE == "en"


def test_the_compiled_catalogues() -> None:
    fi = i18n.translations("fi")
    assert fi.gettext("Table") == "Pöytä"
    assert fi.pgettext("command", "help") == "ohje"
    assert fi.ngettext("{n} card", "{n} cards", 1) == "{n} kortti"
    assert fi.ngettext("{n} card", "{n} cards", 5) == "{n} korttia"
    assert i18n.translations("en").gettext("Table") == "Table"
    with pytest.raises(ValueError, match="no catalogue for 'sv'"):
        i18n.translations("sv")


@pytest.mark.parametrize(
    ("variables", "language"),
    [
        ({"LANG": "fi_FI.UTF-8"}, "fi"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANG": "C"}, "en"),
        ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "fi_FI.UTF-8"}, "fi"),
        ({"LANGUAGE": "fi:en"}, "fi"),
        # Python's coercion where fi_FI is not installed: LC_CTYPE says nothing of language.
        ({"LANG": "fi_FI.UTF-8", "LC_CTYPE": "C.UTF-8"}, "fi"),
        ({"LC_ALL": "C", "LANG": "fi_FI.UTF-8"}, "en"),
        ({"LANGUAGE": "en", "LANG": "fi_FI.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_default_language_comes_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, variables: dict[str, str], language: str
) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    assert i18n.default_language() == language


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_command_words_are_distinct_and_not_cards(language: str) -> None:
    i18n.use(language)
    try:
        english = [
            getattr(commands, name)
            for name in dir(commands)
            if name.isupper() and isinstance(getattr(commands, name), str)
        ]
        words = [commands.word(w) for w in english]
        assert len(set(words)) == len(words)
        for w in words:
            with pytest.raises(ValueError):
                Card.parse(w)
            with pytest.raises(ValueError):
                Action.parse(w)
    finally:
        i18n.use("en")
