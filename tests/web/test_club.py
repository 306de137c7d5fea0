"""Club mode's accounts and what they guard (docs/HOSTING.md, "A club"), on the application in
this process: the first administrator, invitations, sign-up, sign-in and out, the password,
Argon2 hashes only, sessions that expire, forged cross-site requests refused, sign-in attempts
limited, disabling a member, and who may create, join and watch a table.
"""

from __future__ import annotations

import datetime as dt
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select, text, update
from starlette.testclient import TestClient
from tests.web.club_helpers import play_people
from tests.web.serving import App, stored_record

from valtti.web.club.accounts import SESSION_COOKIE, AccountSettings
from valtti.web.club.ratings import NEW_RATING
from valtti.web.db.club import ClubStore, Passkey
from valtti.web.db.schema import members_table, sessions_table
from valtti.web.db.store import Store

PASSWORD = "correct horse battery"
SEATS = {"N": "open", "E": "heuristic", "S": "open", "W": "heuristic"}
EVIL = "https://cards.evil.example"


@pytest.fixture
def club(tmp_path: Path) -> Iterator[App]:
    """A club-mode application on an empty database."""
    app = App(f"sqlite:///{tmp_path / 'valtti.db'}", club=AccountSettings()).start()
    yield app
    app.stop()


def client(app: App) -> TestClient:
    """Another browser: a client of the same application with cookies of its own."""
    assert isinstance(app.http, TestClient)
    other = TestClient(app.http.app, base_url=app.url)
    return other


