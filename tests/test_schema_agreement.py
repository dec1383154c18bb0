"""The games database's schema is written twice, once per engine (:data:`foursquare.store.schema.SCHEMA` for SQLite,
:data:`foursquare.store.postgres.SCHEMA` for PostgreSQL): these tests create both and compare what each engine says
it made — the tables, their columns (types mapped: SQLite's INTEGER is PostgreSQL's INTEGER or BIGINT…), NOT NULL,
defaults, the primary, unique and foreign keys, the checks, and the indexes (names, columns, uniqueness, a partial
index's WHERE) — so that a change to one schema without the other fails here. The comparison itself is shown to
fail on a copy of either schema that gains, loses or changes one thing. A database migrated from an old schema
must also end up as a new one is made, on both engines.

The differences that are the engines' own and not the schema's are left out by name: PostgreSQL's
``foursquare_schema`` table (SQLite keeps the version in ``PRAGMA user_version``) and its sequence of finished
games (SQLite's ``finished_seq`` is computed under its one write lock), and SQLite's ``sqlite_`` tables.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from foursquare.store import SCHEMA_VERSION, Store
from test_api_share import SCHEMA_1

Description = dict[str, Any]

TYPES = {
    "integer": "integer", "bigint": "integer", "int": "integer", "smallint": "integer",
    "text": "text", "blob": "bytes", "bytea": "bytes", "real": "real", "double precision": "real",
}  # fmt: skip
"""Each engine's column types as one name: what the store may write in the column and read back."""

ENGINE_OWN_TABLES = {"foursquare_schema"}
"""PostgreSQL's table of the schema version (SQLite's is ``PRAGMA user_version``)."""


def normal(sql: str | None) -> str | None:
    """An expression (a check, a default, a partial index's WHERE) as either engine writes it back, in one form:
    lower case, without PostgreSQL's casts (``'playing'::text``), parentheses and spaces.

    >>> normal("WHERE ((daily IS NOT NULL) AND (outcome = 'playing'::text))")
    "wheredailyisnotnullandoutcome='playing'"
    >>> normal("CHECK ((deal IS NULL) <> (stock IS NULL))") == normal("CHECK (((deal IS NULL) <> (stock IS NULL)))")
    True
    """
    if sql is None:
        return None
    sql = re.sub(r"::(?:double precision|character varying|[a-z]+)", "", sql.lower())
    return re.sub(r"[\s()]", "", sql)


def columns_of(text: str) -> tuple[str, ...]:
    return tuple(part.strip().strip('"') for part in text.split(","))


# --- what SQLite made -----------------------------------------------------------------------------------------


def describe_sqlite(conn: sqlite3.Connection) -> Description:
    """The tables and indexes of an SQLite database, as :func:`compare` takes them."""
    tables: Description = {}
    names = [
        row[0]
        for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        if not row[0].startswith("sqlite_")
    ]
    for table in names:
        info = conn.execute(f"PRAGMA table_info({table})").fetchall()  # cid, name, type, notnull, default, pk
        primary = tuple(row[1] for row in sorted((row for row in info if row[5]), key=lambda row: row[5]))
        columns = {row[1]: (TYPES[row[2].lower()], bool(row[3]) or row[1] in primary, normal(row[4])) for row in info}
        unique = set()
        for index in conn.execute(f"PRAGMA index_list({table})").fetchall():  # seq, name, unique, origin, partial
            if index[3] == "u":
                unique.add(tuple(row[2] for row in conn.execute(f"PRAGMA index_info({index[1]})")))
        foreign = {
            (row[3], row[2], row[4]) for row in conn.execute(f"PRAGMA foreign_key_list({table})").fetchall()
        }  # (column, table, its column)
        sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
        checks = {normal(f"CHECK {match}") for match in _checks(sql)}
        tables[table] = {
            "columns": columns,
            "primary_key": primary,
            "unique": unique,
            "foreign_keys": foreign,
            "checks": checks,
        }
    indexes = {}
    for name, table, sql in conn.execute(
        "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
    ):
        found = re.fullmatch(
            r"CREATE (UNIQUE )?INDEX (?:IF NOT EXISTS )?\w+ ON \w+ \(([^)]*)\)(?:\s+WHERE (.*))?",
            " ".join(sql.split()),
            re.IGNORECASE,
        )
        assert found, sql
        indexes[name] = (table, columns_of(found[2]), bool(found[1]), normal(found[3]))
    return {"tables": tables, "indexes": indexes}


