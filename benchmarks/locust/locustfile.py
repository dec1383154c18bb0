"""Locust's users of the Foursquare web API: players, hint clients and an abusive client.

    .venv/bin/locust -f benchmarks/locust/locustfile.py --headless --host http://127.0.0.1:8000 \\
        --users 120 --spawn-rate 60 --run-time 60s Player HintClient

``benchmarks/locust_run.py`` starts the servers and runs these users in Locust's own master and worker processes
for each configuration; ``tests/test_locust.py`` runs them briefly. Settings, from the environment (Locust passes
it to its workers):

- ``FOURSQUARE_LOCUST_SERVERS``: base URLs joined by commas; each user sends each request to the next one in
  turn (starting from a server of its own), as a load balancer without affinity would, so that a player's game
  is played through every server. Default: Locust's ``--host``.
- ``FOURSQUARE_LOCUST_THINK``: a player's mean pause between moves, in seconds (uniform from half to one and a
  half times it; 0: flat out). Default 1.
- ``FOURSQUARE_LOCUST_PLAYERS``, ``FOURSQUARE_LOCUST_HINT_CLIENTS``, ``FOURSQUARE_LOCUST_ABUSERS``: how many
  users of each class (Locust's ``fixed_count``); ``--users`` must be at least their sum.
- ``FOURSQUARE_LOCUST_ADDRESSES``: when ``1``, each user sends ``X-Forwarded-For`` with an address of its own
  (10.x.y.z), which servers started with ``--trusted-proxies 127.0.0.1`` believe: the fair-use limits then count
  each user apart, as they count people behind a proxy, instead of all of Locust as one address.
- ``FOURSQUARE_LOCUST_MOVES``: when set, each player and hint client stops after so many answered moves, and each
  abuser after so many rounds, then writes its name in ``FOURSQUARE_LOCUST_DONE`` (a folder): a test waits for
  them by count, never by time.

Request names group Locust's statistics: ``move``, ``new game``, ``hint``, ``hint (busy)`` (a 503 ``busy`` with
``Retry-After``, honoured by waiting: the server's pool protecting the moves, counted apart, not a failure),
``hint (limited)`` (a 429 past the fair-use limit on hints, honoured the same way), ``move (hint)`` (a hint
client's move), and ``abuse: …`` for the abuser. A failure is an answer the server
should not have given: any 5xx but a hint's ``busy``, a move refused though it was legal, a turn that did not
advance by one, an abuse that was not refused with the 4xx it deserves.
"""

from __future__ import annotations

import itertools
import os
import random
import secrets
from pathlib import Path
from typing import Any

from locust import between, constant, task
from locust.contrib.fasthttp import FastHttpUser, ResponseContextManager
from locust.exception import StopUser


def _count(name: str, default: int) -> int:
    return int(os.environ.get(name, str(default)))


THINK = float(os.environ.get("FOURSQUARE_LOCUST_THINK", "1"))
MOVES = _count("FOURSQUARE_LOCUST_MOVES", 0)
DONE = os.environ.get("FOURSQUARE_LOCUST_DONE")
ABUSE_ROUNDS = 1 if MOVES else 0
ADDRESSES = os.environ.get("FOURSQUARE_LOCUST_ADDRESSES") == "1"
_users = itertools.count(1)


class ApiUser(FastHttpUser):
    """A browser of the API: gets its player cookie first, as the page does; sends each request to the next server.

    FastHttpUser (geventhttpclient) rather than HttpUser (requests): it spends several times less CPU a request,
    and the load generator shares the machine's two cores with the servers it measures.
    """

    abstract = True
    network_timeout = 120.0
    connection_timeout = 30.0

    def on_start(self) -> None:
        servers = [url.rstrip("/") for url in os.environ.get("FOURSQUARE_LOCUST_SERVERS", self.host).split(",")]
        start = random.randrange(len(servers))
        self.servers = itertools.cycle(servers[start:] + servers[:start])
        self.done = 0
        self.headers: dict[str, str] = {}
        if ADDRESSES:  # unique within a Locust process; the process id keeps workers apart
            n = (os.getpid() % 256) * 65536 + next(_users)
            self.headers["X-Forwarded-For"] = f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"
        with self.call("GET", "/api/stats", "cookie") as answer:
            if answer.status_code != 200:
                answer.failure(f"no player cookie: {answer.status_code}")

    def call(self, method: str, path: str, name: str, **kwargs: Any) -> ResponseContextManager:
        """The request on the next server, its answer to be judged by the caller (``catch_response``)."""
        kwargs["headers"] = {**self.headers, **kwargs.get("headers", {})}
        return self.client.request(method, f"{next(self.servers)}{path}", name=name, catch_response=True, **kwargs)

    def finished(self) -> None:
        """Count one unit of the work asked; at ``FOURSQUARE_LOCUST_MOVES`` of them, say so and stop."""
        self.done += 1
        if MOVES and self.done >= (ABUSE_ROUNDS if isinstance(self, Abuser) else MOVES):
            if DONE:
                Path(DONE, f"{type(self).__name__}-{id(self)}").touch()
            raise StopUser()

    def new_game(self) -> dict[str, Any] | None:
        with self.call("POST", "/api/games", "new game", json={}) as answer:
            if answer.status_code != 201:
                answer.failure(f"new game: {answer.status_code} {answer.text[:200]}")
                return None
            state: dict[str, Any] = answer.json()
            return state

    def place(self, state: dict[str, Any], row: int, col: int, name: str) -> dict[str, Any] | None:
        """Place the card as the page does (naming the turn and the card); the new state, None after a failure."""
        body = {"row": row, "col": col, "turn": state["turn"], "card": state["card"]}
        with self.call("POST", f"/api/games/{state['id']}/moves", name, json=body) as answer:
            if answer.status_code != 200:
                answer.failure(f"a legal move refused: {answer.status_code} {answer.text[:200]}")
                return None
            moved: dict[str, Any] = answer.json()
            if moved["turn"] != state["turn"] + 1:
                answer.failure(f"turn {state['turn']} became {moved['turn']}")
                return None
            return moved