def set_up(app: App, name: str = "Anna") -> str:
    """The club's administrator, signed in on ``app.http``; their CSRF token."""
    answer = app.http.post("/api/club/setup", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    csrf: str = answer.json()["csrf"]
    return csrf


def invite(app: App, csrf: str) -> str:
    answer = app.http.post("/api/club/invitations", json={}, headers={"X-CSRF-Token": csrf})
    assert answer.status_code == 201, answer.text
    token: str = answer.json()["token"]
    assert answer.json()["link"].endswith(f"/club?invitation={token}")
    return token


def sign_up(browser: TestClient, invitation: str, name: str) -> str:
    answer = browser.post(
        "/api/club/signup", json={"name": name, "password": PASSWORD, "invitation": invitation}
    )
    assert answer.status_code == 200, answer.text
    csrf: str = answer.json()["csrf"]
    return csrf


def test_a_server_without_club_mode_is_as_before(site: App) -> None:
    assert site.http.get("/api/club/me").json() == {
        "club": False,
        "setup": False,
        "member": None,
        "csrf": None,
    }
    refused = site.http.post("/api/club/signin", json={"name": "a", "password": PASSWORD})
    assert refused.status_code == 404
    assert site.http.post("/api/tables", json={"seats": SEATS}).status_code == 201


def test_the_first_account_is_the_administrator_and_only_once(club: App) -> None:
    assert club.http.get("/api/club/me").json()["setup"] is True
    set_up(club)
    me = club.http.get("/api/club/me").json()
    assert me["member"]["name"] == "Anna" and me["member"]["admin"] is True
    again = client(club).post("/api/club/setup", json={"name": "Eve", "password": PASSWORD})
    assert again.status_code == 409 and again.json()["error"] == "set_up"


def test_an_invitation_signs_up_one_member_who_signs_in_and_out(club: App) -> None:
    csrf = set_up(club)
    token = invite(club, csrf)
    browser = client(club)
    assert browser.get(f"/api/club/invitations/{token}").json() == {"open": True}
    member_csrf = sign_up(browser, token, "Bertta")
    assert browser.get("/api/club/me").json()["member"]["name"] == "Bertta"
    # Used once: nobody else signs up with it.
    reused = client(club).post(
        "/api/club/signup", json={"name": "Cecilia", "password": PASSWORD, "invitation": token}
    )
    assert reused.status_code == 400 and reused.json()["error"] == "bad_invitation"
    assert browser.get(f"/api/club/invitations/{token}").json() == {"open": False}
    # Not an administrator: no invitations of their own.
    refused = browser.post("/api/club/invitations", json={}, headers={"X-CSRF-Token": member_csrf})
    assert refused.status_code == 403 and refused.json()["error"] == "not_admin"
    out = browser.post("/api/club/signout", json={}, headers={"X-CSRF-Token": member_csrf})
    assert out.status_code == 200
    assert browser.get("/api/club/me").json()["member"] is None
    again = browser.post("/api/club/signin", json={"name": "bertta", "password": PASSWORD})
    assert again.status_code == 200 and again.json()["member"]["name"] == "Bertta"


def test_the_session_cookie_is_httponly_and_samesite(club: App) -> None:
    answer = club.http.post("/api/club/setup", json={"name": "Anna", "password": PASSWORD})
    cookie = answer.headers["set-cookie"].lower()
    assert cookie.startswith(f"{SESSION_COOKIE}=")
    assert "httponly" in cookie and "samesite=strict" in cookie and "path=/" in cookie
    assert "secure" not in cookie  # plain HTTP here: the browser would not send it back
    behind = client(club).post(
        "https://127.0.0.1:8000/api/club/signin", json={"name": "Anna", "password": PASSWORD}
    )
    assert "; secure" in behind.headers["set-cookie"].lower()


def test_passwords_are_kept_as_argon2_hashes_only(club: App) -> None:
    csrf = set_up(club)
    changed = club.http.post(
        "/api/club/password",
        json={"current": PASSWORD, "new": "a new and longer one"},
        headers={"X-CSRF-Token": csrf},
    )
    assert changed.status_code == 200, changed.text
    sign_up(client(club), invite(club, csrf), "Bertta")
    store = Store(club.db_url)
    try:
        with store.engine.connect() as connection:
            hashes = connection.scalars(select(members_table.c.password_hash)).all()
            dump = "\n".join(connection.connection.iterdump())  # type: ignore[attr-defined]
    finally:
        store.close()
    assert len(hashes) == 2
    assert all(h.startswith("$argon2id$v=19$") for h in hashes)
    for password in (PASSWORD, "a new and longer one"):
        assert password not in dump
    old = client(club).post("/api/club/signin", json={"name": "Anna", "password": PASSWORD})
    assert old.status_code == 401
    new = client(club).post(
        "/api/club/signin", json={"name": "Anna", "password": "a new and longer one"}
    )
    assert new.status_code == 200


def test_sessions_expire(club: App) -> None:
    set_up(club)
    assert club.http.get("/api/club/me").json()["member"] is not None
    store = Store(club.db_url)
    try:
        with store.engine.begin() as connection:
            past = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1)
            connection.execute(update(sessions_table).values(expires=past))
    finally:
        store.close()
    assert club.http.get("/api/club/me").json()["member"] is None
    refused = club.http.post("/api/tables", json={"seats": SEATS})
    assert refused.status_code == 401 and refused.json()["error"] == "not_signed_in"


def test_a_session_lasts_the_hours_set(tmp_path: Path) -> None:
    app = App(f"sqlite:///{tmp_path / 'v.db'}", club=AccountSettings(session_hours=2)).start()
    try:
        before = dt.datetime.now(dt.UTC)
        set_up(app)
        store = Store(app.db_url)
        try:
            with store.engine.connect() as connection:
                expires = connection.scalar(select(sessions_table.c.expires))
        finally:
            store.close()
        assert expires is not None
        left = expires.replace(tzinfo=dt.UTC) - before
        assert dt.timedelta(hours=1, minutes=59) < left <= dt.timedelta(hours=2, minutes=1)
    finally:
        app.stop()


