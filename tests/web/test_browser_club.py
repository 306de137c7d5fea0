"""Club mode in a real browser (Playwright, Debian's Chromium; docs/HOSTING.md, "A club"): an
administrator sets up the club and invites two members who sign up and sign in; a visitor
who is no member cannot create or join a table; a club night of two tables and two rounds
(people and computer players) plays the same deals at both tables and shows standings equal
to a computation by hand here, at a phone's size and a desktop's, and the members' ratings
change after it. Saves the screenshots of docs/HOSTING.md under ``$VALTTI_SCREENSHOTS`` when
that is set. Needs /usr/bin/chromium: skipped without it, failed under CI=true.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from tests.web.club_helpers import PASSWORD, play_people
from tests.web.serving import Server
from tests.web.test_browser import (  # noqa: F401  (fixtures used by name)
    assert_in_language,
    browser,
    catalogue,
    new_context,
    playwright,
)
from tests.web.test_browser_contrast import (  # noqa: F401  (a fixture used by name)
    axe_source,
    contrast_failures,
)
from tests.web.test_club_nights import by_hand

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.serve]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}


def shoot(page: Page, name: str, selector: str | None = None) -> None:
    """Save a screenshot for docs/HOSTING.md when ``VALTTI_SCREENSHOTS`` names a folder."""
    folder = os.environ.get("VALTTI_SCREENSHOTS")
    if not folder:
        return
    path = Path(folder) / f"{name}.png"
    if selector is None:
        page.screenshot(path=str(path))
    else:
        page.locator(selector).screenshot(path=str(path))


def start_club(tmp_path: Path, start_server: Callable[..., Server]) -> Server:
    return start_server(f"sqlite:///{tmp_path / 'valtti.db'}", options=["--club"])


def fill_account(page: Page, form: str, name: str, password: str = PASSWORD) -> None:
    page.fill(f"{form} input[name=name]", name)
    page.fill(f"{form} input[name=password]", password)
    page.click(f"{form} button[type=submit]")


def sign_in(page: Page, url: str, name: str) -> None:
    page.goto(url + "/club")
    fill_account(page, "#signin-form", name)
    expect(page.locator("#account-name")).to_have_text(name)


def no_overflow(page: Page) -> None:
    """Nothing of the page is wider than the window (no sideways scrolling)."""
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"{wide} px wider than the window"


def test_an_administrator_invites_two_members_and_a_visitor_may_not_play(
    tmp_path: Path,
    start_server: Callable[..., Server],
    new_context: Callable[..., BrowserContext],  # noqa: F811
    axe_source: str,  # noqa: F811
) -> None:
    server = start_club(tmp_path, start_server)
    en = catalogue("en")
    admin = new_context().new_page()
    admin.goto(server.url + "/club")
    expect(admin.locator("#setup h1")).to_have_text(en["club.setup.heading"])
    fill_account(admin, "#setup-form", "Anna")
    expect(admin.locator("#account-name")).to_have_text("Anna")
    expect(admin.locator("#club-link")).to_have_text("Anna")
    links = []
    for _ in range(2):
        before = admin.locator("#invite-link").input_value()
        admin.click("#invite")
        expect(admin.locator("#invite-link")).not_to_have_value(before)
        links.append(admin.locator("#invite-link").input_value())
    assert all("/club?invitation=" in link for link in links)

    for name, link in zip(("Bertta", "Cecilia"), links, strict=True):
        member = new_context().new_page()
        member.goto(link)
        expect(member.locator("#signup h1")).to_have_text(en["club.signup.heading"])
        fill_account(member, "#signup-form", name)
        expect(member.locator("#account-name")).to_have_text(name)
        expect(member.locator("#admin")).to_be_hidden()
        member.click("#signout")
        expect(member.locator("#signin-form")).to_be_visible()
        fill_account(member, "#signin-form", name, "a wrong password")
        expect(member.locator('#toasts .toast[data-code="bad_sign_in"]')).to_be_visible()
        fill_account(member, "#signin-form", name)
        expect(member.locator("#account-name")).to_have_text(name)
        # The link signs up one person only.
        again = new_context().new_page()
        again.goto(link)
        expect(again.locator("#signup-closed")).to_be_visible()

    admin.reload()
    expect(admin.locator("#member-list li")).to_have_count(3)
    # A Finnish browser gets the club's page in Finnish, signed in or not, at a phone's size.
    fi = catalogue("fi")
    finn = new_context(locale="fi-FI").new_page()
    finn.set_viewport_size(PHONE)
    finn.goto(server.url + "/club")
    expect(finn.locator("#signin h1")).to_have_text(fi["club.signin.heading"])
    assert_in_language(finn, "fi")
    no_overflow(finn)
    fill_account(finn, "#signin-form", "Bertta")
    expect(finn.locator("#account-name")).to_have_text("Bertta")
    assert_in_language(finn, "fi")
    no_overflow(finn)
    admin.set_viewport_size(DESKTOP)
    shoot(admin, "club-admin")
    admin.click("#night-new summary")  # the night's form open too
    assert contrast_failures(admin, axe_source) == []  # WCAG 2 A/AA, by axe-core

    # A table of Anna's, and a visitor who is no member.
    admin.goto(server.url + "/")
    expect(admin.locator("input[name=nickname]")).to_have_value("Anna")
    admin.click("#play-computer")
    admin.wait_for_url("**/t/*")
    table_id = admin.url.rsplit("/", 1)[1]
    visitor = new_context().new_page()
    visitor.set_viewport_size(PHONE)
    visitor.goto(server.url + "/")
    expect(visitor.locator("#club-notice")).to_be_visible()
    expect(visitor.locator("#club-link")).to_have_text(en["club.signin.link"])
    no_overflow(visitor)
    visitor.fill("input[name=nickname]", "Ville")
    visitor.click("#play-computer")
    expect(visitor.locator('#toasts .toast[data-code="not_signed_in"]')).to_be_visible()
    joined = visitor.evaluate(
        """(id) => fetch(`/api/tables/${id}/seats/N`, {method: "POST",
             headers: {"Content-Type": "application/json"}, body: '{"nickname": "Ville"}'})
           .then((r) => r.status)""",
        table_id,
    )
    assert joined == 401
    visitor.goto(f"{server.url}/t/{table_id}")
    expect(visitor.locator("body")).to_contain_text(en["table.not_watcher"])
    # The club's list of tables is its members': the visitor's lobby says so.
    assert server.http.get("/api/tables").status_code == 401
    visitor.goto(server.url + "/")
    expect(visitor.locator("#tables-empty")).to_have_text(en["lobby.tables.members"])
    listed = admin.evaluate("fetch('/api/tables').then((r) => r.json())")["total"]
    assert listed == 0  # a game against the computer is not listed; the visitor made none

    # A member's table with an open seat: its share link lets one guest in.
    admin.goto(server.url + "/")
    admin.wait_for_selector('select[data-variant="target"]', state="attached")
    admin.check('input[data-seat-choice="N"]')
    for seat, who in (("E", "open"), ("S", "heuristic"), ("W", "heuristic")):
        admin.select_option(f'select[data-seat-player="{seat}"]', who)
    admin.click("#create")
    admin.wait_for_url("**/t/*")
    share = admin.locator("#share-link")
    expect(share).to_have_value(re.compile(r"/t/[\w-]+\?guest=[\w-]+$"))
    guest = new_context().new_page()
    guest.goto(share.input_value())
    expect(guest.locator("body")).to_have_attribute("data-status", "waiting")
    guest.fill('#waiting input[name="nickname"]', "Vieras")
    guest.click('button[data-take="E"]')
    expect(guest.locator("body")).to_have_attribute("data-you", "E")
    expect(admin.locator('.felt [data-seat="E"] .name')).to_have_text("Vieras")


def create_night(page: Page, url: str, members: list[str]) -> str:
    page.goto(url + "/club")
    page.click("#night-new summary")
    page.fill("#night-form input[name=name]", "Torstai")
    page.fill("#night-form input[name=tables]", "2")
    page.fill("#night-form input[name=rounds]", "2")
    page.fill("#night-form input[name=deals]", "1")
    page.select_option("#night-form select[name=movement]", "pairs")
    page.select_option("#night-form select[name=computer]", "heuristic")
    for name in members:
        page.locator("#night-players label", has_text=name).locator("input").check()
    page.click("#night-form button[type=submit]")
    page.wait_for_url("**/club/nights/*")
    return page.url.rsplit("/", 1)[1]


def take_my_seat(page: Page, url: str, night_id: str) -> tuple[str, str, str]:
    """The member takes their seat from the night's page; the table, seat and token."""
    page.goto(f"{url}/club/nights/{night_id}")
    page.click("#my-seat")
    page.wait_for_url("**/t/*")
    table_id = page.url.rsplit("/", 1)[1]
    keys: dict[str, Any] = page.evaluate(
        "(id) => JSON.parse(localStorage.getItem(`valtti:table:${id}`))", table_id
    )
    page.goto(url + "/club")  # the person plays on through the protocol, below
    return table_id, keys["seat"], keys["token"]


