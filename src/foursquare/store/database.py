"""Where the games database lives, opening it, its connections and transactions, and the store's clock.

The database is an SQLite file (the embedded default) or a PostgreSQL database (``postgresql://…``, shared by
several app servers: :mod:`foursquare.store.postgres`). The store's SQL is written once, with ``?`` parameters,
in what both engines understand; the few differences are the backends' attributes.

Every change runs in one transaction that first takes the lock of what it changes, so concurrent requests are
serialised and a stale request sees the new state. On SQLite that is the whole database's write lock
(``BEGIN IMMEDIATE``). On PostgreSQL a change names its *scope*: one game (a move), one player (a new game,
within the cap of live games), or everything (the default: accounts, purges, records), and takes that lock only
(:meth:`~foursquare.store.postgres.PostgresBackend.transaction`), so that moves of different games commit side
by side.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, Literal, Protocol

import platformdirs

from foursquare import sqlite
from foursquare.store import schema
from foursquare.store.errors import StoreError, StoreUnavailableError

BUSY_TIMEOUT_SECONDS = 30.0

DATABASE_ENV = "FOURSQUARE_DATABASE_URL"
"""The games database of ``foursquare serve`` when ``--db`` names none: a ``postgresql://`` URL (or an SQLite file)."""

DATA_DIR_ENV = "FOURSQUARE_DATA_DIR"
"""Overrides the user's data directory (tests use a temporary one)."""

Clock = Callable[[], datetime]
"""What tells the store the time (an aware UTC datetime); a test may give a frozen one."""


def system_clock() -> datetime:
    return datetime.now(UTC)


def now(clock: Clock = system_clock) -> str:
    """The current UTC time as ISO-8601 with milliseconds, e.g. ``2026-01-02T03:04:05.678Z``."""
    return timestamp(clock())


def timestamp(moment: datetime) -> str:
    """``moment`` (aware) as the store writes times: UTC, ISO-8601 with milliseconds, so that text order is time order.

    >>> timestamp(datetime(2026, 1, 2, 3, 4, 5, 678000, tzinfo=UTC))
    '2026-01-02T03:04:05.678Z'
    """
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def data_dir() -> Path:
    """The user's data directory for Foursquare (``~/.local/share/foursquare`` on Linux), not created here."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    return Path(platformdirs.user_data_dir("foursquare", appauthor=False))


def default_path() -> Path:
    """The games database of the terminal game and ``foursquare stats``: ``games.db`` in :func:`data_dir`."""
    return data_dir() / "games.db"


class Row(Protocol):
    """A row read from the database: its columns by name (``row["id"]``) or by position (``row[0]``)."""

    def __getitem__(self, key: int | str, /) -> Any: ...


class Cursor(Protocol):
    """What a statement gives back: its rows, and how many rows it changed."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Connection(Protocol):
    """A connection of either engine: statements with ``?`` parameters, rows by name or position."""

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Cursor: ...


Dialect = Literal["sqlite", "postgresql"]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_database_url(location: object) -> bool:
    """Whether ``location`` names a PostgreSQL database (``postgresql://…``) rather than an SQLite file.

    >>> is_database_url("postgresql://play@db.example.org/foursquare"), is_database_url("games.db")
    (True, False)
    """
    return isinstance(location, str) and location.lower().startswith(POSTGRES_SCHEMES)


class Backend(Protocol):
    """One engine's connections and transactions (:class:`SqliteBackend`, or PostgreSQL's)."""

    dialect: Dialect
    name: str
    """How messages name the database: the file's path, or the URL without its password."""
    next_finished_seq: str
    """SQL: the place of a game that ends now among the finished games (increasing, never given twice)."""
    returns_rows: bool
    """Whether ``UPDATE … RETURNING`` may be written (SQLite has it from 3.35)."""

    def connect(self) -> AbstractContextManager[Connection]: ...

    def transaction(self, scope: str | None = None) -> AbstractContextManager[Connection]: ...

    def close(self) -> None: ...

    def schema_version(self, timeout: float) -> int:
        """The schema version the database holds now, read within about ``timeout`` seconds (a readiness probe's
        question); :class:`StoreUnavailableError` when the database cannot be reached."""
        ...

    def pool_stats(self) -> dict[str, int]:
        """The connection pool's figures (PostgreSQL: psycopg_pool's ``get_stats``); none for SQLite's file."""
        ...


