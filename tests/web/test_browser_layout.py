"""The table's layout in a real browser (Playwright, Debian's Chromium): at 1366 × 768, 390 × 844
and 844 × 390 (the phones with touch), in English and in Finnish, with nine cards in hand, the
trumps, the match score, the deal's points, the hand and whose turn it is are in sight without
scrolling, and the hand does not move when an away person's seat shows its buttons; the chat
counts what came while it was folded; emotes are the page's own pictures and words, no emoji;
a game's word is explained on a tap, again and again, in players' words with a link to the
rules; a new deal starts on an empty felt that says who leads.

Reuses the browser and helpers of test_browser.py and test_browser_room.py against the
session's real ``valtti serve`` (or a server of its own on a stored match).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.web.crafted import store_match
from tests.web.serving import Server
from tests.web.test_browser import (  # noqa: F401  (fixtures used by name)
    Tab,
    browser,
    catalogue,
    open_seat,
    playwright,
)
from tests.web.test_browser_room import VIEWPORTS, room  # noqa: F401

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.serve]

#: A character drawn from an emoji font (pictographs, and the selector that asks for one).
EMOJI = re.compile("[\U0001f000-\U0001faff\u2300-\u23ff\u2600-\u27bf\u2b00-\u2bff\ufe0f]")

# What must be in sight, each part's box [left, top, right, bottom], read in one go.
IN_SIGHT = """() => {
  const box = (s) => {
    const e = document.querySelector(s);
    if (!e || !e.getClientRects().length) return null;
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  return {
    parts: {
      trumps: box("#felt-trumps"), score: box("#felt-score"), points: box("#felt-points"),
      hand: box("#hand"), turn: box("#turn"), toMove: box('.felt [data-turn="true"]'),
      chat: box("#chat-toggle"),
    },
    cards: [...document.querySelectorAll("#hand [data-card]")].map((e) => {
      const r = e.getBoundingClientRect();
      return [r.left, r.top, r.right, r.bottom];
    }),
    turnText: document.getElementById("turn").textContent,
    scroll: [window.scrollX, window.scrollY],
    viewport: [window.innerWidth, window.innerHeight],
  };
}"""


def in_sight(page: Page) -> dict[str, Any]:
    """The parts' boxes, each asserted inside the unscrolled viewport; the hand's box."""
    seen: dict[str, Any] = page.evaluate(IN_SIGHT)
    width, height = seen["viewport"]
    assert seen["scroll"] == [0, 0], seen
    for part, box in seen["parts"].items():
        assert box is not None, (part, seen)
        assert box[0] >= 0 and box[1] >= 0 and box[2] <= width and box[3] <= height, (part, seen)
    assert len(seen["cards"]) == 9, seen
    for box in seen["cards"]:
        assert box[0] >= 0 and box[1] >= 0 and box[2] <= width and box[3] <= height, seen
    assert seen["turnText"], seen
    # The chat's button floats in a corner, never over a card.
    chat = seen["parts"]["chat"]
    for box in seen["cards"]:
        assert box[2] <= chat[0] or chat[2] <= box[0] or box[3] <= chat[1], (box, chat)
    return seen


def no_emoji(text: str) -> bool:
    return not EMOJI.search(text)


@pytest.mark.parametrize("locale", ["en-GB", "fi-FI"])
@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_what_matters_is_in_sight_and_the_hand_stays_when_a_seat_shows_its_buttons(
    server: Server,
    room: Callable[..., Tab],  # noqa: F811
    viewport: str,
    locale: str,
) -> None:
    lang = locale[:2]
    words = catalogue(lang)
    made = server.create(
        {"N": "open", "E": "heuristic", "S": "open", "W": "heuristic"}, nickname="Aino", seat="S"
    )
    north = server.socket(made["id"], server.join(made["id"], "N", "Bertta"))
    tab = room(viewport, locale=locale)
    page = tab.page
    keys = {"token": made["token"], "seat": "S", "creator_token": made["creator_token"]}
    page.goto(server.url + "/rules")
    page.evaluate(
        "([id, keys]) => localStorage.setItem(`valtti:table:${id}`, keys)",
        [made["id"], json.dumps(keys)],
    )
    page.goto(f"{server.url}/t/{made['id']}")
    expect(page.locator("#hand [data-card]")).to_have_count(9)
    expect(page.locator('.felt [data-seat="N"]')).to_have_attribute("data-connected", "true")
    expect(page.locator("#felt-score")).to_have_text(
        words["table.felt.match"] + " " + words["table.felt.score"].format(ns=0, ew=0, target=10)
    )
    before = in_sight(page)

    # North says something: a folded chat (a phone's) counts it, an open one shows it.
    north.send({"type": "chat", "text": "moi"})
    toggle = page.locator("#chat-toggle")
    if toggle.get_attribute("aria-expanded") == "false":
        expect(page.locator("#chat-unread")).to_have_text("1")
        toggle.click()
        expect(page.locator("#chat-unread")).to_be_hidden()
        expect(page.locator("#chat-log li").last).to_contain_text("moi")
        toggle.click()
        expect(page.locator("#chat")).to_be_hidden()
    else:
        expect(page.locator("#chat-log li").last).to_contain_text("moi")
        expect(page.locator("#chat-unread")).to_be_hidden()
    # The emotes are the page's own pictures and words: nothing asks for an emoji font.
    if toggle.get_attribute("aria-expanded") == "false":
        toggle.click()
    emotes = page.locator("#chat-emotes button[data-emote]")
    expect(emotes).to_have_count(5)
    for i in range(5):
        icon = emotes.nth(i).locator("svg.emote-icon").bounding_box()
        assert icon is not None and icon["width"] > 0 and icon["height"] > 0
        text = emotes.nth(i).inner_text()
        assert text.strip() and no_emoji(text), text
    toggle.click()  # folded again: the explanation below is tapped on the felt
    expect(page.locator("#chat")).to_be_hidden()
    assert all(no_emoji(v) for k, v in words.items() if k.startswith("chat.")), words

    # The felt's word "trumps" explained on a tap (a click on a desktop), Escape closes it.
    word = page.locator('#felt-info [data-term="trumps"]')
    expect(word).to_have_attribute("title", words["term.trumps"])
    if viewport.startswith("phone"):
        word.tap()
    else:
        word.click()
    pop = page.locator("#term-pop")
    expect(pop.locator("p")).to_have_text(words["term.trumps"])
    expect(word).to_have_attribute("aria-expanded", "true")
    page.keyboard.press("Escape")
    expect(pop).to_be_hidden()

    # North goes away: the seat shows its buttons, and the hand stays where it was.
    north.close()
    # (This page made the table: it chooses the computer player, "Give to computer".)
    expect(page.locator('button[data-replace="N"]')).to_be_visible()
    expect(page.locator('select[data-replace-player="N"]')).to_be_visible()
    after = in_sight(page)
    assert after["parts"]["hand"] == before["parts"]["hand"], (before, after)
    assert after["cards"] == before["cards"], (before, after)
    assert not tab.errors, tab.errors


def test_a_new_deal_starts_on_an_empty_felt_that_says_who_leads(
    tmp_path: Path,
    start_server: Callable[..., Server],
    room: Callable[..., Tab],  # noqa: F811
) -> None:
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    # East's last card (the queen of hearts) is left of the deal; South, a person not here,
    # leads the next deal, which comes at once: nothing is played in it meanwhile.
    people = {"E": "Aino", "S": "Eino"}
    table_id, tokens, _ = store_match(db, [], people, part=36)
    server = start_server(db)
    tab = room("desktop")
    page = open_seat(tab, server, table_id, "E", tokens["E"])
    expect(page.locator("#trick [data-played]")).to_have_count(3)
    page.click('#hand [data-card="QH"]')
    # Read as soon as the new deal is drawn: the last trick was held in the middle 1.5 s.
    page.wait_for_function(
        "() => document.querySelectorAll('#sheet tr[data-deal]').length === 2"
        " && document.body.dataset.phase !== 'over'"
    )
    shown = page.evaluate(
        """() => ({
          played: document.querySelectorAll("#trick [data-played]").length,
          turn: document.getElementById("turn").textContent,
          toMove: document.querySelector('.felt [data-turn="true"]')?.dataset.seat ?? null,
          hand: document.querySelectorAll("#hand [data-card]").length,
        })"""
    )
    words = catalogue("en")
    leads = words["table.turn.other_lead"].format(
        name=words["table.who"].format(name="Eino", seat="S")
    )
    assert shown == {"played": 0, "turn": leads, "toMove": "S", "hand": 9}, shown
    assert not tab.errors, tab.errors


@pytest.mark.parametrize(
    ("part", "seat", "question", "locale"),
    [
        (4, "N", "ask-whole", "en-GB"),  # North took trick 1: may declare clubs or ask whole
        (9, "S", "ask-half", "fi-FI"),  # South took trick 2, holds one king: only ask half
    ],
)
def test_a_question_is_explained_by_its_title_and_on_a_tap(
    tmp_path: Path,
    start_server: Callable[..., Server],
    room: Callable[..., Tab],  # noqa: F811
    part: int,
    seat: str,
    question: str,
    locale: str,
) -> None:
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    table_id, tokens, _ = store_match(db, [], {"N": "Aino", "S": "Eino"}, part=part)
    server = start_server(db, options=["--next-deal-seconds", "600"])
    tab = room("phone-portrait", locale=locale)
    page = open_seat(tab, server, table_id, seat, tokens[seat])
    text = catalogue(locale[:2])["term." + question.replace("-", "_")]
    button = page.locator(f'#actions [data-action^="{question}"]').first
    expect(button).to_have_attribute("title", text)
    tip = page.locator("#actions .term-tip")
    tip.tap()
    pop = page.locator("#term-pop")
    expect(pop.locator("p")).to_have_text(text)
    expect(tip).to_have_attribute("aria-expanded", "true")
    tip.tap()
    expect(pop).to_be_hidden()
    assert not tab.errors, tab.errors


# The pop-up's own attributes: it is no word to explain (terms.js).
POP = """() => {
  const pop = document.getElementById("term-pop");
  return {hidden: pop.hidden, shows: pop.dataset.shows ?? null, term: pop.dataset.term ?? null,
          role: pop.getAttribute("role"), tabindex: pop.getAttribute("tabindex"),
          title: pop.getAttribute("title"), text: pop.textContent,
          rules: [...pop.querySelectorAll("a.term-rules")].map((a) => a.getAttribute("href"))};
}"""


@pytest.mark.parametrize(("viewport", "lang"), [("desktop", "en"), ("phone-portrait", "fi")])
def test_an_explanation_opens_again_and_again_and_leads_to_the_rules(
    server: Server,
    room: Callable[..., Tab],  # noqa: F811
    viewport: str,
    lang: str,
) -> None:
    words = catalogue(lang)
    made = server.create(dict.fromkeys("NESW", "random"), turn_seconds=None, name="Bots")
    tab = room(viewport, locale={"fi": "fi-FI", "en": "en-GB"}[lang])
    page = tab.page
    said: list[str] = []
    page.on("console", lambda m: said.append(f"{m.type}: {m.text}"))
    page.goto(f"{server.url}/t/{made['id']}")
    expect(page.locator("body")).to_have_attribute("data-status", re.compile("playing|finished"))
    word = page.locator('#felt-info [data-term="trumps"]')
    for time in range(2):
        if viewport.startswith("phone"):
            word.tap()
        else:
            word.click()
        pop = page.locator("#term-pop")
        expect(pop.locator("p")).to_have_text(words["term.trumps"])
        shown = page.evaluate(POP)
        assert shown["shows"] == "trumps" and shown["term"] is None, (time, shown)
        assert shown["role"] == "status" and shown["tabindex"] is None, (time, shown)
        assert shown["title"] is None, (time, shown)
        # In players' words, and a link to the rules page's section for more.
        assert "RULES.md" not in shown["text"], shown["text"]
        assert shown["rules"] == ["/rules#s4"], shown
        link = words["term.rules"].replace("{section}", words["rules.s4"])
        expect(pop.locator("a.term-rules")).to_have_text(link)
        page.keyboard.press("Escape")
        expect(pop).to_be_hidden()
        # The page is drawn again (the computer players move): the pop-up stays what it is.
        page.evaluate("() => document.getElementById('lang').dispatchEvent(new Event('change'))")
        page.wait_for_timeout(200)
        closed = page.evaluate(POP)
        assert closed["role"] == "status" and closed["tabindex"] is None, closed
        assert closed["title"] is None and closed["term"] is None, closed
    assert not [m for m in said if m.startswith(("warning", "error"))], said
    # The link opens the rules at that section, in a new tab.
    word.click()
    with page.context.expect_page() as opened:
        page.locator("#term-pop a.term-rules").click()
    rules = opened.value
    expect(rules.locator("#s4 h2")).to_have_text(words["rules.s4"])
    expect(rules.locator("#s4")).to_be_in_viewport()
    assert not tab.errors, tab.errors
