"""Data that stays bounded: live games never played or long abandoned are purged, finished games kept, a player's
live games capped; the settings of the environment; the purges that run while the server serves.

Time moves by an injected clock, never by waiting: every game is stored by the clock of its store, and a test
moves that clock forward past the limits. The purger is waited for by the rounds it counts, with a guard that
only a hang reaches.
"""

from __future__ import annotations

import asyncio
import logging
import pickle
import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from foursquare.engine import Game, Variant
from foursquare.store import SCHEMA_VERSION, TERMINAL_PLAYER, Store, StoredGame, TooManyGamesError
from foursquare.store import daily as daily_module
from foursquare.store.tokens import stored_player
from foursquare.web import create_app
from foursquare.web.rate_limits import RateLimits
from foursquare.web.retention import (
    PURGE_EVERY,
    Purged,
    Purger,
    RetentionSettings,
    RetentionSettingsError,
    purge,
)
from test_api import WINS
from web_support import UNHURRIED

GUARD = 120.0
"""Seconds after which a wait is a hang: only a hang reaches it."""

START = datetime(2026, 12, 1, 12, tzinfo=UTC)


class Clock:
    """A clock that stands still until the test moves it."""

    def __init__(self, moment: datetime = START) -> None:
        self.moment = moment

    def __call__(self) -> datetime:
        return self.moment

    def advance(self, **delta: float) -> None:
        self.moment += timedelta(**delta)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(database: str, clock: Clock) -> Iterator[Store]:
    """A store on each engine in turn (SQLite, PostgreSQL), closed after the test."""
    opened = Store(database, clock=clock)
    yield opened
    opened.close()


def new(store: Store, player: str = "alice", deal: int = 1) -> StoredGame:
    return store.games.create(player, deal=deal, variant=Variant(), hidden=True)


def play(store: Store, game_id: str, moves: list[list[int]] | None = None, *, count: int = 1) -> StoredGame:
    """Play ``moves`` (or the first legal move ``count`` times, or to the end if ``count`` is 0) on a stored game."""

    def apply(game: Game, _: StoredGame) -> None:
        if moves is not None:
            for row, col in moves:
                game.place(row, col)
            return
        played = 0
        while not game.is_over() and (count == 0 or played < count):
            game.place(*game.legal_moves[0])
            played += 1

    stored, _, _ = store.games.change(game_id, apply)
    return stored


def ids(store: Store, player: str) -> set[str]:
    """The ids of every game ``store.games.page`` lists for ``player``, page after page."""
    found: set[str] = set()
    page = 1
    while True:
        games, total = store.games.page(player, page=page, per_page=100)
        found |= {g.id for g in games}
        if not games:
            assert total == len(found)
            return found
        page += 1


def row_count(store: Store) -> int:
    with store.database.connect() as conn:
        count: int = conn.execute("SELECT count(*) FROM games").fetchone()[0]
    return count


# --- games never played --------------------------------------------------------------------------------------


def test_games_never_played_go_after_the_hour_and_every_other_game_stays(store: Store, clock: Clock) -> None:
    for n in range(200):
        new(store, deal=n)
    moved = play(store, new(store, deal=1).id)
    won = play(store, new(store, deal=1).id, WINS[1][1])
    undone = store.games.change(play(store, new(store, deal=2).id).id, lambda game, _: game.undo())[0]
    restarted = store.games.change(play(store, new(store, deal=3).id).id, lambda game, _: game.restart())[0]
    hinted = new(store, deal=4)
    store.games.mark_assisted(hinted.id)
    terminal = store.games.record("terminal-1", TERMINAL_PLAYER, Game(deal=5), hidden=True, assisted=False)
    assert (undone.moves, len(undone.redo)) == ((), 1)
    assert (restarted.moves, restarted.redo, restarted.assisted) == ((), (), True)
    kept = {moved.id, won.id, undone.id, restarted.id, hinted.id}

    clock.advance(minutes=59)
    assert store.retention.purge_unplayed(timedelta(hours=1)) == 0
    assert len(ids(store, "alice")) == 200 + len(kept)

    clock.advance(minutes=2)
    late = new(store, deal=6)  # started a minute ago: not yet
    assert store.retention.purge_unplayed(timedelta(hours=1)) == 200
    assert ids(store, "alice") == kept | {late.id}
    assert store.games.get(terminal.id).turn == 0  # the terminal game's records are never purged
    assert store.retention.purge_unplayed(timedelta(hours=1)) == 0  # nothing left to purge


