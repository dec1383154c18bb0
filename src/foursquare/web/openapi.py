"""The OpenAPI document (``/openapi.json``) as the server really answers: every error status and body, and links.

FastAPI derives the success answers from the routes' models (:mod:`.models`); it knows nothing of the errors, which
:mod:`.errors` and :mod:`.security` answer. :func:`describe` adds them to every operation by five rules —
every request may be refused (400 ``bad_host``, 413 ``too_large``); one that may change something 403
(``cross_site``, ``no_player``); an operation on ``/{game_id}`` may be 404; one with a query or a body may be 422
``bad_request``; one that uses the games database 503 ``database_unavailable`` — plus the few extras of
:data:`ROUTE_ERRORS`. It adds
OpenAPI *links* too (from a game's state to the operations on that game), which drive schemathesis' stateful
phase. A new route needs a line in :data:`ROUTE_ERRORS` only for errors the rules do not cover.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel, ConfigDict, Field

from foursquare.web.errors import ERROR_CODES

ERROR_SCHEMA = "Error"
SHARED_ERRORS: dict[int, tuple[str, ...]] = {400: ("bad_host",), 413: ("too_large",)}
"""Errors any request may get: a ``Host`` not allowed (``--allowed-hosts``), a body over 64 KiB."""

GAME_ERRORS: dict[int, tuple[str, ...]] = {404: ("unknown_game", "not_found")}
"""Errors of every operation on ``/{game_id}``: an id no game has (``not_found``: one that is no path segment)."""

INPUT_ERRORS: dict[int, tuple[str, ...]] = {422: ("bad_request",)}
"""Errors of every operation with a query or a body: a malformed one."""

CHANGE_ERRORS: dict[int, tuple[str, ...]] = {403: ("cross_site", "no_player")}
"""Errors of every operation that may change something (not GET): made by another site, or without the cookie."""

DATABASE_ERRORS: dict[int, tuple[str, ...]] = {503: ("database_unavailable",)}
"""Errors of every operation that uses the games database: it cannot be reached just now (``Retry-After``)."""

WITHOUT_DATABASE = frozenset({"/api/languages", "/api/messages/{code}", "/api/lesson"})
"""The paths whose operations never use the games database."""

ROUTE_ERRORS: dict[tuple[str, str], dict[int, tuple[str, ...]]] = {
    ("post", "/api/games"): {
        404: ("unknown_game",), 409: ("still_playing", "too_many_games"), 429: ("rate_limited",),
        503: ("not_available", "busy"),
    },
    ("post", "/api/games/{game_id}/moves"): {
        403: ("not_your_game",), 409: ("stale_turn", "wrong_card", "game_over"), 422: ("illegal_move",),
        429: ("rate_limited",),
    },
    ("post", "/api/games/{game_id}/undo"): {
        403: ("not_your_game",), 409: ("game_over", "nothing_to_undo"), 429: ("rate_limited",),
    },
    ("post", "/api/games/{game_id}/redo"): {
        403: ("not_your_game",), 409: ("game_over", "nothing_to_redo"), 429: ("rate_limited",),
    },
    ("post", "/api/games/{game_id}/restart"): {403: ("not_your_game",), 409: ("game_over",), 429: ("rate_limited",)},
    ("get", "/api/games/{game_id}/hint"): {
        403: ("not_your_game", "cross_site"), 409: ("game_over",), 429: ("rate_limited",),
        503: ("not_available", "busy"),
    },
    ("get", "/api/games/{game_id}/analysis"): {
        403: ("cross_site",), 409: ("still_playing", "daily_secret"), 429: ("rate_limited",),
        503: ("not_available", "busy"),
    },
    ("get", "/api/games/{game_id}/record"): {409: ("still_playing", "daily_secret")},
    ("get", "/api/games/{game_id}/replay"): {409: ("still_playing",), 422: ("bad_replay_turn",)},
    ("get", "/api/messages/{code}"): {404: ("unknown_language", "not_found")},
    ("delete", "/api/account/sessions/{handle}"): {422: ("bad_request",)},
    ("post", "/api/offline-games"): {
        409: ("offline_conflict", "too_many_games"), 422: ("bad_record",), 429: ("rate_limited",),
    },
}
"""The errors an operation may answer beyond the rules above, by (method, path)."""

STATUS_WORDS = {
    400: "Refused: the Host header is not served here",
    403: "Refused: another player's game, a request made by another site, or one without the player's cookie",
    404: "Not found",
    409: "Conflict with the game's current state",
    413: "The request body is over 64 KiB",
    422: "The request cannot be processed",
    429: "Too many requests of this kind from this client: try again after Retry-After seconds",
    503: "Not available now",
}

STATE_OPERATIONS = (
    ("post", "/api/games", "201"),
    ("get", "/api/games/{game_id}", "200"),
    ("post", "/api/games/{game_id}/moves", "200"),
    ("post", "/api/games/{game_id}/undo", "200"),
    ("post", "/api/games/{game_id}/redo", "200"),
    ("post", "/api/games/{game_id}/restart", "200"),
)
"""The operations that answer a game's state (its ``id``, ``turn`` and ``legal`` cells): the sources of links."""