class SqliteBackend:
    """The SQLite file at ``path``: a connection per thread, ``BEGIN IMMEDIATE`` for every change.

    Each thread keeps its connection for the store's life: opening one (the file, its schema, the WAL's index)
    cost more than the move it served. The changes of this process take turns on a lock before ``BEGIN
    IMMEDIATE``: a thread waiting for it is woken when the lock is free, whereas one waiting in SQLite's busy
    handler sleeps in steps of up to 100 ms (other processes on the file still meet that handler).

    ``read_only``: the file is only read, never created, migrated or written (:func:`schema.open_read_only`);
    a change then fails with ``sqlite3.OperationalError``.
    """

    dialect: Dialect = "sqlite"
    next_finished_seq = "(SELECT coalesce(max(finished_seq), 0) + 1 FROM games)"  # under the database's write lock
    returns_rows = sqlite3.sqlite_version_info >= (3, 35, 0)

    def __init__(self, path: Path, *, read_only: bool = False) -> None:
        self.path = path
        self.name = str(path)
        self.read_only = read_only
        self._local = threading.local()
        self._opened: list[sqlite3.Connection] = []
        self._guard = threading.Lock()
        self._writer = threading.RLock()  # reentrant: a change may run inside another (it joins it)
        if read_only:
            # One connection for the store's life: it may be an in-memory copy of an older schema's file.
            self._keeper: sqlite3.Connection | None = schema.open_read_only(path, timeout=BUSY_TIMEOUT_SECONDS)
            return
        schema.prepare(path, timeout=BUSY_TIMEOUT_SECONDS)
        # Held open for the store's lifetime: closing the last connection to a WAL database makes
        # SQLite checkpoint and delete the WAL, which would cost every request a few fsyncs.
        self._keeper = sqlite.connect(path, timeout=BUSY_TIMEOUT_SECONDS, any_thread=True)
        self._keeper.execute("SELECT count(*) FROM games").fetchone()  # opens the file and the WAL

    def close(self) -> None:
        """Close every connection; a thread that uses the store again opens a new one."""
        with self._guard:
            opened, self._opened = self._opened, []
        for conn in opened:
            conn.close()
        if self._keeper is not None:
            self._keeper.close()
            self._keeper = None

    @contextmanager
    def connect(self) -> Iterator[sqlite3.Connection]:
        """This thread's connection, in autocommit mode (transactions are explicit)."""
        if self.read_only:
            if self._keeper is None:
                raise StoreError(f"the database {self.path} is closed", "cannot_open", self.path)
            yield self._keeper
            return
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None or conn not in self._opened:  # not yet, or closed since
            conn = self._local.conn = self._open()
        yield conn

    def _open(self) -> sqlite3.Connection:
        try:
            conn = sqlite.connect(self.path, timeout=BUSY_TIMEOUT_SECONDS, rows=True, any_thread=True)
            # WAL with NORMAL: a commit survives the process being killed (SIGKILL) at any moment; only a crash
            # of the machine itself may take back the last commits. FULL adds an fsync to every move, which
            # capped the server at some 55 moves a second on this disk (docs/performance.md).
            conn.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {self.path}: {exc}") from None
        with self._guard:
            self._opened.append(conn)
        return conn

    @contextmanager
    def transaction(self, scope: str | None = None) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``, rolled back if the block raises; the scope is always the whole file."""
        with self._writer, self.connect() as conn, sqlite.transaction(conn, busy=self._locked):
            yield conn

    def schema_version(self, timeout: float) -> int:
        """``PRAGMA user_version`` on this thread's connection: a read never waits for a writer (WAL)."""
        try:
            with self.connect() as conn:
                return sqlite.user_version(conn)
        except sqlite3.Error as exc:
            message = f"cannot read the database {self.path}: {exc}"
            raise StoreUnavailableError(message, "cannot_open", self.path) from None

    def pool_stats(self) -> dict[str, int]:
        return {}

    def _locked(self, exc: sqlite3.OperationalError) -> Exception:
        """Another program held the file's write lock for the whole wait (``BUSY_TIMEOUT_SECONDS``); any other
        failure of ``BEGIN`` goes up as it is."""
        if exc.sqlite_errorcode != sqlite3.SQLITE_BUSY:
            return exc
        message = f"the database {self.path} is locked by another program"
        return StoreUnavailableError(message, "cannot_open", self.path, exc)


