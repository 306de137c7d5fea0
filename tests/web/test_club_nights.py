"""Club nights (docs/HOSTING.md, "A club night"): the movement, matchpoints on game points,
a night of two tables and two rounds played through the API (people and computer players),
the same deals at every table of a round, nothing of a deal reaching anyone before every
table has played it, the standings against a computation by hand, the ratings it changes, and
a restart in the middle of a round.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from tests.web.club_helpers import browser, invite, play_people, set_up, sign_up
from tests.web.serving import App, Server, Site, stored_record
from tests.web.test_server import assert_no_hidden_cards

from valtti.web.club.accounts import AccountSettings
from valtti.web.club.duplicate import TableDeal, score_deal, seating
from valtti.web.db.schema import rating_changes_table
from valtti.web.db.store import Store


def test_pairs_meet_new_pairs_and_play_both_directions() -> None:
    directions: dict[int, set[str]] = {}
    met: Counter[frozenset[int]] = Counter()
    for round_ in (1, 2, 3):
        tables = seating("pairs", 3, round_)
        seated = sorted(slot for t in tables for slot in t)
        assert seated == list(range(12))  # everyone once
        for n, e, s, w in tables:
            assert n // 2 == s // 2 and e // 2 == w // 2 and n % 2 == 0 and e % 2 == 0
            directions.setdefault(n // 2, set()).add("NS")
            directions.setdefault(e // 2, set()).add("EW")
            met[frozenset({n // 2, e // 2})] += 1
    assert all(d == {"NS", "EW"} for d in directions.values())
    assert max(met.values()) == 1  # no two pairs meet twice in three rounds of three tables


def test_individuals_change_partners_every_round() -> None:
    partners: Counter[frozenset[int]] = Counter()
    for round_ in (1, 2, 3):
        ((n, e, s, w),) = seating("individuals", 1, round_)
        partners[frozenset({n, s})] += 1
        partners[frozenset({e, w})] += 1
    assert len(partners) == 6 and set(partners.values()) == {1}  # each pair of the four once


def test_matchpoints_on_game_points_by_hand() -> None:
    # Three tables on one deal: NS nets +2, -1, +2.
    results = [
        TableDeal(1, (0, 1, 2, 3), (3, 1)),
        TableDeal(2, (4, 5, 6, 7), (0, 1)),
        TableDeal(3, (8, 9, 10, 11), (4, 2)),
    ]
    scored = score_deal(1, 1, results)
    assert scored.top == 4
    # Table 1 beats table 2 (2) and ties table 3 (1); table 2 beats nobody; table 3 as 1.
    assert scored.matchpoints == [(3, 1), (0, 4), (3, 1)]


@pytest.fixture
def club(tmp_path: Path) -> Iterator[App]:
    app = App(f"sqlite:///{tmp_path / 'valtti.db'}", club=AccountSettings()).start()
    yield app
    app.stop()


def new_night(app: Site, csrf: str, members: list[int], **settings: Any) -> dict[str, Any]:
    answer = app.http.post(
        "/api/club/nights",
        json={
            "name": "Torstai",
            "tables": 2,
            "rounds": 2,
            "deals": 1,
            "members": members,
            **settings,
        },
        headers={"X-CSRF-Token": csrf},
    )
    assert answer.status_code == 201, answer.text
    night: dict[str, Any] = answer.json()
    return night


def status_of(app: App, night_id: str, table_id: str) -> str:
    """A table's status as the night's standings give it."""
    night = app.http.get(f"/api/club/nights/{night_id}").json()
    status: str = next(t["status"] for t in night["tables"] if t["id"] == table_id)
    return status


def until(done: Callable[[], bool], seconds: float = 120.0) -> None:
    """Ask ``done`` again and again until it holds (a generous deadline, never a timing)."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "it did not happen"
        time.sleep(0.05)


def by_hand(night: dict[str, Any], db_url: str) -> dict[int, tuple[int, int]]:
    """Each pair's matchpoints and top, computed here from the stored records: each deal's NS
    net game points at each table, 2 for a better net than the other table's, 1 for the same."""
    totals: dict[int, list[int]] = {}
    for round_ in sorted({t["round"] for t in night["tables"]}):
        here = [t for t in night["tables"] if t["round"] == round_]
        for deal in range(night["settings"]["deals"]):
            nets = []
            for t in here:
                result = stored_record(db_url, t["id"]).replay().deals[deal].result()
                nets.append((t, result.game_points[0] - result.game_points[1]))
            for t, net in nets:
                ns = sum(2 if net > o else 1 if net == o else 0 for u, o in nets if u is not t)
                top = 2 * (len(nets) - 1)
                for seat, points in (("N", ns), ("E", top - ns)):
                    pair = t["seats"][seat] // 2
                    got = totals.setdefault(pair, [0, 0])
                    got[0] += points
                    got[1] += top
    return {pair: (mp, top) for pair, (mp, top) in totals.items()}


