"""The OpenAPI schema the server serves (``GET /api/openapi.json``) and docs/WEB.md's table of
HTTP routes say the same: each route the table lists is in the schema with its method, or is
one of the few the schema leaves out on purpose (``NOT_IN_SCHEMA``: the pages, the static
files, the schema itself), which the application serves all the same; each operation of the
schema is in the table; and each answer whose fields the table (or its summary) names has
those fields in that order in its response model."""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

import pytest
from starlette.routing import Match

from valtti.web.app import OPENAPI_URL, create_app

with warnings.catch_warnings():
    # Starlette would rather its client were httpx2's (not installed): httpx's works the same.
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

WEB_MD = Path(__file__).resolve().parents[2] / "docs" / "WEB.md"

#: Routes docs/WEB.md lists that are no part of the API's schema, each with why.
NOT_IN_SCHEMA = {
    ("GET", "/"): "a page",
    ("GET", "/t/{}"): "a page",
    ("GET", "/rules"): "a page",
    ("GET", "/static/…"): "the pages' files",
    ("GET", "/api/openapi.json"): "the schema itself",
}

_ROW = re.compile(r"^\| `(?P<method>[A-Z]+) (?P<path>[^`?]+)(?:\?[^`]*)?` \|(?P<rest>.*)$", re.M)


def normal(path: str) -> str:
    """A path with each parameter written ``{}``: docs/WEB.md's ``{id}`` is the route's
    ``{table_id}``."""
    return re.sub(r"\{[^}]*\}", "{}", path)


def documented() -> dict[tuple[str, str], str]:
    """The rows of docs/WEB.md's table of HTTP routes: (method, path) → the answer column."""
    text = WEB_MD.read_text("utf-8")
    section = text[text.index("\n## HTTP\n") : text.index("\n## WebSocket")]
    rows = {}
    for row in _ROW.finditer(section):
        answer = row["rest"].rsplit(" | ", 1)[-1]
        rows[row["method"], normal(row["path"])] = answer
    assert len(rows) >= 10, "docs/WEB.md's table of HTTP routes was not found"
    return rows


def top_level_keys(text: str) -> list[str]:
    """The keys of the first JSON-like object of ``text`` as docs/WEB.md writes one:
    ``{"id", "seats": [{"seat", …}], "score": {"NS", "EW"}}`` → id, seats, score."""
    start = text.index('{"')
    keys, depth = [], 0
    for found in re.finditer(r'[{}\[\]]|"(\w+)"', text[start:]):
        token = found.group()
        if token in "{[":
            depth += 1
        elif token in "}]":
            depth -= 1
            if depth == 0:
                break
        elif depth == 1:
            before = text[start : start + found.start()].rstrip()
            if before.endswith(("{", ",")):  # a key: not a value after ":" or "|"
                keys.append(found.group(1))
    return keys


@pytest.fixture(scope="module")
def client() -> TestClient:
    """The application, not started (the schema needs no database)."""
    return TestClient(create_app("sqlite://"), base_url="http://127.0.0.1:8000")


@pytest.fixture(scope="module")
def schema(client: TestClient) -> dict[str, Any]:
    answer = client.get(OPENAPI_URL)
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/json"
    served: dict[str, Any] = answer.json()
    return served


def operations(schema: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (method.upper(), normal(path)): operation
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
    }


def test_the_schema_is_served_at_its_documented_place() -> None:
    assert ("GET", OPENAPI_URL) in documented()


def test_each_documented_route_is_in_the_schema(schema: dict[str, Any]) -> None:
    missing = set(documented()) - set(NOT_IN_SCHEMA) - set(operations(schema))
    assert not missing, f"docs/WEB.md lists routes the schema lacks: {sorted(missing)}"


def test_each_route_of_the_schema_is_documented(schema: dict[str, Any]) -> None:
    undocumented = set(operations(schema)) - set(documented())
    assert not undocumented, f"routes docs/WEB.md does not list: {sorted(undocumented)}"


def test_the_routes_left_out_of_the_schema_are_served(client: TestClient) -> None:
    rows = documented()
    for method, path in NOT_IN_SCHEMA:
        assert (method, path) in rows, f"{method} {path} is not in docs/WEB.md any more"
        concrete = path.replace("{}", "x").replace("…", "lobby.js")
        scope = {"type": "http", "method": method, "path": concrete, "root_path": ""}
        assert any(route.matches(scope)[0] is Match.FULL for route in client.app.router.routes), (
            f"{method} {path}: no route"
        )
        if "{}" not in path:
            assert client.request(method, concrete).status_code == 200, path


def test_each_get_is_one_operation_and_refusals_are_the_servers(schema: dict[str, Any]) -> None:
    """A GET route takes HEAD (docs/WEB.md), shown once; a refused request is a
    ``Refusal``, never FastAPI's 422 (which this server never answers)."""
    for (method, path), operation in operations(schema).items():
        assert method != "HEAD", path
        assert "422" not in operation["responses"], (method, path)
        for status, response in operation["responses"].items():
            if status.startswith("4"):
                assert response["content"]["application/json"]["schema"] == {
                    "$ref": "#/components/schemas/Refusal"
                }


def answer_model(schema: dict[str, Any], operation: dict[str, Any]) -> dict[str, Any]:
    responses = operation["responses"]
    ok = responses.get("200") or responses["201"]
    reference = ok["content"]["application/json"]["schema"]["$ref"]
    model: dict[str, Any] = schema["components"]["schemas"][reference.rsplit("/", 1)[1]]
    return model


def test_each_answer_has_the_documented_fields_in_order(schema: dict[str, Any]) -> None:
    ops = operations(schema)
    checked = 0
    for route, answer in documented().items():
        if route in NOT_IN_SCHEMA or '{"' not in answer:
            continue  # a page, or an answer whose fields it does not name
        fields = list(answer_model(schema, ops[route])["properties"])
        assert fields == top_level_keys(answer), route
        checked += 1
    assert checked >= 5


def test_a_summary_has_the_documented_fields_in_order(schema: dict[str, Any]) -> None:
    text = WEB_MD.read_text("utf-8")
    summary = text[text.index("A **summary** is") :]
    keys = top_level_keys(summary)
    ops = operations(schema)
    assert list(answer_model(schema, ops["GET", "/api/tables/{}"])["properties"]) == keys
    listed = schema["components"]["schemas"]["ListedTable"]["properties"]
    assert list(listed) == [*keys, "idle"]  # "one more field, "idle""
    seat = top_level_keys(summary[summary.index('"seats": [') + 10 :])
    person = schema["components"]["schemas"]["PersonSeat"]["properties"]
    other = schema["components"]["schemas"]["OtherSeat"]["properties"]
    assert list(person) == seat and list(other) == seat[:-1] == [k for k in seat if k != "stand_in"]
