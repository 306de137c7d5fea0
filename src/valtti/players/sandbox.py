"""The sandbox an external bot runs in (docs/PROTOCOL.md, The sandbox).

With ``bwrap`` (bubblewrap, Linux) every copy of a bot gets namespaces of its own (processes,
mounts, network — none —, IPC, host name), a ``/proc`` that shows only its own processes, an
empty private ``/tmp``, home and ``/dev/shm`` of bounded size, and read-only views of only what it
needs: the system's programs and libraries (``/usr``, ``/etc``), the Python that runs valtti,
valtti itself, and the folders of the paths its command names. Nothing of the host's other
files, processes or memory is in view, so a bot cannot read the cards from the host, and two
copies cannot leave each other notes. The limits (``Limits``) are set on every process of it.

``none`` runs the bot as an ordinary program of the host's user: for bots one trusts.

A sandbox is a value (``Sandbox``): the host makes one for a run and every ``ExternalPlayer``
of the run starts its program through ``Sandbox.launch``.
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Final, Literal

__all__ = [
    "NO_SANDBOX",
    "SANDBOX",
    "SANDBOXES",
    "Launch",
    "Limits",
    "Sandbox",
    "SandboxError",
]

Kind = Literal["bwrap", "none"]
SANDBOXES: Final[tuple[Kind, ...]] = ("bwrap", "none")

#: The user a bot runs as when the host runs as root: one without a file of its own.
NOBODY: Final = 65534
#: What every sandbox shows of the system, read-only, where it exists: its programs, libraries
#: and configuration. The merged-/usr links (``/bin`` → ``usr/bin``) are made as links.
SYSTEM: Final = ("/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
#: The bot's home in the sandbox (an empty folder of its own).
HOME: Final = "/home/bot"
#: The environment a sandboxed bot starts with: none of the host's variables pass.
ENVIRONMENT: Final = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "HOME": HOME,
    "TMPDIR": "/tmp",
    "LANG": "C.UTF-8",
    "PYTHONDONTWRITEBYTECODE": "1",
}

INSTALL: Final = (
    "the sandbox needs bubblewrap (bwrap): on Debian or Ubuntu `sudo apt-get install "
    "bubblewrap`, on Fedora `sudo dnf install bubblewrap`, on Arch `sudo pacman -S bubblewrap`; "
    "or give --sandbox none for bots you trust"
)
ELSEWHERE: Final = (
    "the bwrap sandbox runs on Linux only: on {system} run each bot in a container of its own "
    "(docs/PROTOCOL.md, The sandbox) and give --sandbox none"
)


#: The limits' names, as ``Limits.parse`` reads them.
LIMITS: Final = ("memory", "processes", "cpu", "files")


class SandboxError(RuntimeError):
    """The sandbox cannot be made as asked: ``str()`` says why and what to do."""


@dataclass(frozen=True, slots=True)
class Limits:
    """What one sandboxed bot may use: each figure a limit on every process of it."""

    memory: int = 4096  #: MiB of address space a process may map
    processes: int = 64  #: processes and threads it may have at once
    cpu: int = 3600  #: seconds of CPU time a process may use (in one match)
    files: int = 256  #: MiB each of its /tmp, home and /dev/shm

    @classmethod
    def parse(cls, text: str) -> Limits:
        """``memory=2048,processes=32,cpu=600,files=64`` (MiB, count, seconds, MiB), any
        subset, the rest the defaults; ``ValueError`` naming what is wrong."""
        values: dict[str, int] = {}
        for part in (p.strip() for p in text.split(",")):
            if not part:
                continue
            name, equals, value = (s.strip() for s in part.partition("="))
            if name not in LIMITS or not equals:
                raise ValueError(
                    f"unknown bot limit {part!r}: give {', '.join(f'{n}=N' for n in LIMITS)}"
                )
            try:
                number = int(value)
            except ValueError:
                number = 0
            if number < 1:
                raise ValueError(f"the bot limit {name} must be a whole number above 0: {part!r}")
            values[name] = number
        return cls(**values)

    def __str__(self) -> str:
        return ",".join(f"{name}={getattr(self, name)}" for name in LIMITS)


@dataclass(frozen=True, slots=True)
class Launch:
    """How to start a bot's command: the program's arguments and its working folder."""

    args: tuple[str, ...]
    cwd: str | None = None
    env: dict[str, str] | None = None


@dataclass(frozen=True, slots=True)
class Sandbox:
    """Where and under what limits an external bot runs.

    ``private``: host paths no sandboxed bot may see (the run's records, state, seed file,
    log): a command whose folders would show one is refused (``SandboxError``).
    """

    kind: Kind = "bwrap"
    limits: Limits = field(default_factory=Limits)
    private: tuple[str, ...] = ()

    @classmethod
    def named(cls, kind: str, limits: Limits | None = None) -> Sandbox:
        """The sandbox ``kind`` (``bwrap`` or ``none``); ``ValueError`` for another."""
        for known in SANDBOXES:
            if kind == known:
                return cls(known, limits or Limits())
        raise ValueError(f"unknown sandbox {kind!r}: known are {', '.join(SANDBOXES)}")

    @property
    def confined(self) -> bool:
        return self.kind != "none"

    def keeping(self, *paths: Path | str | None) -> Sandbox:
        """This sandbox with ``paths`` (those not ``None``) kept from every bot too."""
        more = tuple(os.path.abspath(p) for p in paths if p is not None)
        return replace(self, private=tuple(dict.fromkeys((*self.private, *more))))

    def __str__(self) -> str:
        return self.kind if not self.confined else f"{self.kind} ({self.limits})"

    def launch(self, command: Sequence[str]) -> Launch:
        """How to start ``command`` in this sandbox; ``SandboxError`` when it cannot be."""
        if not self.confined:
            return Launch(tuple(command))
        if not sys.platform.startswith("linux"):
            raise SandboxError(ELSEWHERE.format(system=sys.platform))
        bwrap = shutil.which("bwrap")
        if bwrap is None:
            raise SandboxError(INSTALL)
        as_root = os.geteuid() == 0
        words = _absolute(command)
        if shutil.which(words[0], path=ENVIRONMENT["PATH"]) is None:
            raise SandboxError(
                f"no program {words[0]} to run in the sandbox (whose PATH is "
                f"{ENVIRONMENT['PATH']}): name it by its path"
            )
        shown = _folders(words)
        self._check_private(shown)
        if as_root:
            _check_readable(words, [*_runtime(), *shown])
        start = shown[0] if shown else "/tmp"  # the bot's own folder
        args = [bwrap, *_namespaces(as_root), *_system(), *self._scratch()]
        made = {"/tmp", "/dev", "/dev/shm", "/home", HOME}  # there already
        for folder in _outermost([*_runtime(), *shown]):
            for parent in reversed(Path(folder).parents):
                if str(parent) != "/" and str(parent) not in made:
                    args += ["--perms", "0755", "--dir", str(parent)]
                    made.add(str(parent))
            args += ["--ro-bind", folder, folder]
            made.add(folder)
        args += ["--remount-ro", "/", "--chdir", start, "--clearenv"]
        for name, value in ENVIRONMENT.items():
            args += ["--setenv", name, value]
        args += ["--", *self._limited(as_root), *words]
        return Launch(tuple(args))

    def _scratch(self) -> list[str]:
        """The bot's own writable folders: empty, of bounded size, gone with the sandbox."""
        size = str(self.limits.files << 20)
        args = []
        for folder in ("/tmp", "/dev/shm", HOME):
            args += ["--perms", "1777", "--size", size, "--tmpfs", folder]
        return args

    def _limited(self, as_root: bool) -> list[str]:
        """The commands that set the limits (``prlimit``) and, for a host run as root, change
        to the user nobody without any privilege (``setpriv``) before the bot's command."""
        limits = self.limits
        user = NOBODY if as_root else os.getuid()
        # RLIMIT_NPROC counts every process of the user on the machine: the limit is what the
        # user has now, and the bot's share on top.
        processes = _tasks_of(user) + limits.processes
        # Soft limit first (SIGXCPU, which the host reports as the CPU limit), then SIGKILL.
        args = [
            "prlimit",
            f"--as={limits.memory << 20}",
            f"--nproc={processes}",
            f"--cpu={limits.cpu}:{limits.cpu + 5}",
            f"--fsize={limits.files << 20}",
            "--core=0",
            "--",
        ]
        if as_root:
            args += [
                "setpriv",
                f"--reuid={NOBODY}",
                f"--regid={NOBODY}",
                "--clear-groups",
                "--inh-caps=-all",
                "--bounding-set=-all",
                "--no-new-privs",
                "--",
            ]
        return args

    def _check_private(self, shown: Sequence[str]) -> None:
        for folder in (*_runtime(), *shown):
            for private in self.private:
                if private == folder or Path(folder) in Path(private).parents:
                    raise SandboxError(
                        f"the sandbox would show the bot {folder}, which holds {private}: a "
                        "bot could read it there. Keep the bot in a folder of its own, apart "
                        "from the run's records, state, seed and log files"
                    )

    def describe_exit(self, status: int) -> str:
        """``"exited with status N"``, saying which signal ended the bot and, for the CPU
        limit's, that it was the limit."""
        number = -status if status < 0 else status - 128 if self.confined and status > 128 else 0
        if not 0 < number < signal.NSIG:
            return f"exited with status {status}"
        name = signal.Signals(number).name
        why = f"killed by {name}"
        if number == signal.SIGXCPU:
            why += f": it used its CPU time limit of {self.limits.cpu} s"
        return f"exited with status {status} ({why})"


