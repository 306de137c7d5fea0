"""End-to-end tests of the web table in a real browser: Playwright drives Debian's Chromium.

Each test starts from pages a person would use, against a real ``valtti serve`` process (the
session's ``server`` fixture: a SQLite file, computer players without delay). Waits are on the
pages' own test hooks (static/table.js and static/lobby.js), never on fixed sleeps. What a page
showed is compared afterwards with the true hands the server stored.

Needs /usr/bin/chromium (Debian's ``chromium`` package): skipped without it, failed under CI=true.
``VALTTI_SCREENSHOT=1`` also writes docs/table.png, a picture of the table.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    Playwright,
    WebSocket,
    expect,
    sync_playwright,
)
from tests.web.crafted import seeded_table
from tests.web.serving import Server, hands_by_seq, stored_record

from valtti.web.referee.seats import nickname_fault, trim_nickname

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = ROOT / "src" / "valtti" / "web" / "static" / "i18n"
SCREENSHOT = ROOT / "docs" / "table.png"
#: Milliseconds any one wait on a page may take (a loaded machine, computer players thinking).
WAIT = 20_000
expect.set_options(timeout=WAIT)
SEATS = ("N", "E", "S", "W")
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}
CARD = re.compile(r'"([AKQJT9876][SHDC])"')

# What a page shows, read in one go (so all of it belongs to one state): its seq, the face-up
# cards outside the trick and the history, its hand, its enabled controls.
READ_PAGE = """() => {
  const body = document.body;
  const history = "#trick, #last-trick, #log";
  const faces = [...document.querySelectorAll("svg.card-face[data-token], [data-card]")]
    .filter((e) => !e.closest(history))
    .map((e) => e.dataset.token ?? e.dataset.card);
  const hand = [...document.querySelectorAll("#hand [data-card]")].map((e) => ({
    card: e.dataset.card, legal: e.dataset.legal === "true", enabled: !e.disabled,
  }));
  const actions = [
    ...document.querySelectorAll("#actions:not([hidden]) [data-action]"),
    ...document.querySelectorAll("#answer-dialog[open] [data-action]"),
  ].map((e) => ({ token: e.dataset.action, enabled: !e.disabled }));
  const turn = document.querySelector('.felt [data-turn="true"]');
  const backs = {};
  for (const s of document.querySelectorAll(".felt [data-seat]")) {
    const b = s.querySelector(".backs");
    if (b) backs[s.dataset.seat] = [+b.dataset.handSize, b.querySelectorAll(".card-back").length];
  }
  return {
    seq: body.dataset.seq === "" ? -1 : Number(body.dataset.seq),
    status: body.dataset.status, you: body.dataset.you, phase: body.dataset.phase,
    deals: document.querySelectorAll("#sheet tr[data-deal]").length,
    toMove: turn ? turn.dataset.seat : null,
    faces, hand, actions, backs,
    trick: [...document.querySelectorAll("#trick [data-played]")]
      .map((e) => [e.dataset.by, e.dataset.played]),
    trump: document.getElementById("trumps").dataset.trump,
  };
}"""

# True once the page's seat may act (after ``after``, the seq of the last action taken), the
# seat ``other`` is to move, deal ``deals`` has begun or the match is over.
READY = """([after, other, deals]) => {
  const body = document.body;
  if (body.dataset.status === "finished") return true;
  if (document.querySelectorAll("#sheet tr[data-deal]").length >= deals) return true;
  if (body.dataset.seq === "" || Number(body.dataset.seq) <= after) return false;
  if (document.querySelector("#hand [data-card][data-legal='true']:not([disabled])")) return true;
  if (document.querySelector("#actions:not([hidden]) [data-action]:not([disabled])")) return true;
  if (document.querySelector("#answer-dialog[open] [data-action]:not([disabled])")) return true;
  const turn = `.felt [data-seat="${other}"][data-turn="true"]`;
  return other !== null && !!document.querySelector(turn);
}"""

# The plays of the deal as the page's log tells them: [seat, card] from "Name (S) plays 10♥".
LOG_PLAYS = """() => [...document.querySelectorAll("#log li.log-play")].map((li) => {
  const seat = (li.textContent.match(/\\((N|E|S|W)\\)/) ?? [])[1] ?? null;
  const inline = li.querySelector(".card-inline");
  const rank = inline ? inline.firstChild.textContent : "";
  const suit = ["S", "H", "D", "C"].find((s) => inline?.querySelector(`svg.suit-${s}`));
  return [seat, (rank === "10" ? "T" : rank) + (suit ?? "")];
})"""


# -- the browser ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    if not CHROMIUM.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {CHROMIUM} is missing: the browser tests need it")
        pytest.skip(f"browser tests need Debian's Chromium at {CHROMIUM} (apt install chromium)")
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    launched = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True)
    yield launched
    launched.close()


@pytest.fixture
def new_context(browser: Browser) -> Iterator[Callable[..., BrowserContext]]:
    """Browser contexts (separate people: own storage), 1280 × 800, closed after the test."""
    contexts: list[BrowserContext] = []

    def make(locale: str = "en-GB") -> BrowserContext:
        context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=locale)
        context.set_default_timeout(WAIT)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@dataclass
class Tab:
    """One page, with every WebSocket frame it received and sent and every script error."""

    page: Page
    received: list[dict[str, Any]] = field(default_factory=list)
    sent: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: seq → what the page showed at that seq (READ_PAGE)
    shown: dict[int, dict[str, Any]] = field(default_factory=dict)
    acted: int = -1  #: the seq at which this page last acted

    def __post_init__(self) -> None:
        self.page.on("websocket", self._socket)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _socket(self, ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: self.received.append(json.loads(payload)))
        ws.on("framesent", lambda payload: self.sent.append(json.loads(payload)))

    def read(self) -> dict[str, Any]:
        """What the page shows now; also kept in ``shown``."""
        view: dict[str, Any] = self.page.evaluate(READ_PAGE)
        if view["status"] == "playing":
            self.shown.setdefault(view["seq"], view)
        return view

    def ready(self, after: int, other: str | None = None, deals: int = 2) -> dict[str, Any]:
        """Wait until the page's seat may act after seq ``after`` (or ``other`` is to move, or
        deal ``deals`` has begun); what it shows then."""
        self.page.wait_for_function(READY, arg=[after, other, deals])
        return self.read()

    def actions_sent(self) -> list[str]:
        return [m["action"] for m in self.sent if m.get("type") == "action"]

    def states(self) -> list[dict[str, Any]]:
        return [f for f in self.received if f["type"] == "state"]

    def state_at(self, seq: int, nth: int = 0) -> dict[str, Any]:
        """The ``nth`` state frame of ``seq`` (frames reach this process a little after the
        page has them)."""
        for _ in range(400):
            frames = [f for f in self.states() if f["seq"] == seq]
            if len(frames) > nth:
                return frames[nth]
            self.page.wait_for_timeout(25)
        raise AssertionError(f"no state frame {nth} of seq {seq} received")

    def sent_since(self, before: int) -> list[str]:
        """The actions sent after the first ``before`` (waiting for the first to be reported)."""
        for _ in range(400):
            if len(self.actions_sent()) > before:
                break
            self.page.wait_for_timeout(25)
        return self.actions_sent()[before:]

    def log_plays(self) -> list[list[str]]:
        plays: list[list[str]] = self.page.evaluate(LOG_PLAYS)
        return plays

    def check_clean(self) -> None:
        """No script error, no error from the server, and no error message shown."""
        assert not self.errors, self.errors
        assert not [f for f in self.received if f["type"] not in ("state", "pong")], self.received
        expect(self.page.locator("#toasts .toast-error")).to_have_count(0)


def open_seat(tab: Tab, server: Server, table_id: str, seat: str | None, token: str = "") -> Page:
    """Open the table's link in ``tab``, holding ``token`` for ``seat`` (none: watching)."""
    page = tab.page
    page.goto(server.url + "/rules")
    keys = {"token": token, "seat": seat} if seat else {}
    page.evaluate(
        "([id, keys]) => localStorage.setItem(`valtti:table:${id}`, keys)",
        [table_id, json.dumps(keys)],
    )
    page.goto(f"{server.url}/t/{table_id}")
    expect(page.locator("body")).to_have_attribute("data-you", seat or "")
    return page


