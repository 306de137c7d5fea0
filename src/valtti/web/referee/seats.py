"""Who may play a seat: seat tokens (kept only as hashes) and the rules of a nickname."""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from collections.abc import Iterable
from typing import Final

from valtti.engine import Seat
from valtti.web.db.rows import SeatRow

NICKNAME_MAX: Final = 24
#: The longest name of a table ("Anna's table", as its creator chose it).
TABLE_NAME_MAX: Final = 40
_ZERO_WIDTH_JOINER: Final = "\u200d"
_AROUND: Final = re.compile(r"^[\s\ufeff]+|[\s\ufeff]+$")


def token_hash(token: str) -> str:
    """How a token is kept: its SHA-256 in hex, so the store never holds one that works."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def trim_nickname(name: str) -> str:
    """``name`` without the spaces around it: Python's whitespace and the byte-order mark, the
    same as the page's ``trim()`` with what Python adds (static/common.js)."""
    return _AROUND.sub("", name)


def nickname_fault(name: str, most: int = NICKNAME_MAX, what: str = "a nickname") -> str | None:
    """Why ``name`` (trimmed) is no nickname, or ``None``: 1–24 characters of text (``what``
    of at most ``most``: a table's name, TABLE_NAME_MAX)."""
    if not 1 <= len(name) <= most:
        return f"{what} is 1 to {most} characters"
    # Control, format (bidirectional overrides), surrogate and line-breaking characters could
    # disguise a name or break the line it is shown on.
    hidden = ("Cc", "Cf", "Cs", "Zl", "Zp")
    if any(unicodedata.category(c) in hidden and c != _ZERO_WIDTH_JOINER for c in name):
        return f"{what} cannot hold control characters or line breaks"
    # Accents, joiners and spaces alone show as nothing one could tell apart.
    if not any(unicodedata.category(c)[0] in "LNPS" for c in name):
        return f"{what} needs a letter, digit, punctuation mark or symbol"
    return None


def seat_of(seats: Iterable[SeatRow], token: str) -> Seat | None:
    """The seat ``token`` plays, or ``None``."""
    digest = token_hash(token)
    for row in seats:
        if row.token_hash is not None and secrets.compare_digest(row.token_hash, digest):
            return row.seat
    return None


def is_token_of(token: str, digest: str) -> bool:
    """Whether ``token`` is the one kept as ``digest``, compared in constant time."""
    return secrets.compare_digest(token_hash(token), digest)
