"""The package's layers (docs/DESIGN.md): each imports only those below it, no circles.

Every module of ``src/valtti`` is read with ``ast``, and every import counts, wherever it
stands: one inside a function is a dependency all the same, and so is one under
``if TYPE_CHECKING:``, which never runs but still ties the two modules together: a circle through
it is a circle (the two are one idea split in two files, or a type sits in the wrong one).
A compiled module (Cython) is read by pattern: its ``.pyx``,
its ``.pxd`` and every ``.pxi`` it includes, ``import`` and ``cimport`` alike; an included file
belongs to the module that includes it, so it must lie in that module's own folder (a higher
layer's code kept under ``engine/`` and included from above fails), and one that nothing
includes is named too.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"

#: Units (a subpackage, or a module at the top of the package) by layer, lowest first.
LAYERS: tuple[tuple[str, ...], ...] = (
    # the package itself (its name and version) and its one catalogue of words (gettext)
    ("valtti", "valtti.locale"),
    ("valtti.engine",),
    ("valtti.players",),
    ("valtti.coach",),  # a hint's reasons and a review of play, from the players' searches
    ("valtti.table",),
    # the front ends; the load test, a client of the web server over the network
    ("valtti.terminal", "valtti.web", "valtti.arena", "valtti.research", "valtti.loadtest"),
    # The command line, which starts each front end, and the benchmark, which measures them.
    ("valtti.cli", "valtti.__main__", "valtti.bench"),
)
FRONT_ENDS = set(LAYERS[5])

PYX_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+c?import\b|c?import\s+([\w.]+))", re.M)
PYX_INCLUDE = re.compile(r"^\s*include\s+[\"']([^\"']+)[\"']", re.M)
#: The suffixes of a compiled module's own files (a .pxi is included, never a module itself).
CYTHON = (".pyx", ".pxd")


@dataclass(frozen=True, slots=True)
class Edge:
    source: str
    target: str
    runs: bool  #: not only for the type checker (``TYPE_CHECKING``)


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking_only(tree: ast.AST) -> set[int]:
    """The ids of the import nodes under ``if TYPE_CHECKING:``."""
    hidden: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                hidden.update(id(n) for n in ast.walk(inner))
    return hidden


def cython_sources(path: Path) -> list[Path]:
    """A compiled module's files: its ``.pyx`` and ``.pxd`` (whichever exist) and, in turn,
    every file they include."""
    todo = [p for p in (path.with_suffix(s) for s in CYTHON) if p.exists()]
    seen: list[Path] = []
    while todo:
        source = todo.pop(0)
        if source in seen:
            continue
        seen.append(source)
        text = source.read_text(encoding="utf-8")
        todo.extend(source.parent / m.group(1) for m in PYX_INCLUDE.finditer(text))
    return seen


def imports_of(name: str, path: Path, modules: set[str]) -> list[tuple[str, bool]]:
    """The package's modules that ``name`` (at ``path``) imports, each with whether it runs."""
    is_package = path.name.startswith("__init__.")
    found: list[tuple[str, bool]] = []
    if path.suffix in CYTHON:
        for source in cython_sources(path):
            for match in PYX_IMPORT.finditer(source.read_text(encoding="utf-8")):
                found.append((match.group(1) or match.group(2), True))
    else:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        hidden = _type_checking_only(tree)
        for node in ast.walk(tree):
            runs = id(node) not in hidden
            if isinstance(node, ast.Import):
                found.extend((alias.name, runs) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    here = name.split(".") if is_package else name.split(".")[:-1]
                    up = here[: len(here) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    found.append((sub if sub in modules else base, runs))
    out = []
    for target, runs in found:
        # ``import valtti.engine.cards`` names a module; a name inside one counts as the module.
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target and target != name:
            out.append((target, runs))
    return out


def read_package(root: Path) -> tuple[set[str], list[Edge]]:
    paths = {
        module_name(p, root.parent): p
        for p in sorted(root.rglob("*"))
        if p.suffix in (".py", *CYTHON) and "__pycache__" not in p.parts
    }
    modules = set(paths)
    edges = [
        Edge(name, target, runs)
        for name, path in paths.items()
        for target, runs in imports_of(name, path, modules)
    ]
    return modules, edges


def unit_of(module: str) -> str:
    """The unit of the layers a module belongs to: the longest unit that is or contains it."""
    units = [u for layer in LAYERS for u in layer]
    for unit in sorted(units, key=len, reverse=True):
        if module == unit or (unit != "valtti" and module.startswith(unit + ".")):
            return unit
    return module if module == "valtti" else module.split(".")[0] + "?"


def layer_of(unit: str) -> int | None:
    return next((i for i, layer in enumerate(LAYERS) if unit in layer), None)


def circles(nodes: Iterable[str], edges: Iterable[tuple[str, str]]) -> list[list[str]]:
    """The groups of nodes that reach each other (more than one node each), sorted."""
    after: dict[str, set[str]] = {n: set() for n in nodes}
    for a, b in edges:
        if a != b:
            after.setdefault(a, set()).add(b)
            after.setdefault(b, set())
    reach = {}
    for start in after:
        seen, todo = set(), [start]
        while todo:
            for nxt in after[todo.pop()] - seen:
                seen.add(nxt)
                todo.append(nxt)
        reach[start] = seen
    groups = {frozenset([n, *(m for m in reach[n] if n in reach[m])]) for n in after}
    return sorted(sorted(g) for g in groups if len(g) > 1)


def wrong_way(modules: Iterable[str], edges: Iterable[Edge]) -> list[str]:
    """Every import against the layers, as ``"a -> b: why"``; empty when there is none."""
    problems = []
    for module in modules:
        if layer_of(unit_of(module)) is None:
            problems.append(f"{module}: in no layer (add its unit to LAYERS)")
    for e in edges:
        source, target = unit_of(e.source), unit_of(e.target)
        low, high = layer_of(target), layer_of(source)
        if source == target or low is None or high is None:
            continue
        if low > high:
            problems.append(f"{e.source} -> {e.target}: layer {high} imports layer {low}")
        elif source in FRONT_ENDS and target in FRONT_ENDS:
            problems.append(f"{e.source} -> {e.target}: a front end imports another")
        elif source == "valtti.engine" and target != "valtti.engine":
            problems.append(f"{e.source} -> {e.target}: the engine imports outside it")
    return problems


def stray_includes(root: Path) -> list[str]:
    """Every included file that lies outside the folder of the module including it, and every
    ``.pxi`` that no module includes; empty when there is none."""
    problems = []
    included: set[Path] = set()
    for path in sorted(root.rglob("*")):
        if path.suffix not in CYTHON or "__pycache__" in path.parts:
            continue
        for source in cython_sources(path)[1:]:
            resolved = source.resolve()
            included.add(resolved)
            if source.suffix == ".pxi" and resolved.parent != path.resolve().parent:
                where = resolved.relative_to(root.resolve().parent)
                problems.append(
                    f"{module_name(path, root.parent)} includes {where}: another folder"
                )
    for path in sorted(root.rglob("*.pxi")):
        if path.resolve() not in included:
            problems.append(f"{path.relative_to(root.parent)}: included by no module")
    return problems


def package_edges(edges: Iterable[Edge]) -> list[tuple[str, str]]:
    return [(unit_of(e.source), unit_of(e.target)) for e in edges]


@pytest.fixture(scope="module")
def package() -> tuple[set[str], list[Edge]]:
    return read_package(SRC / "valtti")


def test_the_whole_package_is_read(package: tuple[set[str], list[Edge]]) -> None:
    modules, edges = package
    for name in (
        "valtti.engine._deal",
        "valtti.table.driver",
        "valtti.web.referee.room",
        "valtti.cli",
    ):
        assert name in modules
    pairs = {(e.source, e.target) for e in edges}
    assert ("valtti.engine.match", "valtti.engine._deal") in pairs  # a .py importing the .pyx
    assert ("valtti.engine._deal", "valtti.engine.observation") in pairs  # a lazy import
    assert ("valtti.players._heuristic", "valtti.engine._deal") in pairs  # a cimport
    assert ("valtti.players._heuristic", "valtti.engine.match") in pairs  # in the .pyx itself
    assert ("valtti.research._batch", "valtti.players._heuristic") in pairs
    assert ("valtti.arena.match", "valtti.table") in pairs
    assert ("valtti.terminal.game", "valtti.table") in pairs


def test_no_module_imports_itself_round_a_circle(package: tuple[set[str], list[Edge]]) -> None:
    modules, edges = package
    assert circles(modules, [(e.source, e.target) for e in edges]) == []


def test_no_package_imports_itself_round_a_circle(package: tuple[set[str], list[Edge]]) -> None:
    modules, edges = package
    assert circles({unit_of(m) for m in modules}, package_edges(edges)) == []


def test_each_layer_imports_only_those_below_it(package: tuple[set[str], list[Edge]]) -> None:
    modules, edges = package
    assert wrong_way(modules, edges) == []


#: The web's table referee, and what it may import of the web besides itself: the store.
REFEREE = "valtti.web.referee"
REFEREE_MAY_IMPORT = ("valtti.web.referee", "valtti.web.db")


def http_in_the_referee(edges: Iterable[Edge]) -> list[str]:
    """Every import from the web's table referee of the HTTP adapter around it (the app, its
    routes, their dependencies and message models), as ``"a -> b"``."""

    def within(module: str, unit: str) -> bool:
        return module == unit or module.startswith(unit + ".")

    return [
        f"{e.source} -> {e.target}"
        for e in edges
        if within(e.source, REFEREE)
        and within(e.target, "valtti.web")
        and not any(within(e.target, unit) for unit in REFEREE_MAY_IMPORT)
    ]


def test_the_web_referee_knows_no_http(package: tuple[set[str], list[Edge]]) -> None:
    modules, edges = package
    assert {"valtti.web.referee.room", "valtti.web.routes.websocket"} <= modules
    assert http_in_the_referee(edges) == []
    assert http_in_the_referee([Edge("valtti.web.referee.room", "valtti.web.deps", True)]) == [
        "valtti.web.referee.room -> valtti.web.deps"
    ]


def test_each_compiled_module_includes_only_its_own_folders_files() -> None:
    assert stray_includes(SRC / "valtti") == []


def _read(files: Mapping[str, str], tmp_path: Path) -> tuple[set[str], list[Edge]]:
    for relative, text in files.items():
        path = tmp_path / "valtti" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return read_package(tmp_path / "valtti")


def test_the_checks_find_circles_and_imports_from_above(tmp_path: Path) -> None:
    modules, edges = _read(
        {
            "__init__.py": "",
            "engine/__init__.py": "",
            "engine/a.py": "def f():\n    from valtti.players import b\n",  # lazy, from above
            "engine/c.py": "from . import d\n",
            # a circle only through an import for the type checker
            "engine/t.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
            "    from valtti.engine import u\n",
            "engine/u.py": "from valtti.engine.t import T\n",
            "engine/d.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
            "    from valtti.engine import c\nimport valtti.engine.e\n",
            "engine/e.pyx": "from libc.stdint cimport uint64_t\nfrom valtti.engine.c import X\n",
            # a compiled module's pxd, and what its include imports, count as the module's
            "engine/f.pyx": 'include "_f.pxi"\n',
            "engine/f.pxd": "from valtti.engine.e cimport Y\n",
            "engine/_f.pxi": "from valtti.players.g import Z\n",
            "engine/_unused.pxi": "",
            "players/__init__.py": "",
            "players/b.py": "from valtti.engine.a import f\n",
            # a players' module whose code lies in the engine's folder
            "players/g.pyx": 'from valtti.engine.f cimport W\ninclude "../engine/_h.pxi"\n',
            "engine/_h.pxi": "",
            "terminal/__init__.py": "from valtti.web import g\n",
            "web/g.py": "",
            "extra/h.py": "",
        },
        tmp_path,
    )
    module_edges = [(e.source, e.target) for e in edges]
    assert circles(modules, module_edges) == [
        ["valtti.engine.a", "valtti.players.b"],
        ["valtti.engine.c", "valtti.engine.d", "valtti.engine.e"],
        ["valtti.engine.f", "valtti.players.g"],  # through the include's import
        ["valtti.engine.t", "valtti.engine.u"],  # through an import for the type checker
    ]
    units = {unit_of(m) for m in modules}
    assert circles(units, package_edges(edges)) == [["valtti.engine", "valtti.players"]]
    assert sorted(wrong_way(modules, edges)) == [
        "valtti.engine.a -> valtti.players.b: layer 1 imports layer 2",
        "valtti.engine.f -> valtti.players.g: layer 1 imports layer 2",
        "valtti.extra.h: in no layer (add its unit to LAYERS)",
        "valtti.terminal -> valtti.web.g: a front end imports another",
    ]
    assert Edge("valtti.engine.f", "valtti.engine.e", True) in edges  # the .pxd's cimport
    assert Edge("valtti.players.g", "valtti.engine.f", True) in edges
    assert stray_includes(tmp_path / "valtti") == [
        "valtti.players.g includes valtti/engine/_h.pxi: another folder",
        "valtti/engine/_unused.pxi: included by no module",
    ]
    # The import only for the type checker is read as such, and counts all the same.
    assert Edge("valtti.engine.d", "valtti.engine.c", False) in edges
    without = [(e.source, e.target) for e in edges if e.runs]
    assert ["valtti.engine.t", "valtti.engine.u"] not in circles(modules, without)
