"""A bot that reads the run's seed off an ancestor's command line (``--seed S`` in
``/proc/PID/cmdline``, which every user of the machine may read), for
tests/arena/test_arena_fairness.py: the seed deals every card, so it looks its own nine cards up
among the deals of the seed's first matches and names the four hands."""

from __future__ import annotations

from typing import Any

import spy

from valtti.table.seeds import deal_cards, derive_seed

MATCHES = range(64)


def seeds() -> list[int]:
    found = []
    for words, _ in spy.ancestors():
        for i, word in enumerate(words):
            text = words[i + 1] if word == "--seed" and i + 1 < len(words) else None
            if word.startswith("--seed="):
                text = word.split("=", 1)[1]
            if text is not None and text.lstrip("-").isdigit():
                found.append(int(text))
    return found


def guess(match: dict[str, Any], message: dict[str, Any]) -> spy.Hands | None:
    observation = message["observation"]
    own = frozenset(spy.seen_by(observation)[observation["seat"]])
    number = observation["deal_number"] or 1
    for seed in seeds():
        for k in MATCHES:
            four = tuple(
                frozenset(h.tokens()) for h in deal_cards(derive_seed(seed, "match", k), number)
            )
            if own in four:
                return four
    return None


if __name__ == "__main__":
    spy.play("command line attack", guess)
