"""The JSON API of ``foursquare serve``, driven over HTTP as the page drives it (FastAPI's TestClient).

Every test gets a fresh database, and runs on each engine: an SQLite file in a temporary directory, and a
database of a throwaway PostgreSQL cluster (``database`` in conftest.py); the tests of the SQLite file itself
run on SQLite only. Moves are chosen from what the
server shows (``legal``), never from the stock — except the winning lines below, which are test data.
"""

from __future__ import annotations

import json
import random
import re
import socket
import sqlite3
import sys
import threading
import time
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient

from db_support import game_row, tamper
from foursquare import record
from foursquare.cards import Card, deal_stock
from foursquare.engine import Game, Variant
from foursquare.store import SCHEMA_VERSION, Store, StoreError, summarize
from foursquare.web import create_app
from foursquare.web.deps import get_store
from foursquare.web.errors import ERROR_CODES
from foursquare.web.pool import PoolSettings
from foursquare.web.routes import page
from web_support import as_player

# Winning lines found offline by the perfect-information solver (``foursquare solve --deal N``); they are
# test data for the statistics, replayed here through the API like any other moves.
WINS = {
    1: (24, [[0, 0], [0, 1], [1, 0], [0, 2], [1, 1], [2, 0], [1, 2], [0, 3], [2, 2], [3, 2], [3, 3], [1, 3], [2, 1],
             [2, 3], [3, 1], [3, 0]]),
    2: (24, [[0, 0], [0, 1], [1, 0], [2, 0], [0, 2], [0, 3], [1, 2], [2, 1], [1, 3], [2, 2], [1, 1], [3, 0], [3, 2],
             [3, 3], [2, 3], [3, 1]]),
    5: (18, [[0, 0], [0, 1], [1, 0], [0, 2], [2, 0], [0, 3], [3, 0], [1, 2], [1, 1], [2, 2], [2, 1], [3, 2], [3, 1],
             [2, 2], [2, 2], [1, 3], [1, 3], [1, 0], [2, 3], [3, 3], [2, 3], [2, 3]]),
}  # fmt: skip

GUARD_S = 300  # seconds a live server's answer may take: a bound that only a hang reaches, however busy the machine
CARD_TOKEN = re.compile(r'"((?:[A2-9]|10)[CDHS])"')
STATE_KEYS = {
    "id", "deal", "variant", "turn", "card", "stock_left", "face_down", "max_face_down", "cells", "legal",
    "legal_cells", "area",
    "outcome", "reason", "score", "can_undo", "can_redo", "created_at", "updated_at",
    "yours", "daily", "winnable", "assisted", "daily_late", "offline",
}  # fmt: skip


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    with TestClient(create_app(database), raise_server_exceptions=False) as test_client:
        as_player(test_client)
        yield test_client


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    state: dict[str, Any] = response.json()
    return state


def move(client: TestClient, state: dict[str, Any], row: int, col: int) -> dict[str, Any]:
    response = client.post(f"/api/games/{state['id']}/moves", json={"row": row, "col": col, "turn": state["turn"]})
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def play_out(client: TestClient, state: dict[str, Any], seed: int = 0) -> dict[str, Any]:
    """Play to the end, each move picked at random among the legal cells the server lists."""
    rng = random.Random(seed)
    while state["outcome"] == "playing":
        state = move(client, state, *rng.choice(state["legal"]))
    return state


def play_line(client: TestClient, deal: int, line: list[list[int]]) -> dict[str, Any]:
    state = new_game(client, deal=deal)
    for row, col in line:
        state = move(client, state, row, col)
    return state


# --- starting games --------------------------------------------------------------------------------------


def test_a_chosen_deal_shows_its_number_and_first_card(client: TestClient) -> None:
    state = new_game(client, deal=1, variant={"adjacency": "diagonal", "count_buried": True})
    assert set(state) == STATE_KEYS
    assert state["deal"] == 1
    assert state["variant"] == {"adjacency": "diagonal", "count_buried": True}
    assert (state["turn"], state["card"], state["stock_left"], state["face_down"]) == (0, "3S", 40, 0)
    assert (state["cells"], state["legal"], state["outcome"], state["score"]) == ([], [[0, 0]], "playing", None)
    assert (state["can_undo"], state["can_redo"], state["max_face_down"]) == (False, False, 4)
    assert len(state["id"]) >= 22
    assert client.get(f"/api/games/{state['id']}").json() == state


def test_the_largest_deal_number_round_trips(client: TestClient) -> None:
    state = new_game(client, deal=2**64 - 1)
    assert state["deal"] == 2**64 - 1
    assert state["card"] == deal_stock(2**64 - 1)[0].name


def test_an_empty_body_starts_a_random_deal_with_default_rules(client: TestClient) -> None:
    response = client.post("/api/games")
    assert response.status_code == 201
    state = response.json()
    assert state["deal"] is None
    assert state["variant"] == {"adjacency": "orthogonal", "count_buried": False}
    assert client.post("/api/games", json={}).json()["deal"] is None


