"""PostgreSQL as the games database: one database shared by several app servers (``serve --db postgresql://…``).

The store's SQL is the one it runs on SQLite (``?`` parameters become psycopg's ``%s`` here); the tables are the
same, with PostgreSQL's types (:data:`SCHEMA`), versioned in the table ``foursquare_schema`` as the SQLite file is
with ``PRAGMA user_version``: both engines are at :data:`~foursquare.store.schema.SCHEMA_VERSION`.

Connections come from psycopg's pool (:class:`psycopg_pool.ConnectionPool`), checked before each use, so that a
database restarted under a running server costs the requests in flight and no more. Every change is one
transaction that first takes the advisory locks of its scope (:meth:`PostgresBackend.transaction`): the same
guarantees as SQLite's one write lock — a move is one transaction, two copies of one move apply once, the live
games' cap holds — while moves of different games commit side by side, whichever server they reach.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any
from weakref import WeakKeyDictionary

import psycopg
import psycopg.conninfo
import psycopg.rows
from psycopg_pool import ConnectionPool, PoolTimeout

from foursquare.store.database import Dialect
from foursquare.store.errors import StoreError, StoreUnavailableError
from foursquare.store.schema import COLUMNS, DAILY_SECRET, SCHEMA_VERSION, new_daily_key

DEFAULT_POOL_SIZE = 16
"""The most connections one store (one app server) keeps open: above the web server's threads that use the
database at once in practice; PostgreSQL's own limit is shared by every server (``max_connections``)."""

CONNECT_TIMEOUT = 10
"""Seconds to wait for the database when a server starts, and for a free connection of the pool."""

AWAY_WAIT = 1.0
"""Seconds a request waits for a connection once the database was found away (a connection lost, or none to be had
while the pool is below its size): the request is answered 503 in a second rather than holding a server thread for
:data:`CONNECT_TIMEOUT`, and the first connection lent again ends it."""

EVERYTHING = 7_340_032_001
"""The advisory lock (64-bit key space) that a change of anything takes exclusively and a scoped one shares."""

SCOPE_LOCKS = 7_340_032
"""The namespace (first key of the two-key space, which never meets the 64-bit one) of the scopes' locks."""

SCHEMA = """
CREATE TABLE foursquare_schema (version INTEGER NOT NULL);
CREATE TABLE games (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    player TEXT NOT NULL,
    deal TEXT,
    stock TEXT,
    deal_hidden INTEGER NOT NULL,
    adjacency TEXT NOT NULL,
    count_buried INTEGER NOT NULL,
    moves TEXT NOT NULL DEFAULT '[]',
    redo TEXT NOT NULL DEFAULT '[]',
    turn INTEGER NOT NULL DEFAULT 0,
    outcome TEXT NOT NULL DEFAULT 'playing',
    reason TEXT,
    score INTEGER,
    finished_seq BIGINT,
    analysis TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    finished_at TEXT,
    assisted INTEGER NOT NULL DEFAULT 0,
    daily TEXT,
    winnable INTEGER NOT NULL DEFAULT 0,
    daily_repeat INTEGER NOT NULL DEFAULT 0,
    offline_id TEXT,
    CHECK ((deal IS NULL) <> (stock IS NULL))
);
CREATE SEQUENCE games_finished_seq;
CREATE INDEX games_by_player ON games (player, seq);
CREATE INDEX games_finished_by_player ON games (player, finished_seq) WHERE finished_seq IS NOT NULL;
CREATE UNIQUE INDEX games_daily_by_player ON games (player, daily) WHERE daily IS NOT NULL AND daily_repeat = 0;
CREATE INDEX games_live_by_player ON games (player, outcome) WHERE outcome = 'playing';
CREATE INDEX games_live_by_update ON games (updated_at) WHERE outcome = 'playing';
CREATE INDEX games_daily_results ON games (daily, outcome, score, daily_repeat)
    WHERE daily IS NOT NULL AND daily_repeat = 0;
CREATE TABLE secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE accounts (player TEXT PRIMARY KEY, user_handle TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL);
CREATE TABLE credentials (
    id TEXT PRIMARY KEY,
    account TEXT NOT NULL,
    public_key BYTEA NOT NULL,
    sign_count BIGINT NOT NULL,
    transports TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_used_at TEXT,
    name TEXT
);
CREATE INDEX credentials_by_account ON credentials (account);
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    account TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_seen_at TEXT,
    device TEXT
);
CREATE INDEX sessions_by_account ON sessions (account);
CREATE INDEX sessions_by_last_seen ON sessions (last_seen_at);
CREATE TABLE challenges (
    challenge TEXT PRIMARY KEY,
    purpose TEXT NOT NULL,
    browser_hash TEXT NOT NULL,
    user_handle TEXT,
    expires_at TEXT NOT NULL
);
CREATE INDEX challenges_by_browser ON challenges (browser_hash, expires_at);
CREATE INDEX challenges_by_expiry ON challenges (expires_at);
CREATE TABLE rate_hits (key TEXT NOT NULL, at DOUBLE PRECISION NOT NULL);
CREATE INDEX rate_hits_by_key ON rate_hits (key, at);
CREATE INDEX rate_hits_by_time ON rate_hits (at);
CREATE UNIQUE INDEX games_offline ON games (offline_id) WHERE offline_id IS NOT NULL;
"""
"""The schema at version 8: SQLite's (:data:`foursquare.store.SCHEMA`, which says what each column holds) in
PostgreSQL's types, and a sequence for the order of finished games."""

