"""Where matches are kept: the folder of saves, each save locked while a session has it open,
and writing a record file safely.

Each ``valtti play`` session keeps its match in a file of its own in the folder of saves,
``saves/`` in the user's data directory (``platformdirs``: on Linux
``~/.local/share/valtti/saves/``, or ``$XDG_DATA_HOME/valtti/saves/``), named by the time the
session started, its process id and a random suffix (``20250105-140312-4242-a3f9c1.json``), so
that two sessions, even started at once, never make the same file. A session holds its save
open (a ``Slot``) from its start to its end: an exclusive ``flock`` of a hidden lock file beside
it (``.20250105-140312-4242-a3f9c1.lock``, holding the process id), which the kernel drops when
the process ends, even killed. While it is held no other session writes the save, takes it on
or removes it; a session that resumes a kept match takes its lock, then reads it.

A save is written after each action once the player has made a decision (a session left before
that is thrown away, and kept nowhere), whole or not at all (``write_atomic``). A finished
match stays until its player leaves it. At most ``SAVES_KEPT`` matches are kept: the first
write of a new save removes the oldest beyond that (never one open in another session).

A file of the folder that cannot be read as a record (empty, not JSON, not a record, an illegal
action) is never taken for a match nor removed: it is set aside under a name that says so
(``….unreadable.json``), which no later write or listing touches. A hidden temporary file left
by a write that was cut short (the process killed in the middle), and a lock file nobody holds,
are removed by the next look at the folder. The single autosave of earlier versions
(``autosave.json`` and ``autosave.previous.json`` beside the folder) is moved into it when first
seen.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from platformdirs import user_data_path

from valtti.engine import Match
from valtti.engine.meta import RecordMeta
from valtti.engine.record import Record
from valtti.terminal import records

try:
    import fcntl
except ImportError:  # Windows: saves are not locked
    fcntl = None  # type: ignore[assignment]

#: How many matches are kept (the newest, by when they were last played).
SAVES_KEPT: Final = 20
#: The name of a save: when its session started, its process id, a random suffix.
SAVE_NAME: Final = re.compile(r"^\d{8}-\d{6}-\d+-[0-9a-f]+\.json$")
#: A temporary file of ``write_atomic`` beside a save: ``.NAME.json.RANDOM.tmp``.
TEMPORARY: Final = re.compile(r"^\.(\d{8}-\d{6}-\d+-[0-9a-f]+\.json)\.[^.]+\.tmp$")
#: A save's lock file: ``.NAME.lock``.
LOCK: Final = re.compile(r"^\.(\d{8}-\d{6}-\d+-[0-9a-f]+)\.lock$")
#: What a file that cannot be read is renamed to end with.
UNREADABLE: Final = ".unreadable.json"
#: Files of earlier versions' single autosave, in the data directory.
LEGACY: Final = ("autosave.json", "autosave.previous.json")
#: How often, and how many seconds apart, a save's lock is tried before it counts as held: a
#: look at the folder by another session holds a free lock for a moment.
TRIES: Final = 10
PAUSE: Final = 0.02


class NotRegularFileError(OSError):
    """What is at the path is not a regular file: nothing is written over it."""


class InUseError(Exception):
    """Another session has the save at ``path`` open; ``pid`` is its process id (0 where it
    cannot be told)."""

    def __init__(self, path: Path, pid: int) -> None:
        super().__init__(f"{path} is open in another valtti play (process {pid or '?'})")
        self.path = path
        self.pid = pid


def data_path() -> Path:
    """The user's data directory for valtti (made when something is first written there)."""
    return user_data_path("valtti", appauthor=False)


def lock_path(save: Path) -> Path:
    """The lock file of the save at ``save``: hidden, beside it."""
    return save.with_name(f".{save.stem}.lock")


@dataclass(frozen=True, slots=True)
class Kept:
    """A match in the folder of saves: its file, record and match, when it was last written
    (seconds since the epoch), and the process id of the session that has it open (``None``
    where none has; 0 where one has, whose id cannot be told)."""

    path: Path
    record: Record
    match: Match
    modified: float
    holder: int | None = None

    @property
    def meta(self) -> RecordMeta:
        return RecordMeta.from_dict(self.record.meta)

    @property
    def finished(self) -> bool:
        """Whether the match is over (kept until its player leaves it)."""
        return self.match.is_over()

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
    """What the folder of saves holds: the matches kept, the unfinished ones first, each group
    newest first (as ``valtti play --saves`` numbers them), and the files set aside by this
    look at it."""

    kept: list[Kept] = field(default_factory=list)
    set_aside: list[SetAside] = field(default_factory=list)

    @property
    def unfinished(self) -> list[Kept]:
        """The unfinished matches, newest first."""
        return [k for k in self.kept if not k.finished]

    def find(self, path: Path) -> Kept | None:
        """The kept match whose file is ``path``, if any."""
        for kept in self.kept:
            with contextlib.suppress(OSError, ValueError):
                if os.path.samefile(kept.path, path):
                    return kept
        return None


