"""The texts that tell a player the rules say what RULES.md says, alike in both front ends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import SWEEP_TRICKS, sweep_deal
from valtti.engine import Phase, Seat
from valtti.terminal import guide, i18n

STATIC = Path(__file__).resolve().parents[1] / "src" / "valtti" / "web" / "static" / "i18n"


def web(language: str) -> dict[str, str]:
    catalogue: dict[str, str] = json.loads((STATIC / f"{language}.json").read_text("utf-8"))
    return catalogue


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
