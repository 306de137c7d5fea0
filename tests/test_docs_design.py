"""docs/DESIGN.md's module map names every module of the package by its path, and nothing that is
gone.

The map is a tree: a folder (``name/``) or a file at the start of a line, two spaces deeper for
each level, what it is after it. A file named in what an entry says (``reasons.py what a hint
says``) lies in that entry's folder, or in the folder it is; one named with a slash
(``coach/review.py``) only points elsewhere and lists nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "valtti"
SOURCES = ("*.py", "*.pyx", "*.pxd", "*.pxi", "*.js")
FILE = r"[\w.-]+\.(?:py|pyx|pxd|pxi|js)"
#: An entry: its indent, its name (a folder ends in a slash) and what it is.
ENTRY = re.compile(rf"^(?P<indent> *)(?P<name>[\w./-]+/|{FILE})(?:\s+(?P<text>.*))?$")


def module_map() -> str:
    text = (ROOT / "docs" / "DESIGN.md").read_text(encoding="utf-8")
    section = text[text.index("## The module map") : text.index("## The layers")]
    (block,) = re.findall(r"```\n(.*?)```", section, re.S)
    return str(block)


def mapped(block: str) -> set[str]:
    """Every file the map lists, as a path from the repository's root."""
    folders: list[tuple[int, str]] = []  # (indent, path) of the folders open, outermost first
    here = ""  # the folder of the entry being read
    depth = -1  # the indent of that entry's name
    found: set[str] = set()
    for line in block.splitlines():
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        entry = ENTRY.match(line)
        # A line indented as an entry's name is an entry; a deeper one goes on with the last.
        if entry is not None and (depth < 0 or indent <= depth + 2):
            while folders and folders[-1][0] >= indent:
                folders.pop()
            parent = folders[-1][1] if folders else ""
            name, depth = entry["name"], indent
            path = f"{parent}{name}"
            if name.endswith("/"):
                folders.append((indent, path))
                here = path
            else:
                found.add(path)
                here = parent
            text = entry["text"] or ""
        else:
            text = line
        for mention in re.findall(rf"(?<![\w/.-]){FILE}(?![\w/])", text):
            found.add(f"{here}{mention}")
    return found


def modules() -> set[str]:
    """The package's modules by path (a package's ``__init__`` and the database migrations,
    which Alembic names, aside)."""
    return {
        path.relative_to(ROOT).as_posix()
        for pattern in SOURCES
        for path in PACKAGE.rglob(pattern)
        if path.name != "__init__.py" and "migrations" not in path.parts
    }


def test_every_module_is_in_the_map() -> None:
    missing = modules() - mapped(module_map())
    assert not missing, sorted(missing)


def test_the_map_names_no_module_that_is_gone() -> None:
    gone = {path for path in mapped(module_map()) if not (ROOT / path).is_file()}
    assert not gone, sorted(gone)


def test_a_file_is_known_by_its_folder() -> None:
    block = """\
src/valtti/
  engine/          rules
    cards.py       seats; actions.py the tokens,
                   read by match.py (and players/base.py, a pointer)
  players/         the players: base.py, search.py
    models/        data
  bench.py         the benchmark
tools/
  x.py             a tool
"""
    assert mapped(block) == {
        "src/valtti/engine/cards.py",
        "src/valtti/engine/actions.py",
        "src/valtti/engine/match.py",
        "src/valtti/players/base.py",
        "src/valtti/players/search.py",
        "src/valtti/bench.py",
        "tools/x.py",
    }
