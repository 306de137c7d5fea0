"""The pages' protocol constants (static/protocol.js) are the server's own.

The browser pages have no build step, so the WebSocket close codes and the message types they
use are written out in static/protocol.js; this test reads that file and the server's sources
(nothing is imported or started) and checks that they agree:
- each ``CLOSE_*`` code of ``valtti.web`` is in ``CLOSE`` under the same name, and no other;
- ``MESSAGE`` names exactly the client messages ``valtti.web.messages`` reads (``type:
  Literal[...]``);
- each type of ``FRAME`` is a frame the server writes (``"type": "…"`` in a ``valtti.web``
  module, not the load test's client nor the messages' JSON schema), and each such frame is
  in ``FRAME``;
and that no page writes a close code or a message type of its own instead of the constant.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "src" / "valtti" / "web"
STATIC = WEB / "static"
PROTOCOL = STATIC / "protocol.js"

#: Python modules of valtti.web that write no server frame: messages.py's ``"type"`` keys are
#: JSON Schema's.
NOT_THE_SERVER = {"messages.py"}


def js_object(name: str) -> dict[str, str]:
    """The members of ``export const NAME = Object.freeze({...})`` in protocol.js, as text."""
    text = PROTOCOL.read_text("utf-8")
    found = re.search(
        rf"export const {name} = Object\.freeze\(\{{(?P<body>.*?)\}}\);", text, re.DOTALL
    )
    assert found, f"protocol.js has no `export const {name} = Object.freeze({{…}});`"
    body = re.sub(r"/\*.*?\*/|//[^\n]*", "", found["body"], flags=re.DOTALL)
    members = dict(re.findall(r"(\w+):\s*(\d+|\"[^\"]*\")\s*,?", body))
    assert members, f"{name} in protocol.js has no members"
    return {key: value.strip('"') for key, value in members.items()}


def python_sources() -> dict[str, str]:
    """Each Python module of valtti.web (its subpackages too), by its path under web/."""
    return {
        path.relative_to(WEB).as_posix(): path.read_text("utf-8")
        for path in sorted(WEB.rglob("*.py"))
    }


def test_the_close_codes_are_the_servers() -> None:
    codes: dict[str, str] = {}
    for source in python_sources().values():
        for name, value in re.findall(r"^CLOSE_(\w+)\s*(?::\s*Final)?\s*=\s*(\d+)", source, re.M):
            assert codes.setdefault(name, value) == value, f"CLOSE_{name} is defined twice"
    assert codes, "no CLOSE_* constant found in valtti.web"
    assert js_object("CLOSE") == codes


def test_the_message_types_are_the_ones_the_server_reads() -> None:
    messages = python_sources()["messages.py"]
    types = set(re.findall(r"^\s+type:\s*Literal\[\"(\w+)\"\]", messages, re.M))
    assert types, "no message model found in messages.py"
    assert set(js_object("MESSAGE").values()) == types


def test_the_frame_types_are_the_ones_the_server_writes() -> None:
    written: set[str] = set()
    for name, source in python_sources().items():
        if name not in NOT_THE_SERVER:
            # A dict's key or a frame built as text ('{"type":"pong"}'); not ASGI's events.
            written |= set(re.findall(r"\"type\"\s*:\s*\"(\w+)\"", source))
    assert written, "no frame type found in valtti.web"
    assert set(js_object("FRAME").values()) == written


@pytest.mark.parametrize(
    "path", sorted(p for p in STATIC.glob("*.js") if p != PROTOCOL), ids=lambda p: p.name
)
def test_the_pages_use_the_constants(path: Path) -> None:
    """A page sends ``{type: MESSAGE.ACTION, …}`` and compares a close code with ``CLOSE.…``,
    never a literal the server could change alone."""
    code = re.sub(r"/\*.*?\*/|//[^\n]*", "", path.read_text("utf-8"), flags=re.DOTALL)
    types = set(js_object("MESSAGE").values()) | set(js_object("FRAME").values())
    for kind in sorted(types):
        written = re.findall(rf"\btype\s*(?::|===?|!==?)\s*[\"'`]{kind}[\"'`]", code)
        assert not written, f"the message type {kind!r} written out, not its constant"
    for number in js_object("CLOSE").values():
        assert not re.findall(rf"\b{number}\b", code), f"the close code {number} written out"