@pytest.mark.slow
def test_three_thousand_new_games_leave_only_those_with_moves(store: Store, clock: Clock) -> None:
    played = set()
    for n in range(3000):
        game = new(store, player=f"player-{n % 97}", deal=n)
        if n % 50 == 0:
            played.add(play(store, game.id).id)
    clock.advance(hours=1, seconds=1)
    assert store.retention.purge_unplayed(timedelta(hours=1)) == 3000 - len(played)
    with store.database.connect() as conn:
        assert {row[0] for row in conn.execute("SELECT id FROM games").fetchall()} == played


@pytest.mark.slow
def test_hundreds_of_new_games_through_the_api_leave_only_those_with_moves(tmp_path: Path) -> None:
    clock = Clock()
    # The fair-use limit on new games (per address, and a TestClient has one) is not what is tested here.
    app = create_app(tmp_path / "games.db", clock=clock, rate_limits=RateLimits(games="1000/minute", moves=UNHURRIED))
    players: list[dict[str, Any]] = []
    with TestClient(app) as client:
        for _ in range(10):
            client.cookies.clear()
            assert client.get("/api/stats").status_code == 200  # the player's cookie, as the page gets it
            games = []
            for _ in range(30):
                response = client.post("/api/games", json={})
                assert response.status_code == 201, response.text
                games.append(response.json())
            moved = []
            for state in games[:3]:
                row, col = state["legal"][0]
                answer = client.post(f"/api/games/{state['id']}/moves", json={"row": row, "col": col, "turn": 0})
                assert answer.status_code == 200, answer.text
                moved.append(state["id"])
            stats = client.get("/api/stats").json()
            players.append({"cookies": dict(client.cookies), "games": games, "moved": moved, "stats": stats})

        clock.advance(hours=1, minutes=1)
        assert purge(app.state.store, RetentionSettings()).abandoned == 0
        assert row_count(app.state.store) == 30

        for player in players:
            client.cookies.clear()
            client.cookies.update(player["cookies"])
            listed = client.get("/api/games").json()
            assert (listed["total"], {g["id"] for g in listed["games"]}) == (3, set(player["moved"]))
            gone = client.get(f"/api/games/{player['games'][-1]['id']}")
            assert (gone.status_code, gone.json()["code"]) == (404, "unknown_game")
            assert client.get("/api/stats").json() == player["stats"]


# --- abandoned games -----------------------------------------------------------------------------------------


