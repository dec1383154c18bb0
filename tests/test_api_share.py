"""Sharing and playing fair, over the API: whose game it is, the daily deal, winnable deals, copies of a
deal (``like``), assisted games and the statistics that set them apart (``docs/api.md``).

The date is frozen by giving ``create_app`` a clock; nothing here sleeps.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from db_support import game_row
from foursquare.cards import deal_stock
from foursquare.engine import Game, Variant
from foursquare.store import SCHEMA_VERSION, Store, daily_deal_number
from foursquare.store import daily as daily_module
from foursquare.web import create_app
from foursquare.web.routes import page
from test_api import WINS, move, new_game, play_line, play_out
from web_support import as_player


class Clock:
    """A clock that stands still until the test moves it."""

    def __init__(self, when: datetime) -> None:
        self.when = when

    def __call__(self) -> datetime:
        return self.when

    def next_day(self) -> None:
        self.when += timedelta(days=1)


DAY = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> Clock:
    return Clock(DAY)


@pytest.fixture
def app(tmp_path: Path, clock: Clock) -> Any:
    return create_app(tmp_path / "games.db", clock=clock)


@pytest.fixture
def alice(app: Any) -> Iterator[TestClient]:
    with TestClient(app, raise_server_exceptions=False) as client:
        as_player(client)
        yield client


@pytest.fixture
def bob(app: Any) -> Iterator[TestClient]:
    """A second browser: the same server, another player cookie."""
    with TestClient(app, raise_server_exceptions=False) as client:
        as_player(client)
        yield client


def daily_key(db_path: Path) -> str:
    with sqlite3.connect(db_path) as conn:
        key: str = conn.execute("SELECT value FROM secrets WHERE name = 'daily'").fetchone()[0]
    return key


# --- whose game it is -----------------------------------------------------------------------------------


def test_only_the_player_may_change_a_game_and_the_state_says_whose_it_is(alice: TestClient, bob: TestClient) -> None:
    state = move(alice, new_game(alice, deal=1), 0, 0)
    game_id = state["id"]
    assert state["yours"] is True
    seen = bob.get(f"/api/games/{game_id}").json()
    assert seen["yours"] is False
    assert {k: v for k, v in seen.items() if k not in ("yours",)} == {
        k: v for k, v in alice.get(f"/api/games/{game_id}").json().items() if k != "yours"
    }
    attempts = {
        "moves": {"row": 0, "col": 1, "turn": 1},
        "undo": None,
        "redo": None,
        "restart": None,
    }
    for path, body in attempts.items():
        response = bob.post(f"/api/games/{game_id}/{path}", json=body)
        assert response.status_code == 403, (path, response.text)
        assert response.json()["code"] == "not_your_game"
        assert response.json()["detail"].startswith("this game is another player's: only the browser that started")
    response = bob.get(f"/api/games/{game_id}/hint")
    assert (response.status_code, response.json()["code"]) == (403, "not_your_game")
    after = alice.get(f"/api/games/{game_id}").json()
    assert (after["turn"], after["assisted"], after["updated_at"]) == (1, False, state["updated_at"])
    # The player still may.
    assert alice.post(f"/api/games/{game_id}/undo").status_code == 200


def test_another_players_finished_game_can_be_reviewed_but_not_changed(alice: TestClient, bob: TestClient) -> None:
    won = play_line(alice, 1, WINS[1][1])
    assert bob.get(f"/api/games/{won['id']}/record").status_code == 200
    assert bob.get(f"/api/games/{won['id']}/replay?turn=3").status_code == 200
    response = bob.post(f"/api/games/{won['id']}/undo")
    assert (response.status_code, response.json()["code"]) == (403, "not_your_game")


def test_a_share_link_serves_the_page(alice: TestClient) -> None:
    index = page.page_html(page.index_path().read_text(encoding="utf-8"), "").encode()  # the build's, if current
    for path in ("/deal/42", "/deal/42?adjacency=diagonal&count_buried=true", "/deal/not-a-number?x=1"):
        response = alice.get(path)
        assert (response.status_code, response.content) == (200, index), path  # the page says what is wrong


# --- playing the deal of another game ----------------------------------------------------------------------


def test_a_live_game_cannot_be_copied_by_anyone_until_it_is_over(alice: TestClient, bob: TestClient) -> None:
    original = move(alice, new_game(alice, variant={"adjacency": "diagonal", "count_buried": True}), 0, 0)
    # A copy of a live game would be an oracle of its future: lose the copy fast, read its number, know the stock.
    for who in (alice, bob):
        response = who.post("/api/games", json={"like": original["id"]})
        assert (response.status_code, response.json()["code"]) == (409, "still_playing"), response.text
    assert bob.get("/api/games").json()["total"] == 0
    finished = play_out(alice, original)
    assert finished["deal"] == stored_deal(alice, original["id"])  # over: the number is no secret any more
    response = bob.post("/api/games", json={"like": original["id"]})
    assert response.status_code == 201
    copy = response.json()
    assert copy["id"] != original["id"]
    deal, variant = finished["deal"], original["variant"]
    assert (copy["deal"], copy["turn"], copy["yours"], copy["variant"]) == (deal, 0, True, variant)
    copy = move(bob, copy, 0, 0)
    assert copy["cells"] == move(alice, new_game(alice, deal=deal, variant=variant), 0, 0)["cells"]


def stored_deal(client: TestClient, game_id: str) -> int:
    app: Any = client.app
    deal = app.state.store.games.get(game_id).deal
    assert deal is not None
    return int(deal)


def test_play_this_deal_of_a_numbered_game_shows_the_number(alice: TestClient, bob: TestClient) -> None:
    original = new_game(alice, deal=42)
    play_out(alice, original)
    copy = bob.post("/api/games", json={"like": original["id"]}).json()
    assert (copy["deal"], copy["card"]) == (42, original["card"])


def test_the_player_of_a_live_game_cannot_copy_it(alice: TestClient) -> None:
    original = new_game(alice)
    response = alice.post("/api/games", json={"like": original["id"]})
    assert (response.status_code, response.json()["code"]) == (409, "still_playing")


@pytest.mark.parametrize(
    ("body", "status", "detail"),
    [
        ({"like": "no-such-game"}, 404, "there is no game with id 'no-such-game'"),
        ({"like": "x", "deal": 3}, 422, "bad request: give at most one of deal, daily, winnable and like"),
        ({"daily": True, "winnable": True}, 422, "bad request: give at most one of deal, daily, winnable and like"),
        ({"daily": "yes"}, 422, "bad request: daily must be true or false"),
        ({"like": 7}, 422, "bad request: like must be a string"),
    ],
)
def test_malformed_deal_choices_are_refused(alice: TestClient, body: dict[str, Any], status: int, detail: str) -> None:
    response = alice.post("/api/games", json=body)
    assert (response.status_code, response.json()["detail"]) == (status, detail)


def test_a_copy_keeps_the_rules_of_its_game(alice: TestClient, bob: TestClient) -> None:
    original = new_game(alice, deal=3)
    response = bob.post("/api/games", json={"like": original["id"], "variant": {"adjacency": "diagonal"}})
    assert response.status_code == 422
    assert "keeps the house rules" in response.json()["detail"]


# --- the daily deal -----------------------------------------------------------------------------------------


def test_the_daily_deal_is_the_same_for_everyone_on_a_date_and_hidden_until_the_end(
    alice: TestClient, bob: TestClient, clock: Clock, tmp_path: Path
) -> None:
    response = alice.post("/api/games", json={"daily": True})
    assert response.status_code == 201
    a = response.json()
    b = new_game(bob, daily=True)
    assert (a["deal"], b["deal"], a["daily"], b["daily"]) == (None, None, "2026-12-01", "2026-12-01")
    assert a["id"] != b["id"] and a["card"] == b["card"]
    assert alice.get("/api/games").json()["games"][0]["deal"] is None
    expected = daily_deal_number(daily_key(tmp_path / "games.db"), date(2026, 12, 1))
    assert str(expected) not in response.text
    # Asking again the same day gives the same game: one attempt per date.
    again = alice.post("/api/games", json={"daily": True})
    assert (again.status_code, again.json()["id"]) == (200, a["id"])
    # Even over, the number stays secret all the date (it would tell everyone's stock), and so do the record and
    # the analysis; the next date it shows, and it is the number derived from the date and the secret.
    done = play_out(alice, a)
    assert done["deal"] is None and str(expected) not in alice.get(f"/api/games/{a['id']}").text
    for what in ("record", "analysis"):
        refused = bob.get(f"/api/games/{a['id']}/{what}")
        assert (refused.status_code, refused.json()["code"]) == (409, "daily_secret"), refused.text
        assert "2026-12-01" in refused.json()["detail"]
    assert alice.get("/api/games").json()["games"][0]["deal"] is None
    clock.next_day()
    assert alice.get(f"/api/games/{a['id']}").json()["deal"] == expected
    assert bob.get(f"/api/games/{a['id']}/record").status_code == 200
    assert Game(deal=expected).card_to_place is not None and Game(deal=expected).card_to_place.name == a["card"]
    # Another date, another deal.
    tomorrow = new_game(alice, daily=True)
    assert tomorrow["daily"] == "2026-12-02" and tomorrow["id"] != a["id"]
    assert daily_deal_number(daily_key(tmp_path / "games.db"), date(2026, 12, 2)) != expected


def test_the_daily_secret_is_per_database(tmp_path: Path) -> None:
    keys = {daily_key(Path(Store(tmp_path / f"{n}.db").database.path)) for n in range(2)}
    assert len(keys) == 2 and all(len(key) == 64 for key in keys)


def test_a_copy_of_todays_daily_is_the_visitors_daily(alice: TestClient, bob: TestClient) -> None:
    a = new_game(alice, daily=True)
    assert bob.post("/api/games", json={"like": a["id"]}).status_code == 409  # live: it cannot be copied
    play_out(alice, a)
    copy = bob.post("/api/games", json={"like": a["id"]}).json()
    assert (copy["daily"], copy["deal"], copy["card"], copy["turn"]) == ("2026-12-01", None, a["card"], 0)
    assert bob.post("/api/games", json={"daily": True}).json()["id"] == copy["id"]


def test_the_daily_streak_counts_consecutive_dates_with_a_won_daily(
    alice: TestClient, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each date's daily is made a deal with a known win (the winning lines are test data), or deal 7 (lost).
    plan = {date(2026, 12, 1): 1, date(2026, 12, 2): 2, date(2026, 12, 3): 7, date(2026, 12, 4): 5,
            date(2026, 12, 5): 1}  # fmt: skip
    monkeypatch.setattr(daily_module, "daily_deal_number", lambda key, day: plan[day])
    history = []
    for day, deal in plan.items():
        state = new_game(alice, daily=True)
        assert state["daily"] == day.isoformat()
        if deal in WINS:
            for row, col in WINS[deal][1]:
                state = move(alice, state, row, col)
        else:
            state = play_out(alice, state)
        history.append(state["outcome"])
        daily = alice.get("/api/stats").json()["daily"]
        history.append((daily["current_streak"], daily["best_streak"]))
        clock.next_day()
    assert history == ["won", (1, 1), "won", (2, 2), "lost", (0, 2), "won", (1, 2), "won", (2, 2)]
    # A day without a win keeps today's streak alive until the end of the next date, then ends it.
    daily = alice.get("/api/stats").json()["daily"]
    assert (daily["played"], daily["won"], daily["current_streak"]) == (5, 4, 2)
    clock.next_day()
    assert alice.get("/api/stats").json()["daily"]["current_streak"] == 0


# --- winnable deals -------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_winnable_deal_is_proven_winnable_and_its_number_hidden(alice: TestClient) -> None:
    from foursquare.solver import WINNABLE_NODES, solve

    response = alice.post("/api/games", json={"winnable": True, "variant": {"adjacency": "diagonal"}})
    assert response.status_code == 201, response.text
    state = response.json()
    assert (state["deal"], state["winnable"], state["turn"]) == (None, True, 0)
    deal = stored_deal(alice, state["id"])
    solution = solve(deal_stock(deal), Variant(adjacency="diagonal"), max_nodes=WINNABLE_NODES)  # a count: no clock
    assert solution.best_score is not None
    assert play_out(alice, state)["deal"] == deal


# --- assisted games ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("assist", ["undo", "restart", "hint"])
def test_undo_restart_or_a_hint_marks_the_game_assisted(alice: TestClient, tmp_path: Path, assist: str) -> None:
    state = move(alice, move(alice, new_game(alice, deal=1), 0, 0), 0, 1)
    assert state["assisted"] is False
    if assist == "hint":
        assert alice.get(f"/api/games/{state['id']}/hint").status_code == 200
    else:
        assert alice.post(f"/api/games/{state['id']}/{assist}").json()["assisted"] is True
    assert alice.get(f"/api/games/{state['id']}").json()["assisted"] is True
    assert game_row(str(tmp_path / "games.db"), state["id"])["assisted"] == 1
    assert alice.get("/api/games").json()["games"][0]["assisted"] is True


def test_placing_and_redo_do_not_mark_a_game_assisted(alice: TestClient) -> None:
    state = play_line(alice, 1, WINS[1][1][:5])
    assert state["assisted"] is False


def test_statistics_split_clean_and_assisted_games(alice: TestClient) -> None:
    play_line(alice, 1, WINS[1][1])  # clean win, 24
    helped = move(alice, new_game(alice, deal=5), 0, 0)
    helped = alice.post(f"/api/games/{helped['id']}/undo").json()
    for row, col in WINS[5][1]:
        helped = move(alice, helped, row, col)
    assert (helped["outcome"], helped["assisted"]) == ("won", True)  # assisted win, 18
    play_line(alice, 2, WINS[2][1])  # clean win, 24
    stats = alice.get("/api/stats").json()
    assert (stats["played"], stats["won"], stats["current_streak"], stats["best_streak"], stats["assisted"]) == (
        3, 3, 3, 3, 1,
    )  # fmt: skip
    clean = {key: value for key, value in stats["clean"].items() if key != "best_time"}  # test_best_times
    assert clean == {"played": 2, "won": 2, "current_streak": 1, "best_streak": 1, "best_score": 24}


# --- the database migrates -------------------------------------------------------------------------------------

SCHEMA_1 = """
CREATE TABLE games (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, player TEXT NOT NULL, deal TEXT, stock TEXT,
    deal_hidden INTEGER NOT NULL, adjacency TEXT NOT NULL, count_buried INTEGER NOT NULL,
    moves TEXT NOT NULL DEFAULT '[]', redo TEXT NOT NULL DEFAULT '[]', turn INTEGER NOT NULL DEFAULT 0,
    outcome TEXT NOT NULL DEFAULT 'playing', reason TEXT, score INTEGER, finished_seq INTEGER, analysis TEXT,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, finished_at TEXT,
    CHECK ((deal IS NULL) <> (stock IS NULL))
);
CREATE INDEX games_by_player ON games (player, seq);
CREATE INDEX games_finished_by_player ON games (player, finished_seq) WHERE finished_seq IS NOT NULL;
INSERT INTO games (id, player, deal, deal_hidden, adjacency, count_buried, moves, turn, created_at, updated_at)
VALUES ('old-game-0000000000000', 'old-player-000000000000', '1', 0, 'orthogonal', 0, '[[0,0]]', 1,
        '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
PRAGMA user_version = 1;
"""


def test_a_schema_1_database_is_migrated_and_its_games_kept(tmp_path: Path) -> None:
    db_path = tmp_path / "games.db"
    with sqlite3.connect(db_path) as conn:
        conn.executescript(SCHEMA_1)
    store = Store(db_path)
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    old = store.games.get("old-game-0000000000000")
    assert (old.turn, old.assisted, old.daily, old.winnable) == (1, False, None, False)
    assert len(daily_key(db_path)) == 64
    stored, created = store.daily.game("old-player-000000000000", Variant())
    assert created and stored.daily is not None
    store.close()
    Store(db_path).close()  # opening it again changes nothing
