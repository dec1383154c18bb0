"""The web server: a JSON API over the rules engine, and the page that plays it (``foursquare serve``).

The server is authoritative: it keeps every game's stock and tells the page only what a player at a
real table would see — the grid and the card to place. ``docs/api.md`` documents every endpoint.

>>> import os, tempfile
>>> from fastapi.testclient import TestClient
>>> client = TestClient(create_app(os.path.join(tempfile.mkdtemp(), "games.db")))
>>> state = client.post("/api/games", json={"deal": 1}).json()
>>> state["card"], state["legal"]
('3S', [[0, 0]])
>>> client.post(f"/api/games/{state['id']}/moves", json={"row": 0, "col": 0, "turn": 0}).json()["card"]
'AH'
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

import platformdirs
from fastapi import Body, FastAPI, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.base import RequestResponseEndpoint

from foursquare import record
from foursquare.cards import MAX_DEAL, random_deal_number
from foursquare.engine import MAX_FACE_DOWN, Flip, Game, Placement, Variant
from foursquare.web.store import DamagedGameError, Store, StoredGame, UnknownGameError

STATIC_DIR = Path(__file__).parent / "static"
COOKIE = "fs_player"
COOKIE_MAX_AGE = 10 * 365 * 24 * 3600
PLAYER_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
MAX_PER_PAGE = 100

log = logging.getLogger("foursquare.web")

# Every sentence the server says to a person, in one place (for translation).
MESSAGES = {
    "game_over": "the game is over ({outcome}): it cannot change any more",
    "stale_turn": "the game is at turn {turn}, not {asked}: it changed since you last looked (reload it)",
    "nothing_to_undo": "there is nothing to undo",
    "nothing_to_redo": "there is nothing to redo",
    "still_playing": "the game is still being played: {what} is available once it is over",
    "bad_replay_turn": "turn must be between 0 and {turn} (the cards placed in this game), not {asked}",
    "not_available": "{what} is not available in this installation ({error})",
    "no_page": "the web page is not installed (missing {path})",
    "internal": "internal error",
    "bad_request": "bad request: {problems}",
    "body_not_json": "the request body is not valid JSON",
    "must_be_object": "{field} must be a JSON object",
    "missing": "{field} is missing",
    "extra": "{field} is not a known field",
    "integer": "{field} must be an integer",
    "boolean": "{field} must be true or false",
    "one_of": "{field} must be {expected}",
    "at_least": "{field} must be at least {limit}",
    "at_most": "{field} must be at most {limit}",
    "less_than": "{field} must be less than {limit}",
    "other": "{field}: {message}",
    "the_body": "the request body",
    "serving": "Foursquare is being served at {url}  (database: {db}; press Ctrl+C to stop)",
    "cannot_listen": "cannot listen on {host} port {port}: {error}",
    "bad_port": "a port is a number from 0 to 65535 (0: any free port)",
}


def say(key: str, **params: object) -> str:
    return MESSAGES[key].format(**params)


class ApiError(ValueError):
    """A request the game cannot honour; ``status`` is the HTTP status code it answers with."""

    status = 400


class ConflictError(ApiError):
    """The request does not fit the game's current state (over, stale turn, nothing to undo)."""

    status = 409


class UnprocessableError(ApiError):
    """The request is well-formed but asks for something impossible (an illegal move)."""

    status = 422


class PageMissingError(ApiError):
    """The page's files are not installed."""

    status = 404


class UnavailableError(ApiError):
    """An optional capability (hint, analysis) is not installed."""

    status = 503


class ServeError(ValueError):
    """``foursquare serve`` cannot start."""


# --- request bodies ----------------------------------------------------------------------------------


class VariantBody(BaseModel):
    """House rules of a new game."""

    model_config = ConfigDict(extra="forbid")

    adjacency: Literal["orthogonal", "diagonal"] = "orthogonal"
    count_buried: StrictBool = False


class NewGameBody(BaseModel):
    """``POST /api/games``: a numbered deal (its number shown) or a random one (its number hidden)."""

    model_config = ConfigDict(extra="forbid")

    deal: Annotated[StrictInt, Field(ge=0, lt=MAX_DEAL)] | None = None
    variant: VariantBody | None = None


