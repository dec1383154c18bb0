"""The stored games: one row each, decoded into a :class:`StoredGame`; creating, reading, changing, recording.

A game is stored as what defines it — its deal number (or stock order), its variant, its player, the moves
played and the moves that ``redo`` would play again — plus the outcome, the score and timestamps, which are
derived data kept for listings and statistics. The engine (:mod:`foursquare.engine`) is the only rule
implementation: a game is rebuilt by replaying its moves, and every change is made by the engine on the
rebuilt game, in one transaction that re-reads the game first.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any, TypeVar

from foursquare.cards import Card, CardError, check_deal_number, parse_stock
from foursquare.engine import Game, Move, Status, Variant, VariantError
from foursquare.store.database import Connection, Database, Repository, Row, game_scope, now, player_scope
from foursquare.store.errors import (
    DamagedGameError,
    OfflineGameError,
    StoreError,
    TooManyGamesError,
    UnknownGameError,
)
from foursquare.store.schema import COLUMNS

TERMINAL_PLAYER = "terminal"
"""The player of every game the terminal game records (a web player is an account's id or the hash of a cookie)."""

T = TypeVar("T")

log = logging.getLogger(__name__)

_MARK_ASSISTED = "UPDATE games SET assisted = CASE WHEN ? THEN 1 ELSE assisted END WHERE id = ?"
"""Marks a game assisted when the parameter is true; an assisted game stays so."""

_SELECT = f"SELECT {', '.join(COLUMNS)} FROM games"


def new_game_id() -> str:
    return secrets.token_urlsafe(16)


def count_live(conn: Connection, player: str) -> int:
    """How many games ``player`` has in play (outcome ``playing``, moved or not), read from an index alone."""
    count: int = conn.execute(
        "SELECT count(*) FROM games WHERE player = ? AND outcome = 'playing'", (player,)
    ).fetchone()[0]
    return count


def check_same_offline_game(stored: StoredGame, player: str, offline_id: str, game: Game) -> None:
    """Raise :class:`OfflineGameError` unless ``game`` may be recorded over ``stored``, the game the device's
    ``offline_id`` names: the same player's, deal and rules, and, once over, the same moves or fewer of them (an
    earlier sending that arrived late)."""
    if stored.player != player:
        raise OfflineGameError(f"the offline game {offline_id!r} is another player's", "not_yours", offline_id)
    deal = (game.deal, None if game.deal is not None else tuple(game.stock), game.variant)
    if deal != (stored.deal, stored.stock, stored.variant):
        raise OfflineGameError(f"the offline game {offline_id!r} was sent with another deal", "other_deal", offline_id)
    if stored.is_over and stored.moves[: len(game.moves)] != tuple(game.moves):
        raise OfflineGameError(f"the offline game {offline_id!r} is over: it cannot change", "over", offline_id)


def make_sure_of_room(conn: Connection, player: str, live_limit: int | None) -> None:
    """Raise :class:`TooManyGamesError` if ``player`` already has ``live_limit`` live games (``None``: no limit).

    Called inside the transaction that inserts the game, so that concurrent requests cannot pass the limit.
    """
    if live_limit is not None and count_live(conn, player) >= live_limit:
        raise TooManyGamesError(live_limit)


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
    offline: bool = False
    """Played offline on a device and sent later (:meth:`Games.record_offline`): never clean, never daily."""
    read_on: date | None = None
    """The UTC date when the row was read (it decides whether a daily deal is still secret)."""

    @property
    def is_over(self) -> bool:
        return self.outcome != "playing"

    @property
    def daily_secret(self) -> bool:
        """A daily game whose UTC day was not over when it was read: even played, its deal tells the others' future."""
        return self.daily is not None and (self.read_on is None or self.daily >= self.read_on)

    @property
    def daily_late(self) -> bool:
        """A daily game played on after its UTC date ended (finished then, or still open): other games of that date
        show its deal by then, so it counts neither as that date's daily game nor as clean (:meth:`Games.change`
        marks it so when it is played on)."""
        if self.daily is None:
            return False
        if self.finished_at is not None:
            return self.finished_at[:10] > self.daily.isoformat()
        return self.read_on is not None and self.read_on > self.daily

    @property
    def visible_deal(self) -> int | None:
        """The deal number as the player may see it: hidden while a random deal is played, a daily one all its day."""
        if (self.deal_hidden and not self.is_over) or self.daily_secret:
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


def _decode_date(text: str | None, game_id: str) -> date | None:
    try:
        return None if text is None else date.fromisoformat(text)
    except ValueError:
        raise DamagedGameError(f"the stored game {game_id!r} has a malformed daily date {text!r}") from None


def _analysis_version(text: str | None) -> int:
    """The ``version`` of a cached analysis (1 if it names none); 0 for none cached, or one that cannot be read."""
    if text is None:
        return 0
    try:
        cached = json.loads(text)
    except ValueError:
        return 0
    version = cached.get("version", 1) if isinstance(cached, dict) else 0
    return version if isinstance(version, int) else 0


def decode(row: Row, read_on: date | None = None) -> StoredGame:
    """A row of ``games`` (all of :data:`~foursquare.store.COLUMNS`) as a :class:`StoredGame` read on ``read_on``."""
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
        offline=row["offline_id"] is not None,
        read_on=read_on,
    )


