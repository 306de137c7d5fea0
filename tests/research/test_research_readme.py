"""The examples for researchers (docs/RESEARCH.md, docs/TENSORS.md, the research modules'
docstrings) run as written."""

from __future__ import annotations

import importlib
import random
import re
from pathlib import Path

from research_needs import require

DOCS = Path(__file__).resolve().parents[2] / "docs"
RESEARCH = DOCS / "RESEARCH.md"
TENSORS = DOCS / "TENSORS.md"


def test_research_examples_run() -> None:
    for name in ("gymnasium", "pettingzoo", "pyspiel"):
        require(name)
    text = RESEARCH.read_text(encoding="utf-8")
    section = text[text.index("## Environments") : text.index("## Self-play")]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 4  # PettingZoo, Gymnasium, its batched vector form, OpenSpiel
    names: dict[str, object] = {}  # one after another, as a reader runs them: the batched
    for block in blocks:  # form goes on from the Gymnasium block's import
        exec(compile(block, "docs/RESEARCH.md", "exec"), names)


def test_the_self_play_loop_runs_as_written() -> None:
    """docs/RESEARCH.md "Self-play": the learner's weights at its seat and its partner's,
    snapshots from its pool at the opponents'."""
    require("gymnasium")
    text = RESEARCH.read_text(encoding="utf-8")
    section = text[text.index("## Self-play") : text.index("## The computer players")]
    (block,) = re.findall(r"```python\n(.*?)```", section, re.S)
    names: dict[str, object] = {}
    exec(compile(block, "docs/RESEARCH.md", "exec"), names)
    pool = names["pool"]
    assert isinstance(pool, list) and len(pool) == 5
    table = names["env"].unwrapped.table  # type: ignore[attr-defined]
    partner = table.seated[(table.seat + 2) & 3]
    assert partner.who is names["me"] and table.episode.is_over()


def test_the_engine_example_runs_and_says_what_it_does() -> None:
    """docs/RESEARCH.md "The engine in Python": the block runs as written (it played a card N
    does not hold, and its comments showed legal actions that deal does not have)."""
    text = RESEARCH.read_text(encoding="utf-8")
    section = text[text.index("## The engine in Python") : text.index("## Environments")]
    (block,) = re.findall(r"```python\n(.*?)```", section, re.S)
    names: dict[str, object] = {}
    exec(compile(block, "docs/RESEARCH.md", "exec"), names)
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


def test_the_research_modules_examples_run() -> None:
    """The example of each environment module's docstring (``help()``'s first lines) runs as
    written: OpenSpiel's drew its chance outcomes with a ``random`` it did not import."""
    for name in ("gymnasium", "pettingzoo", "pyspiel"):
        require(name)
    for module in ("gymnasium", "pettingzoo", "openspiel"):
        doc = importlib.import_module(f"valtti.research.{module}").__doc__
        assert doc is not None
        block = re.search(r"::\n\n((?: {4}.*\n|\n)+)", doc)
        assert block is not None, module
        code = "\n".join(line[4:] for line in block[1].splitlines())
        exec(compile(code, f"valtti.research.{module}", "exec"), {})


def test_the_openspiel_module_names_the_bot_that_plays_it() -> None:
    """The C++ ``pyspiel.ISMCTSBot`` crashes on Python games (docs/RESEARCH.md); the module said
    it plays the game."""
    import valtti.research.openspiel

    doc = valtti.research.openspiel.__doc__
    assert doc is not None and "open_spiel.python.algorithms.ismcts" in doc
    said = re.findall(r"pyspiel\.ISMCTSBot``? (\w+)", doc)
    assert said == ["crashes"], said


def test_the_tensors_example_runs_and_writes_into_the_buffer() -> None:
    """docs/TENSORS.md's example used a numpy, a deal, a seat and a score it never made."""
    import numpy as np

    (block,) = re.findall(r"```python\n(.*?)```", TENSORS.read_text(encoding="utf-8"), re.S)
    names: dict[str, object] = {}
    exec(compile(block, "docs/TENSORS.md", "exec"), names)
    from valtti.engine.tensors import observation_tensor

    buf, deal = names["buf"], names["deal"]
    assert isinstance(buf, np.ndarray) and buf.any()
    assert np.array_equal(buf, observation_tensor(deal, names["seat"], score=names["score"]))