def game_scope(game_id: str) -> str:
    """The scope of a change of one game alone (a move, an undo, a hint's mark, its analysis)."""
    return f"game:{game_id}"


def player_scope(player: str) -> str:
    """The scope of a change of one player's games that looks at their other games (a new game, within the cap)."""
    return f"player:{player}"


class Database:
    """The games database at ``location`` (an SQLite file's path, or a ``postgresql://`` URL), checked (and
    created or migrated) on construction: its connections and transactions, and the store's clock. Every
    repository of a :class:`~foursquare.store.Store` works through the one object of its store.

    ``read_only``: the database is only read, never created, migrated or written; a change then fails.
    ``pool_size``: PostgreSQL only, the most connections this store keeps open (:mod:`foursquare.store.postgres`).

    >>> import tempfile, os
    >>> database = Database(os.path.join(tempfile.mkdtemp(), "games.db"))
    >>> with database.transaction() as conn:
    ...     conn.execute("INSERT INTO rate_hits (key, at) VALUES (?, ?)", ("k", 1.0)).rowcount
    1
    >>> with database.connect() as conn:
    ...     conn.execute("SELECT count(*) FROM rate_hits").fetchone()[0]
    1
    >>> database.schema_version() == schema.SCHEMA_VERSION, database.backend.dialect
    (True, 'sqlite')
    >>> database.close()
    """

    def __init__(
        self,
        location: str | Path,
        *,
        clock: Clock = system_clock,
        read_only: bool = False,
        pool_size: int | None = None,
    ) -> None:
        self.clock = clock
        self.read_only = read_only
        self.backend: Backend
        if is_database_url(location):
            from foursquare.store.postgres import PostgresBackend  # psycopg: only for a PostgreSQL database

            self.path: Path | None = None
            self.backend = PostgresBackend(str(location), read_only=read_only, pool_size=pool_size)
        else:
            self.path = Path(location)
            self.backend = SqliteBackend(self.path, read_only=read_only)
        self.name = self.backend.name

    def close(self) -> None:
        """Release the database (a store is usable until then)."""
        self.backend.close()

    def schema_version(self, timeout: float = 1.0) -> int:
        """The schema version the database holds now, read within about ``timeout`` seconds;
        :class:`StoreUnavailableError` when it cannot be reached. (Another server may have migrated it since this
        one started: then it is newer than :data:`~foursquare.store.schema.SCHEMA_VERSION`.)"""
        return self.backend.schema_version(timeout)

    def pool_stats(self) -> dict[str, int]:
        """The figures of the database's connection pool (PostgreSQL), for the server's metrics: ``pool_size``,
        ``pool_available``, ``requests_waiting``, ``connections_errors``… (psycopg_pool's names); empty for SQLite."""
        return self.backend.pool_stats()

    def connect(self) -> AbstractContextManager[Connection]:
        """A connection for reading, each statement on its own (changes go through :meth:`transaction`)."""
        return self.backend.connect()

    def transaction(self, scope: str | None = None) -> AbstractContextManager[Connection]:
        """One transaction, committed at the end of the block, rolled back if it raises.

        ``scope``: what alone it changes, by a name that every change of the same thing uses (:func:`game_scope`,
        :func:`player_scope`; see the module's docstring); None: it may change anything.
        """
        return self.backend.transaction(scope)

    def today(self) -> date:
        """The current UTC date, by the store's clock: the date of the daily deal."""
        return self.clock().astimezone(UTC).date()


class Repository:
    """One concern of the store (its games, its accounts…) over the one :class:`Database` that they all share."""

    def __init__(self, database: Database) -> None:
        self.database = database