SANDBOX: Final = Sandbox()
NO_SANDBOX: Final = Sandbox("none")


def _absolute(command: Sequence[str]) -> list[str]:
    """``command`` with every word that names an existing path made absolute: the bot starts
    in its own folder, and the paths it was given are taken from the host's working folder."""
    words = list(command)
    for i, word in enumerate(words):
        if (i > 0 or os.sep in word) and os.path.exists(word):
            words[i] = os.path.abspath(word)
    return words


def _folders(words: Sequence[str]) -> list[str]:
    """The folders of the paths ``words`` name (a file's folder, a folder itself), the bot's
    own (its program's) first."""
    found: list[str] = []
    shown = [*SYSTEM, *_runtime()]
    for word in words:
        if os.path.isabs(word) and os.path.exists(word):
            folder = word if os.path.isdir(word) else os.path.dirname(word)
            if not _covered(folder, shown) and folder not in found:
                found.append(folder)
    return found


def _runtime() -> list[str]:
    """What runs a Python bot as the host runs it: this Python, and valtti itself (a bot may
    use its engine)."""
    import valtti

    prefixes = {os.path.abspath(p) for p in (sys.base_prefix, sys.prefix)}
    prefixes.add(os.path.dirname(os.path.abspath(valtti.__file__)))
    return sorted(p for p in prefixes if not _covered(p, [s for s in SYSTEM if os.path.isdir(s)]))


