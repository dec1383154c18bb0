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
from foursquare.store.tokens import stored_player

SCHEMA_VERSION = 8
"""The ``PRAGMA user_version`` of the schema this module writes."""

ACCOUNTS = """
CREATE TABLE IF NOT EXISTS accounts (                     -- schema 5: a person who keeps their games with passkeys
    player TEXT PRIMARY KEY,                -- the games.player of the account's games (never sent to a browser)
    user_handle TEXT NOT NULL UNIQUE,       -- base64url of the WebAuthn user handle (32 random bytes)
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS credentials (                  -- schema 5: the account's passkeys
    id TEXT PRIMARY KEY,                    -- base64url of the credential id
    account TEXT NOT NULL,                  -- accounts.player
    public_key BLOB NOT NULL,               -- the credential's COSE public key
    sign_count INTEGER NOT NULL,            -- the authenticator's signature counter, last seen
    transports TEXT NOT NULL,               -- JSON list of the transports the browser named
    created_at TEXT NOT NULL,
    last_used_at TEXT,                      -- the last sign-in with it; NULL: never since it was created
    name TEXT                               -- schema 7: the name its owner gave it; NULL: none
);
CREATE INDEX IF NOT EXISTS credentials_by_account ON credentials (account);
CREATE TABLE IF NOT EXISTS sessions (                     -- schema 5: the browsers signed in to an account
    token_hash TEXT PRIMARY KEY,            -- hex SHA-256 of the browser's player cookie (the cookie is not kept)
    account TEXT NOT NULL,                  -- accounts.player
    created_at TEXT NOT NULL,
    last_seen_at TEXT,                      -- schema 7: the browser's last request (to within SESSION_TOUCH)
    device TEXT                             -- schema 7: what the browser said it is when it signed in, short
);
CREATE INDEX IF NOT EXISTS sessions_by_account ON sessions (account);
CREATE TABLE IF NOT EXISTS challenges (                   -- schema 5: WebAuthn challenges given out, each used once
    challenge TEXT PRIMARY KEY,             -- base64url of 32 random bytes
    purpose TEXT NOT NULL,                  -- 'register' or 'sign_in'
    browser_hash TEXT NOT NULL,             -- hex SHA-256 of the cookie of the browser it was given to
    user_handle TEXT,                       -- 'register': the user handle the options named
    expires_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS challenges_by_browser ON challenges (browser_hash, expires_at);
CREATE INDEX IF NOT EXISTS challenges_by_expiry ON challenges (expires_at);
"""
"""The tables of the accounts (schema 5, with schema 7's columns), made only where missing (a file whose version
was set back has them); migrating from schema 6 adds the columns to the tables that lack them."""

RATE_HITS = """
CREATE TABLE IF NOT EXISTS rate_hits (                    -- schema 6: requests counted by the shared rate limits
    key TEXT NOT NULL,                      -- the limit and the client (limits' key: kind, address, window)
    at REAL NOT NULL                        -- when, in seconds since the epoch
);
CREATE INDEX IF NOT EXISTS rate_hits_by_key ON rate_hits (key, at);
CREATE INDEX IF NOT EXISTS rate_hits_by_time ON rate_hits (at);
"""
"""The requests that the rate limits count, when several servers share them (:mod:`foursquare.store.rates`)."""

ACCOUNTS_7 = """
CREATE INDEX IF NOT EXISTS sessions_by_last_seen ON sessions (last_seen_at);
"""
"""Schema 7's index of the sessions by their last use (the idle ones are purged); its columns are in
:data:`ADDED_COLUMNS`."""

OFFLINE = """
CREATE UNIQUE INDEX IF NOT EXISTS games_offline ON games (offline_id) WHERE offline_id IS NOT NULL;
"""
"""Schema 8: a game played offline is stored once, however often its device sends it (its column is in
:data:`ADDED_COLUMNS`)."""

ANONYMOUS_HASHED = """
UPDATE games SET player = fs_stored_player(player)
    WHERE player <> 'terminal' AND player NOT IN (SELECT player FROM accounts);
UPDATE sessions SET last_seen_at = created_at WHERE last_seen_at IS NULL;
UPDATE games SET daily_repeat = 1, assisted = 1
    WHERE daily IS NOT NULL AND finished_at IS NOT NULL AND substr(finished_at, 1, 10) > daily;
"""
"""Schema 7's changes of the rows: each anonymous player's games under the hash of its cookie
(:func:`~foursquare.store.tokens.stored_player`, called ``fs_stored_player`` here), not the cookie; the
sessions' last use; and each daily game finished after its date ended (when its deal could be known) made a
repeat and assisted: it counts neither in the date's results nor as clean."""