def test_a_club_night_plays_the_same_deals_and_shows_standings_as_computed_by_hand(
    tmp_path: Path,
    start_server: Callable[..., Server],
    new_context: Callable[..., BrowserContext],  # noqa: F811
    axe_source: str,  # noqa: F811
) -> None:
    server = start_club(tmp_path, start_server)
    answer = server.http.post("/api/club/setup", json={"name": "Anna", "password": PASSWORD})
    csrf = answer.json()["csrf"]
    invitation = server.http.post(
        "/api/club/invitations", json={}, headers={"X-CSRF-Token": csrf}
    ).json()["token"]
    bertta_page = new_context().new_page()
    bertta_page.goto(f"{server.url}/club?invitation={invitation}")
    fill_account(bertta_page, "#signup-form", "Bertta")
    expect(bertta_page.locator("#account-name")).to_have_text("Bertta")
    anna_page = new_context().new_page()
    sign_in(anna_page, server.url, "Anna")
    night_id = create_night(anna_page, server.url, ["Anna", "Bertta"])
    expect(anna_page.locator("body")).to_have_attribute("data-round", "1")
    rng = random.Random(2026)
    for round_ in (1, 2):
        # The night's page follows it live: the next round shows once it is seated.
        anna_page.goto(f"{server.url}/club/nights/{night_id}")
        expect(anna_page.locator("body")).to_have_attribute("data-round", str(round_))
        seats = {}
        for page in (anna_page, bertta_page):
            table_id, seat, token = take_my_seat(page, server.url, night_id)
            seats[seat] = token
        play_people({s: server.socket(table_id, t) for s, t in seats.items()}, rng)
        # The table's page leads back to the night, and opens the replay once the round is
        # over at every table.
        anna_page.goto(f"{server.url}/t/{table_id}")
        back = anna_page.locator("#night-link")
        expect(back).to_have_attribute("href", f"/club/nights/{night_id}")
        expect(anna_page.locator("#replay-btn")).to_be_visible()
        expect(anna_page.locator("#night-wait")).to_be_hidden()
    watcher = anna_page
    watcher.goto(f"{server.url}/club/nights/{night_id}")
    expect(watcher.locator("body")).to_have_attribute("data-status", "finished", timeout=60_000)
    night = server.http.get(f"/api/club/nights/{night_id}").json()
    # Both tables of each round dealt the same cards.
    for round_ in (1, 2):
        ids = [t["id"] for t in night["tables"] if t["round"] == round_]
        hands = [server.http.get(f"/api/tables/{i}/record").json()["deals"][0] for i in ids]
        assert hands[0]["hands"] == hands[1]["hands"] and hands[0]["dealer"] == hands[1]["dealer"]
    # The page shows what a computation by hand gives, for every pair.
    hand = by_hand(night, server.db_url)
    rows = watcher.locator("#standings tbody tr")
    expect(rows).to_have_count(4)
    for row in rows.all():
        pair = int(str(row.get_attribute("data-entrant")))
        mp, top = hand[pair]
        expect(row.locator(".matchpoints")).to_have_text(f"{mp} / {top}")
        expect(row.locator(".percent")).to_have_text(f"{100 * mp / top:.2f} %")
    expect(watcher.locator("#deal-results tbody tr")).to_have_count(4)
    for size, name in ((DESKTOP, "club-night-desktop"), (PHONE, "club-night-phone")):
        watcher.set_viewport_size(size)
        no_overflow(watcher)
        # The standings fit without scrolling sideways, on a phone too.
        scroll = "document.querySelector('#standings').parentElement"
        assert watcher.evaluate(f"(e => e.scrollWidth <= e.clientWidth)({scroll})")
        shoot(watcher, name)
        assert contrast_failures(watcher, axe_source) == []
    # A computer player goes by its level, never by its program's name.
    shown = watcher.locator("#standings, #night-tables, #night-settings").all_inner_texts()
    assert not any(re.search(r"heuristic|search:|pimc:", text) for text in shown), shown
    # The ratings changed, and the member's page shows the night behind the change.
    bertta = next(m for m in server.http.get("/api/club/members").json() if m["name"] == "Bertta")
    bertta_page.goto(f"{server.url}/club/members/{bertta['id']}")
    row = bertta_page.locator(f'#history tbody tr[data-source="night:{night_id}"]')
    expect(row).to_have_count(1)
    assert row.locator(".before").inner_text() != row.locator(".after").inner_text()
    expect(bertta_page.locator("#matches li")).to_have_count(2)
    bertta_page.set_viewport_size(DESKTOP)
    shoot(bertta_page, "club-member")
    assert contrast_failures(bertta_page, axe_source) == []
    # The lobby shows the club's ratings, the night's changes in them.
    bertta_page.goto(server.url + "/")
    rating = bertta_page.locator(f'#rating-list li[data-member="{bertta["id"]}"] .rating')
    expect(rating).to_have_text(str(bertta["rating"]))
    assert bertta["rating"] != 0.0
    expect(bertta_page.locator("#rating-list li")).to_have_count(2)


