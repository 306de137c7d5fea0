"""A seat that follows its person, in a real browser (Playwright, Debian's Chromium;
docs/WEB.md, "A seat link", "One address"): the seat link shown to its person, opened in
another browser at another address of the same server, plays the seat there; the first page
becomes a spectator that says so and offers "This is my seat", and nobody without the key is
offered anything. Against the session's real ``valtti serve`` (listening on 127.0.0.1, its home
address: a page asked for at ``localhost`` moves there).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from tests.web.crafted import store_match
from tests.web.serving import Server
from tests.web.test_browser import (  # noqa: F401  (fixtures by name)
    Tab,
    browser,
    catalogue,
    playwright,
)
from tests.web.test_browser_absent import open_seat
from tests.web.test_browser_room import room  # noqa: F401  (a fixture by name)
from tests.web.test_server_seat import HANDS

from valtti.engine import CardSet, Seat, Variant
from valtti.web.db.rows import SeatRow, TableRow
from valtti.web.db.store import Store
from valtti.web.referee.seats import token_hash

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.serve]


def test_the_seat_link_takes_the_seat_to_another_address_and_the_old_page_watches(
    server: Server,
    room: Callable[..., Tab],  # noqa: F811
) -> None:
    en = catalogue("en")
    made = server.create(
        {"N": "open", "E": "random", "S": "random", "W": "random"},
        seat="N",
        nickname="Aino",
        turn_seconds=None,
    )
    table_id = made["id"]
    laptop = room()
    open_seat(laptop, server, table_id, {"token": made["token"], "seat": "N"})
    expect(laptop.page.locator("#elsewhere")).to_be_hidden()
    # The person's seat link, in the share dialog: the token in the fragment only.
    laptop.page.click("#share-btn")
    expect(laptop.page.locator("#seat-link-box")).to_be_visible()
    expect(laptop.page.locator("#seat-link-box h3")).to_have_text(en["seat.link"])
    link = laptop.page.input_value("#seat-link")
    assert link == f"{server.url}/t/{table_id}#seat={made['token']}"
    laptop.page.click("#share-dialog-close")

    # Opened on a phone, at another address of the same server: it moves to the home address
    # (the fragment kept across the redirect), keeps the key, takes it out of the address bar,
    # and plays the seat.
    phone = room("phone-portrait")
    elsewhere = link.replace("127.0.0.1", "localhost", 1)
    assert elsewhere != link
    phone.page.goto(elsewhere)
    expect(phone.page.locator("body")).to_have_attribute("data-you", "N")
    assert phone.page.url == f"{server.url}/t/{table_id}"
    kept = phone.page.evaluate("(id) => localStorage.getItem(`valtti:table:${id}`)", table_id)
    assert made["token"] in kept

    # The laptop watches now, says why, and offers its person the seat back.
    note = laptop.page.locator("#elsewhere")
    expect(note).to_be_visible()
    expect(note).to_contain_text(en["seat.elsewhere"])
    expect(laptop.page.locator("body")).to_have_attribute("data-you", "")
    expect(laptop.page.locator("#hand [data-card]")).to_have_count(0)
    assert [f["seat"] for f in laptop.received if f["type"] == "seat_elsewhere"] == ["N"]
    # It does not fight back: the phone keeps the seat, told nothing.
    expect(phone.page.locator("#elsewhere")).to_be_hidden()
    assert not [f for f in phone.received if f["type"] == "seat_elsewhere"]

    # Someone without the key (a friend watching) is offered no seat of anyone's.
    friend = room()
    friend.page.goto(f"{server.url}/t/{table_id}")
    expect(friend.page.locator("body")).to_have_attribute("data-status", "playing")
    expect(friend.page.locator("body")).to_have_attribute("data-you", "")
    expect(friend.page.locator("#elsewhere")).to_be_hidden()
    for button in ("#take-here", "#take-back"):
        expect(friend.page.locator(button)).not_to_be_visible()

    # "This is my seat" on the laptop: it plays there again, and the phone watches.
    laptop.page.click("#take-here")
    expect(laptop.page.locator("body")).to_have_attribute("data-you", "N")
    expect(note).to_be_hidden()
    expect(phone.page.locator("#elsewhere")).to_be_visible()
    expect(phone.page.locator("body")).to_have_attribute("data-you", "")
    for tab in (laptop, phone, friend):
        assert not tab.errors, tab.errors
        expect(tab.page.locator("#toasts .toast-error")).to_have_count(0)


def test_a_wrong_seat_link_costs_the_browser_no_seat(
    server: Server,
    room: Callable[..., Tab],  # noqa: F811
) -> None:
    """A seat link whose token is refused (4401) gives back the token the browser held for the
    table, says the link was not valid, and plays the seat with the held token: opened in a
    new tab, and pasted into the address bar of a page at the table (only the fragment
    changes)."""
    en = catalogue("en")
    made = server.create(
        {"N": "open", "E": "random", "S": "random", "W": "random"},
        seat="N",
        nickname="Aino",
        turn_seconds=None,
    )
    table_id = made["id"]
    tab = room()
    open_seat(tab, server, table_id, {"token": made["token"], "seat": "N"})
    errors: list[str] = []
    page = tab.page.context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))

    def held() -> dict[str, object]:
        keys: dict[str, object] = json.loads(
            page.evaluate("(id) => localStorage.getItem(`valtti:table:${id}`)", table_id)
        )
        return keys

    refused = page.locator('#toasts .toast-error[data-code="bad_seat_link"]')
    page.goto(f"{server.url}/t/{table_id}#seat=WRONG")
    expect(refused).to_have_text(en["error.bad_seat_link"])
    expect(page.locator("body")).to_have_attribute("data-you", "N")
    assert held()["token"] == made["token"] and not held().get("held")
    assert page.url == f"{server.url}/t/{table_id}"
    expect(page.locator('#toasts [data-code="bad_token"]')).to_have_count(0)
    # Pasted into the address bar of the page playing the seat: the same (once the first
    # toast has gone by itself).
    expect(refused).to_have_count(0)
    page.goto(f"{server.url}/t/{table_id}#seat=ALSO-WRONG")
    expect(refused).to_have_count(1)
    expect(page.locator("body")).to_have_attribute("data-you", "N")
    expect(page.locator("#hand [data-card]")).to_have_count(9)
    assert held()["token"] == made["token"] and not held().get("held")
    assert not errors, errors


def test_the_nickname_toast_goes_once_a_nickname_is_typed(
    server: Server,
    room: Callable[..., Tab],  # noqa: F811
) -> None:
    en = catalogue("en")
    made = server.create({"N": "random", "E": "open", "S": "open", "W": "random"})
    tab = room()
    page = tab.page
    page.goto(f"{server.url}/t/{made['id']}")
    field = page.locator('#take-field input[name="nickname"]')
    asked = page.locator('#toasts .toast[data-code="nickname.empty"]')
    # A toast leaves by itself after 3.7 s: each check below is read at once (count), not
    # waited for, so that only the page taking it away can pass it.
    page.click('button[data-take="E"]')  # no nickname yet
    expect(asked).to_have_text(en["nickname.empty"])
    field.press_sequentially("Aino")
    assert asked.count() == 0  # typed: the request is answered
    # Asked again, then the seat taken with a name put in without typing (as autofill may).
    field.fill("")
    page.click('button[data-take="E"]')
    expect(asked).to_have_count(1)
    page.evaluate("(f) => { f.value = 'Aino'; }", field.element_handle())
    page.click('button[data-take="E"]')
    expect(page.locator("body")).to_have_attribute("data-you", "E")
    assert asked.count() == 0
    assert not tab.errors, tab.errors


# Where the reason a question cannot succeed is shown, read in one go: the element that says
# it (the bar's line on a wide screen, the note under the hand on a phone), its box, whether
# its text is cut, and the boxes it must not cover.
FUTILE_SHOWN = """() => {
  const seen = (e) => !!e && e.getClientRects().length > 0
    && getComputedStyle(e).visibility !== "hidden";
  const line = document.getElementById("window-hint");
  const note = document.getElementById("futile-note");
  const shown = [line, note].filter(seen);
  const box = (e) => { const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom].map(Math.round); };
  return {
    shown: shown.map((e) => ({id: e.id, text: e.textContent, box: box(e),
      cut: e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1})),
    cards: [...document.querySelectorAll("#hand [data-card]")].map(box),
    buttons: [...document.querySelectorAll("#actions [data-action]")].map(box),
    viewport: [window.innerWidth, window.innerHeight],
  };
}"""


@pytest.mark.parametrize(
    ("viewport", "lang"),
    [
        ("desktop", "en"),
        ("phone-portrait", "en"),
        ("phone-landscape", "fi"),
        ("phone-portrait", "fi"),
    ],
)
def test_a_second_ask_whole_after_a_no_says_it_cannot_succeed(
    start_server: Callable[..., Server],
    room: Callable[..., Tab],  # noqa: F811
    tmp_path: Path,
    viewport: str,
    lang: str,
) -> None:
    """N asked whole, S said no, and N wins the next trick: asking again is legal, and the
    button says it cannot succeed (the state's futile, the engine's proof); why is said whole,
    in sight, clear of the hand and the buttons, on a desktop and on a phone either way up."""
    en = catalogue(lang)
    url = f"sqlite:///{tmp_path / 'valtti.db'}"
    tokens = {str(s): f"token-of-{s}" for s in Seat}
    store = Store(url)
    try:
        store.create_table(
            TableRow(
                id="hopeless",
                created=datetime.now(UTC),
                variant=Variant(),
                first_dealer=Seat.W,
                seed=1,
                creator_hash=token_hash("creator"),
                status="playing",
            ),
            [SeatRow(s, "human", f"player {s}", token_hash(tokens[str(s)])) for s in Seat],
        )
        store.add_deal("hopeless", 1, Seat.W, tuple(CardSet.parse(h) for h in HANDS))
        played = ("AC", "QC", "KC", "TC", "ask-whole", "AS", "6S", "9S", "QS")
        for index, token in enumerate(played):
            store.add_action("hopeless", 1, index, token)
    finally:
        store.close()
    server = start_server(url)
    tab = room(viewport, locale={"fi": "fi-FI", "en": "en-GB"}[lang])
    open_seat(tab, server, "hopeless", {"token": tokens["N"], "seat": "N"})
    ask = tab.page.locator('#actions [data-action="ask-whole"]')
    expect(ask).to_be_enabled()
    expect(ask).to_have_attribute("data-futile", "true")
    expect(ask.locator(".futile-mark")).to_have_text(en["action.futile.mark"])
    expect(ask).to_be_in_viewport(ratio=1)
    expect(tab.page.locator("#futile-note")).to_have_text(en["action.futile.whole"])
    expect(ask).to_have_accessible_description(en["action.futile.whole"])
    assert tab.states()[-1]["futile"] == ["ask-whole"]
    seen = tab.page.evaluate(FUTILE_SHOWN)
    # Said once, whole, in sight: in the bar on a wide screen, under the hand on a phone.
    assert [s["id"] for s in seen["shown"]] == (
        ["window-hint"] if viewport == "desktop" else ["futile-note"]
    ), seen
    said = seen["shown"][0]
    assert said["text"] == en["action.futile.whole"] and not said["cut"], said
    left, top, right, bottom = said["box"]
    width, height = seen["viewport"]
    assert 0 <= left < right <= width and 0 <= top < bottom <= height, seen
    assert right - left >= 250, said  # a line to read, not a column
    for other in [*seen["cards"], *seen["buttons"]]:
        apart = right <= other[0] or other[2] <= left or bottom <= other[1] or other[3] <= top
        assert apart, (said, other)
    tab.check_clean()


# Whether each of the deal's end panel's heading, column headers and Ready button is clear of
# the panel shown that gives a person their seat back (the deal's end lets taps through, so
# the boxes are compared, not what is hit), and that the panel itself is in sight.
DEAL_END_CLEAR = """() => {
  const panel = [...document.querySelectorAll("#absent, #elsewhere")].find((p) => !p.hidden);
  const over = panel.getBoundingClientRect();
  const end = document.getElementById("deal-over");
  const parts = [end.querySelector("h3"), ...end.querySelectorAll("thead th"),
                 document.getElementById("ready-btn")].filter(Boolean);
  const inSight = end.getBoundingClientRect().top < window.innerHeight;
  return [inSight, parts.map((part) => {
    const r = part.getBoundingClientRect();
    const apart = r.bottom <= over.top || over.bottom <= r.top || r.right <= over.left
      || over.right <= r.left;
    return [part.textContent, apart];
  })];
}"""


def _on_top(page: Page, button: str) -> bool:
    """Whether whatever is drawn at the button's middle is the button."""
    found: bool = page.evaluate(
        """(id) => {
          const box = document.getElementById(id).getBoundingClientRect();
          const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
          return hit?.id === id;
        }""",
        button,
    )
    return found


