"""A finished match's review beside its replay in a real browser (Playwright, Debian's
Chromium): the replay's Review button asks the server for it (made once in a computer players'
worker, docs/REVIEW.md) and the page marks each deal's costliest decisions of the person, with
the better move and its reason; the same review comes from GET /api/tables/{id}/review. In
Finnish every word is Finnish, the reasons said from their codes as the hint says them."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

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

from valtti.engine import Seat
from valtti.players import review as review_module
from valtti.web.db.store import Store

#: How long the review of a three-deal match may take on a loaded machine.
REVIEW_MS = 300_000


def test_the_replay_shows_the_review_with_the_costliest_decisions_marked(
    tmp_path: Path,
    start_server: Callable[..., Server],
    person: Callable[..., Tab],  # noqa: F811
) -> None:
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    table_id, _tokens, match = store_match(db, [True, True, False])
    server = start_server(db, options=WAIT_LONG)
    tab = person()
    page = tab.page
    page.goto(f"{server.url}/t/{table_id}#replay")
    expect(page.locator("#replay-bar")).to_be_visible()
    page.click("#review-open")
    panel = page.locator("#review")
    expect(panel).to_be_visible(timeout=REVIEW_MS)
    deals = panel.locator(".review-deal")
    expect(deals).to_have_count(len(match.deals))
    marked = panel.locator("li.review-costly")
    assert marked.count() >= 1
    first = marked.first
    expect(first).to_contain_text("N played")
    expect(first).to_contain_text("was better by")
    # The page shows what the server reviewed: North's decisions (the person's), marked in
    # each deal by step, largest loss first.
    review = server.http.get(f"/api/tables/{table_id}/review").json()
    assert review["seats"] == ["N"]
    shown = [
        (int(m.get_attribute("data-deal") or 0), int(m.get_attribute("data-step") or 0))
        for m in marked.all()
    ]
    assert shown == [(c["deal"], c["step"]) for d in review["deals"] for c in d["costliest"]]
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
    costliest = [c for d in review["deals"] for c in d["costliest"]]
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
    costliest = [c for d in made.deals for c in d.costliest]
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