class MoveBody(BaseModel):
    """``POST /api/games/{id}/moves``: where to place the card, and the turn it was shown at."""

    model_config = ConfigDict(extra="forbid")

    row: StrictInt
    col: StrictInt
    turn: Annotated[StrictInt, Field(ge=0)]


# --- JSON views of a game ------------------------------------------------------------------------------


def cells_json(game: Game) -> list[dict[str, Any]]:
    """The piles as the player sees them, as in ``foursquare replay --json``."""
    return [
        {"row": c.row, "col": c.col, "height": c.height, "card": c.top.name, "face_up": c.top_face_up}
        for c in game.cells()
    ]


def state_json(stored: StoredGame, game: Game) -> dict[str, Any]:
    """The state object of the API: what the player may see of the game, and no more."""
    outcome = game.outcome()
    card = game.card_to_place
    return {
        "id": stored.id,
        "deal": stored.visible_deal,
        "variant": game.variant.to_json(),
        "turn": game.turn,
        "card": None if card is None else card.name,
        "stock_left": game.stock_left,
        "face_down": game.face_down,
        "max_face_down": MAX_FACE_DOWN,
        "cells": cells_json(game),
        "legal": [[m.row, m.col] for m in game.legal_moves],
        "outcome": outcome.status,
        "reason": outcome.reason,
        "score": outcome.score if outcome.is_over else None,
        "can_undo": game.can_undo and not outcome.is_over,
        "can_redo": game.can_redo and not outcome.is_over,
        "created_at": stored.created_at,
        "updated_at": stored.updated_at,
    }


def flip_json(flip: Flip) -> dict[str, Any]:
    return {
        "row": flip.row,
        "col": flip.col,
        "card": flip.card.name,
        "face_up": flip.face_up,
        "line": flip.line,
        "reason": flip.reason,
    }


def placement_json(placement: Placement) -> dict[str, Any]:
    """``placed`` and ``flips`` of one placement (every card named in it is on the grid)."""
    return {
        "placed": {"row": placement.move.row, "col": placement.move.col, "card": placement.card.name},
        "flips": [flip_json(f) for f in placement.flips],
    }


def summary_json(stored: StoredGame) -> dict[str, Any]:
    """One line of the game list."""
    return {
        "id": stored.id,
        "deal": stored.visible_deal,
        "variant": stored.variant.to_json(),
        "turn": stored.turn,
        "outcome": stored.outcome,
        "reason": stored.reason,
        "score": stored.score if stored.is_over else None,
        "created_at": stored.created_at,
        "updated_at": stored.updated_at,
    }


# --- validation messages ------------------------------------------------------------------------------


