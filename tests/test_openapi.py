"""The OpenAPI document says what the server does: every success answer's fields, every error status, the real
error body, and the links that let a fuzzer play games; schemathesis (every check, the stateful phase included)
finds no failure."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from pydantic import TypeAdapter

from foursquare import record
from foursquare.cards import deal_stock
from foursquare.engine import Game
from foursquare.web import create_app
from foursquare.web.errors import ERROR_CODES
from foursquare.web.models import StockRecord
from foursquare.web.openapi import ErrorBody
from foursquare.web.routes import account, analysis, daily, docs, games, languages, lesson, offline, page, pwa, stats
from foursquare.web.views import record_answer
from test_accounts import Authenticator
from test_api import WINS
from test_server_process import serving
from web_support import as_player

FUZZ_SEED = 11
FUZZ_EXAMPLES = 25  # per operation and phase: a run takes about a minute on two cores
FUZZ_PLAYER = "schemathesis-fuzz-player"

STATEFUL = """
[phases.stateful]
max-steps = 12
[phases.stateful.generation]
max-examples = 100

# Whether a cell is legal depends on the game, which no schema can say: a well-formed move to a cell the rules
# refuse is 422 illegal_move (any other 422 of this operation is still a failure of the check's spirit, and
# test_errors_answer_the_documented_shape_and_code pins the codes).
[[operations]]
include-name = "POST /api/games/{game_id}/moves"
checks.positive_data_acceptance.expected-statuses = ["200", "403", "404", "409", "422"]

