"""Where unfinished matches are kept: the folder of saves, and writing a record file safely.

Each ``valtti play`` session keeps its match in a file of its own in the folder of saves,
``saves/`` in the user's data directory (``platformdirs``: on Linux
``~/.local/share/valtti/saves/``, or ``$XDG_DATA_HOME/valtti/saves/``), named by the time the
session started, its process id and a random suffix (``20250105-140312-4242-a3f9c1.json``), so
that two sessions, even started at once, never write the same file. It is written after every
action, whole or not at all (``write_atomic``), and removed when the match is over. At most
``SAVES_KEPT`` unfinished matches are kept: a new one removes the oldest beyond that.

A file of the folder that cannot be read as a record (not JSON, not a record, an illegal
action) is never taken for a match nor removed: it is set aside under a name that says so
(``….unreadable.json``), which no later write or listing touches. The single autosave of
earlier versions (``autosave.json`` and ``autosave.previous.json`` beside the folder) is
moved into it when first seen.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from platformdirs import user_data_path

from valtti.engine import Match
from valtti.engine.meta import RecordMeta
from valtti.engine.record import Record
from valtti.terminal import records

#: How many unfinished matches are kept (the newest, by when they were last played).
SAVES_KEPT: Final = 20
#: The name of a save: when its session started, its process id, a random suffix.
SAVE_NAME: Final = re.compile(r"^\d{8}-\d{6}-\d+-[0-9a-f]+\.json$")
#: What a file that cannot be read is renamed to end with.
UNREADABLE: Final = ".unreadable.json"
#: Files of earlier versions' single autosave, in the data directory.
LEGACY: Final = ("autosave.json", "autosave.previous.json")


class NotRegularFileError(OSError):
    """What is at the path is not a regular file: nothing is written over it."""


def data_path() -> Path:
    """The user's data directory for valtti (made when something is first written there)."""
    return user_data_path("valtti", appauthor=False)


@dataclass(frozen=True, slots=True)
class Kept:
    """An unfinished match in the folder of saves: its file, record and match, and when it was
    last written (seconds since the epoch)."""

    path: Path
    record: Record
    match: Match
    modified: float

    @property
    def meta(self) -> RecordMeta:
        return RecordMeta.from_dict(self.record.meta)

    def is_same_match(self, record: Record) -> bool:
        """Whether ``record`` is this match as it is now: the same rules, seed and moves."""
        mine = self.record.to_dict()
        theirs = record.to_dict()
        return (
            mine.get("variant") == theirs.get("variant")
            and mine["deals"] == theirs["deals"]
            and self.meta.seed == RecordMeta.from_dict(record.meta).seed
        )


@dataclass(frozen=True, slots=True)
class SetAside:
    """A file that could not be read: where it was, the name it has now, and why (in the
    active language)."""

    path: Path
    now: Path
    error: str


@dataclass(frozen=True, slots=True)
class Scan:
    """What the folder of saves holds: the unfinished matches, newest first, and the files set
    aside by this look at it."""

    kept: list[Kept] = field(default_factory=list)
    set_aside: list[SetAside] = field(default_factory=list)

    def find(self, path: Path) -> Kept | None:
        """The kept match whose file is ``path``, if any."""
        for kept in self.kept:
            with contextlib.suppress(OSError, ValueError):
                if os.path.samefile(kept.path, path):
                    return kept
        return None


