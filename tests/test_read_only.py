"""Commands that only read write nothing: ``stats`` never creates, migrates or changes a games database, and reads
one on read-only storage; the stores' read-only mode underneath."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from foursquare.store import SCHEMA_VERSION, TERMINAL_PLAYER, Store, StoreError
from foursquare.study import StudySettings, StudyStore
from foursquare.study.work import DealResult, StudyError
from readonly_support import read_only_view, snapshot
from test_api_share import SCHEMA_1
from test_play import greedy_game
from test_terminal_game import cli


def finished_games_db(path: Path, games: int = 2) -> None:
    store = Store(path)
    for deal in range(games):
        store.games.record(f"game-{deal}", TERMINAL_PLAYER, greedy_game(deal), hidden=False, assisted=False)
    store.close()


def test_stats_of_an_empty_file_reads_no_game_and_leaves_it_empty(tmp_path: Path) -> None:
    (tmp_path / "empty.db").touch()
    result = cli("stats", "--db", str(tmp_path / "empty.db"), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["played"] == 0
    assert snapshot(tmp_path) == {"empty.db": b""}


def test_stats_of_a_mistyped_path_is_an_error_and_creates_nothing(tmp_path: Path) -> None:
    result = cli("stats", "--db", str(tmp_path / "gmaes.db"))
    assert result.returncode == 2
    missing = tmp_path / "gmaes.db"
    assert result.stderr.strip() == f"foursquare: error: there is no games database at {missing}: check the path"
    assert list(tmp_path.iterdir()) == []


def test_stats_of_an_older_schema_reads_it_without_migrating_it(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with sqlite3.connect(db) as conn:
        conn.executescript(SCHEMA_1.replace("'old-player-000000000000'", f"'{TERMINAL_PLAYER}'"))
    conn.close()
    before = snapshot(tmp_path)
    result = cli("stats", "--db", str(db), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["played"] == 0  # its one game is still in play
    assert snapshot(tmp_path) == before
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    conn.close()


def test_stats_read_a_database_on_read_only_storage(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    finished_games_db(folder / "games.db")
    expected = json.loads(cli("stats", "--db", str(folder / "games.db"), "--json").stdout)
    before = snapshot(folder)
    with read_only_view(folder) as view:
        result = cli("stats", "--db", str(view / "games.db"), "--json")
        assert result.returncode == 0, result.stderr
        figures = json.loads(result.stdout)
        assert figures["played"] == 2
        assert {k: v for k, v in figures.items() if k != "database"} == {
            k: v for k, v in expected.items() if k != "database"
        }
        default = cli("stats", "--json", env={"FOURSQUARE_DATA_DIR": str(view)})
        assert default.returncode == 0 and json.loads(default.stdout)["played"] == 2
    assert snapshot(folder) == before


def test_a_read_only_store_refuses_to_change_the_file(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    finished_games_db(db, games=1)
    before = snapshot(tmp_path)
    store = Store(db, read_only=True)
    assert store.stats.of(TERMINAL_PLAYER)["played"] == 1
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        store.games.record("another", TERMINAL_PLAYER, greedy_game(5), hidden=False, assisted=False)
    store.close()
    assert snapshot(tmp_path) == before
    with pytest.raises(StoreError) as missing:
        Store(tmp_path / "none.db", read_only=True)
    assert missing.value.code == "missing" and not (tmp_path / "none.db").exists()
    with pytest.raises(StoreError) as folder:
        Store(tmp_path, read_only=True)
    assert folder.value.code == "is_directory"
    migrated = Store(tmp_path / "new.db")
    migrated.close()
    with sqlite3.connect(tmp_path / "new.db") as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()


def test_a_read_only_study_store_reads_and_never_writes(tmp_path: Path) -> None:
    settings = StudySettings(what="greedy")
    with StudyStore(tmp_path / "studies.db") as store:
        study = store.study(settings)
        store.add(study, [DealResult(deal, "won", 10, 0.1) for deal in (3, 2**64 - 1, 1, 2**63)])
    (tmp_path / "empty.db").touch()
    before = snapshot(tmp_path)
    with StudyStore(tmp_path / "studies.db", read_only=True) as store:
        [study] = store.studies()
        assert [r.deal for r in store.iter_results(study)] == [1, 3, 2**63, 2**64 - 1]
        assert store.done_deals(study, 2, 2**63) == {3, 2**63}
        assert store.count(study) == 4
        with pytest.raises(StudyError) as refused:
            store.add(study, [DealResult(9, "won", 10, 0.1)])
        assert refused.value.code == "read_only"
    with StudyStore(tmp_path / "empty.db", read_only=True) as store:
        assert store.studies() == []
    with pytest.raises(StudyError) as missing:
        StudyStore(tmp_path / "none.db", read_only=True)
    assert missing.value.code == "cannot_open"
    assert snapshot(tmp_path) == before


def test_a_study_database_on_read_only_storage_is_read(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    with StudyStore(folder / "studies.db") as store:
        study = store.study(StudySettings(what="greedy"))
        store.add(study, [DealResult(deal, "lost", None, 0.1) for deal in range(5)])
    before = snapshot(folder)
    with read_only_view(folder) as view, StudyStore(view / "studies.db", read_only=True) as store:
        [study] = store.studies()
        assert store.count(study) == 5
    assert snapshot(folder) == before


def test_study_report_and_export_read_without_writing_even_on_read_only_storage(tmp_path: Path) -> None:
    (tmp_path / "empty.db").touch()
    for args in (["report"], ["export", "--format", "csv"]):
        result = cli("study", *args, "--db", str(tmp_path / "empty.db"))
        assert result.returncode == 0, result.stderr
    assert snapshot(tmp_path) == {"empty.db": b""}
    folder = tmp_path / "data"
    folder.mkdir()
    with StudyStore(folder / "studies.db") as store:
        study = store.study(StudySettings(what="greedy"))
        store.add(study, [DealResult(deal, "won", 7, 0.1, moves=20) for deal in range(5)])
    expected = cli("study", "export", "--db", str(folder / "studies.db"), "--format", "csv").stdout
    before = snapshot(folder)
    with read_only_view(folder) as view:
        report = cli("study", "report", "--db", str(view / "studies.db"), "--json")
        assert report.returncode == 0, report.stderr
        assert json.loads(report.stdout)["studies"][0]["done"] == 5
        export = cli("study", "export", "--db", str(view / "studies.db"), "--format", "csv")
        assert export.returncode == 0 and export.stdout == expected
    assert snapshot(folder) == before
