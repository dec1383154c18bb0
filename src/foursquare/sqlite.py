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

import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = [
    "connect", "connect_read_only", "run_script", "set_user_version", "statements", "transaction", "user_version"
]  # fmt: skip


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


def connect_read_only(path: str | Path, *, timeout: float, rows: bool = False) -> sqlite3.Connection:
    """A connection that reads the database file at ``path`` and never writes to it, nor creates it.

    The file is checked to be a database (an ``sqlite3.DatabaseError`` if not; a missing file is an
    ``sqlite3.OperationalError``) and every write through the connection fails (``query_only``). It is opened as
    any reader opens it, so that it sees a writer's latest commits: SQLite's ``-wal`` and ``-shm`` files of a WAL
    database exist while it is open, and go when the last connection closes (a connection opened read-only at
    the system level would leave them behind). On read-only storage the file is opened *immutable*, since no
    one can be writing to it there (a WAL database could not be read otherwise).
    """
    uri = Path(path).resolve().as_uri()
    try:
        return _checked(f"{uri}?mode=rw", timeout, rows)  # mode=rw never creates a file
    except sqlite3.OperationalError:
        if not os.access(path, os.R_OK) or not _on_read_only_storage(Path(path)):
            raise
    return _checked(f"{uri}?mode=ro&immutable=1", timeout, rows)


def _checked(uri: str, timeout: float, rows: bool) -> sqlite3.Connection:
    conn = sqlite3.connect(uri, timeout=timeout, isolation_level=None, uri=True)
    try:
        conn.execute("PRAGMA query_only = ON")
        conn.execute("PRAGMA schema_version").fetchone()  # reads the header: opens the WAL, fails on non-databases
    except BaseException:
        conn.close()
        raise
    if rows:
        conn.row_factory = sqlite3.Row
    return conn


def _on_read_only_storage(path: Path) -> bool:
    return bool(os.statvfs(path).f_flag & os.ST_RDONLY)


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
