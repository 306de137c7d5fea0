"""A finished match's review beside its replay in a real browser (Playwright, Debian's
Chromium): the replay's Review button shows it (made in the background as the match ended,
docs/REVIEW.md) beside the board at 1366 x 768 and under it on a phone; per deal a graph of the
match equity with each decision a point, the costly ones marked ?!, ? or ?? (the legend says by
how much), and the marked decisions and the costliest of the person listed in order of play,
with the better move and its reason; a click, a tap or Enter on one (in the list or on the
graph) sets the replay's board before it and marks the move played and the better one. The
same review comes from GET /api/tables/{id}/review. In Finnish every word is Finnish, the
reasons said from their codes as the hint says them."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.crafted import store_match
from tests.web.serving import Server
from tests.web.test_browser import (  # noqa: F401  (fixtures used by name)
    Tab,
    browser,
    catalogue,
    playwright,
)
from tests.web.test_browser_ends import WAIT_LONG, person  # noqa: F401
from tests.web.test_browser_room import room  # noqa: F401

from valtti.coach import review as review_module
from valtti.engine import Seat
from valtti.web.db.store import Store

#: How long the review of a three-deal match may take on a loaded machine.
REVIEW_MS = 300_000


def listed(review: dict[str, Any]) -> list[dict[str, Any]]:
    """The decisions a review lists, in order of play: each marked one and each deal's
    costliest (the latter with its reason)."""
    out = []
    for deal in review["deals"]:
        costliest = {c["step"]: c for c in deal["costliest"]}
        chosen = [d for d in deal["decisions"] if d["mark"] or d["step"] in costliest]
        out += [costliest.get(d["step"], d) for d in chosen]
    return out


def step_of(server: Server, table_id: str, deal: int, step: int) -> str:
    """How the page counts the replay's step that shows the board before action ``step`` of
    deal ``deal`` ("Step 12 / 120")."""
    steps = server.http.get(f"/api/tables/{table_id}/replay").json()["steps"]
    start = next(i for i, s in enumerate(steps) if s["deal"] == deal)
    return f"Step {start + step} / {len(steps)}"


# The boxes [left, top, right, bottom] of the board and the review, read in one go.
BOXES = """() => {
  const box = (s) => {
    const r = document.querySelector(s).getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  return {felt: box("#felt"), hand: box("#hand"), review: box("#review"),
          window: [innerWidth, innerHeight]};
}"""


def test_the_review_draws_each_deal_and_a_decision_chosen_sets_the_board(
    tmp_path: Path,
    start_server: Callable[..., Server],
    room: Callable[..., Tab],  # noqa: F811
) -> None:
    """At 1366 x 768 the review is beside the board: per deal a graph of the match equity, a
    point a decision, the marked ones marked; the marked decisions and the costliest listed in
    order of play. A click on one in the list, Enter on a point of the graph, a click anywhere
    on the graph set the replay's board before that decision and mark the move played and the
    better one (on the cards, or said over the hand)."""
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    table_id, _tokens, match = store_match(db, [True, True, False])
    server = start_server(db, options=WAIT_LONG)
    tab = room("desktop")
    page = tab.page
    page.goto(f"{server.url}/t/{table_id}#replay")
    expect(page.locator("#replay-bar")).to_be_visible()
    opener = page.locator("#review-open")
    expect(opener).to_have_attribute("aria-expanded", "false")
    opener.click()
    panel = page.locator("#review")
    expect(panel).to_be_visible(timeout=REVIEW_MS)
    expect(opener).to_have_attribute("aria-expanded", "true")
    expect(page.locator("body")).to_have_attribute("data-review-open", "true")
    review = server.http.get(f"/api/tables/{table_id}/review").json()
    assert review["seats"] == ["N"]
    # Beside the board, which is in sight whole.
    boxes = page.evaluate(BOXES)
    assert boxes["felt"][2] <= boxes["review"][0], boxes
    assert boxes["hand"][3] <= boxes["window"][1], boxes
    # The legend: the marks by the server's thresholds.
    legend = page.locator("#review-legend")
    for mark in review["marks"]:
        expect(legend.locator(f'.review-mark[data-mark="{mark["mark"]}"]')).to_have_count(1)
        expect(legend).to_contain_text(f"{mark['loss']:.2f} or more")
    # Each deal's graph: a point a decision, the marked ones marked; the sides named.
    deals = panel.locator(".review-deal")
    expect(deals).to_have_count(len(match.deals))
    for deal in review["deals"]:
        graph = panel.locator(f'figure.equity-graph[data-deal="{deal["deal"]}"]')
        expect(graph.locator(".graph-label[data-team='NS']")).to_have_text("NS · Aino & South")
        expect(graph.locator(".graph-label[data-team='EW']")).to_have_text("EW · East & West")
        points = graph.locator(".graph-point")
        expect(points).to_have_count(len(deal["decisions"]))
        marks = [p.get_attribute("data-mark") for p in points.all()]
        assert marks == [d["mark"] for d in deal["decisions"]]
    marked = [d for deal in review["deals"] for d in deal["decisions"] if d["mark"]]
    assert marked, "the crafted match has marked decisions"
    # The list: the marked decisions and the costliest, in order of play.
    items = panel.locator("li.review-decision")
    wanted = listed(review)
    assert [
        (int(i.get_attribute("data-deal") or 0), int(i.get_attribute("data-step") or 0))
        for i in items.all()
    ] == [(d["deal"], d["step"]) for d in wanted]
    assert [i.get_attribute("data-mark") for i in items.all()] == [d["mark"] for d in wanted]
    costly = panel.locator("li.review-costly")
    expect(costly).to_have_count(sum(len(d["costliest"]) for d in review["deals"]))
    expect(costly.first).to_contain_text("N played")
    expect(costly.first).to_contain_text("was better by")

    # A click on a marked decision in the list: the board before it, the cards marked.
    first = marked[0]
    item = panel.locator(
        f'li.review-decision[data-deal="{first["deal"]}"][data-step="{first["step"]}"]'
    )
    expect(item.locator(".review-mark")).to_contain_text(first["mark"])
    item.locator(".review-go").click()
    step = page.locator("#replay-step")
    expect(step).to_have_text(step_of(server, table_id, first["deal"], first["step"]))
    expect(item.locator(".review-go")).to_have_attribute("aria-current", "true")
    north = page.locator('.felt .seat[data-seat="N"] .mini-hand')
    better = north.locator(f'[data-token="{first["best"]}"]')
    expect(better).to_have_attribute("data-review", "better")
    played = north.locator(f'[data-token="{first["played"]}"]')
    expect(played).to_have_attribute("data-review", "played")
    moment = page.locator("#review-moment")
    expect(moment).to_be_visible()
    expect(moment.locator(".review-mark")).to_contain_text(first["mark"])
    expect(moment).to_contain_text("was better by")
    graph = panel.locator(f'figure.equity-graph[data-deal="{first["deal"]}"]')
    point = graph.locator(f'.graph-point[data-step="{first["step"]}"]')
    expect(point).to_have_attribute("aria-current", "true")
    expect(graph.locator(".graph-place")).to_have_attribute("visibility", "visible")
    said = f"Deal {first['deal']}, trick {first['trick']}, before N played"
    expect(page.locator("#announcer")).to_contain_text(said)

    # The keyboard on the graph of deal 1: End, then Enter, the last decision.
    deal1 = review["deals"][0]
    graph1 = panel.locator('figure.equity-graph[data-deal="1"]')
    graph1.locator('.graph-point[tabindex="0"]').focus()
    page.keyboard.press("End")
    last = deal1["decisions"][-1]
    expect(graph1.locator(f'.graph-point[data-step="{last["step"]}"]')).to_be_focused()
    page.keyboard.press("Enter")
    expect(step).to_have_text(step_of(server, table_id, 1, last["step"]))
    expect(graph1.locator(f'.graph-point[data-step="{last["step"]}"]')).to_have_attribute(
        "aria-current", "true"
    )
    # A click anywhere on the graph: the decision nearest along the line (the first, at its
    # left edge).
    box = graph1.locator("svg.graph").bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + 2, box["y"] + box["height"] / 2)
    expect(step).to_have_text(step_of(server, table_id, 1, deal1["decisions"][0]["step"]))

    # Enter on a listed decision whose move was a declaration: said over the hand.
    declared = next(d for d in wanted if d["played"].startswith("declare"))
    go = panel.locator(
        f'li.review-decision[data-deal="{declared["deal"]}"][data-step="{declared["step"]}"]'
    ).locator(".review-go")
    go.focus()
    page.keyboard.press("Enter")
    expect(step).to_have_text(step_of(server, table_id, declared["deal"], declared["step"]))
    expect(moment).to_contain_text("N played Declare")
    expect(north.locator(f'[data-token="{declared["best"]}"]')).to_have_attribute(
        "data-review", "better"
    )
    expect(go).to_be_focused()
    # A step on: the board is past the decision, nothing is marked.
    page.click("#replay-next")
    expect(moment).to_be_hidden()
    expect(page.locator("[data-review]")).to_have_count(0)
    assert not tab.errors, tab.errors


def test_the_review_in_finnish_says_every_marked_decision_in_finnish(
    tmp_path: Path,
    start_server: Callable[..., Server],
    person: Callable[..., Tab],  # noqa: F811
) -> None:
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    table_id, _tokens, _match = store_match(db, [True, True, False])
    server = start_server(db, options=WAIT_LONG)
    tab = person(locale="fi-FI")
    page = tab.page
    page.goto(f"{server.url}/t/{table_id}#replay")
    fi, en = catalogue("fi"), catalogue("en")
    expect(page.locator("#review-open")).to_have_text(fi["review.open"])
    page.click("#review-open")
    panel = page.locator("#review")
    expect(panel).to_be_visible(timeout=REVIEW_MS)
    expect(panel.locator("h2")).to_have_text(fi["review.title"])
    review = server.http.get(f"/api/tables/{table_id}/review").json()
    # Listed in order of play.
    costliest = sorted(
        (c for d in review["deals"] for c in d["costliest"]), key=lambda c: (c["deal"], c["step"])
    )
    marked = panel.locator("li.review-costly")
    expect(marked).to_have_count(len(costliest))
    assert costliest, "the crafted match has decisions that cost something"
    for item, decision in zip(marked.all(), costliest, strict=True):
        text = item.inner_text()
        assert "pelasi" in text, text
        # With every hand open: the better move, or (a loss that shows as 0,00) as good as any.
        if round(decision["exact_loss"], 2) > 0:
            assert fi["review.open_best"].split("{")[0] in text, text
        else:
            assert fi["review.open_as_good"].split("{")[1].split("}")[1] in text, text
        assert "played" not in text and "better" not in text, text
        # Two decimals with a decimal comma, as Finnish writes them.
        assert f"{decision['loss']:.2f}".replace(".", ",") in text, text
        reason = decision.get("reason")
        if reason is not None:
            # Said from its code in Finnish (the words before its first argument), never the
            # English text the server sends beside it.
            assert reason["text"] not in text, text
            key = f"hint.reason.{reason['code']}"
            if reason["code"] == "declares" and reason.get("points") == 1:
                key = "hint.reason.declares_little"
            if reason["code"] == "locks_marriage" and reason.get("partner"):
                key = "hint.reason.locks_partners"
            assert fi[key].split("{")[0].strip() in text, text
            share = reason.get("share")
            shown = reason.get("shown") != reason.get("deals")
            assert (" jaossa" in text) == (share is not None and shown), text
    # Another language: the same review drawn again in English (not asked again).
    page.select_option("#lang", "en")
    expect(marked.first).to_contain_text("played")
    expect(panel.locator("h2")).to_have_text(en["review.title"])
    assert not tab.errors, tab.errors


def test_a_decision_not_solved_with_every_hand_open_is_said_so(
    tmp_path: Path,
    start_server: Callable[..., Server],
    person: Callable[..., Tab],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A decision past the review's open-hand budget (docs/REVIEW.md) shows "not solved" where
    its open-hand best would be, and the sums say how many they leave out, in both languages.
    The review is made here with a budget of one position and kept in the store, as the
    server keeps the one it makes."""
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    table_id, _tokens, match = store_match(db, [True, True, False])
    monkeypatch.setattr(review_module, "OPEN_HAND_POSITIONS", 1)
    made = review_module.review(match, [Seat.N], level="easy")
    costliest = sorted((c for d in made.deals for c in d.costliest), key=lambda c: (c.deal, c.step))
    assert made.unsolved and any(c.exact is None for c in costliest)
    store = Store(db)
    try:
        store.add_review(table_id, json.dumps(made.to_dict()), datetime.now(UTC))
    finally:
        store.close()
    server = start_server(db, options=WAIT_LONG)
    tab = person()
    page = tab.page
    page.goto(f"{server.url}/t/{table_id}#replay")
    page.click("#review-open")
    panel = page.locator("#review")
    expect(panel).to_be_visible(timeout=REVIEW_MS)
    en, fi = catalogue("en"), catalogue("fi")
    marked = panel.locator("li.review-costly")
    expect(marked).to_have_count(len(costliest))
    for item, decision in zip(marked.all(), costliest, strict=True):
        unsolved = en["review.open_unsolved"] in item.inner_text()
        assert unsolved == (decision.exact is None), item.inner_text()
    match_line = page.locator("#review-match")
    count = en["review.unsolved_other"].replace("{n}", str(made.unsolved))
    expect(match_line).to_contain_text(count)
    page.select_option("#lang", "fi")
    expect(match_line).to_contain_text(
        fi["review.unsolved_other"].replace("{n}", str(made.unsolved))
    )
    expect(panel).to_contain_text(fi["review.open_unsolved"])
    assert not tab.errors, tab.errors


@pytest.mark.parametrize("viewport", ["phone-portrait", "phone-landscape"])
def test_on_a_phone_the_review_is_under_the_board_and_a_decision_brings_the_board_into_sight(
    tmp_path: Path,
    start_server: Callable[..., Server],
    room: Callable[..., Tab],  # noqa: F811
    viewport: str,
) -> None:
    """In Finnish on a phone either way up: the review opens under the board, scrolled to; a
    decision chosen scrolls the board into sight with the better move marked, and "Back to the
    review" leads back to it."""
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    table_id, _tokens, _match = store_match(db, [True, True, False])
    server = start_server(db, options=WAIT_LONG)
    tab = room(viewport, locale="fi-FI")
    page = tab.page
    fi = catalogue("fi")
    page.goto(f"{server.url}/t/{table_id}#replay")
    expect(page.locator("#review-open")).to_have_text(fi["review.open"])
    page.click("#review-open")
    panel = page.locator("#review")
    expect(panel).to_be_visible(timeout=REVIEW_MS)
    expect(panel.locator("h2")).to_have_text(fi["review.title"])
    expect(panel.locator("h2")).to_be_in_viewport()
    expect(page.locator("#review-legend")).to_contain_text(fi["review.mark.blunder"])
    expect(page.locator("#review-legend")).to_contain_text("vähintään 0,20")
    boxes = page.evaluate(BOXES)
    assert boxes["review"][1] >= boxes["hand"][3], boxes  # under the board
    review = server.http.get(f"/api/tables/{table_id}/review").json()
    first = next(d for deal in review["deals"] for d in deal["decisions"] if d["mark"])
    item = panel.locator(
        f'li.review-decision[data-deal="{first["deal"]}"][data-step="{first["step"]}"]'
    )
    expect(item).to_contain_text("pelasi")
    item.locator(".review-go").tap()
    moment = page.locator("#review-moment")
    expect(moment).to_be_visible()
    expect(moment).to_contain_text("olisi ollut")
    better = page.locator(f'.felt .seat[data-seat="N"] [data-token="{first["best"]}"]')
    expect(better).to_have_attribute("data-review", "better")
    expect(better).to_be_in_viewport()
    expect(moment).to_be_in_viewport()
    expect(page.locator("#trick")).to_be_in_viewport()
    back = page.locator("#review-back")
    expect(back).to_have_text(fi["review.back"])
    back.tap()
    expect(item.locator(".review-go")).to_be_focused()
    expect(item.locator(".review-go")).to_be_in_viewport()
    assert not tab.errors, tab.errors
