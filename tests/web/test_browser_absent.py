"""Absent players in a real browser (Playwright, Debian's Chromium): the creator leaving mid-deal
and the table going on with a stand-in; a person who is here running out of time, their bank
running down, one move played for them and the seat theirs again; any seated person handing an
absent seat over; the turn clock running down; the page's own connection lost (the server
killed, or the socket dropped on a phone) and back.

Reuses the browser and helpers of test_browser.py and test_browser_room.py against the
session's real ``valtti serve`` (computer players without delay). Short turn times (seconds).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect
from tests.web.crafted import store_match
from tests.web.serving import Server, stored_record
from tests.web.test_browser import (  # noqa: F401  (fixtures by name)
    Tab,
    browser,
    catalogue,
    create_in_lobby,
    playwright,
)
from tests.web.test_browser_room import (  # noqa: F401  (a fixture by name)
    BOXES,
    RECORD_ANNOUNCEMENTS,
    room,
)

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
        time_bank_seconds=0,
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


def card_text(token: str) -> str:
    """A card as the pages write it in plain text (cards.js cardText): "10♥"."""
    return token[0].replace("T", "10") + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[token[1]]


@pytest.mark.parametrize(("viewport", "lang"), [("desktop", "en"), ("phone-portrait", "fi")])
def test_out_of_time_while_here_the_bank_runs_then_one_move_is_played_and_the_seat_stays(
    start_server: Callable[..., Server],
    room: Callable[..., Tab],  # noqa: F811
    tmp_path: Path,
    viewport: str,
    lang: str,
) -> None:
    strings = catalogue(lang)
    # Computer moves a little apart, so that my turns come one at a time.
    server = start_server(f"sqlite:///{tmp_path / 'valtti.db'}", bot_delay=0.2)
    made = server.create(
        {"N": "random", "E": "random", "S": "open", "W": "random"},
        seat="S",
        nickname="Aino",
        turn_seconds=1,
        time_bank_seconds=2,
    )
    me = room(viewport, locale={"fi": "fi-FI", "en": "en-GB"}[lang])
    me.page.add_init_script(RECORD_ANNOUNCEMENTS)
    keys = {"token": made["token"], "seat": "S", "creator_token": made["creator_token"]}
    open_seat(me, server, made["id"], keys)
    page = me.page
    # My turn: the clock runs on my seat, the bank after it.
    clock = page.locator('.turn-clock[data-clock-seat="S"]')
    expect(clock).to_be_visible()
    at = seq(page)
    assert clock.get_attribute("data-bank") == "2"
    # I do nothing: the turn's time is up and the bank runs down, on the clock.
    banked = page.locator('.turn-clock[data-clock-seat="S"][data-banked="true"]')
    expect(banked).to_be_visible()
    expect(banked).to_contain_text(strings["absence.bank"].replace("{time}", "0:0"))
    # Bank spent too: a computer player makes that one move, and the seat is mine at once:
    # I am not marked away, no panel asks me to take it back.
    page.wait_for_function("(s) => Number(document.body.dataset.seq) > s", arg=at)
    expect(page.locator("#absent")).to_be_hidden()
    expect(page.locator('.badge.stand-in[data-stand-in-for="S"]')).to_have_count(0)
    assert me.actions_sent() == []
    assert moves_by(stored_record(server.db_url, made["id"]), Seat.S) == 1
    # The page says so in a toast (and to a screen reader; the log, below).
    record = stored_record(server.db_url, made["id"]).replay()
    first = record.deals[0]
    card = next(
        str(a) for n, a in enumerate(first.history) if first.after(n).current_player is Seat.S
    )
    told = strings["toast.timed_out.play"].replace("{card}", card_text(card))
    expect(page.locator('#toasts .toast-info[data-code="timed_out"]')).to_have_text(told)
    # My next turn: its whole time again, no bank left, and I play it myself.
    page.wait_for_function(MY_TURN_OR, arg="#never")
    expect(page.locator('.turn-clock[data-clock-seat="S"]')).to_have_attribute("data-bank", "0")
    sent = seq(page)
    assert page.evaluate(PLAY_ONE)
    page.wait_for_function("(s) => Number(document.body.dataset.seq) > s", arg=sent)
    assert len(me.actions_sent()) == 1
    assert all(
        seat["stand_in"] is None
        for state in me.states()
        for seat in state["table"]["seats"]
        if seat["seat"] == "S"
    )
    # The log marks the computer's move for me, and not my own.
    marked = page.locator("#log li.log-play.timed-out")
    expect(marked).to_have_count(1)
    name = strings["table.who"].replace("{name}", "Aino").replace("{seat}", strings["seat.S"])
    # The card is inline: its rank as text, its suit a picture.
    expect(marked).to_have_text(
        strings["log.timed_out.play_you"].replace("{seat}", name).replace("{card}", card[0])
        if card[0] != "T"
        else strings["log.timed_out.play_you"].replace("{seat}", name).replace("{card}", "10")
    )
    expect(marked.locator(f".card-inline svg.suit-{card[1]}")).to_have_count(1)
    # A screen reader hears it as every play: the card in words ("ten of spades").
    prefix = strings["toast.timed_out.play"].split("{card}")[0]
    assert any(a.startswith(prefix) for a in page.evaluate("window.announced"))
    me.check_clean()


def test_a_declaration_the_computer_made_for_a_person_out_of_time_is_marked(
    start_server: Callable[..., Server],
    room: Callable[..., Tab],  # noqa: F811
    tmp_path: Path,
) -> None:
    """North took the trick and holds the clubs marriage, and lets the turn run out: the
    computer declares for North, and the log says so after the declaration."""
    en = catalogue("en")
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    table_id, tokens, _ = store_match(db, [], {"N": "Aino", "S": "Eino"}, part=4, turn_seconds=1)
    server = start_server(db, options=["--next-deal-seconds", "600"])
    me = room()
    open_seat(me, server, table_id, {"token": tokens["N"], "seat": "N"})
    page = me.page
    marked = page.locator("#log li.timed-out")
    expect(marked).to_have_count(1)
    name = en["table.who"].replace("{name}", "Aino").replace("{seat}", "N")
    # The rules of thumb declare the marriage (the table's seed makes it so every run).
    expect(marked).to_have_class(re.compile(r"\blog-event\b"))
    expect(marked).to_have_text(en["log.timed_out.event_you"].replace("{seat}", name))
    expect(page.locator("#log li.log-event").first).to_contain_text("Aino (N) declares")
    told = en["toast.timed_out.action"].replace("{action}", "Declare ♣")
    expect(page.locator('#toasts .toast-info[data-code="timed_out"]')).to_have_text(told)
    assert me.actions_sent() == []
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


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_the_time_bank_is_chosen_in_the_lobby(
    server: Server,
    room: Callable[..., Tab],  # noqa: F811
    lang: str,
) -> None:
    strings = catalogue(lang)
    page = room(locale={"fi": "fi-FI", "en": "en-GB"}[lang]).page
    page.goto(server.url + "/")
    page.wait_for_selector('select[data-variant="target"]', state="attached")
    bank = page.locator("select[data-time-bank]")
    # Under "More options", which say a bank once one is chosen.
    page.click("details.variants summary")
    # Two turns' worth unless chosen (the server's default), and none without a turn time.
    expect(bank).to_have_value("")
    expect(bank.locator("option:checked")).to_have_text(strings["lobby.bank.auto"])
    expect(page.locator("#bank-hint")).to_have_text(strings["lobby.bank.hint"])
    page.select_option("select[data-turn-seconds]", "0")
    expect(bank).to_be_disabled()
    page.select_option("select[data-turn-seconds]", "30")
    expect(bank).to_be_enabled()
    page.select_option("select[data-time-bank]", "300")
    expect(page.locator("#variants-now")).to_contain_text(
        strings["lobby.more.bank"].replace("{bank}", strings["lobby.bank.300"])
    )
    page.fill('#create-form input[name="nickname"]', "Aino")
    page.check('input[data-seat-choice="S"]')
    for seat in ("N", "E", "W"):
        page.select_option(f'select[data-seat-player="{seat}"]', "random")
    page.click("#create")
    page.wait_for_url("**/t/*")
    table_id = page.url.rsplit("/t/", 1)[1]
    summary = server.http.get(f"/api/tables/{table_id}").json()
    assert (summary["turn_seconds"], summary["time_bank_seconds"]) == (30, 300)
    expect(page.locator('.turn-clock[data-clock-seat="S"]')).to_have_attribute("data-bank", "300")
    # The lobby says it, in the page's language (a table against the computer is this
    # browser's own, not in the public list).
    page.goto(server.url + "/")
    meta = page.locator(f'#my-tables li[data-table="{table_id}"] .table-meta')
    clock = strings["lobby.clock.seconds_other"].replace("{n}", "30")
    banked = strings["lobby.bank.minutes"].replace("{n}", "5")
    expect(meta).to_contain_text(
        strings["lobby.clock.bank"].replace("{clock}", clock).replace("{bank}", banked)
    )
    # Left as it is, the bank is two turns' worth.
    table_id = create_in_lobby(
        Tab(page), server.url, "Aino", {"N": "random", "E": "random", "S": "me", "W": "random"}
    )
    assert server.http.get(f"/api/tables/{table_id}").json()["time_bank_seconds"] == 120


# -- the page's own connection lost ----------------------------------------------------------------

# What the page shows of a lost connection, read in one go.
STALE = """() => {
  const banner = document.getElementById("connection");
  const clock = document.querySelector(".turn-clock");
  return {
    stale: document.body.dataset.stale,
    banner: banner.hidden ? null : [banner.dataset.connection, banner.textContent],
    enabled: document.querySelectorAll(
      "#hand [data-card]:not([disabled]), [data-action]:not([disabled])").length,
    clock: clock ? [clock.dataset.clockSeat, clock.dataset.left, clock.dataset.paused,
                    clock.textContent] : null,
  };
}"""


def my_turn(page: Page) -> None:
    """Wait until the page's seat may act and its clock runs."""
    page.wait_for_function(MY_TURN_OR, arg="#never")
    expect(page.locator('.turn-clock[data-clock-seat="S"][data-paused="false"]')).to_be_visible()


