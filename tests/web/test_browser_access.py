"""The web table for people who play without a mouse or without sight, and on a connection
that drops, in a real browser (Playwright, Debian's Chromium): the lobby's seat controls named
by their seat, the focus never dropped to the page after a play, a hint or at a deal's end, the
deal's end said once to screen readers in the page's language, suits named in words, the chat
while the connection is lost, and the seat to move marked in forced colours.

Reuses the browser and helpers of test_browser.py, test_browser_room.py and
test_browser_ends.py.
"""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import expect
from tests.web.serving import Server
from tests.web.test_browser import (  # noqa: F401  (fixtures used by name)
    WAIT,
    Tab,
    browser,
    playwright,
)
from tests.web.test_browser_ends import WAIT_LONG, open_seat, person  # noqa: F401
from tests.web.test_browser_room import (  # noqa: F401
    FOCUSED,
    RECORD_ANNOUNCEMENTS,
    room,
    sit_at,
)

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

SEAT_WORDS = {
    "en": {"N": "north", "E": "east", "S": "south", "W": "west"},
    "fi": {"N": "pohjoinen", "E": "itä", "S": "etelä", "W": "länsi"},
}
MINE = {"en": "I sit here", "fi": "Istun tässä"}


def test_the_lobby_names_each_seats_controls_by_the_seat(
    server: Server,
    room: Callable[..., Tab],  # noqa: F811
) -> None:
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
