"""One address flooding a real ``foursquare serve`` with winnable deals, analyses and undo/redo, within the default
limits, leaves another player's moves as fast as they were.

The player's moves are timed in rounds: a block with no flood and a block while the flood runs (in turn first), and
so on, so that whatever else the machine does falls on both alike. The flood is bounded by counts (it runs while
the player makes its block of moves) and honours ``Retry-After`` as a client within the limits does; between
blocks it ends and its answers are awaited. The comparison is of the player's own times, never of a number of
milliseconds: the median and the 95th percentile under the flood within three times those alone. On a machine
whose other work comes and goes (a CI machine running the rest of the suite) one measurement may catch a burst
of it in its flooded blocks only, so the measurement is made up to ``ATTEMPTS`` times and the test passes when
one of them is within three times. A server that computes the flood's work in its own process fails every
attempt (its moves wait seconds behind a winnable deal or an analysis).
"""

from __future__ import annotations

import multiprocessing
import os
import statistics
import threading
import time
from contextlib import ExitStack
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any

import httpx
import pytest

from test_server_process import serving

pytestmark = pytest.mark.slow  # a real server, its worker processes, and a flood

PLAYER = "127.0.0.2"
ROUNDS = 2
SAMPLES = 30
"""The player's timed moves per block: ``ROUNDS`` blocks alone and as many under the flood (60 moves each way, the
95th percentile their third longest; 4 rounds measured the same at twice the flood's cost)."""
ATTEMPTS = 3
"""Measurements made at most, until one is within bounds."""
PACE = 0.1
"""Seconds between the player's moves: a quick person's pace, within the default limit of changes."""
FLOODERS = 6
ANALYSED = 16
"""Finished games whose analyses the flood asks for (each computed once)."""
GUARD = 300.0
"""The longest any wait lasts (only a hang reaches it)."""


def client(url: str, address: str) -> httpx.Client:
    """A client from ``address`` (any of 127.0.0.0/8) with its player cookie."""
    http = httpx.Client(base_url=url, timeout=GUARD, transport=httpx.HTTPTransport(local_address=address))
    assert http.get("/api/stats").status_code == 200
    return http


