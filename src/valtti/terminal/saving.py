"""Where the match in progress is kept: the autosave, and writing a record file safely.

The autosave is ``autosave.json`` in the user's data directory (``platformdirs``: on Linux
``~/.local/share/valtti/``, or ``$XDG_DATA_HOME/valtti/``). ``valtti play`` writes it after
every action and removes it when the match is over; ``valtti play --resume`` with no file
goes on with it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path

from platformdirs import user_data_path


class NotRegularFileError(OSError):
    """What is at the path is not a regular file: nothing is written over it."""


def autosave_path() -> Path:
    """The autosave's file (its directory is made when it is first written)."""
    return user_data_path("valtti", appauthor=False) / "autosave.json"


def is_file_there(path: Path) -> bool:
    """Whether a regular file is at ``path`` (a symbolic link counts as the file it names);
    ``False`` when nothing is, ``NotRegularFileError`` when something else is (a device, a
    folder, a pipe). ``OSError`` or ``ValueError`` (a NUL in it) when it cannot be looked at."""
    real = Path(os.path.realpath(path))
    if not real.exists():
        return False
    if not real.is_file():
        raise NotRegularFileError(errno.EEXIST, "not a regular file", str(path))
    return True


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: to a file beside it, then renamed over
    it, so that a crash in between leaves the old file. A symbolic link is written through (the
    file it names is replaced, the link kept), an existing file keeps its permissions (a new one
    gets the umask's), and what is not a regular file is left alone (``is_file_there``).
    ``OSError`` or ``ValueError`` if it cannot be written."""
    real = Path(os.path.realpath(path))
    if is_file_there(real):
        mode = stat.S_IMODE(real.stat().st_mode)
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    handle, temporary = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.", suffix=".tmp")
    try:
        os.chmod(temporary, mode)
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, real)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