def _checks(sql: str) -> Iterator[str]:
    """The CHECK constraints' expressions of a CREATE TABLE statement (parentheses balanced, comments left out)."""
    sql = re.sub(r"--[^\n]*", "", sql)
    for match in re.finditer(r"\bCHECK\s*\(", sql, re.IGNORECASE):
        depth, start = 0, match.end() - 1
        for position in range(start, len(sql)):
            depth += {"(": 1, ")": -1}.get(sql[position], 0)
            if depth == 0:
                yield sql[start : position + 1]
                break


# --- what PostgreSQL made -------------------------------------------------------------------------------------


def describe_postgres(conn: Any) -> Description:
    """The tables and indexes of the current schema of a PostgreSQL database, as :func:`compare` takes them."""
    tables: Description = {}
    names = [
        row[0]
        for row in conn.execute(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name"
        )
        if row[0] not in ENGINE_OWN_TABLES
    ]
    for table in names:
        columns = {
            name: (TYPES[kind], nullable == "NO", None if default is None or identity == "YES" else normal(default))
            for name, kind, nullable, default, identity in conn.execute(
                "SELECT column_name, data_type, is_nullable, column_default, is_identity"
                " FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = %s",
                (table,),
            )
        }
        constraints: dict[str, set[Any]] = {"p": set(), "u": set(), "f": set(), "c": set()}
        for kind, definition in conn.execute(
            "SELECT contype, pg_get_constraintdef(c.oid) FROM pg_constraint c"
            " JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace"
            " WHERE n.nspname = current_schema() AND t.relname = %s",
            (table,),
        ):
            if kind in "pu":
                constraints[kind].add(columns_of(re.fullmatch(r"(?:PRIMARY KEY|UNIQUE) \((.*)\)", definition)[1]))
            elif kind == "f":
                found = re.fullmatch(r"FOREIGN KEY \((.*)\) REFERENCES (\w+)\((.*)\)", definition)
                constraints["f"].add((found[1], found[2], found[3]))
            elif kind == "c":
                constraints["c"].add(normal(definition))
        tables[table] = {
            "columns": columns,
            "primary_key": next(iter(constraints["p"]), ()),
            "unique": constraints["u"],
            "foreign_keys": constraints["f"],
            "checks": constraints["c"],
        }
    indexes = {}
    for name, table, definition in conn.execute(
        "SELECT i.indexname, i.tablename, i.indexdef FROM pg_indexes i WHERE i.schemaname = current_schema()"
        " AND NOT EXISTS (SELECT 1 FROM pg_constraint c JOIN pg_class x ON x.oid = c.conindid"
        "                 JOIN pg_namespace n ON n.oid = x.relnamespace"
        "                 WHERE x.relname = i.indexname AND n.nspname = i.schemaname)"
    ):
        found = re.fullmatch(
            r"CREATE (UNIQUE )?INDEX \w+ ON [\w.]+ USING btree \(([^)]*)\)(?: WHERE (.*))?", definition
        )
        assert found, definition
        indexes[name] = (table, columns_of(found[2]), bool(found[1]), normal(found[3]))
    return {"tables": tables, "indexes": indexes}


# --- the comparison ---------------------------------------------------------------------------------------------


