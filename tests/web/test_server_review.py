"""A finished match's review on the web (GET /api/tables/{id}/review, docs/REVIEW.md): made
once in the computer players' idle process (at the lowest CPU priority), kept in the store,
served from there after a restart without being made again; made in the background as soon as
a match a person played ends, never asked for; a review that failed answers ``review_failed``
and is made when asked again."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.web.crafted import ending_match, store_match
from tests.web.serving import App

from valtti.coach.review import MARKS
from valtti.web.db.store import Store
from valtti.web.referee.bots import Bots

#: Seconds a review of a short match may take at the lowest priority on a loaded machine.
MADE_WITHIN = 300.0


def counting(monkeypatch: pytest.MonkeyPatch, fail: int = 0) -> list[str]:
    """The names of the work each application in this process gives its idle process from now
    on, the first ``fail`` of it failing instead."""
    calls: list[str] = []
    idle = Bots.idle

    async def counted(self: Bots, work: Callable[..., Any], *args: Any) -> Any:
        calls.append(work.__name__)
        if len(calls) <= fail:
            raise RuntimeError("a worker failed")
        return await idle(self, work, *args)

    monkeypatch.setattr(Bots, "idle", counted)
    return calls


def marks() -> list[dict[str, Any]]:
    return [{"mark": mark, "loss": loss} for loss, mark in MARKS]


def stored_review(db: str, table_id: str) -> str | None:
    store = Store(db)
    try:
        return store.review(table_id)
    finally:
        store.close()


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
    assert review["marks"] == [
        {"mark": "??", "loss": 0.2},
        {"mark": "?", "loss": 0.08},
        {"mark": "?!", "loss": 0.03},
    ]
    assert stored_review(db, table_id) is not None

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
    # Marked finished before the server starts, as after a restart: its review is made only
    # when asked for (a match that ends while the server runs is reviewed then, below).
    store = Store(db)
    try:
        store.set_status(table_id, "finished")
    finally:
        store.close()
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


def test_a_match_a_person_played_is_reviewed_in_the_background_as_it_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nobody asks: the review is made as the last card falls, kept in the store, and then
    served from there (not made again)."""
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    # One trick from the end, North (a person) to lead it: with it NS win the match.
    table_id, tokens, _match = store_match(db, [], {"N": "Aino"}, match=ending_match(tricks=1))
    calls = counting(monkeypatch)
    app = App(db).start()
    try:
        north = app.socket(table_id, tokens["N"])
        state = north.state()
        assert state["table"]["status"] == "playing" and state["observation"]["to_move"] == "N"
        card = state["observation"]["legal"][0]
        north.send({"type": "action", "action": card, "seq": state["seq"]})
        north.until(lambda f: f["type"] == "state" and f["table"]["status"] == "finished")
        deadline = time.monotonic() + MADE_WITHIN
        while (kept := stored_review(db, table_id)) is None:
            assert time.monotonic() < deadline, "no review was made in the background"
            time.sleep(0.2)
        assert calls == ["review_json"]
        served = app.http.get(f"/api/tables/{table_id}/review")
        assert served.status_code == 200
        # The kept review, with the marks' thresholds a page's legend says.
        assert served.json() == {**json.loads(kept), "marks": marks()}
        assert served.json()["seats"] == ["N"]
    finally:
        app.stop()
    assert calls == ["review_json"]  # served from the store, not made again


def test_a_match_of_computer_players_alone_is_reviewed_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = f"sqlite:///{tmp_path / 'valtti.db'}"
    table_id, _tokens, _match = store_match(db, [], {}, match=ending_match(tricks=1))
    calls = counting(monkeypatch)
    app = App(db).start()
    try:
        watcher = app.socket(table_id)
        watcher.until(lambda f: f["type"] == "state" and f["table"]["status"] == "finished")
        assert calls == [] and stored_review(db, table_id) is None
        made = app.http.get(f"/api/tables/{table_id}/review")
        assert made.status_code == 200 and made.json()["seats"] == ["N", "E", "S", "W"]
    finally:
        app.stop()
    assert calls == ["review_json"]
