"""Characters the terminal can show: the suits, frames and marks in Unicode, or plain stand-ins.

A terminal whose encoding cannot show the suits (``PYTHONIOENCODING=latin-1``, a serial line),
a locale whose character set cannot (``LANG=C``, ``LC_ALL=C``, ``LANG=fi_FI.ISO-8859-1``),
or the ``--ascii`` option, gets a console that writes through ``PlainStream``: each suit becomes
its letter (``A♠`` → ``AS``), each mark one ASCII character of the same width, and rich draws
its frames with ASCII boxes (it does so for any console whose encoding is not UTF).
"""

from __future__ import annotations

import os
import sys
import unicodedata
from collections.abc import Mapping
from typing import Final, TextIO

from rich.console import Console

#: One character for one, so that what rich has measured and aligned stays aligned.
STAND_INS: Final = {
    "♠": "S",
    "♥": "H",
    "♦": "D",
    "♣": "C",
    "·": "-",
    "–": "-",
    "—": "-",
    "→": ">",
    "◀": "<",
    "│": "|",
    "─": "-",
    "…": ".",
    "×": "x",
    # The review's line of match equity (terminal/review.py): from the lowest to the highest.
    "▁": "_",
    "▂": ".",
    "▃": "-",
    "▄": "~",
    "▅": "=",
    "▆": "^",
    "▇": "'",
    "█": '"',
}
_TABLE: Final = str.maketrans(STAND_INS)
#: What the game shows that a terminal must be able to encode for the Unicode screen.
_NEEDED: Final = "".join(STAND_INS) + "╭╮╰╯"


def shows_unicode(encoding: str | None) -> bool:
    """Whether a stream in ``encoding`` can show the suits and frames."""
    try:
        _NEEDED.encode(encoding or "ascii")
    except (LookupError, UnicodeEncodeError):
        return False
    return True


def locale_shows_unicode(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the locale the player chose can show the suits and frames: not where the first
    of ``LC_ALL``, ``LC_CTYPE`` and ``LANG`` that is set is ``C`` or ``POSIX``, or names a
    character set that cannot (``fi_FI.ISO-8859-15``). Python itself writes UTF-8 in the C
    locale (and sets ``LC_CTYPE=C.UTF-8`` when it does), so its output encoding cannot tell.
    Where none is set, the encoding decides."""
    env = os.environ if environ is None else environ
    coerced = sys.flags.utf8_mode and not env.get("PYTHONUTF8")
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(name, "")
        if not value or (name == "LC_CTYPE" and coerced and value == "C.UTF-8"):
            continue
        if value in ("C", "POSIX"):
            return False
        charset = value.split(".", 1)[1].split("@", 1)[0] if "." in value else ""
        return not charset or shows_unicode(charset)
    return True


def wants_plain(stream: TextIO | None = None, environ: Mapping[str, str] | None = None) -> bool:
    """Whether the line mode suits the output by itself: ``stream`` (standard output) is not a
    terminal (a file, a pipe), or the terminal is ``TERM=dumb``, which cannot redraw."""
    out = stream or sys.stdout
    env = os.environ if environ is None else environ
    isatty = getattr(out, "isatty", None)
    return not (isatty is not None and isatty()) or env.get("TERM") == "dumb"


def player_terminal() -> TextIO | None:
    """The terminal the player types at where standard output goes elsewhere (``valtti play >
    game.txt``, a pipe): standard error, where it and standard input are terminals. ``None``
    where standard output is the terminal, or where nobody types at one (a script)."""
    streams = (sys.stdout, sys.stdin, sys.stderr)
    if any(stream is None for stream in streams) or sys.stdout.isatty():
        return None
    return sys.stderr if sys.stdin.isatty() and sys.stderr.isatty() else None


def plain(text: str, encoding: str = "ascii") -> str:
    """``text`` with the stand-ins, then each character ``encoding`` still lacks without its
    accent (``ä`` → ``a`` for ASCII) or as ``?``."""
    text = text.translate(_TABLE)
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return "".join(_encodable(c, encoding) for c in text)
    return text


def _encodable(char: str, encoding: str) -> str:
    for candidate in (char, unicodedata.normalize("NFKD", char)[:1]):
        try:
            candidate.encode(encoding)
        except UnicodeEncodeError:
            continue
        return candidate
    return "?"


class PlainStream:
    """A text stream that passes on only what ``target`` (an encoding) can show.

    It tells rich that its encoding is ASCII, so that frames are drawn with ASCII boxes.
    """

    encoding: Final = "ascii"

    def __init__(self, stream: TextIO, target: str = "ascii") -> None:
        self.stream = stream
        self.target = target

    def write(self, text: str) -> int:
        self.stream.write(plain(text, self.target))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()


class Echoed:
    """A text stream that writes to ``stream`` and also to ``echo``, there in what its encoding
    can show: what the game writes to a file, shown where the player types too. It is no
    terminal (``stream`` is not)."""

    def __init__(self, stream: TextIO, echo: TextIO) -> None:
        self.stream = stream
        self.echo = echo
        self.encoding = getattr(stream, "encoding", None) or "utf-8"

    def write(self, text: str) -> int:
        self.stream.write(text)
        target = getattr(self.echo, "encoding", None) or "ascii"
        self.echo.write(text if shows_unicode(target) else plain(text, target))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()
        self.echo.flush()

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        return self.stream.fileno()


def console(
    ascii_only: bool = False,
    stream: TextIO | None = None,
    unicode: bool = False,
    echo: TextIO | None = None,
) -> Console:
    """The game's console on ``stream`` (standard output): plain characters with ``ascii_only``
    or where the encoding or the locale cannot show the Unicode screen (the locale is not asked
    with ``unicode``; the encoding always is). ``NO_COLOR`` is honoured by rich, whose colours
    are never forced here. With ``echo`` (``player_terminal``), what it writes is also written
    there."""
    out = stream or sys.stdout
    encoding = getattr(out, "encoding", None)
    if echo is not None:
        out = Echoed(out, echo)
    if not unicode and not locale_shows_unicode():
        ascii_only = True
    if ascii_only or not shows_unicode(encoding):
        target = "ascii" if ascii_only or encoding is None else encoding
        return Console(file=PlainStream(out, target), highlight=False)  # type: ignore[arg-type]
    return Console(file=out, highlight=False)


def is_plain(console: Console) -> bool:
    """Whether ``console`` writes plain characters."""
    return isinstance(console.file, PlainStream)
