"""The README's examples for researchers run as written."""

from __future__ import annotations

import re
from pathlib import Path

from research_needs import require

README = Path(__file__).resolve().parents[2] / "README.md"


def test_research_examples_run() -> None:
    for name in ("gymnasium", "pettingzoo", "pyspiel"):
        require(name)
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## For researchers") : text.index("## Design")]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 3
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
