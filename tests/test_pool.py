"""The bounded pool of hints and analyses (foursquare.web.pool), over HTTP against a real uvicorn server.

The server runs in a thread of the test process so that a test can occupy the pool's worker with a job of
its own (``hold_until``, released by creating a file) and so make "the pool is full" happen on cue. The
workers are real processes: the functions they run here are module-level, so they reach them by name.

How the pool shares its worker between clients is tested on a pool of one thread, with jobs that each wait
for their own release (``Gates``), so that the order in which they run is decided by the pool alone.
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
from foursquare.engine import Game, View
from foursquare.web import create_app
from foursquare.web.errors import BusyError
from foursquare.web.pool import ANONYMOUS, ComputePool, PoolSettings, PoolSettingsError, default_workers

# Winning lines of deals 1 and 2 (as in test_api.py), found by ``foursquare solve --deal N``.
WIN_1 = [[0, 0], [0, 1], [1, 0], [0, 2], [1, 1], [2, 0], [1, 2], [0, 3], [2, 2], [3, 2], [3, 3], [1, 3], [2, 1],
         [2, 3], [3, 1], [3, 0]]  # fmt: skip
WIN_2 = [[0, 0], [0, 1], [1, 0], [2, 0], [0, 2], [0, 3], [1, 2], [2, 1], [1, 3], [2, 2], [1, 1], [3, 0], [3, 2],
         [3, 3], [2, 3], [3, 1]]  # fmt: skip

HOLD_SECONDS = 120.0
"""The longest a held worker waits for its release (a failing test must not hang the run)."""
GUARD = 90.0
"""The longest a test waits for something to happen (only a hang reaches it)."""
ANSWER_GUARD = 300.0
"""The longest a request to a live server may take: its hints run on a worker of a machine however busy."""
NICENESS = 0
"""The workers' niceness here, as in every server of the tests (conftest.py): at 10, beside busy processes, a worker
gets about 1 % of a core."""


def hold_until(path: str, started: str | None = None) -> str:
    """A job that keeps its worker busy until ``path`` exists (and first creates ``started``, if given)."""
    if started is not None:
        Path(started).touch()
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


def wait_for(condition: Callable[[], bool], what: str, seconds: float = GUARD) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"waited {seconds} s for {what}")
        time.sleep(0.01)


@contextmanager
def player_client(url: str, address: str = "127.0.0.1") -> Iterator[httpx.Client]:
    """A client of the server at ``url`` from ``address`` (any of 127.0.0.0/8), with its player cookie."""
    with httpx.Client(base_url=url, timeout=ANSWER_GUARD, transport=httpx.HTTPTransport(local_address=address)) as http:
        assert http.get("/api/stats").status_code == 200  # the cookie, before any request that changes something
        yield http


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
    app = create_app(db_path, pool=PoolSettings(kind="process", workers=1, queue=1, retry_after=3, niceness=NICENESS))
    with serving(app) as url:
        yield app, url


@contextmanager
def held(app: FastAPI, release: Path, places: int = 1, client: str = ANONYMOUS, pool: str = "pool") -> Iterator[None]:
    """Places in the app's ``pool`` (``pool``: the hints', ``heavy_pool``: the analyses') taken by jobs of the test's
    own, for ``client``, until the block ends (then ``release`` is made)."""
    pool = getattr(app.state, pool)
    jobs: list[Future[str]] = [pool.submit_for(client, hold_until, str(release)) for _ in range(places)]
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
    with player_client(url) as http:
        state = play(http, 1, line[:3])
        game_id = state["id"]
        # Other connections of the same player (only a game's player may ask for its hint).
        waiting = httpx.Client(base_url=url, timeout=ANSWER_GUARD, cookies=http.cookies)
        queued: list[httpx.Response] = []
        asker = threading.Thread(target=lambda: queued.append(waiting.get(f"/api/games/{game_id}/hint")))
        with held(app, tmp_path / "release"):
            asker.start()
            wait_for(lambda: app.state.pool.unfinished == 2, "the hint to wait in the queue")

            async def flood() -> list[httpx.Response]:
                async with httpx.AsyncClient(base_url=url, timeout=ANSWER_GUARD, cookies=http.cookies) as client:
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
    with player_client(url) as http:
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
    app = create_app(db_path, pool=PoolSettings(kind="process", workers=1, queue=0, niceness=NICENESS))
    submitted: list[Any] = []
    submit_for = app.state.heavy_pool.submit_for

    def counting_submit_for(client: str, fn: Any, *args: Any) -> Any:
        submitted.append(fn)
        return submit_for(client, fn, *args)

    monkeypatch.setattr(app.state.heavy_pool, "submit_for", counting_submit_for)
    with serving(app) as url, player_client(url) as http:
        state = play(http, 2, WIN_2)
        answers: list[httpx.Response] = []
        barrier = threading.Barrier(5)

        def ask() -> None:
            with httpx.Client(base_url=url, timeout=ANSWER_GUARD) as client:
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
    app = create_app(db_path, pool=PoolSettings(kind="process", workers=1, queue=0, niceness=NICENESS))
    with serving(app) as url, player_client(url) as http:
        state = play(http, 2, WIN_2)
        app.state.store.games.save_analysis(state["id"], {"moves": [], "old": True})  # version 1: no "version" key
        answer = http.get(f"/api/games/{state['id']}/analysis")
        assert answer.status_code == 200, answer.text
        assert answer.json()["version"] == VERSION and "old" not in answer.json()
        app.state.store.games.save_analysis(state["id"], {"moves": [], "old": True})  # never over a current one
        assert http.get(f"/api/games/{state['id']}/analysis").json() == answer.json()


@pytest.mark.slow  # worker processes
def test_a_pool_full_of_the_clients_own_jobs_refuses_its_analysis_with_503_busy_and_retry_after(
    tiny: tuple[FastAPI, str], tmp_path: Path
) -> None:
    app, url = tiny
    with player_client(url) as http:
        state = play(http, 1, WIN_1)
        with held(app, tmp_path / "release", places=2, client="127.0.0.1", pool="heavy_pool"):
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
    with player_client(url) as http:
        state = post(http, "/api/games", deal=3)
        answer = http.get(f"/api/games/{state['id']}/hint")
        assert answer.status_code == 200, answer.text
        assert answer.json() == in_process_hint(3, [])


def test_pool_settings_come_from_the_environment_and_are_checked() -> None:
    assert PoolSettings.from_environment({}) == PoolSettings("process", default_workers(), 8 * default_workers())
    assert PoolSettings.from_environment({}).niceness == 10
    settings = PoolSettings.from_environment(
        {"FOURSQUARE_POOL": "thread", "FOURSQUARE_POOL_WORKERS": "3", "FOURSQUARE_POOL_QUEUE": "0",
         "FOURSQUARE_POOL_NICENESS": "0"}
    )  # fmt: skip
    assert (settings.kind, settings.workers, settings.queue, settings.niceness) == ("thread", 3, 0, 0)
    assert PoolSettings.from_environment({"FOURSQUARE_POOL_NICENESS": "19"}, lane="heavy").niceness == 19
    for environ, message in (
        ({"FOURSQUARE_POOL": "fibres"}, "FOURSQUARE_POOL must be 'process' or 'thread', not 'fibres'"),
        ({"FOURSQUARE_POOL_WORKERS": "two"}, "FOURSQUARE_POOL_WORKERS must be a whole number, not 'two'"),
        ({"FOURSQUARE_POOL_WORKERS": "0"}, "the pool needs at least one worker, not 0"),
        ({"FOURSQUARE_POOL_QUEUE": "-2"}, "the pool's queue holds 0 jobs or more, not -2"),
        ({"FOURSQUARE_POOL_NICENESS": "20"}, "a worker's niceness is from 0 to 19, not 20"),
        ({"FOURSQUARE_POOL_NICENESS": "-1"}, "a worker's niceness is from 0 to 19, not -1"),
        ({"FOURSQUARE_POOL_NICENESS": "low"}, "FOURSQUARE_POOL_NICENESS must be a whole number, not 'low'"),
    ):
        with pytest.raises(PoolSettingsError, match=message):
            PoolSettings.from_environment(environ)


@pytest.mark.parametrize("niceness", [0, 7])
def test_the_workers_run_as_much_nicer_than_the_server_as_the_settings_say(niceness: int) -> None:
    pool = ComputePool(PoolSettings("process", workers=1, niceness=niceness))
    try:
        assert pool.submit(os.nice, 0).result(timeout=GUARD) == min(19, os.nice(0) + niceness)
    finally:
        pool.close()


def test_a_server_stopping_with_a_job_running_ends_its_workers_rather_than_wait(db_path: Path, tmp_path: Path) -> None:
    app = create_app(db_path, pool=PoolSettings(kind="process", workers=1, queue=1, niceness=NICENESS))
    with serving(app):
        job = app.state.pool.submit(hold_until, str(tmp_path / "never"), str(tmp_path / "started"))
        wait_for((tmp_path / "started").exists, "the job to start on its worker", GUARD)
    with pytest.raises(Exception, match="terminated abruptly"):
        job.result(timeout=HOLD_SECONDS / 2)


# --- fairness between clients: a pool of one thread, jobs released on cue ------------------------------------


class Gates:
    """Jobs named by the test that note when they start and then wait for their own release (or ``GUARD``)."""

    def __init__(self, *held: str) -> None:
        self.started: list[str] = []
        self._held = {name: threading.Event() for name in held}

    def job(self, name: str) -> str:
        """Runs on the pool's worker: a job that is not held ends at once."""
        self.started.append(name)
        gate = self._held.get(name)
        if gate is not None:
            gate.wait(GUARD)
        return name

    def release(self, name: str) -> None:
        self._held[name].set()

    def wait_started(self, *names: str) -> None:
        wait_for(lambda: self.started == list(names), f"the jobs {names} to have started, in that order")