def choose(view: dict[str, Any], prefer: tuple[str, ...] = ()) -> str:
    """The action to click: the first enabled declaration or question whose token starts with
    one of ``prefer`` (in that order), else the first legal card, else an answer."""
    words: list[str] = [a["token"] for a in view["actions"] if a["enabled"]]
    for start in prefer:
        for word in words:
            if word.startswith(start):
                return word
    cards: list[str] = [c["card"] for c in view["hand"] if c["legal"] and c["enabled"]]
    choices = cards or words
    assert choices, view
    return choices[0]


def click(tab: Tab, token: str) -> None:
    if token.startswith(("declare", "ask", "answer")):
        tab.page.click(f'[data-action="{token}"]')
    else:
        tab.page.click(f'#hand [data-card="{token}"]')


def create_in_lobby(
    tab: Tab, url: str, nickname: str, seats: dict[str, str], hints: bool = True
) -> str:
    """Create a table from the lobby, sitting at the seat given as "me" (with ``hints`` or
    without); the table's id."""
    page = tab.page
    page.goto(url + "/")
    # The form is ready once lobby.js has built it (the variant switches come last).
    page.wait_for_selector('select[data-variant="target"]', state="attached")
    page.fill('#create-form input[name="nickname"]', nickname)
    mine = next(s for s, who in seats.items() if who == "me")
    page.check(f'input[data-seat-choice="{mine}"]')
    for seat, who in seats.items():
        if seat != mine:
            page.select_option(f'select[data-seat-player="{seat}"]', who)
    page.set_checked("#create-form input[data-hints]", hints)
    page.click("#create")
    page.wait_for_url("**/t/*")
    expect(page.locator("body")).to_have_attribute("data-you", mine)
    return page.url.rsplit("/t/", 1)[1]