def compare(sqlite_schema: Description, postgres_schema: Description) -> list[str]:
    """What one engine's schema has that the other's lacks or has otherwise, one line each; empty when they agree."""
    differences = []
    left, right = sqlite_schema["tables"], postgres_schema["tables"]
    for table in sorted(left.keys() ^ right.keys()):
        differences.append(f"the table {table} is only in {'SQLite' if table in left else 'PostgreSQL'}'s schema")
    for table in sorted(left.keys() & right.keys()):
        one, other = left[table], right[table]
        for column in sorted(one["columns"].keys() | other["columns"].keys()):
            mine, theirs = one["columns"].get(column), other["columns"].get(column)
            if mine != theirs:
                differences.append(f"{table}.{column}: SQLite (type, not null, default) {mine}, PostgreSQL {theirs}")
        for part in ("primary_key", "unique", "foreign_keys", "checks"):
            if one[part] != other[part]:
                differences.append(f"{table}'s {part}: SQLite {one[part]}, PostgreSQL {other[part]}")
    left, right = sqlite_schema["indexes"], postgres_schema["indexes"]
    for name in sorted(left.keys() | right.keys()):
        if left.get(name) != right.get(name):
            differences.append(f"the index {name}: SQLite (table, columns, unique, where) {left.get(name)}, "
                               f"PostgreSQL {right.get(name)}")  # fmt: skip
    return differences


# --- the tests ----------------------------------------------------------------------------------------------------


def new_sqlite(path: Path) -> sqlite3.Connection:
    Store(path).close()
    return sqlite3.connect(path, isolation_level=None)


@contextmanager
def postgres(url: str) -> Iterator[Any]:
    import psycopg

    Store(url).close()
    with psycopg.connect(url, autocommit=True) as conn:
        yield conn


def test_the_sqlite_schema_is_described_in_full(tmp_path: Path) -> None:
    schema = describe_sqlite(new_sqlite(tmp_path / "games.db"))
    assert set(schema["tables"]) == {"games", "secrets", "accounts", "credentials", "sessions", "challenges",
                                     "rate_hits"}  # fmt: skip
    games = schema["tables"]["games"]
    assert games["columns"]["seq"] == ("integer", True, None)
    assert games["columns"]["moves"] == ("text", True, "'[]'")
    assert games["columns"]["reason"] == ("text", False, None)
    assert (games["primary_key"], games["unique"]) == (("seq",), {("id",)})
    assert games["checks"] == {"checkdealisnull<>stockisnull"}
    assert schema["tables"]["credentials"]["columns"]["public_key"] == ("bytes", True, None)
    assert schema["indexes"]["games_offline"] == ("games", ("offline_id",), True, "offline_idisnotnull")
    assert schema["indexes"]["games_by_player"] == ("games", ("player", "seq"), False, None)


def test_sqlite_and_postgresql_make_the_same_schema(tmp_path: Path, postgres_url: str) -> None:
    on_sqlite = describe_sqlite(new_sqlite(tmp_path / "games.db"))
    with postgres(postgres_url) as conn:
        on_postgres = describe_postgres(conn)
    assert compare(on_sqlite, on_postgres) == []
    assert len(on_postgres["indexes"]) == len(on_sqlite["indexes"]) == 14


SQLITE_CHANGES = {
    "a column": "ALTER TABLE games ADD COLUMN extra TEXT",
    "an index": "CREATE INDEX games_by_score ON games (score)",
    "a unique index": "DROP INDEX games_by_player; CREATE UNIQUE INDEX games_by_player ON games (player, seq)",
    "an index's columns": "DROP INDEX games_by_player; CREATE INDEX games_by_player ON games (seq, player)",
    "an index's WHERE": "DROP INDEX games_offline; CREATE UNIQUE INDEX games_offline ON games (offline_id)",
    "a table": "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)",
    "a table less": "DROP TABLE rate_hits",
    "a column's type, NOT NULL and default": "ALTER TABLE sessions DROP COLUMN device;"
    " ALTER TABLE sessions ADD COLUMN device INTEGER NOT NULL DEFAULT 0",
}
"""Changes of the SQLite schema, each of which must make the engines' schemas disagree."""

