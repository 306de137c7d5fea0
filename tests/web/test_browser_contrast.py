"""Contrast and the rest of WCAG 2 A/AA that a page can check on itself, on the web pages in a
real browser (Playwright, Debian's Chromium), checked by axe-core (the devDependency of
package.json, node_modules/axe-core): the lobby, the table in play (the felt's facts, the hand,
the side panels, the open chat, a word explained), the hint's panel, the deal's end with an
overshoot and a Porvoo, the dialog of a marriage to name, and a finished match's review beside
its replay with a decision chosen (its graphs, marks, list and the board's marks). Every rule
of axe-core's wcag2a and wcag2aa tags is run, color-contrast among them (what it cannot decide,
such as text over the felt's gradient, it leaves out).

axe-core is evaluated in the page through the browser's debugging protocol, as the pages'
Content-Security-Policy (script-src 'self') rightly refuses an injected script tag; nothing is
added to the application. Without node_modules/axe-core (``npm ci``) the tests are skipped, and
fail under CI=true.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.web.crafted import store_match
from tests.web.serving import Server
from tests.web.test_browser import (  # noqa: F401  (fixtures used by name)
    ROOT,
    Tab,
    browser,
    catalogue,
    open_seat,
    playwright,
)
from tests.web.test_browser_room import room  # noqa: F401
from tests.web.test_server_private import serve_choice

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.serve]

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"

# The WCAG 2 A/AA failures in the document (or under ``selector``): each rule's nodes, with why.
RUN_AXE = """async (selector) => {
  const context = selector ? document.querySelector(selector) : document;
  const result = await axe.run(context, {
    runOnly: { type: "tag", values: ["wcag2a", "wcag2aa"] },
    resultTypes: ["violations"],
  });
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}: ${n.failureSummary}`));
}"""


@pytest.fixture(scope="module")
def axe_source() -> str:
    """axe-core's script, from node_modules (``npm ci``)."""
    if not AXE.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {AXE} is missing: run npm ci (axe-core is a devDependency)")
        pytest.skip(f"the contrast tests need axe-core at {AXE} (npm ci)")
    return AXE.read_text("utf-8")


def contrast_failures(page: Page, source: str, selector: str | None = None) -> list[str]:
    """What axe-core finds against WCAG 2 A/AA (contrast among it) on the page as it is now."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(source)
    failures: list[str] = page.evaluate(RUN_AXE, selector)
    return failures


def test_the_lobby_and_the_table_in_play_have_enough_contrast(
    server: Server,
    room: Callable[..., Tab],  # noqa: F811
    axe_source: str,
) -> None:
    tab = room("desktop")
    page = tab.page
    page.goto(server.url + "/")
    page.wait_for_selector('select[data-variant="target"]', state="attached")
    assert contrast_failures(page, axe_source) == []

    made = server.create(
        {"N": "heuristic", "E": "heuristic", "S": "open", "W": "heuristic"},
        nickname="Aino",
        seat="S",
    )
    open_seat(tab, server, made["id"], "S", made["token"])
    expect(page.locator("#hand [data-card]")).to_have_count(9)
    # The chat opened (at 1366 x 768 it starts folded, its button and badge in the corner).
    if page.locator("#chat-toggle").get_attribute("aria-expanded") == "false":
        page.click("#chat-toggle")
    expect(page.locator("#chat")).to_be_visible()
    # A word explained, and the hint's panel as it floats beside the hand (filled here as
    # hint.js fills it: asking the server's solver for one takes too long for this test).
    page.click('#felt-info [data-term="trumps"]')
    expect(page.locator("#term-pop")).to_be_visible()
    page.evaluate(
        """() => {
          document.getElementById("hint-heading").textContent = "Best: 10♥";
          document.getElementById("hint-worlds").textContent = "(over 40 sampled deals)";
          const li = document.createElement("li");
          for (const [cls, text] of [["hint-move", "10♥"], ["hint-value", "+1.25"],
                                     ["hint-share", "60%"], ["hint-reason", "wins the trick"]]) {
            const span = document.createElement("span");
            span.className = cls;
            span.textContent = text;
            li.append(span);
          }
          document.getElementById("hint-moves").replaceChildren(li);
          document.getElementById("hint").hidden = false;
        }"""
    )
    expect(page.locator("#hint")).to_be_visible()
    assert contrast_failures(page, axe_source) == []
    assert not tab.errors, tab.errors


def test_the_deal_end_with_an_overshoot_and_a_porvoo_has_enough_contrast(
    tmp_path: Path,
    start_server: Callable[..., Server],
    room: Callable[..., Tab],  # noqa: F811
    axe_source: str,
) -> None:
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    # North and South take every trick with clubs in three deals: 12 is over 10, back to 7;
    # East and West go to Porvoo.
    table_id, tokens, _ = store_match(db, [True, True, True])
    server = start_server(db, options=["--next-deal-seconds", "600"])
    tab = room("desktop")
    page = open_seat(tab, server, table_id, "N", tokens["N"])
    panel = page.locator("#deal-over")
    expect(panel.locator('[data-overshoot="true"]')).to_be_visible()
    expect(panel.locator('[data-porvoo="true"]')).to_be_visible()
    # The two words explained where they are said.
    words = catalogue("en")
    porvoo = panel.locator('[data-porvoo="true"]')
    expect(porvoo).to_have_attribute("title", words["term.porvoo"])
    expect(panel.locator('[data-overshoot="true"]')).to_have_attribute(
        "title", words["term.overshoot"].format(target=10, overshoot=7)
    )
    assert contrast_failures(page, axe_source, "#deal-over") == []
    assert contrast_failures(page, axe_source) == []
    assert not tab.errors, tab.errors


@pytest.mark.parametrize("viewport", ["desktop", "phone-portrait"])
def test_the_review_beside_the_replay_has_enough_contrast(
    tmp_path: Path,
    start_server: Callable[..., Server],
    room: Callable[..., Tab],  # noqa: F811
    axe_source: str,
    viewport: str,
) -> None:
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    table_id, _tokens, _ = store_match(db, [True, True, False])
    server = start_server(db, options=["--next-deal-seconds", "600"])
    tab = room(viewport)
    page = tab.page
    page.goto(f"{server.url}/t/{table_id}#replay")
    page.click("#review-open")
    expect(page.locator("#review")).to_be_visible(timeout=300_000)
    page.locator("li.review-decision[data-mark] .review-go").first.click()
    expect(page.locator("#review-moment")).to_be_visible()
    expect(page.locator('[data-review="better"]')).to_have_count(1)
    assert contrast_failures(page, axe_source, "#review") == []
    assert contrast_failures(page, axe_source) == []
    assert not tab.errors, tab.errors


def test_the_dialog_of_a_marriage_to_name_has_enough_contrast(
    tmp_path: Path,
    start_server: Callable[..., Server],
    room: Callable[..., Tab],  # noqa: F811
    axe_source: str,
) -> None:
    server, tokens = serve_choice(tmp_path, start_server)  # E may ask whole; W would choose
    east = server.socket("choice", tokens["E"])
    state: dict[str, Any] = east.state()
    tab = room("phone-portrait")
    page = open_seat(tab, server, "choice", "W", tokens["W"])
    east.send({"type": "action", "action": "ask-whole", "seq": state["seq"]})
    expect(page.locator("#answer-dialog")).to_be_visible()
    expect(page.locator("#answer-dialog [data-action]").first).to_be_visible()
    assert contrast_failures(page, axe_source, "#answer-dialog") == []
    east.close()
    assert not tab.errors, tab.errors