# -- the truth, from the server's database ---------------------------------------------------------


def assert_sees_only(tab: Tab, seat: str | None, hands: dict[int, dict[str, set[str]]]) -> None:
    """Every face-up card the page showed outside the trick and the history was in its own
    hand (a spectator: none), and no frame it received named a card another seat held."""
    assert tab.shown, "the page was never read while playing"
    for seq, view in tab.shown.items():
        own = hands[seq][seat] if seat else set()
        others = set().union(*(h for s, h in hands[seq].items() if s != seat))
        assert set(view["faces"]) == own, f"seq {seq}: {seat} sees {view['faces']}, holds {own}"
        assert not set(view["faces"]) & others
    states = [f for f in tab.states() if f["observation"] is not None]
    assert states
    for frame in states:
        visible = {k: v for k, v in frame.items() if k != "last_trick"}
        # The previous deal's last trick is public, though its cards are dealt anew.
        named = set(CARD.findall(json.dumps(visible)))
        others = set().union(*(h for s, h in hands[frame["seq"]].items() if s != seat))
        assert not named & others, f"seat {seat} was sent {named & others} at {frame['seq']}"
        assert frame["you"] == seat and frame["observation"]["seat"] == seat


# -- the tests -------------------------------------------------------------------------------------


def test_one_person_plays_a_deal_against_three_computer_players(
    server: Server, new_context: Callable[..., BrowserContext]
) -> None:
    tab = Tab(new_context().new_page())
    seats = {"N": "heuristic", "E": "random", "S": "me", "W": "random"}
    table_id = create_in_lobby(tab, server.url, "Aino", seats)
    expect(tab.page.locator("body")).to_have_attribute("data-status", "playing")

    cards_played = 0
    while True:
        view = tab.ready(tab.acted)
        if view["deals"] >= 2:
            break
        # Exactly the legal cards are enabled; every other card is disabled.
        for c in view["hand"]:
            assert c["enabled"] == c["legal"], c
        legal_cards = {c["card"] for c in view["hand"] if c["legal"]}
        words = {a["token"] for a in view["actions"]}
        assert all(a["enabled"] for a in view["actions"])
        assert legal_cards | words == set(tab.state_at(view["seq"])["observation"]["legal"])

        token = choose(view, prefer=("declare", "ask"))
        before = len(tab.actions_sent())
        refused = [c["card"] for c in view["hand"] if not c["legal"]]
        if refused:
            # A click on a card that is not legal sends nothing.
            tab.page.click(f'#hand [data-card="{refused[0]}"]', force=True)
        click(tab, token)
        assert tab.sent_since(before) == [token]
        tab.acted = view["seq"]
        if token in legal_cards:
            cards_played += 1
            after = tab.ready(tab.acted)
            if after["deals"] < 2:
                left = [c["card"] for c in after["hand"]]
                assert len(left) == len(view["hand"]) - 1 and token not in left

    assert cards_played == 9
    sheet = tab.page.locator('#sheet tr[data-deal="1"] td').last
    score = tab.page.locator("#score")
    ns, ew = score.get_attribute("data-ns"), score.get_attribute("data-ew")
    expect(sheet).to_have_text(f"{ns}–{ew}")
    expect(tab.page.locator('#sheet tr[data-deal="2"]')).to_have_class("current")
    assert tab.read()["deals"] == 2 and len(tab.read()["hand"]) == 9
    assert_sees_only(tab, "S", hands_by_seq(stored_record(server.db_url, table_id)))
    tab.check_clean()


