"""Games played offline reach the server through one route: replayed by the engine, stored once however often they
are sent, counted in the statistics but never as clean nor as daily; a tampered or conflicting record is refused
with its code and changes nothing. On both engines of the games database."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from foursquare import record
from foursquare.engine import Game, Variant
from foursquare.web import create_app
from foursquare.web.rate_limits import DEFAULTS, RateLimits
from foursquare.web.retention import RetentionSettings
from test_api import WINS
from web_support import UNHURRIED, as_player

ROUTE = "/api/offline-games"


@pytest.fixture
def app(database: str) -> Any:
    return create_app(database, rate_limits=RateLimits(moves=UNHURRIED, offline="5/minute;8/day"))


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield as_player(test_client)


def played(deal: int, moves: int | None = None, *, seed: int = 0, variant: Variant | None = None) -> Game:
    """A game of ``deal`` played on a device: random legal moves, to the end or for ``moves`` cards."""
    rng = random.Random(seed)
    game = Game(deal=deal, variant=variant or Variant())
    while game.outcome().status == "playing" and (moves is None or game.turn < moves):
        move = rng.choice(game.legal_moves)
        game.place(move.row, move.col)
    return game


def send(client: TestClient, game: Game | dict[str, Any], offline_id: str) -> Any:
    body = record.to_json(game) if isinstance(game, Game) else game
    return client.post(ROUTE, json={"id": offline_id, "record": body})


def body_moves(game: Game) -> list[list[int]]:
    moves: list[list[int]] = record.to_json(game)["moves"]
    return moves


def new_id() -> str:
    return str(uuid.uuid4())


def test_a_finished_offline_game_is_stored_once_as_played_and_listed_offline(client: TestClient) -> None:
    game, device_id = played(7, variant=Variant(adjacency="diagonal", count_buried=True)), new_id()
    first = send(client, game, device_id)
    assert first.status_code == 201, first.text
    state = first.json()
    assert (state["offline"], state["assisted"], state["daily"], state["yours"]) == (True, True, None, True)
    assert (state["deal"], state["turn"], state["outcome"]) == (7, game.turn, game.outcome().status)
    assert state["variant"] == {"adjacency": "diagonal", "count_buried": True}
    again = send(client, game, device_id)
    assert again.status_code == 200 and again.json()["id"] == state["id"]
    listed = client.get("/api/games").json()
    assert listed["total"] == 1 and listed["games"][0]["offline"] is True
    assert client.get(f"/api/games/{state['id']}/record").json()["moves"] == record.to_json(game)["moves"]
    (exported,) = client.get("/api/account/export").json()["games"]
    assert (exported["id"], exported["offline"], exported["record"]["moves"]) == (state["id"], True, body_moves(game))


def test_an_offline_win_counts_as_won_never_as_clean(client: TestClient) -> None:
    score, line = WINS[1]
    game = Game(deal=1)
    for row, col in line:
        game.place(row, col)
    assert send(client, game, new_id()).json()["score"] == score
    stats = client.get("/api/stats").json()
    assert (stats["played"], stats["won"], stats["best_score"]) == (1, 1, score)
    assert (stats["clean"]["played"], stats["clean"]["won"]) == (0, 0)


def test_a_game_sent_in_progress_is_written_over_until_it_ends_then_never_changes(client: TestClient) -> None:
    device_id = new_id()
    early = send(client, played(11, 5), device_id)
    assert early.status_code == 201 and early.json()["turn"] == 5 and early.json()["outcome"] == "playing"
    finished = played(11)
    assert send(client, finished, device_id).json()["turn"] == finished.turn
    assert send(client, played(11, 5), device_id).status_code == 200  # the earlier sending, arriving late
    otherwise = send(client, played(11, seed=1), device_id)
    assert (otherwise.status_code, otherwise.json()["code"]) == (409, "offline_conflict")
    assert client.get(f"/api/games/{early.json()['id']}").json()["turn"] == finished.turn


def test_a_tampered_record_is_refused_with_its_code_and_nothing_is_stored(client: TestClient) -> None:
    tampered = record.to_json(played(3, 6))
    tampered["moves"][4] = [3, 3]  # not next to any card
    answer = send(client, tampered, new_id())
    assert answer.status_code == 422
    assert (answer.json()["code"], answer.json()["record_error"]) == ("bad_record", "illegal_move")
    assert "move 5" in answer.json()["detail"]
    for malformed, code in (
        ({**record.to_json(played(3, 2)), "deal": -1}, "bad_deal"),
        ({**record.to_json(played(3, 2)), "cheat": True}, "unknown_fields"),
        ({"format": "foursquare-game", "version": 1, "deal": 3}, "no_moves"),
        ([1, 2], None),
    ):
        refused = send(client, malformed, new_id())  # type: ignore[arg-type]
        assert refused.status_code == 422, refused.text
        assert refused.json().get("record_error") == code or refused.json()["code"] == "bad_request"
    assert client.get("/api/games").json()["total"] == 0


def test_an_id_of_another_players_game_or_deal_is_refused_and_the_game_kept(app: Any, client: TestClient) -> None:
    device_id = new_id()
    mine = send(client, played(5, 4), device_id).json()
    stranger = as_player(TestClient(app))  # the same server (its lifespan is the first client's)
    theirs = send(stranger, played(5, 9), device_id)
    assert (theirs.status_code, theirs.json()["code"]) == (409, "offline_conflict")
    assert stranger.get("/api/games").json()["total"] == 0
    other_deal = send(client, played(6, 4), device_id)
    assert (other_deal.status_code, other_deal.json()["code"]) == (409, "offline_conflict")
    assert client.get(f"/api/games/{mine['id']}").json()["turn"] == 4


@pytest.mark.parametrize("offline_id", ["short", "x" * 65, "has space in it!!", "ünïcödé-ünïcödé-ü", 12345678901234567])
def test_a_malformed_device_id_is_refused(client: TestClient, offline_id: Any) -> None:
    answer = client.post(ROUTE, json={"id": offline_id, "record": record.to_json(played(2, 3))})
    assert (answer.status_code, answer.json()["code"]) == (422, "bad_request")


def test_the_offline_limit_counts_each_sending_and_a_huge_body_is_refused_unread(client: TestClient) -> None:
    answers = [send(client, played(9, 2), new_id()).status_code for _ in range(6)]
    assert answers == [201] * 5 + [429]
    assert client.get("/api/games").json()["total"] == 5
    huge = {"id": new_id(), "record": {**record.to_json(played(9, 2)), "pad": "x" * 70_000}}
    assert client.post(ROUTE, json=huge).status_code == 413


def test_offline_games_in_progress_count_toward_the_live_games_cap(database: str) -> None:
    app = create_app(database, retention=RetentionSettings(live_games=2), rate_limits=RateLimits(moves=UNHURRIED))
    with TestClient(app) as client:
        as_player(client)
        assert [send(client, played(4, 3), new_id()).status_code for _ in range(2)] == [201, 201]
        third = send(client, played(4, 3), new_id())
        assert (third.status_code, third.json()["code"]) == (409, "too_many_games")
        assert send(client, played(4), new_id()).status_code == 201  # a game over takes no place


def test_the_default_offline_rate_is_the_documented_one_and_holds(database: str) -> None:
    docs = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text(encoding="utf-8")
    assert "| 30 a minute and 300 a day | `FOURSQUARE_RATE_OFFLINE` |" in docs
    assert DEFAULTS["offline"] == "30/minute;300/day"
    with TestClient(create_app(database, rate_limits=RateLimits(moves=UNHURRIED))) as client:
        as_player(client)
        answers = [send(client, played(8, 1), new_id()) for _ in range(31)]
        assert [a.status_code for a in answers] == [201] * 30 + [429]
        assert int(answers[-1].headers["retry-after"]) > 0
