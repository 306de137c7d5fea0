"""The heuristic's rules of thumb and the proofs of the public record, each written once.

The heuristic player is its C (``players/_heuristic.pyx`` and the ``.pxi`` files it includes):
no Python module of the package defines one of its functions or its tuning numbers, no other
compiled source defines its functions again, and the Python players named ``heuristic`` and
``quick`` only seat it. What the public record proves is the engine's C (``prove`` in
``engine/_proofs.pxi``): defined once, and ``engine.inference`` tells no event or play apart
itself. A second implementation of either, in Python or copied into another extension, fails
here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from valtti.players._heuristic import Heuristic
from valtti.players.heuristic import HeuristicPlayer
from valtti.players.quick import QuickPlayer
from valtti.players.registry import make_player

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "valtti"
#: The heuristic's own C: its decisions, its odds, its outlook on the match, its count of the
#: last tricks (its sampler draws hands, a sampler's work, not a rule of thumb).
HEURISTIC_C = ("_heuristic.pyx", "_odds.pxi", "_outlook.pxi", "_endgame.pxi")
#: Python functions that share a name with one of the heuristic's and are something else.
UNRELATED = {
    ("engine/solver.py", "worth"),  # what a finished deal is worth to a DealValue
    ("arena/run.py", "keep"),  # the arena keeping a bot's log
    ("terminal/session.py", "_keep"),  # a session keeping its save
}
#: A C function's definition (a declaration in a .pxd has no colon after its arguments).
C_FUNCTION = re.compile(
    r"^cdef\s+(?:inline\s+)?(?:const\s+)?\w+\**\s+\**(\w+)\([^)]*\)[^:\n]*:", re.M
)
#: A named number at a C file's top.
C_NUMBER = re.compile(r"^cdef\s+(?:double|float|int)\s+([A-Z][A-Z0-9_]+)\b", re.M)


def _compiled_sources() -> list[Path]:
    return sorted(p for s in ("*.pyx", "*.pxi", "*.pxd") for p in PACKAGE.rglob(s))


def _heuristic_c() -> tuple[set[str], set[str]]:
    """The functions and the named numbers of the heuristic's C."""
    text = "".join((PACKAGE / "players" / name).read_text(encoding="utf-8") for name in HEURISTIC_C)
    return set(C_FUNCTION.findall(text)), set(C_NUMBER.findall(text))


def _python_definitions() -> list[tuple[str, str, str]]:
    """(module path, ``def``/``class``/``=``, name) of every function, method and class of the
    package's Python, and of every name assigned at a module's top."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                found.append((where, "def", node.name))
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else []
            if isinstance(node, ast.AnnAssign):
                targets = [node.target]
            found.extend((where, "=", t.id) for t in targets if isinstance(t, ast.Name))
    return found


def test_the_heuristic_c_is_read() -> None:
    functions, numbers = _heuristic_c()
    assert {"card_value", "p_safe", "lead_bonus", "count_out", "plan", "declarations"} <= functions
    assert {"GAME_POINT", "STEP", "DECAY", "LAST_ODDS", "SHARE", "WORLDS", "COUNTED"} <= numbers


def test_no_python_module_implements_the_heuristic_again() -> None:
    """No function, method or class named as one of the heuristic's functions, and no top-level
    name as one of its numbers (leading underscores aside), anywhere in the package's Python."""
    functions, numbers = _heuristic_c()
    again = [
        (where, name)
        for where, kind, name in _python_definitions()
        if (where, name) not in UNRELATED
        and name.lstrip("_") in (functions if kind == "def" else numbers)
    ]
    assert again == []


def test_no_other_compiled_source_defines_the_heuristics_functions() -> None:
    functions, _ = _heuristic_c()
    own = {PACKAGE / "players" / name for name in HEURISTIC_C}
    again = [
        (path.relative_to(PACKAGE).as_posix(), name)
        for path in _compiled_sources()
        if path not in own
        for name in C_FUNCTION.findall(path.read_text(encoding="utf-8"))
        if name in functions
    ]
    assert again == []


def _own_members(cls: type) -> set[str]:
    """What a class defines itself, Python's and ``abc``'s bookkeeping aside."""
    return {
        name
        for name in vars(cls)
        if name == "__init__" or not (name.startswith("__") or name == "_abc_impl")
    }


def test_the_heuristic_players_only_seat_the_c() -> None:
    """``HeuristicPlayer`` holds the C's decisions and passes the observation on; ``quick`` is
    the same player under another name."""
    assert _own_members(HeuristicPlayer) == {"name", "memoryless", "__init__", "choose"}
    assert _own_members(QuickPlayer) == {"name"}
    for spec in ("heuristic", "quick"):
        player = make_player(spec, 1)
        assert isinstance(player, HeuristicPlayer) and player.name == spec
        assert isinstance(player.decisions, Heuristic)


def test_the_proofs_are_written_once() -> None:
    """The proof's C functions are defined once among the compiled sources (the engine's), and
    no Python module defines a proof of its own."""
    proof = {"prove", "pair_then", "play_tiers", "shown_absent"}
    defined = [
        (path.relative_to(PACKAGE).as_posix(), name)
        for path in _compiled_sources()
        for name in C_FUNCTION.findall(path.read_text(encoding="utf-8"))
        if name in proof
    ]
    assert sorted(name for _, name in defined) == sorted(proof)
    assert {where for where, _ in defined} <= {"engine/_proofs.pxi", "engine/_deal.pxd"}
    python = [(w, n) for w, kind, n in _python_definitions() if n.lstrip("_") in proof]
    assert python == []


def test_inference_only_gives_the_c_proofs_to_python() -> None:
    """``engine.inference`` reads no trick and tells no kind of event apart: what a play, a
    declaration or a question proves is the C's to say."""
    tree = ast.parse((PACKAGE / "engine" / "inference.py").read_text(encoding="utf-8"))
    attributes = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert not attributes & {"tricks", "current_trick", "how", "after_trick", "plays"}
    strings = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)}
    assert not strings & {"declare", "ask-whole", "ask-half", "club_ace_holder"}
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert "proof_of" in names and "play_shows" not in names
