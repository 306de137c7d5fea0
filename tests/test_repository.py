"""The repository holds sources, not run products: no tracked file has a control character in
its name, and none is a database (a SQLite file a run left behind). Skipped outside a git
checkout (an unpacked source archive)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Names of database files, and the first bytes of every SQLite database.
DATABASE_SUFFIXES = (".db", ".sqlite", ".sqlite3")
SQLITE_HEADER = b"SQLite format 3\x00"


def tracked() -> list[str]:
    """The checkout's tracked paths (``git ls-files -z``, names as they are, unquoted)."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    run = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=False
    )
    if run.returncode != 0 or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    return [name.decode("utf-8", "surrogateescape") for name in run.stdout.split(b"\0") if name]


def bad_name(name: str) -> bool:
    """Whether ``name`` has a control character (C0, DEL or C1)."""
    return any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in name)


def is_database(name: str, head: bytes) -> bool:
    """Whether the file ``name``, starting with ``head``, is a database."""
    return name.lower().endswith(DATABASE_SUFFIXES) or head.startswith(SQLITE_HEADER)


def head_of(path: Path) -> bytes:
    try:
        with path.open("rb") as file:
            return file.read(len(SQLITE_HEADER))
    except (FileNotFoundError, IsADirectoryError):  # deleted in the work tree, a submodule
        return b""


def test_the_checks_catch_what_they_are_for() -> None:
    assert bad_name("\x01x") and bad_name("\x01x.lock") and bad_name("a\nb") and bad_name("\x7f")
    assert not bad_name("tests/test_repository.py") and not bad_name("docs/kortit-ä.md")
    assert is_database("valtti.db", b"") and is_database("x.SQLITE3", b"")
    assert is_database("\x01x", SQLITE_HEADER + b"\x10\x00")
    assert not is_database("records/match.json", b'{"deals": [')
    assert not is_database("notes.txt", b"SQLite format 3")  # the header ends in a NUL


def test_no_tracked_name_has_a_control_character() -> None:
    bad = [name for name in tracked() if bad_name(name)]
    assert not bad, f"tracked files with a control character in the name: {bad!r}"


def test_no_tracked_file_is_a_database() -> None:
    found = [name for name in tracked() if is_database(name, head_of(ROOT / name))]
    assert not found, f"tracked databases (run products, not sources): {found!r}"


def test_the_licence_is_the_one_the_package_names() -> None:
    """A LICENSE file, MIT as the README and the package metadata say (issue 43)."""
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in text
    assert 'license = { file = "LICENSE" }' in (ROOT / "pyproject.toml").read_text()
    assert "MIT: [LICENSE](LICENSE)" in (ROOT / "README.md").read_text()
