"""The package passes ruff (lint and format) and mypy --strict, as configured in pyproject.toml."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True)


def test_ruff() -> None:
    run = _run("ruff", "check", "src", "tests", "tools")
    assert run.returncode == 0, run.stdout + run.stderr


def test_ruff_format() -> None:
    run = _run("ruff", "format", "--check", "src", "tests", "tools")
    assert run.returncode == 0, run.stdout + run.stderr


def test_mypy_strict() -> None:
    run = _run("mypy")
    assert run.returncode == 0, run.stdout + run.stderr
