"""The fields of protocol.js's JSDoc types are the server's, both ways.

protocol.js types what the pages read and send (its typedefs, which ``npm run check`` holds the
pages to); the server has them as Pydantic models (the client's messages, ``messages.py``; the
HTTP answers, ``answers.py``) and writes its frames. Each typedef is read here and held to:
- each client message's model, by its ``type``: the same fields, optional where the model has a
  default;
- each HTTP answer's model (or the models of a union): the same fields, optional where some model
  lacks the field or has a default;
- every frame the server writes in a real game (the application in this process, four people, a
  turn clock, a whole deal, chat, a refused action, a hint, a seat taken on another device):
  no field the typedef lacks, none it requires missing, and so on down every nested typedef.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel
from tests.web.serving import ALL_OPEN, SEATS, App, Player, Table

from valtti.web import answers, messages

PROTOCOL = Path(__file__).resolve().parents[2] / "src" / "valtti" / "web" / "static" / "protocol.js"


@dataclass
class Shape:
    """A JSDoc object type: its fields (name → (type, optional)); ``open`` if it has an index
    signature (any key)."""

    fields: dict[str, tuple[str, bool]] = field(default_factory=dict)
    open: bool = False

    def required(self) -> set[str]:
        return {name for name, (_type, optional) in self.fields.items() if not optional}


def _braced(text: str, start: int) -> tuple[str, int]:
    """The text inside the braces opening at ``start``, and the index after the closing one."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return text[start + 1 : i], i + 1
    raise ValueError(f"unbalanced braces from {text[start : start + 40]!r}")


def _top_level(text: str, separator: str) -> list[str]:
    """``text`` split at ``separator`` outside brackets of any kind."""
    parts, depth, current = [], 0, ""
    for char in text:
        depth += {"{": 1, "(": 1, "[": 1, "<": 1, "}": -1, ")": -1, "]": -1, ">": -1}.get(char, 0)
        if char == separator and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return [p.strip() for p in [*parts, current] if p.strip()]


def _literal(body: str) -> Shape:
    """An object literal type's shape (``{a: T, b?: U, [k: string]: V}``)."""
    shape = Shape()
    for member in _top_level(body, ","):
        name, _colon, kind = member.partition(":") if not member.startswith("[") else ("", "", "")
        if not name:
            shape.open = True
            continue
        shape.fields[name.strip().rstrip("?")] = (kind.strip(), name.strip().endswith("?"))
    return shape


def typedefs(text: str) -> dict[str, Shape]:
    """Every object typedef of a JSDoc-typed file, by name."""
    shapes: dict[str, Shape] = {}
    for comment in re.findall(r"/\*\*(.*?)\*/", text, re.S):
        body = re.sub(r"^\s*\* ?", "", comment, flags=re.M)
        at = body.find("@typedef {")
        if at < 0:
            continue
        kind, after = _braced(body, at + len("@typedef "))
        name = body[after:].split()[0]
        if kind == "object":
            shape = Shape()
            rest = body[after:]
            for match in re.finditer(r"@property \{", rest):
                declared, end = _braced(rest, match.end() - 1)
                words = rest[end:].split()
                optional = words[0].startswith("[")
                shape.fields[words[0].strip("[]")] = (declared, optional)
            shapes[name] = shape
        elif kind.startswith("{") and kind.endswith("}"):
            shapes[name] = _literal(kind[1:-1])
    return shapes


@pytest.fixture(scope="module")
def js() -> dict[str, Shape]:
    return typedefs(PROTOCOL.read_text("utf-8"))


def _held_to_models(shape: Shape, models: list[type[BaseModel]]) -> None:
    names = set().union(*(m.model_fields for m in models))
    assert set(shape.fields) == names, (sorted(shape.fields), sorted(names))
    for name, (_type, optional) in shape.fields.items():
        everywhere = all(
            name in m.model_fields and m.model_fields[name].is_required() for m in models
        )
        assert optional != everywhere, f"{name}: optional in protocol.js is {optional}"


def test_the_typedefs_are_read(js: dict[str, Shape]) -> None:
    assert js["StateFrame"].fields["clock"] == ("Clock | null", False)
    assert js["ErrorFrame"].fields["legal"] == ("string[]", True)
    assert js["ActionMessage"].fields["seq"] == ("number", True)
    assert js["Options"].fields["variant"][0].startswith("{name: string")
    assert js["VariantChanges"].open
    with pytest.raises(AssertionError):
        _held_to_models(Shape({"type": ("", False)}), [messages.ActionMessage])


MESSAGE_MODELS = [
    messages.ActionMessage,
    messages.ReplaceMessage,
    messages.StandInMessage,
    messages.BackMessage,
    messages.ReadyMessage,
    messages.ChatMessage,
    messages.HintMessage,
    messages.PingMessage,
]


@pytest.mark.parametrize("model", MESSAGE_MODELS, ids=lambda m: m.__name__)
def test_each_message_is_the_servers_model(js: dict[str, Shape], model: type[BaseModel]) -> None:
    _held_to_models(js[model.__name__], [model])


def test_every_message_model_is_typed(js: dict[str, Shape]) -> None:
    typed = {n for n, s in js.items() if n.endswith("Message") and "type" in s.fields}
    assert typed == {m.__name__ for m in MESSAGE_MODELS}


