"""The bounded pool of hints and analyses (foursquare.web.pool), over HTTP against a real uvicorn server.

The server runs in a thread of the test process so that a test can occupy the pool's worker with a job of
its own (``hold_until``, released by creating a file) and so make "the pool is full" happen on cue. The
workers are real processes: the functions they run here are module-level, so they reach them by name.
"""

from __future__ import annotations

import asyncio
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from foursquare import players
from foursquare.analysis import VERSION
from foursquare.engine import Game
from foursquare.web import create_app
from foursquare.web.pool import PoolSettings, PoolSettingsError, default_workers

# Winning lines of deals 1 and 2 (as in test_api.py), found by ``foursquare solve --deal N``.
WIN_1 = [[0, 0], [0, 1], [1, 0], [0, 2], [1, 1], [2, 0], [1, 2], [0, 3], [2, 2], [3, 2], [3, 3], [1, 3], [2, 1],
         [2, 3], [3, 1], [3, 0]]  # fmt: skip
WIN_2 = [[0, 0], [0, 1], [1, 0], [2, 0], [0, 2], [0, 3], [1, 2], [2, 1], [1, 3], [2, 2], [1, 1], [3, 0], [3, 2],
         [3, 3], [2, 3], [3, 1]]  # fmt: skip

HOLD_SECONDS = 60.0
"""The longest a held worker waits for its release (a failing test must not hang the run)."""


def hold_until(path: str) -> str:
    """A job that keeps its worker busy until ``path`` exists."""
    deadline = time.monotonic() + HOLD_SECONDS
    while not os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.02)
    return "released"


def slow_analysis(game: Game) -> dict[str, Any]:
    """A stand-in for the (long) analysis, run in a worker: slow enough that the requests overlap."""
    time.sleep(1.0)
    outcome = game.outcome()
    return {"outcome": outcome.status, "score": outcome.score, "moves": len(game.moves), "version": VERSION}


def die() -> None:
    os._exit(1)  # a worker killed under its job (out of memory, say)


@contextmanager
def serving(app: FastAPI) -> Iterator[str]:
    """``app`` under a real uvicorn server in a thread; yields its base URL."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    try:
        wait_for(lambda: server.started, "the server to start")
        yield url
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def wait_for(condition: Callable[[], bool], what: str, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"waited {seconds} s for {what}")
        time.sleep(0.01)


def post(http: httpx.Client, path: str, **body: Any) -> dict[str, Any]:
    response = http.post(path, json=body)
    assert response.status_code in (200, 201), response.text
    data: dict[str, Any] = response.json()
    return data


def play(http: httpx.Client, deal: int, moves: list[list[int]]) -> dict[str, Any]:
    state = post(http, "/api/games", deal=deal)
    for row, col in moves:
        state = post(http, f"/api/games/{state['id']}/moves", row=row, col=col, turn=state["turn"])
    return state


def in_process_hint(deal: int, moves: list[list[int]]) -> dict[str, Any]:
    game = Game(deal=deal)
    for row, col in moves:
        game.place(row, col)
    return {"turn": game.turn, "moves": [advice.to_json() for advice in players.hint(game.view(), seed=0)]}


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def tiny(db_path: Path) -> Iterator[tuple[FastAPI, str]]:
    """A server whose pool has one worker process and room for one waiting job."""
    app = create_app(db_path, pool=PoolSettings(kind="process", workers=1, queue=1, retry_after=3))
    with serving(app) as url:
        yield app, url


@contextmanager
def held(app: FastAPI, release: Path, places: int = 1) -> Iterator[None]:
    """Places in the pool taken by jobs of the test's own until the block ends (then ``release`` is made)."""
    jobs: list[Future[str]] = [app.state.pool.submit(hold_until, str(release)) for _ in range(places)]
    try:
        yield
    finally:
        release.touch()
        assert [job.result(timeout=HOLD_SECONDS) for job in jobs] == ["released"] * places