def test_abandoned_games_go_after_the_days_and_finished_games_and_statistics_stay(
    store: Store, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Daily deals of known winning lines (the number is a secret of the database otherwise).
    plan = {START.date() + timedelta(days=n): deal for n, deal in enumerate((1, 2, 5, 1))}
    monkeypatch.setattr(daily_module, "daily_deal_number", lambda key, day: plan[day])
    finished = []
    for _ in range(3):  # three daily wins in a row, then a daily left half-played
        daily, _ = store.daily.game("alice", Variant())
        finished.append(play(store, daily.id, WINS[daily.deal or 0][1]).id)
        clock.advance(days=1)
    live_daily, _ = store.daily.game("alice", Variant())
    play(store, live_daily.id, count=3)
    lost = play(store, new(store, deal=7).id, count=0)
    assert lost.outcome == "lost"
    store.games.save_analysis(lost.id, {"version": 9, "moves": ["a stored analysis"]})
    finished.append(lost.id)
    half_played = play(store, new(store, deal=8).id, count=4)
    clock.advance(days=10)
    recent = play(store, new(store, deal=9).id, count=2)  # ten days younger
    stats = store.stats.of("alice")
    assert (stats["played"], stats["won"], stats["daily"]["played"], stats["daily"]["best_streak"]) == (4, 3, 3, 3)

    clock.advance(days=25)  # the oldest live games untouched for 35 days, the recent one for 25
    stats_then = store.stats.of("alice")
    recent_games = [g.id for g in store.games.recent("alice", 10)]
    assert store.retention.purge_abandoned(timedelta(days=30)) == 2
    assert ids(store, "alice") == {*finished, recent.id}
    assert {live_daily.id, half_played.id}.isdisjoint(ids(store, "alice"))
    assert store.stats.of("alice") == stats_then
    assert [g.id for g in store.games.recent("alice", 10)] == recent_games
    assert store.games.get(lost.id).analysis == '{"version":9,"moves":["a stored analysis"]}'

    clock.advance(days=6)
    assert store.retention.purge_abandoned(timedelta(days=30)) == 1
    assert ids(store, "alice") == set(finished)
    assert store.stats.of("alice")["played"] == 4


def test_todays_daily_game_purged_unplayed_is_dealt_again_the_same(store: Store, clock: Clock) -> None:
    daily, created = store.daily.game("alice", Variant())
    assert created
    clock.advance(hours=2)
    assert store.retention.purge_unplayed(timedelta(hours=1)) == 1
    again, created = store.daily.game("alice", Variant())
    assert created and again.id != daily.id and (again.deal, again.daily) == (daily.deal, daily.daily)


def test_a_daily_game_restarted_is_never_purged_as_unplayed(store: Store, clock: Clock) -> None:
    """Its player has seen its cards: purging it would deal the same daily deal again, unassisted."""
    daily, _ = store.daily.game("alice", Variant())
    play(store, daily.id, count=5)
    store.games.change(daily.id, lambda game, _: game.restart())
    clock.advance(days=1)
    assert store.retention.purge_unplayed(timedelta(hours=1)) == 0
    clock.advance(hours=-24)
    assert store.daily.game("alice", Variant()) == (store.games.get(daily.id), False)
    assert store.games.get(daily.id).assisted


def test_damaged_rows_are_purged_without_being_read(store: Store, clock: Clock) -> None:
    garbled = new(store, deal=1)
    unplayed_but_unreadable = new(store, deal=2)
    with store.database.transaction() as conn:
        conn.execute("UPDATE games SET moves = 'not json', turn = 3 WHERE id = ?", (garbled.id,))
        conn.execute("UPDATE games SET adjacency = 'sideways' WHERE id = ?", (unplayed_but_unreadable.id,))
    clock.advance(hours=2)
    assert store.retention.purge_unplayed(timedelta(hours=1)) == 1
    clock.advance(days=31)
    assert store.retention.purge_abandoned(timedelta(days=30)) == 1
    assert row_count(store) == 0


def test_the_purges_read_only_the_live_games_index(tmp_path: Path) -> None:
    """SQLite's plans (PostgreSQL's planner rightly reads a table this small whole)."""
    from foursquare.store.retention import ABANDONED, UNPLAYED

    Store(tmp_path / "games.db").close()
    with sqlite3.connect(tmp_path / "games.db") as conn:
        for where in (UNPLAYED, ABANDONED):
            plan = conn.execute(f"EXPLAIN QUERY PLAN DELETE FROM games WHERE {where}", ("p", "t")).fetchall()
            assert "USING INDEX games_live_by_update" in str(plan), plan
        plan = conn.execute(
            "EXPLAIN QUERY PLAN SELECT count(*) FROM games WHERE player = ? AND outcome = 'playing'", ("p",)
        ).fetchall()
        assert "USING COVERING INDEX games_live_by_player" in str(plan), plan


def test_a_purge_needs_a_positive_age(store: Store) -> None:
    with pytest.raises(ValueError, match="positive time"):
        store.retention.purge_unplayed(timedelta(0))
    with pytest.raises(ValueError, match="positive time"):
        store.retention.purge_abandoned(timedelta(days=-1))


# --- the cap on live games -----------------------------------------------------------------------------------


def test_a_player_has_at_most_the_limit_of_live_games(store: Store) -> None:
    games = [store.games.create("alice", deal=n, variant=Variant(), hidden=True, live_limit=3) for n in range(3)]
    assert store.games.live_count("alice") == 3
    with pytest.raises(TooManyGamesError, match="at most 3 games in play") as refused:
        store.games.create("alice", deal=9, variant=Variant(), hidden=True, live_limit=3)
    assert (refused.value.code, dict(refused.value.params)) == ("too_many_games", {"limit": 3})
    assert vars(pickle.loads(pickle.dumps(refused.value))) == vars(refused.value)  # whole across processes
    with pytest.raises(TooManyGamesError):
        store.daily.game("alice", Variant(), live_limit=3)
    assert store.games.live_count("alice") == 3
    store.games.create("bob", deal=9, variant=Variant(), hidden=True, live_limit=3)  # another player's room
    new(store, deal=9)  # no limit given, none checked (the terminal game, tests)

    play(store, games[0].id, count=0)  # a finished game makes room
    assert store.games.live_count("alice") == 3
    daily, created = store.daily.game("alice", Variant(), live_limit=4)
    assert created and store.games.live_count("alice") == 4
    assert store.daily.game("alice", Variant(), live_limit=4) == (daily, False)  # the same game, not a new one


def test_concurrent_new_games_never_pass_the_limit(store: Store) -> None:
    barrier = threading.Barrier(16)
    outcomes: list[str] = []

    def start(n: int) -> None:
        barrier.wait()
        try:
            store.games.create("alice", deal=n, variant=Variant(), hidden=True, live_limit=5)
            outcomes.append("stored")
        except TooManyGamesError:
            outcomes.append("refused")

    threads = [threading.Thread(target=start, args=(n,)) for n in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(GUARD)
    assert sorted(outcomes) == ["refused"] * 11 + ["stored"] * 5
    assert store.games.live_count("alice") == 5


# --- the database migrates -----------------------------------------------------------------------------------


def test_a_schema_2_database_gains_the_live_games_indexes_and_keeps_its_games(tmp_path: Path, clock: Clock) -> None:
    db_path = tmp_path / "games.db"
    store = Store(db_path, clock=clock)
    old = play(store, new(store, deal=1).id)
    store.close()
    with sqlite3.connect(db_path) as conn:
        conn.execute("DROP INDEX games_live_by_player")
        conn.execute("DROP INDEX games_live_by_update")
        conn.execute("PRAGMA user_version = 2")
    store = Store(db_path, clock=clock)
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        indexes = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert {"games_live_by_player", "games_live_by_update"} <= indexes
    # The player was a cookie in clear before schema 7: it is stored as its hash now.
    hashed = stored_player("alice")
    assert store.games.get(old.id) == replace(old, player=hashed) and store.games.live_count(hashed) == 1
    store.close()


# --- the settings --------------------------------------------------------------------------------------------


def test_the_settings_default_to_an_hour_thirty_days_and_fifty_games() -> None:
    settings = RetentionSettings.from_environment({})
    assert settings == RetentionSettings(unplayed_hours=1.0, abandoned_days=30.0, live_games=50)
    assert (settings.unplayed, settings.abandoned) == (timedelta(hours=1), timedelta(days=30))


def test_the_settings_are_read_from_the_environment() -> None:
    environ = {"FOURSQUARE_UNPLAYED_HOURS": " 0.25 ", "FOURSQUARE_ABANDONED_DAYS": "7", "FOURSQUARE_LIVE_GAMES": "12"}
    assert RetentionSettings.from_environment(environ) == RetentionSettings(0.25, 7.0, 12)
    assert RetentionSettings.from_environment({"FOURSQUARE_LIVE_GAMES": ""}) == RetentionSettings()


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("FOURSQUARE_UNPLAYED_HOURS", "0", "a number of hours from 0.1 to 8760, not '0'"),
        ("FOURSQUARE_UNPLAYED_HOURS", "-1", "a number of hours from 0.1 to 8760, not '-1'"),
        ("FOURSQUARE_UNPLAYED_HOURS", "0.01", "from 0.1 to 8760"),
        ("FOURSQUARE_UNPLAYED_HOURS", "an hour", "not 'an hour'"),
        ("FOURSQUARE_UNPLAYED_HOURS", "nan", "not 'nan'"),
        ("FOURSQUARE_UNPLAYED_HOURS", "inf", "not 'inf'"),
        ("FOURSQUARE_UNPLAYED_HOURS", "1e400", "not '1e400'"),
        ("FOURSQUARE_UNPLAYED_HOURS", "10000", "from 0.1 to 8760, not '10000'"),
        ("FOURSQUARE_ABANDONED_DAYS", "0", "a number of days from 1 to 36500, not '0'"),
        ("FOURSQUARE_ABANDONED_DAYS", "99999999999", "from 1 to 36500"),
        ("FOURSQUARE_ABANDONED_DAYS", "30d", "not '30d'"),
        ("FOURSQUARE_LIVE_GAMES", "0", "a whole number of games from 1 to 1000000, not '0'"),
        ("FOURSQUARE_LIVE_GAMES", "50.5", "a whole number of games"),
        ("FOURSQUARE_LIVE_GAMES", "-5", "not '-5'"),
        ("FOURSQUARE_LIVE_GAMES", "10000000", "from 1 to 1000000"),
        ("FOURSQUARE_LIVE_GAMES", "fifty", "not 'fifty'"),
    ],
)
def test_absurd_settings_in_the_environment_are_refused(name: str, value: str, message: str) -> None:
    with pytest.raises(RetentionSettingsError, match=f"^{name} must be .*{message}"):
        RetentionSettings.from_environment({name: value})


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"unplayed_hours": 0}, "unplayed_hours must be from 0.1 to 8760 hours, not 0"),
        ({"abandoned_days": float("nan")}, "abandoned_days must be from 1 to 36500 days, not nan"),
        ({"live_games": True}, "live_games must be a whole number, not True"),
        ({"live_games": 2.5}, "live_games must be a whole number, not 2.5"),
        ({"live_games": 0}, "live_games must be from 1 to 1000000 games, not 0"),
    ],
)
def test_absurd_settings_given_directly_are_refused(given: dict[str, Any], message: str) -> None:
    with pytest.raises(RetentionSettingsError, match=f"^{message}$"):
        RetentionSettings(**given)