def test_two_people_see_each_others_plays_and_never_each_others_cards(
    server: Server, new_context: Callable[..., BrowserContext]
) -> None:
    south = Tab(new_context().new_page())
    seats = {"N": "open", "E": "random", "S": "me", "W": "random"}
    table_id = create_in_lobby(south, server.url, "Aino", seats)
    expect(south.page.locator("body")).to_have_attribute("data-status", "waiting")

    # The other person takes seat N from the lobby's list.
    north = Tab(new_context().new_page())
    north.page.goto(server.url + "/")
    north.page.click(f'#tables li[data-table="{table_id}"] button[data-join="N"]')
    expect(north.page.locator("#join-dialog")).to_be_visible()
    north.page.fill('#join-dialog input[name="join-nickname"]', "Bertta")
    north.page.click("#join-ok")
    north.page.wait_for_url(f"**/t/{table_id}")
    for tab, seat in ((south, "S"), (north, "N")):
        expect(tab.page.locator("body")).to_have_attribute("data-status", "playing")
        expect(tab.page.locator("body")).to_have_attribute("data-you", seat)
        expect(tab.page.locator(f'.felt [data-seat="{PARTNER[seat]}"] .name')).to_have_text(
            {"N": "Bertta", "S": "Aino"}[PARTNER[seat]]
        )

    tabs = {"S": south, "N": north}
    last = -1  # the seq of the last action a person took
    plays = 0
    while True:
        view = south.ready(last, other="N")
        if view["deals"] >= 2:
            break
        seat = "S"
        if view["toMove"] == "N":
            seat = "N"
            view = north.ready(last)
            assert view["deals"] == 1 and view["toMove"] == "N"
        tab, watcher = tabs[seat], tabs[PARTNER[seat]]
        token = choose(view)
        click(tab, token)
        last = tab.acted = view["seq"]
        if token in {c["card"] for c in view["hand"]}:
            plays += 1
            # The partner's page shows the play in its log, unless that ended the deal.
            watcher.page.wait_for_function(
                f"([seat, card]) => ({LOG_PLAYS})().some(([s, c]) => s === seat && c === card)"
                " || document.querySelectorAll('#sheet tr[data-deal]').length >= 2",
                arg=[seat, token],
            )
            if len(view["hand"]) > 1:
                assert [seat, token] in watcher.log_plays()
            watcher.read()
    north.ready(last, deals=2)

    assert plays == 18
    hands = hands_by_seq(stored_record(server.db_url, table_id))
    for seat, tab in tabs.items():
        assert_sees_only(tab, seat, hands)
        tab.check_clean()


def test_a_watcher_takes_an_open_seat_from_the_table_page(
    server: Server, new_context: Callable[..., BrowserContext]
) -> None:
    south = Tab(new_context().new_page())
    seats = {"N": "random", "E": "open", "S": "me", "W": "random"}
    table_id = create_in_lobby(south, server.url, "Aino", seats)
    east = Tab(new_context().new_page())
    east.page.goto(f"{server.url}/t/{table_id}")  # the shared link, no token: watching
    expect(east.page.locator("body")).to_have_attribute("data-you", "")
    expect(east.page.locator("body")).to_have_attribute("data-status", "waiting")
    east.page.fill('#waiting input[name="nickname"]', "Eero")
    east.page.click('button[data-take="E"]')
    expect(east.page.locator("body")).to_have_attribute("data-you", "E")
    expect(east.page.locator("body")).to_have_attribute("data-status", "playing")
    expect(east.page.locator("#hand button[data-card]")).to_have_count(9)
    expect(south.page.locator('.felt [data-seat="E"] .name')).to_have_text("Eero")
    for tab in (south, east):
        tab.check_clean()


