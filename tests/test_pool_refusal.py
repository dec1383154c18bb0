"""A job the pool would refuse is refused before its route reads anything (``ComputePool.refuse_if_full``): the
check agrees with :meth:`ComputePool.submit_for` in every case of its rule, and a hint refused ``busy`` never
reads or rebuilds the game; nor does a hint asked while the server is behind on the moves (``InFlight``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from foursquare.engine import View
from foursquare.store import Store
from foursquare.web import create_app
from foursquare.web.errors import BusyError
from foursquare.web.pool import CHANGES_BEFORE_HINTS_WAIT, ComputePool, InFlight, PoolSettings
from foursquare.web.routes import analysis
from test_pool import GUARD, Gates, one_worker


def refused(pool: ComputePool, client: str) -> bool:
    try:
        pool.refuse_if_full(client)
    except BusyError:
        return True
    return False


def test_the_early_refusal_follows_the_rule_of_submit() -> None:
    pool, gates = one_worker(queue=2), Gates("a0", "a1", "a2")
    flood = [pool.submit_for("flood", gates.job, f"a{i}") for i in range(3)]
    gates.wait_started("a0")
    assert refused(pool, "flood")  # alone, it has every place; no more
    assert not refused(pool, "player")  # would take the place of the flood's newest job
    player = pool.submit_for("player", gates.job, "b0")
    assert refused(pool, "player")  # as many places as the flood waits for
    assert pool.unfinished == pool.capacity  # the checks took no place and displaced nothing
    third = pool.submit_for("third", gates.job, "c0")
    assert refused(pool, "fourth")  # every waiting job is its client's only one
    gates.release("a0")
    assert (player.result(timeout=GUARD), third.result(timeout=GUARD)) == ("b0", "c0")
    for job in flood[1:]:
        with pytest.raises(BusyError):
            job.result(timeout=GUARD)
    assert not refused(pool, "flood")  # room again


def test_a_hint_refused_busy_never_reads_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(tmp_path / "games.db", pool=PoolSettings(kind="thread", workers=1, queue=0))
    read: list[str] = []
    real = analysis.hint_view

    def hint_view(store: Store, game_id: str, player: str) -> tuple[View, bool]:
        read.append(game_id)
        return real(store, game_id, player)

    monkeypatch.setattr(analysis, "hint_view", hint_view)
    gates = Gates("hold")
    held = app.state.pool.submit_for("someone", gates.job, "hold")  # the only place, taken
    gates.wait_started("hold")
    transport = httpx.ASGITransport(app=app)

    async def ask() -> httpx.Response:
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            await http.get("/api/stats")
            game = (await http.post("/api/games", json={})).json()
            return await http.get(f"/api/games/{game['id']}/hint")

    response = asyncio.run(ask())
    assert response.status_code == 503 and response.json()["code"] == "busy" and "retry-after" in response.headers
    assert read == []
    gates.release("hold")
    assert held.result(timeout=GUARD) == "hold"


def test_a_hint_waits_while_the_server_is_behind_on_the_moves(tmp_path: Path) -> None:
    app = create_app(tmp_path / "games.db", pool=PoolSettings(kind="thread", workers=1, queue=0))
    transport = httpx.ASGITransport(app=app)

    async def hint_while(changes: int) -> httpx.Response:
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            await http.get("/api/stats")
            game = (await http.post("/api/games", json={})).json()
            app.state.changes_in_flight = InFlight()
            app.state.changes_in_flight.count = changes  # as if so many moves were being answered
            return await http.get(f"/api/games/{game['id']}/hint")

    busy = asyncio.run(hint_while(CHANGES_BEFORE_HINTS_WAIT))
    assert busy.status_code == 503 and busy.json()["code"] == "busy" and "retry-after" in busy.headers
    assert asyncio.run(hint_while(CHANGES_BEFORE_HINTS_WAIT - 1)).status_code == 200
