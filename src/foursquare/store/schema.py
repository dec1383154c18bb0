"""The games database's schema, its versions and migrations, and the checks made before a file is used.

The schema is versioned with ``PRAGMA user_version``. Opening a file that is not a Foursquare database (or not
an SQLite database at all, or a damaged one) raises :class:`~foursquare.store.StoreError` without writing a
byte to it; an older schema is brought up to date in one transaction.
"""

from __future__ import annotations

import secrets
import sqlite3
from pathlib import Path

from foursquare import sqlite
from foursquare.store.errors import StoreError

SCHEMA_VERSION = 4
"""The ``PRAGMA user_version`` of the schema this module writes."""

SCHEMA = """
CREATE TABLE games (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,  -- creation order
    id TEXT NOT NULL UNIQUE,                -- secrets.token_urlsafe(16)
    player TEXT NOT NULL,                   -- the fs_player cookie of whoever created it
    deal TEXT,                              -- decimal: deal numbers reach 2**64 - 1, beyond SQLite integers
    stock TEXT,                             -- JSON list of 40 card names, for a game without a deal number
    deal_hidden INTEGER NOT NULL,           -- 1: a random deal, its number secret until the game ends
    adjacency TEXT NOT NULL,
    count_buried INTEGER NOT NULL,
    moves TEXT NOT NULL DEFAULT '[]',       -- JSON [[row, col], ...] in play order
    redo TEXT NOT NULL DEFAULT '[]',        -- JSON [[row, col], ...], the next redo first
    turn INTEGER NOT NULL DEFAULT 0,        -- len(moves)
    outcome TEXT NOT NULL DEFAULT 'playing',
    reason TEXT,
    score INTEGER,
    finished_seq INTEGER,                   -- order in which games ended, for streaks
    analysis TEXT,                          -- cached JSON of foursquare.analysis.analyze
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    finished_at TEXT,
    assisted INTEGER NOT NULL DEFAULT 0,    -- 1: the player undid, restarted or took a hint (schema 2)
    daily TEXT,                             -- the UTC date (YYYY-MM-DD) of a daily deal, else NULL (schema 2)
    winnable INTEGER NOT NULL DEFAULT 0,    -- 1: a random deal the solver proved winnable (schema 2)
    CHECK ((deal IS NULL) <> (stock IS NULL))
);
CREATE INDEX games_by_player ON games (player, seq);
CREATE INDEX games_finished_by_player ON games (player, finished_seq) WHERE finished_seq IS NOT NULL;
CREATE UNIQUE INDEX games_daily_by_player ON games (player, daily) WHERE daily IS NOT NULL;
CREATE INDEX games_live_by_player ON games (player, outcome) WHERE outcome = 'playing';  -- the cap (schema 3)
CREATE INDEX games_live_by_update ON games (updated_at) WHERE outcome = 'playing';  -- the purges (schema 3)
CREATE INDEX games_daily_results ON games (daily, outcome, score) WHERE daily IS NOT NULL;  -- results (schema 4)
CREATE TABLE secrets (
    name TEXT PRIMARY KEY,                  -- 'daily': the key of the daily deal's HMAC
    value TEXT NOT NULL                     -- hex, from secrets.token_hex(32) when the database is made
);
"""

COLUMNS = (
    "seq", "id", "player", "deal", "stock", "deal_hidden", "adjacency", "count_buried", "moves", "redo", "turn",
    "outcome", "reason", "score", "finished_seq", "analysis", "created_at", "updated_at", "finished_at",
    "assisted", "daily", "winnable",
)  # fmt: skip

MIGRATIONS: dict[int, str] = {
    1: """
ALTER TABLE games ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN daily TEXT;
ALTER TABLE games ADD COLUMN winnable INTEGER NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX games_daily_by_player ON games (player, daily) WHERE daily IS NOT NULL;
CREATE TABLE secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL);
""",
    2: """
CREATE INDEX games_live_by_player ON games (player, outcome) WHERE outcome = 'playing';
CREATE INDEX games_live_by_update ON games (updated_at) WHERE outcome = 'playing';
""",
    3: """
CREATE INDEX IF NOT EXISTS games_daily_results ON games (daily, outcome, score) WHERE daily IS NOT NULL;
""",
}
"""SQL that upgrades a database from schema version N to N + 1, keyed by N. Games stored before schema 2
were not tracked for assistance: they count as clean (``assisted`` 0). Schema 3 indexes the live games (the
few rows the purges and the live-games cap look at), so that neither reads the finished games. Schema 4 indexes
the daily games by date, outcome and score: a date's results (:meth:`~foursquare.store.DailyGames.daily_results`)
are read from that index alone."""

DAILY_SECRET = "daily"
"""The name, in the ``secrets`` table, of the key from which each date's daily deal number is derived."""

_UNTOUCHED = "it was left untouched — move it away or choose another file with --db"


