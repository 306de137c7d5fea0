"""The web table for people who play without a mouse or without sight, and on a connection
that drops, in a real browser (Playwright, Debian's Chromium): the lobby's seat controls named
by their seat, the focus never dropped to the page after a play, a hint or at a deal's end, the
deal's end said once to screen readers in the page's language, suits named in words, the chat
while the connection is lost, and the seat to move marked in forced colours.

Reuses the browser and helpers of test_browser.py, test_browser_room.py and
test_browser_ends.py.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect
from tests.web.crafted import seeded_table, store_match
from tests.web.serving import Server
from tests.web.test_browser import (  # noqa: F401  (fixtures used by name)
    WAIT,
    Tab,
    browser,
    catalogue,
    open_seat,
    playwright,
)
from tests.web.test_browser_ends import WAIT_LONG, person  # noqa: F401
from tests.web.test_browser_room import (  # noqa: F401
    FOCUSED,
    RECORD_ANNOUNCEMENTS,
    room,
    sit_at,
)
from tests.web.test_server_private import serve_choice

# Every time the focus falls to the page's body (nothing focused), what had it.
RECORD_FOCUS_LOST = """
window.focusLost = [];
document.addEventListener("focusout", (event) => {
  const from = event.target;
  setTimeout(() => {
    if (document.activeElement === document.body)
      window.focusLost.push(from.id || from.dataset?.card || from.dataset?.action || from.tagName);
  }, 0);
}, true);
"""


class HeldSocket:
    """The page's table socket through Playwright: while ``hold`` is on, what the server sends
    waits (a slow connection) until ``release()``."""

    def __init__(self, page: Page) -> None:
        self.hold = False
        self.waiting: list[str | bytes] = []
        self.route: WebSocketRoute | None = None
        page.route_web_socket(re.compile(r"/api/tables/.*/ws"), self._route)

    def _route(self, route: WebSocketRoute) -> None:
        self.route = route
        server = route.connect_to_server()
        server.on_message(self._from_server)

    def _from_server(self, message: str | bytes) -> None:
        if self.hold:
            self.waiting.append(message)
        elif self.route is not None:
            self.route.send(message)

    def release(self) -> None:
        self.hold = False
        assert self.route is not None
        for message in self.waiting:
            self.route.send(message)
        self.waiting = []


def held_action(page: Page, held: HeldSocket) -> None:
    """Press Enter with the server's answer held: the focus stays off the page's body."""
    held.hold = True
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#hand [data-card]')?.disabled")
    page.wait_for_timeout(200)  # some frames: the browser drops a disabled button's focus
    assert page.evaluate("document.activeElement !== document.body"), "focus dropped"
    held.release()


SEAT_WORDS = {
    "en": {"N": "north", "E": "east", "S": "south", "W": "west"},
    "fi": {"N": "pohjoinen", "E": "itä", "S": "etelä", "W": "länsi"},
}
MINE = {"en": "I sit here", "fi": "Istun tässä"}
SEAT_LETTERS = {"en": "S", "fi": "E"}


def test_the_lobby_names_each_seats_controls_by_the_seat(
    tmp_path: Path,
    start_server: Callable[..., Server],
    room: Callable[..., Tab],  # noqa: F811
) -> None:
    server = start_server(f"sqlite:///{tmp_path / 'valtti.db'}")
    made = server.create(
        {"N": "open", "E": "heuristic", "S": "open", "W": "open"}, nickname="Aino", seat="S"
    )
    for lang, locale in (("en", "en-GB"), ("fi", "fi-FI")):
        page = room(locale=locale).page
        page.goto(server.url + "/")
        page.wait_for_selector('select[data-variant="target"]', state="attached")
        assert page.evaluate("document.documentElement.lang") == lang
        for seat, word in SEAT_WORDS[lang].items():
            radio = page.get_by_role("radio", name=f"{word} {MINE[lang]}", exact=True)
            expect(radio).to_have_attribute("data-seat-choice", seat)
            if seat != "S":  # the seat taken has no player to choose
                player = page.get_by_role("combobox", name=word, exact=True)
                expect(player).to_have_attribute("data-seat-player", seat)
        # In the list, a seat's letter and who sits there are read as two words (then
        # "away": Aino made the table over HTTP and is not at it).
        entry = page.locator(f'#tables li[data-table="{made["id"]}"]')
        expect(entry.locator('.seat-chip[data-seat="S"]')).to_have_text(
            re.compile(rf"^{SEAT_LETTERS[lang]} Aino\b")
        )


def play_by_keyboard(tab: Tab, cards: int) -> None:
    """Play ``cards`` cards by keyboard (Enter on the focused card, or the answer dialog's)."""
    page = tab.page
    for _ in range(cards):
        tab.acted = tab.ready(tab.acted)["seq"]
        page.wait_for_function(
            "() => !!document.activeElement?.closest("
            "'#hand [data-legal=\"true\"], #answer-dialog[open] [data-action]')"
        )
        page.keyboard.press("Enter")


#: The seed of the focus test's table: South holds no two marriages in deal 1, so no question
#: of North's opens the answer dialog on a turn the test plays a card on, and South has a choice
#: (so a hint) in the six turns the test looks in. (On a random seed about 1 match in 4,000 had
#: South answer on its third turn, or no choice from its fourth turn to the deal's end.)
FOCUS_SEED = 12345


def test_keyboard_play_keeps_the_focus_and_the_chat_waits_out_a_lost_connection(
    tmp_path: Path,
    start_server: Callable[..., Server],
    room: Callable[..., Tab],  # noqa: F811
) -> None:
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    table_id, tokens = seeded_table(db, FOCUS_SEED, {"S": "Aino"}, "random")
    server = start_server(db)
    tab = room()
    page = tab.page
    page.add_init_script(RECORD_FOCUS_LOST)
    held = HeldSocket(page)
    open_seat(tab, server, table_id, "S", tokens["S"])
    for _ in range(40):
        if page.evaluate(FOCUSED)["inHand"]:
            break
        page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED)["inHand"], "Tab never reached the hand"

    # Each card played leaves the focus in the hand while the server answers, never on the page.
    play_by_keyboard(tab, 2)
    view = tab.ready(tab.acted)
    assert not [a for a in view["actions"] if a["token"].startswith("answer")], "South answers"
    tab.acted = view["seq"]
    page.wait_for_function("() => !!document.activeElement?.closest('#hand [data-legal=\"true\"]')")
    held_action(page, held)
    assert page.evaluate("window.focusLost") == []

    # The last trick's button says whether it is shown.
    button = page.locator("#last-trick-btn")
    expect(button).to_have_attribute("aria-expanded", "false")
    button.focus()
    page.keyboard.press("Enter")
    expect(button).to_have_attribute("aria-expanded", "true")
    expect(page.locator("#last-trick")).to_be_visible()
    page.keyboard.press("Enter")
    expect(button).to_have_attribute("aria-expanded", "false")
    page.keyboard.press("Shift+Tab")  # back to the hand, before the side panel

    # The hint panel closed by keyboard gives the focus back to its button (on a turn with a
    # choice: only then is there a hint to ask for).
    for _ in range(6):
        seq = tab.ready(tab.acted)["seq"]
        if page.locator("#hint-btn").is_visible():
            tab.acted = seq
            break
        play_by_keyboard(tab, 1)
    assert page.locator("#hint-btn").is_visible(), "the seed gives South no choice in six turns"
    page.focus("#hint-btn")
    page.keyboard.press("Enter")
    expect(page.locator("#hint")).to_be_visible(timeout=4 * WAIT)
    # The panel is a live region: a redraw of the table keeps it as it is, not read out again.
    page.evaluate("document.querySelector('#hint-moves li').dataset.kept = 'yes'")
    page.locator("#last-trick-btn").click()  # the table is drawn again
    expect(page.locator("#last-trick")).to_be_visible()
    expect(page.locator('#hint-moves li[data-kept="yes"]')).to_have_count(1)
    page.focus("#hint-close")
    page.keyboard.press("Enter")
    expect(page.locator("#hint")).to_be_hidden()
    expect(page.locator("#hint-btn")).to_be_focused()
    assert page.evaluate("window.focusLost") == []

    # In forced colours (high contrast) the seat to move is marked apart from the others.
    page.emulate_media(forced_colors="active")
    outlines = page.evaluate(
        """() => [...document.querySelectorAll('.felt [data-seat]')].map(
             (s) => [s.dataset.turn, getComputedStyle(s).outlineStyle])"""
    )
    assert sorted(outlines) == [["false", "none"]] * 3 + [["true", "solid"]], outlines
    page.emulate_media(forced_colors="none")

    # Connection lost: nothing can be sent, and what was typed in the chat is kept, not lost.
    page.context.set_offline(True)
    expect(page.locator("#connection")).to_have_attribute("data-connection", "lost", timeout=60_000)
    expect(page.locator("#chat-send")).to_be_disabled()
    expect(page.locator("#hint-btn")).to_have_attribute("aria-disabled", "true")
    expect(page.locator("#chat-emotes button").first).to_be_disabled()
    # At 1366 x 768 the chat starts folded: opened by its button, as a person would.
    expect(page.locator("#chat-toggle")).to_have_attribute("aria-expanded", "false")
    page.click("#chat-toggle")
    page.fill("#chat-input", "back soon")
    page.keyboard.press("Enter")
    expect(page.locator("#chat-input")).to_have_value("back soon")
    page.context.set_offline(False)
    expect(page.locator("body")).to_have_attribute("data-stale", "false", timeout=60_000)
    expect(page.locator("#chat-send")).to_be_enabled()
    page.focus("#chat-input")
    page.keyboard.press("Enter")
    expect(page.locator("#chat-log li").last).to_contain_text("back soon")
    expect(page.locator("#chat-input")).to_have_value("")
    # The log is a live region too: a new message is added, the others are not drawn again.
    page.evaluate("document.querySelector('#chat-log li').dataset.kept = 'yes'")
    page.fill("#chat-input", "and here")
    page.keyboard.press("Enter")
    expect(page.locator("#chat-log li").last).to_contain_text("and here")
    expect(page.locator('#chat-log li[data-kept="yes"]')).to_have_count(1)

    # Play goes on by keyboard from the hand's tab stop, at the turn of the hint.
    tab.acted -= 1
    tab.ready(tab.acted)
    page.focus('#hand button[tabindex="0"]')
    play_by_keyboard(tab, 2)
    assert page.evaluate("window.focusLost") == []
    assert not tab.errors, tab.errors
    assert [f for f in tab.received if f["type"] == "error"] == []
    expect(page.locator("#toasts .toast-error")).to_have_count(0)


