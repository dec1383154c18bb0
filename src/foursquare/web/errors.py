"""The API's errors: each answers ``{"detail": "a plain sentence", "code": "a_stable_code"}``.

``code`` is for programs (the page shows its own message for it), ``detail`` for people and scripts: in
English, or in the language of the request's ``Accept-Language`` when the game speaks it.
An illegal move also carries the engine's ``reason`` (``IllegalMoveError.reason``). No answer ever
carries a stack trace: an unexpected error is logged and answered ``internal``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import compile_path

from foursquare.engine import IllegalMoveError
from foursquare.i18n import Translator
from foursquare.store import DamagedGameError, StoreUnavailableError, UnknownGameError
from foursquare.web.messages import english, request_translator, say, say_in
from foursquare.web.not_found import not_found_page, wants_html

log = logging.getLogger("foursquare.web")

HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}
"""The codes of the errors the framework itself answers (an unknown path, a wrong method, a body over
:data:`~foursquare.web.app.MAX_BODY_BYTES`); others: http_error."""

MIDDLEWARE_CODES = ("bad_host",)
"""The codes of the refusals of :mod:`foursquare.web.security` (a ``Host`` header not allowed)."""

ERROR_CODES = (
    "unknown_game", "game_over", "stale_turn", "wrong_card", "illegal_move", "nothing_to_undo", "nothing_to_redo",
    "still_playing", "bad_replay_turn", "bad_request", "not_available", "no_page", "damaged_game", "internal",
    "not_your_game",
    "busy", "unknown_language", "cross_site", "no_player", "rate_limited", "too_many_games", "daily_secret",
    "passkey_host", "stale_challenge", "passkey_refused", "unknown_passkey", "passkey_taken", "not_signed_in",
    "no_passkey", "last_passkey", "no_session", "current_session", "bad_record", "offline_conflict",
    "database_unavailable", *HTTP_CODES.values(), "http_error", *MIDDLEWARE_CODES,
)  # fmt: skip
"""Every ``code`` an error answer may carry (``docs/api.md``, and the page's catalogue, name each one)."""


class ApiError(ValueError):
    """A request the game cannot honour: ``code`` is its stable code, ``status`` the HTTP status it answers with."""

    status = 400

    def __init__(self, code: str, /, **params: object) -> None:
        super().__init__(say(code, **params))
        self.code = code
        self.params = params

    def detail(self, t: Translator) -> str:
        """The sentence of this error in ``t``'s language (``str(error)`` is the English one)."""
        return say_in(t, self.code, **self.params)

    def body(self, t: Translator | None = None) -> dict[str, Any]:
        return {"detail": self.detail(t or english()), "code": self.code}

    def headers(self) -> dict[str, str]:
        return {}


class ForbiddenError(ApiError):
    """The request would change (or help with) a game that another player is playing."""

    status = 403


class ConflictError(ApiError):
    """The request does not fit the game's current state (over, stale turn, nothing to undo)."""

    status = 409


class UnprocessableError(ApiError):
    """The request is well-formed but asks for something impossible (an illegal move)."""

    status = 422


class IllegalMove(UnprocessableError):
    """The engine refuses the move; ``reason`` is the engine's stable code for why."""

    def __init__(self, error: IllegalMoveError) -> None:
        super().__init__("illegal_move", error=error)
        self.reason = error.reason

    def detail(self, t: Translator) -> str:
        # The engine explains in English; another language says the shared sentence of the page and terminal.
        if t.code == english().code or not t.has(f"error.illegal.{self.reason}"):
            return str(self)
        return say_in(t, self.code, error=t(f"error.illegal.{self.reason}"))

    def body(self, t: Translator | None = None) -> dict[str, Any]:
        return {**super().body(t), "reason": self.reason}


class NotFoundError(ApiError):
    """The request names something its player does not have (a passkey, a session)."""

    status = 404


class PageMissingError(ApiError):
    """The page's files are not installed."""

    status = 404


class UnknownLanguageError(ApiError):
    """No catalogue of the language asked for."""

    status = 404


class UnavailableError(ApiError):
    """An optional capability (hint, analysis) is not installed."""

    status = 503


class RetryLaterError(ApiError):
    """A refusal that says, in ``Retry-After``, how many seconds to wait before asking again."""

    code = ""

    def __init__(self, retry_after: int) -> None:
        super().__init__(self.code, retry_after=retry_after)
        self.retry_after = retry_after

    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after)}


class BusyError(RetryLaterError):
    """Too many hints and analyses are already running or waiting (:mod:`foursquare.web.pool`): try again later."""

    status = 503
    code = "busy"


class RateLimitedError(RetryLaterError):
    """The client has made more requests of a kind than :mod:`foursquare.web.rate_limits` allows: wait."""

    status = 429
    code = "rate_limited"


# --- validation messages ------------------------------------------------------------------------------

# pydantic's error types, by the message that names them.
PROBLEMS = {
    "json_invalid": "body_not_json",
    "model_type": "must_be_object",
    "dict_type": "must_be_object",
    "model_attributes_type": "must_be_object",
    "missing": "missing",
    "extra_forbidden": "extra",
    "int_type": "integer",
    "int_parsing": "integer",
    "int_from_float": "integer",
    "bool_type": "boolean",
    "bool_parsing": "boolean",
    "literal_error": "one_of",
    "greater_than_equal": "at_least",
    "less_than_equal": "at_most",
    "less_than": "less_than",
    "string_type": "string",
    "string_pattern_mismatch": "card_name",  # a move's card is the only field with a pattern
}
LIMITS = {"at_least": "ge", "at_most": "le", "less_than": "lt"}
"""Where pydantic's context holds the limit a problem names."""