def prepare(path: Path, *, timeout: float) -> None:
    """Check that ``path`` is a Foursquare games database, or none yet; create or migrate it (:class:`StoreError`)."""
    if path.is_dir():
        raise StoreError(f"{path} is a directory, not a database file", "is_directory", path)
    if not path.parent.is_dir():
        raise StoreError(
            f"cannot create the database {path}: the directory {path.parent} does not exist", "no_directory", path
        )
    try:
        # An existing file is opened without create: nothing below writes until the file is known to be ours.
        conn = sqlite.connect(path, timeout=timeout, create=not path.exists())
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open the database {path}: {exc}", "cannot_open", path, exc) from None
    try:
        _check(conn, path)
    except sqlite3.Error as exc:
        raise StoreError(
            f"{path} is not a readable Foursquare database ({exc}); {_UNTOUCHED}", "not_database", path, exc
        ) from None
    finally:
        conn.close()


def open_read_only(path: Path, *, timeout: float) -> sqlite3.Connection:
    """A connection (rows by name) that reads the games database at ``path`` and never writes to it, checked as
    :func:`prepare` checks (:class:`StoreError`, code ``missing`` when there is no file).

    A database of an older schema, or an empty file, is read through a copy in memory brought up to date: the
    file itself is neither migrated nor created, so a command that only reads changes nothing on disk and works
    on read-only storage.
    """
    if path.is_dir():
        raise StoreError(f"{path} is a directory, not a database file", "is_directory", path)
    if not path.exists():
        raise StoreError(f"there is no database {path}", "missing", path)
    if not path.is_file():  # a device (/dev/full reads as an empty database) or a pipe
        raise StoreError(f"{path} is not a database file (a device or a pipe)", "not_a_file", path)
    try:
        conn = sqlite.connect_read_only(path, timeout=timeout, rows=True)
    except sqlite3.OperationalError as exc:
        raise StoreError(f"cannot open the database {path}: {exc}", "cannot_open", path, exc) from None
    except sqlite3.Error as exc:
        raise StoreError(
            f"{path} is not a readable Foursquare database ({exc}); {_UNTOUCHED}", "not_database", path, exc
        ) from None
    try:
        if _check_readable(conn, path) < SCHEMA_VERSION:
            memory = sqlite3.connect(":memory:", isolation_level=None)
            memory.row_factory = sqlite3.Row
            conn.backup(memory)
            conn.close()
            conn = memory
            _create_or_migrate(conn)
        _check_columns(conn, path)
    except BaseException as exc:
        conn.close()
        if isinstance(exc, sqlite3.Error):
            raise StoreError(
                f"{path} is not a readable Foursquare database ({exc}); {_UNTOUCHED}", "not_database", path, exc
            ) from None
        raise
    return conn


def _check(conn: sqlite3.Connection, path: Path) -> None:
    version = _check_readable(conn, path)
    conn.execute("PRAGMA journal_mode = WAL")
    if version < SCHEMA_VERSION:
        _create_or_migrate(conn)
    _check_columns(conn, path)


def _check_readable(conn: sqlite3.Connection, path: Path) -> int:
    """Check, reading only, that the file is a sound Foursquare database or an empty one; its schema version."""
    conn.execute("PRAGMA schema_version").fetchone()  # reads the header: fails on a non-database file
    problems = [row[0] for row in conn.execute("PRAGMA quick_check").fetchall()]
    if problems != ["ok"]:
        raise StoreError(f"the database {path} is damaged ({'; '.join(problems[:3])}); {_UNTOUCHED}", "damaged", path)
    version = sqlite.user_version(conn)
    tables = sorted(
        row[0]
        for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        if not row[0].startswith("sqlite_")
    )
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"the database {path} was written by a newer version of Foursquare (schema {version}; "
            f"this version reads schema {SCHEMA_VERSION} and older)",
            "newer",
            path,
        )
    if version == 0 and tables:
        raise StoreError(
            f"{path} is an SQLite database but not a Foursquare one (it has the tables "
            f"{', '.join(tables)}); it was left untouched — choose another file with --db",
            "foreign",
            path,
        )
    if version > 0 and "games" not in tables:
        raise StoreError(f"the database {path} is damaged: it has no games table", "damaged", path)
    return version


def _check_columns(conn: sqlite3.Connection, path: Path) -> None:
    columns = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
    missing = sorted(set(COLUMNS) - columns)
    if missing:
        raise StoreError(f"the database {path} is damaged: the games table lacks {', '.join(missing)}", "damaged", path)


def _create_or_migrate(conn: sqlite3.Connection) -> None:
    """Create the schema in an empty database, or bring an older one up to date, in one transaction."""
    with sqlite.transaction(conn):
        version = sqlite.user_version(conn)  # another process may have done it
        if version == 0:
            sqlite.run_script(conn, SCHEMA)
            version = SCHEMA_VERSION
        while version < SCHEMA_VERSION:
            sqlite.run_script(conn, MIGRATIONS[version])
            version += 1
        conn.execute("INSERT OR IGNORE INTO secrets (name, value) VALUES (?, ?)", (DAILY_SECRET, secrets.token_hex(32)))
        sqlite.set_user_version(conn, version)
