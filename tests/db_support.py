"""Reading and changing a games database behind the store's back, on either engine (tests of damage and of what
was written): the store's own connections, so the SQL is the same on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from foursquare.store import Store


def game_row(database: str, game_id: str) -> dict[str, Any]:
    """The ``games`` row of ``game_id`` as written, column by column."""
    store = Store(database)
    try:
        with store.connect() as conn:
            cursor: Any = conn.execute("SELECT * FROM games WHERE id = ?", (game_id,))
            row = cursor.fetchone()
            names = [column[0] for column in cursor.description]
    finally:
        store.close()
    assert row is not None, f"no game {game_id!r}"
    return dict(zip(names, tuple(row), strict=True))


def tamper(database: str, sql: str, parameters: tuple[Any, ...] = ()) -> int:
    """Run one changing statement in its own transaction, as someone editing the database by hand; rows changed."""
    store = Store(database)
    try:
        with store.transaction() as conn:
            return conn.execute(sql, parameters).rowcount
    finally:
        store.close()