class Slot:
    """The save of one session at ``path``, which it alone writes: its lock is held from the
    first write (or from being taken, ``Saves.take``) until ``close`` (or the process ends)."""

    def __init__(self, saves: Saves, path: Path, descriptor: int | None = None) -> None:
        self.saves = saves
        self.path = path
        self._descriptor = descriptor
        self._closer = weakref.finalize(self, _let_go, lock_path(path), descriptor)

    @property
    def made(self) -> bool:
        """Whether the save is this session's: written by it, or taken on."""
        return self._descriptor is not None

    def write(self, text: str) -> list[float]:
        """Write ``text`` to the save (``write_atomic``). Its first write takes its lock and
        removes the oldest matches beyond ``SAVES_KEPT`` (``Saves.prune``): when each of those
        was last played. ``OSError`` or ``ValueError`` if it cannot be written."""
        removed: list[float] = []
        if self._descriptor is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            descriptor = _lock(lock_path(self.path), create=True)
            if descriptor is None:  # a name of this session's own: nobody else locks it
                raise InUseError(self.path, _holder(lock_path(self.path)) or 0)
            self._descriptor = descriptor
            self._closer.detach()
            self._closer = weakref.finalize(self, _let_go, lock_path(self.path), descriptor)
            removed = self.saves.prune(spare=self.path)
        write_atomic(self.path, text)
        return removed

    def remove(self) -> None:
        """Remove the save (its match left by the player); the lock is held until ``close``."""
        self.path.unlink(missing_ok=True)

    def close(self) -> None:
        """Let go of the save: another session may take it on."""
        self._closer()


def _let_go(lock: Path, descriptor: int | None) -> None:
    """Remove the lock file ``lock`` held by ``descriptor`` and close it: its lock ends."""
    if descriptor is None:
        return
    # Removed while it is held: whoever opened it meanwhile sees it is gone (``_lock``).
    with contextlib.suppress(OSError):
        os.unlink(lock)
    with contextlib.suppress(OSError):
        os.close(descriptor)


def _lock(path: Path, create: bool) -> int | None:
    """An open descriptor of the lock file ``path`` that holds its exclusive ``flock`` (made
    where it is missing with ``create``); ``None`` where another process holds it, or without
    ``create`` where there is none. The descriptor writes the process id in it."""
    flags = os.O_RDWR | (os.O_CREAT if create else 0)
    while True:
        try:
            descriptor = os.open(path, flags, 0o644)
        except FileNotFoundError:
            if create:
                raise
            return None
        try:
            if fcntl is not None:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            # Its holder removes a lock file as it lets go: one opened before that is no
            # longer the one at ``path``, and holding it keeps nobody out.
            if os.path.samestat(os.fstat(descriptor), os.stat(path)):
                os.ftruncate(descriptor, 0)
                os.write(descriptor, f"{os.getpid()}\n".encode())
                return descriptor
        except BlockingIOError:
            os.close(descriptor)
            return None
        except FileNotFoundError:
            pass
        except BaseException:
            os.close(descriptor)
            raise
        os.close(descriptor)
        if not create:
            return None


def holder(save: Path) -> int | None:
    """The process id of the session that has the save at ``save`` open (0 where it does not
    say), or ``None`` where none has."""
    return _holder(lock_path(save))


def _holder(lock: Path) -> int | None:
    """The process id of the session holding the lock file ``lock`` (0 where it does not say),
    or ``None`` where nobody does. Holds a free lock for a moment (``TRIES``)."""
    descriptor = _lock(lock, create=False)
    if descriptor is not None:
        os.close(descriptor)
        return None
    try:
        text = lock.read_text(encoding="ascii", errors="replace").strip()
    except FileNotFoundError:
        return None
    except OSError:
        return 0
    return int(text) if text.isdecimal() and len(text) < 12 else 0


