"""The daily deal's results (``GET /api/daily/{date}/results``): everyone's daily game of a UTC date that is over,
open for a past date and for today once the asker's own daily game is over (``docs/api.md``).

The date is frozen by giving ``create_app`` a clock; each date's daily deal is made a deal with a known win (the
winning lines are test data) or one played out at random; nothing here sleeps.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from foursquare.engine import Variant
from foursquare.store import SCHEMA_VERSION, Store
from foursquare.store import daily as daily_module
from foursquare.store.daily import DailyResults
from foursquare.store.tokens import stored_player
from foursquare.web import create_app
from test_api import WINS, move, new_game, play_out
from web_support import as_player

WON_DEAL = 1
"""Today's daily deal in these tests: a deal of :data:`test_api.WINS`, so that a player may win it or lose it."""
WON = str(WINS[WON_DEAL][0])
"""The score of its win, as the results write it."""


class Clock:
    """A clock that stands still until the test moves it."""

    def __init__(self, when: datetime) -> None:
        self.when = when

    def __call__(self) -> datetime:
        return self.when

    def next_day(self) -> None:
        self.when += timedelta(days=1)


DAY = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
TODAY = DAY.date().isoformat()


@pytest.fixture
def clock() -> Clock:
    return Clock(DAY)


@pytest.fixture
def app(database: str, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(daily_module, "daily_deal_number", lambda key, day: WON_DEAL)
    return create_app(database, clock=clock)  # on each engine in turn


@pytest.fixture
def players(app: Any) -> Iterator[Callable[[], TestClient]]:
    """A new browser of the same server at each call, with a player cookie of its own."""
    with ExitStack() as stack:
        yield lambda: as_player(stack.enter_context(TestClient(app, raise_server_exceptions=False)))


def results(client: TestClient, day: str = TODAY) -> dict[str, Any]:
    response = client.get(f"/api/daily/{day}/results")
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def refused(client: TestClient, day: str = TODAY) -> dict[str, Any]:
    response = client.get(f"/api/daily/{day}/results")
    assert response.status_code == 409, response.text
    answer: dict[str, Any] = response.json()
    assert set(answer) == {"detail", "code"} and answer["code"] == "daily_secret"
    return answer


def win(client: TestClient) -> dict[str, Any]:
    """Play today's daily deal (deal 1) to its known win."""
    state = new_game(client, daily=True)
    for row, col in WINS[WON_DEAL][1]:
        state = move(client, state, row, col)
    assert state["outcome"] == "won"
    return state


def lose(client: TestClient) -> dict[str, Any]:
    """Play today's daily deal to a loss: the first legal cell every time."""
    state = new_game(client, daily=True)
    while state["outcome"] == "playing":
        state = move(client, state, *state["legal"][0])
    assert state["outcome"] == "lost"
    return state


# --- who may see them -----------------------------------------------------------------------------------------


def test_todays_results_are_refused_until_the_askers_own_daily_is_over(players: Callable[[], TestClient]) -> None:
    alice, bob = players(), players()
    refused(alice)  # no daily game yet
    won = win(alice)
    assert results(alice) == {"date": TODAY, "players": 1, "won": 1, "scores": {str(won["score"]): 1}}
    # Another player's finish is not enough: bob has not played, then is playing, and is told nothing.
    detail = refused(bob)["detail"]
    assert TODAY in detail and "finished" in detail
    started = new_game(bob, daily=True)
    refused(bob)
    move(bob, started, 0, 0)
    refused(bob)
    assert "players" not in bob.get(f"/api/daily/{TODAY}/results").text
    lost = play_out(bob, bob.get(f"/api/games/{started['id']}").json())
    assert lost["outcome"] == "lost"
    assert results(bob) == results(alice) == {"date": TODAY, "players": 2, "won": 1, "scores": {"0": 1, WON: 1}}


def test_a_past_date_is_open_to_everyone_and_a_date_to_come_to_no_one(
    players: Callable[[], TestClient], clock: Clock
) -> None:
    alice, carol = players(), players()
    win(alice)
    refused(carol)
    clock.next_day()
    assert results(carol, TODAY)["players"] == 1  # yesterday's: carol never played it
    tomorrow = (DAY.date() + timedelta(days=2)).isoformat()
    for client in (alice, carol):
        assert refused(client, tomorrow)["detail"].startswith(f"the results of the daily deal of {tomorrow}")
    refused(alice, "9999-12-31")
    assert results(alice, "0001-01-01") == {"date": "0001-01-01", "players": 0, "won": 0, "scores": {}}


def test_the_refusal_is_in_the_askers_language(players: Callable[[], TestClient]) -> None:
    alice = players()
    answer = alice.get(f"/api/daily/{TODAY}/results", headers={"Accept-Language": "bn"}).json()
    assert answer["code"] == "daily_secret" and TODAY in answer["detail"] and "দৈনিক" in answer["detail"]


# --- what they count ------------------------------------------------------------------------------------------


def test_every_players_finished_first_daily_counts_once_a_loss_as_zero(
    players: Callable[[], TestClient], tmp_path: Path
) -> None:
    winners = [players() for _ in range(3)]
    losers = [players() for _ in range(2)]
    playing = players()
    scores = {win(client)["score"] for client in winners}
    assert scores == {WINS[WON_DEAL][0]}
    for client in losers:
        lose(client)
    move(playing, new_game(playing, daily=True), 0, 0)
    answer = results(winners[0])
    assert answer == {"date": TODAY, "players": 5, "won": 3, "scores": {"0": 2, WON: 3}}
    assert sum(answer["scores"].values()) == answer["players"]
    # Asking for the daily again gives the same (finished) game: a second attempt is no second result.
    again = winners[0].post("/api/games", json={"daily": True})
    assert (again.status_code, again.json()["outcome"]) == (200, "won")
    assert results(winners[0]) == answer


def test_a_restarted_daily_counts_as_it_ended(players: Callable[[], TestClient]) -> None:
    alice, bob = players(), players()
    state = new_game(alice, daily=True)
    state = move(alice, state, 0, 0)
    restarted = alice.post(f"/api/games/{state['id']}/restart")
    assert restarted.status_code == 200 and restarted.json()["turn"] == 0
    for row, col in WINS[WON_DEAL][1]:
        state = move(alice, alice.get(f"/api/games/{state['id']}").json(), row, col)
    assert state["outcome"] == "won" and state["assisted"]
    lose(bob)
    assert results(bob)["scores"] == {"0": 1, WON: 1}


def test_a_game_of_the_same_deal_that_is_not_the_daily_does_not_count(
    players: Callable[[], TestClient], clock: Clock
) -> None:
    alice, bob = players(), players()
    win(alice)
    numbered = new_game(bob, deal=WON_DEAL)  # the same deal, by its number: not the daily
    for row, col in WINS[WON_DEAL][1]:
        numbered = move(bob, numbered, row, col)
    assert numbered["outcome"] == "won" and numbered["daily"] is None
    assert results(alice)["players"] == 1
    clock.next_day()
    copy = bob.post("/api/games", json={"like": numbered["id"]})  # yesterday's deal copied today
    assert copy.status_code == 201
    assert play_out(bob, copy.json())["daily"] is None
    assert results(bob, TODAY) == {"date": TODAY, "players": 1, "won": 1, "scores": {WON: 1}}


def test_scores_are_in_ascending_order(tmp_path: Path, clock: Clock) -> None:
    store = Store(tmp_path / "games.db", clock=clock)
    for n, (outcome, score) in enumerate([("won", 12), ("lost", 0), ("won", 3), ("won", 12), ("won", 24)]):
        game = store.daily.game(f"player-{n}", Variant())[0]
        with sqlite3.connect(store.database.path) as conn:
            conn.execute("UPDATE games SET outcome = ?, score = ? WHERE id = ?", (outcome, score, game.id))
    day = DAY.date()
    assert store.daily.results(day) == DailyResults(day, players=5, won=4, scores={0: 1, 3: 1, 12: 2, 24: 1})
    assert list(store.daily.results(day).scores) == [0, 3, 12, 24]
    assert store.daily.results(day).lower_than(12) == 2
    store.close()


def test_a_date_without_games_has_empty_results(players: Callable[[], TestClient]) -> None:
    alice = players()
    response = alice.get("/api/daily/2026-11-30/results")
    assert response.status_code == 200
    assert response.text == '{"date":"2026-11-30","players":0,"won":0,"scores":{}}'


# --- malformed dates ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "day",
    ["2026-13-01", "2026-02-30", "2026-1-1", "today", "20261201", "2026-W48-2", "99999-01-01", "0000-01-01",
     "9" * 400 + "-01-01", "2026-12-01T00:00", "%202026-12-01", "٢٠٢٦-١٢-٠١", "-2026-12-01"],
)  # fmt: skip
def test_text_that_is_no_date_is_404_not_found(players: Callable[[], TestClient], day: str) -> None:
    response = players().get(f"/api/daily/{day}/results")
    assert response.status_code == 404, response.text
    assert response.json() == {
        "detail": "not found: a daily deal's date is written YYYY-MM-DD, such as 2026-12-01", "code": "not_found"
    }  # fmt: skip


