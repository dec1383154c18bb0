"""The player's statistics over their finished games."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from foursquare.web.deps import PlayerDep, StoreDep

router = APIRouter()


@router.get("/api/stats", summary="Your statistics over finished games")
def stats(store: StoreDep, player: PlayerDep) -> dict[str, Any]:
    return store.stats(player)
