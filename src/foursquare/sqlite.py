"""What the games database and the study database both do with SQLite: connect, transact, run a schema script.

Connections are in autocommit mode: every transaction is explicit, ``BEGIN IMMEDIATE`` (:func:`transaction`),
so that a writer takes the write lock before it reads what it will change, and two writers queue (for up to
their ``timeout``) instead of failing half-way.

>>> import tempfile, os
>>> db = connect(os.path.join(tempfile.mkdtemp(), "example.db"), timeout=5)
>>> with transaction(db):
...     run_script(db, "CREATE TABLE t (x INTEGER); -- a comment; with a semicolon\\nCREATE INDEX t_x ON t (x);")
...     _ = db.execute("INSERT INTO t VALUES (1)")
>>> db.execute("SELECT x FROM t").fetchall(), user_version(db)
([(1,)], 0)
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["connect", "run_script", "set_user_version", "statements", "transaction", "user_version"]


def connect(
    path: str | Path, *, timeout: float, create: bool = True, rows: bool = False, any_thread: bool = False
) -> sqlite3.Connection:
    """A connection in autocommit mode to the database file at ``path``.

    ``timeout``: the seconds a statement waits for another connection's lock before it fails. ``create=False``
    opens the file read-write without ever creating it (a missing file is an ``sqlite3.OperationalError``).
    ``rows``: rows are :class:`sqlite3.Row` (read by column name) instead of tuples. ``any_thread``: the
    connection may be used from threads other than its creator's (never from two at once).
    """
    target: str | Path = path if create else f"{Path(path).resolve().as_uri()}?mode=rw"
    conn = sqlite3.connect(
        target, timeout=timeout, isolation_level=None, uri=not create, check_same_thread=not any_thread
    )
    if rows:
        conn.row_factory = sqlite3.Row
    return conn


@contextmanager
def transaction(
    conn: sqlite3.Connection, *, busy: Callable[[sqlite3.OperationalError], Exception] | None = None
) -> Iterator[sqlite3.Connection]:
    """``BEGIN IMMEDIATE`` … ``COMMIT``, rolled back if the block raises, on a connection in autocommit mode.

    Inside another transaction it is part of the outer one, which alone commits or rolls back. ``busy`` makes
    the caller's own error of a ``BEGIN`` that failed (another connection held the write lock past the
    timeout); without it the ``sqlite3.OperationalError`` goes up as it is.
    """
    if conn.in_transaction:
        yield conn
        return
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if busy is None:
            raise
        raise busy(exc) from None
    try:
        yield conn
    except BaseException:
        if conn.in_transaction:  # SQLite may have rolled back already (a full disk, an interrupt)
            conn.execute("ROLLBACK")
        raise
    try:
        if conn.in_transaction:
            conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:  # a COMMIT that failed (a full disk) leaves the transaction open: end it
            conn.execute("ROLLBACK")
        raise


def statements(script: str) -> list[str]:
    """Split a schema script into statements (it has no semicolons inside literals: comments are dropped).

    >>> statements("CREATE TABLE a (x); -- the first; really\\nCREATE TABLE b (y);")
    ['CREATE TABLE a (x)', 'CREATE TABLE b (y)']
    """
    lines = [line.split("--", 1)[0] for line in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


def run_script(conn: sqlite3.Connection, script: str) -> None:
    """Run a schema script statement by statement, inside the caller's transaction.

    (``executescript`` would commit the caller's transaction first.)
    """
    for statement in statements(script):
        conn.execute(statement)


def user_version(conn: sqlite3.Connection) -> int:
    """The database's ``PRAGMA user_version``: the version of its schema, 0 in a new file."""
    version: int = conn.execute("PRAGMA user_version").fetchone()[0]
    return version


def set_user_version(conn: sqlite3.Connection, version: int) -> None:
    """Set ``PRAGMA user_version`` (inside the transaction that brings the schema to ``version``)."""
    conn.execute(f"PRAGMA user_version = {int(version)}")