@pytest.mark.parametrize(
    ("name", "models"),
    [
        ("TableSummary", [answers.TableSummary, answers.ListedTable]),
        ("SeatEntry", [answers.PersonSeat, answers.OtherSeat]),
        ("ReplayStep", [answers.ReplayStep]),
        ("Options", [answers.Options]),
    ],
)
def test_each_answer_is_the_servers_model(
    js: dict[str, Shape], name: str, models: list[type[BaseModel]]
) -> None:
    _held_to_models(js[name], models)


# -- the frames of a real game ------------------------------------------------------------------


def _named(declared: str, shapes: dict[str, Shape]) -> tuple[str | None, bool]:
    """The typedef a field's type names (``Clock | null``, ``Trick[]``), and whether a list."""
    kinds = [k for k in _top_level(declared, "|") if k != "null"]
    if len(kinds) != 1:
        return None, False
    (kind,) = kinds
    listed = kind.endswith("[]")
    kind = kind.removesuffix("[]")
    return (kind if kind in shapes else None), listed


def unlike(value: dict[str, Any], name: str, shapes: dict[str, Shape], at: str) -> list[str]:
    """Where ``value`` is not of the typedef ``name``: fields it lacks or that the typedef
    does not declare, here and in every nested typedef."""
    shape = shapes[name]
    problems = [
        f"{at}.{k}: not in {name}" for k in value if k not in shape.fields and not shape.open
    ]
    problems += [f"{at}.{k}: {name} requires it" for k in sorted(shape.required() - set(value))]
    for key, item in value.items():
        if key not in shape.fields or item is None:
            continue
        inner, listed = _named(shape.fields[key][0], shapes)
        if inner is None:
            continue
        for i, each in enumerate(item if listed else [item]):
            problems += unlike(each, inner, shapes, f"{at}.{key}" + (f"[{i}]" if listed else ""))
    return problems


FRAME_TYPEDEFS = {
    "state": "StateFrame",
    "error": "ErrorFrame",
    "chat": "ChatFrame",
    "chat_history": "ChatHistoryFrame",
    "hint": "HintFrame",
    "pong": "PongFrame",
    "seat_elsewhere": "SeatElsewhereFrame",
}


def _a_game(site: App) -> list[dict[str, Any]]:
    """Every frame of a game: four people with a turn clock play a whole deal, chat, are
    refused an action, ask for a hint, ping, and one opens their seat on another device."""
    created = site.create(ALL_OPEN, turn_seconds=600)
    tokens = {s: site.join(created["id"], s, f"player {s}") for s in SEATS}
    table = Table(site, created["id"], tokens)
    north = table.players["N"]
    north.send({"type": "chat", "text": "hei"})
    north.send({"type": "chat", "emote": "thanks"})
    north.until(lambda f: f["type"] == "chat" and "emote" in f)
    north.send({"type": "ping"})
    north.until(lambda f: f["type"] == "pong")
    mover = table.players[table.to_move()]
    mover.send({"type": "action", "action": "ask-half", "seq": table.seq})  # not legal now
    mover.error()
    rng = random.Random(5)
    while len(table.latest("N")["deals"]) < 2:  # the first deal scored, the next dealt
        table.play(rng)
    asking = table.players[table.to_move()]
    asking.send({"type": "hint", "seq": table.seq})
    asking.until(lambda f: f["type"] in ("hint", "error"), 120.0)
    late: Player = site.socket(created["id"], tokens["E"])  # E's seat opened elsewhere
    late.until(lambda f: f["type"] == "chat_history")
    table.players["E"].until(lambda f: f["type"] == "seat_elsewhere")
    frames = [f for p in [*table.everyone, late] for f in p.frames]
    table.close()
    late.close()
    return frames


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    site = App(f"sqlite:///{tmp_path_factory.mktemp('fields') / 'valtti.db'}").start()
    try:
        return _a_game(site)
    finally:
        site.stop()


def test_every_frame_type_came(game: list[dict[str, Any]]) -> None:
    assert {f["type"] for f in game} == set(FRAME_TYPEDEFS)
    states = [f for f in game if f["type"] == "state"]
    assert any(f["clock"] for f in states) and any(f["last_trick"] for f in states)
    assert any(len(f["deals"]) == 2 for f in states)
    assert any("refusal" in f for f in game if f["type"] == "error")


def test_every_frame_has_the_fields_of_its_typedef(
    js: dict[str, Shape], game: list[dict[str, Any]]
) -> None:
    problems: set[str] = set()
    for frame in game:
        problems.update(unlike(frame, FRAME_TYPEDEFS[frame["type"]], js, frame["type"]))
    assert not problems, sorted(problems)


def test_a_field_out_of_its_typedef_is_found(js: dict[str, Shape]) -> None:
    frame = {"type": "chat", "seat": "N", "name": "Aino", "at": 1, "colour": "red"}
    assert unlike(frame, "ChatFrame", js, "chat") == ["chat.colour: not in ChatFrame"]
    history = {"type": "chat_history", "messages": [{"type": "chat", "seat": None}]}
    assert unlike(history, "ChatHistoryFrame", js, "h") == [
        "h.messages[0].at: ChatFrame requires it",
        "h.messages[0].name: ChatFrame requires it",
    ]
