"""Builds the engine's compiled core; everything else is in pyproject.toml."""

import platform

from Cython.Build import cythonize
from setuptools import Extension, setup

# The engine counts cards with __builtin_popcountll: one instruction with -mpopcnt (every
# x86-64 processor since 2008), a library call without it.
POPCNT = ["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else []

setup(
    ext_modules=cythonize(
        [Extension("valtti.engine._deal", ["src/valtti/engine/_deal.pyx"],
                   extra_compile_args=["-O3", *POPCNT])],
        compiler_directives={"language_level": "3"},
    ),
)
