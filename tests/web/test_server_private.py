"""What a seat may know beyond its hand (RULES.md 7.2): that a partner asked for a whole
marriage had several to choose from is the partner's alone, and seat tokens stay out of logs."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from tests.web.serving import FRAME, SEATS, Player, Server, Table
from tests.web.test_server import assert_no_hidden_cards, stored_match

from valtti.engine import Match, Seat, Variant
from valtti.web.db.rows import SeatRow, TableRow
from valtti.web.db.store import Store
from valtti.web.referee.presence import PRESENCE_SECONDS
from valtti.web.referee.seats import token_hash

#: A deal (dealer N, dealt by random.Random(53)) where, after these actions, E wins a trick
#: and may ask whole, and W holds the marriages of hearts and clubs: W chooses one.
DEAL_SEED = 53
BEFORE_ASK = ("AS", "9S", "AC", "KS")


def stored_table(
    url: str,
    actions: tuple[str, ...],
    turn_seconds: int | None = None,
    computers: dict[str, str] | None = None,
) -> dict[str, str]:
    """Store table "choice" of four people at that deal, but the seats that ``computers``
    gives a computer player, with ``actions`` played (and ``turn_seconds`` for a turn); the
    seats' tokens."""
    match = Match(Variant(), Seat.N)
    match.start_deal(rng=random.Random(DEAL_SEED))
    assert match.deal is not None
    tokens = {s: f"token-of-{s}" for s in SEATS}
    store = Store(url)
    try:
        store.create_table(
            TableRow(
                id="choice",
                created=datetime.now(UTC),
                variant=Variant(),
                first_dealer=Seat.N,
                seed=1,
                creator_hash=token_hash("creator"),
                status="playing",
                turn_seconds=turn_seconds,
            ),
            [
                SeatRow(s, "computer", computers[str(s)], None)
                if str(s) in (computers or {})
                else SeatRow(s, "human", f"player {s}", token_hash(tokens[str(s)]))
                for s in Seat
            ],
        )
        store.add_deal("choice", 1, Seat.N, match.deal.initial_hands)
        for index, token in enumerate(actions):
            store.add_action("choice", 1, index, token)
    finally:
        store.close()
    return tokens


def serve_choice(
    tmp_path: Path, start_server: Callable[..., Server]
) -> tuple[Server, dict[str, str]]:
    """A server whose database holds table "choice" as ``BEFORE_ASK`` leaves it (E may ask
    whole, and W would choose); the seats' tokens."""
    url = f"sqlite:///{tmp_path / 'valtti.db'}"
    tokens = stored_table(url, BEFORE_ASK)
    return start_server(url), tokens


@pytest.mark.parametrize("asked_before_a_restart", [False, True])
def test_only_the_answering_partner_sees_the_choice(
    tmp_path: Path, start_server: Callable[..., Server], asked_before_a_restart: bool
) -> None:
    url = f"sqlite:///{tmp_path / 'valtti.db'}"
    actions = (*BEFORE_ASK, "ask-whole") if asked_before_a_restart else BEFORE_ASK
    tokens = stored_table(url, actions)
    server = start_server(url)
    people = {s: server.socket("choice", t) for s, t in tokens.items()}
    spectator = server.socket("choice")
    everyone = {**people, None: spectator}
    for p in everyone.values():
        p.state()
    if not asked_before_a_restart:
        before = people["E"].frames[-1]  # everyone connected, before the question
        assert before["seq"] == 4 and before["observation"]["to_move"] == "E"
        people["E"].send({"type": "action", "action": "ask-whole", "seq": 4})
        choosing = people["W"].state(5)
    else:
        choosing = people["W"].frames[-1]
    assert choosing["observation"]["phase"] == "answer"
    assert choosing["observation"]["legal"] == ["answer H", "answer C"]
    # Anyone else, even arriving now, sees the table as before the question.
    late = server.socket("choice")
    held = late.state()
    assert held["seq"] == 4 and held["observation"]["phase"] == "declaration"
    assert held["observation"]["to_move"] == "E"
    everyone["late"] = late
    # Acting now is answered as before the question (E holds no AS), without naming W.
    people["E"].send({"type": "action", "action": "AS"})
    refused = people["E"].error()
    assert refused["code"] == "illegal" and "W" not in refused["message"]
    people["W"].send({"type": "action", "action": "answer C", "seq": 5})
    for seat, player in everyone.items():
        state = player.until(lambda f: f["type"] == "state" and f["seq"] == 5 and not _asking(f))
        assert state["observation"]["to_move"] == "E", seat
        assert state["observation"]["trump"] == "C"
    # A second answer (a double click) is refused.
    people["W"].send({"type": "action", "action": "answer H", "seq": 5})
    assert people["W"].error()["code"] == "not_your_turn"
    for seat, player in everyone.items():
        states = [f for f in player.frames if f["type"] == "state"]
        for frame in states:
            # seq is what each seat can count: the actions of its history.
            assert frame["seq"] == len(frame["observation"]["history"]), (seat, frame["seq"])
            if seat != "W":
                assert frame["observation"]["phase"] != "answer", seat
                assert frame["observation"]["asker"] is None, seat
    for player in everyone.values():
        player.close()