# Likewise whether a record is a game: a well-formed object that the engine cannot replay is 422 bad_record.
[[operations]]
include-name = "POST /api/offline-games"
checks.positive_data_acceptance.expected-statuses = ["200", "201", "403", "409", "422", "429"]
"""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.db")) as client:
        as_player(client)
        yield client


@pytest.fixture
def document(client: TestClient) -> dict[str, Any]:
    document: dict[str, Any] = client.get("/openapi.json").json()
    return document


def operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            yield method, path, operation


def codes_of(document: dict[str, Any], path: str, method: str, status: int) -> list[str]:
    """The error codes the document allows for ``status`` of the operation."""
    schema = document["paths"][path][method]["responses"][str(status)]["content"]["application/json"]["schema"]
    assert schema["allOf"][0] == {"$ref": "#/components/schemas/Error"}
    codes: list[str] = schema["allOf"][1]["properties"]["code"]["enum"]
    return codes


def test_every_operation_documents_its_errors_with_the_real_error_body(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    assert "HTTPValidationError" not in schemas and "ValidationError" not in schemas
    assert schemas["Error"]["required"] == ["detail", "code"]
    assert schemas["Error"]["properties"]["code"]["enum"] == list(ERROR_CODES)
    for method, path, operation in operations(document):
        statuses = set(operation["responses"])
        assert {"400", "413"} <= statuses, (method, path)
        # Only an operation on a game, or a new game "like" another, names a game that may not exist (and the
        # catalogue of a language, a language that may not be ours; the results of a date, text that is no date;
        # a passkey or a session of the account, which it may not have).
        names = (("post", "/api/games"), ("get", "/api/messages/{code}"), ("get", "/api/daily/{day}/results"))
        names_one = any(part in path for part in ("{game_id}", "{passkey_id}", "{handle}")) or (method, path) in names
        assert ("404" in statuses) == names_one, (method, path)
        for status in statuses - {"200", "201", "304"}:  # 304: a catalogue's ETag is current (no body)
            assert set(codes_of(document, path, method, int(status))) <= set(ERROR_CODES)
    moves = document["paths"]["/api/games/{game_id}/moves"]["post"]["responses"]
    assert set(moves) == {"200", "400", "403", "404", "409", "413", "422", "429", "503"}
    assert codes_of(document, "/api/games/{game_id}/moves", "post", 503) == ["database_unavailable"]
    hint_unavailable = ["not_available", "busy", "database_unavailable"]
    assert codes_of(document, "/api/games/{game_id}/hint", "get", 503) == hint_unavailable
    assert "503" not in document["paths"]["/api/messages/{code}"]["get"]["responses"]  # no database there
    assert set(codes_of(document, "/api/games/{game_id}/moves", "post", 422)) == {"bad_request", "illegal_move"}
    assert set(document["paths"]["/api/games/{game_id}/hint"]["get"]["responses"]) >= {"409", "503"}
    assert "422" not in document["paths"]["/api/stats"]["get"]["responses"]  # nothing to get wrong
    assert codes_of(document, "/api/messages/{code}", "get", 404) == ["unknown_language", "not_found"]


# --- success answers ---------------------------------------------------------------------------------------------

TYPED = ("type", "$ref", "anyOf", "oneOf", "allOf", "const", "enum")
"""A schema with none of these keys says nothing of its value (``{}``, or a bare description)."""


def subschemas(document: dict[str, Any], schema: dict[str, Any], seen: set[str]) -> Iterator[dict[str, Any]]:
    """``schema`` and every schema inside it, ``$ref``s followed (each component once)."""
    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/components/schemas/")
        if name not in seen:
            seen.add(name)
            yield from subschemas(document, document["components"]["schemas"][name], seen)
        return
    yield schema
    inner = [*schema.get("anyOf", []), *schema.get("prefixItems", []), *schema.get("properties", {}).values()]
    inner += [schema[key] for key in ("items", "additionalProperties") if isinstance(schema.get(key), dict)]
    for part in inner:
        yield from subschemas(document, part, seen)


def test_every_success_answer_has_a_schema_of_every_field(document: dict[str, Any]) -> None:
    for method, path, operation in operations(document):
        successes = [response for status, response in operation["responses"].items() if status.startswith("2")]
        assert successes, (method, path)
        for response in successes:
            top = response["content"]["application/json"]["schema"]
            for schema in subschemas(document, top, set()):
                assert any(key in schema for key in TYPED), (method, path, schema)
                if schema.get("type") != "object":
                    continue
                properties = schema.get("properties")
                if properties is None:  # a map (the catalogue's messages): its values typed
                    assert isinstance(schema.get("additionalProperties"), dict) and schema["additionalProperties"]
                    continue
                # A closed object: every key always sent, described, and no other key.
                assert schema["additionalProperties"] is False, (method, path, schema["title"])
                assert schema["required"] == list(properties), (method, path, schema["title"])
                for name, field in properties.items():
                    assert field.get("description"), (method, path, schema["title"], name)


def every_answer(client: TestClient) -> dict[tuple[str, str], list[httpx.Response]]:
    """A success answer of every operation, or several, by (method, path): a game won, another played on."""
    answers: dict[tuple[str, str], list[httpx.Response]] = {}

    def ask(method: str, path: str, url: str, body: Any = None) -> dict[str, Any]:
        response = client.request(method, url, json=body)
        assert response.is_success, (url, response.text)
        answers.setdefault((method, path), []).append(response)
        answer: dict[str, Any] = response.json()
        return answer

    ask("get", "/api/lesson", "/api/lesson")
    won = ask("post", "/api/games", "/api/games", {"deal": 1})
    game_id = won["id"]
    for row, col in WINS[1][1]:
        body = {"row": row, "col": col, "turn": won["turn"]}
        won = ask("post", "/api/games/{game_id}/moves", f"/api/games/{game_id}/moves", body)
    offline = {"id": "a-device-named-this-game", "record": {"format": "foursquare-game", "version": 1, "deal": 2,
                                                             "moves": [[0, 0], [0, 1]]}}  # fmt: skip
    ask("post", "/api/offline-games", "/api/offline-games", offline)
    ask("post", "/api/offline-games", "/api/offline-games", offline)  # 200: the same game
    live = ask("post", "/api/games", "/api/games", {"daily": True})
    ask("post", "/api/games", "/api/games", {"daily": True})  # 200: the same game
    ask("post", "/api/games/{game_id}/moves", f"/api/games/{live['id']}/moves", {"row": 0, "col": 0, "turn": 0})
    for action in ("undo", "redo", "restart"):
        ask("post", f"/api/games/{{game_id}}/{action}", f"/api/games/{live['id']}/{action}")
    for game in (won["id"], live["id"]):
        ask("get", "/api/games/{game_id}", f"/api/games/{game}")
    ask("get", "/api/games/{game_id}/hint", f"/api/games/{live['id']}/hint")
    for asked in ("record", "replay", "replay?turn=0", "replay?turn=2", "analysis"):
        ask("get", f"/api/games/{{game_id}}/{asked.split('?')[0]}", f"/api/games/{game_id}/{asked}")
    for asked in ("games", "games?page=2&per_page=1", "stats", "languages", "messages/hr", "messages/bn-BD"):
        template = "/api/messages/{code}" if asked.startswith("messages") else f"/api/{asked.split('?')[0]}"
        ask("get", template, f"/api/{asked}")
    state = client.get(f"/api/games/{live['id']}").json()
    while state["outcome"] == "playing":  # today's results are open once one's own daily game is over
        (row, col), *_ = state["legal"]
        body = {"row": row, "col": col, "turn": state["turn"]}
        state = client.post(f"/api/games/{live['id']}/moves", json=body).json()
    for day in (live["daily"], "2020-01-01"):
        ask("get", "/api/daily/{day}/results", f"/api/daily/{day}/results")
    # The account: anonymous, then with a passkey, signed out, signed in again, and deleted.
    key = Authenticator()
    for path in ("/api/account", "/api/account/export"):
        ask("get", path, path)
    options = ask("post", "/api/account/passkeys/options", "/api/account/passkeys/options")
    ask("post", "/api/account/passkeys", "/api/account/passkeys", key.create(options))
    for path in ("/api/account", "/api/account/export"):
        ask("get", path, path)
    ask("post", "/api/account/sign-out", "/api/account/sign-out")
    options = ask("post", "/api/account/sign-in/options", "/api/account/sign-in/options")
    ask("post", "/api/account/sign-in", "/api/account/sign-in", key.get(options))
    # The owner's controls: name and remove the passkey, list the sessions, end another one, end all others.
    passkey = f"/api/account/credentials/{ask('get', '/api/account', '/api/account')['passkeys'][0]['id']}"
    ask("patch", "/api/account/credentials/{passkey_id}", passkey, {"name": "Phone"})
    other = as_player(TestClient(client.app))  # a second device (the app is running already: no lifespan)
    options = other.post("/api/account/sign-in/options").json()
    assert other.post("/api/account/sign-in", json=key.get(options)).is_success
    handles = [s["handle"] for s in ask("get", "/api/account/sessions", "/api/account/sessions")["sessions"]]
    mine = next(s["handle"] for s in client.get("/api/account/sessions").json()["sessions"] if s["current"])
    (theirs,) = set(handles) - {mine}
    ask("delete", "/api/account/sessions/{handle}", f"/api/account/sessions/{theirs}")
    ask("post", "/api/account/sign-out-everywhere", "/api/account/sign-out-everywhere")
    ask("delete", "/api/account/credentials/{passkey_id}", f"{passkey}?confirm=true")
    ask("post", "/api/account/delete", "/api/account/delete", {"confirm": True})
    return answers


ROUTERS = (
    games.router, analysis.router, stats.router, languages.router, page.router, pwa.router, docs.router, daily.router,
    account.router, lesson.router, offline.router,
)  # fmt: skip


@pytest.mark.slow  # its pool's worker computes a whole analysis (the solver compiled from cold: minutes)
def test_every_answer_is_exactly_its_model(client: TestClient, document: dict[str, Any]) -> None:
    """Each route's model reads its real answers and writes them back the same: no key more or less, no value
    changed — the document, generated from the models, describes what is sent."""
    routes = [route for router in ROUTERS for route in router.routes if isinstance(route, APIRoute)]
    models = {
        (method.lower(), route.path): route.response_model
        for route in routes
        if route.include_in_schema
        for method in route.methods
    }
    answers = every_answer(client)
    assert set(answers) == {(method, path) for method, path, _ in operations(document)} == set(models)
    for operation, responses in answers.items():
        assert models[operation] is not None, operation
        adapter: TypeAdapter[Any] = TypeAdapter(models[operation])
        for response in responses:
            answer = adapter.validate_json(response.content, strict=True)
            assert adapter.dump_json(answer) == response.content, operation


def test_the_record_of_a_game_of_a_given_stock_gives_the_stock() -> None:
    game = Game(stock=deal_stock(7))
    while not game.is_over():
        game.place(game.legal_moves[0].row, game.legal_moves[0].col)
    answer = record_answer(game)
    assert isinstance(answer.root, StockRecord)
    assert json.loads(answer.model_dump_json()) == record.to_json(game)


def test_errors_answer_the_documented_shape_and_code(client: TestClient, document: dict[str, Any]) -> None:
    game = client.post("/api/games", json={"deal": 1}).json()
    moves = f"/api/games/{game['id']}/moves"
    not_json = {"content": b"\xff\xfe", "headers": {"content-type": "application/json"}}
    nowhere = {"row": 0, "col": 0, "turn": 0}
    cases = [
        ("post", "/api/games", 422, client.post("/api/games", json={"deal": "1"})),
        ("post", "/api/games", 422, client.post("/api/games", **not_json)),
        ("get", "/api/games", 422, client.get("/api/games?page=0")),
        ("post", "/api/games/{game_id}/moves", 422, client.post(moves, json={"row": 5, "col": 5, "turn": 0})),
        ("post", "/api/games/{game_id}/moves", 409, client.post(moves, json={"row": 0, "col": 0, "turn": 3})),
        ("post", "/api/games/{game_id}/moves", 404, client.post("/api/games/nope/moves", json=nowhere)),
        ("post", "/api/games/{game_id}/undo", 409, client.post(f"/api/games/{game['id']}/undo")),
        ("get", "/api/games/{game_id}/record", 409, client.get(f"/api/games/{game['id']}/record")),
        ("post", "/api/games", 413, client.post("/api/games", content=b"{" + b" " * 70_000 + b"}")),
        ("get", "/api/messages/{code}", 404, client.get("/api/messages/xx")),
        ("get", "/api/daily/{day}/results", 404, client.get("/api/daily/2026-13-01/results")),
        ("get", "/api/daily/{day}/results", 409, client.get("/api/daily/9999-12-31/results")),
    ]  # fmt: skip
    for method, path, status, response in cases:
        assert response.status_code == status, (path, response.text)
        body = ErrorBody.model_validate(response.json())
        assert body.code in codes_of(document, path, method, status), (path, body)


def test_a_whole_number_written_as_a_float_is_that_integer(client: TestClient) -> None:
    # JSON Schema's "integer" includes 231268.0, so the server accepts it: what the document says is valid is.
    response = client.post("/api/games", json={"deal": 231268.0})
    assert (response.status_code, response.json()["deal"]) == (201, 231268)
    game = client.post("/api/games", json={"deal": 1}).json()
    moved = client.post(f"/api/games/{game['id']}/moves", json={"row": 0.0, "col": 0e0, "turn": 0.0})
    assert (moved.status_code, moved.json()["turn"]) == (200, 1)
    for bad in (1.5, True, "1", 2.0**64):
        response = client.post("/api/games", json={"deal": bad})
        assert (response.status_code, response.json()["code"]) == (422, "bad_request"), bad


def test_the_deal_bound_is_exact_in_the_document(client: TestClient) -> None:
    # FastAPI writes bounds as floats; 1.8446744073709552e+19 would read, in decimal, as a bound above 2**64.
    text = client.get("/openapi.json").text
    assert '"exclusiveMaximum":18446744073709551616' in text.replace(" ", "")
    assert "e+19" not in text


def test_a_game_links_to_the_operations_on_it(document: dict[str, Any]) -> None:
    links = document["paths"]["/api/games"]["post"]["responses"]["201"]["links"]
    targets = {link["operationId"] for link in links.values()}
    game_operations = {op["operationId"] for _, path, op in operations(document) if "{game_id}" in path}
    assert targets == game_operations
    move = next(link for link in links.values() if "requestBody" in link)
    assert move["requestBody"]["turn"] == "$response.body#/turn"
    moved = document["paths"]["/api/games/{game_id}/moves"]["post"]["responses"]["200"]["links"]
    assert moved == links  # a game plays on, move after move


def test_a_wrong_method_answers_every_method_of_the_path(client: TestClient) -> None:
    response = client.request("OPTIONS", "/api/games")
    assert response.status_code == 405
    assert response.headers["allow"] == "GET, HEAD, POST"
    assert response.json()["code"] == "method_not_allowed"


SCHEMATHESIS = [sys.executable, "-c", "from schemathesis.cli import schemathesis; schemathesis()"]


@pytest.mark.slow
def test_schemathesis_finds_no_failure(tmp_path: Path) -> None:
    """Every check, every phase (examples, coverage, fuzzing, stateful) against a real server on localhost."""
    pytest.importorskip("schemathesis", reason="schemathesis (the test extra) is not installed")
    config = tmp_path / "schemathesis.toml"
    config.write_text(STATEFUL, encoding="utf-8")
    # The fuzzer is one client and one player sending thousands of requests: the fair-use limits are not under test.
    unlimited = {
        **os.environ,
        "FOURSQUARE_RATE_GAMES": "1000000/minute",
        "FOURSQUARE_RATE_HINTS": "1000000/minute",
        "FOURSQUARE_RATE_ANALYSES": "1000000/minute",
        "FOURSQUARE_RATE_PASSKEYS": "1000000/minute",
        "FOURSQUARE_RATE_EXPORTS": "1000000/minute",
        "FOURSQUARE_RATE_OFFLINE": "1000000/minute",
        "FOURSQUARE_LIVE_GAMES": "1000000",
    }
    with serving(tmp_path / "games.db", env=unlimited) as (url, process):
        run = [
            *SCHEMATHESIS, "--config-file", str(config), "run", f"{url}/openapi.json",
            "--checks", "all", "--phases", "examples,coverage,fuzzing,stateful", "--mode", "all",
            "--max-examples", str(FUZZ_EXAMPLES), "--seed", str(FUZZ_SEED), "--workers", "1",
            # --checks all includes a 10 s response-time limit: a clock that a loaded machine (two clean runs and
            # tools/busy.py at once) beat; only a hang fails, the request's own time-out
            "--request-timeout", "60", "--max-response-time", "60",
            # One player throughout, as a browser keeps its cookie: only a game's player may move in it.
            "--header", f"Cookie: fs_player={FUZZ_PLAYER}",
        ]  # fmt: skip
        result = subprocess.run(run, capture_output=True, text=True, cwd=tmp_path, timeout=600)
        assert process.stdout is not None
        access_log = process.stdout.read()
    assert result.returncode == 0, result.stdout[-20_000:] + result.stderr[-5_000:]
    summary = result.stdout[result.stdout.find("SUMMARY") :]
    assert "✅ Stateful" in summary, summary
    # Only the links know a game's id and its card to place: moves placed prove the stateful phase played.
    placed = len(re.findall(r'"POST /api/games/[\w-]+/moves HTTP/1.1" 200', access_log))
    assert placed > 0, "the stateful phase placed no card: its links did not lead to moves"


@pytest.mark.slow
def test_schemathesis_without_a_cookie_gets_405_for_every_undeclared_method(tmp_path: Path) -> None:
    """A client without the player cookie (a script, another site's page) asking a method no route declares gets
    405 with ``Allow``, not the 403 of a change it could not make."""
    pytest.importorskip("schemathesis", reason="schemathesis (the test extra) is not installed")
    with serving(tmp_path / "games.db") as (url, _):
        run = [
            *SCHEMATHESIS, "run", f"{url}/openapi.json", "--checks", "unsupported_method", "--phases", "coverage",
            "--mode", "negative", "--max-examples", "1", "--seed", str(FUZZ_SEED), "--workers", "1",
        ]  # fmt: skip
        result = subprocess.run(run, capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert result.returncode == 0, result.stdout[-20_000:] + result.stderr[-5_000:]