SCHEMA = (
    """
CREATE TABLE games (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,  -- creation order
    id TEXT NOT NULL UNIQUE,                -- secrets.token_urlsafe(16)
    player TEXT NOT NULL,                   -- 'anon:' + SHA-256 of the creator's cookie, an account's id, or 'terminal'
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
    daily_repeat INTEGER NOT NULL DEFAULT 0,  -- 1: a player's second daily game of its date (schema 5, see below)
    offline_id TEXT,                        -- a game played offline: its id on the device that sent it (schema 8)
    CHECK ((deal IS NULL) <> (stock IS NULL))
);
CREATE INDEX games_by_player ON games (player, seq);
CREATE INDEX games_finished_by_player ON games (player, finished_seq) WHERE finished_seq IS NOT NULL;
CREATE UNIQUE INDEX games_daily_by_player ON games (player, daily) WHERE daily IS NOT NULL AND daily_repeat = 0;
CREATE INDEX games_live_by_player ON games (player, outcome) WHERE outcome = 'playing';  -- the cap (schema 3)
CREATE INDEX games_live_by_update ON games (updated_at) WHERE outcome = 'playing';  -- the purges (schema 3)
CREATE INDEX games_daily_results ON games (daily, outcome, score, daily_repeat)
    WHERE daily IS NOT NULL AND daily_repeat = 0;  -- results (schema 4; repeats left out, schema 5)
CREATE TABLE secrets (
    name TEXT PRIMARY KEY,                  -- 'daily': the key of the daily deal's HMAC
    value TEXT NOT NULL                     -- hex, from secrets.token_hex(32) when the database is made
);
"""
    + ACCOUNTS
    + RATE_HITS
    + ACCOUNTS_7
    + OFFLINE
)

COLUMNS = (
    "seq", "id", "player", "deal", "stock", "deal_hidden", "adjacency", "count_buried", "moves", "redo", "turn",
    "outcome", "reason", "score", "finished_seq", "analysis", "created_at", "updated_at", "finished_at",
    "assisted", "daily", "winnable", "daily_repeat", "offline_id",
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
    4: """
DROP INDEX IF EXISTS games_daily_by_player;
CREATE UNIQUE INDEX games_daily_by_player ON games (player, daily) WHERE daily IS NOT NULL AND daily_repeat = 0;
DROP INDEX IF EXISTS games_daily_results;
CREATE INDEX games_daily_results ON games (daily, outcome, score, daily_repeat)
    WHERE daily IS NOT NULL AND daily_repeat = 0;
"""
    + ACCOUNTS,
    5: RATE_HITS,
    6: ACCOUNTS_7 + ANONYMOUS_HASHED,
    7: OFFLINE,
}
"""SQL that upgrades a database from schema version N to N + 1, keyed by N (after its :data:`ADDED_COLUMNS`).
Games stored before schema 2 were not tracked for assistance: they count as clean (``assisted`` 0). Schema 3
indexes the live games (the few rows the purges and the live-games cap look at), so that neither reads the
finished games. Schema 4 indexes
the daily games by date, outcome and score: a date's results (:meth:`~foursquare.store.DailyGames.results`)
are read from that index alone. Schema 5 adds the accounts (:mod:`~foursquare.store.accounts`): their passkeys, the
browsers signed in, the challenges given out; and ``daily_repeat``: when a browser signs in, its games become the
account's, and of two daily games of one date the later attempt is marked a repeat, which counts in neither the
date's results nor the daily streak (a person's first daily game of a date counts once, however many devices).
Schema 6 adds the requests counted by the rate limits that several servers share (:data:`RATE_HITS`). Schema 7
stores anonymous players under the hash of their cookie (a copy of the database signs nobody in), names the
passkeys, keeps the sessions' last use and device (:data:`ACCOUNTS_7`), and takes the daily games finished after
their date out of it (:data:`ANONYMOUS_HASHED`). Schema 8 adds the games played offline on a device and sent
later (:data:`OFFLINE`)."""

ADDED_COLUMNS: dict[int, tuple[tuple[str, str, str], ...]] = {
    4: (("games", "daily_repeat", "INTEGER NOT NULL DEFAULT 0"),),
    6: (
        ("credentials", "name", "TEXT"),  # the name its owner gave the passkey; NULL: none yet
        ("sessions", "last_seen_at", "TEXT"),  # the browser's last request, to within SESSION_TOUCH
        ("sessions", "device", "TEXT"),  # what the browser said it is when it signed in (a short name)
    ),
    7: (("games", "offline_id", "TEXT"),),
}
"""The columns (table, column, type) that the migration from version N adds first, unless the file has them."""

DAILY_SECRET = "daily"
"""The name, in the ``secrets`` table, of the key from which each date's daily deal number is derived."""

_UNTOUCHED = "it was left untouched — move it away or choose another file with --db"


def new_daily_key() -> str:
    """A new key for the daily deal's HMAC (hex of 32 random bytes), made once with the database."""
    return secrets.token_hex(32)


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
    conn.create_function("fs_stored_player", 1, stored_player, deterministic=True)
    with sqlite.transaction(conn):
        version = sqlite.user_version(conn)  # another process may have done it
        if version == 0:
            sqlite.run_script(conn, SCHEMA)
            version = SCHEMA_VERSION
        while version < SCHEMA_VERSION:
            for table, column, kind in ADDED_COLUMNS.get(version, ()):
                if column not in {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}:
                    conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
            sqlite.run_script(conn, MIGRATIONS[version])
            version += 1
        conn.execute("INSERT OR IGNORE INTO secrets (name, value) VALUES (?, ?)", (DAILY_SECRET, new_daily_key()))
        sqlite.set_user_version(conn, version)
