"""Games: start one, list yours, show one, and change it (a move, undo, redo, restart).

Every change runs in one store transaction (:meth:`~foursquare.store.Games.change`) that
re-reads the game, checks the request against it and applies it with the engine. Only the game's
player (the ``fs_player`` cookie that started it) may change it; anyone with its id may look at it.
Changes are rate-limited per client (``moves``); a winnable deal is solved on the heavy pool
(:mod:`foursquare.web.pool`), never in the server's own threads, and has a rate of its own (``winnable``).
"""

from __future__ import annotations

import importlib
import itertools
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from foursquare.cards import MAX_DEAL, random_deal_number
from foursquare.engine import Game, Placement, Variant
from foursquare.store import Store, StoredGame, TooManyGamesError
from foursquare.web.deps import ClientDep, PlayerDep, RetentionDep, StoreDep, rate_limited
from foursquare.web.errors import (
    ConflictError,
    ForbiddenError,
    IllegalMove,
    RateLimitedError,
    UnavailableError,
    UnprocessableError,
)
from foursquare.web.fields import WHOLE, Integer
from foursquare.web.messages import Phrase
from foursquare.web.metrics import metrics_of
from foursquare.web.models import CARD_NAME, GameList, GameState, MoveResult
from foursquare.web.pool import ComputePool, InFlight, winnable_deal
from foursquare.web.rate_limits import RateLimits
from foursquare.web.routing import Route
from foursquare.web.views import game_state, move_result, summary

MAX_PER_PAGE = 100
# Far beyond any real list, and small enough that the page's offset fits a SQLite integer.
MAX_PAGE = 10**9

router = APIRouter(prefix="/api/games", route_class=Route)


async def get_heavy_pool(request: Request) -> ComputePool:
    """The pool of the work that takes seconds: analyses and winnable deals (:mod:`foursquare.web.pool`)."""
    pool: ComputePool = request.app.state.heavy_pool
    return pool


HeavyPoolDep = Annotated[ComputePool, Depends(get_heavy_pool)]
MOVES_LIMITED = [Depends(rate_limited("moves"))]


async def get_changes(request: Request) -> InFlight:
    """The changes of games the server is answering now (made here, in the event loop, on the first request)."""
    state = request.app.state
    if not hasattr(state, "changes_in_flight"):
        state.changes_in_flight = InFlight()
    changes: InFlight = state.changes_in_flight
    return changes


ChangesDep = Annotated[InFlight, Depends(get_changes)]


class VariantBody(BaseModel):
    """House rules of a new game."""

    model_config = ConfigDict(extra="forbid")

    adjacency: Literal["orthogonal", "diagonal"] = "orthogonal"
    count_buried: StrictBool = False


GIVEN = {"deal": {"type": "integer"}, "daily": {"const": True}, "winnable": {"const": True}, "like": {"type": "string"}}
"""What each kind of deal looks like when it is asked for (an absent, null or false field asks for nothing)."""
EXCLUSIVE = (*itertools.combinations(GIVEN, 2), ("like", "variant"))
"""Fields a new game's body may not give together: two kinds of deal, or ``like`` with house rules of its own."""


def at_most_one_kind_of_deal(schema: dict[str, Any]) -> None:
    """Say in the JSON schema what the route refuses, so that every body the OpenAPI document calls valid is taken."""
    given = {**GIVEN, "variant": {"type": "object"}}
    schema["allOf"] = [
        {"not": {"required": [a, b], "properties": {a: given[a], b: given[b]}}} for a, b in EXCLUSIVE
    ]


class NewGameBody(BaseModel):
    """``POST /api/games``: a numbered deal (its number shown) or a random one (its number hidden).

    At most one of: ``deal``; ``daily`` (today's daily deal); ``winnable`` (a random deal the solver
    proves winnable); ``like`` (the id of a game whose deal to play, its number as hidden as it is there).
    """

    model_config = ConfigDict(extra="forbid", json_schema_extra=at_most_one_kind_of_deal)

    deal: Annotated[StrictInt, Field(ge=0, lt=MAX_DEAL), WHOLE] | None = None
    variant: VariantBody | None = None
    daily: StrictBool = False
    winnable: StrictBool = False
    like: Annotated[StrictStr, Field(min_length=1, max_length=64)] | None = None


class MoveBody(BaseModel):
    """``POST /api/games/{id}/moves``: where to place the card, the turn it was shown at and, optionally, the card.

    ``card`` is the card the player saw and means to place; the page always sends it, so that a click meant
    for one card never places the next one, unseen (a 409 ``wrong_card`` instead).
    """

    model_config = ConfigDict(extra="forbid")

    row: Integer
    col: Integer
    turn: Annotated[StrictInt, Field(ge=0), WHOLE]
    card: Annotated[StrictStr, Field(pattern=CARD_NAME)] | None = None