def test_enter_after_the_nickname_takes_the_one_open_seat(
    server: Server, new_context: Callable[..., BrowserContext]
) -> None:
    # A friend opens the link on a phone, types a nickname and presses the keyboard's Go
    # (Enter): nothing happened, and the seat's button had to be found on the table.
    seats = {"N": "open", "E": "open", "S": "me", "W": "random"}
    table_id = create_in_lobby(Tab(new_context().new_page()), server.url, "Aino", seats)
    east = Tab(new_context().new_page())
    east.page.goto(f"{server.url}/t/{table_id}")
    expect(east.page.locator("body")).to_have_attribute("data-status", "waiting")
    # Two seats open: Enter leads to the first one's button (N E S W), the choice is theirs.
    east.page.fill('#waiting input[name="nickname"]', "Eero")
    east.page.press('#waiting input[name="nickname"]', "Enter")
    expect(east.page.locator('button[data-take="N"]')).to_be_focused()
    expect(east.page.locator("body")).to_have_attribute("data-you", "")
    server.join(table_id, "N", "Noora")
    # One seat open: Enter takes it.
    expect(east.page.locator("button[data-take]")).to_have_count(1)
    east.page.press('#waiting input[name="nickname"]', "Enter")
    expect(east.page.locator("body")).to_have_attribute("data-you", "E")
    expect(east.page.locator("body")).to_have_attribute("data-status", "playing")
    east.check_clean()


def south_to_move_after(seq: int) -> Callable[[dict[str, Any]], bool]:
    def done(frame: dict[str, Any]) -> bool:
        if frame["type"] != "state" or frame["seq"] <= seq or frame["observation"] is None:
            return False
        return bool(frame["observation"]["to_move"] == "S")

    return done


#: The seed of the spectator's table: South holds no two marriages in deal 1, so no question of
#: North's makes South choose one. (While South chose, South's seq would count the question and
#: the spectator's not yet: about 1 match in 2,000 on a random seed did that in these turns.)
SPECTATOR_SEED = 12345


def test_a_spectator_sees_no_hand(
    tmp_path: Path, start_server: Callable[..., Server], new_context: Callable[..., BrowserContext]
) -> None:
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    table_id, tokens = seeded_table(db, SPECTATOR_SEED, {"S": "Aino"}, "random")
    server = start_server(db)
    player = server.socket(table_id, tokens["S"])
    spectator = Tab(new_context().new_page())
    spectator.page.goto(f"{server.url}/t/{table_id}")
    body = spectator.page.locator("body")
    expect(body).to_have_attribute("data-status", "playing")
    expect(body).to_have_attribute("data-you", "")
    try:
        seq = -1
        for _ in range(6):
            frame = player.until(south_to_move_after(seq))
            assert frame["observation"]["phase"] != "answer", "the seed has South choose now"
            seq = frame["seq"]
            expect(body).to_have_attribute("data-seq", str(seq))
            view = spectator.read()
            sizes = frame["observation"]["hand_sizes"]
            assert view["hand"] == [] and view["faces"] == []
            assert view["backs"] == {s: [sizes[s], sizes[s]] for s in SEATS}
            expect(spectator.page.locator("#hand-area")).to_be_hidden()
            player.send({"type": "action", "action": frame["observation"]["legal"][0], "seq": seq})
    finally:
        player.close()
    assert_sees_only(spectator, None, hands_by_seq(stored_record(server.db_url, table_id)))
    spectator.check_clean()


def test_a_reload_mid_deal_resumes_the_seat(
    server: Server, new_context: Callable[..., BrowserContext]
) -> None:
    tab = Tab(new_context().new_page())
    seats = {"N": "random", "E": "random", "S": "me", "W": "random"}
    create_in_lobby(tab, server.url, "Aino", seats)
    for _ in range(3):
        view = tab.ready(tab.acted)
        click(tab, choose(view))
        tab.acted = view["seq"]
    before = tab.ready(tab.acted)
    assert before["deals"] == 1 and len(before["hand"]) < 9
    seen = len([f for f in tab.states() if f["seq"] == before["seq"]])

    tab.page.reload()
    body = tab.page.locator("body")
    expect(body).to_have_attribute("data-seq", str(before["seq"]))
    expect(body).to_have_attribute("data-you", "S")
    expect(tab.page.locator("#status")).to_have_attribute("data-state", "connected")
    after = tab.ready(tab.acted)
    for key in ("seq", "you", "hand", "actions", "backs", "deals", "phase"):
        assert after[key] == before[key], key
    resumed = tab.state_at(before["seq"], nth=seen)  # sent to the reloaded page
    assert resumed["observation"] == tab.state_at(before["seq"])["observation"]
    assert resumed["you"] == "S"

    # Play goes on from the reloaded page.
    token = choose(after)
    click(tab, token)
    tab.acted = after["seq"]
    went_on = tab.ready(tab.acted)
    assert went_on["seq"] > after["seq"]
    if token in {c["card"] for c in after["hand"]}:
        assert token not in {c["card"] for c in went_on["hand"]}
    tab.check_clean()


