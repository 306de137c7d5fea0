"""Hints through the real server (docs/WEB.md, Hints): the seat to move asks, and only its own
connections hear what the hard computer player makes of each legal move; the refusals; a
partner choosing a marriage; a table made without hints."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.web.serving import ALL_OPEN, SEATS, Player, Server, Table
from tests.web.test_server_private import serve_choice

from valtti.coach.reasons import ReasonCode
from valtti.engine import Match, Seat, Variant
from valtti.web.referee.bots import hint_moves

CODES = {str(code) for code in ReasonCode}


#: Seconds a hint may take to come: in the first trick it solves whole deals, and one of those
#: can take the solver ten seconds on a loaded machine (a test of what it says, not its speed).
HINT = 60.0


def hint_of(player: Player, **message: Any) -> dict[str, Any]:
    """Ask for a hint; the hint frame that answers it."""
    player.send({"type": "hint", **message})
    return player.until(lambda f: f["type"] in ("hint", "error"), HINT)


def refusal_of(player: Player, **message: Any) -> str:
    answer = hint_of(player, **message)
    assert answer["type"] == "error", answer
    code: str = answer["code"]
    return code


def assert_hint_for(hint: dict[str, Any], seat: str, legal: list[str], seq: int) -> None:
    """``hint`` names each of ``legal`` once, best first, each with its share of worlds and
    a reason addressed to ``seat``."""
    assert hint["type"] == "hint", hint
    assert hint["seq"] == seq
    moves = hint["moves"]
    assert sorted(m["action"] for m in moves) == sorted(legal)
    if len(moves) == 1 and moves[0]["value"] is None:  # forced: no value, nothing sampled
        (only,) = moves
        assert only["reason"]["code"] == "only" and only["best_share"] is None
        assert only["worlds"] == 0 and only["reason"]["seat"] == seat
        return
    values = [m["value"] for m in moves]
    assert values == sorted(values, reverse=True)
    # Every possible deal where there are no more than its budget, else 16 drawn by weight (a
    # deal drawn twice weighing twice): at most 16 deals, all of them the same for every move.
    assert hint["exact"] or 1 <= hint["deals"] <= 16
    for move in moves:
        assert -2 <= move["value"] <= 2 and 0 <= move["best_share"] <= 1
        assert move["worlds"] == hint["deals"]
        assert move["reason"]["code"] in CODES and move["reason"]["seat"] == seat
        assert move["reason"]["text"]


def test_the_seat_to_move_gets_a_hint_for_each_legal_move_and_nobody_else_hears_it(
    server: Server,
) -> None:
    table = Table.new(server)
    try:
        rng = random.Random(7)
        for _ in range(6):  # the first lead, the follows, the next trick's lead
            seat = table.to_move()
            me = table.players[seat]
            legal = table.latest(seat)["observation"]["legal"]
            hint = hint_of(me, seq=table.seq)
            assert_hint_for(hint, seat, legal, table.seq)
            # Asked again at the same point (no seq: the latest): the same hint, made once.
            assert hint_of(me) == hint
            table.play(rng)
        # Nobody else heard one: each other connection's frames, up to a pong, hold none.
        for player in table.everyone:
            player.send({"type": "ping"})
            player.until(lambda f: f["type"] == "pong")
        hints = {s: sum(f["type"] == "hint" for f in p.frames) for s, p in table.players.items()}
        assert sum(hints.values()) == 12
        assert not any(f["type"] == "hint" for f in table.spectator.frames)
    finally:
        table.close()


def test_asking_and_playing_at_once_piles_up_no_hints_and_no_errors(server: Server) -> None:
    table = Table.new(server)
    try:
        rng = random.Random(11)
        for _ in range(5):  # each hint dropped or sent late: the point has moved on
            table.players[table.to_move()].send({"type": "hint", "seq": table.seq})
            table.play(rng)
        seat = table.to_move()
        me = table.players[seat]
        me.send({"type": "hint", "seq": table.seq})
        hint = me.until(
            lambda f: f["type"] == "error" or (f["type"] == "hint" and f["seq"] == table.seq),
            HINT,
        )
        assert_hint_for(hint, seat, table.latest(seat)["observation"]["legal"], table.seq)
        for player in table.everyone:
            player.send({"type": "ping"})
            player.until(lambda f: f["type"] == "pong")
            assert not [f for f in player.frames if f["type"] == "error"]
            late = [f for f in player.frames if f["type"] == "hint"]
            assert all(f["seq"] < table.seq for f in late if f is not hint)
    finally:
        table.close()


def test_hints_are_refused_to_spectators_out_of_turn_and_on_a_stale_seq(server: Server) -> None:
    table = Table.new(server)
    try:
        seat = table.to_move()
        other = SEATS[(SEATS.index(seat) + 1) % 4]
        assert refusal_of(table.spectator) == "not_seated"
        assert refusal_of(table.players[other]) == "not_your_turn"
        assert refusal_of(table.players[seat], seq=table.seq + 3) == "stale"
        assert refusal_of(table.players[seat], seq="now") == "bad_message"
        # Refusals change nothing: the seat to move plays on.
        table.play(random.Random(3))
    finally:
        table.close()


def test_a_table_made_without_hints_gives_none(server: Server) -> None:
    created = server.create(ALL_OPEN, hints=False)
    tokens = {s: server.join(created["id"], s, f"player {s}") for s in SEATS}
    table = Table(server, created["id"], tokens)
    try:
        assert table.spectator.frames[-1]["table"]["hints"] is False
        assert server.http.get(f"/api/tables/{table.id}").json()["hints"] is False
        assert refusal_of(table.players[table.to_move()]) == "no_hints"
    finally:
        table.close()
    assert server.create(ALL_OPEN)["id"]
    answer = server.http.post("/api/tables", json={"seats": ALL_OPEN, "hints": "yes"})
    assert answer.status_code == 400 and answer.json()["error"] == "bad_request"


def test_the_partner_choosing_a_marriage_gets_a_hint_and_the_asker_waits(
    tmp_path: Path, start_server: Callable[..., Server]
) -> None:
    server, tokens = serve_choice(tmp_path, start_server)
    table = Table(server, "choice", tokens)
    try:
        assert table.seq == 4 and table.to_move() == "E"
        table.players["E"].send({"type": "action", "action": "ask-whole", "seq": 4})
        choosing = table.players["W"].state(5)
        assert choosing["observation"]["legal"] == ["answer H", "answer C"]
        assert_hint_for(hint_of(table.players["W"], seq=5), "W", ["answer H", "answer C"], 5)
        # The asker has asked: no hint for it until the answer; the others see E to move.
        assert refusal_of(table.players["E"], seq=4) == "not_your_turn"
        assert refusal_of(table.players["N"], seq=4) == "not_your_turn"
    finally:
        table.close()


def test_a_hint_is_the_positions_own_and_a_forced_moves_has_nothing_weighed() -> None:
    """``hint_moves`` takes the observation alone (its deals are seeded from the position):
    the same position, the same hint; the only legal move has no value, share or error."""
    match = Match(Variant(), Seat.N)
    deal = match.start_deal(rng=random.Random(5))
    for _ in range(5):
        match.apply(deal.legal_actions()[0])
    observation = match.observation(deal.current_player)
    hint = hint_moves(observation)
    assert hint == hint_moves(observation)
    assert_hint_for(
        {"type": "hint", "seq": 0, **hint},
        str(observation.seat),
        [str(a) for a in observation.legal_actions],
        0,
    )
    while len(deal.legal_actions()) > 1 or deal.legal_actions()[0].kind.name != "PLAY":
        match.apply(deal.legal_actions()[0])
    forced = match.observation(deal.current_player)
    nothing = hint_moves(forced)
    (only,) = nothing["moves"]
    assert only["value"] is None and only["best_share"] is None and only["error"] is None
    assert only["worlds"] == 0 and only["reason"]["code"] == "only"
    assert (nothing["deals"], nothing["possible"], nothing["exact"]) == (0, 0, False)
