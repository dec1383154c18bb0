"""Where the games database lives, opening it, its connections and transactions, and the store's clock.

Each operation opens its own connection. A change runs in one ``BEGIN IMMEDIATE`` transaction, so concurrent
requests for one game are serialised and a stale request sees the new state.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime
from pathlib import Path

import platformdirs

from foursquare import sqlite
from foursquare.store import schema
from foursquare.store.errors import StoreError

BUSY_TIMEOUT_SECONDS = 30.0

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


class Database:
    """The games database at ``path``, checked (and created or migrated) on construction; the store's clock.

    ``read_only``: the file is only read, never created, migrated or written (:func:`schema.open_read_only`);
    a change then fails with ``sqlite3.OperationalError``.
    """

    def __init__(self, path: str | Path, *, clock: Clock = system_clock, read_only: bool = False) -> None:
        self.path = Path(path)
        self.clock = clock
        self.read_only = read_only
        if read_only:
            # One connection for the store's life: it may be an in-memory copy of an older schema's file.
            self._keeper: sqlite3.Connection | None = schema.open_read_only(self.path, timeout=BUSY_TIMEOUT_SECONDS)
            return
        schema.prepare(self.path, timeout=BUSY_TIMEOUT_SECONDS)
        # Held open for the store's lifetime: closing the last connection to a WAL database makes
        # SQLite checkpoint and delete the WAL, which would cost every request a few fsyncs.
        self._keeper = sqlite.connect(self.path, timeout=BUSY_TIMEOUT_SECONDS, any_thread=True)
        self._keeper.execute("SELECT count(*) FROM games").fetchone()  # opens the file and the WAL

    def close(self) -> None:
        """Release the database (a store is usable until then)."""
        if self._keeper is not None:
            self._keeper.close()
            self._keeper = None

    @contextmanager
    def connect(self) -> Iterator[sqlite3.Connection]:
        """A fresh connection in autocommit mode (transactions are explicit), closed afterwards."""
        if self.read_only:
            if self._keeper is None:
                raise StoreError(f"the database {self.path} is closed", "cannot_open", self.path)
            yield self._keeper
            return
        try:
            conn = sqlite.connect(self.path, timeout=BUSY_TIMEOUT_SECONDS, rows=True)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {self.path}: {exc}") from None
        try:
            # WAL with NORMAL: a commit survives the process being killed (SIGKILL) at any moment; only a crash
            # of the machine itself may take back the last commits. FULL adds an fsync to every move, which
            # capped the server at some 55 moves a second on this disk (docs/performance.md).
            conn.execute("PRAGMA synchronous = NORMAL")
            yield conn
        finally:
            conn.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``, rolled back if the block raises."""
        with self.connect() as conn, sqlite.transaction(conn):
            yield conn

    def today(self) -> date:
        """The current UTC date, by the store's clock: the date of the daily deal."""
        return self.clock().astimezone(UTC).date()