def one_worker(queue: int) -> ComputePool:
    return ComputePool(PoolSettings(kind="thread", workers=1, queue=queue))


def test_a_clients_single_job_runs_before_the_waiting_jobs_of_a_client_flooding_the_pool() -> None:
    pool, gates = one_worker(queue=4), Gates("a0")
    flood = [pool.submit_for("flood", gates.job, "a0")]
    gates.wait_started("a0")
    flood += [pool.submit_for("flood", gates.job, f"a{i}") for i in range(1, 5)]
    assert pool.unfinished == pool.capacity == 5
    hint = pool.submit_for("player", gates.job, "b0")  # admitted: the flood's newest waiting job makes way
    with pytest.raises(BusyError):
        flood[4].result(timeout=GUARD)
    with pytest.raises(BusyError):
        pool.submit_for("flood", gates.job, "a5")  # the flood's next job is refused; the player's was not
    assert (pool.unfinished_of("flood"), pool.unfinished_of("player")) == (4, 1)
    gates.release("a0")
    assert hint.result(timeout=GUARD) == "b0"
    assert [job.result(timeout=GUARD) for job in flood[:4]] == ["a0", "a1", "a2", "a3"]
    assert gates.started == ["a0", "b0", "a1", "a2", "a3"]  # the player's job next, not behind the flood
    assert pool.unfinished == 0 and pool.unfinished_of("flood") == 0