def test_the_player_cookie_is_set_once_and_scopes_the_game_list(client: TestClient) -> None:
    response = client.post("/api/games", json={"deal": 3})
    assert "set-cookie" not in response.headers and "set-cookie" not in client.get("/api/games").headers
    assert client.get("/api/games").json()["total"] == 1
    with TestClient(client.app) as stranger:
        as_player(stranger)
        assert stranger.get("/api/games").json()["total"] == 0
        assert stranger.get("/api/stats").json()["played"] == 0
        # A game is reached by its id, whoever asks: the id is the secret.
        assert stranger.get(f"/api/games/{response.json()['id']}").status_code == 200


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ({"deal": 2**64}, "bad request: deal must be less than 18446744073709551616"),
        ({"deal": -1}, "bad request: deal must be at least 0"),
        ({"deal": "7"}, "bad request: deal must be an integer"),
        ({"deal": 1.5}, "bad request: deal must be an integer"),
        ({"deal": True}, "bad request: deal must be an integer"),
        ({"deal": 1, "seed": 2}, "bad request: seed is not a known field"),
        ({"variant": {"adjacency": "hex"}}, "bad request: variant.adjacency must be 'orthogonal' or 'diagonal'"),
        ({"variant": {"count_buried": "yes"}}, "bad request: variant.count_buried must be true or false"),
        ({"variant": {"wrap": True}}, "bad request: variant.wrap is not a known field"),
        ({"variant": "diagonal"}, "bad request: variant must be a JSON object"),
        ([1, 2], "bad request: the request body must be a JSON object"),
    ],
)
def test_malformed_new_game_bodies_are_refused_in_plain_words(client: TestClient, body: Any, detail: str) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 422
    assert response.json() == {"detail": detail, "code": "bad_request"}
    assert client.get("/api/games").json()["total"] == 0


def test_a_body_that_is_not_json_is_refused(client: TestClient) -> None:
    response = client.post("/api/games", content=b"{deal: 1", headers={"content-type": "application/json"})
    assert response.status_code == 422
    assert response.json() == {"detail": "bad request: the request body is not valid JSON", "code": "bad_request"}


# --- moves ------------------------------------------------------------------------------------------------


def test_a_move_reports_the_placement_and_its_flips_as_the_engine_does(client: TestClient) -> None:
    state = new_game(client, deal=1)
    state = move(client, state, 0, 0)
    assert state["placed"] == {"row": 0, "col": 0, "cell": "D4", "card": "3S"}
    assert (state["flips"], state["turn"], state["card"], state["can_undo"]) == ([], 1, "AH", True)
    state = move(client, state, 0, 1)
    game = Game(deal=1)
    game.place(0, 0)
    placement = game.place(0, 1)
    assert state["placed"] == {"row": 0, "col": 1, "cell": "E4", "card": "AH"}
    assert state["flips"] == [
        {"row": 0, "col": 0, "cell": "D4", "card": "3S", "face_up": False, "line": "row", "reason": "lowest"}
    ]
    assert [f["reason"] for f in state["flips"]] == [f.reason for f in placement.flips]
    assert [f["card"] for f in state["flips"]] == [f.card.name for f in placement.flips]
    assert state["cells"] == record.replay_json(game)["cells"]
    assert state["legal"] == [m.to_json() for m in game.legal_moves]
    assert (state["face_down"], state["stock_left"], state["card"]) == (1, 38, game.card_to_place.name)  # type: ignore[union-attr]


def test_a_stale_turn_is_refused_and_changes_nothing(client: TestClient, database: str) -> None:
    state = move(client, new_game(client, deal=1), 0, 0)
    response = client.post(f"/api/games/{state['id']}/moves", json={"row": 0, "col": 1, "turn": 0})
    assert response.status_code == 409
    assert response.json() == {
        "detail": "the game is at turn 1, not 0: it changed since you last looked (reload it)",
        "code": "stale_turn",
    }
    assert json.loads(game_row(database, state["id"])["moves"]) == [[0, 0]]
    assert client.get(f"/api/games/{state['id']}").json()["turn"] == 1


def test_a_move_naming_the_card_to_place_is_accepted(client: TestClient) -> None:
    state = new_game(client, deal=1)
    body = {"row": 0, "col": 0, "turn": 0, "card": "3S"}
    response = client.post(f"/api/games/{state['id']}/moves", json=body)
    assert response.status_code == 200, response.text
    assert (response.json()["placed"], response.json()["turn"]) == ({"row": 0, "col": 0, "cell": "D4", "card": "3S"}, 1)
    # Without "card" (a script), the move is taken as before.
    state = move(client, response.json(), 0, 1)
    assert (state["placed"]["card"], state["turn"]) == ("AH", 2)