def _covered(path: str, folders: Sequence[str]) -> bool:
    return any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders)


def _outermost(folders: Sequence[str]) -> list[str]:
    """``folders`` without those inside another of them, shortest first."""
    kept: list[str] = []
    for folder in sorted(set(folders), key=lambda f: (f.count("/"), f)):
        if not _covered(folder, kept):
            kept.append(folder)
    return kept


def _namespaces(as_root: bool) -> list[str]:
    # As root, bwrap mounts with root's rights and ``setpriv`` then leaves them; as another
    # user it needs a user namespace, in which the bot has no privilege over the host.
    user = [] if as_root else ["--unshare-user", "--cap-drop", "ALL"]
    return [
        "--die-with-parent",
        "--new-session",
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-net",
        "--unshare-uts",
        "--unshare-cgroup-try",
        *user,
        "--hostname",
        "bot",
        "--proc",
        "/proc",
        "--dev",
        "/dev",
    ]


def _system() -> list[str]:
    args = []
    for path in SYSTEM:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    return args


def _check_readable(words: Sequence[str], folders: Sequence[str]) -> None:
    """As root the bot runs as nobody: what it must read must be readable by every user."""
    for path in [*folders, *(w for w in words if os.path.isabs(w) and os.path.isfile(w))]:
        mode = os.stat(path).st_mode
        needed = 0o005 if os.path.isdir(path) else 0o004
        if mode & needed != needed:
            raise SandboxError(
                f"the sandbox runs the bot as the user nobody, who cannot read {path} (mode "
                f"{mode & 0o777:04o}): make it readable to all (chmod o+rX), or run valtti as "
                "a user other than root"
            )


def _tasks_of(user: int) -> int:
    """How many processes and threads ``user`` runs now on this machine."""
    import psutil

    count = 0
    for process in psutil.process_iter(["uids", "num_threads"]):
        uids = process.info["uids"]
        if uids is not None and uids.real == user:
            count += process.info["num_threads"] or 1
    return count