def test_clients_with_waiting_jobs_take_turns_for_the_worker() -> None:
    pool, gates = one_worker(queue=8), Gates("a0")
    jobs = [pool.submit_for("a", gates.job, "a0")]
    gates.wait_started("a0")
    jobs += [pool.submit_for("a", gates.job, f"a{i}") for i in range(1, 5)]
    jobs += [pool.submit_for("b", gates.job, f"b{i}") for i in range(3)]
    jobs += [pool.submit_for("c", gates.job, "c0")]
    gates.release("a0")
    assert sorted(job.result(timeout=GUARD) for job in jobs) == sorted(gates.started)
    # The clients not served yet first, in the order they came, then one job each in turn.
    assert gates.started == ["a0", "b0", "c0", "a1", "b1", "a2", "b2", "a3", "a4"]


def test_one_client_may_fill_the_pool_but_cannot_hold_a_place_another_client_asks_for() -> None:
    pool, gates = one_worker(queue=2), Gates("a0", "a1", "a2")
    flood = [pool.submit_for("flood", gates.job, f"a{i}") for i in range(3)]
    gates.wait_started("a0")
    with pytest.raises(BusyError):
        pool.submit_for("flood", gates.job, "a3")  # alone, it has every place; no more
    player = pool.submit_for("player", gates.job, "b0")  # takes the place of the flood's newest job
    with pytest.raises(BusyError):
        flood[2].result(timeout=GUARD)
    with pytest.raises(BusyError):
        pool.submit_for("player", gates.job, "b1")  # the player now holds as many places as the flood waits for
    third = pool.submit_for("third", gates.job, "c0")  # the flood's last waiting job makes way again
    with pytest.raises(BusyError):
        flood[1].result(timeout=GUARD)
    # Every waiting job is now the only job of its client: the next client is refused, as the pool is full.
    with pytest.raises(BusyError):
        pool.submit_for("fourth", gates.job, "d0")
    gates.release("a0")
    assert (flood[0].result(timeout=GUARD), player.result(timeout=GUARD), third.result(timeout=GUARD)) == (
        "a0",
        "b0",
        "c0",
    )
    assert gates.started == ["a0", "b0", "c0"]


