"""A finished match's review on the web (GET /api/tables/{id}/review, docs/REVIEW.md): made
once in a computer players' worker, kept in the store, served from there after a restart
without being made again; a review that failed answers ``review_failed`` and is made when
asked again."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.web.crafted import store_match
from tests.web.serving import App

from valtti.web.bots import Bots
from valtti.web.db.store import Store


def counting(monkeypatch: pytest.MonkeyPatch, fail: int = 0) -> list[str]:
    """The names of the work each application in this process gives its workers from now on,
    the first ``fail`` of it failing instead."""
    calls: list[str] = []
    run = Bots.run

    async def counted(self: Bots, work: Callable[..., Any], *args: Any) -> Any:
        calls.append(work.__name__)
        if len(calls) <= fail:
            raise RuntimeError("a worker failed")
        return await run(self, work, *args)

    monkeypatch.setattr(Bots, "run", counted)
    return calls


def test_a_review_made_once_is_served_from_the_store_after_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    table_id, _tokens, match = store_match(db, [True, True, False])
    calls = counting(monkeypatch)
    app = App(db).start()
    try:
        # Finished: the stored match ended with its last action (the room says so once loaded).
        made = app.http.get(f"/api/tables/{table_id}/review")
        assert made.status_code == 200, made.text
        assert app.http.get(f"/api/tables/{table_id}/review").json() == made.json()
    finally:
        app.stop()
    assert calls == ["review_json"]
    review = made.json()
    assert review["seats"] == ["N"] and len(review["deals"]) == len(match.deals)
    store = Store(db)
    try:
        assert store.review(table_id) is not None
    finally:
        store.close()

    again = App(db).start()
    try:
        served = again.http.get(f"/api/tables/{table_id}/review")
        assert served.status_code == 200 and served.json() == review
    finally:
        again.stop()
    assert calls == ["review_json"]  # not made again


def test_a_failed_review_says_so_and_is_made_when_asked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    table_id, _tokens, _match = store_match(db, [True, True, False])
    calls = counting(monkeypatch, fail=1)
    app = App(db).start()
    try:
        failed = app.http.get(f"/api/tables/{table_id}/review")
        assert failed.status_code == 503
        assert failed.json()["error"] == "review_failed"
        assert "ask again" in failed.json()["message"]
        made = app.http.get(f"/api/tables/{table_id}/review")
        assert made.status_code == 200 and made.json()["seats"] == ["N"]
    finally:
        app.stop()
    assert calls == ["review_json", "review_json"]


def test_an_unfinished_match_has_no_review(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    table_id, _tokens, _match = store_match(db, [True], part=3)
    calls = counting(monkeypatch)
    app = App(db).start()
    try:
        answer = app.http.get(f"/api/tables/{table_id}/review")
        assert answer.status_code == 409 and answer.json()["error"] == "not_finished"
    finally:
        app.stop()
    assert calls == []
