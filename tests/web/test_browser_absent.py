"""Absent players in a real browser (Playwright, Debian's Chromium): the creator leaving mid-deal
and the table going on with a stand-in; a person running out of time, stood in for, and taking
the seat back; any seated person handing an absent seat over; the turn clock running down.

Reuses the browser and helpers of test_browser.py and test_browser_room.py against the
session's real ``valtti serve`` (computer players without delay). Short turn times (seconds).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect
from tests.web.serving import Server, stored_record
from tests.web.test_browser import Tab, browser, playwright  # noqa: F401  (fixtures by name)
from tests.web.test_browser_room import room  # noqa: F401  (a fixture by name)

from valtti.engine import Seat
from valtti.engine.record import Record

# True once the page's seat may act (a legal card or button is enabled), or ``selector`` matches.
MY_TURN_OR = """(selector) => {
  if (document.querySelector(selector)) return true;
  if (document.body.dataset.status === "finished") return true;
  return !!document.querySelector(
    "#hand [data-card][data-legal='true']:not([disabled]), " +
    "#actions:not([hidden]) [data-action]:not([disabled]), " +
    "#answer-dialog[open] [data-action]:not([disabled])");
}"""

# Play the first legal card or action if the page may act now; whether it did.
PLAY_ONE = """() => {
  const b = document.querySelector(
    "#hand [data-card][data-legal='true']:not([disabled]), " +
    "#actions:not([hidden]) [data-action]:not([disabled]), " +
    "#answer-dialog[open] [data-action]:not([disabled])");
  if (!b) return false;
  b.click();
  return true;
}"""


def open_seat(tab: Tab, server: Server, table_id: str, keys: dict[str, Any]) -> None:
    """Open the table in ``tab`` as the holder of ``keys`` (its seat token, maybe the creator's)."""
    tab.page.goto(server.url + "/rules")
    tab.page.evaluate(
        "([id, keys]) => localStorage.setItem(`valtti:table:${id}`, keys)",
        [table_id, json.dumps(keys)],
    )
    tab.page.goto(f"{server.url}/t/{table_id}")
    expect(tab.page.locator("body")).to_have_attribute("data-you", keys["seat"])


def seq(page: Page) -> int:
    value: str = page.evaluate("() => document.body.dataset.seq")
    return int(value) if value else -1


def moves_by(record: Record, seat: Seat) -> int:
    """How many actions ``seat`` has made in the stored match."""
    match = record.replay()
    return sum(
        deal.after(n).current_player is seat
        for deal in match.deals
        for n in range(len(deal.history))
    )


def play_one(page: Page) -> None:
    """Play the page's seat's first legal choice if it may act now, and wait for the state after
    the move (the page enables nothing until it comes); else wait a moment."""
    before = seq(page)
    if page.evaluate(PLAY_ONE):
        page.wait_for_function("(s) => Number(document.body.dataset.seq) > s", arg=before)
    else:
        page.wait_for_timeout(50)


def play_until(page: Page, selector: str) -> None:
    """Play the page's seat (the first legal choice each turn) until ``selector`` matches."""
    while True:
        page.wait_for_function(MY_TURN_OR, arg=selector)
        if page.locator(selector).count():
            return
        assert page.locator("body").get_attribute("data-status") != "finished", (
            f"the match ended before {selector} matched"
        )
        play_one(page)


def test_the_creator_leaves_mid_deal_and_a_stand_in_plays_on(
    server: Server,
    room: Callable[..., Tab],  # noqa: F811
) -> None:
    made = server.create(
        {"N": "open", "E": "random", "S": "open", "W": "random"},
        seat="N",
        nickname="Host",
        turn_seconds=3,
    )
    table_id = made["id"]
    south_token = server.join(table_id, "S", "Aino")
    host, south = room(), room()
    keys = {"token": made["token"], "seat": "N", "creator_token": made["creator_token"]}
    open_seat(host, server, table_id, keys)
    open_seat(south, server, table_id, {"token": south_token, "seat": "S"})
    page = south.page
    expect(page.locator("body")).to_have_attribute("data-status", "playing")
    # The host closes the tab in the middle of the deal.
    host.page.close()
    expect(page.locator('.felt [data-seat="N"]')).to_have_attribute("data-connected", "false")
    # South plays on; the host's turn runs down on South's screen, and then a stand-in plays it.
    play_until(page, '.turn-clock[data-clock-seat="N"]')
    play_until(page, '.badge.stand-in[data-stand-in-for="N"]')
    expect(page.locator(".felt [data-seat='N'] .badge.stand-in")).to_have_text("Computer stands in")
    # The table goes on past the host's turn without the host: the stand-in moves for North,
    # and South plays on after it. (The stored record, not the screen, says who moved: with no
    # delay the stand-in's turn may come and go between two frames, or end the match.)
    moved = moves_by(stored_record(server.db_url, table_id), Seat.N)
    deadline = time.monotonic() + 20
    while moves_by(stored_record(server.db_url, table_id), Seat.N) <= moved:
        assert time.monotonic() < deadline, "the stand-in did not move for North"
        play_one(page)
    expect(page.locator("#absent")).to_be_hidden()
    south.check_clean()


def test_out_of_time_stood_in_for_and_the_seat_taken_back(
    start_server: Callable[..., Server],
    room: Callable[..., Tab],  # noqa: F811
    tmp_path: Path,
) -> None:
    # Computer moves a little apart, so that the stand-in does not finish the match at once.
    server = start_server(f"sqlite:///{tmp_path / 'valtti.db'}", bot_delay=0.2)
    made = server.create(
        {"N": "random", "E": "random", "S": "open", "W": "random"},
        seat="S",
        nickname="Aino",
        turn_seconds=2,
    )
    me = room()
    keys = {"token": made["token"], "seat": "S", "creator_token": made["creator_token"]}
    open_seat(me, server, made["id"], keys)
    page = me.page
    # My turn: the clock runs down on my seat, second by second.
    clock = page.locator('.turn-clock[data-clock-seat="S"]')
    expect(clock).to_be_visible()
    first = int(clock.get_attribute("data-left") or "0")
    assert 1 <= first <= 2
    page.wait_for_function(
        "(n) => Number(document.querySelector('.turn-clock')?.dataset.left ?? 99) < n", arg=first
    )
    # I do nothing: out of time, a stand-in takes my seat, and the page says so.
    expect(page.locator("#absent")).to_be_visible()
    expect(page.locator("#absent")).to_contain_text(
        "A computer player is standing in for you — take your seat back"
    )
    expect(page.locator('.badge.stand-in[data-stand-in-for="S"]')).to_be_visible()
    at = seq(page)
    page.wait_for_function("(s) => Number(document.body.dataset.seq) > s", arg=at)  # it plays
    # I take my seat back: the stand-in leaves, and I play my own next turn.
    page.click("#take-back")
    expect(page.locator("#absent")).to_be_hidden()
    expect(page.locator('.badge.stand-in[data-stand-in-for="S"]')).to_have_count(0)
    page.wait_for_function(MY_TURN_OR, arg="#never")
    sent = seq(page)
    assert page.evaluate(PLAY_ONE)
    page.wait_for_function("(s) => Number(document.body.dataset.seq) > s", arg=sent)
    assert me.actions_sent()
    expect(page.locator('.badge.stand-in[data-stand-in-for="S"]')).to_have_count(0)
    me.check_clean()


def test_any_seated_person_hands_an_absent_seat_over(
    server: Server,
    room: Callable[..., Tab],  # noqa: F811
) -> None:
    made = server.create(
        {"N": "random", "E": "open", "S": "open", "W": "random"}, turn_seconds=None
    )
    table_id = made["id"]
    server.join(table_id, "E", "Eino")  # East takes the seat and never comes
    south_token = server.join(table_id, "S", "Aino")
    south, watcher = room(), room()
    open_seat(south, server, table_id, {"token": south_token, "seat": "S"})
    watcher.page.goto(f"{server.url}/t/{table_id}")
    page = south.page
    expect(page.locator("body")).to_have_attribute("data-status", "playing")
    # South is not the creator, and may hand East's seat over; a spectator may not.
    expect(page.locator("[data-replace]")).to_have_count(0)
    expect(watcher.page.locator('button[data-stand-in="E"]')).to_have_count(0)
    page.click('button[data-stand-in="E"]')
    expect(page.locator('.badge.stand-in[data-stand-in-for="E"]')).to_be_visible()
    expect(watcher.page.locator('.badge.stand-in[data-stand-in-for="E"]')).to_be_visible()
    expect(page.locator('button[data-stand-in="E"]')).to_have_count(0)
    # The stand-in plays East's turns: South gets two turns of its own, East's between them.
    for _ in range(2):
        page.wait_for_function(MY_TURN_OR, arg="#never")
        at = seq(page)
        assert page.evaluate(PLAY_ONE)
        page.wait_for_function("(s) => Number(document.body.dataset.seq) > s", arg=at)
    south.check_clean()


def test_the_turn_time_is_chosen_in_the_lobby(
    server: Server,
    room: Callable[..., Tab],  # noqa: F811
) -> None:
    page = room().page
    page.goto(server.url + "/")
    page.wait_for_selector('select[data-variant="target"]', state="attached")
    page.fill('#create-form input[name="nickname"]', "Aino")
    page.check('input[data-seat-choice="S"]')
    for seat in ("N", "E", "W"):
        page.select_option(f'select[data-seat-player="{seat}"]', "random")
    expect(page.locator("select[data-turn-seconds]")).to_have_value("60")
    page.select_option("select[data-turn-seconds]", "30")
    page.click("#create")
    page.wait_for_url("**/t/*")
    table_id = page.url.rsplit("/t/", 1)[1]
    assert server.http.get(f"/api/tables/{table_id}").json()["turn_seconds"] == 30
    expect(page.locator('.turn-clock[data-clock-seat="S"]')).to_be_visible()
