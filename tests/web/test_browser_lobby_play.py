"""One click to a game (issue 32) in a real browser (Playwright, Debian's Chromium): "Play
against the computer" with a nickname remembered from the last visit, Create in the first
screen of a laptop and a phone, tables listed by their names, three computer players named
apart, and the list's filter and page in the address. Needs /usr/bin/chromium: skipped without
it, failed under CI=true.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from tests.web.serving import ALL_OPEN, Server
from tests.web.test_browser import (  # noqa: F401  (fixtures used by name)
    assert_in_language,
    browser,
    catalogue,
    new_context,
    playwright,
)
from tests.web.test_browser_lobby import computer_name

from valtti.web.referee.rooms import PAGE_SIZE

COMPUTERS = ("N", "E", "W")


def _lobby(page: Page, url: str) -> None:
    page.goto(url + "/")
    expect(page.locator("#play-computer")).to_be_enabled()


def test_play_against_the_computer_is_one_click_after_a_nickname(
    server: Server,
    new_context: Callable[..., BrowserContext],  # noqa: F811
) -> None:
    context = new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    texts = catalogue("en")
    _lobby(page, server.url)
    nickname = page.locator('#create-form input[name="nickname"]')
    expect(nickname).to_have_value("")

    # Without a nickname the click says so beside the field and puts the cursor there.
    page.click("#play-computer")
    problem = page.locator("#nickname-problem")
    expect(problem).to_have_text(texts["nickname.empty"])
    expect(nickname).to_be_focused()
    assert page.url == server.url + "/"
    page.keyboard.type("Anna")
    expect(problem).to_be_hidden()

    page.click("#play-computer")
    page.wait_for_url("**/t/*")
    table_id = page.url.rsplit("/t/", 1)[1]
    expect(page.locator("body")).to_have_attribute("data-you", "S")
    expect(page.locator("#hand [data-card]")).to_have_count(9)
    # Three computer players of one level, each named by its seat.
    names = [computer_name(texts, seat, "club") for seat in COMPUTERS]
    assert len(set(names)) == 3
    for seat, name in zip(COMPUTERS, names, strict=True):
        shown = page.locator(f'.felt .seat[data-seat="{seat}"] .name')
        word = texts[f"seat.{seat}.name"]
        expect(shown).to_have_text(word[0].upper() + word[1:])
        expect(shown).to_have_attribute("title", f"{name} (club)")
        level = page.locator(f'.felt .seat[data-seat="{seat}"] .level')
        expect(level).to_have_text(texts["player.level.club"])
    felt_names = page.locator('.felt .seat[data-kind="computer"] .name').all_inner_texts()
    assert len(set(felt_names)) == 3, felt_names

    # The table is named for its host, in the page's language, and so kept by the server.
    default = texts["lobby.name.default"].replace("{name}", "Anna")
    assert server.http.get(f"/api/tables/{table_id}").json()["name"] == default

    # The next visit remembers the nickname, and lists the table by its name among this
    # browser's own: nobody could join it, so the public list leaves it out.
    _lobby(page, server.url)
    expect(nickname).to_have_value("Anna")
    item = page.locator(f'#my-tables > li[data-table="{table_id}"]')
    expect(item.locator(".table-name")).to_have_text(default)
    expect(page.locator("#mine-heading")).to_have_text(texts["lobby.mine"])
    expect(item.locator(".badge-unlisted")).to_have_text(texts["lobby.unlisted"])
    expect(item.locator("a[data-open]")).to_have_text(texts["lobby.resume"])
    for seat, name in zip(COMPUTERS, names, strict=True):
        expect(item.locator(f'.seat-chip[data-seat="{seat}"] .name')).to_have_text(name)
    public = server.create(ALL_OPEN)["id"]  # one the list shows, to know it is drawn
    page.click("#refresh")
    expect(page.locator(f'#tables > li[data-table="{public}"]')).to_be_attached()
    expect(page.locator(f'#tables > li[data-table="{table_id}"]')).to_have_count(0)
    # Another browser sees no trace of it in the lobby.
    other = new_context().new_page()
    _lobby(other, server.url)
    expect(other.locator(f'#tables > li[data-table="{public}"]')).to_be_attached()
    expect(other.locator(f'li[data-table="{table_id}"]')).to_have_count(0)
    expect(other.locator("#mine")).to_be_hidden()
    # Its creator closes it from the lobby, asked first: it leaves their tables, and its page
    # says it was closed.
    item.locator("button[data-close]").click()
    confirm = page.locator("dialog.confirm-dialog")
    expect(confirm).to_contain_text(texts["lobby.close.confirm"].replace("{name}", default))
    confirm.locator('[data-confirm="no"]').click()
    expect(confirm).to_have_count(0)
    assert server.http.get(f"/api/tables/{table_id}").json()["status"] == "playing"
    item.locator("button[data-close]").click()
    page.locator('dialog.confirm-dialog [data-confirm="yes"]').click()
    expect(item).to_have_count(0)
    expect(page.locator("#mine")).to_be_hidden()
    summary = server.http.get(f"/api/tables/{table_id}").json()
    assert (summary["status"], summary["closed"]) == ("closed", "creator")
    page.goto(f"{server.url}/t/{table_id}")
    expect(page.locator("body")).to_have_attribute("data-status", "closed")
    expect(page.locator("#result-text")).to_have_text(texts["table.closed.creator"])
    expect(page.locator("#turn")).to_have_text(texts["table.turn.closed"])
    expect(page.locator('.felt [data-turn="true"]')).to_have_count(0)
    expect(page.locator("#lobby-link")).to_be_visible()
    for hidden in ("#replay-btn", "#record-link", "#rematch"):
        expect(page.locator(hidden)).to_be_hidden()
    expect(page.locator("#hand [data-card]:not([disabled])")).to_have_count(0)
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_both_ways_to_a_table_are_in_the_first_screen(
    lang: str,
    server: Server,
    new_context: Callable[..., BrowserContext],  # noqa: F811
) -> None:
    page = new_context("fi-FI" if lang == "fi" else "en-GB").new_page()
    texts = catalogue(lang)
    for width, height in ((1366, 768), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        _lobby(page, server.url)
        for button in ("#play-computer", "#create"):
            box = page.locator(button).bounding_box()
            assert box is not None
            assert box["y"] >= 0 and box["y"] + box["height"] <= height, (width, button, box)
        # The eight variant switches wait under "More options", which says the rules chosen.
        variants = page.locator("details.variants")
        assert not variants.evaluate("d => d.open")
        expect(page.locator("#variants-now")).to_have_text(
            texts["lobby.more.now"].replace("{variant}", texts["lobby.variant.default"])
        )
        assert_in_language(page, lang)


def test_the_lists_filter_and_page_are_in_the_address(
    tmp_path: Path,
    start_server: Callable[..., Server],
    new_context: Callable[..., BrowserContext],  # noqa: F811
) -> None:
    server = start_server(f"sqlite:///{tmp_path / 'valtti.db'}")
    for _ in range(PAGE_SIZE + 1):  # two pages of waiting tables
        server.create(ALL_OPEN)
    playing = server.create({"N": "open", "E": "random", "S": "random", "W": "random"})["id"]
    server.join(playing, "N", "Eero")
    page = new_context().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    texts = catalogue("en")
    _lobby(page, server.url)

    # The filter and the page are the address's: a reload keeps them, back goes through them.
    page.click('#filters [data-filter="playing"]')
    expect(page).to_have_url(f"{server.url}/?status=playing")
    # A table made without a name goes by its first person's.
    expect(page.locator(f'#tables > li[data-table="{playing}"] .table-name')).to_have_text(
        texts["lobby.name.default"].replace("{name}", "Eero")
    )
    page.click('#filters [data-filter="waiting"]')
    expect(page).to_have_url(f"{server.url}/?status=waiting")
    page.click("#page-next")
    expect(page).to_have_url(f"{server.url}/?status=waiting&page=2")
    expect(page.locator("#page-info")).to_have_text("Page 2 of 2")
    page.reload()
    expect(page.locator("#page-info")).to_have_text("Page 2 of 2")
    waiting = page.locator('#filters [data-filter="waiting"]')
    expect(waiting).to_have_attribute("aria-pressed", "true")
    page.go_back()
    expect(page).to_have_url(f"{server.url}/?status=waiting")
    expect(page.locator("#page-info")).to_have_text("Page 1 of 2")
    page.go_back()
    expect(page.locator('#filters [data-filter="playing"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(page.locator("#tables > li.table-item")).to_have_count(1)
    page.go_forward()
    expect(waiting).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#tables > li.table-item")).to_have_count(PAGE_SIZE)
    assert errors == []


def test_a_table_named_in_the_form_is_listed_by_that_name(
    server: Server,
    new_context: Callable[..., BrowserContext],  # noqa: F811
) -> None:
    page = new_context(locale="fi-FI").new_page()
    texts = catalogue("fi")
    _lobby(page, server.url)
    page.fill('#create-form input[name="nickname"]', "Aino")
    # The name field offers the nickname's table until a name is typed.
    name = page.locator("#create-form input[data-table-name]")
    default = texts["lobby.name.default"].replace("{name}", "Aino")
    expect(name).to_have_attribute("placeholder", default)
    name.fill("  Perjantain kerho ")
    for seat in ("N", "E", "W"):
        page.select_option(f'select[data-seat-player="{seat}"]', "open")
    page.click("#create")
    page.wait_for_url("**/t/*")
    named = page.url.rsplit("/t/", 1)[1]
    _lobby(page, server.url)
    item = page.locator(f'#tables > li[data-table="{named}"]')
    expect(item.locator(".table-name")).to_have_text("Perjantain kerho")
    title = texts["lobby.table.id"].replace("{id}", named)
    expect(item.locator(".table-name")).to_have_attribute("title", title)


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_a_creator_closes_a_table_nobody_came_to(
    lang: str,
    server: Server,
    new_context: Callable[..., BrowserContext],  # noqa: F811
) -> None:
    texts = catalogue(lang)
    locale = "fi-FI" if lang == "fi" else "en-GB"
    page = new_context(locale).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    _lobby(page, server.url)
    page.fill('#create-form input[name="nickname"]', "Aino")
    for seat in ("N", "E", "W"):
        page.select_option(f'select[data-seat-player="{seat}"]', "open")
    page.click("#create")
    page.wait_for_url("**/t/*")
    table_id = page.url.rsplit("/t/", 1)[1]
    watcher = new_context(locale).new_page()
    watcher.goto(f"{server.url}/t/{table_id}")
    expect(watcher.locator("body")).to_have_attribute("data-status", "waiting")
    expect(watcher.locator("#close-table")).to_be_hidden()  # only its creator may
    close = page.locator("#close-table")
    expect(close).to_have_text(texts["table.close"])
    close.click()
    page.locator('dialog.confirm-dialog [data-confirm="yes"]').click()
    for shown in (page, watcher):
        expect(shown.locator("body")).to_have_attribute("data-status", "closed")
        expect(shown.locator("#result-text")).to_have_text(texts["table.closed.creator"])
        expect(shown.locator("#waiting")).to_be_hidden()
        expect(shown.locator("button[data-take]")).to_have_count(0)
        expect(shown.locator("#lobby-link")).to_have_text(texts["table.to_lobby"])
    _lobby(page, server.url)
    expect(page.locator(f'li[data-table="{table_id}"]')).to_have_count(0)
    assert errors == []