POSTGRES_CHANGES = {
    "NOT NULL": "ALTER TABLE sessions ALTER COLUMN device SET NOT NULL",
    "a type": "ALTER TABLE games ALTER COLUMN turn TYPE TEXT",
    "a default": "ALTER TABLE games ALTER COLUMN outcome SET DEFAULT 'won'",
    "a check": "ALTER TABLE games ADD CHECK (turn >= 0)",
    "a foreign key": "ALTER TABLE credentials ADD FOREIGN KEY (account) REFERENCES accounts (player)",
    "a unique key less": "ALTER TABLE accounts DROP CONSTRAINT accounts_user_handle_key",
    "a primary key less": "ALTER TABLE secrets DROP CONSTRAINT secrets_pkey",
    "an index's WHERE": "DROP INDEX games_live_by_update;"
    " CREATE INDEX games_live_by_update ON games (updated_at) WHERE outcome = 'lost'",
    "an index less": "DROP INDEX rate_hits_by_time",
}
"""Changes of the PostgreSQL schema, each of which must make the engines' schemas disagree."""


def test_the_comparison_fails_when_either_schema_gains_loses_or_changes_anything(
    tmp_path: Path, postgres_url: str
) -> None:
    conn = new_sqlite(tmp_path / "games.db")
    on_sqlite = describe_sqlite(conn)
    with postgres(postgres_url) as pg:
        on_postgres = describe_postgres(pg)
        assert compare(on_sqlite, on_postgres) == []
        for what, sql in POSTGRES_CHANGES.items():
            with pytest.raises(Rollback), pg.transaction():  # PostgreSQL's DDL is transactional: each is undone
                for statement in sql.split(";"):
                    pg.execute(statement)
                changed = describe_postgres(pg)
                assert compare(on_sqlite, changed), f"changing {what} on PostgreSQL went unnoticed"
                raise Rollback
        for what, sql in SQLITE_CHANGES.items():
            copy = sqlite3.connect(":memory:", isolation_level=None)
            conn.backup(copy)
            copy.executescript(sql)
            assert compare(describe_sqlite(copy), on_postgres), f"changing {what} on SQLite went unnoticed"
            copy.close()
        assert compare(describe_sqlite(conn), describe_postgres(pg)) == []  # both as they were


class Rollback(Exception):
    """Raised to roll back a transaction that changed PostgreSQL's schema for a moment."""


@pytest.mark.parametrize(
    "old",
    [
        pytest.param(lambda conn: conn.executescript(SCHEMA_1), id="schema 1"),
    ],
)
def test_an_old_sqlite_file_migrated_has_the_schema_of_a_new_one(
    tmp_path: Path, old: Callable[[sqlite3.Connection], None]
) -> None:
    with sqlite3.connect(tmp_path / "old.db") as conn:
        old(conn)
    migrated = describe_sqlite(new_sqlite(tmp_path / "old.db"))
    made = describe_sqlite(new_sqlite(tmp_path / "new.db"))
    assert compare(migrated, made) == []
    assert migrated == made


def test_an_old_postgresql_database_migrated_has_the_schema_of_a_new_one(postgres_url: str) -> None:
    with postgres(postgres_url) as conn:
        made = describe_postgres(conn)
        # Schema 6, the first that PostgreSQL had: without what the migrations to 7 and 8 add.
        for statement in (
            "DROP INDEX games_offline",
            "ALTER TABLE games DROP COLUMN offline_id",
            "DROP INDEX sessions_by_last_seen",
            "ALTER TABLE sessions DROP COLUMN last_seen_at",
            "ALTER TABLE sessions DROP COLUMN device",
            "ALTER TABLE credentials DROP COLUMN name",
            "UPDATE foursquare_schema SET version = 6",
        ):
            conn.execute(statement)
        assert describe_postgres(conn) != made
        Store(postgres_url).close()
        assert conn.execute("SELECT version FROM foursquare_schema").fetchone()[0] == SCHEMA_VERSION
        assert describe_postgres(conn) == made
