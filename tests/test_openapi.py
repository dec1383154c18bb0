"""The OpenAPI document says what the server does: every error status, the real error body, and the links
that let a fuzzer play games; schemathesis (every check, the stateful phase included) finds no failure."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from foursquare.web import create_app
from foursquare.web.errors import ERROR_CODES
from foursquare.web.openapi import ErrorBody
from test_server_process import serving

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
"""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.db")) as client:
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
        # catalogue of a language, a language that may not be ours).
        names_one = "{game_id}" in path or (method, path) in (("post", "/api/games"), ("get", "/api/messages/{code}"))
        assert ("404" in statuses) == names_one, (method, path)
        for status in statuses - {"200", "201", "304"}:  # 304: a catalogue's ETag is current (no body)
            assert set(codes_of(document, path, method, int(status))) <= set(ERROR_CODES)
    moves = document["paths"]["/api/games/{game_id}/moves"]["post"]["responses"]
    assert set(moves) == {"200", "400", "403", "404", "409", "413", "422"}
    assert set(codes_of(document, "/api/games/{game_id}/moves", "post", 422)) == {"bad_request", "illegal_move"}
    assert set(document["paths"]["/api/games/{game_id}/hint"]["get"]["responses"]) >= {"409", "503"}
    assert "422" not in document["paths"]["/api/stats"]["get"]["responses"]  # nothing to get wrong
    assert codes_of(document, "/api/messages/{code}", "get", 404) == ["unknown_language", "not_found"]


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
    with serving(tmp_path / "games.db") as (url, process):
        run = [
            *SCHEMATHESIS, "--config-file", str(config), "run", f"{url}/openapi.json",
            "--checks", "all", "--phases", "examples,coverage,fuzzing,stateful", "--mode", "all",
            "--max-examples", str(FUZZ_EXAMPLES), "--seed", str(FUZZ_SEED), "--workers", "1",
            "--request-timeout", "60",
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