def refuse_if_over(stored: StoredGame, game: Game) -> None:
    if stored.is_over:
        raise ConflictError("game_over", outcome=game.outcome())


def refuse_if_not_yours(stored: StoredGame, player: str, what: Phrase) -> None:
    """403 unless ``player`` started the game: looking at a game is open to its link, playing it is not."""
    if stored.player != player:
        raise ForbiddenError("not_your_game", what=what)


@router.post(
    "",
    status_code=201,
    summary="Start a game (or get today's daily deal)",
    dependencies=[Depends(rate_limited("games"))],
    responses={
        200: {"model": GameState, "description": "The player's daily game of today, started before (`daily` only)"}
    },
)
async def new_game(
    store: StoreDep,
    player: PlayerDep,
    retention: RetentionDep,
    client: ClientDep,
    heavy: HeavyPoolDep,
    request: Request,
    response: Response,
    body: Annotated[NewGameBody | None, Body()] = None,
) -> GameState:
    body = body or NewGameBody()
    kinds = [body.deal is not None, body.daily, body.winnable, body.like is not None]
    if sum(kinds) > 1:
        raise UnprocessableError("bad_request", problems=Phrase("one_deal_kind"))
    if body.like is not None and body.variant is not None:
        raise UnprocessableError("bad_request", problems=Phrase("like_keeps_rules"))
    try:
        if body.winnable:
            limits: RateLimits = request.app.state.rate_limits
            stored, created = await winnable_game(store, player, heavy, client, limits, body, retention.live_games)
        else:
            stored, created = await run_in_threadpool(start_game, store, player, body, retention.live_games)
    except TooManyGamesError as exc:
        raise ConflictError("too_many_games", limit=exc.limit) from None
    if created:
        metrics_of(request).game_started(stored)
    else:
        response.status_code = 200
    return await run_in_threadpool(lambda: game_state(stored, stored.rebuild(), viewer=player))


def variant_of(body: NewGameBody) -> Variant:
    return Variant(**body.variant.model_dump()) if body.variant else Variant()


def start_game(store: Store, player: str, body: NewGameBody, live_limit: int) -> tuple[StoredGame, bool]:
    """The game ``body`` asks for (not a winnable deal: :func:`winnable_game`), stored for ``player`` unless they
    have ``live_limit`` live games already."""
    variant = variant_of(body)
    if body.like is not None:
        return game_like(store, player, body.like, live_limit)
    if body.daily:
        return store.daily.game(player, variant, live_limit=live_limit)
    hidden = body.deal is None
    deal = random_deal_number() if body.deal is None else body.deal
    return store.games.create(player, deal=deal, variant=variant, hidden=hidden, live_limit=live_limit), True


async def winnable_game(
    store: Store, player: str, heavy: ComputePool, client: str, limits: RateLimits, body: NewGameBody, live_limit: int
) -> tuple[StoredGame, bool]:
    """A new game of a deal the solver proves winnable, solved on the ``heavy`` pool for ``client``: 429 past the
    client's ``winnable`` rate, 503 ``busy`` when the pool is full, 503 ``not_available`` without the solver or
    when it finds no deal; 409 before any solving when ``player`` has ``live_limit`` live games."""
    retry_after = await run_in_threadpool(limits.retry_after, "winnable", client)
    if retry_after is not None:
        raise RateLimitedError(retry_after)
    heavy.refuse_if_full(client)  # before the database is read: a refusal costs the server next to nothing
    if await run_in_threadpool(store.games.live_count, player) >= live_limit:
        raise TooManyGamesError(live_limit)  # before solving: a capped player costs no solve
    variant = variant_of(body)
    try:  # the workers need it: answer 503 at once without it (imported in a thread: numba's import is slow)
        solver = await run_in_threadpool(importlib.import_module, "foursquare.solver")
    except ImportError as exc:
        raise UnavailableError("not_available", what=Phrase("what.winnable"), error=exc) from None
    try:
        deal = await heavy.run_for(client, winnable_deal, variant)
    except solver.SolverError as exc:  # no deal proven winnable
        raise UnavailableError("not_available", what=Phrase("what.winnable"), error=exc) from None
    created = await run_in_threadpool(
        lambda: store.games.create(
            player, deal=deal, variant=variant, hidden=True, winnable=True, live_limit=live_limit
        )
    )
    return created, True


