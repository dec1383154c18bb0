"""Two ``foursquare serve`` processes on one PostgreSQL database: any server answers any request of any player.

Each test starts real servers (:func:`test_server_process.serving`) on a database of the session's throwaway
cluster (:mod:`postgres_support`); a player's requests go to one server or the other, as a load balancer would
send them. Nothing here waits for a time to pass: the servers are killed after a number of answered moves.
"""

from __future__ import annotations

import json
import os
import signal
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from db_support import game_row
from foursquare.web import create_app
from foursquare.web.pool import PoolSettings
from test_pool import WIN_2, gated_hints, play, player_client, wait_for
from test_pool import serving as serving_app
from test_server_process import serving, without_timestamps

pytestmark = pytest.mark.slow  # real server processes

GUARD = 120.0
"""Seconds after which a test that should be long done is declared hung (never reached when all is well)."""

COOKIE = "fs_player"


@contextmanager
def two_servers(url: str, env: dict[str, str] | None = None) -> Iterator[tuple[str, str, Any]]:
    """Servers A and B on the database ``url``; yields their base URLs and A's process (to kill)."""
    # Hints in the servers' own threads: no worker process to start and warm up for tests that ask none.
    environment = {**os.environ, "FOURSQUARE_POOL": "thread", **(env or {})}
    with serving(url, env=environment) as (a, process_a), serving(url, env=environment) as (b, _):
        yield a, b, process_a


@contextmanager
def player_on(base: str, cookies: dict[str, str] | None = None) -> Iterator[httpx.Client]:
    """A browser talking to ``base``; with no ``cookies`` it gets its player cookie as the page does."""
    with httpx.Client(base_url=base, timeout=GUARD, cookies=cookies) as client:
        if cookies is None:
            assert client.get("/api/stats").status_code == 200
            assert COOKIE in client.cookies
        yield client


def moved(client: httpx.Client, state: dict[str, Any], cell: list[int] | None = None) -> dict[str, Any]:
    row, col = cell or state["legal"][state["turn"] % len(state["legal"])]
    answer = client.post(f"/api/games/{state['id']}/moves", json={"row": row, "col": col, "turn": state["turn"]})
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def test_a_player_moves_between_servers_and_sees_one_game(postgres_url: str) -> None:
    with two_servers(postgres_url) as (a, b, _), ExitStack() as stack:
        on_a = stack.enter_context(player_on(a))
        on_b = stack.enter_context(player_on(b, cookies=dict(on_a.cookies)))  # A's cookie, given to B
        assert on_b.get("/api/stats").json() == on_a.get("/api/stats").json()
        state = on_a.post("/api/games", json={"deal": 1}).json()
        for turn in range(6):  # each move on the other server
            state = moved(on_b if turn % 2 else on_a, state)
        assert on_b.post(f"/api/games/{state['id']}/undo").json()["turn"] == 5
        assert on_a.post(f"/api/games/{state['id']}/redo").json()["turn"] == 6
        assert on_a.get(f"/api/games/{state['id']}").json() == on_b.get(f"/api/games/{state['id']}").json()
        while state["outcome"] == "playing":
            state = moved(on_b if state["turn"] % 2 else on_a, state)
        for path in ("/api/stats", "/api/games", f"/api/games/{state['id']}/record"):
            assert on_a.get(path).json() == on_b.get(path).json(), path
        assert on_a.get("/api/stats").json()["played"] == 1
        stranger = stack.enter_context(player_on(b))  # a player of B's own is a stranger on A too
        seen = httpx.get(f"{a}/api/games/{state['id']}", cookies=dict(stranger.cookies), timeout=GUARD)
        assert seen.status_code == 200 and seen.json()["yours"] is False
        live = on_b.post("/api/games", json={"deal": 2}).json()
        cell = {"row": 0, "col": 0, "turn": 0}
        refused = httpx.post(f"{a}/api/games/{live['id']}/moves", json=cell, cookies=dict(stranger.cookies))
        assert (refused.status_code, refused.json()["code"]) == (403, "not_your_game")


def test_the_daily_deal_is_the_same_whichever_server_deals_it(postgres_url: str) -> None:
    with two_servers(postgres_url) as (a, b, _), player_on(a) as first, player_on(b) as second:
        games = [client.post("/api/games", json={"daily": True}).json() for client in (first, second)]
        assert [game["card"] for game in games] == [games[0]["card"]] * 2 and games[0]["deal"] is None
        again = second.post("/api/games", json={"daily": True})  # the same player's daily, from the other server
        assert httpx.post(f"{a}/api/games", json={"daily": True}, cookies=dict(second.cookies)).json()["id"] == (
            again.json()["id"]
        ) == games[1]["id"]
        while games[0]["outcome"] == "playing":  # the same moves on both: the same cards come (the deal is secret)
            cell = games[0]["legal"][0]
            games = [moved(first, games[0], cell), moved(second, games[1], cell)]
            assert games[0]["cells"] == games[1]["cells"] and games[0]["card"] == games[1]["card"]
        assert (games[0]["outcome"], games[0]["score"]) == (games[1]["outcome"], games[1]["score"])
        today = datetime.now(UTC).date().isoformat()
        results = [client.get(f"/api/daily/{today}/results").json() for client in (first, second)]
        assert results[0] == results[1] and results[0]["players"] == 2