def catalogue(lang: str) -> dict[str, str]:
    strings: dict[str, str] = json.loads((CATALOGUES / f"{lang}.json").read_text("utf-8"))
    return strings


def translated_text(page: Page) -> str:
    """The page's visible text less what is marked translate="no" (a program's name, the same
    in every language)."""
    return str(
        page.evaluate(
            """() => [...document.querySelectorAll('[translate="no"]')].reduce(
                 (said, e) => said.replace(e.innerText, ""), document.body.innerText)"""
        )
    )


def assert_in_language(page: Page, lang: str) -> None:
    """Every catalogue string of the markup is the language's, and no string of the other
    language that differs is visible anywhere on the page."""
    wanted, other = catalogue(lang), catalogue("fi" if lang == "en" else "en")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("#lang")).to_have_value(lang)
    marked: list[list[str]] = page.evaluate(
        """() => [...document.querySelectorAll("[data-i18n]")]
             .map((e) => [e.dataset.i18n, e.textContent])"""
    )
    assert marked
    for key, text in marked:
        assert text == wanted[key], (key, text)
    visible = translated_text(page)
    for key, text in other.items():
        # Whole strings without placeholders that the two languages do not share.
        if "{" in text or text == wanted[key] or len(text) < 4 or text in wanted.values():
            continue
        assert not re.search(rf"(?<!\w){re.escape(text)}(?!\w)", visible), (key, text)


def test_the_finnish_pages(server: Server, new_context: Callable[..., BrowserContext]) -> None:
    fi = catalogue("fi")

    # A Finnish browser gets the Finnish lobby at once.
    finn = new_context(locale="fi-FI").new_page()
    finn.goto(server.url + "/")
    expect(finn.locator("#create")).to_have_text(fi["lobby.create"])
    assert_in_language(finn, "fi")

    # An English one switches to Finnish, and the choice holds on the table page.
    tab = Tab(new_context(locale="en-GB").new_page())
    tab.page.goto(server.url + "/")
    expect(tab.page.locator("#create")).to_have_text(catalogue("en")["lobby.create"])
    assert_in_language(tab.page, "en")
    tab.page.select_option("#lang", "fi")
    expect(tab.page.locator("#create")).to_have_text(fi["lobby.create"])
    expect(tab.page.locator('select[data-seat-player="N"] option[value="random"]')).to_have_text(
        fi["player.short.random"]
    )
    assert_in_language(tab.page, "fi")

    seats = {"N": "random", "E": "random", "S": "me", "W": "random"}
    create_in_lobby(tab, server.url, "Aino", seats)
    view = tab.ready(tab.acted)
    page = tab.page
    expect(page.locator("#deal-label")).to_have_text(fi["table.deal"].replace("{n}", "1"))
    # On the felt a computer player by its seat's word, its level below; its whole name in
    # the tooltip.
    north = page.locator('.felt [data-seat="N"] .name')
    expect(north).to_have_text("Pohjoinen")
    expect(page.locator('.felt [data-seat="N"] .level')).to_have_text(fi["player.level.random"])
    whole = fi["player.named"].replace("{seat}", "Pohjoinen")
    expect(north).to_have_attribute(
        "title", whole.replace("{level}", fi["player.level.random"]) + " (random)"
    )
    observation = tab.state_at(view["seq"])["observation"]
    following = (observation["current_trick"] or {}).get("cards")
    turn = fi["table.turn.play"] if following else fi["table.turn.lead"]
    if observation["phase"] == "declaration":
        turn = fi[window_prompt(observation["legal"])]
    expect(page.locator("#turn")).to_have_text(turn)
    assert_in_language(page, "fi")
    click(tab, choose(view))
    expect(page.locator("#log li.log-play").first).to_contain_text(" pelaa ")

    # And back to English on the table page.
    page.select_option("#lang", "en")
    expect(page.locator("#deal-label")).to_have_text("Deal 1")
    assert_in_language(page, "en")
    tab.check_clean()


def window_prompt(legal: list[str]) -> str:
    """The turn line's key in a declaration window: it names only what ``legal`` allows."""
    declare = any(a.startswith("declare") for a in legal)
    ask = any(a.startswith("ask") for a in legal)
    if declare or ask:
        return {(True, True): "table.turn.window", (True, False): "table.turn.window_declare"}.get(
            (declare, ask), "table.turn.window_ask"
        )
    return "table.turn.lead"


