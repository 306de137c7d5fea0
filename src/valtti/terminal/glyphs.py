"""Characters the terminal can show: the suits, frames and marks in Unicode, or plain stand-ins.

A terminal whose encoding cannot show the suits (``PYTHONIOENCODING=latin-1``, a serial line),
or the ``--ascii`` option, gets a console that writes through ``PlainStream``: each suit becomes
its letter (``A♠`` → ``AS``), each mark one ASCII character of the same width, and rich draws
its frames with ASCII boxes (it does so for any console whose encoding is not UTF).
"""

from __future__ import annotations

import sys
import unicodedata
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


def console(ascii_only: bool = False, stream: TextIO | None = None) -> Console:
    """The game's console on ``stream`` (standard output): plain characters with ``ascii_only``
    or where its encoding cannot show the Unicode screen. ``NO_COLOR`` is honoured by rich."""
    out = stream or sys.stdout
    encoding = getattr(out, "encoding", None)
    if ascii_only or not shows_unicode(encoding):
        target = "ascii" if ascii_only or encoding is None else encoding
        return Console(file=PlainStream(out, target), highlight=False)  # type: ignore[arg-type]
    return Console(file=out, highlight=False)


def is_plain(console: Console) -> bool:
    """Whether ``console`` writes plain characters."""
    return isinstance(console.file, PlainStream)