def _field_name(loc: tuple[Any, ...]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header", "cookie")]
    if loc and loc[0] == "body" and len(loc) == 2 and isinstance(loc[1], int):
        parts = []  # a JSON decoding position, not a field
    return ".".join(parts)


def _problem(error: dict[str, Any], t: Translator) -> str:
    kind = str(error.get("type", ""))
    field = _field_name(tuple(error.get("loc", ()))) or say_in(t, "the_body")
    ctx = error.get("ctx") or {}
    key = PROBLEMS.get(kind)
    if key is None:
        return say_in(t, "other", field=field, message=str(error.get("msg", kind)).lower())
    limit = ctx.get(LIMITS[key]) if key in LIMITS else None
    return say_in(t, key, field=field, expected=ctx.get("expected", "?"), limit=limit)


def validation_sentence(errors: list[dict[str, Any]], t: Translator | None = None) -> str:
    """FastAPI's validation errors as one plain sentence, e.g. ``bad request: row is missing``."""
    t = t or english()
    problems: list[str] = []
    for error in errors:
        text = _problem(error, t)
        if text not in problems:
            problems.append(text)
    return say_in(t, "bad_request", problems="; ".join(problems))


def translator_of(request: Request) -> Translator:
    """The language of a request's ``Accept-Language`` (English by default)."""
    return request_translator(request.headers.get("accept-language"))


# --- the handlers -----------------------------------------------------------------------------------------


def error_response(status: int, code: str, detail: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"detail": detail, "code": code, **extra}, status_code=status)


async def on_api_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return JSONResponse(exc.body(translator_of(request)), status_code=exc.status, headers=exc.headers())


async def on_unknown_game(request: Request, exc: Exception) -> JSONResponse:
    return error_response(404, "unknown_game", str(exc))


async def on_invalid_request(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return error_response(422, "bad_request", validation_sentence(list(exc.errors()), translator_of(request)))


async def on_http_error(request: Request, exc: Exception) -> Response:
    """The framework's refusals; an unknown address is the "page not found" page for a browser."""
    assert isinstance(exc, StarletteHTTPException)
    t = translator_of(request)
    if exc.status_code == 404:
        if wants_html(request.url.path, request.headers.get("accept", "")):
            return not_found_page(t)
        return error_response(404, "not_found", say_in(t, "not_found"))
    if exc.status_code == 400:  # FastAPI could not read the body (not UTF-8, say): as any body that is not JSON
        return error_response(422, "bad_request", say_in(t, "bad_request", problems=say_in(t, "body_not_json")))
    headers = exc.headers
    if exc.status_code == 405:  # Starlette's Allow names the methods of the first route of the path only
        headers = {**(headers or {}), "Allow": ", ".join(allowed_methods(request, headers))}
    code = HTTP_CODES.get(exc.status_code, "http_error")
    body = {"detail": str(exc.detail).lower(), "code": code}
    return JSONResponse(body, status_code=exc.status_code, headers=headers)


def allowed_methods(request: Request, headers: Mapping[str, str] | None) -> list[str]:
    """Every method the request's path answers: Starlette's ``Allow``, and those the OpenAPI document lists."""
    methods = {m.strip().upper() for m in (headers or {}).get("Allow", "").split(",") if m.strip()}
    for template, operations in request.app.openapi().get("paths", {}).items():
        if compile_path(template)[0].match(request.url.path):
            methods |= {method.upper() for method in operations}
    if "GET" in methods:
        methods.add("HEAD")
    return sorted(methods)


async def on_damaged_game(request: Request, exc: Exception) -> JSONResponse:
    log.error("%s", exc)
    return error_response(500, "damaged_game", str(exc))


DATABASE_RETRY_AFTER = 5
"""Seconds a client is told to wait (``Retry-After``) when the database cannot be reached: about what a
PostgreSQL restart takes."""


async def on_store_unavailable(request: Request, exc: Exception) -> JSONResponse:
    """The database is down or locked for now: the server's answer is "try again", not its own fault."""
    log.warning("%s on %s %s", exc, request.method, route_of(request))
    metrics = getattr(request.app.state, "metrics", None)  # an app of create_app's has them
    if metrics is not None:
        metrics.database_unavailable()
    detail = say_in(translator_of(request), "database_unavailable", retry_after=DATABASE_RETRY_AFTER)
    response = error_response(503, "database_unavailable", detail)
    response.headers["Retry-After"] = str(DATABASE_RETRY_AFTER)
    return response


async def on_unexpected(request: Request, exc: Exception) -> JSONResponse:
    log.error("internal error on %s %s", request.method, route_of(request), exc_info=exc)
    return error_response(500, "internal", say_in(translator_of(request), "internal"))


def route_of(request: Request) -> str:
    """The template of the request's route, as a log line names it: never the path, which holds a game's id."""
    path = getattr(request.scope.get("route"), "path", None)
    return path if isinstance(path, str) else "unmatched"


def install_error_handlers(app: FastAPI) -> None:
    """Answer every error as ``{"detail", "code"}``."""
    app.add_exception_handler(ApiError, on_api_error)
    app.add_exception_handler(UnknownGameError, on_unknown_game)
    app.add_exception_handler(RequestValidationError, on_invalid_request)
    app.add_exception_handler(StarletteHTTPException, on_http_error)
    app.add_exception_handler(DamagedGameError, on_damaged_game)
    app.add_exception_handler(StoreUnavailableError, on_store_unavailable)
    app.add_exception_handler(Exception, on_unexpected)
