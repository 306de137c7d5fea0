"""What the attacking bots of tests/arena/test_arena_fairness.py share: the protocol, and the
report.

A spy plays the first legal action. At the deal's start and at each of its decisions, until it
has named them, it asks its ``guess`` for the four hands (N E S W, each a set of card tokens) by
whatever means the bot tries; at the deal's end, when every card has been seen, it writes on its
standard error one JSON line: whether it named the hands and whether they were right. The host
keeps that in the run's log (``--bot-log``), where the tests read it: a sandboxed bot can write
nowhere else the tests could read.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

SEATS = "NESW"
Hands = tuple[frozenset[str], ...]  # N E S W
#: ``guess(match message, latest message)``: the four hands, or ``None``.
Guess = Callable[[dict[str, Any], dict[str, Any]], Hands | None]


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def report(**facts: Any) -> None:
    sys.stderr.write(json.dumps(facts) + "\n")
    sys.stderr.flush()


def played_hands(observation: dict[str, Any]) -> Hands:
    """The four hands as the deal's nine tricks showed them."""
    held: list[set[str]] = [set(), set(), set(), set()]
    for trick in observation["tricks"]:
        first = SEATS.index(trick["leader"])
        for i, card in enumerate(trick["cards"]):
            held[(first + i) % 4].add(card)
    return tuple(frozenset(h) for h in held)


def seen_by(observation: dict[str, Any]) -> dict[str, set[str]]:
    """The cards each seat has played so far in the deal, and the observer's own hand."""
    played: dict[str, set[str]] = {s: set() for s in SEATS}
    tricks = list(observation["tricks"])
    if observation.get("current_trick"):
        tricks.append(observation["current_trick"])
    for trick in tricks:
        first = SEATS.index(trick["leader"])
        for i, card in enumerate(trick["cards"]):
            played[SEATS[(first + i) % 4]].add(card)
    played[observation["seat"]] |= set(observation["hand"])
    return played


def ancestors() -> Iterator[tuple[list[str], Path]]:
    """Each ancestor process's command line and working folder, the parent first, as far as
    /proc lets this process see."""
    pid = os.getppid()
    while pid > 0:
        try:
            words = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            folder = Path(os.readlink(f"/proc/{pid}/cwd"))
        except OSError:
            return
        yield [w.decode(errors="replace") for w in words if w], folder
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return
        pid = int(stat.rsplit(")", 1)[1].split()[1])


def play(name: str, guess: Guess) -> None:
    match: dict[str, Any] = {}
    named: Hands | None = None
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "protocol": 1, "name": name})
        elif kind == "match":
            match = message
        elif kind in ("deal", "act"):
            if kind == "deal":
                named = None
            if named is None:
                try:
                    named = guess(match, message)
                except Exception as e:  # an attack that fails names nothing
                    report(error=f"{type(e).__name__}: {e}"[:150])
            if kind == "act":
                send({"action": message["legal"][0]})
        elif kind == "deal_end":
            right = named is not None and named == played_hands(message["observation"])
            report(named=named is not None, right=right)
        elif kind == "quit":
            return
