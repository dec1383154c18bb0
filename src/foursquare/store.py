"""SQLite storage of games: every game, every move, transactionally, and the statistics over them.

The web app (``foursquare serve``) keeps every game here as it is played; the terminal game
(``foursquare play``) records each game it finishes (:meth:`Store.record_game`), and ``foursquare stats``
reads the figures back. Both write the same format, so they may share one file (``games.db`` in the
user's data directory by default, :func:`default_path`); a game belongs to a player (the web's
player cookie, or :data:`TERMINAL_PLAYER`), and the statistics are a player's.

A game is stored as what defines it — its deal number (or stock order), its variant, its player,
the moves played and the moves that ``redo`` would play again — plus the outcome, the score and
timestamps, which are derived data kept for listings and statistics. The engine
(:mod:`foursquare.engine`) is the only rule implementation: a game is rebuilt by replaying its
moves, and every change is made by the engine on the rebuilt game.

Each operation opens its own connection. A change runs in one ``BEGIN IMMEDIATE`` transaction
that re-reads the game, lets the caller apply its change with the engine and writes the result,
so concurrent requests for one game are serialised and a stale request sees the new state.

Each game also records whether it was assisted (undo, restart, hint), the UTC date of a daily deal
and whether it was drawn winnable; the ``secrets`` table keeps the key from which each date's daily
deal number is derived (:func:`daily_deal_number`).

The schema is versioned with ``PRAGMA user_version``. Opening a file that is not a Foursquare
database (or not an SQLite database at all, or a damaged one) raises :class:`StoreError` without
writing a byte to it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import platformdirs

from foursquare.cards import Card, CardError, check_deal_number, parse_stock
from foursquare.engine import Game, Move, Status, Variant, VariantError

__all__ = [
    "COLUMNS", "DAILY_SECRET", "DATA_DIR_ENV", "MAX_SCORE", "MIGRATIONS", "SCHEMA", "SCHEMA_VERSION",
    "TERMINAL_PLAYER", "Clock", "DamagedGameError", "Store", "StoreError", "StoredGame", "UnknownGameError",
    "daily_deal_number", "daily_streaks", "data_dir", "default_path", "new_game_id", "now", "streaks",
    "summarize", "summarize_clean", "system_clock",
]  # fmt: skip

SCHEMA_VERSION = 2
"""The ``PRAGMA user_version`` of the schema this module writes."""

BUSY_TIMEOUT_SECONDS = 30.0
MAX_SCORE = 24
"""The best possible score: a win needs at least 16 cards placed, leaving 24 in the stock."""

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
}
"""SQL that upgrades a database from schema version N to N + 1, keyed by N. Games stored before schema 2
were not tracked for assistance: they count as clean (``assisted`` 0)."""

DAILY_SECRET = "daily"
"""The name, in the ``secrets`` table, of the key from which each date's daily deal number is derived."""

TERMINAL_PLAYER = "terminal"
"""The player of every game the terminal game records (web players are random cookie tokens)."""

DATA_DIR_ENV = "FOURSQUARE_DATA_DIR"
"""Overrides the user's data directory (tests use a temporary one)."""

Clock = Callable[[], datetime]
"""What tells the store the time (an aware UTC datetime); a test may give a frozen one."""


def system_clock() -> datetime:
    return datetime.now(UTC)


T = TypeVar("T")


