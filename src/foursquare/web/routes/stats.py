"""The player's statistics over their finished games."""

from __future__ import annotations

from fastapi import APIRouter

from foursquare.web.deps import PlayerDep, StoreDep
from foursquare.web.models import Stats
from foursquare.web.routing import Route

router = APIRouter(route_class=Route)


@router.get("/api/stats", summary="Your statistics over finished games")
def stats(store: StoreDep, player: PlayerDep) -> Stats:
    return Stats.model_validate(store.stats.of(player))