def game_like(store: Store, player: str, game_id: str, live_limit: int) -> tuple[StoredGame, bool]:
    """A new game of the deal of ``game_id`` with its house rules, for ``player``; never telling a hidden number.

    The copy of a game whose number is hidden is hidden too (and revealed when the copy ends). A copy of
    today's daily deal is the player's daily game. Nobody copies a live game: playing the copy (or losing it
    on purpose, to see its number) would show the cards to come in the original.
    """
    source = store.games.get(game_id)
    if not source.is_over:
        raise ConflictError("still_playing", what=Phrase("what.anotherGame"))
    if source.daily is not None and source.daily == store.database.today():
        return store.daily.game(player, source.variant, live_limit=live_limit)
    hidden = source.deal is not None and source.visible_deal is None
    copy = store.games.create(
        player,
        deal=source.deal,
        stock=source.stock,
        variant=source.variant,
        hidden=hidden,
        winnable=source.winnable,
        live_limit=live_limit,
    )
    return copy, True


@router.get("", summary="List your games, newest first")
def list_games(
    store: StoreDep,
    player: PlayerDep,
    page: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 1,
    per_page: Annotated[int, Query(ge=1, le=MAX_PER_PAGE)] = 20,
) -> GameList:
    games, total = store.games.page(player, page=page, per_page=per_page)
    return GameList(games=[summary(g) for g in games], page=page, per_page=per_page, total=total)


@router.get("/{game_id}", summary="The state of a game")
def get_game(game_id: str, store: StoreDep, player: PlayerDep) -> GameState:
    stored = store.games.get(game_id)
    return game_state(stored, stored.rebuild(), viewer=player)


@router.post("/{game_id}/moves", summary="Place the card to place", dependencies=MOVES_LIMITED)
def move(
    game_id: str, body: MoveBody, store: StoreDep, player: PlayerDep, changes: ChangesDep, request: Request
) -> MoveResult:
    def apply(game: Game, stored: StoredGame) -> Placement:
        refuse_if_not_yours(stored, player, Phrase("doing.place"))
        refuse_if_over(stored, game)
        if body.turn != game.turn:
            raise ConflictError("stale_turn", turn=game.turn, asked=body.turn)
        to_place = game.card_to_place
        if body.card is not None and to_place is not None and body.card != to_place.name:
            # Naming the card to place reveals nothing: the player is entitled to see it (never the stock).
            raise ConflictError("wrong_card", card=to_place.name, asked=body.card)
        illegal = game.illegality(body.row, body.col)
        if illegal is not None:
            raise IllegalMove(illegal)
        return game.place(body.row, body.col)

    with changes.counting():
        stored, game, placement = store.games.change(game_id, apply)
        metrics = metrics_of(request)
        metrics.move()
        if stored.is_over:  # this move ended it (a move on a game over is refused)
            metrics.game_finished(stored)
        return move_result(stored, game, placement, viewer=player)


def step_in_history(store: Store, game_id: str, player: str, *, undo: bool) -> GameState:
    """Undo the last card, or redo the last undone one; 409 when there is none."""

    def apply(game: Game, stored: StoredGame) -> None:
        refuse_if_not_yours(stored, player, Phrase("doing.undo" if undo else "doing.redo"))
        refuse_if_over(stored, game)
        if not (game.can_undo if undo else game.can_redo):
            raise ConflictError("nothing_to_undo" if undo else "nothing_to_redo")
        if undo:
            game.undo()
        else:
            game.redo()

    stored, game, _ = store.games.change(game_id, apply)
    return game_state(stored, game, viewer=player)


@router.post("/{game_id}/undo", summary="Take back the last card", dependencies=MOVES_LIMITED)
def undo(game_id: str, store: StoreDep, player: PlayerDep, changes: ChangesDep) -> GameState:
    with changes.counting():
        return step_in_history(store, game_id, player, undo=True)


@router.post("/{game_id}/redo", summary="Play the last undone card again", dependencies=MOVES_LIMITED)
def redo(game_id: str, store: StoreDep, player: PlayerDep, changes: ChangesDep) -> GameState:
    with changes.counting():
        return step_in_history(store, game_id, player, undo=False)


@router.post(
    "/{game_id}/restart", summary="Back to the first card of the same deal", dependencies=MOVES_LIMITED
)
def restart(game_id: str, store: StoreDep, player: PlayerDep, changes: ChangesDep) -> GameState:
    def apply(game: Game, stored: StoredGame) -> None:
        refuse_if_not_yours(stored, player, Phrase("doing.restart"))
        refuse_if_over(stored, game)
        game.restart()

    with changes.counting():
        stored, game, _ = store.games.change(game_id, apply)
        return game_state(stored, game, viewer=player)