def test_a_club_night_plays_the_same_deals_and_keeps_them_until_every_table_has(
    club: App,
) -> None:
    csrf = set_up(club.http)
    anna = club.http.get("/api/club/me").json()["member"]["id"]
    bertta_browser = browser(club)
    bertta, bertta_csrf = sign_up(bertta_browser, invite(club.http, csrf), "Bertta")
    visitor = browser(club)
    night = new_night(club, csrf, [anna, bertta])
    assert night["round"] == 1 and len(night["tables"]) == 2
    rng = random.Random(45)
    for round_ in (1, 2):
        tables = [t for t in night["tables"] if t["round"] == round_]
        ours = next(t for t in tables if 0 in t["seats"].values())
        theirs = next(t for t in tables if t is not ours)  # computer players only
        tokens = {}
        for http, token in ((club.http, csrf), (bertta_browser, bertta_csrf)):
            seat = http.post(
                f"/api/club/nights/{night['id']}/seat", json={}, headers={"X-CSRF-Token": token}
            )
            assert seat.status_code == 200, seat.text
            assert seat.json()["table"] == ours["id"]
            tokens[seat.json()["seat"]] = seat.json()["token"]
        # The computer players' table may finish first: until ours has, nothing of it is out.
        people = {s: club.socket(ours["id"], t) for s, t in tokens.items()}
        night_id, their_id = night["id"], theirs["id"]
        until(lambda: status_of(club, night_id, their_id) == "finished")  # noqa: B023
        for http in (club.http, visitor):
            for what in ("record", "replay", "review"):
                kept = http.get(f"/api/tables/{theirs['id']}/{what}")
                assert kept.status_code in (401, 409), (what, kept.text)
        summary = visitor.get(f"/api/tables/{theirs['id']}")
        assert summary.status_code == 409  # its score would tell of the deals
        own = club.http.get(f"/api/tables?ids={theirs['id']},{ours['id']}").json()["tables"]
        assert [t["id"] for t in own] == []  # ours too: the round is in play
        with club.http.websocket_connect(f"ws://127.0.0.1:8000/api/tables/{theirs['id']}/ws") as ws:
            assert ws.receive()["code"] == 4403  # no spectator, member or not
        standings = club.http.get(f"/api/club/nights/{night['id']}")
        assert [d for d in standings.json()["deals"] if d["round"] == round_] == []
        cards = stored_record(club.db_url, theirs["id"]).deals[0].hands
        assert not [c for h in cards for c in h.tokens() if f'"{c}"' in standings.text]
        records = club.http.get(f"/api/club/members/{anna}/records")
        assert theirs["id"] not in records.text
        # Now the people play their deal.
        play_people(people, rng)
        for p in people.values():
            p.close()
        # What the people at our table were sent named no card another seat held then: the
        # other table's play of the same cards told them nothing (test_server's leak test).
        for seat, p in people.items():
            assert_no_hidden_cards(p, seat, stored_record(club.db_url, ours["id"]))
        night = club.http.get(f"/api/club/nights/{night['id']}").json()
        assert club.http.get(f"/api/tables/{theirs['id']}/record").status_code == 200
        # Both tables dealt the same cards, and the same dealer.
        a, b = (stored_record(club.db_url, t["id"]) for t in (ours, theirs))
        assert [d.hands for d in a.deals] == [d.hands for d in b.deals]
        assert [d.dealer for d in a.deals] == [d.dealer for d in b.deals]
    assert night["status"] == "finished"
    assert night["round"] == 2 and len(night["deals"]) == 2
    hand = by_hand(night, club.db_url)
    shown = {row["entrant"]: (row["matchpoints"], row["top"]) for row in night["standings"]}
    assert shown == hand
    percents = [row["percent"] for row in night["standings"]]
    assert percents == sorted(percents, reverse=True)
    # The night rated its two members (and only once).
    store = Store(club.db_url)
    try:
        with store.engine.connect() as connection:
            sources = connection.execute(
                select(rating_changes_table.c.member_id, rating_changes_table.c.source)
            ).all()
    finally:
        store.close()
    assert sorted(sources) == [(anna, f"night:{night['id']}"), (bertta, f"night:{night['id']}")]
    page = club.http.get(f"/api/club/members/{bertta}").json()
    assert page["history"][0]["source"] == f"night:{night['id']}"
    assert len(page["tables"]) == 2
    csv = club.http.get(f"/api/club/nights/{night['id']}/results.csv")
    assert csv.headers["content-type"].startswith("text/csv")
    assert csv.text.splitlines()[0] == "place,names,matchpoints,top,percent,game_points"
    assert "Anna & Bertta" in csv.text