def test_twenty_copies_of_one_move_sent_to_two_servers_apply_exactly_once(postgres_url: str) -> None:
    copies = 20
    barrier = threading.Barrier(copies)
    answers: list[httpx.Response] = []
    lock = threading.Lock()

    def send(base: str, cookies: dict[str, str], game_id: str) -> None:
        with httpx.Client(base_url=base, timeout=GUARD, cookies=cookies) as client:
            barrier.wait(GUARD)
            response = client.post(f"/api/games/{game_id}/moves", json={"row": 0, "col": 1, "turn": 1})
        with lock:
            answers.append(response)

    with two_servers(postgres_url) as (a, b, _):
        with player_on(a) as http:
            state = moved(http, http.post("/api/games", json={"deal": 1}).json(), [0, 0])
            cookies = dict(http.cookies)  # every copy comes from the game's player, half of them through B
        threads = [threading.Thread(target=send, args=(b if n % 2 else a, cookies, state["id"])) for n in range(copies)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(GUARD)
    assert sorted(answer.status_code for answer in answers) == [200] + [409] * (copies - 1)
    assert {answer.json().get("code") for answer in answers if answer.status_code == 409} == {"stale_turn"}
    row = game_row(postgres_url, state["id"])
    assert (json.loads(row["moves"]), row["turn"]) == ([[0, 0], [0, 1]], 2)


class Mover(threading.Thread):
    """A player playing games back to back, each move on the next of its servers; a server that stops answering
    is dropped and the move sent again to the others (a 409 ``stale_turn`` then means it had been made)."""

    def __init__(self, servers: list[str], cookies: dict[str, str], stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.servers = list(servers)
        self.cookies = cookies
        self.stop = stop
        self.acknowledged = 0
        self.states: dict[str, dict[str, Any]] = {}  # each game's last state a server answered
        self.unanswered = 0
        self.failures: list[str] = []

    def run(self) -> None:
        try:
            with httpx.Client(timeout=GUARD, cookies=self.cookies) as http:
                self.play(http)
        except Exception as error:  # reported by the test, not lost in a thread
            self.failures.append(repr(error))

    def play(self, http: httpx.Client) -> None:
        state: dict[str, Any] = {"outcome": "over"}
        while not self.stop.is_set():
            if state["outcome"] != "playing":
                state = self.send(http, "post", "/api/games", {})
                continue
            row, col = state["legal"][0]
            body = {"row": row, "col": col, "turn": state["turn"]}
            answer = self.send(http, "post", f"/api/games/{state['id']}/moves", body)
            if answer.get("code") == "stale_turn":  # made by a server killed before it answered
                answer = self.send(http, "get", f"/api/games/{state['id']}", None)
                if answer["turn"] != body["turn"] + 1:
                    self.failures.append(f"a 409 stale_turn on a move never made: {body} / {answer['turn']}")
                self.unanswered += 1
            else:
                self.acknowledged += 1
            state = self.states[state["id"]] = answer

    def send(self, http: httpx.Client, method: str, path: str, body: dict[str, Any] | None) -> dict[str, Any]:
        while True:
            base = self.servers[0]
            self.servers.append(self.servers.pop(0))
            try:
                answer = http.request(method, f"{base}{path}", json=body)
            except httpx.TransportError:
                self.servers.remove(base)  # killed: a load balancer takes it out of rotation
                continue
            if answer.status_code not in (200, 201) and answer.json().get("code") != "stale_turn":
                raise AssertionError(f"{method} {path} on {base}: {answer.status_code} {answer.text}")
            result: dict[str, Any] = answer.json()
            return result


def test_a_server_killed_mid_play_loses_no_move_it_acknowledged(postgres_url: str) -> None:
    stop = threading.Event()
    with two_servers(postgres_url, {"FOURSQUARE_RATE_GAMES": "1000000/minute"}) as (a, b, process_a):
        cookies = []
        for _ in range(4):
            with player_on(a) as http:
                cookies.append(dict(http.cookies))
        movers = [Mover([a, b], jar, stop) for jar in cookies]
        for mover in movers:
            mover.start()
        wait_for(lambda: sum(m.acknowledged for m in movers) >= 60, "60 moves")
        process_a.send_signal(signal.SIGKILL)  # in the middle of the players' requests
        process_a.wait(GUARD)
        before = [m.acknowledged for m in movers]
        wait_for(lambda: all(m.acknowledged >= n + 10 for m, n in zip(movers, before, strict=True)), "B's moves")
        stop.set()
        for mover in movers:
            mover.join(GUARD)
        assert [m.failures for m in movers] == [[]] * len(movers)
        for mover in movers:
            for game_id, last in mover.states.items():
                stored = httpx.get(f"{b}/api/games/{game_id}", cookies=mover.cookies, timeout=GUARD).json()
                assert without_timestamps(stored) == without_timestamps(last)
        stats = [httpx.get(f"{b}/api/stats", cookies=jar, timeout=GUARD).json() for jar in cookies]
    with serving(postgres_url, env={**os.environ, "FOURSQUARE_POOL": "thread"}) as (again, _):
        assert [httpx.get(f"{again}/api/stats", cookies=jar, timeout=GUARD).json() for jar in cookies] == stats
        mover = movers[0]
        for game_id, last in mover.states.items():
            stored = httpx.get(f"{again}/api/games/{game_id}", cookies=mover.cookies, timeout=GUARD).json()
            assert without_timestamps(stored) == without_timestamps(last)


def test_the_rate_limits_count_a_client_once_across_servers(postgres_url: str) -> None:
    with two_servers(postgres_url, {"FOURSQUARE_RATE_GAMES": "3/day"}) as (a, b, _), player_on(a) as http:
        created = [http.post(f"{base}/api/games", json={}).status_code for base in (a, b, a)]
        refused = [http.post(f"{base}/api/games", json={}) for base in (b, a)]
        assert created == [201, 201, 201]
        assert [(r.status_code, r.json()["code"]) for r in refused] == [(429, "rate_limited")] * 2
        assert all(int(r.headers["Retry-After"]) > 0 for r in refused)
        assert http.post(f"{b}/api/games/{'x' * 22}/moves", json={"row": 0, "col": 0, "turn": 0}).status_code == 404


def test_a_players_hint_is_served_next_on_either_server_while_another_address_floods_both(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each server's pool is fair between the clients it sees; a flood spread over both servers fills both pools
    and still cannot keep a player's hint waiting behind more than one job of its own (two apps in this process,
    on one database, each under its own uvicorn, so that the hints can be held at a gate)."""
    gate, turns = gated_hints(monkeypatch)
    settings = PoolSettings(kind="thread", workers=1, queue=2)
    apps = [create_app(postgres_url, pool=settings) for _ in range(2)]
    with ExitStack() as stack:
        a, b = (stack.enter_context(serving_app(app)) for app in apps)
        flooder = stack.enter_context(player_client(a, "127.0.0.2"))
        player = stack.enter_context(player_client(b))
        games = {a: play(flooder, 1, [])["id"], b: play(flooder, 1, WIN_2[:2])["id"]}  # turn 0 on A, 2 on B
        player_game = play(player, 2, WIN_2[:1])["id"]  # the player's hint is asked at turn 1
        answers: dict[str, list[httpx.Response]] = {a: [], b: [], "player": []}

        def ask(who: str, base: str, http: httpx.Client, game_id: str) -> None:
            address = "127.0.0.1" if who == "player" else "127.0.0.2"
            transport = httpx.HTTPTransport(local_address=address)
            with httpx.Client(base_url=base, timeout=GUARD, cookies=http.cookies, transport=transport) as client:
                answers[who].append(client.get(f"/api/games/{game_id}/hint"))

        flood = [threading.Thread(target=ask, args=(base, base, flooder, games[base])) for base in (a, b) * 3]
        for thread in flood:
            thread.start()
        wait_for(lambda: all(app.state.pool.unfinished == 3 for app in apps), "the flood to fill both pools")
        for base in (a, b):
            refused = flooder.get(f"{base}/api/games/{games[base]}/hint")
            assert (refused.status_code, refused.json()["code"]) == (503, "busy")
        asker = threading.Thread(target=ask, args=("player", b, player, player_game))
        asker.start()
        wait_for(lambda: len(answers[b]) == 1, "B's newest flood hint to make way for the player's")
        gate.set()
        for thread in [*flood, asker]:
            thread.join(GUARD)
    assert [answer.status_code for answer in answers["player"]] == [200]
    assert sorted(answer.status_code for answer in answers[b]) == [200, 200, 503]
    assert [answer.status_code for answer in answers[a]] == [200, 200, 200]  # A's pool had no one else to serve
    assert [turn for turn in turns if turn != 0] == [2, 1, 2]  # on B, the player's hint ran second
