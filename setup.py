"""Builds the engine's compiled core; everything else is in pyproject.toml."""

from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        [Extension("valtti.engine._deal", ["src/valtti/engine/_deal.pyx"],
                   extra_compile_args=["-O3"])],
        compiler_directives={"language_level": "3"},
    ),
)
