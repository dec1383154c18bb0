"""Games: start one, list yours, show one, and change it (a move, undo, redo, restart).

Every change runs in one store transaction (:meth:`~foursquare.web.store.Store.change`) that
re-reads the game, checks the request against it and applies it with the engine.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Query
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from foursquare.cards import MAX_DEAL, random_deal_number
from foursquare.engine import Game, Placement, Variant
from foursquare.web.deps import PlayerDep, StoreDep
from foursquare.web.errors import ConflictError, IllegalMove
from foursquare.web.fields import WHOLE, Integer
from foursquare.web.store import Store, StoredGame
from foursquare.web.views import placement_json, state_json, summary_json

MAX_PER_PAGE = 100
# Far beyond any real list, and small enough that the page's offset fits a SQLite integer.
MAX_PAGE = 10**9
CARD_NAME = r"^(A|[2-9]|10)[CDHS]$"
"""A card's name exactly as the API writes it (``AC``, ``7H``, ``10S``): a move's ``card`` is compared with it."""

router = APIRouter(prefix="/api/games")


class VariantBody(BaseModel):
    """House rules of a new game."""

    model_config = ConfigDict(extra="forbid")

    adjacency: Literal["orthogonal", "diagonal"] = "orthogonal"
    count_buried: StrictBool = False


class NewGameBody(BaseModel):
    """``POST /api/games``: a numbered deal (its number shown) or a random one (its number hidden)."""

    model_config = ConfigDict(extra="forbid")

    deal: Annotated[StrictInt, Field(ge=0, lt=MAX_DEAL), WHOLE] | None = None
    variant: VariantBody | None = None


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


@router.post("", status_code=201, summary="Start a game")
def new_game(store: StoreDep, player: PlayerDep, body: Annotated[NewGameBody | None, Body()] = None) -> dict[str, Any]:
    body = body or NewGameBody()
    variant = Variant(**body.variant.model_dump()) if body.variant else Variant()
    hidden = body.deal is None
    deal = random_deal_number() if body.deal is None else body.deal
    stored = store.create_game(player, deal=deal, variant=variant, hidden=hidden)
    return state_json(stored, stored.rebuild())


@router.get("", summary="List your games, newest first")
def list_games(
    store: StoreDep,
    player: PlayerDep,
    page: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 1,
    per_page: Annotated[int, Query(ge=1, le=MAX_PER_PAGE)] = 20,
) -> dict[str, Any]:
    games, total = store.list_games(player, page=page, per_page=per_page)
    return {"games": [summary_json(g) for g in games], "page": page, "per_page": per_page, "total": total}


@router.get("/{game_id}", summary="The state of a game")
def get_game(game_id: str, store: StoreDep) -> dict[str, Any]:
    stored = store.get(game_id)
    return state_json(stored, stored.rebuild())


@router.post("/{game_id}/moves", summary="Place the card to place")
def move(game_id: str, body: MoveBody, store: StoreDep) -> dict[str, Any]:
    def apply(game: Game, stored: StoredGame) -> Placement:
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

    stored, game, placement = store.change(game_id, apply)
    return {**state_json(stored, game), **placement_json(placement)}


def step_in_history(store: Store, game_id: str, *, undo: bool) -> dict[str, Any]:
    """Undo the last card, or redo the last undone one; 409 when there is none."""

    def apply(game: Game, stored: StoredGame) -> None:
        refuse_if_over(stored, game)
        if not (game.can_undo if undo else game.can_redo):
            raise ConflictError("nothing_to_undo" if undo else "nothing_to_redo")
        if undo:
            game.undo()
        else:
            game.redo()

    stored, game, _ = store.change(game_id, apply)
    return state_json(stored, game)


@router.post("/{game_id}/undo", summary="Take back the last card")
def undo(game_id: str, store: StoreDep) -> dict[str, Any]:
    return step_in_history(store, game_id, undo=True)


@router.post("/{game_id}/redo", summary="Play the last undone card again")
def redo(game_id: str, store: StoreDep) -> dict[str, Any]:
    return step_in_history(store, game_id, undo=False)


@router.post("/{game_id}/restart", summary="Back to the first card of the same deal")
def restart(game_id: str, store: StoreDep) -> dict[str, Any]:
    def apply(game: Game, stored: StoredGame) -> None:
        refuse_if_over(stored, game)
        game.restart()

    stored, game, _ = store.change(game_id, apply)
    return state_json(stored, game)