def data_dir() -> Path:
    """The user's data directory for Foursquare (``~/.local/share/foursquare`` on Linux), not created here."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    return Path(platformdirs.user_data_dir("foursquare", appauthor=False))


def default_path() -> Path:
    """The games database of the terminal game and ``foursquare stats``: ``games.db`` in :func:`data_dir`."""
    return data_dir() / "games.db"


class StoreError(ValueError):
    """The database cannot be used: unreadable, damaged, not ours, or from a newer version.

    ``code`` says which, for a front end's own words (``is_directory``, ``no_directory``, ``cannot_open``,
    ``not_database``, ``damaged``, ``newer``, ``foreign``; empty for the others), ``path`` and ``error`` (the
    database's own English words, if any) the details.
    """

    def __init__(self, message: str, code: str = "", path: object = None, error: object = None) -> None:
        super().__init__(message)
        self.code = code
        self.path = path
        self.error = error


class UnknownGameError(ValueError):
    """No game has this id."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        super().__init__(f"there is no game with id {game_id!r}")


class DamagedGameError(StoreError):
    """A stored game cannot be replayed (the database was edited by hand or damaged)."""


def now(clock: Clock = system_clock) -> str:
    """The current UTC time as ISO-8601 with milliseconds, e.g. ``2026-01-02T03:04:05.678Z``."""
    return clock().astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def daily_deal_number(key: str, day: date) -> int:
    """The deal number of ``day``'s daily deal: the first 8 bytes of HMAC-SHA256(key, the ISO date).

    Without the key (kept in the database, never served) the number cannot be guessed before the game
    ends, and since the shuffle of a deal number is public (:func:`foursquare.cards.deal_stock`), the
    number is what must stay secret.

    >>> daily_deal_number("00" * 32, date(2026, 12, 1)) == daily_deal_number("00" * 32, date(2026, 12, 1))
    True
    """
    digest = hmac.new(bytes.fromhex(key), day.isoformat().encode("ascii"), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def new_game_id() -> str:
    return secrets.token_urlsafe(16)


@dataclass(frozen=True)
class StoredGame:
    """One row of the ``games`` table, decoded."""

    id: str
    player: str
    deal: int | None
    stock: tuple[Card, ...] | None
    deal_hidden: bool
    variant: Variant
    moves: tuple[Move, ...]
    redo: tuple[Move, ...]
    turn: int
    outcome: Status
    reason: str | None
    score: int | None
    analysis: str | None
    created_at: str
    updated_at: str
    assisted: bool = False
    daily: date | None = None
    winnable: bool = False
    finished_at: str | None = None

    @property
    def is_over(self) -> bool:
        return self.outcome != "playing"

    @property
    def visible_deal(self) -> int | None:
        """The deal number as the player may see it: hidden while a random deal is being played."""
        if self.deal_hidden and not self.is_over:
            return None
        return self.deal

    def fresh(self) -> Game:
        """The engine's game at turn 0: this game's deal (or stock) and variant."""
        if self.deal is not None:
            return Game(deal=self.deal, variant=self.variant)
        return Game(stock=self.stock, variant=self.variant)

    def rebuild(self) -> Game:
        """The engine's game in this position, redo list included, by replaying the moves."""
        try:
            game = self.fresh()
            for move in (*self.moves, *self.redo):
                game.place(move.row, move.col)
            for _ in self.redo:
                game.undo()
        except ValueError as exc:
            raise DamagedGameError(f"the stored game {self.id!r} cannot be replayed: {exc}") from None
        if game.turn != self.turn or game.outcome().status != self.outcome:
            raise DamagedGameError(f"the stored game {self.id!r} does not match its moves")
        return game


def _moves_json(moves: list[Move] | tuple[Move, ...]) -> str:
    return json.dumps([m.to_json() for m in moves], separators=(",", ":"))


def _decode_moves(text: str, game_id: str, column: str) -> tuple[Move, ...]:
    try:
        data = json.loads(text)
        if not isinstance(data, list):
            raise TypeError("not a list")
        return tuple(Move.from_json(item) for item in data)
    except (TypeError, ValueError) as exc:  # MoveError is a ValueError
        raise DamagedGameError(f"the stored game {game_id!r} has a malformed {column} list: {exc}") from None


def _decode(row: sqlite3.Row) -> StoredGame:
    game_id = row["id"]
    try:
        deal = None if row["deal"] is None else check_deal_number(int(row["deal"]))
        stock = None if row["stock"] is None else parse_stock(json.loads(row["stock"]))
        variant = Variant(adjacency=row["adjacency"], count_buried=bool(row["count_buried"]))
    except (CardError, VariantError, ValueError) as exc:
        raise DamagedGameError(f"the stored game {game_id!r} is malformed: {exc}") from None
    return StoredGame(
        id=game_id,
        player=row["player"],
        deal=deal,
        stock=stock,
        deal_hidden=bool(row["deal_hidden"]),
        variant=variant,
        moves=_decode_moves(row["moves"], game_id, "moves"),
        redo=_decode_moves(row["redo"], game_id, "redo"),
        turn=row["turn"],
        outcome=row["outcome"],
        reason=row["reason"],
        score=row["score"],
        analysis=row["analysis"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        assisted=bool(row["assisted"]),
        daily=_decode_date(row["daily"], game_id),
        winnable=bool(row["winnable"]),
        finished_at=row["finished_at"],
    )


def _decode_date(text: str | None, game_id: str) -> date | None:
    try:
        return None if text is None else date.fromisoformat(text)
    except ValueError:
        raise DamagedGameError(f"the stored game {game_id!r} has a malformed daily date {text!r}") from None


class Store:
    """The games database at ``path``; checked (and created or migrated) on construction.

    >>> import tempfile, os
    >>> store = Store(os.path.join(tempfile.mkdtemp(), "games.db"))
    >>> game = store.create_game("player-1", deal=17, variant=Variant(), hidden=False)
    >>> stored, _, placement = store.change(game.id, lambda g, s: g.place(0, 0))
    >>> stored.turn, stored.moves
    (1, (Move(row=0, col=0),))
    """

    def __init__(self, path: str | Path, *, clock: Clock = system_clock) -> None:
        self.path = Path(path)
        self.clock = clock
        self._check_and_prepare()
        # Held open for the store's lifetime: closing the last connection to a WAL database makes
        # SQLite checkpoint and delete the WAL, which would cost every request a few fsyncs.
        self._keeper: sqlite3.Connection | None = sqlite3.connect(self.path, check_same_thread=False)
        self._keeper.execute("SELECT count(*) FROM games").fetchone()  # opens the file and the WAL

    def close(self) -> None:
        """Release the database (a store is usable until then)."""
        if self._keeper is not None:
            self._keeper.close()
            self._keeper = None

    # --- opening -----------------------------------------------------------------------------------

    def _check_and_prepare(self) -> None:
        path = self.path
        if path.is_dir():
            raise StoreError(f"{path} is a directory, not a database file", "is_directory", path)
        if not path.parent.is_dir():
            raise StoreError(
                f"cannot create the database {path}: the directory {path.parent} does not exist", "no_directory", path
            )
        try:
            if path.exists():
                # mode=rw: never create, and nothing below writes until the file is known to be ours.
                conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True, timeout=BUSY_TIMEOUT_SECONDS)
            else:
                conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_SECONDS)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {path}: {exc}", "cannot_open", path, exc) from None
        try:
            self._check(conn)
        except sqlite3.Error as exc:
            raise StoreError(
                f"{path} is not a readable Foursquare database ({exc}); it was left untouched — "
                "move it away or choose another file with --db",
                "not_database",
                path,
                exc,
            ) from None
        finally:
            conn.close()

    def _check(self, conn: sqlite3.Connection) -> None:
        conn.isolation_level = None
        conn.execute("PRAGMA schema_version").fetchone()  # reads the header: fails on a non-database file
        problems = [row[0] for row in conn.execute("PRAGMA quick_check").fetchall()]
        if problems != ["ok"]:
            raise StoreError(
                f"the database {self.path} is damaged ({'; '.join(problems[:3])}); it was left untouched — "
                "move it away or choose another file with --db",
                "damaged",
                self.path,
            )
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = sorted(
            row[0]
            for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if not row[0].startswith("sqlite_")
        )
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"the database {self.path} was written by a newer version of Foursquare (schema {version}; "
                f"this version reads schema {SCHEMA_VERSION} and older)",
                "newer",
                self.path,
            )
        if version == 0 and tables:
            raise StoreError(
                f"{self.path} is an SQLite database but not a Foursquare one (it has the tables "
                f"{', '.join(tables)}); it was left untouched — choose another file with --db",
                "foreign",
                self.path,
            )
        if version > 0 and "games" not in tables:
            raise StoreError(f"the database {self.path} is damaged: it has no games table", "damaged", self.path)
        conn.execute("PRAGMA journal_mode = WAL")
        if version < SCHEMA_VERSION:
            self._create_or_migrate(conn)
        columns = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
        missing = sorted(set(COLUMNS) - columns)
        if missing:
            raise StoreError(
                f"the database {self.path} is damaged: the games table lacks {', '.join(missing)}", "damaged", self.path
            )

    def _create_or_migrate(self, conn: sqlite3.Connection) -> None:
        """Create the schema in an empty database, or bring an older one up to date, in one transaction."""
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]  # another process may have done it
            if version == 0:
                for statement in _statements(SCHEMA):
                    conn.execute(statement)
                version = SCHEMA_VERSION
            while version < SCHEMA_VERSION:
                for statement in _statements(MIGRATIONS[version]):
                    conn.execute(statement)
                version += 1
            conn.execute(
                "INSERT OR IGNORE INTO secrets (name, value) VALUES (?, ?)", (DAILY_SECRET, secrets.token_hex(32))
            )
            conn.execute(f"PRAGMA user_version = {int(version)}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    @contextmanager
    def connect(self) -> Iterator[sqlite3.Connection]:
        """A fresh connection in autocommit mode (transactions are explicit), closed afterwards."""
        try:
            conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {self.path}: {exc}") from None
        try:
            conn.row_factory = sqlite3.Row
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
        with self.connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    # --- games -------------------------------------------------------------------------------------

    def create_game(
        self,
        player: str,
        *,
        deal: int | None = None,
        stock: tuple[Card, ...] | None = None,
        variant: Variant,
        hidden: bool,
        winnable: bool = False,
    ) -> StoredGame:
        """Store a new game at turn 0: a numbered deal, or an explicit stock order."""
        if (deal is None) == (stock is None):
            raise ValueError("give a deal number or a stock order, not both or neither")
        with self.transaction() as conn:
            return self._insert(conn, player, deal=deal, stock=stock, variant=variant, hidden=hidden, winnable=winnable)

    def _insert(
        self,
        conn: sqlite3.Connection,
        player: str,
        *,
        deal: int | None,
        stock: tuple[Card, ...] | None,
        variant: Variant,
        hidden: bool,
        winnable: bool = False,
        daily: date | None = None,
        game_id: str | None = None,
    ) -> StoredGame:
        stamp = now(self.clock)
        game_id = game_id or new_game_id()
        conn.execute(
            "INSERT INTO games (id, player, deal, stock, deal_hidden, adjacency, count_buried, created_at,"
            " updated_at, daily, winnable) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                player,
                None if deal is None else str(check_deal_number(deal)),
                None if stock is None else json.dumps([c.name for c in stock]),
                int(hidden),
                variant.adjacency,
                int(variant.count_buried),
                stamp,
                stamp,
                None if daily is None else daily.isoformat(),
                int(winnable),
            ),
        )
        return self._read(conn, game_id)

    def today(self) -> date:
        """The current UTC date, by the store's clock: the date of the daily deal."""
        return self.clock().astimezone(UTC).date()

    def daily_game(self, player: str, variant: Variant) -> tuple[StoredGame, bool]:
        """The player's game of today's daily deal, and whether it was just created.

        A player gets one daily game per UTC date: asking again gives the same game (played or not), so
        the daily streak counts a first attempt, not a replay with the cards known. ``variant`` is used
        only when the game is created.
        """
        day = self.today()
        with self.transaction() as conn:
            row = conn.execute(
                "SELECT id FROM games WHERE player = ? AND daily = ?", (player, day.isoformat())
            ).fetchone()
            if row is not None:
                return self._read(conn, row["id"]), False
            key = conn.execute("SELECT value FROM secrets WHERE name = ?", (DAILY_SECRET,)).fetchone()
            if key is None:
                raise StoreError(f"the database {self.path} is damaged: it has no daily secret")
            deal = daily_deal_number(key["value"], day)
            stored = self._insert(conn, player, deal=deal, stock=None, variant=variant, hidden=True, daily=day)
            return stored, True

    def get(self, game_id: str) -> StoredGame:
        """The stored game, or :class:`UnknownGameError`."""
        with self.connect() as conn:
            return self._read(conn, game_id)

    def _read(self, conn: sqlite3.Connection, game_id: str) -> StoredGame:
        row = conn.execute(f"SELECT {', '.join(COLUMNS)} FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise UnknownGameError(game_id)
        return _decode(row)

    def change(self, game_id: str, apply: Callable[[Game, StoredGame], T]) -> tuple[StoredGame, Game, T]:
        """Change one game atomically.

        In one ``BEGIN IMMEDIATE`` transaction: read the game, rebuild it with the engine, call
        ``apply(game, stored)`` (which checks what it must — the turn, whether the game is over —
        and changes ``game`` with the engine, raising to abandon), then write the game back.
        Returns the stored game as written, the engine's game and what ``apply`` returned.

        A change that takes a card back (undo, or restart after a card was placed) marks the game
        assisted, in the same transaction: the player has seen the card that came next.
        """
        with self.transaction() as conn:
            stored = self._read(conn, game_id)
            game = stored.rebuild()
            result = apply(game, stored)
            took_back = game.turn < stored.turn
            conn.execute("UPDATE games SET assisted = assisted OR ? WHERE id = ?", (took_back, game_id))
            # A game once over takes no change (apply refuses it), so its end is written once.
            self._write_position(conn, game_id, game)
            return self._read(conn, game_id), game, result

    def mark_assisted(self, game_id: str) -> None:
        """Mark a game assisted (its player took a hint)."""
        with self.transaction() as conn:
            conn.execute("UPDATE games SET assisted = 1 WHERE id = ?", (game_id,))

    def record_game(self, game_id: str, player: str, game: Game, *, hidden: bool, assisted: bool) -> StoredGame:
        """Record a game played elsewhere (the terminal game) under ``game_id``, which identifies it for good.

        In one transaction: the game is inserted the first time, and its position written over later. Recording
        the same game again never counts it twice: its place among finished games (``finished_seq``, which
        statistics and streaks follow) is given once, the first time it is recorded over. ``assisted`` is sticky
        (recording a game with ``assisted=True`` before it ends marks it for good), and a game recorded over
        keeps its result when it is recorded again not over (a card taken back after the end, the game left):
        only its next end replaces the result.
        """
        outcome = game.outcome()
        with self.transaction() as conn:
            row = conn.execute("SELECT player, outcome FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                stock = None if game.deal is not None else tuple(game.stock)
                self._insert(
                    conn, player, deal=game.deal, stock=stock, variant=game.variant, hidden=hidden, game_id=game_id
                )
            elif row["player"] != player:
                raise StoreError(f"the game {game_id!r} in {self.path} belongs to another player")
            conn.execute("UPDATE games SET assisted = assisted OR ? WHERE id = ?", (assisted, game_id))
            if outcome.is_over or row is None or row["outcome"] == "playing":
                self._write_position(conn, game_id, game)
            return self._read(conn, game_id)

    def _write_position(self, conn: sqlite3.Connection, game_id: str, game: Game) -> None:
        """Write ``game``'s position; its first end also gives it its place among finished games."""
        outcome = game.outcome()
        stamp = now(self.clock)
        conn.execute(
            "UPDATE games SET moves = ?, redo = ?, turn = ?, outcome = ?, reason = ?, score = ?, updated_at = ?,"
            " finished_seq = CASE WHEN ? AND finished_seq IS NULL"
            "   THEN (SELECT coalesce(max(finished_seq), 0) + 1 FROM games) ELSE finished_seq END,"
            " finished_at = CASE WHEN ? THEN ? ELSE finished_at END"
            " WHERE id = ?",
            (
                _moves_json(game.moves),
                _moves_json(game.redo_moves),
                game.turn,
                outcome.status,
                outcome.reason,
                outcome.score,
                stamp,
                outcome.is_over,
                outcome.is_over,
                stamp,
                game_id,
            ),
        )

    def recent_games(self, player: str, limit: int) -> list[StoredGame]:
        """A player's last ``limit`` finished games, the last one to end first."""
        with self.connect() as conn:
            rows = conn.execute(
                f"SELECT {', '.join(COLUMNS)} FROM games WHERE player = ? AND finished_seq IS NOT NULL"
                " ORDER BY finished_seq DESC LIMIT ?",
                (player, limit),
            ).fetchall()
        return [_decode(row) for row in rows]

    def save_analysis(self, game_id: str, analysis: dict[str, Any]) -> None:
        """Cache the analysis of a finished game: the first one written wins, unless it is of an older ``version``."""
        with self.transaction() as conn:
            conn.execute(
                "UPDATE games SET analysis = ? WHERE id = ?"
                " AND (analysis IS NULL OR coalesce(json_extract(analysis, '$.version'), 1) < ?)",
                (json.dumps(analysis, separators=(",", ":")), game_id, analysis.get("version", 1)),
            )

    def list_games(self, player: str, *, page: int, per_page: int) -> tuple[list[StoredGame], int]:
        """One page of a player's games, newest first, and how many games they have in all."""
        with self.connect() as conn:
            total = conn.execute("SELECT count(*) FROM games WHERE player = ?", (player,)).fetchone()[0]
            rows = conn.execute(
                f"SELECT {', '.join(COLUMNS)} FROM games WHERE player = ? ORDER BY seq DESC LIMIT ? OFFSET ?",
                (player, per_page, (page - 1) * per_page),
            ).fetchall()
        return [_decode(row) for row in rows], total

    def stats(self, player: str) -> dict[str, Any]:
        """A player's statistics over their finished games (see ``docs/api.md``)."""
        with self.connect() as conn:
            rows = conn.execute(
                "SELECT outcome, score, assisted FROM games WHERE player = ? AND finished_seq IS NOT NULL"
                " ORDER BY finished_seq",
                (player,),
            ).fetchall()
            dailies = conn.execute(
                "SELECT daily, outcome FROM games WHERE player = ? AND daily IS NOT NULL ORDER BY daily", (player,)
            ).fetchall()
        results = [(row["outcome"], row["score"] or 0) for row in rows]
        assisted = [bool(row["assisted"]) for row in rows]
        finished = {
            date.fromisoformat(row["daily"]): row["outcome"] == "won" for row in dailies if row["outcome"] != "playing"
        }
        return {
            **summarize(results),
            "assisted": sum(assisted),
            "clean": summarize_clean(results, assisted),
            "daily": {
                "played": len(finished),
                "won": sum(finished.values()),
                **daily_streaks(finished, self.today()),
            },
        }


def summarize(results: list[tuple[str, int]]) -> dict[str, Any]:
    """Statistics of finished games given as (outcome, score) in the order they ended.

    >>> summarize([("won", 5), ("lost", 0), ("won", 3), ("won", 5)])["current_streak"]
    2
    """
    played = len(results)
    won = sum(1 for outcome, _ in results if outcome == "won")
    current, best = streaks([outcome == "won" for outcome, _ in results])
    histogram = [0] * (MAX_SCORE + 1)
    for outcome, score in results:
        if outcome == "won":
            histogram[min(max(score, 0), MAX_SCORE)] += 1
    scores = [score if outcome == "won" else 0 for outcome, score in results]
    return {
        "played": played,
        "won": won,
        "lost": played - won,
        "win_rate": won / played if played else 0.0,
        "current_streak": current,
        "best_streak": best,
        "best_score": max(scores) if scores else None,
        "mean_score": sum(scores) / played if played else None,
        "score_histogram": [{"score": s, "count": n} for s, n in enumerate(histogram)],
    }


def summarize_clean(results: list[tuple[str, int]], assisted: list[bool]) -> dict[str, Any]:
    """Wins, best score and streaks counting clean games only: an assisted game is no clean win.

    An assisted game ends a clean streak as a loss does (skipping it would let a hint taken in a bad
    game protect the streak).

    >>> summarize_clean([("won", 5), ("won", 9), ("won", 3)], [False, True, False])
    {'played': 2, 'won': 2, 'current_streak': 1, 'best_streak': 1, 'best_score': 5}
    """
    pairs = list(zip(results, assisted, strict=True))
    clean = [result for result, helped in pairs if not helped]
    current, best = streaks([outcome == "won" and not helped for (outcome, _), helped in pairs])
    scores = [score if outcome == "won" else 0 for outcome, score in clean]
    return {
        "played": len(clean),
        "won": sum(1 for outcome, _ in clean if outcome == "won"),
        "current_streak": current,
        "best_streak": best,
        "best_score": max(scores) if scores else None,
    }


def streaks(wins: list[bool]) -> tuple[int, int]:
    """The current run of wins (ending with the last game) and the longest one."""
    current = best = 0
    for won in wins:
        current = current + 1 if won else 0
        best = max(best, current)
    return current, best


def daily_streaks(finished: dict[date, bool], today: date) -> dict[str, int]:
    """Consecutive UTC dates with a won daily deal: the run still alive today, and the longest.

    ``finished`` tells, for each date whose daily game is over, whether it was won. The current run
    ends today or, while today's daily is not over, yesterday; a lost daily ends it at once.

    >>> d = date(2026, 12, 1)
    >>> daily_streaks({d - timedelta(days=n): True for n in (6, 5, 4, 2, 1)}, d)
    {'current_streak': 2, 'best_streak': 3}
    """
    best = run = 0
    previous: date | None = None
    for day in sorted(day for day, won in finished.items() if won):
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    yesterday = today - timedelta(days=1)
    alive = previous is not None and (previous == today or (previous == yesterday and today not in finished))
    return {"current_streak": run if alive else 0, "best_streak": best}


def _statements(script: str) -> list[str]:
    """Split a schema script into statements (it has no semicolons inside literals or comments)."""
    lines = [line.split("--", 1)[0] for line in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
