"""What the routes are given (FastAPI dependencies): the store, the player, the analysis locks.

:func:`foursquare.web.app.create_app` puts them in ``app.state``; a test may replace any of them
with ``app.dependency_overrides``.
"""

from __future__ import annotations

import threading
from typing import Annotated

from fastapi import Depends, Request

from foursquare.web.store import Store


class AnalysisLocks:
    """One lock per game, so that simultaneous requests for an analysis wait for one computation."""

    def __init__(self) -> None:
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def __call__(self, game_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(game_id, threading.Lock())


def get_store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def get_player(request: Request) -> str:
    """The player's id, from the cookie (see :mod:`foursquare.web.player`)."""
    player: str = request.state.player
    return player


def get_analysis_locks(request: Request) -> AnalysisLocks:
    locks: AnalysisLocks = request.app.state.analysis_locks
    return locks


StoreDep = Annotated[Store, Depends(get_store)]
PlayerDep = Annotated[str, Depends(get_player)]
AnalysisLocksDep = Annotated[AnalysisLocks, Depends(get_analysis_locks)]