def said(page: Page, start: str) -> list[str]:
    found: list[str] = page.evaluate(
        "(start) => window.announced.filter((text) => text.startsWith(start))", start
    )
    return found


def test_the_deal_end_is_said_once_and_its_ready_button_keeps_the_focus(
    tmp_path: Path,
    start_server: Callable[..., Server],
    person: Callable[..., Tab],  # noqa: F811
) -> None:
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    # Deal 1 over (North declared clubs, East and West to Porvoo); the table waits for both.
    table_id, tokens, _ = store_match(db, [True], {"N": "Aino", "S": "Eino"})
    server = start_server(db, options=WAIT_LONG)
    aino, eino = person(), person(locale="fi-FI")
    for tab in (aino, eino):
        tab.page.add_init_script(RECORD_ANNOUNCEMENTS)
        tab.page.add_init_script(RECORD_FOCUS_LOST)
    north = open_seat(aino, server, table_id, "N", tokens["N"])
    south = open_seat(eino, server, table_id, "S", tokens["S"])
    for page in (north, south):
        expect(page.locator("#deal-over #ready-btn")).to_be_visible()

    # Said to screen readers once, in each page's language, with every figure of the panel.
    expect_said = {
        north: "Deal 1 is over. NS: clubs trumps 2 + last trick 1 + victory (120 card points) 1"
        " = 4. EW: nothing = 0. NS 0 + 4 = 4. EW took no trick → 0 (Porvoo)",
        south: "Jako 1 päättyi. PE: valtti risti 2 + viimeinen tikki 1 + voitto (120"
        " korttipistettä) 1 = 4. IL: ei mitään = 0. PE 0 + 4 = 4. IL ei saanut tikkiä → 0"
        " (Porvooseen)",
    }
    for page, text in expect_said.items():
        page.wait_for_function("() => window.announced.length > 0")
        assert said(page, text.split(".")[0]) == [text]
    # Suits are named in words in the page's language, not by their glyph.
    expect(north.locator('#sheet tr[data-deal="1"] svg.suit')).to_have_attribute(
        "aria-label", "clubs"
    )
    expect(south.locator('#sheet tr[data-deal="1"] svg.suit')).to_have_attribute(
        "aria-label", "risti"
    )

    # Aino is ready by keyboard: the button says so and keeps the focus as the page redraws.
    north.focus("#ready-btn")
    north.keyboard.press("Enter")
    expect(north.locator("#ready-btn")).to_have_attribute("aria-disabled", "true")
    expect(north.locator("#ready-btn")).to_be_focused()
    expect(south.locator('#ready-seats [data-ready="N"]')).to_be_visible()
    expect(north.locator("#ready-btn")).to_be_focused()
    north.keyboard.press("Enter")  # said once: pressing again sends nothing
    assert [m for m in aino.sent if m.get("type") == "ready"] == [{"type": "ready"}]

    # Eino is ready: deal 2 is dealt and Aino's focus goes on into her hand.
    south.click("#ready-btn")
    expect(north.locator('#sheet tr[data-deal="2"]')).to_have_count(1)
    north.wait_for_function("() => !!document.activeElement?.closest('#hand')")
    assert north.evaluate("window.focusLost") == []
    assert len(said(north, "Deal 1 is over")) == 1
    assert not aino.errors and not eino.errors, (aino.errors, eino.errors)


