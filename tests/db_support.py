"""Reading and changing a games database behind the store's back, on either engine (tests of damage and of what
was written): the store's own connections, so the SQL is the same on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from foursquare.store import Store


def game_row(database: str, game_id: str) -> dict[str, Any]:
    """The ``games`` row of ``game_id`` as written, column by column."""
    store = Store(database)
    try:
        with store.database.connect() as conn:
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
        with store.database.transaction() as conn:
            return conn.execute(sql, parameters).rowcount
    finally:
        store.close()


def every_value(store: Store) -> str:
    """Every value of every table of the store's database, as text (what someone who stole it would read)."""
    if store.database.backend.dialect == "sqlite":
        listing = "SELECT name FROM sqlite_master WHERE type = 'table'"
    else:
        listing = "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
    with store.database.connect() as conn:
        tables = [row[0] for row in conn.execute(listing).fetchall()]
        rows = [tuple(row) for table in tables for row in conn.execute(f'SELECT * FROM "{table}"').fetchall()]
    return "\n".join(repr(row) for row in rows)
