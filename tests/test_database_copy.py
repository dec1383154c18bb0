"""A stolen copy of the database lets nobody act as a player: every value in it, sent as the player cookie to every
route of the API (the passkey routes included), reaches none of the players' games, statistics or accounts.

Run on SQLite and on PostgreSQL (the ``database`` fixture). Before schema 7 an anonymous player's cookie was stored
in clear (``games.player``), and signing in or creating a passkey with an account's id as the cookie moved that
account's games to the intruder's account: both fail here.
"""

from __future__ import annotations

import re
from dataclasses import fields
from typing import Any

import pytest
from fastapi.testclient import TestClient

from db_support import every_value, tamper
from foursquare.store import Store
from foursquare.store.tokens import anonymous_player
from foursquare.web import create_app
from foursquare.web.player import COOKIE, valid_player_id
from foursquare.web.rate_limits import RateLimits
from test_accounts import Authenticator, create_passkey, device, finished_game, sign_in
from test_api import move, new_game
from web_support import as_player

# Fixtures are found by name in this module's namespace (device: a new browser of this module's app).
__all__ = ["device"]


def unlimited() -> RateLimits:
    """No limit in reach: the attack sends thousands of requests from one address (the limits are another test's
    business). A new one for each app: a server on PostgreSQL makes its limits count in its database."""
    return RateLimits(**{limit.name: "1000000/minute" for limit in fields(RateLimits) if limit.init})


@pytest.fixture
def app(database: str) -> Any:
    return create_app(database, rate_limits=unlimited())


def views(client: TestClient) -> dict[str, Any]:
    """What a player sees of their own: games, statistics, account."""
    return {path: client.get(path).json() for path in ("/api/games", "/api/stats", "/api/account")}


def victims_rows(store: Store, game_ids: set[str], account: str) -> list[Any]:
    """The victims' rows as stored: their games, and the account's row, passkeys and sessions."""
    marks = ", ".join("?" for _ in game_ids)
    with store.database.connect() as conn:
        stored = conn.execute(f"SELECT * FROM games WHERE id IN ({marks})", sorted(game_ids)).fetchall()
        stored += conn.execute("SELECT * FROM accounts WHERE player = ?", (account,)).fetchall()
        stored += conn.execute("SELECT * FROM credentials WHERE account = ?", (account,)).fetchall()
        stored += conn.execute("SELECT * FROM sessions WHERE account = ?", (account,)).fetchall()
    return sorted((tuple(row) for row in stored), key=repr)


def candidates(dump: str) -> list[str]:
    """Every value of the copy that a browser could send as its cookie: whole values and the runs within them."""
    runs = set(re.findall(r"[A-Za-z0-9_-]{16,64}", dump))
    runs |= {value for value in re.findall(r"'([^']*)'", dump) if valid_player_id(value)}
    return sorted(runs)


def ceremony(client: TestClient, kind: str, answer: Any) -> list[Any]:
    """The two requests of creating a passkey (``passkeys``) or signing in (``sign-in``), as far as they go."""
    options = client.post(f"/api/account/{kind}/options")
    if options.status_code != 200:
        return [options]
    return [options, client.post(f"/api/account/{kind}", json=answer(options.json()))]


def attack(intruder: TestClient, live: list[dict[str, Any]], thief: Authenticator) -> list[tuple[str, Any]]:
    """Every route of the API with the intruder's cookie: (what was tried, the answer)."""
    answers = [
        (path, intruder.get(path)) for path in ("/api/games", "/api/stats", "/api/account", "/api/account/export")
    ]
    for state in live:
        game = f"/api/games/{state['id']}"
        row, col = state["legal"][0]
        answers.append(("move", intruder.post(f"{game}/moves", json={"row": row, "col": col, "turn": state["turn"]})))
        answers += [(step, intruder.post(f"{game}/{step}")) for step in ("undo", "redo", "restart")]
        answers += [("hint", intruder.get(f"{game}/hint")), ("look", intruder.get(game))]
    answers.append(("sign-out", intruder.post("/api/account/sign-out")))
    answers.append(("delete", intruder.post("/api/account/delete", json={"confirm": True})))
    # A passkey of the intruder's own made with the stolen value, then the thief's account signed in with it.
    answers += [("passkey", answer) for answer in ceremony(intruder, "passkeys", Authenticator().create)]
    answers += [("sign-in", answer) for answer in ceremony(intruder, "sign-in", thief.get)]
    return answers


