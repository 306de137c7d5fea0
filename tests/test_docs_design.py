"""docs/DESIGN.md's module map names every module of the package, and nothing that is gone."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "valtti"
SOURCES = ("*.py", "*.pyx", "*.pxd", "*.pxi", "*.js")


def module_map() -> str:
    text = (ROOT / "docs" / "DESIGN.md").read_text(encoding="utf-8")
    section = text[text.index("## The module map") : text.index("## The layers")]
    (block,) = re.findall(r"```\n(.*?)```", section, re.S)
    return str(block)


def modules() -> set[str]:
    """The file names of the package's modules (a package's ``__init__`` and the database
    migrations, which Alembic names, aside)."""
    return {
        path.name
        for pattern in SOURCES
        for path in PACKAGE.rglob(pattern)
        if path.name != "__init__.py" and "migrations" not in path.parts
    }


def test_every_module_is_in_the_map() -> None:
    named = set(re.findall(r"[\w.-]+\.(?:py|pyx|pxd|pxi|js)\b", module_map()))
    assert not modules() - named, sorted(modules() - named)


def test_the_map_names_no_module_that_is_gone() -> None:
    named = set(re.findall(r"[\w.-]+\.(?:py|pyx|pxd|pxi|js)\b", module_map()))
    others = {
        path.name
        for folder in ("tools", "tests", "tests/web")
        for path in (ROOT / folder).glob("*.py")
    }
    assert not named - modules() - others, sorted(named - modules() - others)
