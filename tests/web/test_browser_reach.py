"""The share link in a real browser (Playwright, Debian's Chromium): an address others can open,
and a warning in the page's language when only this computer can; and the pages under their
Content-Security-Policy.

Chromium resolves the names ``friend.test`` and ``cards.test`` to 127.0.0.1, so that a page can
be opened at an address that is not a loopback one while every request stays on this machine.
Needs /usr/bin/chromium: skipped without it, failed under CI=true.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright
from tests.web.serving import ALL_OPEN, Server

CHROMIUM = Path("/usr/bin/chromium")
CATALOGUES = Path(__file__).resolve().parents[2] / "src" / "valtti" / "web" / "static" / "i18n"
WAIT = 20_000
NAMES = ("friend.test", "cards.test")


def catalogue(lang: str) -> dict[str, str]:
    texts: dict[str, str] = json.loads((CATALOGUES / f"{lang}.json").read_text("utf-8"))
    return texts


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {CHROMIUM} is missing: the browser tests need it")
        pytest.skip(f"browser tests need Debian's Chromium at {CHROMIUM} (apt install chromium)")
    rules = ", ".join(f"MAP {name} 127.0.0.1" for name in NAMES)
    with sync_playwright() as p:
        launched = p.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=[f"--host-resolver-rules={rules}", "--no-proxy-server"],
        )
        yield launched
        launched.close()


@pytest.fixture
def new_page(browser: Browser) -> Iterator[Callable[..., Page]]:
    contexts: list[BrowserContext] = []

    def make(locale: str = "en-GB") -> Page:
        contexts.append(browser.new_context(locale=locale))
        contexts[-1].set_default_timeout(WAIT)
        page = contexts[-1].new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.errors = errors  # type: ignore[attr-defined]
        return page

    yield make
    for context in contexts:
        context.close()


def _waiting_link(page: Page, url: str, link: str) -> None:
    """Open a waiting table's page at ``url``: it offers ``link`` to share."""
    page.goto(url)
    expect(page.locator("#waiting")).to_be_visible()
    expect(page.locator("#share-link")).to_have_value(link)


def test_a_loopback_link_is_given_with_a_warning(
    server: Server, new_page: Callable[..., Page]
) -> None:
    table_id = server.create(ALL_OPEN)["id"]
    url = f"{server.url}/t/{table_id}"
    for lang in ("en", "fi"):
        page = new_page("fi-FI" if lang == "fi" else "en-GB")
        _waiting_link(page, url, url)
        warning = page.locator("#share-warning")
        expect(warning).to_be_visible()
        expect(warning).to_have_text(catalogue(lang)["table.share.loopback"])
        page.locator("#share-btn").click()
        expect(page.locator("#share-dialog-link")).to_have_value(url)
        expect(page.locator("#share-dialog-warning")).to_be_visible()
        # The lobby says so too, before anyone makes a table.
        page.goto(server.url + "/")
        expect(page.locator("#reach-warning")).to_have_text(catalogue(lang)["lobby.loopback"])
        assert page.errors == []  # type: ignore[attr-defined]


def test_the_address_the_browser_used_is_the_link(
    tmp_path: Path, new_page: Callable[..., Page]
) -> None:
    # On a network a friend may open the server by any name the network gives it.
    server = Server(f"sqlite:///{tmp_path / 'valtti.db'}", options=["--host", "0.0.0.0"]).start()
    try:
        table_id = server.create(ALL_OPEN)["id"]
        page = new_page()
        url = f"http://friend.test:{server.port}/t/{table_id}"
        # The page plays from there: the Origin check lets a page of the server's own origin in.
        _waiting_link(page, url, url)
        expect(page.locator("#share-warning")).to_be_hidden()
        page.goto(f"http://friend.test:{server.port}/")
        page.wait_for_selector('select[data-variant="target"]', state="attached")
        page.wait_for_load_state("networkidle")
        expect(page.locator("#reach-warning")).to_be_hidden()
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        server.stop()


def test_a_server_on_this_machine_only_refuses_another_name(
    server: Server, new_page: Callable[..., Page]
) -> None:
    # friend.test points at 127.0.0.1 as a rebinding site's name would: the page is refused.
    table_id = server.create(ALL_OPEN)["id"]
    page = new_page()
    answer = page.goto(f"http://friend.test:{server.port}/t/{table_id}")
    assert answer is not None and answer.status == 400
    assert '"bad_host"' in page.content()


def test_a_public_url_is_the_link(tmp_path: Path, new_page: Callable[..., Page]) -> None:
    server = Server(f"sqlite:///{tmp_path / 'valtti.db'}")
    public = f"http://cards.test:{server.port}"
    server.options += ["--public-url", public]
    server.start()
    try:
        table_id = server.create(ALL_OPEN)["id"]
        # At its public address the page plays and shares that address.
        page = new_page()
        _waiting_link(page, f"{public}/t/{table_id}", f"{public}/t/{table_id}")
        expect(page.locator("#share-warning")).to_be_hidden()
        assert page.errors == []  # type: ignore[attr-defined]
        # At another address too it shares the public one (and may not play from there).
        other = new_page()
        other.goto(f"{server.url}/t/{table_id}")
        other.locator("#share-btn").click()
        expect(other.locator("#share-dialog-link")).to_have_value(f"{public}/t/{table_id}")
        expect(other.locator("#share-dialog-warning")).to_be_hidden()
    finally:
        server.stop()


# Every breach of the page's Content-Security-Policy, kept where the test can read it.
WATCH_CSP = """document.addEventListener("securitypolicyviolation", (e) => {
  (window.cspBreaches ??= []).push(`${e.violatedDirective} ${e.blockedURI}`);
});"""


def test_the_pages_keep_to_their_content_security_policy(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    page.add_init_script(WATCH_CSP)
    page.goto(server.url + "/")
    page.wait_for_selector('select[data-variant="target"]', state="attached")
    assert page.evaluate("window.cspBreaches ?? []") == []
    seats = {"N": "random", "E": "random", "S": "open", "W": "random"}
    created = server.create(seats, seat="S", nickname="Aino")
    keys = json.dumps({"token": created["token"], "seat": "S"})
    page.evaluate(
        "([id, keys]) => localStorage.setItem(`valtti:table:${id}`, keys)", [created["id"], keys]
    )
    page.goto(f"{server.url}/t/{created['id']}")
    playable = page.locator("#hand [data-card][data-legal='true']:not([disabled])")
    playable.first.click()
    page.wait_for_selector('#trick [data-by="S"], #last-trick [data-by="S"]', state="attached")
    page.locator("#share-btn").click()
    expect(page.locator("#share-dialog-link")).to_have_value(f"{server.url}/t/{created['id']}")
    assert page.evaluate("window.cspBreaches ?? []") == []
    assert page.errors == []  # type: ignore[attr-defined]