def test_a_move_naming_another_card_is_refused_and_changes_nothing(client: TestClient, database: str) -> None:
    """The page names the card it showed: a click meant for 3S never places AH, unseen."""
    state = move(client, new_game(client, deal=1), 0, 0)
    before = client.get(f"/api/games/{state['id']}").json()
    row_before = game_row(database, state["id"])
    response = client.post(f"/api/games/{state['id']}/moves", json={"row": 0, "col": 1, "turn": 1, "card": "3S"})
    assert response.status_code == 409
    assert response.json() == {
        "detail": "the card to place is AH, not 3S: the game changed since you last looked (reload it)",
        "code": "wrong_card",
    }
    assert client.get(f"/api/games/{state['id']}").json() == before
    assert game_row(database, state["id"]) == row_before
    # A stale turn is still told as such (checked first), whatever the card.
    response = client.post(f"/api/games/{state['id']}/moves", json={"row": 0, "col": 1, "turn": 0, "card": "AH"})
    assert (response.status_code, response.json()["code"]) == (409, "stale_turn")
    # The refusal names the card to place and no card of the stock beyond it (deal 1: 3S AH 5C 7H ...).
    response = client.post(f"/api/games/{state['id']}/moves", json={"row": 0, "col": 1, "turn": 1, "card": "5C"})
    assert (response.status_code, response.json()["code"]) == (409, "wrong_card")
    assert "AH" in response.json()["detail"]
    assert "7H" not in response.text
    assert client.get(f"/api/games/{state['id']}").json() == before


def test_an_illegal_move_is_refused_with_the_engines_reason(client: TestClient) -> None:
    state = move(client, new_game(client, deal=1), 0, 0)
    response = client.post(f"/api/games/{state['id']}/moves", json={"row": 5, "col": 5, "turn": 1})
    assert response.status_code == 422
    assert response.json() == {
        "detail": "cannot place a card at (5, 5): the cell is empty and not orthogonally next to a card",
        "code": "illegal_move",
        "reason": "not_adjacent",
    }
    first = new_game(client, deal=1)
    response = client.post(f"/api/games/{first['id']}/moves", json={"row": 0, "col": 1, "turn": 0})
    assert response.json() == {
        "detail": "cannot place a card at (0, 1): the first card goes to D4",
        "code": "illegal_move",
        "reason": "first_card",
    }


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ({"row": 0, "col": 0}, "bad request: turn is missing"),
        ({}, "bad request: row is missing; col is missing; turn is missing"),
        ({"row": "0", "col": 0, "turn": 0}, "bad request: row must be an integer"),
        ({"row": 0, "col": None, "turn": 0}, "bad request: col must be an integer"),
        ({"row": 0, "col": 0, "turn": 0, "card": "3S", "seed": 1}, "bad request: seed is not a known field"),
        ({"row": 0, "col": 0, "turn": 0, "card": "3s"}, "bad request: card must be a card name such as AC, 7H or 10S"),
        ({"row": 0, "col": 0, "turn": 0, "card": "1S"}, "bad request: card must be a card name such as AC, 7H or 10S"),
        ({"row": 0, "col": 0, "turn": 0, "card": "10X"}, "bad request: card must be a card name such as AC, 7H or 10S"),
        ({"row": 0, "col": 0, "turn": 0, "card": " 3S"}, "bad request: card must be a card name such as AC, 7H or 10S"),
        ({"row": 0, "col": 0, "turn": 0, "card": 3}, "bad request: card must be a string"),
        ({"row": 0, "col": 0, "turn": -1}, "bad request: turn must be at least 0"),
    ],
)
def test_malformed_move_bodies_are_refused(client: TestClient, body: dict[str, Any], detail: str) -> None:
    state = new_game(client, deal=1)
    response = client.post(f"/api/games/{state['id']}/moves", json=body)
    assert (response.status_code, response.json()) == (422, {"detail": detail, "code": "bad_request"})


def test_undo_redo_and_restart(client: TestClient) -> None:
    state = new_game(client, deal=1)
    game_id = state["id"]
    response = client.post(f"/api/games/{game_id}/undo")
    assert (response.status_code, response.json()) == (
        409, {"detail": "there is nothing to undo", "code": "nothing_to_undo"}
    )  # fmt: skip
    response = client.post(f"/api/games/{game_id}/redo")
    assert (response.status_code, response.json()) == (
        409, {"detail": "there is nothing to redo", "code": "nothing_to_redo"}
    )  # fmt: skip
    for row, col in ([0, 0], [0, 1], [1, 0]):
        state = move(client, state, row, col)
    after_three = {k: v for k, v in state.items() if k not in ("placed", "flips", "updated_at")}
    state = client.post(f"/api/games/{game_id}/undo").json()
    assert (state["turn"], state["card"], state["can_undo"], state["can_redo"]) == (2, "5C", True, True)
    state = client.post(f"/api/games/{game_id}/undo").json()
    assert client.get(f"/api/games/{game_id}").json() == state
    state = client.post(f"/api/games/{game_id}/redo").json()
    state = client.post(f"/api/games/{game_id}/redo").json()
    assert {k: v for k, v in state.items() if k != "updated_at"} == {**after_three, "assisted": True}
    state = client.post(f"/api/games/{game_id}/undo").json()
    state = move(client, state, 0, -1)  # a different move drops the redo list
    assert state["can_redo"] is False
    state = client.post(f"/api/games/{game_id}/restart").json()
    assert (state["turn"], state["card"], state["cells"], state["can_undo"], state["can_redo"]) == (
        0, "3S", [], False, False,
    )  # fmt: skip


