"""What the club tests share: a club-mode application with an administrator and members, and
people who play their seats with random legal moves through their WebSockets."""

from __future__ import annotations

import random
from typing import Any

from starlette.testclient import TestClient
from tests.web.serving import FRAME, Player, Site

PASSWORD = "correct horse battery"


def drain(player: Player, latest: dict[str, Any]) -> dict[str, Any]:
    """The player's newest state frame, after every frame already sent to it."""
    while True:
        try:
            frame = player.receive(timeout=0.05)
        except TimeoutError:
            return latest
        if frame["type"] == "state":
            latest = frame


def play_people(players: dict[str, Player], rng: random.Random, rounds: int = 100_000) -> None:
    """The people of ``players`` (by seat) play random legal moves until their table's match is
    finished. Waits for the frames, never for a time: a player with nothing to do is asked
    again only once a frame came."""
    latest = {s: p.state() for s, p in players.items()}
    for _ in range(rounds):
        latest = {s: drain(p, latest[s]) for s, p in players.items()}
        if all(f["table"]["status"] == "finished" for f in latest.values()):
            return
        movers = [
            s
            for s, f in latest.items()
            if f["table"]["status"] == "playing" and f["observation"]["legal"]
        ]
        if not movers:
            # Nobody here is to move: a computer player is. Wait for the next frame of anyone.
            seat = next(iter(players))
            latest[seat] = players[seat].state(latest[seat]["seq"] + 1)
            continue
        seat = movers[0]
        frame = latest[seat]
        action = rng.choice(frame["observation"]["legal"])
        seq = frame["seq"]
        players[seat].send({"type": "action", "action": action, "seq": seq})
        answer = players[seat].until(
            lambda f, seq=seq: f["type"] == "error" or (f["type"] == "state" and f["seq"] > seq),
            timeout=FRAME,
        )
        if answer["type"] == "state":
            latest[seat] = answer
    raise AssertionError("the match did not end")


def browser(site: Site) -> TestClient:
    """Another browser of the application: its own cookies."""
    assert isinstance(site.http, TestClient)
    return TestClient(site.http.app, base_url=site.url)


def set_up(http: Any, name: str = "Anna") -> str:
    """The club's administrator, signed in on ``http``; their CSRF token."""
    answer = http.post("/api/club/setup", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    csrf: str = answer.json()["csrf"]
    return csrf


def invite(http: Any, csrf: str) -> str:
    answer = http.post("/api/club/invitations", json={}, headers={"X-CSRF-Token": csrf})
    assert answer.status_code == 201, answer.text
    token: str = answer.json()["token"]
    return token


def sign_up(http: Any, invitation: str, name: str) -> tuple[int, str]:
    """A new member signed in on ``http``: their id and CSRF token."""
    answer = http.post(
        "/api/club/signup", json={"name": name, "password": PASSWORD, "invitation": invitation}
    )
    assert answer.status_code == 200, answer.text
    return answer.json()["member"]["id"], answer.json()["csrf"]
