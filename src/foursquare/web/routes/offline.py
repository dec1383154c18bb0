"""Games played offline: a device that played a game with no connection sends its record here once it can.

The server replays the record with the engine and stores the game for the player who sends it, once however
often it is sent (the device names the game with an id of its own). Such a game was played with its stock on
the device, so it counts in the player's games and statistics (played, won, streaks, scores) but never as clean
nor as a daily game, and never in the daily results. Sent again while it is not over, it is written over (the
player played on, or took cards back); once over, it no longer changes. Rate-limited per client (``offline``).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from foursquare import record
from foursquare.engine import Game
from foursquare.i18n import Translator
from foursquare.record import RecordError
from foursquare.store import OfflineGameError, Store, StoredGame, TooManyGamesError
from foursquare.web.deps import PlayerDep, RetentionDep, StoreDep, rate_limited
from foursquare.web.errors import ConflictError, UnprocessableError
from foursquare.web.messages import Phrase
from foursquare.web.metrics import metrics_of
from foursquare.web.models import GameState
from foursquare.web.routing import Route
from foursquare.web.views import game_state

router = APIRouter(prefix="/api/offline-games", route_class=Route)

OFFLINE_ID = r"^[A-Za-z0-9_-]{16,64}$"
"""A device's id of an offline game: 16 to 64 characters of base64url or a UUID's (``crypto.randomUUID()``)."""

MOVE_ERRORS = ("illegal_move", "move_after_end")
"""The records' error codes (``docs/records.md``) that name a move: the answer says which one."""


class OfflineGameBody(BaseModel):
    """``POST /api/offline-games``: a game played on a device, named by the device, and its record."""

    model_config = ConfigDict(extra="forbid")

    id: Annotated[StrictStr, Field(pattern=OFFLINE_ID)] = Field(
        description="the device's id of the game, the same each time it is sent: random, 96 bits or more"
        " (`crypto.randomUUID()`, or 16 random bytes in base64url)"
    )
    record: dict[str, Any] = Field(
        description="the game's record (`docs/records.md`, format `foursquare-game` version 1): its deal number or"
        " stock, its house rules and its moves so far (at most 40: a record past the end is refused)"
    )


class BadRecord(UnprocessableError):
    """A record the engine refuses (422 ``bad_record``); ``record_error`` is its code in ``docs/records.md``."""

    def __init__(self, error: RecordError) -> None:
        index = error.params.get("index")
        if error.code in MOVE_ERRORS and isinstance(index, int):
            problem = Phrase("record.bad_move", number=index + 1)
        else:
            problem = Phrase("record.malformed", code=error.code or "malformed")
        super().__init__("bad_record", problem=problem)
        self.record_error = error.code or "malformed"

    def body(self, t: Translator | None = None) -> dict[str, Any]:
        return {**super().body(t), "record_error": self.record_error}


@router.post(
    "",
    status_code=201,
    summary="Send a game played offline",
    dependencies=[Depends(rate_limited("offline"))],
    responses={200: {"model": GameState, "description": "The game was sent before: as stored now"}},
)
def send_offline_game(
    body: OfflineGameBody,
    store: StoreDep,
    player: PlayerDep,
    retention: RetentionDep,
    response: Response,
    request: Request,
) -> GameState:
    try:
        game = record.load(body.record)
    except RecordError as exc:
        raise BadRecord(exc) from None
    stored, created = stored_offline(store, player, body.id, game, retention.live_games)
    if created:
        metrics = metrics_of(request)
        metrics.game_started(stored)
        if stored.is_over:
            metrics.game_finished(stored)
    else:
        response.status_code = 200
    return game_state(stored, stored.rebuild(), viewer=player)


def stored_offline(store: Store, player: str, offline_id: str, game: Game, live_limit: int) -> tuple[StoredGame, bool]:
    """The game as stored, and whether it was new; the store's refusals as the API's."""
    try:
        return store.games.record_offline(player, offline_id, game, live_limit=live_limit)
    except TooManyGamesError as exc:
        raise ConflictError("too_many_games", limit=exc.limit) from None
    except OfflineGameError as exc:
        raise ConflictError("offline_conflict", problem=Phrase(f"offline.{exc.code}")) from None
