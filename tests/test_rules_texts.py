"""The texts that tell a player the rules say what RULES.md says, alike in both front ends."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from helpers import SWEEP_TRICKS, sweep_deal
from valtti.engine import Phase, Seat
from valtti.terminal import guide, i18n

STATIC = Path(__file__).resolve().parents[1] / "src" / "valtti" / "web" / "static" / "i18n"
PO = Path(__file__).resolve().parents[1] / "src" / "valtti" / "locale" / "fi" / "LC_MESSAGES"


def web(language: str) -> dict[str, str]:
    catalogue: dict[str, str] = json.loads((STATIC / f"{language}.json").read_text("utf-8"))
    return catalogue


def finnish_terminal() -> list[str]:
    with (PO / "valtti.po").open("rb") as source:
        catalog = read_po(source, locale="fi")
    out: list[str] = []
    for message in catalog:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        out.extend(s for s in strings if s)
    return out


@pytest.mark.parametrize("language", ["en", "fi"])
def test_the_web_answer_dialog_tells_the_partner_what_the_terminal_does(language: str) -> None:
    """RULES.md 4.2b: an ask-whole locks only the asker, so the answering partner's other
    marriages stay whole; the web's dialog said they were broken."""
    deal = sweep_deal(SWEEP_TRICKS[0] + " | ask-whole")
    assert deal.phase is Phase.ANSWER and deal.current_player is Seat.S
    i18n.use(language)
    try:
        terminal = guide.moment(deal, Seat.S).splitlines()[0]
    finally:
        i18n.use("en")
    asker = "P" if language == "fi" else "N"
    assert web(language)["table.answer.text"].format(name=asker) == terminal
    deal.apply(deal.legal_actions()[0])
    assert Seat.S not in deal.locked  # what both texts now say


def test_finnish_names_the_queen_one_way() -> None:
    """The web's card names said "kuningatar" where its refusals and the terminal say "rouva"."""
    queen = web("fi")["rank.Q"]
    other = {"kuningatar", "rouva"} - {queen}
    assert len(other) == 1
    texts = list(web("fi").values()) + finnish_terminal()
    assert any(queen in text for text in texts if text != queen)
    wrong = [text for text in texts if any(re.search(word, text) for word in other)]
    assert wrong == []


# Rules of RULES.md the rules page once left out: (key, English, Finnish) fragments.
STATED = [
    ("rules.s2.p1", "drawn at random", "arvotaan"),  # 2.1
    ("rules.s4.whole", "not yet declared", "ilmoittamattoman"),  # 4.2b
    ("rules.s4.half", "exactly one", "täsmälleen toinen"),  # 4.2c
    ("rules.s4.half", "not yet declared", "ilmoittamattoman"),  # 4.2c
    ("rules.s4.half", "do not say which", "et kerro, kumpi"),  # 4.2c, 7.2
    ("rules.s4.p3", "locks still apply", "lukitukset pätevät"),  # 4.5
    ("rules.s4.p3", "After trick 8", "Kahdeksannen tikin jälkeen"),  # 4.6
    ("rules.s5.p1", "no extra card points", "ei tuo lisää korttipisteitä"),  # 5.1
]


@pytest.mark.parametrize(("key", "en", "fi"), STATED)
def test_the_rules_page_states_the_rule_in_both_languages(key: str, en: str, fi: str) -> None:
    assert en in web("en")[key]
    assert fi in web("fi")[key]
