"""Advice and hindsight: the hint while a game is played; its analysis, record and replay once it is over.

Nothing here changes a game. What would reveal the stock (the record's deal number, the analysis's
perfect-information verdict) is served only once the game is over.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from foursquare import record
from foursquare.engine import Placement
from foursquare.web.deps import AnalysisLocks, AnalysisLocksDep, PlayerDep, StoreDep
from foursquare.web.errors import ConflictError, UnavailableError, UnprocessableError
from foursquare.web.routes.games import refuse_if_not_yours, refuse_if_over
from foursquare.web.store import DamagedGameError, Store, StoredGame
from foursquare.web.views import position_json

router = APIRouter(prefix="/api/games")


def finished(store: Store, game_id: str, what: str) -> StoredGame:
    """The stored game, or 409 while it is being played (``what`` is available once it is over)."""
    stored = store.get(game_id)
    if not stored.is_over:
        raise ConflictError("still_playing", what=what)
    return stored


@router.get("/{game_id}/hint", summary="Rank the legal moves, best first")
def hint(game_id: str, store: StoreDep, player: PlayerDep) -> dict[str, Any]:
    stored = store.get(game_id)
    game = stored.rebuild()
    refuse_if_not_yours(stored, player, "ask for a hint")  # a hint is assistance: for the player only
    refuse_if_over(stored, game)
    try:
        from foursquare import players
    except ImportError as exc:
        raise UnavailableError("not_available", what="the hint", error=exc) from None
    moves = [advice.to_json() for advice in players.hint(game.view(), seed=0)]
    store.mark_assisted(game_id)
    return {"turn": game.turn, "moves": moves}


@router.get("/{game_id}/analysis", summary="Analyse a finished game (slow the first time)")
async def analysis(game_id: str, store: StoreDep, locks: AnalysisLocksDep) -> Any:
    return JSONResponse(json.loads(await run_in_threadpool(analysis_text, store, locks, game_id)))


def analysis_text(store: Store, locks: AnalysisLocks, game_id: str) -> str:
    """The cached analysis, computed first if need be — once, however many requests ask at the same time."""
    stored = finished(store, game_id, "the analysis")
    if stored.analysis is not None:
        return stored.analysis
    try:
        from foursquare.analysis import analyze
    except ImportError as exc:
        raise UnavailableError("not_available", what="the analysis", error=exc) from None
    with locks(game_id):
        stored = store.get(game_id)
        if stored.analysis is None:
            store.save_analysis(game_id, analyze(stored.rebuild()))
            stored = store.get(game_id)
    if stored.analysis is None:
        raise DamagedGameError(f"the analysis of game {game_id!r} was not stored")
    return stored.analysis


@router.get("/{game_id}/record", summary="The game record of a finished game")
def game_record(game_id: str, store: StoreDep) -> dict[str, Any]:
    return record.to_json(finished(store, game_id, "the record").rebuild())


@router.get("/{game_id}/replay", summary="The position after the first k moves of a finished game")
def replay(game_id: str, store: StoreDep, turn: Annotated[int | None, Query()] = None) -> dict[str, Any]:
    stored = finished(store, game_id, "the replay")
    k = stored.turn if turn is None else turn
    if not 0 <= k <= stored.turn:
        raise UnprocessableError("bad_replay_turn", turn=stored.turn, asked=k)
    game = stored.fresh()
    placement: Placement | None = None
    for move in stored.moves[:k]:
        placement = game.place(move.row, move.col)
    return position_json(game, placement)