def test_a_killed_server_is_shown_and_the_table_comes_back_with_it(
    start_server: Callable[..., Server],
    room: Callable[..., Tab],  # noqa: F811
    tmp_path: Path,
) -> None:
    turn = 5
    en = catalogue("en")
    server = start_server(f"sqlite:///{tmp_path / 'valtti.db'}")
    made = server.create(
        {"N": "open", "E": "random", "S": "open", "W": "random"},
        seat="S",
        nickname="Aino",
        turn_seconds=turn,
        time_bank_seconds=0,  # North's person, here, loses each turn after ``turn`` seconds
    )
    table_id = made["id"]
    north_token = server.join(table_id, "N", "Bertta")
    me = room()
    page = me.page
    page.add_init_script(RECORD_ANNOUNCEMENTS)
    open_seat(me, server, table_id, {"token": made["token"], "seat": "S"})
    # North's person is connected (and never plays: a stand-in makes each of North's moves in
    # time, one at a time).
    north = server.socket(table_id, north_token)
    expect(page.locator('.felt [data-seat="N"]')).to_have_attribute("data-connected", "true")
    my_turn(page)

    # The server dies on my turn: the page says so at once, in words.
    server.kill()
    north.close()
    banner = page.locator("#connection")
    expect(banner).to_be_visible()
    expect(banner).to_have_attribute("data-connection", "lost")
    expect(banner).to_have_text(en["connection.lost"])
    expect(page.locator("body")).to_have_attribute("data-stale", "true")
    # Nothing may be played, and each card says why (to a screen reader, and on a hover).
    cards = page.locator("#hand [data-card]")
    assert cards.count() > 0
    expect(
        page.locator("#hand [data-card]:not([disabled]), [data-action]:not([disabled])")
    ).to_have_count(0)
    expect(cards.first).to_have_accessible_description(en["connection.why"])
    cards.first.hover(force=True)
    expect(page.locator("#hand-why")).to_have_text(en["connection.why"])
    cards.first.click(force=True)
    # Whether the others are here is not known; my own seat is not connected.
    expect(page.locator('.felt [data-seat="N"]')).to_have_attribute("data-connected", "unknown")
    expect(page.locator('.felt [data-seat="N"] .conn.unknown')).to_have_count(1)
    expect(page.locator('.felt [data-seat="S"]')).to_have_attribute("data-connected", "false")
    # The clock stops where it was, greyed: it never runs down to 0:00 as if I were out of time.
    clock = page.locator('.turn-clock[data-clock-seat="S"]')
    expect(clock).to_have_attribute("data-paused", "true")
    expect(clock).to_have_attribute("title", en["connection.clock"])
    stopped = int(clock.get_attribute("data-left") or "0")
    assert 1 <= stopped <= turn
    page.wait_for_timeout((stopped + 1) * 1000)  # past the time the clock showed
    after = page.evaluate(STALE)
    assert after["clock"] == ["S", str(stopped), "true", f"0:{stopped:02d}"], after
    assert after["enabled"] == 0 and after["stale"] == "true", after
    assert after["banner"] == ["lost", en["connection.lost"]], after
    announced: list[str] = page.evaluate("window.announced")
    assert en["connection.lost"] in announced, announced

    # The server is back on the same address: the page reconnects by itself, says so a moment,
    # and draws the fresh state (my turn, its clock running from the server's time).
    server.start()
    expect(banner).to_have_attribute("data-connection", "back")
    expect(banner).to_have_text(en["connection.back"])
    expect(page.locator("#status")).to_have_attribute("data-state", "connected")
    expect(page.locator("body")).to_have_attribute("data-stale", "false")
    my_turn(page)
    expect(page.locator('.felt [data-seat="N"]')).to_have_attribute("data-connected", "false")
    assert me.actions_sent() == []  # nothing was sent while the connection was lost
    play_one(page)  # at once: the clock started again, and it is short
    assert len(me.actions_sent()) == 1
    expect(banner).to_be_hidden()
    assert en["connection.back"] in page.evaluate("window.announced")
    me.check_clean()