def test_a_partners_question_is_answered_by_keyboard_and_the_focus_kept(
    tmp_path: Path,
    start_server: Callable[..., Server],
    room: Callable[..., Tab],  # noqa: F811
) -> None:
    server, tokens = serve_choice(tmp_path, start_server)  # W holds two marriages
    tab = room()
    page = tab.page
    page.add_init_script(RECORD_FOCUS_LOST)
    held = HeldSocket(page)
    page.goto(server.url + "/rules")
    keys = json.dumps({"token": tokens["W"], "seat": "W"})
    page.evaluate("(keys) => localStorage.setItem('valtti:table:choice', keys)", keys)
    page.goto(f"{server.url}/t/choice")
    expect(page.locator("body")).to_have_attribute("data-you", "W")
    for _ in range(40):
        if page.evaluate(FOCUSED)["inHand"]:
            break
        page.keyboard.press("Tab")
    asker = server.socket("choice", tokens["E"])
    try:
        asker.state()
        asker.send({"type": "action", "action": "ask-whole", "seq": 4})
        dialog = page.locator("#answer-dialog")
        expect(dialog).to_be_visible()
        # RULES.md 4.2b: the question locks only the asker; W's other marriage stays whole.
        expect(dialog.locator("#answer-text")).to_contain_text("are not broken")
        # Each answer is named once by its suit in words (its icon is hidden: the name follows).
        for token, name in (("answer H", "hearts"), ("answer C", "clubs")):
            button = dialog.get_by_role("button", name=name, exact=True)
            expect(button).to_have_attribute("data-action", token)
        expect(dialog.locator('[data-action="answer H"]')).to_be_focused()
        page.keyboard.press("Escape")  # an answer is owed: the dialog stays
        expect(dialog).to_be_visible()
        held_action(page, held)
        expect(dialog).to_be_hidden()
        page.wait_for_function("() => !!document.activeElement?.closest('#hand')")
        assert page.evaluate("window.focusLost") == []
        assert tab.actions_sent() == ["answer H"]
        assert not tab.errors, tab.errors
    finally:
        asker.close()