@pytest.mark.serve
def test_a_kill_in_the_middle_of_a_round_loses_nothing(
    start_server: Callable[..., Server], tmp_path: Path
) -> None:
    db_url = f"sqlite:///{tmp_path / 'valtti.db'}"
    server = start_server(db_url, options=["--club"])
    csrf = set_up(server.http)
    anna = server.http.get("/api/club/me").json()["member"]["id"]
    night = new_night(server, csrf, [anna], deals=2)
    seat = server.http.post(
        f"/api/club/nights/{night['id']}/seat", json={}, headers={"X-CSRF-Token": csrf}
    ).json()
    player = server.socket(seat["table"], seat["token"])
    rng = random.Random(7)
    # A few moves of Anna's, then SIGKILL.
    moved = 0
    latest = player.state()
    while moved < 3:
        if latest["observation"]["legal"]:
            action = rng.choice(latest["observation"]["legal"])
            player.send({"type": "action", "action": action, "seq": latest["seq"]})
            moved += 1
        latest = player.state(latest["seq"] + 1)
    before = stored_record(db_url, seat["table"])
    player.close()
    server.kill()
    again = start_server(db_url, options=["--club"])
    again.http.cookies.update(server.http.cookies)  # the same browser: its session is stored
    assert again.http.get("/api/club/me").json()["member"]["id"] == anna
    resumed = again.http.get(f"/api/club/nights/{night['id']}").json()

    def seating_of(n: dict[str, Any]) -> list[tuple[str, dict[str, int]]]:
        return [(t["id"], t["seats"]) for t in n["tables"]]

    assert resumed["status"] == "playing" and seating_of(resumed) == seating_of(night)
    after = stored_record(db_url, seat["table"])
    assert after.deals[0].actions[: len(before.deals[0].actions)] == before.deals[0].actions
    # Anna plays on with the seat she had; the night goes on to its second round and its end.
    for round_ in (1, 2):
        if round_ == 2:
            until(lambda: again.http.get(f"/api/club/nights/{night['id']}").json()["round"] == 2)
            seat = again.http.post(
                f"/api/club/nights/{night['id']}/seat", json={}, headers={"X-CSRF-Token": csrf}
            ).json()
        player = again.socket(seat["table"], seat["token"])
        play_people({seat["seat"]: player}, rng)
        player.close()
    until(lambda: again.http.get(f"/api/club/nights/{night['id']}").json()["status"] == "finished")
    final = again.http.get(f"/api/club/nights/{night['id']}").json()
    assert len(final["deals"]) == 4  # two deals in each of two rounds, every one compared


def test_a_night_of_changing_partners_scores_each_player(club: App) -> None:
    csrf = set_up(club.http)
    anna = club.http.get("/api/club/me").json()["member"]["id"]
    night = new_night(club, csrf, [anna], movement="individuals", rounds=1)
    seat = club.http.post(
        f"/api/club/nights/{night['id']}/seat", json={}, headers={"X-CSRF-Token": csrf}
    ).json()
    assert seat["seat"] == "N"  # slot 0 stays at North of table 1
    play_people({"N": club.socket(seat["table"], seat["token"])}, random.Random(5))
    until(lambda: club.http.get(f"/api/club/nights/{night['id']}").json()["status"] == "finished")
    final = club.http.get(f"/api/club/nights/{night['id']}").json()
    assert len(final["standings"]) == 8  # every player an entrant of their own
    assert [row["names"] for row in final["standings"] if row["members"]] == [["Anna"]]
    # Partners share a deal's matchpoints: N with S, E with W, at each table.
    by_entrant = {row["entrant"]: row["matchpoints"] for row in final["standings"]}
    for table in final["tables"]:
        s = table["seats"]
        assert by_entrant[s["N"]] == by_entrant[s["S"]]
        assert by_entrant[s["E"]] == by_entrant[s["W"]]
        assert by_entrant[s["N"]] + by_entrant[s["E"]] == 2
    # Partners on the same score share a place ("1="), as the ratings take them: a place is one
    # more than the entrants ahead, and says whether it is shared.
    standings = final["standings"]
    for row in standings:
        ahead = sum(other["percent"] > row["percent"] for other in standings)
        level = sum(other["percent"] == row["percent"] for other in standings)
        assert row["place"] == ahead + 1 and row["tied"] == (level > 1)
    assert any(row["tied"] for row in standings)
    # The computer players are given by program, for the pages to name them by level.
    assert all(row["computers"] == row["names"] for row in standings if not row["members"])
    assert [row["computers"] for row in standings if row["members"]] == [[None]]
    for table in final["tables"]:
        for seat, computer in table["computers"].items():
            assert computer is None or computer == table["players"][seat]
