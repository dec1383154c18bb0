"""The games store on PostgreSQL: what differs from SQLite (URLs, foreign and newer databases, the pool), and the
shared rate limits, on both engines. The store's behaviour itself is tested on both engines by the API's,
retention's, daily results' and accounts' tests (the ``database`` fixture of conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

import postgres_support
from db_support import tamper
from foursquare.engine import Variant
from foursquare.store import DATABASE_ENV, SCHEMA_VERSION, Store, StoreError
from foursquare.web.rate_limits import RateLimits

pytestmark = pytest.mark.slow  # PostgreSQL (Debian's, from apt): make test, not make check

SERVE = [sys.executable, "-m", "foursquare.cli", "serve", "--port", "0"]


def refused(command: list[str], env: dict[str, str] | None = None) -> str:
    """Run a command that must refuse to start; its one line of error."""
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, env={**os.environ, **(env or {})})
    assert result.returncode == 2, result
    assert "Traceback" not in result.stderr and result.stdout == ""
    return result.stderr


def test_a_url_that_cannot_be_read_is_refused_without_its_password() -> None:
    message = refused([*SERVE, "--db", "postgresql://play:hunter2@[db/foursquare"])
    assert message.startswith("foursquare: error: postgresql://play@[db/foursquare is not a PostgreSQL URL that ")
    assert "hunter2" not in message and message.count("\n") == 1
    assert "write it as postgresql://user@host/foursquare" in message


def test_a_server_that_does_not_answer_is_one_line_from_the_environment_variable() -> None:
    url = "postgresql://play@127.0.0.1:1/foursquare?password=hunter2"
    message = refused(SERVE, env={DATABASE_ENV: url})
    assert message.startswith("foursquare: error: cannot open the database postgresql://play@127.0.0.1:1/foursquare: ")
    assert "hunter2" not in message and message.count("\n") == 1


def test_a_database_of_another_application_is_refused_and_left_untouched(postgres_url: str) -> None:
    import psycopg

    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE invoices (id integer)")
        conn.execute("INSERT INTO invoices VALUES (7)")
    with pytest.raises(StoreError) as caught:
        Store(postgres_url)
    assert caught.value.code == "foreign_database" and "invoices" in str(caught.value)
    message = refused([*SERVE, "--db", postgres_url])
    assert "is a PostgreSQL database but not a Foursquare one; it was left untouched" in message
    with psycopg.connect(postgres_url) as conn:
        tables = conn.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")
        assert [row[0] for row in tables] == ["invoices"]
        assert conn.execute("SELECT id FROM invoices").fetchall() == [(7,)]


def test_a_database_of_a_newer_version_is_refused(postgres_url: str) -> None:
    Store(postgres_url).close()
    tamper(postgres_url, "UPDATE foursquare_schema SET version = ?", (SCHEMA_VERSION + 1,))
    with pytest.raises(StoreError) as caught:
        Store(postgres_url)
    assert caught.value.code == "newer"
    assert "written by a newer version of Foursquare" in refused([*SERVE, "--db", postgres_url])


def test_reading_only_never_creates_and_never_writes(postgres_url: str) -> None:
    with pytest.raises(StoreError) as caught:
        Store(postgres_url, read_only=True)
    assert caught.value.code == "missing"
    Store(postgres_url).close()
    reader = Store(postgres_url, read_only=True)
    try:
        assert reader.games.page("alice", page=1, per_page=10) == ([], 0)
        with pytest.raises(Exception, match="read-only"):
            reader.games.create("alice", deal=1, variant=Variant(), hidden=True)
    finally:
        reader.close()


def test_the_store_names_its_database_without_the_password(postgres_url: str) -> None:
    with_password = postgres_url.replace("foursquare@", "foursquare:not-checked@")
    store = Store(with_password)
    try:
        assert store.database.name == postgres_url and "not-checked" not in store.database.name
        assert store.database.backend.dialect == "postgresql"
    finally:
        store.close()


# --- the rate limits' counts, in the database --------------------------------------------------------------


def test_a_window_takes_no_more_than_its_limit_however_many_ask_at_once(database: str) -> None:
    store = Store(database)
    taken: list[bool] = []
    barrier = threading.Barrier(12)

    def take() -> None:
        barrier.wait()
        taken.append(store.rates.take("games/203.0.113.9/60", limit=5, window=60, now=1000.0))

    try:
        threads = [threading.Thread(target=take) for _ in range(12)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(taken) == [False] * 7 + [True] * 5
        assert store.rates.window("games/203.0.113.9/60", 60, now=1030.0) == (1000.0, 5)
        assert store.rates.take("games/203.0.113.9/60", limit=5, window=60, now=1060.5)  # the window moved on
        assert store.rates.forget(before=2000.0) == 1
    finally:
        store.close()


def test_two_servers_limits_count_one_client_once(database: str) -> None:
    first, second = Store(database), Store(database)
    try:
        limits = [RateLimits(hints="3/day"), RateLimits(hints="3/day")]
        limits[0].shared_in(first)
        limits[1].shared_in(second)
        answers = [limits[n % 2].retry_after("hints", "203.0.113.9") for n in range(5)]
        assert answers[:3] == [None] * 3 and all(wait is not None and wait > 0 for wait in answers[3:])
        assert limits[1].retry_after("hints", "198.51.100.4") is None  # another address has its own count
    finally:
        first.close()
        second.close()


def test_an_extensions_objects_do_not_make_a_database_foreign(postgres_cluster: postgres_support.Cluster) -> None:
    import psycopg

    postgres_url = postgres_cluster.new_database()  # of its own: an extension is installed once a database
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION pg_stat_statements")  # views in the current schema, as an operator may add
    Store(postgres_url).close()
    Store(postgres_url, read_only=True).close()


def test_a_database_restarted_under_the_store_costs_no_request_after_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from foursquare.store import postgres

    monkeypatch.setattr(postgres, "CHECK_AFTER_IDLE", 0.0)  # as after a restart that took its time: checked
    cluster = postgres_support.Cluster.start()
    try:
        store = Store(cluster.new_database())
        game = store.games.create("alice", deal=1, variant=Variant(), hidden=True)
        assert store.games.get(game.id).turn == 0  # the pool's connections are open and used
        cluster.restart()
        assert [store.games.get(game.id).id for _ in range(20)] == [game.id] * 20  # every pooled connection was broken
        store.close()
    finally:
        cluster.stop()
