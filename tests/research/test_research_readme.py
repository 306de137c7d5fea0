"""The README's examples for researchers run as written."""

from __future__ import annotations

import random
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


def test_the_engine_example_runs_and_says_what_it_does() -> None:
    """README "The engine in Python": the block runs as written (it played a card N does not
    hold, and its comments showed legal actions that deal does not have)."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## The engine in Python") : text.index("## For researchers")]
    (block,) = re.findall(r"```python\n(.*?)```", section, re.S)
    names: dict[str, object] = {}
    exec(compile(block, "README.md", "exec"), names)
    from valtti.engine import Action, Deal, RefusalCode, Seat

    shown = re.search(r"deal\.legal_actions\(\) +# \[(.*), \.\.\.\]", block)
    assert shown is not None
    first = [Action.parse(t) for t in re.findall(r"Action\('(\w+)'\)", shown[1])]
    dealt = Deal.shuffled(random.Random(7), dealer=Seat.W)
    assert dealt.legal_actions()[: len(first)] == first
    played = re.search(r'deal\.apply\(Action\.parse\("(\w+)"\)\)', block)
    asked = re.search(r'deal\.refusal\(Action\.parse\("(\w+)"\)\)', block)
    assert played is not None and asked is not None
    dealt.apply(Action.parse(played[1]))
    refusal = dealt.refusal(Action.parse(asked[1]))
    assert refusal is not None and refusal.code is RefusalCode.FOLLOW
    assert names["deal"] == dealt
