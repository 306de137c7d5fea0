"""The lobby with many tables in a real browser (Playwright, Debian's Chromium): waiting tables
first, the filters, the pages, an idle table marked, finished ones ageing out of the list but
opening by their link, the page staying short; the 404 page of an unknown table, and a table
made while the server is out of reach (or behind a proxy, down), in English and Finnish. Needs
/usr/bin/chromium: skipped without it, failed under CI=true.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, Route, expect
from tests.web.serving import ALL_OPEN, Server
from tests.web.test_browser import (  # noqa: F401  (fixtures used by name)
    WAIT,
    assert_in_language,
    browser,
    catalogue,
    new_context,
    playwright,
    translated_text,
)
from tests.web.test_store import play_and_store

from valtti.engine import Match, Seat, Variant
from valtti.players.shipped import LEVELS, strengths
from valtti.web.db.rows import SeatRow, TableRow
from valtti.web.db.store import Store
from valtti.web.referee.rooms import IDLE_AFTER, LISTED_AFTER_FINISH, PAGE_SIZE

WAITING = 2 * PAGE_SIZE + 3  # made over HTTP, besides the stored ones
#: Most the lobby may be high with a full page of tables, at 1280 × 800 (the create panel
#: beside the list is about 1,300 px): with every table on one page, 25 made 3,300 px.
SHORT = 1800


def _stored(db_url: str) -> None:
    """An old waiting table nobody came to, and two finished matches, one ended long ago."""
    store = Store(db_url)
    now = dt.datetime.now(dt.UTC)
    old = now - IDLE_AFTER - dt.timedelta(hours=1)
    store.create_table(
        TableRow("forgotten", old, Variant(), Seat.N, 1, "c" * 64, "waiting"),
        [SeatRow(s, "open", None, None) for s in Seat],
    )
    for table_id, ended in (
        ("ended-today", dt.timedelta(hours=1)),
        ("ended-long-ago", LISTED_AFTER_FINISH * 2),
    ):
        store.create_table(
            TableRow(table_id, now - ended, Variant(), Seat.N, 2, "c" * 64, "playing"),
            [SeatRow(s, "computer", "random", None) for s in Seat],
        )
        play_and_store(store, table_id, Match(Variant(), Seat.N), random.Random(table_id))
        store.set_status(table_id, "finished", at=now - ended)
    store.close()


def _listed(page: Page) -> list[tuple[str, str, bool]]:
    items = page.locator("#tables > li.table-item")
    return [
        (
            str(item.get_attribute("data-table")),
            str(item.get_attribute("data-status")),
            item.get_attribute("data-idle") is not None,
        )
        for item in items.all()
    ]


def test_the_lobby_filters_and_pages_many_tables_and_stays_short(
    tmp_path: Path,
    start_server: Callable[..., Server],
    new_context: Callable[..., BrowserContext],  # noqa: F811
) -> None:
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    _stored(db)
    server = start_server(db)
    made = [server.create(ALL_OPEN)["id"] for _ in range(WAITING)]
    playing = server.create({"N": "open", "E": "random", "S": "random", "W": "random"})["id"]
    server.join(playing, "N")
    texts = catalogue("en")
    page = new_context().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")

    waiting_ids = [*made[::-1], "forgotten"]
    total = WAITING + 1 + 1 + 1  # and the playing one and the finished one still listed
    pages = -(-total // PAGE_SIZE)
    expect(page.locator("#page-info")).to_have_text(f"Page 1 of {pages}")
    expect(page.locator("#tables > li.table-item")).to_have_count(PAGE_SIZE)
    assert [t[0] for t in _listed(page)] == waiting_ids[:PAGE_SIZE]
    assert page.locator("#page-prev").is_disabled()
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height < SHORT, height

    # The next pages, to the last: the rest of the waiting ones, the playing, the finished one.
    shown: list[tuple[str, str, bool]] = _listed(page)
    for number in range(2, pages + 1):
        page.click("#page-next")
        expect(page.locator("#page-info")).to_have_text(f"Page {number} of {pages}")
        expect(page.locator(f'#tables > li[data-table="{shown[-1][0]}"]')).to_have_count(0)
        shown += _listed(page)
    assert page.locator("#page-next").is_disabled()
    assert [t[0] for t in shown] == [*waiting_ids, playing, "ended-today"]
    assert [t[1] for t in shown] == ["waiting"] * len(waiting_ids) + ["playing", "finished"]
    # Only the table nobody came to for long is idle, and it says so.
    assert [t[0] for t in shown if t[2]] == ["forgotten"]
    idle = page.locator('#tables > li[data-table="forgotten"] .badge-idle')
    expect(idle).to_have_text(texts["lobby.idle"])
    expect(idle).to_have_attribute("title", texts["lobby.idle.hint"])

    # The filters: each shows its own tables from their first page, the pager only if needed.
    for name, ids in (("finished", ["ended-today"]), ("playing", [playing])):
        page.click(f'#filters [data-filter="{name}"]')
        expect(page.locator(f'#filters [data-filter="{name}"]')).to_have_attribute(
            "aria-pressed", "true"
        )
        expect(page.locator("#tables > li.table-item")).to_have_count(len(ids))
        assert [t[0] for t in _listed(page)] == ids
        expect(page.locator("#pager")).to_be_hidden()
    page.click('#filters [data-filter="waiting"]')
    expect(page.locator("#page-info")).to_have_text(
        f"Page 1 of {-(-len(waiting_ids) // PAGE_SIZE)}"
    )
    expect(page.locator(f'#tables > li[data-table="{waiting_ids[0]}"]')).to_have_count(1)
    assert {t[1] for t in _listed(page)} == {"waiting"}
    page.click('#filters [data-filter="all"]')
    expect(page.locator("#tables > li.table-item")).to_have_count(PAGE_SIZE)

    # The same in Finnish.
    page.select_option("#lang", "fi")
    fi = catalogue("fi")
    expect(page.locator('#filters [data-filter="finished"]')).to_have_text(
        fi["lobby.filter.finished"]
    )
    expect(page.locator("#page-info")).to_have_text(f"Sivu 1/{pages}")
    assert_in_language(page, "fi")

    # The match that ended long ago is in no list, but its link opens it.
    page.goto(f"{server.url}/t/ended-long-ago")
    expect(page.locator("body")).to_have_attribute("data-status", "finished")
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_an_unknown_table_answers_a_404_page_with_a_link_to_the_lobby(
    lang: str,
    server: Server,
    new_context: Callable[..., BrowserContext],  # noqa: F811
) -> None:
    page = new_context("fi-FI" if lang == "fi" else "en-GB").new_page()
    answer = page.goto(f"{server.url}/t/no-such-table")
    assert answer is not None and answer.status == 404
    texts = catalogue(lang)
    expect(page.locator("#notfound h1")).to_have_text(texts["notfound.heading"])
    expect(page.locator("#notfound p").first).to_have_text(texts["notfound.text"])
    expect(page).to_have_title(texts["notfound.title"])
    assert_in_language(page, lang)
    page.click("#to-lobby")
    expect(page.locator("#create-form")).to_be_visible()
    assert page.url == f"{server.url}/"


def test_the_list_says_each_tables_turn_time_hints_and_who_is_away(
    tmp_path: Path,
    start_server: Callable[..., Server],
    new_context: Callable[..., BrowserContext],  # noqa: F811
) -> None:
    server = start_server(f"sqlite:///{tmp_path / 'valtti.db'}")
    # A club's table: half a minute a turn, no hints, made by someone who never came to it.
    blitz = server.create(ALL_OPEN, nickname="Aino", seat="N", turn_seconds=30, hints=False)["id"]
    calm = server.create(ALL_OPEN, turn_seconds=None)["id"]
    page = new_context().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # One made in the lobby's own form: five minutes a turn, no hints; its creator sits at S,
    # reaches the table, and comes back to the lobby.
    page.goto(server.url + "/")
    page.wait_for_selector('select[data-variant="target"]', state="attached")
    page.fill('#create-form input[name="nickname"]', "Eero")
    page.select_option("select[data-turn-seconds]", "300")
    page.set_checked("#create-form input[data-hints]", False)
    for seat in ("N", "E", "W"):
        page.select_option(f'select[data-seat-player="{seat}"]', "open")
    page.click("#create")
    page.wait_for_url("**/t/*")
    expect(page.locator("body")).to_have_attribute("data-you", "S")
    mine = page.url.rsplit("/t/", 1)[1]
    page.goto(server.url + "/")

    for lang in ("en", "fi"):
        page.select_option("#lang", lang)
        texts = catalogue(lang)
        for table_id, clock, n, hints in (
            (blitz, "lobby.clock.seconds_other", 30, "lobby.hints.off"),
            (calm, "lobby.clock.none", 0, "lobby.hints.on"),
            (mine, "lobby.clock.minutes_other", 5, "lobby.hints.off"),
        ):
            said = texts[clock].replace("{n}", str(n))
            item = page.locator(f'#tables > li[data-table="{table_id}"]')
            expect(item.locator(".table-meta")).to_contain_text(
                f"{said} · {texts[hints]} · {texts['lobby.variant.default']}"
            )
        # Aino never came; Eero left for the lobby (whose page holds no connection to it).
        for table_id, seat in ((blitz, "N"), (mine, "S")):
            chip = page.locator(f'#tables > li[data-table="{table_id}"] [data-seat="{seat}"]')
            expect(chip).to_have_attribute("data-away", "")
            expect(chip.locator(".away")).to_have_text(texts["lobby.seat.away"])
            expect(chip.locator(".away")).to_have_attribute("title", texts["lobby.seat.away.hint"])
        expect(page.locator("#tables [data-away]")).to_have_count(2)
        assert_in_language(page, lang)
    assert errors == []


def test_on_a_phone_the_list_of_tables_is_a_tap_away(
    server: Server,
    new_context: Callable[..., BrowserContext],  # noqa: F811
) -> None:
    server.create(ALL_OPEN, nickname="Aino", seat="N")
    for width, height in ((390, 844), (1280, 800)):
        page = new_context(locale="fi-FI").new_page()
        page.set_viewport_size({"width": width, "height": height})
        page.goto(server.url + "/")
        page.wait_for_selector("#tables li", state="attached")
        jump, variants = page.locator("a.to-tables"), page.locator("details.variants")
        # The variants wait under "More options" (open, they put Create below the fold).
        assert not variants.evaluate("d => d.open")
        if width > 900:  # beside the form: in sight already
            expect(jump).to_be_hidden()
            continue
        expect(jump).to_have_text(catalogue("fi")["lobby.tables.jump"])
        jump.click()
        expect(page.locator("#tables-panel .panel-head h2")).to_be_in_viewport()
        expect(page.locator("#tables li").first).to_be_in_viewport()


def computer_name(texts: dict[str, str], seat: str, player: str) -> str:
    """A computer player as the pages name it (names.js): "West · club player"."""
    word = texts[f"seat.{seat}.name"]
    named = texts["player.named"].replace("{seat}", word[0].upper() + word[1:])
    return named.replace("{level}", texts[f"player.level.{player}"])


def test_computer_players_go_by_their_seat_and_level_with_their_name_in_a_tooltip(
    server: Server,
    new_context: Callable[..., BrowserContext],  # noqa: F811
) -> None:
    players = {"N": "search:hard", "E": "pimc:hard", "W": "heuristic"}
    table_id = server.create(ALL_OPEN | players)["id"]
    page = new_context().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    for path in ("/", f"/t/{table_id}"):
        page.goto(server.url + path)
        page.wait_for_selector("#lang option", state="attached")
        for lang in ("en", "fi"):
            page.select_option("#lang", lang)
            texts = catalogue(lang)
            if path == "/":
                names = f'#tables > li[data-table="{table_id}"] .seat-chip[data-seat="{{}}"] .name'
                # The picker offers each computer player by its level, its name in a tooltip.
                for name in ("search:hard", "pimc:hard", "heuristic"):
                    option = page.locator(f'select[data-seat-player="N"] option[value="{name}"]')
                    expect(option).to_have_text(texts[f"player.short.{name}"])
                    expect(option).to_have_attribute("title", name)
            else:
                names = '.felt .seat[data-seat="{}"] .name'
            for seat, name in players.items():
                shown = page.locator(names.format(seat))
                if path == "/":
                    expect(shown).to_have_text(computer_name(texts, seat, name))
                    expect(shown).to_have_attribute("title", name)
                else:
                    # On the felt: the seat's word, the level on a line below it, the whole
                    # name in the tooltip.
                    word = texts[f"seat.{seat}.name"]
                    expect(shown).to_have_text(word[0].upper() + word[1:])
                    level = page.locator(f'.felt .seat[data-seat="{seat}"] .level')
                    expect(level).to_have_text(texts[f"player.level.{name}"])
                    whole = f"{computer_name(texts, seat, name)} ({name})"
                    expect(shown).to_have_attribute("title", whole)
            # A person reads the level, never the program's name ("heuristic" says nothing),
            # but as code where the lobby says how strong each level is and what plays it.
            visible = translated_text(page)
            assert not re.search(r"search:|pimc:|heuristic", visible), visible
            assert_in_language(page, lang)
    # On a phone the narrow seats keep the whole seat word and level, each on two lines at
    # most (in Finnish "Botti: nyrkkisäännöt" was cut to "nyrkkisään…", then "Länsi ·
    # nyrkkisäännöt" took three lines above the seat letter).
    page.set_viewport_size({"width": 390, "height": 844})
    for lang in ("en", "fi"):
        page.select_option("#lang", lang)
        for seat, player in players.items():
            name = page.locator(f'.felt .seat[data-seat="{seat}"] .level')
            expect(name).to_have_text(catalogue(lang)[f"player.level.{player}"])
            whole = "n => n.scrollWidth <= n.clientWidth && n.scrollHeight <= n.clientHeight"
            assert name.evaluate(whole), (lang, name.text_content())
            lines = name.evaluate(
                "n => Math.round(n.getBoundingClientRect().height"
                " / parseFloat(getComputedStyle(n).lineHeight))"
            )
            assert lines <= 2, (lang, seat, name.text_content(), lines)
    # So does the lobby's seat picker: its widest option fits inside it, beside the arrow (at
    # 390 px the Finnish "Botti: nyrkkisäännöt" showed as "Botti: nyrkkisäänn").
    page.goto(server.url + "/")
    page.wait_for_selector('select[data-seat-player="N"] option', state="attached")
    fits = """select => {
        const style = getComputedStyle(select);
        const pen = document.createElement("canvas").getContext("2d");
        pen.font = style.font;
        const widest = Math.max(...[...select.options].map(o => pen.measureText(o.text).width));
        const inside = select.clientWidth - parseFloat(style.paddingLeft)
            - parseFloat(style.paddingRight);
        return inside - 16 >= widest;  // the arrow
    }"""
    for lang in ("en", "fi"):
        page.select_option("#lang", lang)
        for seat in ("N", "E", "W"):
            picker = page.locator(f'select[data-seat-player="{seat}"]')
            assert picker.evaluate(fits), (lang, seat, picker.evaluate("s => s.clientWidth"))
    assert errors == []


def test_the_lobby_offers_the_levels_weakest_first_and_says_how_strong_each_is(
    server: Server,
    new_context: Callable[..., BrowserContext],  # noqa: F811
) -> None:
    measured = strengths()
    for width, height in ((390, 844), (1366, 768)):
        page = new_context().new_page()
        page.set_viewport_size({"width": width, "height": height})
        page.goto(server.url + "/")
        page.wait_for_selector("#play-computer:not([disabled])")
        for lang in ("en", "fi"):
            page.select_option("#lang", lang)
            texts = catalogue(lang)
            groups = page.locator('select[data-seat-player="W"] optgroup')
            expect(groups).to_have_count(2)
            expect(groups.nth(0)).to_have_attribute("label", texts["lobby.levels"])
            levels = groups.nth(0).locator("option")
            expect(levels).to_have_text([texts[f"player.short.{lv.player}"] for lv in LEVELS])
            note = page.locator("#levels-note")
            note.scroll_into_view_if_needed()
            said = note.inner_text()
            assert measured.date in said
            for level in LEVELS:
                strength = measured.players[level.player]
                assert f"({level.player})" in said
                if strength.low is not None:
                    points = f"{abs(strength.points):.2f}"
                    assert (points if lang == "en" else points.replace(".", ",")) in said, said
            # Weakest first, each stronger than the one before, as measured.
            values = [measured.players[level.player].points for level in LEVELS]
            assert values == sorted(values)
            box = note.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
            assert_in_language(page, lang)
        page.close()


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_a_table_made_while_the_server_is_out_of_reach_is_said_to_be_so(
    lang: str,
    server: Server,
    new_context: Callable[..., BrowserContext],  # noqa: F811
) -> None:
    # The request never reaches the server (its machine is off, the Wi-Fi gone): the page
    # said "Something went wrong (undefined)."
    page = new_context("fi-FI" if lang == "fi" else "en-GB").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")
    page.wait_for_selector('select[data-variant="target"]', state="attached")
    cut = True

    def made(route: Route) -> None:
        if cut and route.request.method == "POST":
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route("**/api/tables", made)
    page.fill('#create-form input[name="nickname"]', "Aino")
    page.click("#create")
    toast = page.locator("#toasts .toast-error")
    expect(toast).to_have_count(1)
    expect(toast).to_have_text(catalogue(lang)["error.offline"])
    expect(toast).to_have_attribute("data-code", "offline")
    # Nothing was made: once the server is in reach the same button makes the table.
    cut = False
    expect(page.locator("#create")).to_be_enabled()
    page.click("#create")
    page.wait_for_url("**/t/*")
    assert errors == []


def test_a_proxy_whose_server_is_down_is_said_to_be_out_of_reach(
    server: Server,
    new_context: Callable[..., BrowserContext],  # noqa: F811
) -> None:
    # Behind the reverse proxy of docs/HOSTING.md, a server being restarted answers through the
    # proxy's own "502 Bad Gateway" page: the lobby said "Something went wrong (http_502)."
    page = new_context().new_page()
    page.goto(server.url + "/")
    page.wait_for_selector('select[data-variant="target"]', state="attached")
    for status in (502, 503, 504):
        page.route("**/api/tables?*", _proxy_page(status))
        page.click("#refresh")
        toast = page.locator("#toasts .toast-error").last
        expect(toast).to_have_text(catalogue("en")["error.offline"])
        expect(toast).to_have_attribute("data-code", "offline")
        page.unroute("**/api/tables?*")


def _proxy_page(status: int) -> Callable[[Route], None]:
    """A route answering as a reverse proxy does when the server behind it does not."""

    def answer(route: Route) -> None:
        route.fulfill(status=status, content_type="text/html", body="<h1>Bad Gateway</h1>")

    return answer
