"""The message catalogue: every player-facing text of the terminal game, in English and Finnish.

Standard gettext with Babel. The sources are ``valtti/locale/<lang>/LC_MESSAGES/valtti.po``
(English is the source language: its msgstrs stay empty, and it is read from no catalogue).
They are compiled in memory on first use with Babel, so an editable install and a wheel both
work with nothing built beforehand.
After changing a message in the code, refresh the template and the catalogues with::

    pybabel extract --no-location -w 100 --project valtti --copyright-holder valtti \
        -k NC_:1c,2 -o src/valtti/locale/valtti.pot src/valtti/terminal
    pybabel update --ignore-obsolete -w 100 -D valtti -i src/valtti/locale/valtti.pot \
        -d src/valtti/locale

and translate what is new in ``fi``; ``tests/test_terminal_i18n.py`` fails until that is done.
"""

from __future__ import annotations

import gettext
import io
import os
from functools import cache
from importlib import resources
from typing import Final

from babel.numbers import get_decimal_symbol

DOMAIN: Final = "valtti"
LANGUAGES: Final = ("en", "fi")
#: The language the messages are written in: its catalogue would give each one back as it is.
SOURCE: Final = "en"

_active: gettext.NullTranslations = gettext.NullTranslations()
_language = SOURCE


@cache
def translations(language: str) -> gettext.NullTranslations:
    """The compiled catalogue of one of ``LANGUAGES`` (for ``SOURCE``, the messages as they
    are: nothing to read or compile, which a command in English would otherwise spend tens of
    milliseconds on at its start); ``ValueError`` for another."""
    if language not in LANGUAGES:
        raise ValueError(f"no catalogue for {language!r}: languages are {', '.join(LANGUAGES)}")
    if language == SOURCE:
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    po = resources.files("valtti") / "locale" / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    with po.open("rb") as source:
        catalog = read_po(source, locale=language, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def use(language: str) -> None:
    """Make ``language`` the one that ``_``, ``ngettext`` and ``pgettext`` answer in."""
    global _active, _language
    _active = translations(language)
    _language = language


def decimal(value: float, places: int, signed: bool = False) -> str:
    """``value`` with ``places`` decimals and the active language's decimal mark (Finnish
    writes a comma, as the web's hint does); ``signed``: with ``+`` before a positive value.
    Never ``-0``: a value that rounds to zero has no minus."""
    text = f"{value:{'+' if signed else ''}z.{places}f}"
    return text.replace(".", get_decimal_symbol(_language))


def percent(share: float) -> str:
    """``share`` (0 to 1) as a whole percentage in the active language: ``62%``, ``62 %``."""
    from babel.numbers import format_percent

    return format_percent(share, locale=_language)


def default_language() -> str:
    """Finnish when the first of ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is
    set names it, as gettext reads them; else English (``C`` too). ``LC_CTYPE`` is not read:
    Python sets it to ``C.UTF-8`` where the locale named is not installed, which says nothing
    of the language wanted."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        code = os.environ.get(name, "").split(":", 1)[0].split(".", 1)[0].split("@", 1)[0]
        if code.strip():
            return "fi" if code.strip().lower().startswith("fi") else "en"
    return "en"


def _(message: str) -> str:
    return _active.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _active.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """A message whose translation depends on where it is used (e.g. a command word)."""
    return _active.pgettext(context, message)


def N_(message: str) -> str:
    """Mark a message for the catalogue where it is defined; translate it with ``_`` where used."""
    return message


def NC_(context: str, message: str) -> str:
    """``N_`` for a message to be translated with ``pgettext(context, message)`` where used."""
    return message