@pytest.mark.slow  # worker processes
def test_past_the_queue_a_hint_is_refused_with_503_busy_and_retry_after_while_moves_go_on(
    tiny: tuple[FastAPI, str], tmp_path: Path
) -> None:
    app, url = tiny
    line = WIN_1
    with httpx.Client(base_url=url, timeout=60) as http:
        state = play(http, 1, line[:3])
        game_id = state["id"]
        # Other connections of the same player (only a game's player may ask for its hint).
        waiting = httpx.Client(base_url=url, timeout=60, cookies=http.cookies)
        queued: list[httpx.Response] = []
        asker = threading.Thread(target=lambda: queued.append(waiting.get(f"/api/games/{game_id}/hint")))
        with held(app, tmp_path / "release"):
            asker.start()
            wait_for(lambda: app.state.pool.unfinished == 2, "the hint to wait in the queue")

            async def flood() -> list[httpx.Response]:
                async with httpx.AsyncClient(base_url=url, timeout=60, cookies=http.cookies) as client:
                    asks = [client.get(f"/api/games/{game_id}/hint") for _ in range(20)]
                    return list(await asyncio.gather(*asks))

            for refused in asyncio.run(flood()):
                assert refused.status_code == 503
                assert refused.headers["retry-after"] == "3"
                assert refused.json() == {
                    "detail": "the server is busy with other hints and analyses: try again in 3 s",
                    "code": "busy",
                }
            # The pool is full, and moves are answered all the same.
            assert queued == []
            for row, col in line[3:6]:
                state = post(http, f"/api/games/{game_id}/moves", row=row, col=col, turn=state["turn"])
            assert http.get(f"/api/games/{game_id}").json()["turn"] == 6
        asker.join(timeout=HOLD_SECONDS)
        waiting.close()
        # The queued hint is answered once the worker is free: for the position it was asked in.
        assert [r.status_code for r in queued] == [200]
        assert queued[0].json() == in_process_hint(1, line[:3])
        hint = http.get(f"/api/games/{game_id}/hint")
        assert hint.status_code == 200
        assert hint.json() == in_process_hint(1, line[:6])


@pytest.mark.slow  # worker processes
def test_a_hint_from_the_worker_process_equals_the_hint_computed_in_process(tiny: tuple[FastAPI, str]) -> None:
    _, url = tiny
    line = WIN_2
    with httpx.Client(base_url=url, timeout=60) as http:
        state = post(http, "/api/games", deal=2)
        for turn, (row, col) in enumerate(line[:-1]):
            answer = http.get(f"/api/games/{state['id']}/hint")
            assert answer.status_code == 200, answer.text
            assert answer.json() == in_process_hint(2, line[:turn])
            state = post(http, f"/api/games/{state['id']}/moves", row=row, col=col, turn=turn)


