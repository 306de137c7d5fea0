"""Builds the compiled parts, one extension a layer; everything else is in pyproject.toml.

The engine's core is shared through ``engine/_deal.pxd``: the players' and the research
layer's extensions ``cimport`` it, its hot rules compiled into each.
"""

import platform

from Cython.Build import cythonize
from setuptools import Extension, setup

# The engine counts cards with __builtin_popcountll: one instruction with -mpopcnt (every
# x86-64 processor since 2008), a library call without it.
POPCNT = ["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else []

#: (module, source): the engine's, the heuristic player's, the learner tables'.
EXTENSIONS = (
    ("valtti.engine._deal", "src/valtti/engine/_deal.pyx"),
    ("valtti.players._heuristic", "src/valtti/players/_heuristic.pyx"),
    ("valtti.research._batch", "src/valtti/research/_batch.pyx"),
)

setup(
    ext_modules=cythonize(
        [Extension(name, [source], extra_compile_args=["-O3", *POPCNT]) for name, source in EXTENSIONS],
        compiler_directives={"language_level": "3"},
        include_path=["src"],
    ),
)
