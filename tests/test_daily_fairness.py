"""The daily deal stays fair after midnight: once a date's finished games show its deal (its UTC day is over), a
daily game of that date still open can be played with the whole stock known (``foursquare solve --deal N``), so
it no longer counts as that date's game nor as clean, and its page says so; and of two daily games of one date
that signing in brings together, the first one finished counts, never the better-informed one.

The clock is the test's: it moves past midnight between two requests.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from test_accounts import Authenticator, create_passkey, sign_in
from test_api import WINS, move
from test_daily_results import DAY, WON_DEAL, Clock, app, clock, players

DEAL = WON_DEAL
"""The daily deal in these tests (:mod:`test_daily_results`' fixtures): a deal of :data:`test_api.WINS`, whose
perfect line wins with 24."""
LINE = WINS[DEAL][1]

# Fixtures are found by name in this module's namespace.
__all__ = ["app", "clock", "players"]


def daily(client: TestClient) -> dict[str, Any]:
    answer = client.post("/api/games", json={"daily": True})
    assert answer.status_code in (200, 201), answer.text
    state: dict[str, Any] = answer.json()
    return state


def play(client: TestClient, state: dict[str, Any], moves: list[list[int]]) -> dict[str, Any]:
    for row, col in moves:
        state = move(client, state, row, col)
    return state


def results(app: Any) -> Any:
    return app.state.store.daily.results(DAY.date())


def test_a_daily_game_finished_after_midnight_counts_neither_for_its_date_nor_as_clean(
    app: Any, players: Any, clock: Clock
) -> None:
    early, late = players(), players()
    early_game = play(early, daily(early), LINE)
    late_game = play(late, daily(late), LINE[:3])
    assert early_game["outcome"] == "won" and early_game["deal"] is None  # secret while its day lasts
    clock.next_day()
    # The day is over: the finished game shows its deal, and anyone may solve it.
    assert early.get(f"/api/games/{early_game['id']}").json()["deal"] == DEAL
    seen = late.get(f"/api/games/{late_game['id']}").json()
    assert seen["daily_late"] is True and seen["assisted"] is False  # said before any move
    late_game = play(late, seen, LINE[3:])
    assert late_game["outcome"] == "won" and late_game["score"] == 24
    assert late_game["daily_late"] is True and late_game["assisted"] is True
    day = results(app)
    assert (day.players, day.won) == (1, 1)  # the early game alone
    stats = late.get("/api/stats").json()
    assert stats["won"] == 1 and stats["clean"]["won"] == 0
    assert (stats["daily"]["played"], stats["daily"]["won"], stats["daily"]["best_streak"]) == (0, 0, 0)
    early_stats = early.get("/api/stats").json()
    assert early_stats["clean"]["won"] == 1 and early_stats["daily"]["won"] == 1
    assert early.get(f"/api/games/{early_game['id']}").json()["daily_late"] is False


def test_a_daily_game_finished_before_midnight_still_counts_after_it(app: Any, players: Any, clock: Clock) -> None:
    player = players()
    game = play(player, daily(player), LINE)
    clock.next_day()
    state = player.get(f"/api/games/{game['id']}").json()
    assert (state["daily_late"], state["assisted"]) == (False, False)
    assert results(app).players == 1 and player.get("/api/stats").json()["daily"]["won"] == 1


def test_signing_in_keeps_the_daily_game_finished_first_not_the_better_informed_one(app: Any, players: Any) -> None:
    laptop, phone = players(), players()
    opened_first = play(laptop, daily(laptop), LINE[:1])  # started first on the laptop, then left
    key = Authenticator()
    assert create_passkey(phone, key).status_code == 201
    finished_first = play(phone, daily(phone), LINE[:5])
    while finished_first["outcome"] == "playing":  # then the first legal cell each time: a loss on the phone
        finished_first = move(phone, finished_first, *finished_first["legal"][0])
    assert finished_first["outcome"] == "lost"
    # Back on the laptop, the cards seen on the phone known: the same deal, played perfectly.
    informed = play(laptop, opened_first, LINE[1:])
    assert informed["outcome"] == "won"
    assert sign_in(laptop, key.copy()).status_code == 200
    day = results(app)
    assert (day.players, day.won, day.scores) == (1, 0, {0: 1})  # the phone's loss counts, not the laptop's win
    assert laptop.get("/api/stats").json()["daily"] == phone.get("/api/stats").json()["daily"]
    assert phone.get("/api/stats").json()["daily"]["won"] == 0
