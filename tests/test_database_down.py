"""The web app while its games database cannot be reached: 503 ``database_unavailable`` with ``Retry-After``,
never a 500, and nothing lost — the request asked again once the database is back does what it would have."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import postgres_support
from foursquare.web import create_app
from foursquare.web.errors import DATABASE_RETRY_AFTER
from web_support import as_player


def new_game(client: TestClient) -> dict[str, Any]:
    response = client.post("/api/games", json={"deal": 1})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def a_move(state: dict[str, Any]) -> dict[str, Any]:
    row, col = state["legal"][0]
    return {"row": row, "col": col, "turn": state["turn"], "card": state["card"]}


def assert_unavailable(response: Any) -> None:
    assert response.status_code == 503, response.text
    assert response.json()["code"] == "database_unavailable"
    assert response.headers["Retry-After"] == str(DATABASE_RETRY_AFTER)


def when_back(client: TestClient, path: str) -> Any:
    """``GET path`` asked again, as ``Retry-After`` says, until the database answers: the pool reconnects in its
    own time (each ask waits for a connection for up to ``CONNECT_TIMEOUT``)."""
    for _ in range(120):
        response = client.get(path)
        if response.status_code != 503:
            return response
        assert_unavailable(response)
    raise AssertionError("the pool never reconnected")


@pytest.fixture
def cluster() -> Iterator[postgres_support.Cluster]:
    """A cluster of this test's own, since the test stops its server."""
    if not postgres_support.available():
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL is not installed: make test installs Debian's postgresql package")
        pytest.skip("PostgreSQL is not installed (make test installs it)")
    started = postgres_support.Cluster.start()
    yield started
    started.stop()


@pytest.mark.slow  # PostgreSQL (from apt): make test, not make check
@pytest.mark.parametrize("idle_check", [0.0, 3600.0], ids=["pool-checks-each-connection", "connection-breaks"])
def test_postgresql_down_is_503_and_the_move_asked_again_after_it_is_played(
    cluster: postgres_support.Cluster, idle_check: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With every lent connection checked, the pool finds none (its wait ends); unchecked, the one lent breaks
    in the middle of the request: both are the database being away, not the server's fault."""
    from foursquare.store import postgres

    monkeypatch.setattr(postgres, "CHECK_AFTER_IDLE", idle_check)
    monkeypatch.setattr(postgres, "CONNECT_TIMEOUT", 1)  # the pool's wait for a connection: short, for the test
    with TestClient(create_app(cluster.new_database()), raise_server_exceptions=False) as client:
        as_player(client)
        state = new_game(client)
        cluster.halt()
        try:
            assert_unavailable(client.post(f"/api/games/{state['id']}/moves", json=a_move(state)))
            assert_unavailable(client.get(f"/api/games/{state['id']}"))
            assert_unavailable(client.get("/api/stats"))
            croatian = client.get(f"/api/games/{state['id']}", headers={"Accept-Language": "hr"})
            assert_unavailable(croatian)
            assert "pokušajte ponovno za 5 s" in croatian.json()["detail"]
        finally:
            cluster.resume()
        assert when_back(client, f"/api/games/{state['id']}").json()["turn"] == state["turn"]  # no half-made move
        played = client.post(f"/api/games/{state['id']}/moves", json=a_move(state))
        assert played.status_code == 200 and played.json()["turn"] == state["turn"] + 1


def test_an_sqlite_file_locked_by_another_program_is_503_and_the_move_asked_again_after_it_is_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from foursquare.store import database

    monkeypatch.setattr(database, "BUSY_TIMEOUT_SECONDS", 0.2)  # SQLite's wait for the lock: short, for the test
    path = tmp_path / "games.db"
    with TestClient(create_app(path), raise_server_exceptions=False) as client:
        as_player(client)
        state = new_game(client)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another program takes the write lock and keeps it
        try:
            response = client.post(f"/api/games/{state['id']}/moves", json=a_move(state))
            assert_unavailable(response)
            assert response.json()["detail"] == "the games database cannot be reached just now: try again in 5 s"
            assert client.get(f"/api/games/{state['id']}").json()["turn"] == state["turn"]  # reading goes on (WAL)
        finally:
            other.execute("ROLLBACK")
            other.close()
        played = client.post(f"/api/games/{state['id']}/moves", json=a_move(state))
        assert played.status_code == 200 and played.json()["turn"] == state["turn"] + 1


@pytest.mark.slow  # PostgreSQL
def test_once_postgresql_is_found_away_a_request_waits_a_second_for_a_connection_not_the_whole_timeout(
    cluster: postgres_support.Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the database is away each request would otherwise hold a server thread for ``CONNECT_TIMEOUT``; the
    waits are read from the pool's calls (counts, not the clock)."""
    from foursquare.store import Store, StoreUnavailableError, postgres

    monkeypatch.setattr(postgres, "CHECK_AFTER_IDLE", 0.0)  # every lent connection checked: none is found
    monkeypatch.setattr(postgres, "CONNECT_TIMEOUT", 2)
    store = Store(cluster.new_database())
    backend: Any = store.database.backend
    pool = backend._pool
    waits: list[float | None] = []
    lend = pool.connection

    def connection(timeout: float | None = None) -> Any:
        waits.append(timeout)
        return lend(timeout=timeout)

    monkeypatch.setattr(pool, "connection", connection)
    assert store.stats.of("someone")["played"] == 0
    cluster.halt()
    try:
        for _ in range(3):
            with pytest.raises(StoreUnavailableError):
                store.stats.of("someone")
    finally:
        cluster.resume()
    assert waits == [2, 2, postgres.AWAY_WAIT, postgres.AWAY_WAIT]  # the first to find it away waited in full
    for _ in range(120):  # the pool reconnects in its own time
        try:
            store.stats.of("someone")
            break
        except StoreUnavailableError:
            continue
    else:
        raise AssertionError("the pool never reconnected")
    del waits[:]
    store.stats.of("someone")
    assert waits == [2]  # back: a busy pool's requests wait as long as ever
    store.close()


@pytest.mark.slow  # PostgreSQL
def test_a_pool_whose_every_connection_is_in_use_is_busy_not_away(
    cluster: postgres_support.Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    from foursquare.store import Store, StoreUnavailableError, postgres

    monkeypatch.setattr(postgres, "CONNECT_TIMEOUT", 0.5)
    store = Store(cluster.new_database(), pool_size=1)
    backend: Any = store.database.backend
    with backend.connect():  # the pool's only connection, held
        for _ in range(2):
            with pytest.raises(StoreUnavailableError):
                store.stats.of("someone")
            assert not backend._away
    assert store.stats.of("someone")["played"] == 0
    store.close()
