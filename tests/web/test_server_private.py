"""What a seat may know beyond its hand (RULES.md 7.2): that a partner asked for a whole
marriage had several to choose from is the partner's alone, and seat tokens stay out of logs."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from tests.web.serving import SEATS, Server, Table
from tests.web.test_server import assert_no_hidden_cards, stored_match

from valtti.engine import Match, Seat, Variant
from valtti.web.room import token_hash
from valtti.web.store import SeatRow, Store, TableRow

#: A deal (dealer N, dealt by random.Random(53)) where, after these actions, E wins a trick
#: and may ask whole, and W holds the marriages of hearts and clubs: W chooses one.
DEAL_SEED = 53
BEFORE_ASK = ("AS", "9S", "AC", "KS")


def stored_table(url: str, actions: tuple[str, ...]) -> dict[str, str]:
    """Store table "choice" of four people at that deal, with ``actions`` played; the
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
            ),
            [SeatRow(s, "human", f"player {s}", token_hash(tokens[str(s)])) for s in Seat],
        )
        store.add_deal("choice", 1, Seat.N, match.deal.initial_hands)
        for index, token in enumerate(actions):
            store.add_action("choice", 1, index, token)
    finally:
        store.close()
    return tokens


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
        table = Table(server, "choice", tokens)  # everyone connected, before the question
        assert table.seq == 4 and table.to_move() == "E"
        table.close()
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
    # Acting now is refused without naming who is to move.
    people["E"].send({"type": "action", "action": "AS"})
    refused = people["E"].error()
    assert refused["code"] == "not_your_turn" and "W" not in refused["message"]
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
    url = f"sqlite:///{tmp_path / 'valtti.db'}"
    tokens = stored_table(url, BEFORE_ASK)
    server = start_server(url)
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