class Player(ApiUser):
    """Plays whole games, a random legal move after a human pause, one game after another."""

    fixed_count = _count("FOURSQUARE_LOCUST_PLAYERS", 0)
    wait_time = between(THINK / 2, THINK * 3 / 2) if THINK else constant(0)
    state: dict[str, Any] | None = None

    @task
    def move(self) -> None:
        if self.state is None or self.state["outcome"] != "playing":
            self.state = self.new_game()
            return
        row, col = random.choice(self.state["legal"])
        self.state = self.place(self.state, row, col, "move")
        self.finished()


class HintClient(ApiUser):
    """Asks for a hint and plays its best move, back to back; a 503 ``busy`` is honoured by waiting its
    ``Retry-After``."""

    fixed_count = _count("FOURSQUARE_LOCUST_HINT_CLIENTS", 0)
    wait_time = constant(0)
    state: dict[str, Any] | None = None

    @task
    def hint_and_move(self) -> None:
        if self.state is None or self.state["outcome"] != "playing":
            self.state = self.new_game()
            return
        best = self.hint(self.state)
        if best is not None:
            self.state = self.place(self.state, best["row"], best["col"], "move (hint)")
            self.finished()

    def hint(self, state: dict[str, Any]) -> dict[str, Any] | None:
        """The hint's best move, or None after a refusal (having waited as the server asked)."""
        with self.call("GET", f"/api/games/{state['id']}/hint", "hint") as answer:
            refusal = {(503, "busy"): "hint (busy)", (429, "rate_limited"): "hint (limited)"}.get(
                (answer.status_code, code_of(answer))
            )
            if refusal:  # counted apart: the server protecting the moves or its fair use, not a failure
                answer.request_meta["name"] = refusal
                answer.success()
                wait = float(answer.headers.get("retry-after", "1"))
            elif answer.status_code != 200 or answer.json()["turn"] != state["turn"]:
                answer.failure(f"hint: {answer.status_code} {answer.text[:200]}")
                return None
            else:
                best: dict[str, Any] = answer.json()["moves"][0]
                return best
        self.wait_seconds(wait)
        return None

    def wait_seconds(self, seconds: float) -> None:
        import gevent

        gevent.sleep(seconds)


def code_of(answer: Any) -> str | None:
    try:
        code = answer.json().get("code")
    except (ValueError, AttributeError):
        return None
    return code if isinstance(code, str) else None


class Abuser(ApiUser):
    """An abusive client: floods new games and hints, sends malformed, oversized and forged requests, and plays
    other players' games. Every one must be refused with the right 4xx (429 past the fair-use limits), never
    answered 5xx (a hint's 503 ``busy`` aside) nor left without an answer."""

    fixed_count = _count("FOURSQUARE_LOCUST_ABUSERS", 0)
    wait_time = constant(0.05)
    victim: dict[str, Any] | None = None

    def expect(self, name: str, method: str, path: str, allowed: set[int], **kwargs: Any) -> Any:
        with self.call(method, path, f"abuse: {name}", **kwargs) as answer:
            if answer.status_code in allowed:
                answer.success()
            else:
                answer.failure(f"{name}: {answer.status_code} {answer.text[:200]}, expected one of {sorted(allowed)}")
            return answer

    @task
    def abuse(self) -> None:
        if self.victim is None:
            self.victim = self.victim_game()
        flood = self.expect("flood of new games", "POST", "/api/games", {201, 409, 429}, json={})
        if flood.status_code == 201:
            state = flood.json()
            self.expect("flood of hints", "GET", f"/api/games/{state['id']}/hint", {200, 429, 503})
        headers = {"Content-Type": "application/json"}
        self.expect("not JSON", "POST", "/api/games", {422, 429}, data=b"{not json", headers=headers)
        self.expect("oversized body", "POST", "/api/games", {413}, data=b" " * 70_000 + b"{}", headers=headers)
        self.expect("absurd deal", "POST", "/api/games", {422, 429}, json={"deal": 2**70})
        self.expect("unknown game", "GET", f"/api/games/{secrets.token_urlsafe(16)}", {404})
        if self.victim is not None:
            game, body = self.victim["id"], {"row": 0, "col": 0, "turn": 0}
            self.expect("another player's game", "POST", f"/api/games/{game}/moves", {403}, json=body)
            self.expect("another player's undo", "POST", f"/api/games/{game}/undo", {403})
        evil = {"Origin": "https://evil.example"}
        self.expect("cross-site request", "POST", "/api/games", {403}, json={}, headers=evil)
        self.finished()

    def victim_game(self) -> dict[str, Any] | None:
        """A live game of another player: one started under a fresh cookie, after which this user's own returns."""
        jar = self.client.cookiejar
        own = list(jar)
        jar.clear()
        try:
            with self.call("GET", "/api/stats", "abuse: another player's cookie") as answer:
                answer.success()
            with self.call("POST", "/api/games", "abuse: another player's game", json={}) as answer:
                answer.success()
                state: dict[str, Any] | None = answer.json() if answer.status_code == 201 else None
        finally:
            jar.clear()
            for cookie in own:
                jar.set_cookie(cookie)
        return state
