"""The one catalogue of words: every player-facing text of the terminal and the web pages, in
English and Finnish, as gettext catalogues (``valtti.pot``, ``<lang>/LC_MESSAGES/valtti.po``).

English is the source language: the messages are written in it, and its catalogue's msgstrs
stay empty. Where a text comes from: the terminal's sources (``_``, ``N_``, ``NC_``…) and the
web pages' words (``valtti.web.words``). After changing a message, refresh the template and the
catalogues with::

    pybabel extract --no-location -w 100 --project valtti --copyright-holder valtti \\
        -k NC_:1c,2 -o src/valtti/locale/valtti.pot src/valtti/terminal src/valtti/web/words.py \\
        src/valtti/locale/rules.py
    pybabel update --ignore-obsolete --no-fuzzy-matching -w 100 -D valtti \\
        -i src/valtti/locale/valtti.pot -d src/valtti/locale
    python -m valtti.web.words

and translate what is new in ``fi`` first (the last step refuses a text not translated);
``tests/terminal/test_terminal_i18n.py`` and ``tests/web/test_words.py`` fail until all is done.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    # Babel's catalogues only where a language other than the source is read: a command in
    # English starts without them (tests/coach/test_explain.py).
    from babel.messages.catalog import Catalog

DOMAIN: Final = "valtti"
LANGUAGES: Final = ("en", "fi")
#: The language the messages are written in: its catalogue would give each one back as it is.
SOURCE: Final = "en"


@cache
def catalogue(language: str) -> Catalog:
    """The catalogue of one of ``LANGUAGES`` as Babel reads it; ``ValueError`` for another."""
    if language not in LANGUAGES:
        raise ValueError(f"no catalogue for {language!r}: languages are {', '.join(LANGUAGES)}")
    from babel.messages.pofile import read_po

    po = resources.files("valtti") / "locale" / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    with po.open("rb") as source:
        return read_po(source, locale=language, domain=DOMAIN)


@cache
def translations(language: str) -> gettext.NullTranslations:
    """The compiled catalogue of one of ``LANGUAGES`` (for ``SOURCE``, the messages as they
    are: nothing to read or compile, which a command in English would otherwise spend tens of
    milliseconds on at its start); ``ValueError`` for another. Compiled in memory on first
    use, so an editable install and a wheel both work with nothing built beforehand."""
    if language not in LANGUAGES:
        raise ValueError(f"no catalogue for {language!r}: languages are {', '.join(LANGUAGES)}")
    if language == SOURCE:
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo

    compiled = io.BytesIO()
    write_mo(compiled, catalogue(language))
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def N_(message: str) -> str:
    """Mark a message for the catalogue where it is defined; translate it where used."""
    return message


def NC_(context: str, message: str) -> str:
    """``N_`` for a message translated with ``pgettext(context, message)`` where used."""
    return message