def test_a_finished_game_is_final(client: TestClient) -> None:
    state = play_out(client, new_game(client, deal=7))
    assert state["outcome"] == "lost" and state["score"] == 0 and state["card"] is None
    assert state["legal"] == [] and state["can_undo"] is False and state["can_redo"] is False
    game_id = state["id"]
    for path, body in (("moves", {"row": 0, "col": 0, "turn": state["turn"]}), ("undo", None), ("redo", None),
                       ("restart", None)):  # fmt: skip
        response = client.post(f"/api/games/{game_id}/{path}", json=body)
        assert response.status_code == 409, path
        assert response.json()["detail"].startswith("the game is over (lost: "), path
        assert response.json()["code"] == "game_over", path
    assert client.get(f"/api/games/{game_id}/hint").status_code == 409
    assert client.get(f"/api/games/{game_id}").json() == {
        k: v for k, v in state.items() if k not in ("placed", "flips")
    }


def test_unknown_games_are_404_on_every_endpoint(client: TestClient) -> None:
    unknown = {"detail": "there is no game with id 'no-such-game'", "code": "unknown_game"}
    gets = ["", "/hint", "/analysis", "/record", "/replay?turn=0"]
    posts = ["/moves", "/undo", "/redo", "/restart"]
    for suffix in gets:
        response = client.get(f"/api/games/no-such-game{suffix}")
        assert (response.status_code, response.json()) == (404, unknown)
    for suffix in posts:
        body = {"row": 0, "col": 0, "turn": 0} if suffix == "/moves" else None
        response = client.post(f"/api/games/no-such-game{suffix}", json=body)
        assert (response.status_code, response.json()) == (404, unknown)


# --- hidden information ----------------------------------------------------------------------------------