def test_an_address_near_the_route_is_an_ordinary_404(players: Callable[[], TestClient]) -> None:
    client = players()
    for path in ("/api/daily", "/api/daily/", "/api/daily/2026-12-01", "/api/daily/2026-12-01/result",
                 "/api/daily/2026/12/01/results"):  # fmt: skip
        response = client.get(path)
        assert (response.status_code, response.json()["code"]) == (404, "not_found"), path
    assert client.post(f"/api/daily/{TODAY}/results").status_code == 405
    assert client.head("/api/daily/2026-11-30/results").status_code == 200


# --- the index ------------------------------------------------------------------------------------------------


def test_the_results_are_read_from_the_index_of_the_daily_games(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.db")
    with sqlite3.connect(store.database.path) as conn:
        plan = " ".join(
            row[3]
            for row in conn.execute(
                "EXPLAIN QUERY PLAN SELECT CASE WHEN outcome = 'won' THEN score ELSE 0 END AS result, count(*),"
                " sum(outcome = 'won') FROM games WHERE daily = ? AND daily_repeat = 0 AND outcome IN ('won', 'lost')"
                " GROUP BY result",
                ("2026-12-01",),
            )
        )
    assert "COVERING INDEX games_daily_results" in plan, plan
    store.close()


def test_a_schema_3_database_gains_the_daily_results_index_and_keeps_its_games(tmp_path: Path, clock: Clock) -> None:
    db_path = tmp_path / "games.db"
    store = Store(db_path, clock=clock)
    game = store.daily.game("alice", Variant())[0]
    store.close()
    with sqlite3.connect(db_path) as conn:
        conn.execute("DROP INDEX games_daily_results")
        conn.execute("PRAGMA user_version = 3")
    store = Store(db_path, clock=clock)
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 8
        indexes = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert "games_daily_results" in indexes
    assert store.games.get(game.id) == replace(game, player=stored_player("alice"))  # schema 7 hashes the cookie
    assert store.daily.results(date(2026, 12, 1)).players == 0
    store.close()