def test_the_analysis_is_computed_once_on_the_pool_when_asked_concurrently(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Five simultaneous asks on a pool with room for one job: one job, five equal answers, one stored."""
    monkeypatch.setattr("foursquare.web.routes.analysis.analysis_json", slow_analysis)
    app = create_app(db_path, pool=PoolSettings(kind="process", workers=1, queue=0))
    submitted: list[Any] = []
    submit = app.state.pool.submit

    def counting_submit(fn: Any, *args: Any) -> Any:
        submitted.append(fn)
        return submit(fn, *args)

    monkeypatch.setattr(app.state.pool, "submit", counting_submit)
    with serving(app) as url, httpx.Client(base_url=url, timeout=60) as http:
        state = play(http, 2, WIN_2)
        answers: list[httpx.Response] = []
        barrier = threading.Barrier(5)

        def ask() -> None:
            with httpx.Client(base_url=url, timeout=60) as client:
                barrier.wait()
                answers.append(client.get(f"/api/games/{state['id']}/analysis"))

        askers = [threading.Thread(target=ask) for _ in range(5)]
        for asker in askers:
            asker.start()
        for asker in askers:
            asker.join()
        assert [a.status_code for a in answers] == [200] * 5, [a.text for a in answers]
        assert all(a.json() == {"outcome": "won", "score": 24, "moves": 16, "version": VERSION} for a in answers)
        assert submitted == [slow_analysis]
        again = http.get(f"/api/games/{state['id']}/analysis")  # from the database
        assert again.json() == answers[0].json()
        assert submitted == [slow_analysis]


def test_an_analysis_stored_by_an_older_version_is_computed_again(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An analysis cached before the current shape (no cell names, say) is replaced, not served."""
    monkeypatch.setattr("foursquare.web.routes.analysis.analysis_json", slow_analysis)
    app = create_app(db_path, pool=PoolSettings(kind="process", workers=1, queue=0))
    with serving(app) as url, httpx.Client(base_url=url, timeout=60) as http:
        state = play(http, 2, WIN_2)
        app.state.store.save_analysis(state["id"], {"moves": [], "old": True})  # version 1: no "version" key
        answer = http.get(f"/api/games/{state['id']}/analysis")
        assert answer.status_code == 200, answer.text
        assert answer.json()["version"] == VERSION and "old" not in answer.json()
        app.state.store.save_analysis(state["id"], {"moves": [], "old": True})  # never over a current one
        assert http.get(f"/api/games/{state['id']}/analysis").json() == answer.json()


@pytest.mark.slow  # worker processes
def test_a_full_pool_refuses_an_analysis_with_503_busy_and_retry_after(
    tiny: tuple[FastAPI, str], tmp_path: Path
) -> None:
    app, url = tiny
    with httpx.Client(base_url=url, timeout=60) as http:
        state = play(http, 1, WIN_1)
        with held(app, tmp_path / "release", places=2):
            refused = http.get(f"/api/games/{state['id']}/analysis")
            assert refused.status_code == 503
            assert refused.headers["retry-after"] == "3"
            assert refused.json()["code"] == "busy"


@pytest.mark.slow  # worker processes
def test_after_a_worker_dies_the_next_hint_is_answered(tiny: tuple[FastAPI, str]) -> None:
    app, url = tiny
    dead = app.state.pool.submit(die)
    with pytest.raises(Exception, match="terminated abruptly"):
        dead.result(timeout=HOLD_SECONDS)
    with httpx.Client(base_url=url, timeout=60) as http:
        state = post(http, "/api/games", deal=3)
        answer = http.get(f"/api/games/{state['id']}/hint")
        assert answer.status_code == 200, answer.text
        assert answer.json() == in_process_hint(3, [])


def test_pool_settings_come_from_the_environment_and_are_checked() -> None:
    assert PoolSettings.from_environment({}) == PoolSettings("process", default_workers(), 8 * default_workers())
    settings = PoolSettings.from_environment(
        {"FOURSQUARE_POOL": "thread", "FOURSQUARE_POOL_WORKERS": "3", "FOURSQUARE_POOL_QUEUE": "0"}
    )
    assert (settings.kind, settings.workers, settings.queue) == ("thread", 3, 0)
    for environ, message in (
        ({"FOURSQUARE_POOL": "fibres"}, "FOURSQUARE_POOL must be 'process' or 'thread', not 'fibres'"),
        ({"FOURSQUARE_POOL_WORKERS": "two"}, "FOURSQUARE_POOL_WORKERS must be a whole number, not 'two'"),
        ({"FOURSQUARE_POOL_WORKERS": "0"}, "the pool needs at least one worker, not 0"),
        ({"FOURSQUARE_POOL_QUEUE": "-2"}, "the pool's queue holds 0 jobs or more, not -2"),
    ):
        with pytest.raises(PoolSettingsError, match=message):
            PoolSettings.from_environment(environ)


def test_a_server_stopping_with_a_job_running_ends_its_workers_rather_than_wait(
    db_path: Path, tmp_path: Path
) -> None:
    app = create_app(db_path, pool=PoolSettings(kind="process", workers=1, queue=1))
    with serving(app):
        job = app.state.pool.submit(hold_until, str(tmp_path / "never"))
        wait_for(job.running, "the job to start")
    with pytest.raises(Exception, match="terminated abruptly"):
        job.result(timeout=HOLD_SECONDS / 2)
