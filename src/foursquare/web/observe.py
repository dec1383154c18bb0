"""What an operator sees of each request: its id, its metrics, and (``serve --log-format json``) its log line.

:class:`ObserveRequests` is plain ASGI middleware (Starlette's ``BaseHTTPMiddleware`` would cost a tenth of a
move's CPU), outside everything else of the app, so that it sees every answer — a 400 of a host not allowed, a
413, a 500 — and times it whole. For each request it:

- takes its **request id** from the ``X-Request-ID`` header when the request comes from a proxy named by
  ``--trusted-proxies`` (nginx's ``$request_id``, Caddy's ``{http.request.uuid}``; at most 128 of the characters
  ``A-Za-z0-9._:-``), or else makes one, and sends it back in the answer's ``X-Request-ID``; the request's log
  lines carry it (:data:`request_id`, :class:`RequestIdFilter`);
- counts it in the :class:`~foursquare.web.metrics.Metrics` by method, **route template**
  (``/api/games/{game_id}/moves``: never the path, which holds the game's id) and status, with its duration;
- writes one log line when asked (``access_log``): time, level, request id, method, route template, status,
  duration and client address — never the path, the query, a header or a body, so never a cookie, a game's id
  or stock, a passkey or a password.

:class:`JsonFormatter` writes every log record of the server (uvicorn's own included) as one JSON object a line;
:func:`log_config` is uvicorn's logging configuration of either format.

>>> route_template({"path": "/api/games/3Fq9x/moves"})
'unmatched'
>>> valid_request_id("5f0c2a9e-1b3d"), valid_request_id("a b"), valid_request_id("x" * 129)
(True, False, False)
"""

from __future__ import annotations

import contextvars
import ipaddress
import json
import logging
import os
import re
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, Literal

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from foursquare.web.metrics import Metrics

LogFormat = Literal["text", "json"]

REQUEST_ID_HEADER = b"x-request-id"
_REQUEST_ID = re.compile(r"[A-Za-z0-9._:\-]{1,128}")

request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("foursquare_request_id", default=None)
"""The id of the request being answered in this context (None outside a request)."""

ACCESS_LOGGER = "foursquare.access"

access_log = logging.getLogger(ACCESS_LOGGER)


def valid_request_id(value: str) -> bool:
    """Whether a proxy's ``X-Request-ID`` may be used as it is (short, and nothing a log or a header could mangle)."""
    return _REQUEST_ID.fullmatch(value) is not None


def new_request_id() -> str:
    """16 random hexadecimal digits."""
    return os.urandom(8).hex()


