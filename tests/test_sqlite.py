"""The SQLite helper shared by the games database and the study database: connections, transactions, scripts."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from foursquare import sqlite


class Refused(Exception):
    """The caller's own error of a write lock it could not take."""


def _count(conn: sqlite3.Connection) -> int:
    rows: int = conn.execute("SELECT count(*) FROM t").fetchone()[0]
    return rows


@pytest.fixture
def db(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    with closing(sqlite.connect(tmp_path / "t.db", timeout=0)) as conn:
        conn.execute("CREATE TABLE t (x INTEGER)")
        yield conn


def test_a_connection_is_in_autocommit_mode_and_may_read_rows_by_name(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    with (
        closing(sqlite.connect(path, timeout=0)) as writer,
        closing(sqlite.connect(path, timeout=0, rows=True)) as reader,
    ):
        writer.execute("CREATE TABLE t (x INTEGER)")
        writer.execute("INSERT INTO t VALUES (7)")
        assert not writer.in_transaction  # committed at once: another connection sees it
        row = reader.execute("SELECT x FROM t").fetchone()
        assert isinstance(row, sqlite3.Row) and row["x"] == 7
        assert type(writer.execute("SELECT x FROM t").fetchone()) is tuple


def test_without_create_a_missing_file_is_an_error_and_stays_missing(tmp_path: Path) -> None:
    path = tmp_path / "missing.db"
    with pytest.raises(sqlite3.OperationalError):
        sqlite.connect(path, timeout=0, create=False)
    assert not path.exists()
    sqlite.connect(path, timeout=0).close()
    with closing(sqlite.connect(path, timeout=0, create=False)) as conn:  # an existing file opens
        assert conn.execute("SELECT 1").fetchone() == (1,)


def test_a_transaction_commits_or_rolls_back_as_a_whole(db: sqlite3.Connection) -> None:
    with sqlite.transaction(db):
        db.execute("INSERT INTO t VALUES (1)")
        assert db.in_transaction
    assert _count(db) == 1 and not db.in_transaction
    with pytest.raises(KeyError), sqlite.transaction(db):
        db.execute("INSERT INTO t VALUES (2)")
        raise KeyError("abandon")
    assert _count(db) == 1 and not db.in_transaction


def test_a_transaction_inside_another_is_part_of_it(db: sqlite3.Connection) -> None:
    with pytest.raises(KeyError), sqlite.transaction(db):
        with sqlite.transaction(db):
            db.execute("INSERT INTO t VALUES (1)")
        assert db.in_transaction  # the inner one did not commit
        raise KeyError("abandon the outer one")
    assert _count(db) == 0


def test_a_block_that_ended_the_transaction_itself_keeps_its_own_error(db: sqlite3.Connection) -> None:
    with pytest.raises(KeyError), sqlite.transaction(db):
        db.execute("ROLLBACK")  # as SQLite does on its own after some errors
        raise KeyError("the block's error, not 'no transaction is active'")


def test_a_write_lock_held_elsewhere_is_the_callers_error_when_it_asks(tmp_path: Path, db: sqlite3.Connection) -> None:
    with closing(sqlite.connect(tmp_path / "t.db", timeout=0)) as holder:
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(sqlite3.OperationalError, match="locked"), sqlite.transaction(db):
            pass
        with (
            pytest.raises(Refused, match="busy: database is locked"),
            sqlite.transaction(db, busy=lambda exc: Refused(f"busy: {exc}")),
        ):
            pass
        holder.execute("ROLLBACK")
    with sqlite.transaction(db, busy=lambda exc: Refused(str(exc))):
        db.execute("INSERT INTO t VALUES (1)")
    assert _count(db) == 1


def test_a_script_splits_into_statements_without_its_comments() -> None:
    script = """
    CREATE TABLE a (x TEXT NOT NULL DEFAULT '[]');  -- a comment; with a semicolon
    -- a line of comment only
    CREATE INDEX a_x ON a (x);
    """
    assert sqlite.statements(script) == ["CREATE TABLE a (x TEXT NOT NULL DEFAULT '[]')", "CREATE INDEX a_x ON a (x)"]
    assert sqlite.statements("  \n-- nothing\n") == []


def test_a_script_and_the_version_are_part_of_the_callers_transaction(db: sqlite3.Connection) -> None:
    assert sqlite.user_version(db) == 0
    with pytest.raises(KeyError), sqlite.transaction(db):
        sqlite.run_script(db, "CREATE TABLE u (y); INSERT INTO t VALUES (1);")
        sqlite.set_user_version(db, 3)
        raise KeyError("abandon")
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"t"} and _count(db) == 0 and sqlite.user_version(db) == 0
    with sqlite.transaction(db):
        sqlite.run_script(db, "CREATE TABLE u (y);")
        sqlite.set_user_version(db, 3)
    assert sqlite.user_version(db) == 3


def test_a_commit_that_fails_ends_the_transaction(db: sqlite3.Connection) -> None:
    # A deferred foreign key is checked at COMMIT: the one way to make COMMIT itself fail without a full disk.
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
    db.execute("CREATE TABLE child (id INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)")
    with pytest.raises(sqlite3.IntegrityError), sqlite.transaction(db):
        db.execute("INSERT INTO child VALUES (1)")
    assert not db.in_transaction  # else the next transaction would join this one and never commit
    with sqlite.transaction(db):
        db.execute("INSERT INTO t VALUES (3)")
    assert not db.in_transaction and _count(db) == 1