def test_a_forged_cross_site_request_is_refused(club: App) -> None:
    csrf = set_up(club)
    # The browser sends the cookie with a request another site's page makes: without the
    # page's CSRF token it is refused, and so is any request from another origin.
    forged = club.http.post("/api/tables", json={"seats": SEATS, "seat": "N", "nickname": "x"})
    assert forged.status_code == 403 and forged.json()["error"] == "bad_csrf"
    wrong = club.http.post(
        "/api/club/invitations", json={}, headers={"X-CSRF-Token": csrf[:-2] + "xx"}
    )
    assert wrong.status_code == 403 and wrong.json()["error"] == "bad_csrf"
    other_site = club.http.post(
        "/api/tables",
        json={"seats": SEATS},
        headers={"X-CSRF-Token": csrf, "Origin": EVIL},
    )
    assert other_site.status_code == 403 and other_site.json()["error"] == "bad_origin"
    form = club.http.post(
        "/api/club/signout",
        content="a=b",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert form.status_code == 415
    assert club.http.get("/api/club/me").json()["member"] is not None  # still signed in
    made = club.http.post(
        "/api/tables",
        json={"seats": SEATS, "seat": "N", "nickname": "x"},
        headers={"X-CSRF-Token": csrf},
    )
    assert made.status_code == 201, made.text


def test_sign_in_attempts_are_limited(club: App) -> None:
    set_up(club)
    browser = client(club)
    for _ in range(5):
        wrong = browser.post("/api/club/signin", json={"name": "Anna", "password": "nope nope"})
        assert wrong.status_code == 401 and wrong.json()["error"] == "bad_sign_in"
    # The sixth try is refused before the password is looked at, the right one too.
    blocked = browser.post("/api/club/signin", json={"name": "ANNA", "password": PASSWORD})
    assert blocked.status_code == 429 and blocked.json()["error"] == "too_many"
    assert blocked.json()["retry_after"] > 0
    # An unknown name is refused as a wrong password is, and counts against the address.
    for n in range(15):  # 5 + 15: the address's 20 failures
        unknown = browser.post("/api/club/signin", json={"name": f"x{n}", "password": PASSWORD})
        assert unknown.status_code == 401 and unknown.json()["error"] == "bad_sign_in"
    address = browser.post("/api/club/signin", json={"name": "x99", "password": PASSWORD})
    assert address.status_code == 429


def test_a_disabled_member_is_signed_out_and_cannot_sign_in(club: App) -> None:
    csrf = set_up(club)
    browser = client(club)
    sign_up(browser, invite(club, csrf), "Bertta")
    bertta = browser.get("/api/club/me").json()["member"]["id"]
    off = club.http.post(
        f"/api/club/members/{bertta}/status",
        json={"disabled": True},
        headers={"X-CSRF-Token": csrf},
    )
    assert off.status_code == 200 and off.json()["disabled"] is True
    assert browser.get("/api/club/me").json()["member"] is None
    again = browser.post("/api/club/signin", json={"name": "Bertta", "password": PASSWORD})
    assert again.status_code == 401
    on = club.http.post(
        f"/api/club/members/{bertta}/status",
        json={"disabled": False},
        headers={"X-CSRF-Token": csrf},
    )
    assert on.status_code == 200
    back = browser.post("/api/club/signin", json={"name": "Bertta", "password": PASSWORD})
    assert back.status_code == 200


def test_only_members_and_their_guests_create_and_join_tables(club: App) -> None:
    csrf = set_up(club)
    visitor = client(club)
    refused = visitor.post("/api/tables", json={"seats": SEATS})
    assert refused.status_code == 401 and refused.json()["error"] == "not_signed_in"
    made = club.http.post(
        "/api/tables",
        json={"seats": SEATS, "seat": "N", "nickname": "not my name"},
        headers={"X-CSRF-Token": csrf},
    )
    assert made.status_code == 201
    table = made.json()
    summary = club.http.get(f"/api/tables/{table['id']}").json()
    assert summary["seats"][0]["name"] == "Anna"  # the member's name, not a nickname
    join = visitor.post(f"/api/tables/{table['id']}/seats/S", json={"nickname": "Vieras"})
    assert join.status_code == 401
    wrong_key = visitor.post(
        f"/api/tables/{table['id']}/seats/S?guest=AAAAAAAAAAAAAAAAAAAAAAAA",
        json={"nickname": "Vieras"},
    )
    assert wrong_key.status_code == 401
    guest = table["guest_link"].split("?guest=")[1]
    ok = visitor.post(
        f"/api/tables/{table['id']}/seats/S?guest={guest}", json={"nickname": "Vieras"}
    )
    assert ok.status_code == 200, ok.text


def test_who_may_watch_is_the_clubs_setting(club: App) -> None:
    csrf = set_up(club)
    made = club.http.post(
        "/api/tables",
        json={"seats": SEATS, "seat": "N", "nickname": "x"},
        headers={"X-CSRF-Token": csrf},
    ).json()
    assert club.http.get("/api/club/settings").json() == {"watchers": "members"}
    visitor = client(club)
    url = f"ws://127.0.0.1:8000/api/tables/{made['id']}/ws"
    with visitor.websocket_connect(url) as ws:
        assert ws.receive()["code"] == 4403  # closed before anything is sent
    with club.http.websocket_connect(url) as ws:
        assert ws.receive_json()["type"] == "state"  # a member watches
    guest = made["guest_link"].split("?guest=")[1]
    with visitor.websocket_connect(f"{url}?guest={guest}") as ws:
        assert ws.receive_json()["type"] == "state"  # so does the table's guest
    changed = club.http.post(
        "/api/club/settings", json={"watchers": "anyone"}, headers={"X-CSRF-Token": csrf}
    )
    assert changed.status_code == 200
    with visitor.websocket_connect(url) as ws:
        assert ws.receive_json()["type"] == "state"


def test_the_list_of_tables_is_the_members_as_watching_is(club: App) -> None:
    """In club mode the lobby's list (the tables' names, players and scores) answered anyone;
    now only members, unless the club lets anyone watch. A person's own tables, asked for by
    id as their browser knows them, are still answered."""
    csrf = set_up(club)
    made = club.http.post(
        "/api/tables",
        json={"seats": SEATS, "seat": "N", "nickname": "x", "name": "Kerhoilta"},
        headers={"X-CSRF-Token": csrf},
    ).json()
    listed = club.http.get("/api/tables")
    assert listed.status_code == 200 and made["id"] in listed.text  # a member sees it
    visitor = client(club)
    refused = visitor.get("/api/tables")
    assert refused.status_code == 401 and refused.json()["error"] == "not_signed_in"
    assert "Kerhoilta" not in refused.text
    own = visitor.get(f"/api/tables?ids={made['id']}")
    assert own.status_code == 200 and made["id"] in own.text
    club.http.post(
        "/api/club/settings", json={"watchers": "anyone"}, headers={"X-CSRF-Token": csrf}
    )
    assert visitor.get("/api/tables").status_code == 200


def test_the_command_line_makes_an_administrator(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from valtti.cli import main

    db = f"sqlite:///{tmp_path / 'v.db'}"
    made = CliRunner().invoke(
        main, ["club", "admin", "Kalle", "--db", db], input=f"{PASSWORD}\n" * 2
    )
    assert made.exit_code == 0, made.output
    assert "Kalle is a new administrator" in made.output
    store = Store(db)
    try:
        with store.engine.connect() as connection:
            row = connection.execute(text("SELECT name, admin FROM members")).one()
    finally:
        store.close()
    assert tuple(row) == ("Kalle", 1)


@pytest.mark.slow
def test_a_finished_match_rates_its_members_and_is_in_their_records(club: App) -> None:
    csrf = set_up(club)
    made = club.http.post(
        "/api/tables",
        json={
            "seats": {"N": "open", "E": "heuristic", "S": "random", "W": "heuristic"},
            "seat": "N",
            "nickname": "x",
            "turn_seconds": None,
        },
        headers={"X-CSRF-Token": csrf},
    ).json()
    me = club.http.get("/api/club/me").json()["member"]
    player = club.socket(made["id"], made["token"])
    play_people({"N": player}, random.Random(3))
    player.close()
    record = stored_record(club.db_url, made["id"])
    match = record.replay()
    assert match.is_over()

    def rated() -> bool:
        return bool(club.http.get(f"/api/club/members/{me['id']}").json()["history"])

    deadline = time.monotonic() + 60
    while not rated():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    page = club.http.get(f"/api/club/members/{me['id']}").json()
    (step,) = page["history"]
    assert step["source"] == f"table:{made['id']}"
    won = match.winner is not None and int(match.winner) == 0
    if not match.is_draw:
        assert (step["after"] > step["before"]) == won
    (played,) = page["tables"]
    assert (played["id"], played["seat"]) == (made["id"], "N") and played["finished"]
    records = club.http.get(f"/api/club/members/{me['id']}/records")
    assert "attachment" in records.headers["content-disposition"]
    (kept,) = records.json()
    assert kept["meta"]["table"] == made["id"]
    lobby = club.http.get("/api/club/members").json()
    # The lobby shows the member's rating as the member's page does, changed by the match.
    assert lobby[0]["rating"] == page["member"]["rating"]
    assert page["member"]["mu"] != round(NEW_RATING[0], 2)


def test_a_forged_passkey_answer_is_refused_and_counted(club: App) -> None:
    set_up(club)
    browser = client(club)
    for _ in range(20):
        options = browser.post("/api/club/passkeys/signin/options", json={}).json()
        assert options["options"]["rpId"] == "127.0.0.1" and options["options"]["challenge"]
        forged = browser.post(
            "/api/club/passkeys/signin",
            json={
                "ceremony": options["ceremony"],
                "credential": {"id": "AAAA", "rawId": "AAAA", "type": "public-key", "response": {}},
            },
        )
        assert forged.status_code == 400 and forged.json()["error"] == "bad_passkey"
    # A ceremony is used once, and the address has failed too often now.
    again = browser.post(
        "/api/club/passkeys/signin", json={"ceremony": options["ceremony"], "credential": {}}
    )
    assert again.status_code == 429
    password = browser.post("/api/club/signin", json={"name": "Anna", "password": PASSWORD})
    assert password.status_code == 429


def test_a_malformed_answer_for_a_members_passkey_is_refused(club: App) -> None:
    set_up(club)
    store = Store(club.db_url)
    try:
        clubs = ClubStore(store)
        anna = clubs.member_by_name("Anna")
        assert anna is not None
        key = Passkey("Y3JlZGVudGlhbA", anna[0].id, "cHVibGljIGtleQ", 0)
        clubs.add_passkey(key, dt.datetime.now(dt.UTC))
    finally:
        store.close()
    browser = client(club)
    for credential in (
        {"id": key.credential_id, "rawId": key.credential_id, "response": {}},
        {
            "id": key.credential_id,
            "rawId": key.credential_id,
            "type": "public-key",
            "response": {
                "clientDataJSON": "e30",
                "authenticatorData": "AAAA",
                "signature": "AAAA",
            },
        },
        {"rawId": ["not", "text"]},
    ):
        options = browser.post("/api/club/passkeys/signin/options", json={}).json()
        answer = browser.post(
            "/api/club/passkeys/signin",
            json={"ceremony": options["ceremony"], "credential": credential},
        )
        assert answer.status_code == 400 and answer.json()["error"] == "bad_passkey", answer.text


def test_names_and_ids_no_member_or_night_could_have_are_refused_plainly(club: App) -> None:
    set_up(club)
    browser = client(club)
    nul = browser.post("/api/club/signin", json={"name": "An\u0000na", "password": PASSWORD})
    assert nul.status_code == 401 and nul.json()["error"] == "bad_sign_in"
    for path in ("/api/club/nights/a%00b", "/api/club/nights/table/a%00b"):
        assert club.http.get(path).status_code == 404, path
    options = browser.post("/api/club/passkeys/signin/options", json={}).json()
    odd = browser.post(
        "/api/club/passkeys/signin",
        json={"ceremony": options["ceremony"], "credential": {"rawId": "a\u0000b"}},
    )
    assert odd.status_code == 400
