"""Best times in the statistics: the server's own stamps (a game's creation to its end), never a number a client sent.

The server's clock is a test clock moved by hand between moves, so the times are exact and nothing sleeps.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from starlette.testclient import TestClient

from foursquare import record
from foursquare.engine import Game
from foursquare.store import TERMINAL_PLAYER, Store
from foursquare.store.stats import best_time, play_time
from foursquare.web.app import create_app
from test_api import WINS, move, new_game, play_out
from web_support import as_player


class Clock:
    def __init__(self) -> None:
        self.when = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.when


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(database: str, clock: Clock) -> Iterator[TestClient]:
    with TestClient(create_app(database, clock=clock), raise_server_exceptions=False) as test_client:
        yield as_player(test_client)


def win(client: TestClient, clock: Clock, deal: int, seconds_a_move: float, *, undo: bool = False) -> dict[str, Any]:
    """Win ``deal`` by its known line, the server's clock moving ``seconds_a_move`` before each move."""
    state = new_game(client, deal=deal)
    for index, (row, col) in enumerate(WINS[deal][1]):
        clock.when += timedelta(seconds=seconds_a_move)
        state = move(client, state, row, col)
        if undo and index == 0:
            answer = client.post(f"/api/games/{state['id']}/undo")
            assert answer.status_code == 200, answer.text
            state = move(client, answer.json(), row, col)
    assert state["outcome"] == "won"
    return state


def test_the_best_time_is_the_fastest_win_by_the_servers_stamps(client: TestClient, clock: Clock) -> None:
    empty = client.get("/api/stats").json()
    assert (empty["best_time"], empty["clean"]["best_time"]) == (None, None)

    slow = win(client, clock, 1, 30)  # 16 moves: 480 s
    assert slow["updated_at"] > slow["created_at"]
    stats = client.get("/api/stats").json()
    assert (stats["best_time"], stats["clean"]["best_time"]) == (480.0, 480.0)

    clock.when += timedelta(hours=1)  # between games: no game's time
    win(client, clock, 2, 12.5)  # 200 s, the best
    lost = play_out(client, new_game(client, deal=7))  # a loss is never a best time, however quick
    assert lost["outcome"] == "lost"
    state = new_game(client, deal=9)
    clock.when += timedelta(seconds=1)
    move(client, state, 0, 0)  # still being played: not counted
    stats = client.get("/api/stats").json()
    assert (stats["best_time"], stats["clean"]["best_time"]) == (200.0, 200.0)


def test_an_assisted_win_counts_for_the_best_time_of_all_games_not_of_clean_ones(
    client: TestClient, clock: Clock
) -> None:
    win(client, clock, 1, 20)  # 320 s, clean
    helped = win(client, clock, 2, 5, undo=True)  # 80 s, the first card undone and placed again: assisted
    assert helped["assisted"] is True
    stats = client.get("/api/stats").json()
    assert (stats["best_time"], stats["clean"]["best_time"]) == (80.0, 320.0)


def test_an_offline_game_has_no_time_the_server_could_vouch_for(client: TestClient, clock: Clock) -> None:
    game = Game(deal=1)
    for row, col in WINS[1][1]:
        game.place(row, col)
    # Stored when the device sends it, won at once: its stamps say nothing of how long it was played.
    sent = client.post("/api/offline-games", json={"id": str(uuid.uuid4()), "record": record.to_json(game)})
    assert sent.status_code == 201, sent.text
    stats = client.get("/api/stats").json()
    assert (stats["won"], stats["best_time"], stats["clean"]["best_time"]) == (1, None, None)
    # Nor does a field a client adds to a request change anything: the server reads its own stamps only.
    state = new_game(client, deal=2)
    for row, col in WINS[2][1]:
        clock.when += timedelta(seconds=10)
        answer = client.post(
            f"/api/games/{state['id']}/moves", json={"row": row, "col": col, "turn": state["turn"], "seconds": 1}
        )
        assert answer.status_code in (200, 422), answer.text
        if answer.status_code == 422:  # extra fields refused: the plain move then
            state = move(client, state, row, col)
        else:
            state = answer.json()
    assert client.get("/api/stats").json()["best_time"] == 160.0


def test_the_terminals_games_are_not_timed(tmp_path: Any) -> None:
    """The terminal records a game once it ends (or once assisted): its stamps do not span its play."""
    store = Store(tmp_path / "games.db")
    try:
        game = Game(deal=1)
        for row, col in WINS[1][1]:
            game.place(row, col)
        store.games.record(f"{TERMINAL_PLAYER}-1", TERMINAL_PLAYER, game, hidden=False, assisted=False)
        stats = store.stats.of(TERMINAL_PLAYER)
    finally:
        store.close()
    assert (stats["won"], stats["best_time"], stats["clean"]["best_time"]) == (1, None, None)


def test_play_time_and_best_time() -> None:
    assert play_time("p", "2026-12-01T10:00:00.000Z", "2026-12-01T11:00:00.500Z", None) == 3600.5
    assert play_time("p", "2026-12-01T10:00:00.000Z", None, None) is None
    assert play_time("p", "2026-12-01T10:00:00.000Z", "2026-12-01T10:01:00.000Z", "device-id") is None
    assert play_time(TERMINAL_PLAYER, "2026-12-01T10:00:00.000Z", "2026-12-01T10:01:00.000Z", None) is None
    assert best_time([("lost", 0), ("won", 3)], [5.0, None]) is None
    assert best_time([("won", 3), ("won", 24)], [90.0, 60.0]) == 60.0
