"""The compiled modules' type stubs (.pyi) agree with the modules as built: every name, class,
method and signature, checked by mypy's stubtest against the imported extensions."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
ALLOWLIST = Path(__file__).with_name("stubtest_allowlist.txt")


def extensions() -> list[str]:
    """Every compiled module of the package, by the .pyx it is built from."""
    return sorted(
        ".".join(path.relative_to(SRC).with_suffix("").parts) for path in SRC.rglob("*.pyx")
    )


def test_every_extension_has_a_stub() -> None:
    names = extensions()
    assert "valtti.engine._deal" in names
    missing = [n for n in names if not (SRC / (n.replace(".", "/") + ".pyi")).is_file()]
    assert not missing, missing


def test_the_stubs_match_the_extensions() -> None:
    command = [sys.executable, "-m", "mypy.stubtest", "--allowlist", str(ALLOWLIST)]
    done = subprocess.run(
        [*command, *extensions()], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
