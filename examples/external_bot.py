#!/usr/bin/env python3
"""A complete bot for valtti's external-player protocol (docs/PROTOCOL.md), standard library only.

Run it against the built-in players:

    valtti arena --players random,external:examples/external_bot.py --matches 10

It shows every part of the protocol a bot needs: the handshake, the match and deal messages, and
one answer per decision request. Its play is simple on purpose: it declares a marriage whenever
it may (the first marriage sets trumps and scores 2), asks partner for the other half of a
marriage while there are no trumps (once per suit: the answer will not change), leads its
highest card, and otherwise plays a random legal card. A bot in another language follows the
same steps: read a line, parse the JSON object, and write exactly one line of JSON for each
``act``.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

NAME = "example"
PROTOCOL = 1
ORDER = "6789JQKTA"  # low to high, RULES.md 1.2


def send(message: dict[str, Any]) -> None:
    """One JSON object per line on standard output, flushed at once: the host is waiting."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def strength(card: str) -> int:
    """A card token's rank from 0 (six) to 8 (ace): ``"TD"`` -> 7."""
    return ORDER.index(card[0])


def choose(observation: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    """The action token to answer: always one of ``legal``."""
    declares = [t for t in legal if t.startswith("declare")]
    if declares:
        return declares[0]
    me = observation["seat"]
    asked = {e["suit"] for e in observation["events"] if e["seat"] == me and e["how"] == "ask-half"}
    asks = [t for t in legal if t.startswith("ask-half") and t.split()[1] not in asked]
    if asks and observation["trump"] is None:
        return rng.choice(asks)
    cards = [t for t in legal if len(t) == 2]  # card tokens: rank and suit, "TD"
    if not cards:  # partner asked for a whole marriage and we hold several: "answer S"
        return rng.choice(legal)
    trick = observation["current_trick"]
    if trick is None or not trick["cards"]:  # leading
        return max(cards, key=strength)
    return rng.choice(cards)


def main() -> None:
    rng = random.Random()
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            if message["protocol"] != PROTOCOL:
                print(f"{NAME} speaks protocol {PROTOCOL} only", file=sys.stderr)
            send({"type": "hello", "protocol": PROTOCOL, "name": NAME})
        elif kind == "match":
            # The seed (or None) makes a match reproducible when the host gives one.
            rng.seed(message["seed"])
        elif kind == "act":
            send({"action": choose(message["observation"], message["legal"], rng)})
        elif kind == "error":
            print(f"{NAME}: the host reports: {message['message']}", file=sys.stderr)
        elif kind == "quit":
            return
        # "deal", "deal_end" and "match_end" tell what this bot does not need; types a later
        # host may add are to be ignored too (PROTOCOL.md).


if __name__ == "__main__":
    main()