def check_answer(what: str, answer: Any, victims: set[str]) -> None:
    """No answer errs, or shows a victim's game otherwise than to a stranger who has its link."""
    assert answer.status_code < 500, (what, answer.text)
    shown = set(re.findall(r"[A-Za-z0-9_-]{16,64}", answer.text)) & victims
    if answer.status_code < 400 and shown:
        assert what == "look" and answer.json()["yours"] is False, (what, answer.text)


def test_no_value_of_a_database_copy_acts_as_a_player(app: Any, device: Any) -> None:
    # The victims: an anonymous player with a finished game and a live one; an account on two devices.
    anonymous = device()
    finished_game(anonymous)
    anonymous_live = move(anonymous, new_game(anonymous, deal=3), 0, 0)
    phone = device()
    key = Authenticator()
    finished_game(phone, deal=2)
    assert create_passkey(phone, key).status_code == 201
    account_live = move(phone, new_game(phone, deal=4), 0, 0)
    laptop = device()
    assert sign_in(laptop, key.copy()).status_code == 200
    phone.post("/api/account/passkeys/options")  # a challenge in flight: its browser's hash is in the copy
    # The thief has an account of their own, to bring a victim's games into.
    thief = Authenticator()
    assert create_passkey(device(), thief).status_code == 201

    store: Store = app.state.store
    account = store.accounts.player_of(phone.cookies[COOKIE])
    assert account is not None
    victims = {game["id"] for client in (anonymous, phone) for game in client.get("/api/games").json()["games"]}
    before = {"anonymous": views(anonymous), "phone": views(phone), "laptop": views(laptop)}
    stored_before = victims_rows(store, victims, account)

    values = candidates(every_value(store))
    assert {account, anonymous_player(anonymous.cookies[COOKIE])} <= set(values) or len(values) > 10
    for value in values:
        for what, answer in attack(device(cookie=value), [anonymous_live, account_live], thief):
            check_answer(what, answer, victims)

    assert views(anonymous) == before["anonymous"]
    assert views(phone) == before["phone"] and views(laptop) == before["laptop"]
    assert victims_rows(store, victims, account) == stored_before
    thief_browser = device()
    assert sign_in(thief_browser, thief).status_code == 200
    assert not {game["id"] for game in thief_browser.get("/api/games").json()["games"]} & victims


def test_the_copy_holds_no_cookie_of_any_browser(app: Any, device: Any) -> None:
    anonymous = device()
    new_game(anonymous, deal=1)
    signed_in = device()
    create_passkey(signed_in, Authenticator())
    dump = every_value(app.state.store)
    for client in (anonymous, signed_in):
        assert client.cookies[COOKIE] not in dump
    assert anonymous_player(anonymous.cookies[COOKIE]) in dump


def test_migrating_to_schema_7_keeps_every_players_games(database: str) -> None:
    """A database whose anonymous players were stored by their cookie (schema 6) keeps them, under the hash."""
    app = create_app(database)
    with TestClient(app) as anonymous:  # one lifespan: its end closes the store
        signed_in = TestClient(app)
        as_player(anonymous)
        finished_game(anonymous)
        new_game(anonymous, deal=3)
        create_passkey(as_player(signed_in), Authenticator())
        new_game(signed_in, deal=2)
        cookies = {"anonymous": anonymous.cookies[COOKIE], "signed_in": signed_in.cookies[COOKIE]}
        before = {"anonymous": views(anonymous), "signed_in": views(signed_in)}
    # Back to schema 6 as it was written: the anonymous player's cookie in clear.
    old = cookies["anonymous"]
    assert tamper(database, "UPDATE games SET player = ? WHERE player = ?", (old, anonymous_player(old))) == 2
    if database.startswith("postgresql"):
        tamper(database, "UPDATE foursquare_schema SET version = 6")
    else:
        tamper(database, "PRAGMA user_version = 6")
    app = create_app(database)
    with TestClient(app):
        assert old not in every_value(app.state.store)
        for who, cookie in cookies.items():
            assert views(TestClient(app, cookies={COOKIE: cookie})) == before[who], who
