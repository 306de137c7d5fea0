"""Actions stored through the store's writing thread (``Store.submit_action``): many are
committed together, yet each caller hears of its own action alone."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from tests.web.test_store import SEATS, table_row

from valtti.engine import CardSet, Seat
from valtti.web.db.schema import actions_table
from valtti.web.db.store import Store
from valtti.web.db.writer import DuplicateAction

HANDS = tuple(CardSet(range(9 * i, 9 * i + 9)) for i in range(4))


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    opened = Store(database_url)
    yield opened
    opened.close()


def stored(store: Store) -> set[tuple[int, int, str]]:
    columns = actions_table.c
    with store.engine.connect() as connection:
        rows = connection.execute(select(columns.deal, columns.idx, columns.token))
        return {(r.deal, r.idx, r.token) for r in rows}


def test_a_failing_action_among_many_fails_alone(store: Store) -> None:
    store.create_table(table_row(), SEATS)
    for number in (1, 2):
        store.add_deal("t1", number, Seat.E, HANDS)
    store.add_action("t1", 1, 5, "AS")
    good = {(deal, index, "KS") for deal in (1, 2) for index in range(20)} - {(1, 5, "KS")}
    # Submitted at once, so the writing thread commits them in a few transactions: the
    # duplicate and the action of a deal not stored share them with good ones.
    futures = {
        (deal, index, token): store.submit_action("t1", deal, index, token)
        for deal, index, token in sorted([*good, (1, 5, "QS"), (3, 0, "QS")])
    }
    for action, future in futures.items():
        error = future.exception(timeout=30)
        if action == (1, 5, "QS"):
            assert isinstance(error, DuplicateAction), error
        elif action == (3, 0, "QS"):
            assert isinstance(error, IntegrityError), error
        else:
            assert error is None, (action, error)
    assert stored(store) == good | {(1, 5, "AS")}


def test_closing_the_store_writes_the_actions_submitted(database_url: str) -> None:
    store = Store(database_url)
    store.create_table(table_row(), SEATS)
    store.add_deal("t1", 1, Seat.E, HANDS)
    futures = [store.submit_action("t1", 1, index, "AS") for index in range(30)]
    store.close()
    assert all(f.done() and f.exception() is None for f in futures)
    again = Store(database_url)
    try:
        assert stored(again) == {(1, index, "AS") for index in range(30)}
    finally:
        again.close()
