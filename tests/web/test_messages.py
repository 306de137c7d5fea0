"""The client's messages as Pydantic models: each form is read, each fault refused with the
code and message of docs/WEB.md."""

from __future__ import annotations

import json

import pytest

from valtti.engine import Seat
from valtti.web.messages import ActionMessage, PingMessage, ReplaceMessage, read_message
from valtti.web.referee.errors import RoomError


def test_messages_are_read_into_their_models() -> None:
    assert read_message('{"type": "action", "action": "AS", "seq": 3}') == ActionMessage(
        type="action", action="AS", seq=3
    )
    assert read_message(b'{"type": "action", "action": "AS"}').seq is None
    assert read_message('{"type": "ping", "extra": 1}') == PingMessage(type="ping")
    replace = read_message(
        json.dumps({"type": "replace", "seat": "e", "player": " Random ", "creator_token": "t"})
    )
    assert isinstance(replace, ReplaceMessage)
    assert (replace.seat, replace.player, replace.creator_token) == (Seat.E, "random", "t")


@pytest.mark.parametrize(
    ("raw", "code", "message"),
    [
        ("{not json", "bad_json", "the message is not valid JSON"),
        (b"\xff\xfe\x00", "bad_json", "the message is not valid JSON"),
        ("[" * 3000 + "]" * 3000, "bad_json", "the message is not valid JSON"),
        ("[1, 2]", "bad_message", "a message is a JSON object with a type"),
        ('{"action": "AS"}', "bad_message", "a message is a JSON object with a type"),
        ('{"type": "dance"}', "bad_message", "unknown message type 'dance'"),
        ('{"type": 5}', "bad_message", "unknown message type 5"),
        ('{"type": "action"}', "bad_message", "action must be an action token"),
        ('{"type": "action", "action": 5}', "bad_message", "action must be an action token"),
        ('{"type": "action", "action": "AS", "seq": "1"}', "bad_message", "seq must be a whole"),
        ('{"type": "action", "action": "AS", "seq": true}', "bad_message", "seq must be a whole"),
        ('{"type": "action", "action": "AS", "seq": 1.5}', "bad_message", "seq must be a whole"),
        ('{"type": "replace", "seat": "N"}', "bad_message", "replace needs seat, player"),
        (
            '{"type": "replace", "seat": "Q", "player": 5, "creator_token": "t"}',
            "bad_message",
            "replace needs seat, player",
        ),
        (
            '{"type": "replace", "seat": "Q", "player": "random", "creator_token": "t"}',
            "bad_seat",
            "not a seat: 'Q'",
        ),
        (
            '{"type": "replace", "seat": "N", "player": "external:sh", "creator_token": "t"}',
            "bad_player",
            "unknown computer player 'external:sh': one of random, beginner, club, heuristic",
        ),
    ],
)
def test_each_fault_is_refused_with_its_code(raw: str | bytes, code: str, message: str) -> None:
    with pytest.raises(RoomError) as refused:
        read_message(raw)
    assert refused.value.code == code and message in refused.value.message