# --- the purges while the server serves ----------------------------------------------------------------------


async def rounds_reach(purger: Purger, count: int) -> None:
    """Wait (by the rounds, a hang only reaching the guard) until ``purger`` has done ``count`` rounds."""

    async def wait() -> None:
        while purger.rounds < count:
            await asyncio.sleep(0.01)

    await asyncio.wait_for(wait(), GUARD)


def test_the_purger_purges_at_once_then_round_after_round_and_stops_cleanly(store: Store, clock: Clock) -> None:
    played = play(store, new(store, deal=1).id)
    unplayed = new(store, deal=2)

    async def scenario() -> None:
        async with Purger(store, RetentionSettings(), every=0) as purger:
            await rounds_reach(purger, 1)
            assert purger.last == Purged(0, 0)
            clock.advance(hours=2)
            done = purger.rounds
            await rounds_reach(purger, done + 2)  # a whole round began after the clock moved
            assert ids(store, "alice") == {played.id}
            clock.advance(days=31)
            await rounds_reach(purger, purger.rounds + 2)
        stopped = purger.rounds
        for _ in range(10):
            await asyncio.sleep(0)
        assert purger.rounds == stopped  # no round after stop

    asyncio.run(scenario())
    assert row_count(store) == 0
    assert unplayed.id not in ids(store, "alice")


