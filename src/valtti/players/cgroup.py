"""A control group of the kernel for one sandboxed bot: a limit on the memory and the processes
of the whole bot, however many processes it forks, and its CPU time (``players.sandbox``).

A host that runs as root and may write the machine's control groups gets one for each bot: on
cgroup v2 under ``/sys/fs/cgroup/valtti``, on v1 beside the host's own groups of the memory,
pids and cpuacct hierarchies (so that the machine's own limits on the host hold for its bots).
Elsewhere ``make`` gives ``None`` and the sandbox falls back on limits per process.
"""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Final

#: The v1 hierarchies a bot's group needs, by the controller that names each.
V1: Final = ("memory", "pids", "cpuacct")
#: The v2 controllers a bot's group needs.
V2: Final = ("memory", "pids")
#: The folder of the bots' groups under a v2 hierarchy's root.
FOLDER: Final = "valtti"

#: A control-group mount: its file system type, mount point, root and super options.
Mount = tuple[str, str, str, set[str]]
#: Seconds after which an empty bot's group is taken to be left by a host that was killed.
STALE: Final = 3600.0


@dataclass(frozen=True, slots=True)
class Cgroup:
    """The folders of one bot's control group: one on v2, one a hierarchy on v1."""

    folders: tuple[Path, ...]
    version: int

    def procs(self) -> tuple[str, ...]:
        """The files a process writes its number to, to join the group (every hierarchy's)."""
        return tuple(str(folder / "cgroup.procs") for folder in self.folders)

    def cpu_seconds(self) -> float:
        """CPU seconds the group's processes have used, those that have ended included."""
        try:
            if self.version == 2:
                stat = (self.folders[0] / "cpu.stat").read_text()
                usec = next(
                    line.split()[1] for line in stat.splitlines() if line.startswith("usage_usec")
                )
                return int(usec) / 1e6
            return int(self._file("cpuacct.usage").read_text()) / 1e9
        except (OSError, StopIteration, ValueError):
            return 0.0

    def out_of_memory(self) -> bool:
        """Whether the kernel has killed a process of the group for want of memory."""
        try:
            if self.version == 2:
                events = (self.folders[0] / "memory.events").read_text()
                return any(
                    line.split()[0] == "oom_kill" and int(line.split()[1]) > 0
                    for line in events.splitlines()
                )
            oom = self._file("memory.oom_control").read_text()
            return any(
                line.split()[0] == "oom_kill" and int(line.split()[1]) > 0
                for line in oom.splitlines()
            )
        except (OSError, IndexError, ValueError):
            return False

    def remove(self) -> None:
        """Remove the group's folders once its processes have gone (waiting a little for the
        kernel to see them gone); what cannot be removed is left."""
        for folder in self.folders:
            for _ in range(50):
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:  # busy: its last processes are still being reaped
                    time.sleep(0.02)

    def _file(self, name: str) -> Path:
        """The control file ``name`` in whichever of the group's folders has it."""
        return next(f for f in self.folders if (f / name).exists()) / name


def make(name: str, memory: int, processes: int) -> Cgroup | None:
    """A new group ``name`` limited to ``memory`` bytes (swap none) and ``processes`` tasks, or
    ``None`` where this host may not make one (not root, no writable control groups)."""
    if os.geteuid() != 0:
        return None
    mounts = _mounts()
    return _v2(mounts, name, memory, processes) or _v1(mounts, name, memory, processes)


def _mounts() -> list[Mount]:
    """The control-group mounts of this process's mount namespace."""
    found = []
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return []
    for line in lines:
        left, _, right = line.partition(" - ")
        fields, rest = left.split(), right.split()
        if len(fields) >= 5 and len(rest) >= 3 and rest[0] in ("cgroup", "cgroup2"):
            found.append((rest[0], fields[4], fields[3], set(rest[2].split(","))))
    return found


def _v2(
    mounts: list[tuple[str, str, str, set[str]]], name: str, memory: int, processes: int
) -> Cgroup | None:
    root = next((Path(point) for kind, point, _, _ in mounts if kind == "cgroup2"), None)
    if root is None:
        return None
    try:
        available = set((root / "cgroup.controllers").read_text().split())
        if not set(V2) <= available:
            return None
        enable = " ".join(f"+{c}" for c in V2)
        (root / "cgroup.subtree_control").write_text(enable)
        parent = root / FOLDER
        parent.mkdir(exist_ok=True)
        (parent / "cgroup.subtree_control").write_text(enable)
        folder = parent / name
        folder.mkdir()
    except OSError:
        return None
    _sweep(parent)
    group = Cgroup((folder,), 2)
    try:
        (folder / "memory.max").write_text(str(memory))
        with contextlib.suppress(FileNotFoundError):
            (folder / "memory.swap.max").write_text("0")
        (folder / "pids.max").write_text(str(processes))
    except OSError:
        group.remove()
        return None
    return group


def _v1(
    mounts: list[tuple[str, str, str, set[str]]], name: str, memory: int, processes: int
) -> Cgroup | None:
    own = _own_v1()
    folders: list[Path] = []
    for controller in V1:
        mount = next(
            ((point, root) for kind, point, root, options in mounts
             if kind == "cgroup" and controller in options),
            None,
        )  # fmt: skip
        path = own.get(controller)
        if mount is None or path is None or not path.startswith(mount[1]):
            return None
        folder = Path(mount[0]) / path[len(mount[1]) :].lstrip("/") / f"{FOLDER}-{name}"
        if folder not in folders:
            folders.append(folder)
    group = Cgroup(tuple(folders), 1)
    try:
        for folder in folders:
            _sweep(folder.parent, f"{FOLDER}-")
            folder.mkdir()
        group._file("memory.limit_in_bytes").write_text(str(memory))
        with contextlib.suppress(StopIteration, OSError):  # no swap accounting: none to limit
            group._file("memory.memsw.limit_in_bytes").write_text(str(memory))
        group._file("pids.max").write_text(str(processes))
    except (OSError, StopIteration):
        group.remove()
        return None
    return group


def _sweep(parent: Path, prefix: str = "") -> None:
    """Remove the bots' groups in ``parent`` (named ``prefix``…) that a host killed before it
    could left behind: empty, and older than ``STALE``. A newer one may be another host's, its
    bot about to join it."""
    now = time.time()
    for folder in parent.glob(f"{prefix}*"):
        with contextlib.suppress(OSError):  # not empty, gone, or not a group
            if folder.is_dir() and now - folder.stat().st_mtime > STALE:
                folder.rmdir()


def _own_v1() -> dict[str, str]:
    """This process's group in each v1 hierarchy, by controller."""
    own: dict[str, str] = {}
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return own
    for line in lines:
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(","):
            if controller:
                own[controller] = path
    return own