NICKNAMES = [
    "Aino",
    "  Eino  ",
    "Zoe\u0308",
    "\U0001f469\u200d\U0001f469\u200d\U0001f467",
    "<b>x</b>",
    "",
    "x" * 25,
    "tab\there",
    "rtl\u202eevil",
    "two\u2028lines",
    "\u0301" * 3,
    "\u200d\u3000\u200d",
    "\ufeffAino",  # a byte-order mark: a space to trim on both sides
    "Aino\x85",  # a next-line control: likewise
    "\x1f",
]


def test_the_page_checks_a_nickname_as_the_server_does(
    server: Server, new_context: Callable[..., BrowserContext]
) -> None:
    page = new_context().new_page()
    page.goto(server.url + "/rules")
    problems = page.evaluate(
        """async (names) => {
          const { nicknameProblem } = await import("/static/common.js");
          return names.map(nicknameProblem);
        }""",
        NICKNAMES,
    )
    for name, problem in zip(NICKNAMES, problems, strict=True):
        assert (problem is None) == (nickname_fault(trim_nickname(name)) is None), (name, problem)


#: The seed of the screenshot's table: in its first deal trumps are made, and South follows
#: with two or three cards in the trick and four to seven in hand. (On a random seed about 1
#: match in 100 had no such moment in its first six deals, and 1 in 700 none even of a looser
#: kind: one to three cards in the trick, three to eight in hand.)
SCREENSHOT_SEED = 2