def test_stopping_does_not_wait_for_the_next_round(store: Store) -> None:
    async def scenario() -> int:
        purger = Purger(store, RetentionSettings(), every=PURGE_EVERY)
        purger.start()
        await rounds_reach(purger, 1)
        await asyncio.wait_for(purger.stop(), GUARD)  # a guard: stop wakes the wait, it does not sit it out
        return purger.rounds

    assert asyncio.run(scenario()) == 1


def test_a_round_that_fails_is_logged_and_the_next_one_tries_again(
    store: Store, clock: Clock, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    failures = iter([sqlite3.OperationalError("database is locked")])
    real: Callable[[timedelta], int] = store.retention.purge_unplayed

    def flaky(older_than: timedelta) -> int:
        for failure in failures:
            raise failure
        return real(older_than)

    monkeypatch.setattr(store.retention, "purge_unplayed", flaky)
    new(store)
    clock.advance(hours=2)

    async def scenario() -> Purger:
        async with Purger(store, RetentionSettings(), every=0) as purger:
            await rounds_reach(purger, 2)
        return purger

    with caplog.at_level(logging.INFO, logger="foursquare.web"):
        purger = asyncio.run(scenario())
    assert "purging old games failed" in caplog.text and "database is locked" in caplog.text
    assert "purged games: 1 never played, 0 abandoned" in caplog.text
    assert purger.rounds >= 2 and row_count(store) == 0


def test_the_purger_starts_once_and_wants_a_sensible_period(store: Store) -> None:
    with pytest.raises(RetentionSettingsError, match="every 0 seconds or more"):
        Purger(store, RetentionSettings(), every=-1)

    async def scenario() -> None:
        async with Purger(store, RetentionSettings(), every=PURGE_EVERY) as purger:
            with pytest.raises(RuntimeError, match="already started"):
                purger.start()

    asyncio.run(scenario())