class Saves:
    """The folder of saves: ``folder``, keeping at most ``limit`` matches; ``legacy``: files of
    an earlier single autosave to move into it when seen."""

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

    def new(self) -> Slot:
        """The save of a session with a new match: not made, nor locked, until first written."""
        return Slot(self, self.new_path())

    def take(self, path: Path) -> Slot:
        """Take on the save at ``path`` (a kept match resumed): its lock is this session's
        until the slot is closed, and nothing else writes it meanwhile, so that what is read
        from it after this is the match as it is. ``InUseError`` where another session has it
        open, ``FileNotFoundError`` where it is gone."""
        descriptor = self._lock(path)
        if not path.exists():
            _let_go(lock_path(path), descriptor)
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(path))
        return Slot(self, path, descriptor)

    def _lock(self, path: Path) -> int:
        """The lock of the save at ``path``, tried a few times; ``InUseError`` if held."""
        lock = lock_path(path)
        for attempt in range(TRIES):
            if attempt:
                time.sleep(PAUSE)
            descriptor = _lock(lock, create=True)
            if descriptor is not None:
                return descriptor
        raise InUseError(path, _holder(lock) or 0)

    def scan(self) -> Scan:
        """The matches kept, unfinished first, each group newest first, setting aside each file
        that cannot be read (an earlier version's autosave is moved in first) and removing the
        temporary files and locks that a killed session left. A file that vanishes while it is
        read (another session removed it) is left out."""
        aside: list[SetAside] = []
        for old in self.legacy:
            unreadable = self._adopt(old)
            if unreadable is not None:
                aside.append(unreadable)
        self._tidy()
        kept: list[Kept] = []
        for path in self._names():
            found = self.look(path)
            if isinstance(found, SetAside):
                aside.append(found)
            elif found is not None:
                kept.append(found)
        kept.sort(key=lambda k: (k.modified, k.path.name), reverse=True)
        kept.sort(key=lambda k: k.finished)  # stable: the unfinished first, each newest first
        return Scan(kept, aside)

    def look(self, path: Path) -> Kept | SetAside | None:
        """The match kept at ``path`` as it is now, and whether a session has it open; a file
        that cannot be read is set aside (what is returned); ``None`` where it is gone."""
        try:
            modified = path.stat().st_mtime
            match, record = records.read(path)
        except FileNotFoundError:
            return None
        except records.RecordError as e:
            if not path.exists():
                return None  # removed meanwhile by another session
            now = _set_aside(path)
            return None if now is None else SetAside(path, now, _without(path, e))
        return Kept(path, record, match, modified, _holder(lock_path(path)))

    def _names(self) -> list[Path]:
        try:
            return sorted(p for p in self.folder.iterdir() if SAVE_NAME.match(p.name))
        except OSError:  # no folder yet, or not a folder
            return []

    def _tidy(self) -> None:
        """Remove what a killed session left: a temporary file of a save nobody holds (its
        write was cut short), a lock file nobody holds."""
        try:
            names = [p.name for p in self.folder.iterdir()]
        except OSError:
            return
        for name in names:
            temporary, locking = TEMPORARY.match(name), LOCK.match(name)
            if temporary is not None:
                # Every write to a save is by the session holding its lock, made first.
                lock = lock_path(self.folder / temporary.group(1))
                descriptor = _lock(lock, create=False)
                if descriptor is not None or not lock.exists():
                    (self.folder / name).unlink(missing_ok=True)
                if descriptor is not None:
                    os.close(descriptor)
            elif locking is not None:
                # A lock nobody holds: its session was killed (the kernel let it go).
                _let_go(self.folder / name, _lock(self.folder / name, create=False))

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

    def discard(self, path: Path) -> None:
        """Remove the save at ``path``; ``InUseError`` where another session has it open."""
        descriptor = self._lock(path)
        path.unlink(missing_ok=True)
        _let_go(lock_path(path), descriptor)

    def prune(self, room: int = 1, spare: Path | None = None) -> list[float]:
        """Remove the oldest saves beyond ``limit - room`` to make room for ``room`` more,
        never ``spare`` nor one that another session has open (the next oldest goes instead):
        when each removed was last played."""
        dated = []
        for path in self._names():
            if path != spare:
                with contextlib.suppress(OSError):
                    dated.append((path.stat().st_mtime, path.name, path))
        dated.sort()
        removed: list[float] = []
        for modified, _name, path in dated:
            if len(dated) - len(removed) <= max(self.limit - room, 0):
                break
            descriptor = _lock(lock_path(path), create=True) if path.exists() else None
            if descriptor is None:
                continue  # open in another session, or gone: the next oldest goes
            with contextlib.suppress(OSError):
                path.unlink()
                removed.append(modified)
            _let_go(lock_path(path), descriptor)
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
    cannot be written. The file beside it is named before it is made, so that whatever
    interrupts the write (Ctrl-C, ``kill`` as the session takes it) removes it."""
    real = Path(os.path.realpath(path))
    if is_file_there(real):
        mode = stat.S_IMODE(real.stat().st_mode)
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    temporary = real.with_name(f".{real.name}.{secrets.token_hex(4)}.tmp")
    try:
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
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