def test_a_computer_partner_chooses_without_the_delay_of_a_move(
    tmp_path: Path, start_server: Callable[..., Server]
) -> None:
    # The others see E's turn last until W has chosen: a move's delay there told them that W
    # had a choice of marriages. With a delay of 600 s, E would not see the answer for 600 s.
    url = f"sqlite:///{tmp_path / 'valtti.db'}"
    tokens = stored_table(url, BEFORE_ASK, computers={"W": "heuristic"})
    server = start_server(url, bot_delay=600.0)
    east = server.socket("choice", tokens["E"])
    assert east.state()["seq"] == 4
    east.send({"type": "action", "action": "ask-whole", "seq": 4})
    answered = east.state(5)
    assert answered["observation"]["to_move"] == "E"
    assert answered["observation"]["trump"] in ("H", "C")
    east.close()


def _asking(frame: dict[str, object]) -> bool:
    observation = frame["observation"]
    assert isinstance(observation, dict)
    return bool(observation["phase"] == "answer")


def test_seat_tokens_stay_out_of_the_log(server: Server) -> None:
    created = server.create(dict.fromkeys(SEATS, "open"), seat="N", nickname="Aino")
    me = server.socket(created["id"], created["token"])
    me.state()
    me.close()
    log = server.log.read_text()
    assert f"/api/tables/{created['id']}/ws?token=***" in log
    assert created["token"] not in log


class _Asking(random.Random):
    """Random choices, but ``ask-whole`` whenever it may be chosen."""

    def choice(self, seq: Sequence[Any]) -> Any:
        return "ask-whole" if "ask-whole" in seq else super().choice(seq)


def test_people_play_on_through_a_partners_choice(
    tmp_path: Path, start_server: Callable[..., Server]
) -> None:
    server, tokens = serve_choice(tmp_path, start_server)
    table = Table(server, "choice", tokens)
    for _ in range(6):  # E asks (W chooses), then five cards
        table.play(_Asking(1))
    assert table.seq == 10
    record = stored_match(server, "choice")
    assert record.deals[0].actions[4:6] in (["ask-whole", "answer H"], ["ask-whole", "answer C"])
    for seat, player in table.players.items():
        assert_no_hidden_cards(player, seat, record)
    assert_no_hidden_cards(table.spectator, None, record)
    table.close()


def _raw(player: Player, message: dict[str, Any]) -> str:
    """The text of the server's answer to ``message``: the next frame that is not a state."""
    player.send(message)
    while True:
        raw = player.ws.recv(timeout=FRAME)
        assert isinstance(raw, str)
        if json.loads(raw)["type"] != "state":
            return raw


def _first_frame(server: Server, token: str | None, others: dict[str, Player]) -> str:
    """The text of the state frame a new connection of ``token`` (a spectator: ``None``) gets.
    A seat's new connection plays the seat from then on (its old one watches: it is closed),
    so it takes the old one's place in ``others``."""
    newcomer = server.socket("choice", token)
    raw = newcomer.ws.recv(timeout=FRAME)
    assert isinstance(raw, str)
    seat = json.loads(raw)["you"]
    if seat is None:
        newcomer.close()
    else:
        others[seat].close()
        others[seat] = newcomer
    return raw


