"""Who is asking: the ``fs_player`` cookie, and the refusal of requests another site makes in the player's name.

Over HTTPS it is named ``__Host-fs_player`` (:data:`SECURE_COOKIE`). The cookie is not a login: it groups the
games a browser started (``GET /api/games``, ``GET /api/stats``) and says who may change a game — only the
cookie that started it (the routes answer anyone else 403 ``not_your_game``; anyone with a game's id may look).

It is set by a same-origin ``GET`` of an ``/api/`` path that came without a valid one (the page makes one
before its first change), and replaced by the account routes (:mod:`foursquare.web.routes.account`): a browser
that creates a passkey or signs in gets a new cookie that names its session (the old one, which may have been
seen elsewhere, means nothing any more), and one that signs out or deletes its account a new anonymous one. An
anonymous browser's player is the hash of its cookie (the database never holds the cookie); a signed-in browser's
player is its account's (:func:`foursquare.web.deps.get_player`), so its games and statistics are the same on
every device.

A request that changes something (any method but ``GET``, ``HEAD``, ``OPTIONS``) is
refused 403 ``cross_site`` when a browser says another site made it, and 403 ``no_player`` without the cookie:
so a page elsewhere that posts a form here can neither act as the player nor replace their identity. A method
that the path does not declare changes nothing, so it is not refused here: the router answers it 405 with
``Allow``, whoever asks.
"""

from __future__ import annotations

import secrets
from urllib.parse import urlsplit

from fastapi import Request
from fastapi.responses import Response
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from foursquare.web.errors import error_response, translator_of
from foursquare.web.messages import say_in

COOKIE = "fs_player"
SECURE_COOKIE = "__Host-fs_player"
"""Its name over HTTPS: a browser takes a ``__Host-`` cookie only from this very host, Secure, for ``/``, so a
sibling sub-domain (``evil.example.org`` beside ``games.example.org``) cannot plant one in its place."""
COOKIE_MAX_AGE = 10 * 365 * 24 * 3600
PLAYER_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
"""The methods that change nothing: the only ones that may come from another site, or without the cookie."""
DEFAULT_PORTS = {"http": 80, "https": 443}


def valid_player_id(value: str | None) -> bool:
    return value is not None and 16 <= len(value) <= 64 and set(value) <= PLAYER_ID_CHARS


def host_and_port(netloc: str, scheme: str) -> tuple[str, int | None]:
    """``example.org:8000`` as ``("example.org", 8000)``; without a port, the default port of ``scheme``."""
    try:
        parts = urlsplit(f"//{netloc}")
        return (parts.hostname or "").lower(), parts.port or DEFAULT_PORTS.get(scheme)
    except ValueError:  # a port that is not a number
        return "", None


def cross_site(request: Request) -> bool:
    """Whether a browser says another origin made the request.

    ``Sec-Fetch-Site`` when the browser sends it (``same-origin``, or ``none`` for what the user typed, are ours;
    ``same-site`` is another origin, e.g. another port or sub-domain); else an ``Origin`` that is not this
    server's ``Host``. A request with neither is not a browser's cross-site request (browsers send ``Origin``
    with every cross-site request that can change something): a script's, or an old browser's same-site one.
    """
    fetch_site = request.headers.get("sec-fetch-site")
    if fetch_site is not None:
        return fetch_site.lower() not in ("same-origin", "none")
    origin = request.headers.get("origin")
    if origin is None:
        return False
    parts = urlsplit(origin)
    if parts.scheme not in DEFAULT_PORTS or not parts.netloc:
        return True  # "null" (a sandboxed frame, a file), or no origin a server of ours could have
    return host_and_port(parts.netloc, parts.scheme) != host_and_port(request.headers.get("host", ""), parts.scheme)


class IdentifyPlayer:
    """Middleware (plain ASGI: Starlette's ``BaseHTTPMiddleware`` cost a tenth of a move's CPU): for the API,
    ``request.state.browser`` (the cookie), the refusals of cross-site or cookie-less changes, ``Cache-Control``
    and a new player's cookie."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        player = request.cookies.get(cookie_name(request))
        known = valid_player_id(player)
        from_elsewhere = cross_site(request)
        if request.method not in SAFE_METHODS:
            refusal = "cross_site" if from_elsewhere else None if known else "no_player"
            if refusal is not None and not undeclared_method(scope):
                response: Response = error_response(403, refusal, say_in(translator_of(request), refusal))
                response.headers["Cache-Control"] = "no-store"
                await response(scope, receive, send)
                return
        # Without a cookie, a safe request is answered for a new player, who has no games yet.
        request.state.browser = player if known else secrets.token_urlsafe(16)
        extra: list[tuple[bytes, bytes]] = []
        if not known and not from_elsewhere and request.method == "GET":
            extra = player_cookie_headers(request, request.state.browser)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                # An API answer is never stored, unless it says how to cache it (the catalogues: by ETag).
                if not any(name.lower() == b"cache-control" for name, _ in headers):
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers + extra}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def undeclared_method(scope: Scope) -> bool:
    """Whether the request's path is a route's but its method is none of theirs (the router answers 405)."""
    matches = {route.matches(dict(scope))[0] for route in scope["app"].router.routes}  # a copy: nothing routed yet
    return Match.FULL not in matches and Match.PARTIAL in matches


def player_cookie_headers(request: Request, value: str) -> list[tuple[bytes, bytes]]:
    """The ``Set-Cookie`` header that gives the browser the player cookie ``value``, as raw ASGI headers."""
    carrier = Response()
    set_player_cookie(request, carrier, value)
    return [(name, header) for name, header in carrier.raw_headers if name == b"set-cookie"]


def cookie_name(request: Request) -> str:
    """The cookie's name for this request: :data:`SECURE_COOKIE` over HTTPS, else :data:`COOKIE`."""
    return SECURE_COOKIE if request.url.scheme == "https" else COOKIE


def set_player_cookie(request: Request, response: Response, value: str) -> None:
    """Give the browser the player cookie ``value`` (its identity from now on)."""
    name = cookie_name(request)
    response.set_cookie(
        name,
        value,
        max_age=COOKIE_MAX_AGE,
        path="/",
        httponly=True,  # no script reads it, an injected one included
        samesite="lax",  # nor does another site's request carry it, but a link followed to the game does
        secure=name == SECURE_COOKIE,  # behind a TLS proxy too, with serve --trusted-proxies
    )