def test_what_stops_you_is_said_at_once_and_what_informs_you_politely(
    server: Server,
    room: Callable[..., Tab],  # noqa: F811
) -> None:
    en = catalogue("en")
    tab = room()
    page = tab.page
    page.add_init_script(RECORD_ANNOUNCEMENTS)
    # The lobby refuses a table for a seat without a nickname: said at once beside the field
    # (an alert, not a status, nor a toast), the cursor in the field; gone on typing.
    page.goto(server.url + "/")
    page.wait_for_selector('select[data-variant="target"]', state="attached")
    page.click("#create")
    problem = page.locator("#nickname-problem")
    expect(problem).to_be_visible()
    expect(problem).to_have_text(en["nickname.empty"])
    said = page.get_by_role("alert").filter(has_text=re.compile(r"\S"))
    expect(said).to_have_count(1)
    expect(said).to_have_id("nickname-problem")
    field = page.locator('input[name="nickname"]')
    expect(field).to_be_focused()
    expect(field).to_have_attribute("aria-invalid", "")
    expect(field).to_have_attribute("aria-describedby", "nickname-problem")
    expect(page.locator("#toasts .toast")).to_have_count(0)
    assert page.url.rstrip("/") == server.url.rstrip("/")  # no table was made
    field.press_sequentially("A")
    expect(problem).to_be_hidden()
    expect(field).not_to_have_attribute("aria-invalid", "")

    # At a table, a copied link is news: said politely.
    cut = False  # while set, the page's table socket is closed as soon as it opens

    def route(ws: WebSocketRoute) -> None:
        if cut:
            ws.close()
        else:
            sockets.append(ws)
            ws.connect_to_server()

    sockets: list[WebSocketRoute] = []
    page.route_web_socket(re.compile(r"/api/tables/.*/ws"), route)
    sit_at(tab, server, {"N": "open", "E": "random", "W": "random"})
    page.click("#copy-link")
    expect(page.locator("#toasts .toast-info")).to_have_count(1)
    told = page.get_by_role("status").filter(has=page.locator(".toast-info"))
    expect(told).to_have_text(page.locator("#toasts .toast-info").inner_text())
    expect(page.locator('#toasts [role="alert"] .toast')).to_have_count(0)

    # A lost connection stops all play: said at once; that it is back, politely.
    cut = True
    sockets[-1].close()
    expect(page.locator("#connection")).to_have_attribute("data-connection", "lost")
    page.wait_for_function("() => window.alerted.length > 0")
    assert page.evaluate("window.alerted") == [en["connection.lost"]]
    cut = False
    expect(page.locator("#connection")).to_have_attribute("data-connection", "back")
    assert page.evaluate("window.alerted") == [en["connection.lost"]]
    assert en["connection.back"] in page.evaluate("window.announced")
    assert not tab.errors, tab.errors