@pytest.mark.parametrize(
    ("viewport", "lang"), [("phone-portrait", "fi"), ("phone-landscape", "en")]
)
def test_a_dropped_socket_on_a_phone_covers_no_card_and_moves_nothing(
    server: Server,
    room: Callable[..., Tab],  # noqa: F811
    viewport: str,
    lang: str,
    tmp_path: Path,
) -> None:
    strings = catalogue(lang)
    made = server.create(
        {"N": "random", "E": "random", "S": "open", "W": "random"},
        seat="S",
        nickname="Aino",
        turn_seconds=60,
    )
    me = room(viewport, locale={"fi": "fi-FI", "en": "en-GB"}[lang])
    page = me.page
    sockets: list[tuple[WebSocketRoute, WebSocketRoute]] = []  # (the page's, the server's)
    down = False  # while set, the page's sockets are refused at once, as by a dead network

    def route(ws: WebSocketRoute) -> None:
        if down:
            ws.close(code=1011)
            return
        sockets.append((ws, ws.connect_to_server()))

    page.route_web_socket(re.compile(r".*/ws(\?.*)?$"), route)
    open_seat(me, server, made["id"], {"token": made["token"], "seat": "S"})
    my_turn(page)
    before: dict[str, Any] = page.evaluate(BOXES)

    down = True
    for mine, theirs in sockets:
        theirs.close()
        mine.close(code=1011)
    banner = page.locator("#connection")
    expect(banner).to_have_attribute("data-connection", "lost")
    expect(banner).to_have_text(strings["connection.lost"])
    expect(page.locator("#hand [data-card]:not([disabled])")).to_have_count(0)
    expect(page.locator("#hand [data-card]").first).to_have_accessible_description(
        strings["connection.why"]
    )
    expect(page.locator('.turn-clock[data-clock-seat="S"]')).to_have_attribute(
        "data-paused", "true"
    )
    boxes: dict[str, Any] = page.evaluate(BOXES)
    # Nothing moved aside for the banner, nothing scrolled, and it covers none of the hand.
    for part in ("felt", "trick", "hand", "handArea", "cards"):
        assert boxes[part] == before[part], (part, before[part], boxes[part])
    assert boxes["scroll"] == [0, 0]
    shown = banner.bounding_box()
    assert shown is not None
    left, top = shown["x"], shown["y"]
    right, bottom = left + shown["width"], top + shown["height"]
    felt = boxes["felt"]
    assert felt[0] <= left and felt[1] <= top and right <= felt[2] and bottom <= felt[3], shown
    for card in [boxes["handArea"], *boxes["cards"]]:
        apart = right <= card[0] or card[2] <= left or bottom <= card[1] or card[3] <= top
        assert apart, (shown, card)

    down = False  # the network is back: the page reconnects by itself
    expect(banner).to_have_text(strings["connection.back"])
    expect(banner).to_be_hidden()
    my_turn(page)
    assert page.evaluate(BOXES)["cards"] == before["cards"]
    assert me.actions_sent() == []
    me.check_clean()


def test_a_dead_network_is_found_by_a_ping_and_the_page_comes_back_online(
    server: Server,
    room: Callable[..., Tab],  # noqa: F811
) -> None:
    made = server.create(
        {"N": "random", "E": "random", "S": "open", "W": "random"},
        seat="S",
        nickname="Aino",
        turn_seconds=60,
    )
    me = room()
    page = me.page
    open_seat(me, server, made["id"], {"token": made["token"], "seat": "S"})
    my_turn(page)
    # The network goes: the socket is not closed, it only hears nothing more. Going offline,
    # the page pings, and with no answer in 10 s (PONG_MS) it knows the connection is lost.
    page.context.set_offline(True)
    banner = page.locator("#connection")
    expect(banner).to_have_attribute("data-connection", "lost", timeout=15_000)
    expect(page.locator("#hand [data-card]:not([disabled])")).to_have_count(0)
    # Online again: it reconnects at once, and the table is live.
    page.context.set_offline(False)
    expect(banner).to_be_hidden()
    expect(page.locator("#status")).to_have_attribute("data-state", "connected")
    my_turn(page)
    assert me.actions_sent() == []
    me.check_clean()