def test_a_member_signs_up_and_in_with_a_passkey(
    tmp_path: Path,
    new_context: Callable[..., BrowserContext],  # noqa: F811
) -> None:
    # WebAuthn takes a host name, never an address: the browser opens the server as localhost
    # (its public URL, so that the server's one address is that name).
    server = Server(f"sqlite:///{tmp_path / 'valtti.db'}", options=["--club"])
    url = f"http://localhost:{server.port}"
    server.options += ["--public-url", url]
    server.start()
    try:
        passkey_ceremonies(server, url, new_context)
    finally:
        server.stop()


def passkey_ceremonies(
    server: Server,
    url: str,
    new_context: Callable[..., BrowserContext],  # noqa: F811
) -> None:
    csrf = server.http.post("/api/club/setup", json={"name": "Anna", "password": PASSWORD}).json()[
        "csrf"
    ]
    invitation = server.http.post(
        "/api/club/invitations", json={}, headers={"X-CSRF-Token": csrf}
    ).json()["token"]
    context = new_context()
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    made = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    page.goto(f"{url}/club?invitation={invitation}")
    page.fill("#signup-form input[name=name]", "Bertta")
    page.click("#passkey-signup")
    expect(page.locator("#account-name")).to_have_text("Bertta")
    held = cdp.send("WebAuthn.getCredentials", {"authenticatorId": made["authenticatorId"]})
    assert [c["isResidentCredential"] for c in held["credentials"]] == [True]
    page.click("#signout")
    expect(page.locator("#signin-form")).to_be_visible()
    page.click("#passkey-signin")
    expect(page.locator("#account-name")).to_have_text("Bertta")
    # No password was ever set: a password sign-in with any is refused.
    refused = server.http.post("/api/club/signin", json={"name": "Bertta", "password": PASSWORD})
    assert refused.status_code == 401
    # The passkey on this authenticator is the member's already: it is not made twice.
    page.click("#passkey-add")
    expect(page.locator('#toasts .toast[data-code="passkey_cancelled"]')).to_be_visible()
    held = cdp.send("WebAuthn.getCredentials", {"authenticatorId": made["authenticatorId"]})
    assert len(held["credentials"]) == 1
