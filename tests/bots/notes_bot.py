"""Copies of one bot that leave each other notes (tests/arena/test_arena_fairness.py): each writes
its seat and nine cards, with the deal's number and dealer, where the others may read them, and
reads every note there. Two halves of a duplicate pair deal the same cards with the teams
swapped, so the copies of one bot hold all four seats between them: a copy that finds notes of
the same deal of hands that, with its own, make the whole deck, and agree with what each seat
has played, names every hand.

Its first argument says where the notes go: ``notes=FOLDER``, files in a folder of the machine's
/tmp (one a run), or ``keyring=NAME``, keys in the kernel's keyring of the user it runs as
(``add_key``, ``keyctl``), which outlive the process that made them.
"""

from __future__ import annotations

import ctypes
import itertools
import json
import sys
from pathlib import Path
from typing import Any

import spy

WHERE, _, NAME = (sys.argv[1] if len(sys.argv) > 1 else "notes=/tmp/valtti-notes").partition("=")

#: Linux x86-64 system calls and keyctl operations.
ADD_KEY, KEYCTL = 248, 250
USER_KEYRING = -4
DESCRIBE, READ = 6, 11
_libc = ctypes.CDLL(None, use_errno=True)


def write(note: dict[str, Any]) -> None:
    text = json.dumps(note, separators=(",", ":"))
    if WHERE == "keyring":
        description = f"{NAME}|{text}".encode()
        _libc.syscall(ADD_KEY, b"user", description, b"1", 1, USER_KEYRING)
        return
    folder = Path(NAME)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{note['seat']}-{''.join(note['hand'])}.json").write_text(text)


def read() -> list[dict[str, Any]]:
    if WHERE != "keyring":
        return [json.loads(p.read_text()) for p in Path(NAME).glob("*.json")]
    keys = ctypes.create_string_buffer(4 * 4096)
    size = _libc.syscall(KEYCTL, READ, USER_KEYRING, keys, len(keys))
    found = []
    for at in range(0, max(0, min(size, len(keys))), 4):
        key = int.from_bytes(keys.raw[at : at + 4], "little", signed=True)
        text = ctypes.create_string_buffer(1024)
        if _libc.syscall(KEYCTL, DESCRIBE, key, text, len(text)) > 0:
            description = text.value.decode(errors="replace").split(";", 4)[-1]
            name, _, note = description.partition("|")
            if name == NAME:
                found.append(json.loads(note))
    return found


def guess(match: dict[str, Any], message: dict[str, Any]) -> spy.Hands | None:
    observation = message["observation"]
    me = observation["seat"]
    seen = spy.seen_by(observation)
    own = frozenset(seen[me])
    deal = [observation["deal_number"], observation["dealer"]]
    try:
        write({"seat": me, "hand": sorted(own), "deal": deal})
        notes = [n for n in read() if n["deal"] == deal]
    except (OSError, ValueError):
        return None
    others = [s for s in spy.SEATS if s != me]
    by_seat = {
        s: {frozenset(n["hand"]) for n in notes if n["seat"] == s and seen[s] <= set(n["hand"])}
        for s in others
    }
    deck = {f"{r}{s}" for r in "6789TJQKA" for s in "SHDC"}
    for first, second in itertools.combinations(others, 2):
        for a, b in itertools.product(by_seat[first], by_seat[second]):
            rest = deck - own - a - b
            if len(rest) == 9 and not a & b and not (a | b) & own:
                third = next(s for s in others if s not in (first, second))
                if seen[third] <= rest:
                    hands = {me: own, first: a, second: b, third: frozenset(rest)}
                    return tuple(hands[s] for s in spy.SEATS)
    return None


if __name__ == "__main__":
    spy.play("notes attack", guess)