def test_a_job_cancelled_while_it_waits_leaves_its_place_and_never_runs() -> None:
    pool, gates = one_worker(queue=1), Gates("a0")
    running = pool.submit_for("a", gates.job, "a0")
    gates.wait_started("a0")
    waiting = pool.submit_for("a", gates.job, "a1")
    assert pool.unfinished == 2
    assert waiting.cancel()
    assert pool.unfinished == 1 and pool.unfinished_of("a") == 1
    assert not running.cancel()  # a running job keeps its place until it ends
    again = pool.submit_for("a", gates.job, "a2")
    gates.release("a0")
    assert (running.result(timeout=GUARD), again.result(timeout=GUARD)) == ("a0", "a2")
    assert gates.started == ["a0", "a2"] and pool.unfinished == 0


def test_submit_and_run_without_a_client_are_one_clients_jobs() -> None:
    pool, gates = one_worker(queue=1), Gates("a0")
    held_job = pool.submit(gates.job, "a0")
    gates.wait_started("a0")
    assert pool.unfinished_of(ANONYMOUS) == 1

    async def ask() -> str:
        waiting = asyncio.ensure_future(pool.run(gates.job, "a1"))
        while pool.unfinished_of(ANONYMOUS) < 2:
            await asyncio.sleep(0.01)
        with pytest.raises(BusyError):
            await pool.run(gates.job, "a2")  # the same client: refused
        gates.release("a0")
        return await waiting

    assert asyncio.run(ask()) == "a1"
    assert held_job.result(timeout=GUARD) == "a0" and gates.started == ["a0", "a1"]


def test_closing_the_pool_refuses_the_waiting_jobs() -> None:
    pool, gates = one_worker(queue=2), Gates("a0")
    running = pool.submit_for("a", gates.job, "a0")
    gates.wait_started("a0")
    waiting = [pool.submit_for("b", gates.job, "b0"), pool.submit_for("a", gates.job, "a1")]
    pool.close()
    for job in waiting:
        with pytest.raises(BusyError):
            job.result(timeout=GUARD)
    gates.release("a0")  # the thread of the stopped executor ends its job
    assert running.result(timeout=GUARD) == "a0"
    assert gates.started == ["a0"] and pool.unfinished == 0


def gated_hints(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, list[int]]:
    """Make every hint wait for a gate (the event returned) and answer no move; the turns asked, in order."""
    gate = threading.Event()
    turns: list[int] = []

    def gated_hint(view: View) -> dict[str, Any]:
        turns.append(view.turn)
        gate.wait(GUARD)
        return {"turn": view.turn, "moves": []}

    monkeypatch.setattr("foursquare.web.routes.analysis.hint_json", gated_hint)
    return gate, turns


def test_a_player_asking_for_a_hint_is_served_next_while_another_address_floods_the_server(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over HTTP, from two addresses: the flood's hints fill the pool; the player's hint is answered next."""
    gate, turns = gated_hints(monkeypatch)
    app = create_app(db_path, pool=PoolSettings(kind="thread", workers=1, queue=2))
    with serving(app) as url, player_client(url, "127.0.0.2") as flooder, player_client(url) as player:
        flood_game = post(flooder, "/api/games", deal=1)["id"]  # its hints are asked at turn 0
        player_game = play(player, 2, WIN_2[:1])["id"]  # and the player's at turn 1
        answers: dict[str, list[httpx.Response]] = {"flood": [], "player": []}

        def ask(who: str, address: str, http: httpx.Client, game_id: str) -> None:
            """A hint asked on a connection of its own, from ``address``, as the player of ``http``."""
            transport = httpx.HTTPTransport(local_address=address)
            with httpx.Client(base_url=url, timeout=ANSWER_GUARD, cookies=http.cookies, transport=transport) as client:
                answers[who].append(client.get(f"/api/games/{game_id}/hint"))

        flood = [threading.Thread(target=ask, args=("flood", "127.0.0.2", flooder, flood_game)) for _ in range(3)]
        for thread in flood:
            thread.start()
        wait_for(lambda: app.state.pool.unfinished == 3 and turns == [0], "the flood to fill the pool")
        refused = flooder.get(f"/api/games/{flood_game}/hint")
        assert refused.status_code == 503 and refused.json()["code"] == "busy"
        asker = threading.Thread(target=ask, args=("player", "127.0.0.1", player, player_game))
        asker.start()
        wait_for(lambda: len(answers["flood"]) == 1, "the flood's newest hint to make way for the player's")
        assert answers["flood"][0].status_code == 503 and answers["flood"][0].json()["code"] == "busy"
        gate.set()
        for thread in [*flood, asker]:
            thread.join(GUARD)
        assert [answer.status_code for answer in answers["player"]] == [200]
        assert answers["player"][0].json() == {"turn": 1, "moves": []}
        assert sorted(answer.status_code for answer in answers["flood"]) == [200, 200, 503]
        assert turns == [0, 1, 0]  # the player's hint ran second, before the flood's last one
