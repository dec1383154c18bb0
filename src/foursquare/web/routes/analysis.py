"""Advice and hindsight: the hint while a game is played; its analysis, record and replay once it is over.

Nothing here changes a game. What would reveal the stock (the record's deal number, the analysis's
perfect-information verdict) is served only once the game is over, and for a daily game once its UTC day is.
Hints are computed on the bounded pool of :mod:`foursquare.web.pool`, analyses on its heavy pool, never in the
server's process.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
from concurrent.futures import BrokenExecutor, Future
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Response
from fastapi.concurrency import run_in_threadpool

from foursquare.engine import Placement, View
from foursquare.store import Store, StoredGame
from foursquare.web.deps import AnalysisJobsDep, ClientDep, PlayerDep, PoolDep, StoreDep, rate_limited
from foursquare.web.errors import BusyError, ConflictError, UnavailableError, UnprocessableError
from foursquare.web.messages import Phrase
from foursquare.web.models import Analysis, GameRecord, Hint, ReplayPosition
from foursquare.web.pool import CHANGES_BEFORE_HINTS_WAIT, ComputePool, analysis_json, hint_json
from foursquare.web.routes.games import ChangesDep, HeavyPoolDep, refuse_if_not_yours, refuse_if_over
from foursquare.web.routing import Route
from foursquare.web.views import record_answer, replay_position

router = APIRouter(prefix="/api/games", route_class=Route)


def finished(store: Store, game_id: str, what: Phrase) -> StoredGame:
    """The stored game, or 409 while it is being played (``what`` is available once it is over)."""
    stored = store.games.get(game_id)
    if not stored.is_over:
        raise ConflictError("still_playing", what=what)
    return stored


def refuse_if_daily_secret(stored: StoredGame, what: Phrase) -> None:
    """409 for a daily game whose day is not over: its deal, and so its perfect line, tell today's other games."""
    if stored.daily_secret and stored.daily is not None:
        raise ConflictError("daily_secret", what=what, day=stored.daily.isoformat())


@router.get(
    "/{game_id}/hint", summary="Rank the legal moves, best first", dependencies=[Depends(rate_limited("hints"))]
)
async def hint(
    game_id: str, store: StoreDep, player: PlayerDep, pool: PoolDep, client: ClientDep, changes: ChangesDep
) -> Hint:
    if changes.count >= CHANGES_BEFORE_HINTS_WAIT:  # behind on the moves: the hint waits for them
        raise BusyError(retry_after=pool.settings.retry_after)
    pool.refuse_if_full(client)  # before the game is read and rebuilt: a refusal costs the server next to nothing
    view, assisted = await run_in_threadpool(hint_view, store, game_id, player)
    answer = Hint.model_validate(await pool.run_for(client, hint_json, view))
    if not assisted:  # only a hint answered is assistance; a game marked stays so, without a write a hint
        await run_in_threadpool(store.games.mark_assisted, game_id)
    return answer


def hint_view(store: Store, game_id: str, player: str) -> tuple[View, bool]:
    """What the hint is computed from: the player's view of the game (403 for another's, 409 once it is over);
    and whether the game is marked assisted already."""
    stored = store.games.get(game_id)
    game = stored.rebuild()
    refuse_if_not_yours(stored, player, Phrase("doing.hint"))  # a hint is assistance: for the player only
    refuse_if_over(stored, game)
    try:
        importlib.import_module("foursquare.players")  # the workers need it: answer 503 at once without it
    except ImportError as exc:
        raise UnavailableError("not_available", what=Phrase("what.hint"), error=exc) from None
    return game.view(), stored.assisted


# Answered as stored, the analysis module's own JSON (``analyze --json``): the model describes it, and the tests
# check that real analyses are exactly that model.
@router.get(
    "/{game_id}/analysis",
    summary="Analyse a finished game (slow the first time)",
    response_model=Analysis,
    dependencies=[Depends(rate_limited("analyses"))],
)
async def analysis(
    game_id: str, store: StoreDep, jobs: AnalysisJobsDep, pool: HeavyPoolDep, client: ClientDep
) -> Response:
    start = partial(start_analysis, pool, client)
    found = await run_in_threadpool(jobs.stored_or_job, store, game_id, analysable, start)
    if isinstance(found, str):
        return stored_json(found)
    # Shielded: a client who leaves does not cancel the computation the others wait for. Its outcome, a failure
    # included, is for jobs.finish (which forgets a failed job, so that a later request starts it again).
    with contextlib.suppress(Exception):
        await asyncio.shield(asyncio.wrap_future(found))
    try:
        text = await run_in_threadpool(jobs.finish, store, game_id, found)
    except BrokenExecutor:
        raise BusyError(retry_after=pool.settings.retry_after) from None
    return stored_json(text)


def stored_json(text: str) -> Response:
    """The stored analysis answered as it is stored: never parsed in the server's event loop."""
    return Response(text, media_type="application/json")


def analysable(stored: StoredGame) -> None:
    """409 while the game is being played, or all its day for a daily game; 503 without the analysis module."""
    if not stored.is_over:
        raise ConflictError("still_playing", what=Phrase("what.analysis"))
    refuse_if_daily_secret(stored, Phrase("what.analysis"))
    if stored.analysis is None:
        try:
            importlib.import_module("foursquare.analysis")  # the workers need it: answer 503 at once without it
        except ImportError as exc:
            raise UnavailableError("not_available", what=Phrase("what.analysis"), error=exc) from None


def start_analysis(pool: ComputePool, client: str, stored: StoredGame) -> Future[dict[str, Any]]:
    return pool.submit_for(client, analysis_json, stored.rebuild())


@router.get("/{game_id}/record", summary="The game record of a finished game")
def game_record(game_id: str, store: StoreDep) -> GameRecord:
    stored = finished(store, game_id, Phrase("what.record"))
    refuse_if_daily_secret(stored, Phrase("what.record"))
    return record_answer(stored.rebuild())


@router.get("/{game_id}/replay", summary="The position after the first k moves of a finished game")
def replay(game_id: str, store: StoreDep, turn: Annotated[int | None, Query()] = None) -> ReplayPosition:
    stored = finished(store, game_id, Phrase("what.replay"))
    k = stored.turn if turn is None else turn
    if not 0 <= k <= stored.turn:
        raise UnprocessableError("bad_replay_turn", turn=stored.turn, asked=k)
    game = stored.fresh()
    placement: Placement | None = None
    for move in stored.moves[:k]:
        placement = game.place(move.row, move.col)
    return replay_position(game, placement)