def test_while_a_partner_chooses_everyone_else_is_answered_as_before_the_question(
    tmp_path: Path, start_server: Callable[..., Server]
) -> None:
    """RULES.md 7.2 through the protocol: until W names one of its two marriages, every
    other connection's action, with the current seq, a stale one or none, gets byte for byte
    the answer it got just before E's ask-whole; so do new connections, pings and the HTTP
    routes. Nothing the server sends tells them that W has a choice."""
    server, tokens = serve_choice(tmp_path, start_server)
    people = {s: server.socket("choice", t) for s, t in tokens.items()}
    spectator = server.socket("choice")
    for p in [*people.values(), spectator]:
        p.until(lambda f: f["type"] == "state" and all(s["connected"] for s in f["table"]["seats"]))
    others: dict[str, Player] = {"N": people["N"], "E": people["E"], "S": people["S"]}
    others["spectator"] = spectator
    probes = [
        {"type": "action", "action": token, **seq}
        for token in ("AS", "9H", "ask-whole", "bogus")
        for seq in ({"seq": 4}, {"seq": 3}, {"seq": 5}, {})
    ]
    probes = [p for p in probes if not (p["action"] == "ask-whole" and p.get("seq", 4) == 4)]
    probes.append({"type": "ping"})
    routes = ["/api/tables", "/api/tables/choice", "/api/tables/choice/record"]

    def answers() -> dict[str, object]:
        out: dict[str, object] = {
            f"{who} {json.dumps(probe)}": _raw(player, probe)
            for who, player in others.items()
            for probe in probes
            # E's own ask-whole before the question would be played: it is not sent.
        }
        for who in ("N", "S", None):  # E's own has no legal action while its question waits
            out[f"new connection of {who}"] = _first_frame(server, who and tokens[who], others)
        for route in routes:
            answer = server.http.get(route)
            out[route] = (answer.status_code, answer.text)
        return out

    before = answers()
    assert json.loads(str(before['E {"type": "action", "action": "AS", "seq": 4}']))["code"] == (
        "illegal"
    )
    assert "E is to move, not N" in str(before['N {"type": "action", "action": "AS"}'])
    people["E"].send({"type": "action", "action": "ask-whole", "seq": 4})
    choosing = people["W"].state(5)
    assert choosing["observation"]["legal"] == ["answer H", "answer C"]
    during = answers()
    for probe, answer in before.items():
        assert during[probe] == answer, probe
    # E's question is answered with its own turn done: it waits like everyone else.
    legal = next(f for f in reversed(people["E"].frames) if f["type"] == "state")
    lead = legal["observation"]["legal"][0]  # a card E could have led instead of asking
    waiting = json.loads(_raw(people["E"], {"type": "action", "action": lead, "seq": 4}))
    assert waiting["code"] == "not_your_turn" and "W" not in waiting["message"]
    people["W"].send({"type": "action", "action": "answer C", "seq": 5})
    for player in [*others.values(), people["W"]]:
        state = player.until(lambda f: f["type"] == "state" and f["seq"] == 5)
        assert state["observation"]["trump"] == "C"
    for player in [*people.values(), spectator]:
        player.close()


def test_connecting_over_and_over_does_not_multiply_the_tables_frames(server: Server) -> None:
    """A client that connects and disconnects one seat again and again makes the others get
    at most one presence frame in each PRESENCE_SECONDS, and the last state shows it gone."""
    table = server.create(dict.fromkeys(SEATS, "open"))
    token = server.join(table["id"], "N")
    watcher = server.socket(table["id"])
    watcher.state()
    cycles = 30
    began = time.monotonic()
    for _ in range(cycles):
        flicker = server.socket(table["id"], token)
        flicker.state()
        flicker.close()
    elapsed = time.monotonic() - began
    watcher.until(lambda f: f["type"] == "state" and not f["table"]["seats"][0]["connected"])
    time.sleep(3 * PRESENCE_SECONDS)  # let a last presence frame come, if one were due
    watcher.send({"type": "ping"})
    watcher.until(lambda f: f["type"] == "pong")
    states = [f for f in watcher.frames[1:] if f["type"] == "state"]
    # Once at the first change, then once at the end of each interval at most.
    assert len(states) <= 2 + elapsed / PRESENCE_SECONDS, (len(states), elapsed)
    assert len(states) < 2 * cycles
    assert not states[-1]["table"]["seats"][0]["connected"]
    watcher.close()