@pytest.mark.parametrize(
    ("viewport", "lang"),
    [
        ("phone-landscape", "en"),
        ("phone-portrait", "fi"),
        ("desktop", "en"),
        ("phone-landscape", "fi"),
    ],
)
def test_the_recovery_panels_and_the_deal_end_panel_keep_clear_of_each_other(
    start_server: Callable[..., Server],
    room: Callable[..., Tab],  # noqa: F811
    tmp_path: Path,
    viewport: str,
    lang: str,
) -> None:
    """The deal is over and its panel waits for Ready; the creator hands Eino's seat to a
    computer player while Eino is here: "Take my seat back" is shown, the deal's end below it
    (its heading, column headers and Ready clear); then Eino opens the seat on another page:
    "This is my seat" is shown on the first, the same way. Each works."""
    strings = catalogue(lang)
    locale = {"fi": "fi-FI", "en": "en-GB"}[lang]
    url = f"sqlite:///{tmp_path / 'valtti.db'}"
    table_id, tokens, _ = store_match(url, [True], {"N": "Aino", "S": "Eino"})
    store = Store(url)
    try:
        with store.engine.begin() as connection:
            connection.exec_driver_sql(
                "UPDATE tables SET creator_hash = ? WHERE id = ?",
                (token_hash("creator"), table_id),
            )
    finally:
        store.close()
    server = start_server(url, options=["--next-deal-seconds", "600"])
    eino = room(viewport, locale=locale)
    keys = {"token": tokens["S"], "seat": "S"}
    open_seat(eino, server, table_id, keys)
    page = eino.page
    deal_end = page.locator("#deal-over")
    expect(deal_end).to_be_visible()
    expect(deal_end.locator("h3")).to_have_text(strings["deal_over.title"].replace("{n}", "1"))
    creator = server.socket(table_id)
    creator.send(
        {"type": "replace", "seat": "S", "player": "heuristic", "creator_token": "creator"}
    )
    panel = page.locator("#absent")
    expect(panel).to_be_visible()
    expect(deal_end).to_be_visible()
    page.wait_for_function("() => !!document.getElementById('ready-btn')")
    assert _on_top(page, "take-back")
    in_sight, clear = page.evaluate(DEAL_END_CLEAR)
    assert in_sight and len(clear) >= 5 and all(c for _, c in clear), clear
    page.click("#take-back")
    expect(panel).to_be_hidden()
    expect(page.locator('.badge.stand-in[data-stand-in-for="S"]')).to_have_count(0)

    # The seat opened on another page: this one offers "This is my seat", clear of the panel.
    other = room(viewport, locale=locale)
    open_seat(other, server, table_id, keys)
    elsewhere = page.locator("#elsewhere")
    expect(elsewhere).to_be_visible()
    expect(deal_end).to_be_visible()
    assert _on_top(page, "take-here")
    in_sight, clear = page.evaluate(DEAL_END_CLEAR)
    assert in_sight and len(clear) >= 4 and all(c for _, c in clear), clear
    page.click("#take-here")
    expect(elsewhere).to_be_hidden()
    expect(page.locator("body")).to_have_attribute("data-you", "S")
    creator.close()
    assert not eino.errors, eino.errors