MIGRATIONS: dict[int, str] = {
    6: """
ALTER TABLE credentials ADD COLUMN IF NOT EXISTS name TEXT;
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS last_seen_at TEXT;
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS device TEXT;
CREATE INDEX IF NOT EXISTS sessions_by_last_seen ON sessions (last_seen_at);
UPDATE games SET player = 'anon:' || encode(sha256(convert_to(player, 'UTF8')), 'hex')
    WHERE player <> 'terminal' AND substr(player, 1, 5) <> 'anon:' AND player NOT IN (SELECT player FROM accounts);
UPDATE sessions SET last_seen_at = created_at WHERE last_seen_at IS NULL;
UPDATE games SET daily_repeat = 1, assisted = 1
    WHERE daily IS NOT NULL AND finished_at IS NOT NULL AND substr(finished_at, 1, 10) > daily;
""",
    7: """
ALTER TABLE games ADD COLUMN IF NOT EXISTS offline_id TEXT;
CREATE UNIQUE INDEX IF NOT EXISTS games_offline ON games (offline_id) WHERE offline_id IS NOT NULL;
""",
}
"""SQL that upgrades a PostgreSQL database from version N to N + 1, keyed by N (PostgreSQL starts at 6): schema 7
is SQLite's (:data:`foursquare.store.schema.ANONYMOUS_HASHED`), the hash of the cookie computed by PostgreSQL;
schema 8 SQLite's too (:data:`foursquare.store.schema.OFFLINE`)."""


class Row(tuple[Any, ...]):
    """A row whose columns are read by name or by position, as SQLite's rows are."""

    _names: dict[str, int]

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return super().__getitem__(self._names[key])
        return super().__getitem__(key)


def _rows(cursor: psycopg.Cursor[Any]) -> psycopg.rows.RowMaker[Row]:
    """psycopg's row factory for :class:`Row`: one class per query's columns."""
    names = {column.name: i for i, column in enumerate(cursor.description or ())}
    kind = type("Row", (Row,), {"_names": names})
    return lambda values: kind(values)


@lru_cache(maxsize=512)
def adapt(sql: str) -> str:
    """The store's SQL in psycopg's parameter style (``?`` → ``%s``, a literal ``%`` doubled).

    >>> adapt("SELECT id FROM games WHERE player = ? AND moves LIKE '%[%'")
    "SELECT id FROM games WHERE player = %s AND moves LIKE '%%[%%'"
    """
    return sql.replace("%", "%%").replace("?", "%s")


class Connection:
    """A pooled psycopg connection that runs the store's SQL."""

    def __init__(self, raw: psycopg.Connection[Row]) -> None:
        self.raw = raw

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> psycopg.Cursor[Row]:
        return self.raw.execute(adapt(sql), parameters)


def redacted(url: str) -> str:
    """The URL as messages show it: without a password, in its credentials or its query.

    >>> redacted("postgresql://play:secret@db.example.org:5433/foursquare?sslmode=require")
    'postgresql://play@db.example.org:5433/foursquare?sslmode=require'
    >>> redacted("postgresql:///foursquare?host=/run/db&password=secret")
    'postgresql:///foursquare?host=/run/db'
    """
    scheme, _, rest = url.partition("://")
    rest, question, query = rest.partition("?")
    credentials, at, place = rest.rpartition("@")
    if at:
        rest = f"{credentials.partition(':')[0]}@{place}"
    kept = [part for part in query.split("&") if part and not part.lower().startswith("password=")]
    return f"{scheme}://{rest}{question if kept else ''}{'&'.join(kept)}"