def card_fields(value: Any) -> Iterator[str]:
    """Every value of a "card" key anywhere in a JSON document."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "card" and isinstance(item, str):
                yield item
            else:
                yield from card_fields(item)
    elif isinstance(value, list):
        for item in value:
            yield from card_fields(item)


def check_no_future_card(response: httpx.Response, seen: set[str], stock: tuple[Card, ...] | None) -> Any:
    """Every card the response names has been the card to place; returns the parsed JSON.

    ``seen`` grows with the card to place each state shows; with the ``stock`` known, that card must
    be the next one of the stock.
    """
    data = response.json()
    if isinstance(data, dict) and "detail" in data:
        assert data["code"] in ERROR_CODES
    if isinstance(data, dict) and data.get("card") and "turn" in data and "cells" in data:
        if stock is not None and data.get("outcome") == "playing":
            assert data["card"] == stock[data["turn"]].name
        seen.add(data["card"])
    for name in card_fields(data):
        assert name in seen, f"{name} shown before it was the card to place: {response.text}"
    for name in CARD_TOKEN.findall(response.text):
        assert name in seen, f"{name} shown before it was the card to place: {response.text}"
    if stock is not None:
        unseen_now = {c.name for c in stock} - seen
        for name in unseen_now:
            assert f'"{name}"' not in response.text
    return data


@pytest.mark.parametrize("deal", [None, 11, 12])
def test_no_response_ever_shows_a_card_before_it_is_the_card_to_place(client: TestClient, deal: int | None) -> None:
    stock = None if deal is None else deal_stock(deal)
    seen: set[str] = set()
    rng = random.Random(deal)
    body = {} if deal is None else {"deal": deal}
    state = check_no_future_card(client.post("/api/games", json=body), seen, stock)
    game_id = state["id"]
    hints = 0
    while state["outcome"] == "playing":
        assert state["deal"] == deal
        if state["turn"] in (3, 8) and hints < 2:
            hints += 1
            check_no_future_card(client.get(f"/api/games/{game_id}/hint"), seen, stock)
        if state["turn"] % 5 == 4:
            check_no_future_card(client.post(f"/api/games/{game_id}/undo"), seen, stock)
            check_no_future_card(client.post(f"/api/games/{game_id}/redo"), seen, stock)
        check_no_future_card(client.get(f"/api/games/{game_id}"), seen, stock)
        check_no_future_card(client.get("/api/games"), seen, stock)
        for path in ("record", "replay?turn=0", "analysis"):
            assert check_no_future_card(client.get(f"/api/games/{game_id}/{path}"), seen, stock)["detail"]
        row, col = rng.choice(state["legal"])
        state = check_no_future_card(
            client.post(f"/api/games/{game_id}/moves", json={"row": row, "col": col, "turn": state["turn"]}),
            seen,
            stock,
        )
    # Over: the deal number is no longer a secret, and the record names it.
    final_deal = client.get(f"/api/games/{game_id}/record").json()["deal"]
    assert state["deal"] == final_deal
    assert client.get("/api/games").json()["games"][0]["deal"] == final_deal
    if deal is not None:
        assert final_deal == deal


def test_a_random_deals_number_is_hidden_from_the_list_until_the_end(client: TestClient) -> None:
    state = new_game(client)
    assert client.get("/api/games").json()["games"][0]["deal"] is None
    state = play_out(client, state, seed=3)
    summary = client.get("/api/games").json()["games"][0]
    assert summary["deal"] is not None and summary["deal"] == state["deal"]
    assert deal_stock(summary["deal"])[0].name == client.get(f"/api/games/{state['id']}/replay?turn=0").json()["card"]


# --- finished games: record, replay ---------------------------------------------------------------------------


def test_record_and_replay_of_a_finished_game(client: TestClient) -> None:
    state = new_game(client, deal=2)
    for path in ("record", "replay", "analysis"):
        response = client.get(f"/api/games/{state['id']}/{path}")
        assert response.status_code == 409
        assert response.json()["detail"].startswith("the game is still being played")
        assert response.json()["code"] == "still_playing"
    score, line = WINS[2]
    state = play_line(client, 2, line)
    assert (state["outcome"], state["reason"], state["score"]) == ("won", "sixteen_face_up", score)
    rec = client.get(f"/api/games/{state['id']}/record").json()
    assert rec == {"format": "foursquare-game", "version": 1, "deal": 2,
                   "variant": {"adjacency": "orthogonal", "count_buried": False}, "moves": line}  # fmt: skip
    assert record.load(rec).outcome().score == score

    game = Game(deal=2)
    start = client.get(f"/api/games/{state['id']}/replay?turn=0").json()
    assert start == {"turn": 0, "cells": [], "card": deal_stock(2)[0].name, "placed": None, "flips": [],
                     "face_down": 0, "outcome": "playing", "reason": None, "score": None}  # fmt: skip
    for k, (row, col) in enumerate(line, start=1):
        placement = game.place(row, col)
        replay = client.get(f"/api/games/{state['id']}/replay", params={"turn": k}).json()
        assert replay["turn"] == k
        assert replay["cells"] == record.replay_json(game)["cells"]
        assert replay["placed"] == {"row": row, "col": col, "cell": placement.move.name, "card": placement.card.name}
        assert replay["flips"] == [
            {
                **{"row": f.row, "col": f.col, "cell": f.cell_name, "card": f.card.name},
                **{"face_up": f.face_up, "line": f.line, "reason": f.reason},
            }
            for f in placement.flips
        ]
        assert replay["card"] == (None if game.card_to_place is None else game.card_to_place.name)
        assert (replay["face_down"], replay["outcome"]) == (game.face_down, game.outcome().status)
    assert replay["score"] == score
    assert client.get(f"/api/games/{state['id']}/replay").json() == replay  # no turn: the final position
    for bad in ("-1", str(len(line) + 1)):
        response = client.get(f"/api/games/{state['id']}/replay?turn={bad}")
        assert response.status_code == 422
        detail = f"turn must be between 0 and {len(line)} (the cards placed in this game), not {bad}"
        assert response.json() == {"detail": detail, "code": "bad_replay_turn"}
    response = client.get(f"/api/games/{state['id']}/replay?turn=two")
    assert (response.status_code, response.json()) == (
        422, {"detail": "bad request: turn must be an integer", "code": "bad_request"}
    )  # fmt: skip


# --- listing and statistics ------------------------------------------------------------------------------------


def test_the_game_list_is_paginated_newest_first(client: TestClient) -> None:
    ids = [new_game(client, deal=d)["id"] for d in range(5)]
    page1 = client.get("/api/games?page=1&per_page=2").json()
    assert (page1["page"], page1["per_page"], page1["total"]) == (1, 2, 5)
    assert [g["id"] for g in page1["games"]] == ids[::-1][:2]
    assert set(page1["games"][0]) == {"id", "deal", "variant", "turn", "outcome", "reason", "score", "created_at",
                                      "updated_at", "daily", "assisted", "offline"}  # fmt: skip
    page3 = client.get("/api/games", params={"page": 3, "per_page": 2}).json()
    assert [g["id"] for g in page3["games"]] == [ids[0]]
    assert client.get("/api/games?page=4&per_page=2").json()["games"] == []
    default = client.get("/api/games").json()
    assert (default["page"], default["per_page"], len(default["games"])) == (1, 20, 5)
    for query, detail in (("page=0", "page must be at least 1"), ("per_page=101", "per_page must be at most 100"),
                          ("page=x", "page must be an integer")):  # fmt: skip
        response = client.get(f"/api/games?{query}")
        assert (response.status_code, response.json()) == (
            422, {"detail": f"bad request: {detail}", "code": "bad_request"}
        )  # fmt: skip


def test_statistics_after_several_finished_games(client: TestClient) -> None:
    empty = client.get("/api/stats").json()
    assert (empty["played"], empty["win_rate"], empty["best_score"], empty["mean_score"]) == (0, 0.0, None, None)
    assert empty["score_histogram"] == [{"score": s, "count": 0} for s in range(25)]

    play_line(client, 1, WINS[1][1])  # won 24
    lost = play_out(client, new_game(client, deal=7))  # lost
    assert lost["outcome"] == "lost"
    play_line(client, 5, WINS[5][1])  # won 18
    move(client, new_game(client, deal=9), 0, 0)  # still playing: not counted
    play_line(client, 2, WINS[2][1])  # won 24

    stats = client.get("/api/stats").json()
    histogram = {h["score"]: h["count"] for h in stats["score_histogram"]}
    assert [h["score"] for h in stats["score_histogram"]] == list(range(25))
    assert {s: n for s, n in histogram.items() if n} == {24: 2, 18: 1}
    assert {k: v for k, v in stats.items() if k not in ("score_histogram", "clean", "daily", "best_time")} == {
        "played": 4, "won": 3, "lost": 1, "win_rate": 0.75, "current_streak": 2, "best_streak": 2,
        "best_score": 24, "mean_score": (24 + 0 + 18 + 24) / 4, "assisted": 0,
    }  # fmt: skip

    play_out(client, new_game(client, deal=7))  # a loss ends the streak
    stats = client.get("/api/stats").json()
    assert (stats["played"], stats["current_streak"], stats["best_streak"]) == (5, 0, 2)


def test_summarize_counts_streaks_in_the_order_games_ended() -> None:
    stats = summarize([("won", 3), ("won", 5), ("won", 0), ("lost", 0), ("won", 24)])
    assert (stats["best_streak"], stats["current_streak"], stats["best_score"]) == (3, 1, 24)
    assert stats["mean_score"] == pytest.approx(32 / 5)
    assert stats["score_histogram"][0] == {"score": 0, "count": 1}  # a win with the last card scores 0


# --- hint and analysis -------------------------------------------------------------------------------------------


def test_the_hint_ranks_every_legal_move(client: TestClient) -> None:
    state = move(client, move(client, new_game(client, deal=1), 0, 0), 0, 1)
    hint = client.get(f"/api/games/{state['id']}/hint").json()
    assert hint["turn"] == 2
    assert sorted([m["row"], m["col"]] for m in hint["moves"]) == state["legal"]
    for advice in hint["moves"]:
        assert set(advice) == {"row", "col", "cell", "win_probability", "expected_score", "playouts"}
        assert 0 <= advice["win_probability"] <= 1 and 0 <= advice["expected_score"] <= 24
    from foursquare import players

    game = Game(deal=1)
    game.place(0, 0)
    game.place(0, 1)
    expected = [a.move.to_json() for a in players.hint(game.view(), seed=0)]
    assert [[m["row"], m["col"]] for m in hint["moves"]] == expected  # best first, as the player ranks them


@pytest.mark.slow  # its pool's worker computes a whole analysis (the solver compiled from cold: minutes)
def test_the_analysis_of_a_finished_game_is_computed_once_and_cached(
    client: TestClient, database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    score, line = WINS[1]
    state = play_line(client, 1, line)
    response = client.get(f"/api/games/{state['id']}/analysis")
    assert response.status_code == 200, response.text
    analysis = response.json()
    assert (analysis["outcome"], analysis["score"], analysis["deal"]) == ("won", score, 1)
    assert [m["played"] for m in analysis["moves"]] == line
    assert set(analysis["perfect"]) >= {"status", "winnable", "best_score", "upper_bound", "line"}
    assert json.loads(game_row(database, state["id"])["analysis"]) == analysis

    def analyze_again(game: Game) -> None:
        raise AssertionError("the analysis was computed a second time")

    monkeypatch.setattr("foursquare.analysis.analyze", analyze_again)
    assert client.get(f"/api/games/{state['id']}/analysis").json() == analysis  # from the cache


# --- concurrency ------------------------------------------------------------------------------------------------


@pytest.fixture
def live_server(database: str) -> Iterator[str]:
    """The app under a real uvicorn server in a thread; yields its base URL."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    # Threads, not worker processes: a test below replaces the analysis module in this process.
    app = create_app(database, pool=PoolSettings(kind="thread"), heavy_pool=PoolSettings(kind="thread"))
    uv = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=uv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    deadline = time.monotonic() + 10
    while True:
        try:
            if httpx.get(f"{url}/openapi.json", timeout=2).status_code == 200:
                break
        except httpx.TransportError:
            pass
        if not thread.is_alive():
            pytest.fail("the live server's thread ended before it answered")
        if time.monotonic() > deadline:
            pytest.fail("the live server did not answer within 10 s")
        time.sleep(0.025)
    yield url
    uv.should_exit = True
    thread.join(timeout=10)
    sock.close()