def test_a_screenshot_of_a_table_mid_deal(
    tmp_path: Path, start_server: Callable[..., Server], new_context: Callable[..., BrowserContext]
) -> None:
    """A lively table (trumps made, cards on the table, the person to follow); written to
    docs/table.png when VALTTI_SCREENSHOT is set."""
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    table_id, tokens = seeded_table(db, SCREENSHOT_SEED, {"S": "Aino"}, "heuristic")
    server = start_server(db)
    tab = Tab(new_context().new_page())
    page = open_seat(tab, server, table_id, "S", tokens["S"])
    while True:
        view = tab.ready(tab.acted)
        assert view["deals"] < 2, "the seed's first deal has no lively table any more"
        lively = view["trump"] and 2 <= len(view["trick"]) <= 3 and 4 <= len(view["hand"]) <= 7
        if lively:
            break
        click(tab, choose(view, prefer=("declare", "ask-half")))
        tab.acted = view["seq"]
    expect(page.locator("#deal-over")).to_be_hidden(timeout=10_000)
    expect(page.locator("#toasts .toast")).to_have_count(0, timeout=10_000)
    shot = tmp_path / "table.png"
    page.screenshot(path=str(shot))
    png = shot.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert (int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")) == (1280, 800)
    if os.environ.get("VALTTI_SCREENSHOT"):
        SCREENSHOT.write_bytes(png)
    tab.check_clean()


# -- why a card is dimmed --------------------------------------------------------------------------

GLYPHS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_text(token: str) -> str:
    return ("10" if token[0] == "T" else token[0]) + GLYPHS[token[1]]


def refusal_text(lang: str, refusal: dict[str, str], names: dict[str, str]) -> str:
    """A refusal (docs/WEB.md) as the page says it: its catalogue string, filled in."""
    strings = catalogue(lang)
    action = refusal.get("action", "")
    fields = {
        "seat": names.get(refusal.get("seat", ""), ""),
        "asker": names.get(refusal.get("asker", ""), ""),
        "action": card_text(action) if CARD.fullmatch(f'"{action}"') else action,
        "suit": GLYPHS.get(refusal.get("suit", ""), ""),
        "trump": GLYPHS.get(refusal.get("trump", ""), ""),
        "card": card_text(refusal["card"]) if "card" in refusal else "",
        "team": strings[f"team.{refusal['team']}"] if "team" in refusal else "",
        "given": refusal.get("given", ""),
    }
    return re.sub(r"\{(\w+)\}", lambda m: fields[m.group(1)], strings[f"refusal.{refusal['code']}"])


#: The seed of the dimmed cards' table: in trick 1 East leads a suit that South holds with others
#: (on a random seed about 1 match in 200 dimmed none of South's cards in the whole first deal).
DIMMED_SEED = 12345


def test_a_dimmed_card_says_why_in_english_and_in_finnish(
    tmp_path: Path, start_server: Callable[..., Server], browser: Browser
) -> None:
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    people = {"N": "Bertta", "S": "Aino"}
    table_id, tokens = seeded_table(db, DIMMED_SEED, people, "random")
    server = start_server(db)
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, locale="en-GB", has_touch=True
    )
    context.set_default_timeout(WAIT)
    page = context.new_page()
    frames: list[dict[str, Any]] = []  # what the server sent the page, seen on the way
    upstreams: list[Any] = []  # the page's sockets' server sides, to send as the page would

    def route(ws: Any) -> None:
        upstream = ws.connect_to_server()
        upstreams.append(upstream)

        def down(message: str | bytes) -> None:
            frames.append(json.loads(message))
            ws.send(message)

        upstream.on_message(down)

    page.route_web_socket(re.compile(r".*/ws(\?.*)?$"), route)
    tab = Tab(page)
    north = server.socket(table_id, tokens["N"])
    open_seat(tab, server, table_id, "S", tokens["S"])
    names = {"N": "Bertta (N)", "S": "Aino (S)", "E": "Bot: random (E)", "W": "Bot: random (W)"}
    why = page.locator("#hand-why")
    told_wait = told_refusal = False
    try:
        for _ in range(40):
            view = tab.ready(tab.acted, other="N")
            if view["deals"] >= 2 or (told_wait and told_refusal):
                break
            if view["toMove"] == "N":
                if not told_wait:
                    # Not your turn: a tap on a card says whose it is.
                    page.tap(f'#hand [data-card="{view["hand"][0]["card"]}"]', force=True)
                    expect(why).to_be_visible()
                    expect(why).to_have_text(
                        catalogue("en")["table.why.wait"].replace("{name}", names["N"])
                    )
                    told_wait = True
                seq = view["seq"]
                frame = north.until(lambda f, seq=seq: _north_to_move(f, seq))
                legal = frame["observation"]["legal"]
                card = next((a for a in legal if " " not in a), legal[0])
                north.send({"type": "action", "seq": seq, "action": card})
                tab.acted = view["seq"]
                continue
            dimmed = [c["card"] for c in view["hand"] if not c["legal"]]
            if dimmed and not told_refusal and view["phase"] == "play":
                state = next(
                    f for f in reversed(frames) if f["type"] == "state" and f["seq"] == view["seq"]
                )
                refusals = {r["action"]: r for r in state["observation"]["refusals"]}
                assert set(refusals) == set(dimmed)
                first, last = refusals[dimmed[0]], refusals[dimmed[-1]]
                # Hovering a dimmed card shows why, in words, and the card names that text.
                page.hover(f'#hand [data-card="{dimmed[0]}"]', force=True)
                expect(why).to_be_visible()
                expect(why).to_have_attribute("data-why", dimmed[0])
                expect(why).to_have_text(refusal_text("en", first, names))
                described = page.locator(f'#hand [data-card="{dimmed[0]}"]')
                expect(described).to_have_accessible_description(refusal_text("en", first, names))
                # In Finnish once the page is.
                page.select_option("#lang", "fi")
                expect(why).to_have_text(refusal_text("fi", first, names))
                page.mouse.move(5, 5)
                expect(why).to_be_hidden()
                # A tap (a phone) shows it too.
                page.tap(f'#hand [data-card="{dimmed[-1]}"]', force=True)
                expect(why).to_have_attribute("data-why", dimmed[-1])
                expect(why).to_have_text(refusal_text("fi", last, names))
                # An action the server refuses is told why, in the page's language.
                upstreams[-1].send(
                    json.dumps({"type": "action", "action": dimmed[-1], "seq": view["seq"]})
                )
                toast = page.locator('#toasts .toast-error[data-code="illegal"]')
                expect(toast).to_have_text(refusal_text("fi", last, names))
                error = next(f for f in frames if f["type"] == "error")
                assert error["refusal"] == last and error["message"]
                page.select_option("#lang", "en")
                told_refusal = True
            token = choose(view)
            click(tab, token)
            tab.acted = view["seq"]
        assert told_wait and told_refusal, "the seed's first deal no longer dims a card of South's"
        assert not tab.errors, tab.errors
    finally:
        north.close()
        context.close()


def _north_to_move(frame: dict[str, Any], seq: int) -> bool:
    return bool(
        frame["type"] == "state" and frame["seq"] == seq and frame["observation"]["to_move"] == "N"
    )
