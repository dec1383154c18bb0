"""The study store: one SQLite file of studies and their rows, one row per deal, written in transactions.

A deal's row is the primary key ``(study, deal)``, so no deal is ever stored twice; each chunk of rows is
one transaction, so a process killed at any moment leaves every chunk either whole or absent. The file
carries SQLite's ``application_id`` so that another program's database is refused, not written into.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from foursquare import __version__, sqlite
from foursquare.store import data_dir
from foursquare.study.work import DealResult, StudyError, StudySettings

APPLICATION_ID = 0x46535144  # "FSQD": a Foursquare study database
SCHEMA_VERSION = 1
LOCK_TIMEOUT = 60.0  # seconds a write waits for another process's transaction to end
_SIGNED = 2**63  # SQLite integers are signed 64-bit; deal numbers go up to 2**64 - 1

SCHEMA = """
CREATE TABLE studies (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    version TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE results (
    study INTEGER NOT NULL REFERENCES studies(id),
    deal INTEGER NOT NULL,
    status TEXT NOT NULL,
    score INTEGER,
    upper_bound INTEGER,
    seconds REAL NOT NULL,
    nodes INTEGER,
    moves INTEGER,
    PRIMARY KEY (study, deal)
) WITHOUT ROWID;
"""


@dataclass(frozen=True)
class Study:
    """A study in a store: its id, settings and the package version that created it."""

    id: int
    settings: StudySettings
    version: str


def _to_sql(deal: int) -> int:
    return deal - 2**64 if deal >= _SIGNED else deal


def _writable_dir(path: Path) -> bool:
    """Whether the folder of ``path`` takes new files (SQLite's journal): not on read-only storage."""
    try:
        return not os.statvfs(path.parent).f_flag & os.ST_RDONLY and os.access(path.parent, os.W_OK)
    except OSError:
        return False


def _from_sql(value: int) -> int:
    return value + 2**64 if value < 0 else value


class StudyStore:
    """An open study database (created when missing). Use as a context manager, or call :meth:`close`.

    ``read_only``: the file is read and never written, not even created (a missing file is ``cannot_open``), so a
    command that only reads (a report, an export) changes nothing on disk and works on read-only storage; an
    empty file reads as a database without studies.
    """

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only
        try:
            self._db = self._open()
        except sqlite3.DatabaseError as exc:
            self._if_unwritable()
            if not isinstance(exc, sqlite3.OperationalError):  # read, and not an SQLite file (read_only opens check)
                raise StudyError(
                    f"{self.path} is not a Foursquare study database ({exc})", "not_a_study_db", path=str(self.path)
                ) from None
            raise StudyError(
                f"cannot open the study database {self.path}: {exc}", "cannot_open", path=str(self.path), error=str(exc)
            ) from None
        except (OSError, sqlite3.Error) as exc:
            self._if_unwritable()
            raise StudyError(
                f"cannot open the study database {self.path}: {exc}", "cannot_open", path=str(self.path), error=str(exc)
            ) from None
        try:
            self._check_or_create()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            self._if_unwritable()
            raise StudyError(
                f"{self.path} is not a Foursquare study database ({exc})", "not_a_study_db", path=str(self.path)
            ) from None
        except StudyError:
            self._db.close()
            raise

    def _if_unwritable(self) -> None:
        """After an error opening the database to write: raise ``cannot_write`` if it is a good study database that
        this process cannot write (read-only storage, no permission), which "not a study database" would misname
        (and invite deleting); else return, for the error to be told as it is."""
        writable = os.access(self.path, os.W_OK) and _writable_dir(self.path)
        if self.read_only or not self.path.is_file() or writable:
            return
        try:
            db = sqlite.connect_read_only(self.path, timeout=LOCK_TIMEOUT)
            try:
                app = db.execute("PRAGMA application_id").fetchone()[0]
            finally:
                db.close()
        except (OSError, sqlite3.Error):
            return
        if app == APPLICATION_ID:
            raise StudyError(
                f"{self.path} is a study database that cannot be written here (read-only storage)",
                "cannot_write",
                path=str(self.path),
            ) from None

    def _open(self) -> sqlite3.Connection:
        if self.read_only:
            if self.path.exists() and not self.path.is_file():  # a folder, a device, a pipe
                raise OSError(f"{self.path} is not a file")
            return sqlite.connect_read_only(self.path, timeout=LOCK_TIMEOUT)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # A second writer (an import while a run stores its chunks) waits its turn rather than failing.
        return sqlite.connect(self.path, timeout=LOCK_TIMEOUT)

    def _check_or_create(self) -> None:
        app = self._db.execute("PRAGMA application_id").fetchone()[0]
        tables = self._db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app == 0 and tables == 0 and self.read_only:
            self._db.close()  # an empty file: read as an empty study database, made in memory
            self._db = sqlite3.connect(":memory:", isolation_level=None)
            sqlite.run_script(self._db, SCHEMA)
            return
        if app == 0 and tables == 0:
            self._db.execute("PRAGMA journal_mode=WAL")
            with sqlite.transaction(self._db):
                sqlite.run_script(self._db, SCHEMA)
                self._db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                sqlite.set_user_version(self._db, SCHEMA_VERSION)
            return
        if app != APPLICATION_ID:
            raise StudyError(
                f"{self.path} is a database of another format, not a Foursquare study database",
                "not_a_study_db",
                path=str(self.path),
            )
        version = sqlite.user_version(self._db)
        if version != SCHEMA_VERSION:
            raise StudyError(
                f"{self.path} is a study database of format {version}; this version reads format {SCHEMA_VERSION}",
                "format_version",
                path=str(self.path),
                found=version,
                expected=SCHEMA_VERSION,
            )

    def _transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        """One transaction (within another, part of the outer one); a write lock held too long is ``busy``."""
        if self.read_only:
            raise StudyError(f"{self.path} was opened read-only", "read_only", path=str(self.path))
        return sqlite.transaction(self._db, busy=self._busy)

    def _busy(self, exc: sqlite3.OperationalError) -> StudyError:
        # another process held the write lock past the timeout
        return StudyError(f"{self.path} is busy: {exc}", "busy", path=str(self.path), error=str(exc))

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> StudyStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def study(self, settings: StudySettings) -> Study:
        """The study of these settings, created when it is new."""
        key = settings.key()
        with self._transaction():
            self._db.execute(
                "INSERT OR IGNORE INTO studies (key, version, created) VALUES (?, ?, ?)",
                (key, __version__, datetime.now(UTC).isoformat(timespec="seconds")),
            )
            row = self._db.execute("SELECT id, version FROM studies WHERE key = ?", (key,)).fetchone()
        return Study(id=row[0], settings=settings, version=row[1])

    def studies(self) -> list[Study]:
        """Every study, in the order they were created."""
        rows = self._db.execute("SELECT id, key, version FROM studies ORDER BY id").fetchall()
        return [Study(id=i, settings=StudySettings.from_key(k), version=v) for i, k, v in rows]

    def done_deals(self, study: Study, first: int = 0, last: int = 2**64 - 1) -> set[int]:
        """The deals from ``first`` to ``last`` (inclusive) that the study has a row for."""
        return {deal for lo, hi in _sql_ranges(first, last) for deal in self._deals_between(study, lo, hi)}

    def _deals_between(self, study: Study, lo: int, hi: int) -> Iterator[int]:
        query = "SELECT deal FROM results WHERE study = ? AND deal BETWEEN ? AND ? ORDER BY deal"
        for (deal,) in self._db.execute(query, (study.id, lo, hi)):
            yield _from_sql(deal)

    def count(self, study: Study) -> int:
        """How many rows the study has."""
        found: int = self._db.execute("SELECT count(*) FROM results WHERE study = ?", (study.id,)).fetchone()[0]
        return found

    def add(self, study: Study, results: Iterable[DealResult]) -> int:
        """Store rows in one transaction; a deal already stored is left as it is. Returns the rows added."""
        rows = [
            (study.id, _to_sql(r.deal), r.status, r.score, r.upper_bound, r.seconds, r.nodes, r.moves) for r in results
        ]
        with self._transaction():
            before = self._db.total_changes
            self._db.executemany("INSERT OR IGNORE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
            return self._db.total_changes - before

    def add_studies(self, batches: Iterable[tuple[Study, Iterable[DealResult]]]) -> int:
        """Store several studies' rows in one transaction (all or none); returns the rows added."""
        with self._transaction():
            return sum(self.add(study, rows) for study, rows in batches)

    def results(self, study: Study) -> list[DealResult]:
        """The study's rows in deal order."""
        return list(self.iter_results(study))

    def iter_results(self, study: Study) -> Iterator[DealResult]:
        """The study's rows in deal order, read as they are used (a study of any size, in bounded memory)."""
        query = (
            "SELECT deal, status, score, upper_bound, seconds, nodes, moves FROM results"
            " WHERE study = ? AND deal BETWEEN ? AND ? ORDER BY deal"
        )
        for lo, hi in _sql_ranges(0, 2**64 - 1):
            for deal, status, score, upper, seconds, nodes, moves in self._db.execute(query, (study.id, lo, hi)):
                yield DealResult(_from_sql(deal), status, score, seconds, upper, nodes, moves)


def _sql_ranges(first: int, last: int) -> list[tuple[int, int]]:
    """Deals ``first``..``last`` as ranges of their stored (signed) values, each in ascending deal order: the deals
    from 2**63 on are stored as negative numbers, after which they sort."""
    ranges = []
    if first < _SIGNED:
        ranges.append((first, min(last, _SIGNED - 1)))
    if last >= _SIGNED:
        ranges.append((_to_sql(max(first, _SIGNED)), _to_sql(last)))
    return ranges


def default_db_path() -> Path:
    """``studies.db`` in the user's data directory (``FOURSQUARE_DATA_DIR`` when set); made by the first run."""
    return data_dir() / "studies.db"


__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "Study", "StudyStore", "default_db_path"]