# Each toast's text, and whether it is the topmost thing where it stands (hit-testing reaches
# it: no dialog's backdrop over it, and not inert as all outside a modal dialog is).
TOASTS_ON_TOP = """() => [...document.querySelectorAll("#toasts .toast")].map((toast) => {
  const r = toast.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return [toast.textContent, !!hit && toast.contains(hit)];
})"""


def heard(page: Page) -> list[str]:
    """The texts a screen reader can reach: the page's accessibility tree, less what it
    ignores (all outside a modal dialog)."""
    tree = page.context.new_cdp_session(page).send("Accessibility.getFullAXTree")
    return [
        str(node["name"]["value"])
        for node in tree["nodes"]
        if not node.get("ignored") and node.get("role", {}).get("value") == "StaticText"
    ]


@pytest.mark.parametrize("viewport", ["desktop", "phone-portrait"])
def test_a_toast_is_seen_and_heard_over_a_dialog(
    server: Server,
    room: Callable[..., Tab],  # noqa: F811
    viewport: str,
) -> None:
    tab = room(viewport)
    page = tab.page
    page.clock.install()
    sit_at(tab, server, {"N": "open", "E": "random", "W": "random"})  # waiting for North
    expect(page.locator("#copy-link")).to_be_visible()
    # Toasts leave after a few seconds: the clock stands still while they are looked at.
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    # Hit-testing as if the toasts took the pointer (they let it through to the table).
    page.add_style_tag(content="#toasts, #toasts * { pointer-events: auto !important; }")

    def check(count: int) -> None:
        expect(page.locator("#toasts .toast")).to_have_count(count)
        # The toasts move at a dialog's toggle and close events, which come a task after it
        # opens or closes: until then they may still be in the dialog just closed (about 1
        # run in 4 checked that moment).
        for _ in range(40):
            shown = page.evaluate(TOASTS_ON_TOP)
            if all(on_top for _, on_top in shown):
                break
            page.wait_for_timeout(25)
        assert all(on_top for _, on_top in shown), shown
        texts = heard(page)
        assert all(texts.count(text) >= count for text, _ in shown), (shown, texts)

    page.click("#copy-link")  # the waiting panel's link copied: a toast over the table
    check(1)
    page.click("#share-btn")  # the share dialog opened over the toast: it stays on top
    dialog = page.locator("#share-dialog")
    expect(dialog).to_be_visible()
    check(1)
    page.click("#share-dialog-copy")  # copied in the dialog: said over its backdrop
    check(2)
    page.click("#share-dialog-close")  # closed: the toasts stay until their time is up
    expect(dialog).to_be_hidden()
    check(2)
    page.clock.resume()
    expect(page.locator("#toasts .toast")).to_have_count(0, timeout=10_000)
    assert not tab.errors, tab.errors


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_a_move_the_database_did_not_take_is_said_and_can_be_played_again(
    server: Server,
    room: Callable[..., Tab],  # noqa: F811
    lang: str,
) -> None:
    # The server answers `unavailable` when its database did not take a move (docs/WEB.md):
    # nothing was played and the same move may be sent again. The page said only "Something
    # went wrong (unavailable)." Here the page's first action gets that answer, as the server
    # words it, instead of reaching the server.
    words = catalogue(lang)
    tab = room(locale="fi-FI" if lang == "fi" else "en-GB")
    page = tab.page
    refused: list[str] = []

    def route(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()

        def up(message: str | bytes) -> None:
            sent = json.loads(message)
            if sent.get("type") == "action" and not refused:
                refused.append(sent["action"])
                answer = {"type": "error", "code": "unavailable"}
                answer["message"] = "the move could not be saved; send it again"
                ws.send(json.dumps(answer))
            else:
                upstream.send(message)

        ws.on_message(up)

    page.route_web_socket(re.compile(r"/api/tables/.*/ws"), route)
    sit_at(tab, server, {"N": "random", "E": "random", "W": "random"})
    # South's first turn is in trick 1, where no question or declaration may come.
    card = page.locator("#hand [data-card][data-legal='true']:not([disabled])").first
    token = card.get_attribute("data-card")
    card.click()
    toast = page.locator('#toasts .toast-error[data-code="unavailable"]')
    expect(toast).to_have_text(words["error.unavailable"])
    assert "unavailable" not in words["error.unavailable"]
    # Nothing was played: the same card may be played again, and this time it is.
    again = page.locator(f'#hand [data-card="{token}"]')
    expect(again).to_be_enabled()
    again.click()
    expect(page.locator(f'#hand [data-card="{token}"]')).to_have_count(0)
    assert refused == [token]
    assert not tab.errors, tab.errors