class Saves:
    """The folder of saves: ``folder``, keeping at most ``limit`` unfinished matches;
    ``legacy``: files of an earlier single autosave to move into it when seen."""

    def __init__(self, folder: Path, limit: int = SAVES_KEPT, legacy: Sequence[Path] = ()) -> None:
        self.folder = folder
        self.limit = limit
        self.legacy = tuple(legacy)

    @classmethod
    def default(cls) -> Saves:
        """``saves/`` in the user's data directory, taking in an earlier version's autosave."""
        data = data_path()
        return cls(data / "saves", legacy=[data / name for name in LEGACY])

    def new_path(self, when: float | None = None, pid: int | None = None) -> Path:
        """A file of its own for a session starting now (or at ``when``, by process ``pid``):
        nothing else writes it. Not made until the session first writes."""
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(when))
        pid = os.getpid() if pid is None else pid
        return self.folder / f"{stamp}-{pid}-{secrets.token_hex(3)}.json"

    def scan(self) -> Scan:
        """The unfinished matches, newest first, setting aside each file that cannot be read
        (an earlier version's autosave is moved in first). A file that vanishes while it is
        read (another session took it) is left out; a finished match's file is left alone."""
        aside: list[SetAside] = []
        for old in self.legacy:
            unreadable = self._adopt(old)
            if unreadable is not None:
                aside.append(unreadable)
        kept: list[Kept] = []
        try:
            names = sorted(p for p in self.folder.iterdir() if SAVE_NAME.match(p.name))
        except OSError:  # no folder yet, or not a folder
            names = []
        for path in names:
            try:
                modified = path.stat().st_mtime
            except OSError:
                continue
            try:
                match, record = records.read(path)
            except records.RecordError as e:
                if not path.exists():
                    continue  # taken or removed meanwhile by another session
                now = _set_aside(path)
                if now is not None:
                    aside.append(SetAside(path, now, _without(path, e)))
                continue
            if not match.is_over():
                kept.append(Kept(path, record, match, modified))
        kept.sort(key=lambda k: (k.modified, k.path.name), reverse=True)
        return Scan(kept, aside)

    def _adopt(self, old: Path) -> SetAside | None:
        """Move an earlier version's autosave into the folder, or set it aside if it cannot be
        read (what is returned); a finished match in it is left where it is."""
        try:
            modified = old.stat().st_mtime
        except OSError:
            return None
        try:
            match, _record = records.read(old)
        except records.RecordError as e:
            now = _set_aside(old)
            return None if now is None else SetAside(old, now, _without(old, e))
        if match.is_over():
            return None
        with contextlib.suppress(OSError):
            self.folder.mkdir(parents=True, exist_ok=True)
            os.rename(old, self.new_path(modified, pid=0))
        return None

    def claim(self, kept: Kept) -> Path:
        """The file a session that resumes ``kept`` writes: ``kept``'s own, renamed to a new
        name of the session's. If another session took it first, that one keeps it and this
        session writes a new file: the two never write the same one."""
        new = self.new_path()
        with contextlib.suppress(OSError):
            os.rename(kept.path, new)
        return new

    def discard(self, kept: Kept) -> None:
        """Remove ``kept``'s file."""
        kept.path.unlink(missing_ok=True)

    def prune(self, kept: Sequence[Kept], room: int = 1) -> list[Kept]:
        """Remove the oldest of ``kept`` (newest first) beyond ``limit - room`` to make room
        for ``room`` more; the ones removed."""
        removed = list(kept[max(self.limit - room, 0) :])
        for old in removed:
            with contextlib.suppress(OSError):
                old.path.unlink(missing_ok=True)
        return removed


def _without(path: Path, error: records.RecordError) -> str:
    """What is wrong with the record at ``path``, without its path in front."""
    return str(error).removeprefix(f"{path}: ")


def _set_aside(path: Path) -> Path | None:
    """Rename ``path`` to a name ending in ``UNREADABLE`` that no file has; the new name, or
    ``None`` if it cannot be renamed (or another session renamed it first)."""
    stem = path.name.removesuffix(".json")
    for n in range(1, 100):
        now = path.with_name(f"{stem}{'' if n == 1 else f'-{n}'}{UNREADABLE}")
        if now.exists():
            continue
        try:
            os.rename(path, now)
        except OSError:
            return None
        return now
    return None


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
    """Write ``text`` to ``path`` whole or not at all: to a file beside it, flushed and synced
    to the disk, then renamed over it (and the folder synced), so that a crash in between leaves
    the old file. A symbolic link is written through (the file it names is replaced, the link
    kept), an existing file keeps its permissions (a new one gets the umask's), and what is not
    a regular file is left alone (``is_file_there``). ``OSError`` or ``ValueError`` if it
    cannot be written."""
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
    _sync_folder(real.parent)


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable where the system allows (not on Windows)."""
    with contextlib.suppress(OSError, AttributeError):
        descriptor = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