def test_the_analysis_is_computed_once_when_asked_concurrently(
    live_server: str, database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stand-in for the (slow) analysis module counts its calls: five simultaneous asks, one analysis."""
    calls: list[int] = []

    def analyze(game: Game) -> dict[str, Any]:
        calls.append(game.turn)
        time.sleep(0.3)
        return {"outcome": game.outcome().status, "score": game.outcome().score, "moves": len(game.moves)}

    stand_in = types.ModuleType("foursquare.analysis")
    stand_in.analyze = analyze  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "foursquare.analysis", stand_in)
    with httpx.Client(base_url=live_server, timeout=GUARD_S) as http:
        as_player(http)
        state = http.post("/api/games", json={"deal": 2}).json()
        for row, col in WINS[2][1]:
            state = http.post(f"/api/games/{state['id']}/moves", json={"row": row, "col": col, "turn": state["turn"]})
            state = state.json()
    answers: list[httpx.Response] = []
    barrier = threading.Barrier(5)

    def ask() -> None:
        with httpx.Client(base_url=live_server, timeout=GUARD_S) as http:
            as_player(http)
            barrier.wait()
            answers.append(http.get(f"/api/games/{state['id']}/analysis"))

    threads = [threading.Thread(target=ask) for _ in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [a.status_code for a in answers] == [200] * 5
    assert all(a.json() == {"outcome": "won", "score": 24, "moves": 16} for a in answers)
    assert calls == [16]
    assert json.loads(game_row(database, state["id"])["analysis"]) == answers[0].json()


def test_without_the_analysis_module_the_answer_is_503(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "foursquare.analysis", None)
    state = play_out(client, new_game(client, deal=7))
    response = client.get(f"/api/games/{state['id']}/analysis")
    assert response.status_code == 503
    assert response.json()["detail"].startswith("the analysis is not available in this installation")
    assert response.json()["code"] == "not_available"


def test_twenty_concurrent_copies_of_one_move_apply_exactly_once(live_server: str, database: str) -> None:
    with httpx.Client(base_url=live_server) as http:
        as_player(http)
        state = http.post("/api/games", json={"deal": 1}).json()
        state = http.post(f"/api/games/{state['id']}/moves", json={"row": 0, "col": 0, "turn": 0}).json()
        cookies = dict(http.cookies)  # every copy comes from the game's player
    copies = 20
    barrier = threading.Barrier(copies)
    statuses: list[int] = []
    lock = threading.Lock()

    def send() -> None:
        with httpx.Client(base_url=live_server, timeout=GUARD_S, cookies=cookies) as http:
            barrier.wait()
            response = http.post(f"/api/games/{state['id']}/moves", json={"row": 0, "col": 1, "turn": 1})
        with lock:
            statuses.append(response.status_code)

    threads = [threading.Thread(target=send) for _ in range(copies)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [200] + [409] * (copies - 1)
    row = game_row(database, state["id"])
    assert (json.loads(row["moves"]), row["turn"]) == ([[0, 0], [0, 1]], 2)


# --- errors never show internals -------------------------------------------------------------------------------


def test_an_unexpected_error_says_internal_error_and_nothing_more(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = new_game(client, deal=1)

    class BrokenStore:
        def get(self, game_id: str) -> None:
            raise RuntimeError("secret detail: the next card is 7H")

    client.app.dependency_overrides[get_store] = BrokenStore  # type: ignore[attr-defined]
    response = client.get(f"/api/games/{state['id']}")
    assert (response.status_code, response.json()) == (500, {"detail": "internal error", "code": "internal"})


def test_a_damaged_stored_game_is_reported_without_a_trace(client: TestClient, database: str) -> None:
    state = new_game(client, deal=1)
    tamper(database, "UPDATE games SET moves = '[[7, 7]]', turn = 1 WHERE id = ?", (state["id"],))
    response = client.get(f"/api/games/{state['id']}")
    assert response.status_code == 500
    assert response.json()["detail"].startswith(f"the stored game {state['id']!r} cannot be replayed")
    assert response.json()["code"] == "damaged_game"
    assert "Traceback" not in response.text


def test_a_damaged_stored_game_is_left_out_of_the_list_and_the_others_are_listed(
    client: TestClient, database: str, caplog: pytest.LogCaptureFixture
) -> None:
    kept, damaged = new_game(client, deal=1), new_game(client, deal=2)
    tamper(database, "UPDATE games SET stock = '[\"not a card\"]', deal = NULL WHERE id = ?", (damaged["id"],))
    response = client.get("/api/games")
    assert response.status_code == 200
    assert [game["id"] for game in response.json()["games"]] == [kept["id"]]
    assert response.json()["total"] == 2
    assert any(damaged["id"] in message for message in caplog.messages)


# --- the database file ------------------------------------------------------------------------------------------


def test_a_new_database_is_versioned_and_in_wal_mode(db_path: Path) -> None:
    Store(db_path)
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    Store(db_path)  # opening it again changes nothing


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"this is not a database, it is a shopping list\n" * 20, "is not a readable Foursquare database"),
        (b"SQLite format 3\x00" + b"\xff" * 200, "is not a readable Foursquare database"),
    ],
)
def test_a_file_that_is_not_a_database_is_refused_and_left_alone(db_path: Path, content: bytes, message: str) -> None:
    db_path.write_bytes(content)
    with pytest.raises(StoreError, match=message):
        create_app(db_path)
    assert db_path.read_bytes() == content
    assert sorted(p.name for p in db_path.parent.iterdir()) == [db_path.name]


def test_someone_elses_sqlite_database_is_refused_and_left_alone(db_path: Path) -> None:
    with sqlite3.connect(db_path) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
    before = db_path.read_bytes()
    with pytest.raises(StoreError, match=r"not a Foursquare one .* recipes"):
        Store(db_path)
    assert db_path.read_bytes() == before


def test_a_database_from_a_newer_version_is_refused(db_path: Path) -> None:
    Store(db_path)
    with sqlite3.connect(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="newer version of Foursquare"):
        Store(db_path)


def test_a_missing_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="does not exist"):
        Store(tmp_path / "nowhere" / "games.db")


def test_a_stock_game_is_stored_and_replayed(database: str) -> None:
    store = Store(database)
    stock = tuple(reversed(deal_stock(4)))
    stored = store.games.create("p" * 22, stock=stock, variant=Variant(count_buried=True), hidden=False)
    stored, _, _ = store.games.change(stored.id, lambda game, _: game.place(0, 0))
    again = store.games.get(stored.id)
    store.close()  # on PostgreSQL, a pool left to the garbage collector ends its threads from one of them
    assert again.stock == stock and again.deal is None and again.variant == Variant(count_buried=True)
    assert again.rebuild().card_to_place == stock[1]


# --- the page -------------------------------------------------------------------------------------------------


def test_the_page_is_served_at_its_routes(client: TestClient) -> None:
    index = page.STATIC_DIR / "index.html"
    assert index.is_file(), "the package ships the page"
    for path in ("/", "/stats", "/rules", "/game/abc"):
        response = client.get(path)
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/html")
        # The page, with the language the request negotiates filled in (none here: English, empty meta).
        assert response.text == page.page_html(page.index_path().read_text(encoding="utf-8"), "")
        assert '<html lang="en"' in response.text and '<meta name="foursquare-language" content="">' in response.text
        assert response.headers["referrer-policy"] == "same-origin"  # the URL holds the game id


def test_a_missing_page_is_a_plain_404(client: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(page, "STATIC_DIR", tmp_path / "no-static")
    response = client.get("/")
    assert (response.status_code, response.json()) == (
        404, {"detail": "the web page is not installed (missing static/index.html)", "code": "no_page"}
    )  # fmt: skip
    assert client.get("/no/such/thing").json() == {"detail": "not found", "code": "not_found"}


def test_the_api_is_described_by_openapi(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/games", "/api/games/{game_id}/moves", "/api/stats", "/api/games/{game_id}/replay"} <= set(paths)
    assert client.get("/docs").status_code == 200


# --- absurd requests are refused, never a 500 -------------------------------------------------------------


@pytest.mark.parametrize("page", ["0", "1000000001", "9223372036854775807", "99999999999999999999999"])
def test_an_out_of_range_page_is_422(client: TestClient, page: str) -> None:
    response = client.get(f"/api/games?page={page}")
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "bad_request"
    assert client.get("/api/games?page=1000000000").status_code == 200  # the last page allowed: empty


def test_a_body_over_64_kib_is_413_and_changes_nothing(client: TestClient) -> None:
    padding = "x" * (64 * 1024)
    response = client.post(
        "/api/games", content=f'{{"deal": 1, "pad": "{padding}"}}', headers={"content-type": "application/json"}
    )
    assert response.status_code == 413, response.text
    assert response.json()["code"] == "too_large"
    assert client.get("/api/games").json()["total"] == 0
    assert client.post("/api/games", json={"deal": 1}).status_code == 201  # a normal body still goes through


def test_a_body_over_64_kib_without_a_length_is_413_too(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"deal": 1, "pad": "'
        for _ in range(80):
            yield b"x" * 1024
        yield b'"}'

    response = client.post("/api/games", content=chunks(), headers={"content-type": "application/json"})
    assert response.status_code == 413, response.text
    assert response.json()["code"] == "too_large"
    assert client.get("/api/games").json()["total"] == 0