def library_words(exc: Exception, url: str, name: str) -> str:
    """psycopg's or libpq's message on one line (libpq writes several), the URL in it without its password."""
    return " ".join(str(exc).replace(url, name).split())


def _key(text: str) -> int:
    """A stable 32-bit signed key for ``text`` (a lock's second key: two texts that share one only wait longer)."""
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=4).digest(), "big", signed=True)


class PostgresBackend:
    """The PostgreSQL database at ``url``: checked (created or migrated) on construction, then a pool."""

    dialect: Dialect = "postgresql"
    next_finished_seq = "nextval('games_finished_seq')"
    returns_rows = True

    def __init__(self, url: str, *, read_only: bool = False, pool_size: int | None = None) -> None:
        self.name = redacted(url)
        try:
            given = psycopg.conninfo.conninfo_to_dict(url)
        except psycopg.ProgrammingError as exc:
            raise StoreError(
                f"{self.name} is not a PostgreSQL URL that can be read: {library_words(exc, url, self.name)}",
                "bad_url",
                self.name,
                library_words(exc, url, self.name),
            ) from None
        options = {"autocommit": True, "row_factory": _rows, "connect_timeout": CONNECT_TIMEOUT}
        if read_only:  # after the URL's own options (a search_path, say), which this would otherwise replace
            options["options"] = f"{given.get('options') or ''} -c default_transaction_read_only=on".strip()
        self._prepare(url, options, read_only)
        size = pool_size or DEFAULT_POOL_SIZE
        self._pool: ConnectionPool[psycopg.Connection[Row]] = ConnectionPool(
            url,
            min_size=min(2, size),
            max_size=size,
            kwargs=options,
            timeout=CONNECT_TIMEOUT,
            check=_check_if_idle,
            reset=_note_return,
            name="foursquare",
            open=False,
        )
        self._away = False  # the database was found away by the last request that could not get a connection
        try:
            self._pool.open(wait=True, timeout=CONNECT_TIMEOUT)
        except PoolTimeout:
            self._pool.close()
            raise StoreError(f"cannot open the database {self.name}: no connection", "cannot_open", self.name) from None

    def _prepare(self, url: str, options: dict[str, Any], read_only: bool) -> None:
        try:
            with psycopg.connect(url, **options) as raw:
                check(Connection(raw), self.name, create=not read_only)
        except psycopg.OperationalError as exc:
            error = library_words(exc, url, self.name)
            message = f"cannot open the database {self.name}: {error}"
            raise StoreError(message, "cannot_open", self.name, error) from None

    def close(self) -> None:
        self._pool.close()

    def schema_version(self, timeout: float) -> int:
        """The version in ``foursquare_schema``, on a connection lent within ``timeout`` seconds (the pool checks it
        first when it rested); :class:`StoreUnavailableError` when none can be had or it breaks."""
        try:
            with self._pool.connection(timeout=timeout) as raw:
                row = raw.execute("SELECT version FROM foursquare_schema").fetchone()
                self._away = False
        except (PoolTimeout, psycopg.OperationalError):
            self._away = True
            raise StoreUnavailableError(f"cannot reach the database {self.name}", "cannot_open", self.name) from None
        if row is None:
            raise StoreError(f"the database {self.name} is damaged: it has no schema version", "damaged", self.name)
        return int(row[0])

    def pool_stats(self) -> dict[str, int]:
        return {name: int(value) for name, value in self._pool.get_stats().items()}

    @contextmanager
    def connect(self) -> Iterator[Connection]:
        with self._connection() as raw:
            yield Connection(raw)

    @contextmanager
    def transaction(self, scope: str | None = None) -> Iterator[Connection]:
        """One transaction that first takes the locks of its ``scope`` (a game's, a player's…), or of everything.

        A scoped change shares the lock of everything and holds its scope's; a change of anything holds the lock
        of everything, so it waits for the scoped ones in flight and they wait for it. Locks are taken in that
        order only, so no two transactions ever wait for each other.
        """
        with self._connection() as raw, raw.transaction():
            conn = Connection(raw)
            if scope is None:
                conn.execute("SELECT pg_advisory_xact_lock(?::bigint)", (EVERYTHING,))
            else:
                # One round trip; PostgreSQL computes a select list in its order, so the shared lock comes first.
                conn.execute(
                    "SELECT pg_advisory_xact_lock_shared(?::bigint), pg_advisory_xact_lock(?::integer, ?::integer)",
                    (EVERYTHING, SCOPE_LOCKS, _key(scope)),
                )
            yield conn

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Row]]:
        try:
            with self._pool.connection(timeout=AWAY_WAIT if self._away else CONNECT_TIMEOUT) as raw:
                self._away = False
                try:
                    yield raw
                except psycopg.OperationalError as exc:
                    if not raw.broken:  # the statement failed, not the connection: the caller's to handle
                        raise
                    self._away = True
                    raise StoreUnavailableError(
                        f"lost the connection to the database {self.name}", "cannot_open", self.name, exc
                    ) from None
        except PoolTimeout:
            # Below its size the pool could not even open a connection: the database is away. At its size, every
            # connection is in use: a busy server, whose next requests should wait as long as ever.
            self._away = self._pool.get_stats()["pool_size"] < self._pool.max_size
            raise StoreUnavailableError(f"cannot reach the database {self.name}", "cannot_open", self.name) from None


