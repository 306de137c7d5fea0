"""The research extra's libraries: skipped without them, except in CI, which installs them."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def require(name: str) -> ModuleType:
    if os.environ.get("CI"):
        return importlib.import_module(name)
    return pytest.importorskip(name)
