"""The terminal's words: every player-facing text of the terminal game, in English and Finnish,
from the one catalogue of words (``valtti.locale``, where its docstring says how to refresh it
after changing a message).
"""

from __future__ import annotations

import gettext
import os

from babel.numbers import get_decimal_symbol

from valtti.locale import LANGUAGES, N_, NC_, SOURCE, translations

__all__ = [
    "LANGUAGES",
    "NC_",
    "N_",
    "SOURCE",
    "_",
    "decimal",
    "default_language",
    "ngettext",
    "percent",
    "pgettext",
    "translations",
    "use",
]

_active: gettext.NullTranslations = gettext.NullTranslations()
_language = SOURCE


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