OWN_TABLES = """
SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
  AND NOT EXISTS (SELECT 1 FROM pg_depend d
                  WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
"""
"""The tables of the current schema, but for an extension's (``pg_stat_statements``'s views, PostGIS's tables):
an extension installed in the database does not make it another application's."""


CHECK_AFTER_IDLE = 2.0
"""Seconds a pooled connection may rest and still be lent without a check: a connection in constant use is known
to work, and a round trip a request is an eighth of the moves a server takes; one that rested (through a restart
of the database, say) is checked, so that a request never gets a connection the database closed meanwhile."""

_last_returned: WeakKeyDictionary[psycopg.Connection[Any], float] = WeakKeyDictionary()


def _note_return(conn: psycopg.Connection[Any]) -> None:
    _last_returned[conn] = time.monotonic()


def _check_if_idle(conn: psycopg.Connection[Any]) -> None:
    if time.monotonic() - _last_returned.get(conn, -CHECK_AFTER_IDLE) >= CHECK_AFTER_IDLE:
        ConnectionPool.check_connection(conn)


def check(conn: Connection, name: str, *, create: bool) -> None:
    """Check that the database is a Foursquare one, or has none of our tables yet; create or migrate it.

    A database with other tables and none of ours is refused without a statement that writes; so is one of a
    newer schema. Creating and migrating hold the lock of everything, so servers starting together do it once.
    """
    with conn.raw.transaction():
        if create:
            conn.execute("SELECT pg_advisory_xact_lock(?::bigint)", (EVERYTHING,))
        tables = {row[0] for row in conn.execute(OWN_TABLES).fetchall()}
        if "foursquare_schema" not in tables:
            if tables:
                raise StoreError(
                    f"{name} is a PostgreSQL database but not a Foursquare one (it has the tables "
                    f"{', '.join(sorted(tables)[:8])}); it was left untouched — choose another database with --db",
                    "foreign_database",
                    name,
                )
            if not create:
                raise StoreError(f"there is no Foursquare database in {name}", "missing", name)
            _create(conn)
            return
        version = _version(conn, name)
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"the database {name} was written by a newer version of Foursquare (schema {version}; "
                f"this version reads schema {SCHEMA_VERSION} and older)",
                "newer",
                name,
            )
        if version < SCHEMA_VERSION and create:
            for step in range(version, SCHEMA_VERSION):
                _run(conn, MIGRATIONS[step])
            conn.execute("UPDATE foursquare_schema SET version = ?", (SCHEMA_VERSION,))
        _check_columns(conn, name)


def _create(conn: Connection) -> None:
    _run(conn, SCHEMA)
    conn.execute("INSERT INTO foursquare_schema (version) VALUES (?)", (SCHEMA_VERSION,))
    conn.execute("INSERT INTO secrets (name, value) VALUES (?, ?)", (DAILY_SECRET, new_daily_key()))


def _run(conn: Connection, script: str) -> None:
    for statement in script.split(";\n"):
        if statement.strip():
            conn.execute(statement)


def _version(conn: Connection, name: str) -> int:
    rows = conn.execute("SELECT version FROM foursquare_schema").fetchall()
    if len(rows) != 1:
        raise StoreError(f"the database {name} is damaged: its schema version is not one row", "damaged", name)
    return int(rows[0][0])


def _check_columns(conn: Connection, name: str) -> None:
    columns = {
        row[0]
        for row in conn.execute(
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = 'games'"
        ).fetchall()
    }
    missing = sorted(set(COLUMNS) - columns)
    if missing:
        raise StoreError(f"the database {name} is damaged: the games table lacks {', '.join(missing)}", "damaged", name)