def route_template(scope: Scope) -> str:
    """The template of the route that answered (``/api/games/{game_id}``), ``/static`` for a static file, or
    ``unmatched`` for a request no route took (a 404, a host not allowed): never the path itself."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if isinstance(path, str) and path:
        return path
    endpoint = scope.get("endpoint")  # a route FastAPI's router does not name in the scope: /openapi.json, a mount
    app = scope.get("app")
    if endpoint is None or app is None:
        return "unmatched"
    return _endpoint_paths(app).get(id(endpoint), "unmatched")


def _endpoint_paths(app: Any) -> dict[int, str]:
    """The path of each route of ``app`` by the identity of its endpoint (a mount's: its app), made once."""
    paths: dict[int, str] | None = getattr(app.state, "endpoint_paths", None)
    if paths is None:
        paths = {}
        for route in app.router.routes:
            target = getattr(route, "endpoint", None) or getattr(route, "app", None)
            if target is not None and isinstance(getattr(route, "path", None), str):
                paths.setdefault(id(target), route.path)
        app.state.endpoint_paths = paths
    return paths


class TrustedPeers:
    """The addresses of the proxies named by ``--trusted-proxies``: whether a peer is one of them (remembered)."""

    def __init__(self, proxies: Iterable[str]) -> None:
        self.networks = tuple(ipaddress.ip_network(proxy, strict=False) for proxy in proxies)
        self.trusts = lru_cache(maxsize=4096)(self._trusts)

    def __bool__(self) -> bool:
        return bool(self.networks)

    def _trusts(self, host: str) -> bool:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        return any(address in network for network in self.networks)


class ObserveRequests:
    """The request id, the metrics and the log line of every HTTP request (see the module's docstring).

    ``trusted_proxies``: the proxies whose ``X-Request-ID`` is taken; the peer is the connection's own address
    (this middleware is outside the one that reads ``X-Forwarded-For``). ``access_log``: write a line per request.
    """

    def __init__(
        self,
        app: ASGIApp,
        metrics: Metrics,
        *,
        trusted_proxies: Iterable[str] = (),
        access_log: bool = False,
    ) -> None:
        self.app = app
        self.metrics = metrics
        self.trusted = TrustedPeers(trusted_proxies)
        self.access_log = access_log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        peer = scope.get("client")
        given = None
        if self.trusted and peer and self.trusted.trusts(peer[0]):
            for name, value in scope["headers"]:
                if name == REQUEST_ID_HEADER:
                    text = value.decode("latin-1")
                    given = text if valid_request_id(text) else None
                    break
        rid = given or new_request_id()
        token = request_id.set(rid)
        status = 500  # if the app fails before it answers, the server answers 500
        metrics = self.metrics
        metrics.in_progress += 1

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [*message.get("headers", ()), (REQUEST_ID_HEADER, rid.encode("latin-1"))]
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            metrics.in_progress -= 1
            seconds = time.perf_counter() - started
            route = route_template(scope)
            metrics.request(scope["method"], route, status, seconds)
            if self.access_log:
                log_request(scope, route, status, seconds)
            request_id.reset(token)


def log_request(scope: Scope, route: str, status: int, seconds: float) -> None:
    """The access log's line of one request (its request id is the context's)."""
    client = scope.get("client")
    access_log.info(
        "%s %s %d",
        scope["method"],
        route,
        status,
        extra={
            "method": scope["method"],
            "route": route,
            "status": status,
            "duration_ms": round(seconds * 1000, 3),
            "client": client[0] if client else None,
        },
    )


ACCESS_FIELDS = ("method", "route", "status", "duration_ms", "client")
"""The fields of an access line beside those of every line."""


class RequestIdFilter(logging.Filter):
    """Give every record the id of the request being answered (``record.request_id``, None outside one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = request_id.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ``time`` (UTC, ISO 8601, milliseconds), ``level``, ``logger``, ``message``,
    ``request_id`` (within a request), an access line's fields (:data:`ACCESS_FIELDS`), and ``error`` (the
    traceback) when the record has one.

    >>> record = logging.LogRecord("foursquare.web", logging.WARNING, __file__, 1, "pool %s", ("busy",), None)
    >>> line = json.loads(JsonFormatter().format(record))
    >>> line["level"], line["logger"], line["message"], line["request_id"]
    ('warning', 'foursquare.web', 'pool busy', None)
    """

    def format(self, record: logging.LogRecord) -> str:
        moment = datetime.fromtimestamp(record.created, UTC)
        line: dict[str, Any] = {
            "time": moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None) or request_id.get(),
        }
        for name in ACCESS_FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def log_config(log_format: LogFormat) -> dict[str, Any] | None:
    """uvicorn's ``log_config`` for ``serve --log-format``: None (uvicorn's own) for ``text``; for ``json`` every
    line of uvicorn and of the app as :class:`JsonFormatter` writes it, on standard error, uvicorn's access lines
    left out (the app writes its own, without the path)."""
    if log_format == "text":
        return None
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": f"{__name__}.RequestIdFilter"}},
        "formatters": {"json": {"()": f"{__name__}.JsonFormatter"}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "json",
                "filters": ["request_id"],
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {
            "uvicorn": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
            "uvicorn.error": {"level": "INFO"},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
            "foursquare": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
        },
    }
