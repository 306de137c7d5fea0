"""Deal and match ends and the table chat in a real browser (Playwright, Debian's Chromium):
the end-of-deal panel with its three columns, an overshoot and a Porvoo explained in English
and Finnish, the ready button, the score sheet, a rematch at the same link and the finished
match's replay from the lobby, the turn line in declaration windows, and chat between two
people with markup shown as text.

The deal ends are made with the engine and stored before the server starts
(tests/web/crafted.py); each test has a ``valtti serve`` of its own that waits for the people
between deals.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, expect
from tests.web.crafted import answered_match, store_match
from tests.web.serving import Server
from tests.web.test_browser import (  # noqa: F401  (fixtures used by name)
    WAIT,
    Tab,
    browser,
    catalogue,
    open_seat,
    playwright,
)

WAIT_LONG = ["--next-deal-seconds", "600"]


@pytest.fixture
def person(browser: Browser) -> Iterator[Callable[..., Tab]]:  # noqa: F811
    """Pages in browser contexts of their own (separate people), 1280 × 800."""
    contexts: list[BrowserContext] = []

    def make(locale: str = "en-GB") -> Tab:
        context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=locale)
        context.set_default_timeout(WAIT)
        contexts.append(context)
        return Tab(context.new_page())

    yield make
    for context in contexts:
        context.close()


def test_the_end_of_deal_panel_explains_an_overshoot_and_a_porvoo(
    tmp_path: Path, start_server: Callable[..., Server], person: Callable[..., Tab]
) -> None:
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    # Three deals in which North and South take every trick with clubs declared: 4, 8, then
    # 8 + 4 = 12 past the target, back to 7; East and West go to Porvoo each time.
    table_id, tokens, match = store_match(db, [True, True, True])
    assert match.deal_scores[-1].overshoot == (True, False)
    server = start_server(db, options=WAIT_LONG)
    tab = person()
    page = open_seat(tab, server, table_id, "N", tokens["N"])

    panel = page.locator("#deal-over")
    expect(panel).to_be_visible()
    expect(panel.locator(".deal-explained")).to_have_attribute("data-deal", "3")
    for team, figures in {"NS": ("9", "120", "4"), "EW": ("0", "0", "0")}.items():
        row = panel.locator(f'.deal-columns tr[data-team="{team}"]')
        for col, value in zip(("tricks", "card_points", "game_points"), figures, strict=True):
            expect(row.locator(f'td[data-col="{col}"]')).to_have_text(value)
    expect(panel.locator('p.made[data-team="NS"]')).to_have_text(
        "NS: ♣ trumps 2 + last trick 1 + victory (120 card points) 1 = 4"
    )
    expect(panel.locator('p.made[data-team="EW"]')).to_have_text("EW: nothing = 0")
    ns = panel.locator('p.change[data-team="NS"]')
    ew = panel.locator('p.change[data-team="EW"]')
    expect(ns).to_have_text("NS 8 + 4 = 12 > 10 → 7 (overshoot)")
    expect(ns).to_have_attribute("data-overshoot", "true")
    expect(ew).to_have_text("EW took no trick → 0 (Porvoo)")
    expect(ew).to_have_attribute("data-porvoo", "true")
    expect(page.locator("#next-deal")).to_contain_text("The next deal starts in")
    for seat in ("E", "S", "W"):
        expect(page.locator(f'#ready-seats [data-ready="{seat}"]')).to_be_visible()
    expect(page.locator('#ready-seats [data-ready="N"]')).to_have_count(0)

    # The score sheet keeps every deal's columns.
    sheet = page.locator("#sheet tr[data-deal]")
    expect(sheet).to_have_count(3)
    for number, score in ((1, "4–0"), (2, "8–0"), (3, "7–0")):
        row = page.locator(f'#sheet tr[data-deal="{number}"]')
        expect(row.locator('td[data-col="tricks"]')).to_have_text("9–0")
        expect(row.locator('td[data-col="card_points"]')).to_have_text("120–0")
        expect(row.locator('td[data-col="game_points"]')).to_have_text("4–0")
        expect(row.locator("td").last).to_have_text(score)

    # In Finnish, with the Finnish team names.
    page.select_option("#lang", "fi")
    expect(ns).to_have_text("PE 8 + 4 = 12 > 10 → 7 (yli tavoitteen)")
    expect(ew).to_have_text("IL ei saanut tikkiä → 0 (Porvooseen)")
    expect(panel.locator('p.made[data-team="NS"]')).to_have_text(
        "PE: valtti ♣ 2 + viimeinen tikki 1 + voitto (120 korttipistettä) 1 = 4"
    )
    page.select_option("#lang", "en")

    # North is the only person: ready, and the fourth deal is dealt at once.
    page.click("#ready-btn")
    expect(panel).to_be_hidden()
    expect(page.locator('#sheet tr[data-deal="4"]')).to_have_class("current")
    expect(page.locator("body")).not_to_have_attribute("data-phase", "over")
    assert not tab.errors, tab.errors


def test_a_rematch_at_the_same_link(
    tmp_path: Path, start_server: Callable[..., Server], person: Callable[..., Tab]
) -> None:
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    table_id, tokens, match = store_match(db, [True, True, False], {"N": "Aino", "S": "Eino"})
    assert match.outcome == "NS"
    server = start_server(db, options=WAIT_LONG)
    aino, eino = person(), person()
    north = open_seat(aino, server, table_id, "N", tokens["N"])
    south = open_seat(eino, server, table_id, "S", tokens["S"])
    for page in (north, south):
        expect(page.locator("body")).to_have_attribute("data-status", "finished")
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator('#final-deal .change[data-team="NS"]')).to_have_text("NS 8 + 2 = 10")
    expect(north.locator("#record-link")).to_have_attribute(
        "href", f"/api/tables/{table_id}/record"
    )

    north.click("#rematch-btn")
    expect(north.locator("#rematch-btn")).to_be_disabled()
    expect(south.locator('#rematch-seats [data-ready="N"]')).to_be_visible()
    expect(south.locator("body")).to_have_attribute("data-status", "finished")
    south.click("#rematch-btn")

    for page, seat in ((north, "N"), (south, "S")):
        expect(page.locator("body")).to_have_attribute("data-status", "playing")
        expect(page.locator("body")).to_have_attribute("data-you", seat)
        expect(page.locator("#sheet tr[data-deal]")).to_have_count(1)
    new_id = next(f["table"]["id"] for f in reversed(aino.states()) if f["table"]["id"] != table_id)
    for page in (north, south):
        assert page.url == f"{server.url}/t/{new_id}"  # the address of the match played now
    summary = server.http.get(f"/api/tables/{new_id}").json()
    assert [s["name"] for s in summary["seats"]] == ["Aino", "heuristic", "Eino", "heuristic"]
    # The dealer after the last deal's (RULES.md 2.3) deals first.
    expect(north.locator('#sheet tr[data-deal="1"] td').nth(1)).to_have_text(str(match.next_dealer))
    # The new address, and the link people were given, lead to the rematch; the finished
    # match stays downloadable.
    north.reload()
    expect(north.locator("body")).to_have_attribute("data-status", "playing")
    expect(north.locator("body")).to_have_attribute("data-you", "N")
    north.goto(f"{server.url}/t/{table_id}")
    north.wait_for_url(f"{server.url}/t/{new_id}")
    expect(north.locator("body")).to_have_attribute("data-status", "playing")
    expect(north.locator("body")).to_have_attribute("data-you", "N")
    assert server.http.get(f"/api/tables/{table_id}/record").status_code == 200

    # From the lobby, the finished match's Replay shows that match, not its rematch, and links
    # the rematch (for Aino, holding her seat there; for a spectator, watching it).
    for tab, seat in ((aino, "N"), (person(), "")):
        page = tab.page
        page.goto(f"{server.url}/")
        page.click('#filters [data-filter="finished"]')
        page.click(f'#tables > li[data-table="{table_id}"] a[data-open]:has-text("Replay")')
        expect(page.locator("#replay-bar")).to_be_visible()
        expect(page.locator("body")).to_have_attribute("data-replay", "true")
        page.click("#replay-exit")
        expect(page.locator("body")).to_have_attribute("data-status", "finished")
        expect(page.locator("#result")).to_be_visible()
        page.click("#rematch-link")
        expect(page.locator("body")).to_have_attribute("data-status", "playing")
        expect(page.locator("body")).to_have_attribute("data-you", seat)
        assert not tab.errors, tab.errors
    assert not eino.errors, eino.errors


def test_the_replay_explains_each_deal_end_and_jumps_between_deals(
    tmp_path: Path, start_server: Callable[..., Server], person: Callable[..., Tab]
) -> None:
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    table_id, _tokens, match = store_match(db, [True, True, False])
    assert match.outcome == "NS"
    server = start_server(db, options=WAIT_LONG)
    tab = person()
    page = tab.page
    page.set_viewport_size({"width": 390, "height": 844})  # a phone
    page.goto(f"{server.url}/t/{table_id}#replay")
    expect(page.locator("#replay-bar")).to_be_visible()
    step = page.locator("#replay-step")
    end = page.locator("#replay-end")
    starts = [0]
    for deal in match.deals[:-1]:
        starts.append(starts[-1] + len(deal.history) + 1)
    total = starts[-1] + len(match.deals[-1].history) + 1
    # At the first step nothing goes back; the deal has not ended.
    expect(step).to_have_text(f"Step 1 / {total}")
    for button in ("#replay-first", "#replay-prev", "#replay-prev-deal"):
        expect(page.locator(button)).to_be_disabled()
    expect(end).to_be_hidden()
    # Next deal goes to each deal's start; the step before it is the deal's end, explained.
    page.click("#replay-next-deal")
    expect(step).to_have_text(f"Step {starts[1] + 1} / {total}")
    expect(page.locator("#replay-action")).to_contain_text("Deal 2:")
    page.click("#replay-prev")
    expect(end).to_be_visible()
    expect(end.locator("h3")).to_have_text("Deal 1 is over")
    expect(end.locator('tr[data-team="NS"] td[data-col="game_points"]')).to_have_text("4")
    expect(end.locator('p.made[data-team="NS"]')).to_have_text(
        "NS: ♣ trumps 2 + last trick 1 + victory (120 card points) 1 = 4"
    )
    expect(end.locator('p.change[data-team="EW"]')).to_have_text("EW took no trick → 0 (Porvoo)")
    expect(end.locator('p.change[data-team="EW"]')).to_have_attribute("data-porvoo", "true")
    expect(page.locator("#replay-result")).to_have_count(0)
    page.click("#replay-next")
    expect(end).to_be_hidden()
    # From the last deal, Next deal goes to the last step: the match's end.
    page.click("#replay-next-deal")
    page.click("#replay-next-deal")
    expect(step).to_have_text(f"Step {total} / {total}")
    for button in ("#replay-next", "#replay-next-deal"):
        expect(page.locator(button)).to_be_disabled()
    expect(end.locator("h3")).to_have_text("Deal 3 is over")
    expect(end.locator('p.change[data-team="NS"]')).to_have_text("NS 8 + 2 = 10")
    expect(page.locator("#replay-result")).to_have_text("NS win the match: NS 10 – EW 0")
    # Previous deal goes to the start of the deal before; in Finnish the end is too.
    page.click("#replay-prev-deal")
    expect(step).to_have_text(f"Step {starts[1] + 1} / {total}")
    page.select_option("#lang", "fi")
    page.click("#replay-next-deal")
    page.click("#replay-prev")
    expect(end.locator("h3")).to_have_text("Jako 2 päättyi")
    expect(end.locator('p.change[data-team="EW"]')).to_have_text(
        "IL ei saanut tikkiä → 0 (Porvooseen)"
    )
    expect(page.locator("#replay-next-deal")).to_have_text("Seuraava jako")
    # By keyboard: the button that stops at the last step hands the focus to Back, not to
    # the page; at the first step, Start hands it on.
    page.focus("#replay-next-deal")
    for _ in range(len(match.deals) + 1):
        if page.locator("#replay-next-deal").is_disabled():
            break
        page.keyboard.press("Enter")
    expect(step).to_have_text(f"Vaihe {total}/{total}")
    expect(page.locator("#replay-prev")).to_be_focused()
    page.focus("#replay-first")
    page.keyboard.press("Enter")
    expect(step).to_have_text(f"Vaihe 1/{total}")
    expect(page.locator("#replay-next")).to_be_focused()
    assert not tab.errors, tab.errors


def test_the_replay_says_that_the_partner_answered(
    tmp_path: Path, start_server: Callable[..., Server], person: Callable[..., Tab]
) -> None:
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    people = {"N": "Aino", "S": "Eino"}
    table_id, _tokens, match = store_match(db, [], people, match=answered_match())
    server = start_server(db, options=WAIT_LONG)
    tab = person()
    page = tab.page
    page.goto(f"{server.url}/t/{table_id}#replay")
    expect(page.locator("#replay-bar")).to_be_visible()
    tokens = [str(a) for a in match.deals[0].history]
    asked = tokens.index("ask-whole")
    assert tokens[asked + 1] == "answer D"
    for _ in range(asked + 1):
        page.click("#replay-next")
    expect(page.locator("#replay-action")).to_have_text("Aino (N): Ask whole")
    # South, holding several marriages, is to move until it names one, as the engine has it.
    expect(page.locator("body")).to_have_attribute("data-phase", "answer")
    expect(page.locator("#turn")).to_have_text("Eino (S) names a marriage")
    expect(page.locator('.felt [data-seat="S"]')).to_have_attribute("data-turn", "true")
    expect(page.locator('.felt [data-seat="N"]')).to_have_attribute("data-turn", "false")
    page.click("#replay-next")  # South, not the asker, names one of its marriages
    expect(page.locator("#replay-action")).to_have_text(
        re.compile(r"^Eino \(S\) answers: .*diamonds$")
    )
    page.select_option("#lang", "fi")
    expect(page.locator("#replay-action")).to_have_text(re.compile(r"^Eino \(E\) vastaa: .*ruutu$"))
    page.click("#replay-prev")
    expect(page.locator("#turn")).to_have_text("Eino (E) nimeää parin")
    assert not tab.errors, tab.errors


@pytest.mark.parametrize(
    ("part", "seat", "key"),
    [
        (4, "N", "table.turn.window"),  # North may declare clubs or ask
        (9, "S", "table.turn.window_ask"),  # South holds one king: only a half-question
        (13, "N", "table.turn.lead"),  # North declared and holds no K or Q: only a lead
    ],
)
def test_the_turn_line_in_a_window_names_only_what_is_legal(
    tmp_path: Path,
    start_server: Callable[..., Server],
    person: Callable[..., Tab],
    part: int,
    seat: str,
    key: str,
) -> None:
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    table_id, tokens, _ = store_match(db, [], {"N": "Aino", "S": "Eino"}, part=part)
    server = start_server(db, options=WAIT_LONG)
    tab = person()
    page = open_seat(tab, server, table_id, seat, tokens[seat])
    expect(page.locator("body")).to_have_attribute("data-phase", "declaration")
    expect(page.locator("#turn")).to_have_text(catalogue("en")[key])
    # The bar's line is said whole where it is shown (a cut sentence is hidden).
    line = page.locator("#window-hint")
    for lang in ("en", "fi"):
        page.select_option("#lang", lang)
        expect(page.locator("#turn")).to_have_text(catalogue(lang)[key])
        if page.locator("#actions [data-action]").count():
            expect(line).to_have_text(catalogue(lang)["table.window.hint"])
            shown = line.evaluate(
                "e => getComputedStyle(e).visibility === 'visible'"
                " && getComputedStyle(e).display !== 'none'"
            )
            cut = line.evaluate("e => e.scrollHeight > e.clientHeight + 1")
            assert not (shown and cut), (lang, key)
    assert not tab.errors, tab.errors


def test_chat_between_two_people_shows_markup_as_text(
    tmp_path: Path, start_server: Callable[..., Server], person: Callable[..., Tab]
) -> None:
    server = start_server(f"sqlite:///{tmp_path / 'valtti.db'}")
    seats = {"N": "open", "E": "heuristic", "S": "open", "W": "heuristic"}
    made = server.create(seats, nickname="Aino", seat="N")
    south_token = server.join(made["id"], "S", "Eino")
    aino, eino, watcher = person(), person(locale="fi-FI"), person()
    north = open_seat(aino, server, made["id"], "N", made["token"])
    south = open_seat(eino, server, made["id"], "S", south_token)
    watching = open_seat(watcher, server, made["id"], None)

    north.fill("#chat-input", "<b>hi</b> <img src=x onerror=alert(1)>")
    north.click("#chat-send")
    for page in (north, south, watching):
        said = page.locator('#chat-log li[data-seat="N"] .chat-text')
        expect(said).to_have_text("<b>hi</b> <img src=x onerror=alert(1)>")
        expect(page.locator("#chat-log b.chat-name")).to_have_count(1)
        expect(page.locator("#chat-log img, #chat-log .chat-text b")).to_have_count(0)
    expect(north.locator("#chat-input")).to_have_value("")

    # An emote, in each page's language.
    south.click('#chat-emotes button[data-emote="thanks"]')
    expect(north.locator('#chat-log li[data-seat="S"] .chat-text')).to_have_text("Thanks!")
    expect(south.locator('#chat-log li[data-seat="S"] .chat-text')).to_have_text("Kiitos!")

    # The spectator reads but does not write.
    expect(watching.locator("#chat-form")).to_be_hidden()
    expect(watching.locator("#chat-watching")).to_be_visible()

    # Aino mutes Eino: Eino's messages leave her page, and stay muted after a reload.
    north.click('#chat-mutes button[data-mute="S"]')
    expect(north.locator('#chat-mutes button[data-mute="S"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(north.locator('#chat-log li[data-seat="S"]')).to_have_count(0)
    south.fill("#chat-input", "kuuluuko?")
    south.click("#chat-send")
    expect(watching.locator('#chat-log li[data-seat="S"]')).to_have_count(2)
    north.reload()
    expect(north.locator('#chat-log li[data-seat="N"]')).to_have_count(1)  # the history
    expect(north.locator('#chat-log li[data-seat="S"]')).to_have_count(0)

    # Too fast (5 in 10 s): a refused text is put back in the box, and refusals do not pile up.
    throttled = north.locator('#toasts .toast[data-code="chat_throttled"]')
    mine = north.locator('#chat-log li[data-seat="N"]')
    for n in range(8):
        before = mine.count()
        north.fill("#chat-input", f"viesti {n}")
        north.click("#chat-send")
        north.wait_for_function(
            "([n, box]) => document.querySelectorAll('#chat-log li[data-seat=\"N\"]').length > n"
            " || document.querySelector('#chat-input').value === box",
            arg=[before, f"viesti {n}"],
        )
        if north.locator("#chat-input").input_value():
            break
    expect(north.locator("#chat-input")).to_have_value(f"viesti {n}")
    expect(throttled).to_have_count(1)
    north.click("#chat-send")  # again at once: refused again, still one message on the page
    expect(throttled).to_have_count(1)
    expect(north.locator("#chat-input")).to_have_value(f"viesti {n}")
    assert not aino.errors and not eino.errors and not watcher.errors


def test_muting_one_of_two_people_of_the_same_nickname_mutes_that_seat_alone(
    tmp_path: Path, start_server: Callable[..., Server], person: Callable[..., Tab]
) -> None:
    server = start_server(f"sqlite:///{tmp_path / 'valtti.db'}")
    seats = {"N": "open", "E": "open", "S": "open", "W": "heuristic"}
    made = server.create(seats, nickname="Aino", seat="N")
    east_token = server.join(made["id"], "E", "Eino")
    south_token = server.join(made["id"], "S", "Aino")  # a second Aino
    north, east, south = person(), person(), person()
    pages = {
        "N": open_seat(north, server, made["id"], "N", made["token"]),
        "E": open_seat(east, server, made["id"], "E", east_token),
        "S": open_seat(south, server, made["id"], "S", south_token),
    }
    # Eino mutes North's Aino; South's Aino is still heard.
    pages["E"].click('#chat-mutes button[data-mute="N"]')
    expect(pages["E"].locator('#chat-mutes button[data-mute="S"]')).to_have_attribute(
        "aria-pressed", "false"
    )
    for seat in ("N", "S"):
        pages[seat].fill("#chat-input", f"Aino at {seat}")
        pages[seat].click("#chat-send")
        expect(pages[seat].locator(f'#chat-log li[data-seat="{seat}"]')).to_have_count(1)
    expect(pages["N"].locator('#chat-log li[data-seat="S"]')).to_have_count(1)
    expect(pages["E"].locator('#chat-log li[data-seat="S"] .chat-text')).to_have_text("Aino at S")
    expect(pages["E"].locator('#chat-log li[data-seat="N"]')).to_have_count(0)
    pages["E"].reload()
    expect(pages["E"].locator('#chat-log li[data-seat="S"]')).to_have_count(1)
    expect(pages["E"].locator('#chat-log li[data-seat="N"]')).to_have_count(0)
    # South's Aino mutes North's: her own messages stay on her page.
    pages["S"].click('#chat-mutes button[data-mute="N"]')
    expect(pages["S"].locator('#chat-log li[data-seat="N"]')).to_have_count(0)
    expect(pages["S"].locator('#chat-log li[data-seat="S"]')).to_have_count(1)
    assert not north.errors and not east.errors and not south.errors


def test_on_a_phone_on_its_side_the_deal_end_is_in_reach_and_goes_with_the_next_deal(
    tmp_path: Path,
    start_server: Callable[..., Server],
    browser: Browser,  # noqa: F811
) -> None:
    from tests.web.test_browser_absent import play_until

    server = start_server(f"sqlite:///{tmp_path / 'valtti.db'}", options=WAIT_LONG)
    bots = {"N": "heuristic", "E": "heuristic", "S": "open", "W": "heuristic"}
    table_id = server.create(bots)["id"]
    token = server.join(table_id, "S", "Aino")
    context = browser.new_context(viewport={"width": 844, "height": 390}, locale="en-GB")
    context.set_default_timeout(WAIT)
    try:
        tab = Tab(context.new_page())
        page = open_seat(tab, server, table_id, "S", token)
        # The deal ends while the page is open: the panel taller than the screen scrolls, its
        # Ready button on screen without scrolling.
        play_until(page, "#deal-over:not([hidden]) #ready-btn")
        button = page.locator("#ready-btn")
        box = button.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 390, box
        # The countdown stays in sight above it, and what scrolls goes under the two, never
        # through them (the button used to float over the line of who is ready).
        for part in ("#next-deal", "#ready-btn"):
            seen = """(selector) => {
                const part = document.querySelector(selector);
                const r = part.getBoundingClientRect();
                const hit = document.elementFromPoint(r.left + 4, r.top + r.height / 2);
                return r.top >= 0 && r.bottom <= innerHeight && part.contains(hit);
            }"""
            assert page.evaluate(seen, part), part
        beside = """() => {
            const b = document.getElementById("ready-btn").getBoundingClientRect();
            const panel = document.getElementById("deal-over").getBoundingClientRect();
            const x = (b.right + panel.right) / 2;
            const hit = document.elementFromPoint(x, b.top + b.height / 2);
            return Boolean(hit?.closest(".deal-over-foot"));
        }"""
        assert page.evaluate(beside), "the panel shows through beside Ready"
        # Ready, and the next deal is dealt at once: the panel goes with it, not seconds later
        # (the page keeps a deal's end 5 s when the next deal comes without a wait). Read as soon
        # as the page has drawn the new deal, not within a time a busy machine could run past.
        button.click()
        page.wait_for_function("() => document.body.dataset.phase !== 'over'")
        assert page.evaluate("() => document.getElementById('deal-over').hidden"), "kept"
        assert not tab.errors, tab.errors
    finally:
        context.close()


@pytest.mark.parametrize(("width", "height", "scrolls"), [(844, 390, False), (667, 375, True)])
def test_on_a_phone_on_its_side_the_replays_deal_end_leaves_the_table_in_sight(
    tmp_path: Path,
    start_server: Callable[..., Server],
    browser: Browser,  # noqa: F811
    width: int,
    height: int,
    scrolls: bool,
) -> None:
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    table_id, _tokens, match = store_match(db, [True, True, False])
    server = start_server(db, options=WAIT_LONG)
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
    context.set_default_timeout(WAIT)
    try:
        tab = Tab(context.new_page())
        page = tab.page
        page.goto(f"{server.url}/t/{table_id}#replay")
        for _ in match.deals:
            page.click("#replay-next-deal")  # to the last step: the last deal's end and the result
        end = page.locator("#replay-end")
        expect(end.locator("h3")).to_have_text("Deal 3 is over")
        # The explanation, in readable type, is a box that scrolls when it must (by keyboard
        # too); the buttons, the explanation and the table's top half are on the screen.
        box = end.evaluate(
            """e => ({overflow: getComputedStyle(e).overflowY,
                      scrolls: e.scrollHeight > e.clientHeight,
                      font: parseFloat(getComputedStyle(e.querySelector("p")).fontSize)})"""
        )
        assert box["overflow"] == "auto" and box["font"] >= 13, box
        assert box["scrolls"] is scrolls, box  # the wider phone's needs no scrolling
        expect(end).to_have_attribute("tabindex", "0")
        expect(end).to_have_attribute("aria-label", "Deal 3 is over")
        for shown in ("#replay-prev", "#replay-exit", "#replay-action", "#replay-end"):
            place = page.locator(shown).bounding_box()
            assert place is not None and place["y"] + place["height"] <= height, (shown, place)
        felt = page.locator(".felt").bounding_box()
        assert felt is not None and felt["y"] + felt["height"] / 2 <= height, felt
        if scrolls:
            end.focus()
            page.keyboard.press("End")
            page.wait_for_function("() => document.getElementById('replay-end').scrollTop > 0")
        expect(page.locator("#replay-result")).to_be_in_viewport()
        expect(end.locator('p.change[data-team="EW"]')).to_be_in_viewport()
        page.screenshot(path=str(tmp_path / "replay-landscape.png"))
        assert not tab.errors, tab.errors
    finally:
        context.close()