GAME_ID = "$response.body#/id"
MOVE_BODY = {
    "row": "$response.body#/legal/0/0",
    "col": "$response.body#/legal/0/1",
    "turn": "$response.body#/turn",
    "card": "$response.body#/card",
}
"""The card to place, to the first legal cell, at the state's turn: a link that plays the game on."""


class ErrorBody(BaseModel):
    """Every error answer: a sentence for people, a stable code for programs (``docs/api.md``, Errors)."""

    model_config = ConfigDict(extra="allow", title=ERROR_SCHEMA)

    detail: str = Field(
        description="a plain sentence for people and scripts: in English, or in the language of the request's "
        "Accept-Language when the game speaks it"
    )
    code: str = Field(description="a stable code, for programs", json_schema_extra={"enum": list(ERROR_CODES)})
    reason: str | None = Field(None, description="only with `illegal_move`: the engine's code of why")


def error_response(status: int, codes: tuple[str, ...]) -> dict[str, Any]:
    """An OpenAPI response: the error body, its ``code`` one of ``codes``."""
    schema = {"allOf": [{"$ref": f"#/components/schemas/{ERROR_SCHEMA}"}, {"properties": {"code": {"enum": codes}}}]}
    words = STATUS_WORDS.get(status, "Error")
    return {
        "description": f"{words} (code: {', '.join(codes)})",
        "content": {"application/json": {"schema": schema}},
    }


def errors_of(method: str, path: str, operation: dict[str, Any]) -> dict[int, tuple[str, ...]]:
    """Every error status ``operation`` may answer, and the codes of each."""
    errors: dict[int, tuple[str, ...]] = dict(SHARED_ERRORS)
    places = {parameter["in"] for parameter in operation.get("parameters", [])}
    extras = [ROUTE_ERRORS.get((method, path), {})]
    if method not in ("get", "head", "options"):
        extras.append(CHANGE_ERRORS)
    if "{game_id}" in path:
        extras.append(GAME_ERRORS)
    if "query" in places or "requestBody" in operation:
        extras.append(INPUT_ERRORS)
    if path not in WITHOUT_DATABASE:
        extras.append(DATABASE_ERRORS)
    for extra in extras:
        for status, codes in extra.items():
            errors[status] = (*errors.get(status, ()), *codes)
    return dict(sorted(errors.items()))


def links_to_game_operations(paths: dict[str, Any]) -> dict[str, Any]:
    """A link to every operation on ``/{game_id}``, given the game's id (a move also its first legal cell)."""
    links: dict[str, Any] = {}
    for path, operations in paths.items():
        if "{game_id}" not in path:
            continue
        for operation in operations.values():
            link: dict[str, Any] = {"operationId": operation["operationId"], "parameters": {"game_id": GAME_ID}}
            if path.endswith("/moves"):
                link["requestBody"] = MOVE_BODY
            links[operation["operationId"]] = link
    return links


BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")


def exact_bounds(node: Any) -> None:
    """Write integral bounds as integers: FastAPI's document model turns them into floats, and the float
    ``1.8446744073709552e+19`` reads, in decimal, as a bound some 400 above the deal numbers' real 2⁶⁴
    (every bound of the API is an integer well within a float's exact range, so ``int`` recovers it)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in BOUNDS and isinstance(value, float) and value.is_integer():
                node[key] = int(value)
            else:
                exact_bounds(value)
    elif isinstance(node, list):
        for item in node:
            exact_bounds(item)


def describe(document: dict[str, Any]) -> dict[str, Any]:
    """FastAPI's OpenAPI ``document`` with every error answer and the links between game operations."""
    paths: dict[str, Any] = document.get("paths", {})
    for path, operations in paths.items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            responses.pop("422", None)  # FastAPI's: a list of pydantic errors, not what the API answers
            for status, codes in errors_of(method, path, operation).items():
                responses[str(status)] = error_response(status, codes)
    links = links_to_game_operations(paths)
    for method, path, success in STATE_OPERATIONS:
        response = paths.get(path, {}).get(method, {}).get("responses", {}).get(success)
        if response is not None:
            response["links"] = links
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)
    schemas[ERROR_SCHEMA] = ErrorBody.model_json_schema(ref_template="#/components/schemas/{model}")
    exact_bounds(document)
    return document


def install(app: FastAPI) -> None:
    """Serve :func:`describe`'s document at ``/openapi.json`` (built once, on the first request)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = get_openapi(
                title=app.title, version=app.version, summary=app.summary, description=app.description,
                routes=app.routes,
            )  # fmt: skip
            app.openapi_schema = describe(document)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