def answered(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code in (200, 201), response.text
    data: dict[str, Any] = response.json()
    return data


def within_limits(http: httpx.Client, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST ``body`` to ``path``, waiting out each 429's ``Retry-After`` (the preparations only)."""
    while (response := http.post(path, json=body)).status_code == 429:
        time.sleep(int(response.headers["retry-after"]))
    return answered(response)


def lose(http: httpx.Client, deal: int) -> str:
    """Play ``deal`` to its end by the first legal placement each time; the game's id."""
    state = within_limits(http, "/api/games", {"deal": deal})
    while state["outcome"] == "playing":
        row, col = state["legal"][0]
        state = within_limits(http, f"/api/games/{state['id']}/moves", {"row": row, "col": col, "turn": state["turn"]})
    return str(state["id"])


class Flood:
    """``FLOODERS`` threads from one address that, while :attr:`on` is set, ask for winnable deals, analyses of
    finished games and undo/redo of their own games, back to back; a kind refused 429 rests for its
    ``Retry-After``."""

    def __init__(self, url: str, address: str, finished: list[str]) -> None:
        self.http = client(url, address)
        self.finished = finished
        self.games = [lose_one_move(self.http, deal) for deal in range(1, FLOODERS + 1)]
        self.on = threading.Event()
        self.busy = [threading.Event() for _ in range(FLOODERS)]
        self.statuses: list[int] = []
        self._done = threading.Event()
        self._threads = [threading.Thread(target=self._run, args=(i,), daemon=True) for i in range(FLOODERS)]
        for thread in self._threads:
            thread.start()

    def _run(self, index: int) -> None:
        resting: dict[str, float] = {}
        turn = index
        while not self._done.is_set():
            if not self.on.wait(0.05):
                self.busy[index].clear()
                continue
            self.busy[index].set()
            turn += 1
            kind = ("winnable", "analysis", "undo")[turn % 3]
            if resting.get(kind, 0.0) > time.monotonic():
                time.sleep(0.01)
                continue
            response = self._ask(kind, index, turn)
            self.statuses.append(response.status_code)
            if response.status_code == 429:
                resting[kind] = time.monotonic() + int(response.headers["retry-after"])
        self.busy[index].clear()

    def _ask(self, kind: str, index: int, turn: int) -> httpx.Response:
        if kind == "winnable":
            return self.http.post("/api/games", json={"winnable": True})
        if kind == "analysis":
            return self.http.get(f"/api/games/{self.finished[turn % len(self.finished)]}/analysis")
        game = self.games[index]
        undone = self.http.post(f"/api/games/{game}/undo")
        return self.http.post(f"/api/games/{game}/redo") if undone.status_code != 429 else undone

    def stop(self) -> None:
        """End the flood and wait for the answers of the requests it has made."""
        self.on.clear()
        deadline = time.monotonic() + GUARD
        while any(busy.is_set() for busy in self.busy):
            assert time.monotonic() < deadline, "the flood's requests were not answered"
            time.sleep(0.05)

    def close(self) -> None:
        self.on.clear()
        self._done.set()
        for thread in self._threads:
            thread.join(GUARD)
        self.http.close()


class FloodProcess:
    """The :class:`Flood` in a process of its own: its threads' work on their answers never takes the player's
    interpreter lock, so that the player's times are the server's."""

    def __init__(self, url: str, address: str, finished: list[str]) -> None:
        context = multiprocessing.get_context("spawn")
        self.on, self.quiet, self.done, self.ready, self.served = (context.Event() for _ in range(5))
        events = (self.on, self.quiet, self.done, self.ready, self.served)
        self.process = context.Process(target=flood_in_process, args=(url, address, finished, *events), daemon=True)
        self.process.start()
        assert self.ready.wait(GUARD) and self.process.is_alive(), "the flood did not start"

    def start(self) -> None:
        self.quiet.clear()
        self.on.set()

    def stop(self) -> None:
        """End the flood and wait for the answers of the requests it has made."""
        self.on.clear()
        assert self.quiet.wait(GUARD), "the flood's requests were not answered"

    def close(self) -> None:
        self.done.set()
        self.process.join(GUARD)
        if self.process.is_alive():
            self.process.kill()


def flood_in_process(
    url: str, address: str, finished: list[str], on: Event, quiet: Event, done: Event, ready: Event, served: Event
) -> None:
    """Run a :class:`Flood` while ``on`` is set, setting ``quiet`` once its answers are in, until ``done``."""
    flood = Flood(url, address, finished)
    ready.set()
    try:
        while not done.is_set():
            if not on.wait(0.05):
                continue
            flood.on.set()
            while on.is_set() and not done.is_set():
                time.sleep(0.01)
            flood.stop()
            if 200 in flood.statuses:
                served.set()
            quiet.set()
    finally:
        flood.close()


def lose_one_move(http: httpx.Client, deal: int) -> str:
    """A game of ``deal`` with one card placed: one the flood can undo and redo."""
    state = answered(http.post("/api/games", json={"deal": deal}))
    row, col = state["legal"][0]
    answered(http.post(f"/api/games/{state['id']}/moves", json={"row": row, "col": col, "turn": 0}))
    return str(state["id"])


class Player:
    """Plays games by the first legal placement at :data:`PACE`, timing each move."""

    def __init__(self, url: str) -> None:
        self.http = client(url, PLAYER)
        self.state = answered(self.http.post("/api/games", json={}))

    def moves(self, count: int) -> list[float]:
        times = []
        for _ in range(count):
            if self.state["outcome"] != "playing":
                self.state = answered(self.http.post("/api/games", json={}))
            row, col = self.state["legal"][0]
            body = {"row": row, "col": col, "turn": self.state["turn"]}
            started = time.perf_counter()
            response = self.http.post(f"/api/games/{self.state['id']}/moves", json=body)
            times.append(time.perf_counter() - started)
            self.state = answered(response)
            time.sleep(PACE)
        return times


def p95(times: list[float]) -> float:
    return statistics.quantiles(times, n=20)[-1]


def test_a_flood_of_winnable_deals_analyses_and_undo_leaves_another_players_moves_as_fast(tmp_path: Path) -> None:
    defaults = ("FOURSQUARE_RATE_", "FOURSQUARE_POOL", "FOURSQUARE_HEAVY")
    env = {k: v for k, v in os.environ.items() if not k.startswith(defaults)}
    with serving(tmp_path / "games.db", env=env) as (url, _), ExitStack() as stack:
        # The solver ready (in a worker, or compiled in the server before the fix): the rounds measure the flood.
        warm = client(url, "127.0.0.3")
        stack.callback(warm.close)
        assert warm.post("/api/games", json={"winnable": True}).status_code == 201
        player = Player(url)
        stack.callback(player.http.close)
        attempts = []
        for attempt in range(1, ATTEMPTS + 1):
            # Each attempt's flood is a fresh address with games of its own to analyse, so that its winnable deals
            # and analyses are computed, not refused past the limit or read as stored.
            flood = FloodProcess(url, f"127.0.0.{3 + attempt}", lost_games(url, attempt, stack))
            stack.callback(flood.close)
            alone, flooded = measure(player, flood)
            attempts.append(figures(alone, flooded))
            print(attempts[-1])  # the ratios, for whoever runs it with -s
            if within(alone, flooded):
                break
        else:
            pytest.fail("the player's moves were slower under the flood in every attempt: " + "; ".join(attempts))
        assert flood.served.is_set()  # the flood was served, not only refused


def lost_games(url: str, attempt: int, stack: ExitStack) -> list[str]:
    """``ANALYSED`` finished games for an attempt's flood to analyse, each lost by an address of its own."""
    finished = []
    for i in range(ANALYSED):
        helper = client(url, f"127.0.{attempt}.{10 + i}")
        stack.callback(helper.close)
        finished.append(lose(helper, 100 * attempt + i))
    return finished


def measure(player: Player, flood: FloodProcess) -> tuple[list[float], list[float]]:
    """The player's move times alone and under the flood: ``ROUNDS`` rounds, each block first in turn."""
    alone: list[float] = []
    flooded: list[float] = []
    for round_ in range(ROUNDS):
        for flooding in (False, True) if round_ % 2 == 0 else (True, False):
            if flooding:
                flood.start()
                flooded += player.moves(SAMPLES)
                flood.stop()
            else:
                alone += player.moves(SAMPLES)
    return alone, flooded


def within(alone: list[float], flooded: list[float]) -> bool:
    return statistics.median(flooded) <= 3 * statistics.median(alone) and p95(flooded) <= 3 * p95(alone)


def figures(alone: list[float], flooded: list[float]) -> str:
    return (
        f"median {statistics.median(alone) * 1000:.1f} ms alone, {statistics.median(flooded) * 1000:.1f} ms flooded "
        f"(x{statistics.median(flooded) / statistics.median(alone):.2f}); p95 {p95(alone) * 1000:.1f} ms alone, "
        f"{p95(flooded) * 1000:.1f} ms flooded (x{p95(flooded) / p95(alone):.2f})"
    )