def read_game(conn: Connection, game_id: str, read_on: date) -> StoredGame:
    """The game ``game_id`` as ``conn`` reads it on ``read_on``, or :class:`UnknownGameError`."""
    row = conn.execute(f"{_SELECT} WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise UnknownGameError(game_id)
    return decode(row, read_on)


def insert_game(
    conn: Connection,
    database: Database,
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
    """Insert a new game at turn 0 inside the caller's transaction; the game as stored."""
    stamp = now(database.clock)
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
    return read_game(conn, game_id, database.today())


class Games(Repository):
    """The games of the database (``store.games``): created, read, changed with the engine, recorded from
    elsewhere, listed.

    >>> import tempfile, os
    >>> from foursquare.store import Store
    >>> store = Store(os.path.join(tempfile.mkdtemp(), "games.db"))
    >>> game = store.games.create("player-1", deal=17, variant=Variant(), hidden=False)
    >>> stored, _, _ = store.games.change(game.id, lambda g, s: g.place(0, 0))
    >>> stored.turn, store.games.get(game.id).moves, store.games.live_count("player-1")
    (1, (Move(row=0, col=0),), 1)
    """

    def create(
        self,
        player: str,
        *,
        deal: int | None = None,
        stock: tuple[Card, ...] | None = None,
        variant: Variant,
        hidden: bool,
        winnable: bool = False,
        live_limit: int | None = None,
    ) -> StoredGame:
        """Store a new game at turn 0: a numbered deal, or an explicit stock order.

        With ``live_limit``, a player who already has that many live games gets :class:`TooManyGamesError`
        instead, checked in the transaction that stores the game.
        """
        if (deal is None) == (stock is None):
            raise ValueError("give a deal number or a stock order, not both or neither")
        with self.database.transaction(player_scope(player)) as conn:
            make_sure_of_room(conn, player, live_limit)
            return insert_game(
                conn, self.database, player, deal=deal, stock=stock, variant=variant, hidden=hidden, winnable=winnable
            )

    def live_count(self, player: str) -> int:
        """How many games ``player`` has in play (moved or not): what ``live_limit`` counts."""
        with self.database.connect() as conn:
            return count_live(conn, player)

    def get(self, game_id: str) -> StoredGame:
        """The stored game, or :class:`UnknownGameError`."""
        with self.database.connect() as conn:
            return read_game(conn, game_id, self.database.today())

    def change(self, game_id: str, apply: Callable[[Game, StoredGame], T]) -> tuple[StoredGame, Game, T]:
        """Change one game atomically.

        In one transaction of the game's scope (SQLite: ``BEGIN IMMEDIATE``): read the game, rebuild it with the
        engine, call ``apply(game, stored)`` (which checks what it must — the turn, whether the game is over —
        and changes ``game`` with the engine, raising to abandon), then write the game back.
        Returns the stored game as written, the engine's game and what ``apply`` returned.

        A change that takes a card back (undo, or restart after a card was placed) marks the game
        assisted, in the same transaction: the player has seen the card that came next. So does any change of a
        daily game after its date ended (:attr:`StoredGame.daily_late`), which also makes it a repeat: once the
        date's finished games show its deal, this one may be played with the whole stock known.
        """
        with self.database.transaction(game_scope(game_id)) as conn:
            stored = read_game(conn, game_id, self.database.today())
            game = stored.rebuild()
            result = apply(game, stored)
            if game.turn < stored.turn:  # not on every move: a statement a move is a share of PostgreSQL's work
                conn.execute("UPDATE games SET assisted = 1 WHERE id = ?", (game_id,))
            if stored.daily_late:
                conn.execute("UPDATE games SET assisted = 1, daily_repeat = 1 WHERE id = ?", (game_id,))
            # A game once over takes no change (apply refuses it), so its end is written once.
            return self._write_position(conn, game_id, game), game, result

    def mark_assisted(self, game_id: str) -> None:
        """Mark a game assisted (its player took a hint)."""
        with self.database.transaction(game_scope(game_id)) as conn:
            conn.execute("UPDATE games SET assisted = 1 WHERE id = ?", (game_id,))

    def record(self, game_id: str, player: str, game: Game, *, hidden: bool, assisted: bool) -> StoredGame:
        """Record a game played elsewhere (the terminal game) under ``game_id``, which identifies it for good.

        In one transaction: the game is inserted the first time, and its position written over later. Recording
        the same game again never counts it twice: its place among finished games (``finished_seq``, which
        statistics and streaks follow) is given once, the first time it is recorded over. ``assisted`` is sticky
        (recording a game with ``assisted=True`` before it ends marks it for good), and a game recorded over
        keeps its result when it is recorded again not over (a card taken back after the end, the game left):
        only its next end replaces the result.
        """
        outcome = game.outcome()
        with self.database.transaction() as conn:
            row = conn.execute("SELECT player, outcome FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                stock = None if game.deal is not None else tuple(game.stock)
                insert_game(
                    conn,
                    self.database,
                    player,
                    deal=game.deal,
                    stock=stock,
                    variant=game.variant,
                    hidden=hidden,
                    game_id=game_id,
                )
            elif row["player"] != player:
                raise StoreError(f"the game {game_id!r} in {self.database.name} belongs to another player")
            conn.execute(_MARK_ASSISTED, (assisted, game_id))
            if outcome.is_over or row is None or row["outcome"] == "playing":
                self._write_position(conn, game_id, game)
            return read_game(conn, game_id, self.database.today())

    def record_offline(
        self, player: str, offline_id: str, game: Game, *, live_limit: int | None = None
    ) -> tuple[StoredGame, bool]:
        """Record a game that ``player`` played offline, on a device that names it ``offline_id``; and whether it
        was new. Sent again, it is the same game: stored once, its position written over while it is not over.

        It counts in the player's statistics like any game but never as clean (it is stored assisted: its stock
        was on the device) nor as a daily game. Raises :class:`OfflineGameError` when the id is another player's
        game, or a game of another deal or rules, or a game over that the record would change; and, for a new
        game not over, :class:`TooManyGamesError` past ``live_limit``.
        """
        with self.database.transaction() as conn:  # everything: two servers sent one new game never insert it twice
            row = conn.execute("SELECT id FROM games WHERE offline_id = ?", (offline_id,)).fetchone()
            if row is None:
                if not game.outcome().is_over:
                    make_sure_of_room(conn, player, live_limit)
                stock = None if game.deal is not None else tuple(game.stock)
                stored = insert_game(
                    conn, self.database, player, deal=game.deal, stock=stock, variant=game.variant, hidden=False
                )
                conn.execute("UPDATE games SET offline_id = ?, assisted = 1 WHERE id = ?", (offline_id, stored.id))
                return self._write_position(conn, stored.id, game), True
            stored = read_game(conn, row["id"], self.database.today())
            check_same_offline_game(stored, player, offline_id, game)
            if stored.is_over:
                return stored, False
            return self._write_position(conn, stored.id, game), False

    def _write_position(self, conn: Connection, game_id: str, game: Game) -> StoredGame:
        """Write ``game``'s position (its first end also gives it its place among finished games); the row as
        written (``RETURNING`` where the engine has it: on PostgreSQL a round trip of a move's few)."""
        outcome = game.outcome()
        stamp = now(self.database.clock)
        backend = self.database.backend
        sql = (
            "UPDATE games SET moves = ?, redo = ?, turn = ?, outcome = ?, reason = ?, score = ?, updated_at = ?,"
            " finished_seq = CASE WHEN ? AND finished_seq IS NULL"
            f"   THEN {backend.next_finished_seq} ELSE finished_seq END,"
            " finished_at = CASE WHEN ? THEN ? ELSE finished_at END"
            " WHERE id = ?"
        )
        position = (_moves_json(game.moves), _moves_json(game.redo_moves), game.turn, outcome.status, outcome.reason,
                    outcome.score, stamp, outcome.is_over, outcome.is_over, stamp, game_id)  # fmt: skip
        if not backend.returns_rows:
            conn.execute(sql, position)
            return read_game(conn, game_id, self.database.today())
        row = conn.execute(f"{sql} RETURNING {', '.join(COLUMNS)}", position).fetchone()
        return decode(row, self.database.today())

    def recent(self, player: str, limit: int) -> list[StoredGame]:
        """A player's last ``limit`` finished games, the last one to end first."""
        with self.database.connect() as conn:
            rows = conn.execute(
                f"{_SELECT} WHERE player = ? AND finished_seq IS NOT NULL ORDER BY finished_seq DESC LIMIT ?",
                (player, limit),
            ).fetchall()
        return [decode(row, self.database.today()) for row in rows]

    def save_analysis(self, game_id: str, analysis: dict[str, Any]) -> None:
        """Cache the analysis of a finished game: the first one written wins, unless it is of an older ``version``."""
        with self.database.transaction(game_scope(game_id)) as conn:
            row = conn.execute("SELECT analysis FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None or _analysis_version(row["analysis"]) >= analysis.get("version", 1):
                return
            conn.execute(
                "UPDATE games SET analysis = ? WHERE id = ?", (json.dumps(analysis, separators=(",", ":")), game_id)
            )

    def page(self, player: str, *, page: int, per_page: int) -> tuple[list[StoredGame], int]:
        """One page of a player's games, newest first, and how many games they have in all.

        A damaged row is left out of the page and logged, so that one bad row does not hide every other game;
        ``total`` still counts it.
        """
        with self.database.connect() as conn:
            total = conn.execute("SELECT count(*) FROM games WHERE player = ?", (player,)).fetchone()[0]
            rows = conn.execute(
                f"{_SELECT} WHERE player = ? ORDER BY seq DESC LIMIT ? OFFSET ?",
                (player, per_page, (page - 1) * per_page),
            ).fetchall()
        games = []
        for row in rows:
            try:
                games.append(decode(row, self.database.today()))
            except DamagedGameError as exc:
                log.warning("left out of a game list: %s", exc)
        return games, total
