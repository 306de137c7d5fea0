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


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: to a file beside it, then renamed over
    it, so that a crash in between leaves the old file. A symbolic link is written through (the
    file it names is replaced, the link kept), an existing file keeps its permissions, and
    anything there that is not a regular file (a device, a folder, a pipe) is left alone:
    ``NotRegularFileError``. ``OSError`` if it cannot be written."""
    path = Path(os.path.realpath(path))
    mode = None
    if path.exists() or path.is_symlink():
        if not path.is_file():
            raise NotRegularFileError(errno.EEXIST, "not a regular file", str(path))
        mode = stat.S_IMODE(path.stat().st_mode)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        if mode is not None:
            os.chmod(temporary, mode)
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
