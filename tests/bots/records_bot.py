"""A bot that looks its cards up in the run's records (tests/arena/test_arena_fairness.py): it finds
``--records DIR`` on an ancestor's command line (``/proc/PID/cmdline``, the folder taken from
``/proc/PID/cwd``), reads every record there, hidden folders too, and names the four hands of
any deal in which its own nine cards were dealt. Every pairing deals the same cards, so from its
second pairing on the records of the first would show it every hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import spy


def folders() -> list[Path]:
    found = []
    for words, cwd in spy.ancestors():
        for i, word in enumerate(words):
            if word == "--records" and i + 1 < len(words):
                found.append(cwd / words[i + 1])
            elif word.startswith("--records="):
                found.append(cwd / word.split("=", 1)[1])
    return found


def guess(match: dict[str, Any], message: dict[str, Any]) -> spy.Hands | None:
    observation = message["observation"]
    own = frozenset(spy.seen_by(observation)[observation["seat"]])
    for folder in folders():
        for path in folder.rglob("*.json"):
            try:
                record = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            for deal in record.get("deals", []):
                four = tuple(frozenset(deal["hands"][s]) for s in spy.SEATS)
                if own in four:
                    return four
    return None


if __name__ == "__main__":
    spy.play("records attack", guess)
