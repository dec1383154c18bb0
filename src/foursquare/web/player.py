"""Who is asking: the ``fs_player`` cookie, set on the first ``/api/`` request that lacks a valid one.

It is not a login: it groups the games a browser started (``GET /api/games``, ``GET /api/stats``) and
says who may change a game — only the cookie that started it (the routes answer anyone else 403
``not_your_game``; anyone with a game's id may look at it).
"""

from __future__ import annotations

import secrets

from fastapi import Request
from fastapi.responses import Response
from starlette.middleware.base import RequestResponseEndpoint

COOKIE = "fs_player"
COOKIE_MAX_AGE = 10 * 365 * 24 * 3600
PLAYER_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def valid_player_id(value: str | None) -> bool:
    return value is not None and 16 <= len(value) <= 64 and set(value) <= PLAYER_ID_CHARS


async def identify_player(request: Request, call_next: RequestResponseEndpoint) -> Response:
    """Middleware: ``request.state.player`` for the API (a new cookie if need be); safe headers for pages."""
    if not request.url.path.startswith("/api/"):
        response = await call_next(request)
        # A page URL holds a game id, which is the key to the game: never send it to another site.
        response.headers["Referrer-Policy"] = "same-origin"
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response
    player = request.cookies.get(COOKIE)
    fresh = not valid_player_id(player)
    request.state.player = secrets.token_urlsafe(16) if fresh else player
    response = await call_next(request)
    # An API answer is never stored, unless it says how to cache it (the catalogues: revalidated by ETag).
    response.headers.setdefault("Cache-Control", "no-store")
    if fresh:
        response.set_cookie(
            COOKIE, request.state.player, max_age=COOKIE_MAX_AGE, path="/", httponly=True, samesite="lax"
        )
    return response
