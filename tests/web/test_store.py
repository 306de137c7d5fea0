"""The web table's database (valtti.web.db), on SQLite and on a real PostgreSQL server.

PostgreSQL runs when VALTTI_TEST_POSTGRES_URL names a database the tests may create schemas in
(e.g. postgresql://valtti:valtti@127.0.0.1:5432/valtti_test); without it those tests skip, or
fail under CI=true. Each test gets an empty schema of its own, dropped afterwards.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import platformdirs
import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from valtti.engine import CardSet, Match, Seat, Variant
from valtti.web.db.migrate import alembic_config
from valtti.web.db.rows import SeatRow, StoredTable, TableRow
from valtti.web.db.schema import metadata
from valtti.web.db.store import Store
from valtti.web.db.writer import DuplicateAction

SCHEMA_TABLES = {"tables", "seats", "deals", "actions"}
T0 = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    opened = Store(database_url)
    yield opened
    opened.close()


def table_row(id: str = "t1", created: dt.datetime = T0, **changes: object) -> TableRow:
    fields: dict[str, object] = {
        "id": id,
        "created": created,
        "variant": Variant(target=12, first_trick_ace="on"),
        "first_dealer": Seat.E,
        "seed": 2**53 - 1,
        "creator_hash": "c" * 64,
        "status": "waiting",
    }
    fields.update(changes)
    return TableRow(**fields)  # type: ignore[arg-type]


SEATS = (
    SeatRow(Seat.N, "human", "Aino", "a" * 64),
    SeatRow(Seat.E, "computer", "search:medium", None),
    SeatRow(Seat.S, "open", None, None),
    SeatRow(Seat.W, "computer", "heuristic", None),
)


def play_and_store(store: Store, table_id: str, match: Match, rng: random.Random) -> None:
    """Play ``match`` to its end with random legal actions, storing each deal and action."""
    while not match.is_over():
        deal = match.start_deal(rng=rng)
        store.add_deal(table_id, len(match.deals), deal.dealer, deal.initial_hands)
        index = 0
        while not deal.is_over():
            action = rng.choice(deal.legal_actions())
            match.apply(action)
            store.add_action(table_id, len(match.deals), index, str(action))
            index += 1


def assert_same_match(replayed: Match, played: Match) -> None:
    assert replayed.variant == played.variant
    assert len(replayed.deals) == len(played.deals)
    for got, want in zip(replayed.deals, played.deals, strict=True):
        assert got.dealer == want.dealer
        assert got.initial_hands == want.initial_hands
        assert got.history == want.history
    assert replayed.score == played.score
    assert replayed.summary() == played.summary()


def insert_first_revision_table(
    connection: Connection, table_id: str, created: str, status: str
) -> None:
    """A table with four open seats as a server of the first revision stored it: only the
    columns it had."""
    connection.exec_driver_sql(
        "INSERT INTO tables (id, created, variant, first_dealer, seed, creator_hash, status)"
        f" VALUES ('{table_id}', '{created}', '{{}}', 'E', 7, 'cc', '{status}')"
    )
    for seat in "NESW":
        connection.exec_driver_sql(
            f"INSERT INTO seats (table_id, seat, kind) VALUES ('{table_id}', '{seat}', 'open')"
        )


def test_migrations_create_the_schema_and_reopen_is_idempotent(database_url: str) -> None:
    first = Store(database_url)
    names = set(inspect(first.engine).get_table_names())
    assert names >= SCHEMA_TABLES | {"alembic_version"}
    with first.engine.connect() as connection:
        head = ScriptDirectory.from_config(alembic_config(connection)).get_current_head()
        assert MigrationContext.configure(connection).get_current_revision() == head == "0010"
    first.create_table(table_row(), SEATS)
    first.close()

    again = Store(database_url)
    with again.engine.connect() as connection:
        assert MigrationContext.configure(connection).get_current_revision() == head
    assert set(inspect(again.engine).get_table_names()) == names
    loaded = again.load("t1")
    assert loaded is not None and loaded.seats == SEATS
    again.close()


def test_models_match_the_migrated_schema(store: Store) -> None:
    """A model changed without a new migration fails here."""
    with store.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), metadata)
    assert differences == []


def test_migrations_downgrade_to_nothing_and_upgrade_again(store: Store) -> None:
    with store.engine.begin() as connection:
        command.downgrade(alembic_config(connection), "base")
    assert set(inspect(store.engine).get_table_names()) <= {"alembic_version"}
    with store.engine.begin() as connection:
        command.upgrade(alembic_config(connection), "head")
    assert set(inspect(store.engine).get_table_names()) >= SCHEMA_TABLES


def test_downgrading_to_the_first_revision_keeps_every_table_s_rows(store: Store) -> None:
    store.create_table(table_row(), SEATS)
    play_and_store(store, "t1", Match(Variant(target=12), Seat.E), random.Random(5))
    counts = "SELECT (SELECT count(*) FROM seats), (SELECT count(*) FROM deals), " + (
        "(SELECT count(*) FROM actions)"
    )
    with store.engine.connect() as connection:
        before = connection.exec_driver_sql(counts).one()
    with store.engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0001")
        assert connection.exec_driver_sql(counts).one() == before
        command.upgrade(alembic_config(connection), "head")
    loaded = store.load("t1")
    assert loaded is not None and loaded.seats == SEATS and loaded.record is not None


def test_a_table_without_hints_round_trips_and_older_tables_give_hints(store: Store) -> None:
    # A table stored before migration 0005 (which added the switch) gives hints after it, and
    # the migration keeps its seats.
    with store.engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0004")
        insert_first_revision_table(connection, "older", "2026-11-30 12:00:00+00:00", "waiting")
        command.upgrade(alembic_config(connection), "head")
    older = store.load("older")
    assert older is not None and older.table.hints and len(older.seats) == 4
    # Going back down keeps the table's seats too.
    with store.engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0004")
        assert connection.exec_driver_sql("SELECT count(*) FROM seats").scalar() == 4
        command.upgrade(alembic_config(connection), "head")
    store.create_table(table_row("quiet", hints=False, turn_seconds=30), SEATS)
    assert store.load("quiet") == StoredTable(
        table_row("quiet", hints=False, turn_seconds=30), SEATS, None
    )


def test_a_played_match_round_trips(store: Store) -> None:
    store.create_table(table_row(), SEATS)
    assert store.load("t1") == StoredTable(table_row(), SEATS, None)

    played = Match(Variant(target=12, first_trick_ace="on"), Seat.E)
    play_and_store(store, "t1", played, random.Random(8))
    loaded = store.load("t1")
    assert loaded is not None
    assert loaded.table == table_row()
    assert loaded.table.created.tzinfo is not None
    assert loaded.seats == SEATS
    assert loaded.record is not None and loaded.record.meta is None
    assert all(d.dealer is not None for d in loaded.record.deals)
    replayed = loaded.record.replay()
    assert replayed.is_over()
    assert_same_match(replayed, played)


def test_a_match_stored_part_way_replays_to_the_same_point(store: Store) -> None:
    store.create_table(table_row(), SEATS)
    rng = random.Random(3)
    played = Match(Variant(target=12, first_trick_ace="on"), Seat.E)
    for number, length in ((1, None), (2, 7)):  # the whole first deal, 7 actions of the second
        deal = played.start_deal(rng=rng)
        store.add_deal("t1", number, deal.dealer, deal.initial_hands)
        index = 0
        while not deal.is_over() and index != length:
            action = rng.choice(deal.legal_actions())
            played.apply(action)
            store.add_action("t1", number, index, str(action))
            index += 1
    loaded = store.load("t1")
    assert loaded is not None and loaded.record is not None
    assert_same_match(loaded.record.replay(), played)


def test_a_deal_without_actions_yet(store: Store) -> None:
    store.create_table(table_row(), SEATS)
    hands = tuple(CardSet(range(9 * i, 9 * i + 9)) for i in range(4))
    store.add_deal("t1", 1, Seat.E, hands)
    loaded = store.load("t1")
    assert loaded is not None and loaded.record is not None
    (deal,) = loaded.record.deals
    assert (deal.dealer, deal.hands, deal.actions) == (Seat.E, hands, [])


def test_an_action_stored_twice_is_refused(store: Store) -> None:
    store.create_table(table_row(), SEATS)
    deal = Match(first_dealer=Seat.E).start_deal(rng=random.Random(1))
    store.add_deal("t1", 1, deal.dealer, deal.initial_hands)
    first = str(deal.legal_actions()[0])
    store.add_action("t1", 1, 0, first)
    with pytest.raises(DuplicateAction):
        store.add_action("t1", 1, 0, str(deal.legal_actions()[1]))
    # The refused action changed nothing and the store goes on working.
    store.add_action("t1", 1, 1, "AS")
    loaded = store.load("t1")
    assert loaded is not None and loaded.record is not None
    assert loaded.record.deals[0].actions == [first, "AS"]


def test_an_action_needs_its_deal(store: Store) -> None:
    store.create_table(table_row(), SEATS)
    with pytest.raises(IntegrityError):
        store.add_action("t1", 1, 0, "AS")
    assert store.load("t1") == StoredTable(table_row(), SEATS, None)


def test_seats_and_status_change(store: Store) -> None:
    store.create_table(table_row(), SEATS)
    taken = SeatRow(Seat.S, "human", "Ville", "b" * 64)
    store.update_seat("t1", taken)
    handed = SeatRow(Seat.N, "computer", "search:hard", None)
    store.update_seat("t1", handed)
    store.set_status("t1", "playing")
    loaded = store.load("t1")
    assert loaded is not None
    assert loaded.seats == (handed, SEATS[1], taken, SEATS[3])
    assert loaded.table.status == "playing"
    store.set_status("t1", "finished")
    finished = store.load("t1")
    assert finished is not None and finished.table.status == "finished"
    with pytest.raises(KeyError):
        store.update_seat("nope", taken)
    with pytest.raises(KeyError):
        store.set_status("nope", "playing")


def test_create_table_needs_each_seat_once(store: Store) -> None:
    with pytest.raises(ValueError, match="each of N, E, S, W"):
        store.create_table(table_row(), [*SEATS[:3], SEATS[0]])
    assert store.load("t1") is None


def test_naive_times_are_refused(store: Store) -> None:
    with pytest.raises(ValueError, match="naive"):
        store.create_table(table_row(created=dt.datetime(2026, 1, 1)), SEATS)


def test_times_come_back_in_utc(store: Store) -> None:
    helsinki = dt.timezone(dt.timedelta(hours=2))
    store.create_table(table_row(created=T0.astimezone(helsinki)), SEATS)
    loaded = store.load("t1")
    assert loaded is not None
    assert loaded.table.created == T0 and loaded.table.created.utcoffset() == dt.timedelta(0)


def test_tables_newest_first_with_seats_and_records(store: Store) -> None:
    assert store.tables() == []
    rng = random.Random(5)
    matches: dict[str, Match] = {}
    for i in range(4):
        table_id = f"t{i}"
        store.create_table(table_row(table_id, T0 + dt.timedelta(minutes=i)), SEATS)
        if i % 2:
            matches[table_id] = Match(Variant(target=12, first_trick_ace="on"), Seat.E)
            play_and_store(store, table_id, matches[table_id], rng)
            store.set_status(table_id, "finished")
    listed = store.tables()
    assert [s.table.id for s in listed] == ["t3", "t2", "t1", "t0"]
    assert [s.table.status for s in listed] == ["finished", "waiting", "finished", "waiting"]
    assert all(s.seats == SEATS for s in listed)
    for stored in listed:
        if stored.table.id in matches:
            assert stored.record is not None
            assert_same_match(stored.record.replay(), matches[stored.table.id])
        else:
            assert stored.record is None
    assert listed == [store.load(s.table.id) for s in listed]
    assert [s.table.id for s in store.tables(limit=2)] == ["t3", "t2"]
    # The lobby's listing: the same tables and seats, without their records, waiting first.
    by_id = {s.table.id: replace(s, record=None) for s in listed}
    listing = store.listing()
    assert [t.stored for t in listing.tables] == [by_id[i] for i in ("t2", "t0", "t3", "t1")]
    assert listing.total == 4
    assert [t.stored.table.id for t in store.listing(limit=2).tables] == ["t2", "t0"]


def test_unfinished_tables(store: Store) -> None:
    assert store.unfinished() == []
    for i, status in enumerate(["finished", "playing", "waiting", "finished"]):
        store.create_table(table_row(f"t{i}", T0 + dt.timedelta(minutes=i), status=status), SEATS)
    assert store.unfinished() == ["t1", "t2"]
    store.set_status("t1", "finished")
    assert store.unfinished() == ["t2"]


def test_a_reopened_store_sees_everything(database_url: str) -> None:
    """The server restarting: a new Store on the same URL finds every table where it was."""
    first = Store(database_url)
    first.create_table(table_row(), SEATS)
    first.set_status("t1", "playing")
    played = Match(Variant(target=12, first_trick_ace="on"), Seat.E)
    play_and_store(first, "t1", played, random.Random(2))
    first.update_seat("t1", SeatRow(Seat.S, "human", "Ville", "b" * 64))
    before = first.load("t1")
    first.close()

    second = Store(database_url)
    after = second.load("t1")
    assert after == before and after is not None and after.record is not None
    assert_same_match(after.record.replay(), played)
    assert second.unfinished() == ["t1"]
    second.close()


def test_many_threads_store_at_once(store: Store) -> None:
    """Every method is thread-safe: tables written from many threads all arrive whole."""
    deal = Match(first_dealer=Seat.E).start_deal(rng=random.Random(4))

    def one_table(i: int) -> None:
        table_id = f"t{i}"
        store.create_table(table_row(table_id, T0 + dt.timedelta(seconds=i)), SEATS)
        store.add_deal(table_id, 1, deal.dealer, deal.initial_hands)
        for index in range(20):
            store.add_action(table_id, 1, index, f"a{index}")
            store.load(table_id)

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(one_table, range(16)))
    listed = store.tables()
    assert len(listed) == 16
    for stored in listed:
        assert stored.record is not None
        assert stored.record.deals[0].actions == [f"a{i}" for i in range(20)]


def test_memory_database() -> None:
    memory = Store("sqlite://")
    memory.create_table(table_row(), SEATS)
    assert memory.unfinished() == ["t1"]
    memory.close()


def test_default_url_is_in_the_user_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data" / "valtti"

    def user_data_dir(appname: str, appauthor: object = None) -> str:
        assert appname == "valtti"
        return str(data)

    monkeypatch.setattr(platformdirs, "user_data_dir", user_data_dir)
    default = Store.default_url()
    assert default == f"sqlite:///{data / 'valtti.db'}"
    assert data.is_dir()
    opened = Store(default)
    opened.create_table(table_row(), SEATS)
    opened.close()
    assert (data / "valtti.db").is_file()


def _lobby_tables(store: Store) -> None:
    """Nine tables a minute apart: t0…t8 cycling waiting, playing, finished; each finished one
    ended an hour after T0 plus its number of days."""
    statuses = ("waiting", "playing", "finished")
    for i in range(9):
        store.create_table(
            table_row(f"t{i}", T0 + dt.timedelta(minutes=i), status=statuses[i % 3]), SEATS
        )
        if statuses[i % 3] == "finished":
            store.set_status(f"t{i}", "finished", at=T0 + dt.timedelta(days=i, hours=1))


def test_the_listing_waiting_first_then_playing_then_finished_in_pages(store: Store) -> None:
    _lobby_tables(store)
    everything = ["t6", "t3", "t0", "t7", "t4", "t1", "t8", "t5", "t2"]
    pages = [store.listing(offset=o, limit=4) for o in (0, 4, 8, 12)]
    assert [[t.stored.table.id for t in p.tables] for p in pages] == [
        everything[:4],
        everything[4:8],
        everything[8:],
        [],
    ]
    assert {p.total for p in pages} == {9}
    for status, ids in (
        ("waiting", ["t6", "t3", "t0"]),
        ("playing", ["t7", "t4", "t1"]),
        ("finished", ["t8", "t5", "t2"]),
    ):
        listed = store.listing(status, limit=2)
        assert [t.stored.table.id for t in listed.tables] == ids[:2]
        assert listed.total == 3
        assert all(t.stored.table.status == status for t in listed.tables)
        assert [t.stored.table.id for t in store.listing(status, offset=2).tables] == ids[2:]


def test_finished_tables_age_out_of_the_listing_but_load_by_id(store: Store) -> None:
    _lobby_tables(store)
    since = T0 + dt.timedelta(days=5)  # t5 ended at day 5 and an hour, t2 before
    listed = store.listing(finished_since=since)
    ids = [t.stored.table.id for t in listed.tables]
    assert ids == ["t6", "t3", "t0", "t7", "t4", "t1", "t8", "t5"]
    assert listed.total == 8
    assert store.listing("finished", finished_since=since).total == 2
    assert store.listing("waiting", finished_since=since).total == 3
    aged = store.load("t2")
    assert aged is not None and aged.table.status == "finished"
    finished = {t.stored.table.id: t.finished for t in store.listing("finished").tables}
    assert finished["t2"] == T0 + dt.timedelta(days=2, hours=1)


def test_seen_is_kept_for_the_listing(store: Store) -> None:
    store.create_table(table_row("t1"), SEATS)
    assert [(t.finished, t.seen) for t in store.listing().tables] == [(None, None)]
    store.set_seen("t1", T0 + dt.timedelta(minutes=5))
    store.set_seen("nonesuch", T0)  # ignored
    assert [t.seen for t in store.listing().tables] == [T0 + dt.timedelta(minutes=5)]


def test_the_lobby_migration_dates_finished_tables_by_their_creation(database_url: str) -> None:
    first = Store(database_url)
    with first.engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0002")
        # The row as a server before the lobby's migration wrote it: only the columns it had.
        insert_first_revision_table(connection, "old", "2026-11-29 12:00:00+00:00", "finished")
    first.close()
    again = Store(database_url)
    (listed,) = again.listing("finished").tables
    assert listed.stored.table.id == "old"
    assert listed.finished == T0
    again.close()


def test_a_review_is_kept_once_and_survives_its_migration_down_and_up(store: Store) -> None:
    store.create_table(table_row(status="finished"), SEATS)
    assert store.review("t1") is None
    store.add_review("t1", '{"seats": ["N"]}', T0)
    assert store.review("t1") == '{"seats": ["N"]}'
    with pytest.raises(IntegrityError):
        store.add_review("t1", "{}", T0)
    # Down to 0006 the reviews go, every other row stays; up again a review can be kept anew.
    with store.engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0006")
        assert "reviews" not in inspect(connection).get_table_names()
        assert connection.exec_driver_sql("SELECT count(*) FROM seats").scalar() == 4
        command.upgrade(alembic_config(connection), "head")
    loaded = store.load("t1")
    assert loaded is not None and loaded.seats == SEATS
    assert store.review("t1") is None
    store.add_review("t1", '{"seats": []}', T0)
    assert store.review("t1") == '{"seats": []}'
