"""Every library the package imports outside its optional parts is a dependency it declares
(pyproject.toml's ``dependencies``; docs/DESIGN.md, Dependencies): an install of
``valtti`` alone must seat every player and serve every table."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "valtti"

#: The modules of the optional extras (docs/RESEARCH.md: `[research]`, `[train]`, `[ray]`): imported
#: only in ``valtti.research``, by the benchmark where installed, and by the Ray backends.
OPTIONAL = {"gymnasium", "pettingzoo", "pyspiel", "open_spiel", "torch", "ray"}
#: Modules that come with a declared distribution as part of it: FastAPI is Starlette and
#: Pydantic; uvicorn is h11, and ``uvicorn[standard]`` brings uvloop where it runs;
#: argon2-cffi's module is ``argon2``.
PART_OF = {
    "starlette": "fastapi",
    "pydantic": "fastapi",
    "pydantic_core": "fastapi",
    "h11": "uvicorn",
    "uvloop": "uvicorn",
    "argon2": "argon2_cffi",  # argon2-cffi's module
}


def declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = {re.split(r"[\[<>=!~ ;]", d, maxsplit=1)[0] for d in project["dependencies"]}
    return {name.lower().replace("-", "_") for name in names}


def imported() -> dict[str, set[str]]:
    """The third-party modules (top level) each file of the package imports, by module."""
    found: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top != "valtti" and top not in sys.stdlib_module_names:
                    found.setdefault(top, set()).add(str(path.relative_to(PACKAGE)))
    return found


def test_every_library_imported_outside_the_extras_is_a_declared_dependency() -> None:
    """numpy was imported by the players (the learned network, PIMC's equity and likelihood),
    which every table seats, but declared only in ``[research]``: it came with scipy."""
    have = declared()
    missing = {}
    for module, files in imported().items():
        if module in OPTIONAL:
            continue
        name = PART_OF.get(module, module).lower()
        if name not in have:
            missing[module] = sorted(files)
    assert not missing, missing


def test_the_extras_are_imported_only_where_they_are_optional() -> None:
    for module, files in imported().items():
        if module in OPTIONAL:
            for file in files:
                assert file.startswith("research/") or file in ("bench.py", "arena/run.py"), file