def _field_name(loc: tuple[Any, ...]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header", "cookie")]
    if loc and loc[0] == "body" and len(loc) == 2 and isinstance(loc[1], int):
        parts = []  # a JSON decoding position, not a field
    return ".".join(parts)


def validation_sentence(errors: list[dict[str, Any]]) -> str:
    """FastAPI's validation errors as one plain sentence, e.g. ``bad request: row is missing``."""
    problems: list[str] = []
    for error in errors:
        kind = str(error.get("type", ""))
        name = _field_name(tuple(error.get("loc", ())))
        field = name or say("the_body")
        ctx = error.get("ctx") or {}
        if kind == "json_invalid":
            text = say("body_not_json")
        elif kind in ("model_type", "dict_type", "model_attributes_type"):
            text = say("must_be_object", field=field)
        elif kind == "missing":
            text = say("missing", field=field)
        elif kind == "extra_forbidden":
            text = say("extra", field=field)
        elif kind in ("int_type", "int_parsing", "int_from_float"):
            text = say("integer", field=field)
        elif kind in ("bool_type", "bool_parsing"):
            text = say("boolean", field=field)
        elif kind == "literal_error":
            text = say("one_of", field=field, expected=ctx.get("expected", "?"))
        elif kind == "greater_than_equal":
            text = say("at_least", field=field, limit=ctx.get("ge"))
        elif kind == "less_than_equal":
            text = say("at_most", field=field, limit=ctx.get("le"))
        elif kind == "less_than":
            text = say("less_than", field=field, limit=ctx.get("lt"))
        else:
            text = say("other", field=field, message=str(error.get("msg", kind)).lower())
        if text not in problems:
            problems.append(text)
    return say("bad_request", problems="; ".join(problems))


# --- the app ----------------------------------------------------------------------------------------------


def _valid_player_id(value: str | None) -> bool:
    return value is not None and 16 <= len(value) <= 64 and set(value) <= PLAYER_ID_CHARS


def create_app(db_path: str | Path) -> FastAPI:
    """The FastAPI application over the database at ``db_path`` (checked, created if missing).

    Raises :class:`~foursquare.web.store.StoreError` if the database cannot be used.
    """
    store = Store(db_path)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        store.close()

    app = FastAPI(
        title="Foursquare",
        summary="Play Wil Su's Foursquare solitaire; the server keeps the stock.",
        version="1",
        lifespan=lifespan,
    )
    app.state.store = store
    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")

    # --- player identity and errors --------------------------------------------------------------------

    @app.middleware("http")
    async def identify_player(request: Request, call_next: RequestResponseEndpoint) -> Response:
        if not request.url.path.startswith("/api/"):
            response = await call_next(request)
            # A page URL holds a game id, which is the key to the game: never send it to another site.
            response.headers["Referrer-Policy"] = "same-origin"
            response.headers["X-Content-Type-Options"] = "nosniff"
            return response
        player = request.cookies.get(COOKIE)
        fresh = not _valid_player_id(player)
        request.state.player = secrets.token_urlsafe(16) if fresh else player
        response = await call_next(request)
        response.headers["Cache-Control"] = "no-store"
        if fresh:
            response.set_cookie(
                COOKIE, request.state.player, max_age=COOKIE_MAX_AGE, path="/", httponly=True, samesite="lax"
            )
        return response

    def error(status: int, detail: str) -> JSONResponse:
        return JSONResponse({"detail": detail}, status_code=status)

    @app.exception_handler(ApiError)
    async def on_api_error(request: Request, exc: ApiError) -> JSONResponse:
        return error(exc.status, str(exc))

    @app.exception_handler(UnknownGameError)
    async def on_unknown_game(request: Request, exc: UnknownGameError) -> JSONResponse:
        return error(404, str(exc))

    @app.exception_handler(RequestValidationError)
    async def on_invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        return error(422, validation_sentence(list(exc.errors())))

    @app.exception_handler(StarletteHTTPException)
    async def on_http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"detail": str(exc.detail).lower()}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(DamagedGameError)
    async def on_damaged_game(request: Request, exc: DamagedGameError) -> JSONResponse:
        log.error("%s", exc)
        return error(500, str(exc))

    @app.exception_handler(Exception)
    async def on_unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.error("internal error on %s %s", request.method, request.url.path, exc_info=exc)
        return error(500, say("internal"))

    # --- the page -----------------------------------------------------------------------------------------

    def page() -> FileResponse:
        index = STATIC_DIR / "index.html"
        if not index.is_file():
            raise PageMissingError(say("no_page", path="static/index.html"))
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    app.add_api_route("/", page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/stats", page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/rules", page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/game/{game_id}", page, methods=["GET"], include_in_schema=False)

    # --- games ------------------------------------------------------------------------------------------------

    def player_of(request: Request) -> str:
        player: str = request.state.player
        return player

    @app.post("/api/games", status_code=201, summary="Start a game")
    def new_game(request: Request, body: Annotated[NewGameBody | None, Body()] = None) -> dict[str, Any]:
        body = body or NewGameBody()
        variant = Variant(**body.variant.model_dump()) if body.variant else Variant()
        hidden = body.deal is None
        deal = random_deal_number() if body.deal is None else body.deal
        stored = store.create_game(player_of(request), deal=deal, variant=variant, hidden=hidden)
        return state_json(stored, stored.rebuild())

    @app.get("/api/games", summary="List your games, newest first")
    def list_games(
        request: Request,
        page: Annotated[int, Query(ge=1)] = 1,
        per_page: Annotated[int, Query(ge=1, le=MAX_PER_PAGE)] = 20,
    ) -> dict[str, Any]:
        games, total = store.list_games(player_of(request), page=page, per_page=per_page)
        return {"games": [summary_json(g) for g in games], "page": page, "per_page": per_page, "total": total}

    @app.get("/api/games/{game_id}", summary="The state of a game")
    def get_game(game_id: str) -> dict[str, Any]:
        stored = store.get(game_id)
        return state_json(stored, stored.rebuild())

    def refuse_if_over(stored: StoredGame, game: Game) -> None:
        if stored.is_over:
            raise ConflictError(say("game_over", outcome=game.outcome()))

    @app.post("/api/games/{game_id}/moves", summary="Place the card to place")
    def move(game_id: str, body: MoveBody) -> dict[str, Any]:
        def apply(game: Game, stored: StoredGame) -> Placement:
            refuse_if_over(stored, game)
            if body.turn != game.turn:
                raise ConflictError(say("stale_turn", turn=game.turn, asked=body.turn))
            illegal = game.illegality(body.row, body.col)
            if illegal is not None:
                raise UnprocessableError(str(illegal))
            return game.place(body.row, body.col)

        stored, game, placement = store.change(game_id, apply)
        return {**state_json(stored, game), **placement_json(placement)}

    @app.post("/api/games/{game_id}/undo", summary="Take back the last card")
    def undo(game_id: str) -> dict[str, Any]:
        def apply(game: Game, stored: StoredGame) -> None:
            refuse_if_over(stored, game)
            if not game.can_undo:
                raise ConflictError(say("nothing_to_undo"))
            game.undo()

        stored, game, _ = store.change(game_id, apply)
        return state_json(stored, game)

    @app.post("/api/games/{game_id}/redo", summary="Play the last undone card again")
    def redo(game_id: str) -> dict[str, Any]:
        def apply(game: Game, stored: StoredGame) -> None:
            refuse_if_over(stored, game)
            if not game.can_redo:
                raise ConflictError(say("nothing_to_redo"))
            game.redo()

        stored, game, _ = store.change(game_id, apply)
        return state_json(stored, game)

    @app.post("/api/games/{game_id}/restart", summary="Back to the first card of the same deal")
    def restart(game_id: str) -> dict[str, Any]:
        def apply(game: Game, stored: StoredGame) -> None:
            refuse_if_over(stored, game)
            game.restart()

        stored, game, _ = store.change(game_id, apply)
        return state_json(stored, game)

    @app.get("/api/games/{game_id}/hint", summary="Rank the legal moves, best first")
    def hint(game_id: str) -> dict[str, Any]:
        stored = store.get(game_id)
        game = stored.rebuild()
        refuse_if_over(stored, game)
        try:
            from foursquare.players import hint as rank_moves
        except ImportError as exc:
            raise UnavailableError(say("not_available", what="the hint", error=exc)) from None
        advice = rank_moves(game.view(), seed=0)
        return {
            "turn": game.turn,
            "moves": [a.to_json() for a in advice],
        }

    @app.get("/api/games/{game_id}/analysis", summary="Analyse a finished game (slow the first time)")
    async def analysis(game_id: str) -> Any:
        return JSONResponse(json.loads(await run_in_threadpool(analysis_text, game_id)))

    analysis_locks: dict[str, threading.Lock] = {}
    analysis_locks_guard = threading.Lock()

    def analysis_text(game_id: str) -> str:
        """The cached analysis, computed first if need be — once, however many requests ask at the same time."""
        stored = store.get(game_id)
        if not stored.is_over:
            raise ConflictError(say("still_playing", what="the analysis"))
        if stored.analysis is not None:
            return stored.analysis
        try:
            from foursquare.analysis import analyze
        except ImportError as exc:
            raise UnavailableError(say("not_available", what="the analysis", error=exc)) from None
        with analysis_locks_guard:
            lock = analysis_locks.setdefault(game_id, threading.Lock())
        with lock:
            stored = store.get(game_id)
            if stored.analysis is None:
                store.save_analysis(game_id, analyze(stored.rebuild()))
                stored = store.get(game_id)
        if stored.analysis is None:
            raise DamagedGameError(f"the analysis of game {game_id!r} was not stored")
        return stored.analysis

    @app.get("/api/games/{game_id}/record", summary="The game record of a finished game")
    def game_record(game_id: str) -> dict[str, Any]:
        stored = store.get(game_id)
        if not stored.is_over:
            raise ConflictError(say("still_playing", what="the record"))
        return record.to_json(stored.rebuild())

    @app.get("/api/games/{game_id}/replay", summary="The position after the first k moves of a finished game")
    def replay(game_id: str, turn: Annotated[int | None, Query()] = None) -> dict[str, Any]:
        stored = store.get(game_id)
        if not stored.is_over:
            raise ConflictError(say("still_playing", what="the replay"))
        k = stored.turn if turn is None else turn
        if not 0 <= k <= stored.turn:
            raise UnprocessableError(say("bad_replay_turn", turn=stored.turn, asked=k))
        game = stored.fresh()
        placement: Placement | None = None
        for m in stored.moves[:k]:
            placement = game.place(m.row, m.col)
        outcome = game.outcome()
        card = game.card_to_place
        return {
            "turn": k,
            "cells": cells_json(game),
            "card": None if card is None else card.name,
            "placed": None if placement is None else placement_json(placement)["placed"],
            "flips": [] if placement is None else placement_json(placement)["flips"],
            "face_down": game.face_down,
            "outcome": outcome.status,
            "reason": outcome.reason,
            "score": outcome.score if outcome.is_over else None,
        }

    @app.get("/api/stats", summary="Your statistics over finished games")
    def stats(request: Request) -> dict[str, Any]:
        return store.stats(player_of(request))

    return app


# --- foursquare serve -----------------------------------------------------------------------------------


def default_db_path() -> Path:
    """``games.db`` in the user's data directory (created if missing)."""
    directory = Path(platformdirs.user_data_dir("foursquare", appauthor=False))
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ServeError(f"cannot create the data directory {directory}: {exc}") from None
    return directory / "games.db"


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket, or :class:`ServeError` saying why there cannot be one."""
    if not 0 <= port <= 65535:
        raise ServeError(say("cannot_listen", host=host, port=port, error=say("bad_port")))
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
    except (OSError, OverflowError) as exc:
        raise ServeError(say("cannot_listen", host=host, port=port, error=exc)) from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except (OSError, OverflowError) as exc:
        sock.close()
        reason = getattr(exc, "strerror", None) or exc
        raise ServeError(say("cannot_listen", host=host, port=port, error=reason)) from None
    sock.set_inheritable(True)
    return sock


def _url(sock: socket.socket, host: str) -> str:
    port = sock.getsockname()[1]
    shown = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)  # where this machine reaches it
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def _warm_up_players() -> None:
    try:
        from foursquare.players import warm_up

        warm_up()
    except Exception:  # a failed warm-up only means the first hint is slow; the hint endpoint reports errors
        logging.getLogger("foursquare").exception("warming up the players failed")


def serve(host: str, port: int, db: str | os.PathLike[str] | None = None, open_browser: bool = False) -> int:
    """Check the database, listen, print the URL, serve until interrupted (``foursquare serve``)."""
    import uvicorn

    db = Path(db).expanduser() if db else default_db_path()
    app = create_app(db)
    sock = _listen(host, port)
    url = _url(sock, host)
    print(say("serving", url=url, db=os.fspath(db)), flush=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="info"))
    # Load (or compile) the AI's kernel now, so the first hint does not pay for it.
    threading.Thread(target=_warm_up_players, daemon=True).start()
    if open_browser:

        def open_when_ready() -> None:
            deadline = time.monotonic() + 30
            while not server.started and time.monotonic() < deadline and not server.should_exit:
                time.sleep(0.05)
            if server.started:
                webbrowser.open(url)

        threading.Thread(target=open_when_ready, daemon=True).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass  # uvicorn has shut down gracefully and re-raised Ctrl+C: stopping as asked is a success
    finally:
        sock.close()
    sys.stdout.flush()
    return 0
