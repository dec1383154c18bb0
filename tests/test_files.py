"""Every file the project writes is written whole or not at all, and a bad target is one clear line.

The helper (:mod:`foursquare.files`) on its own, then through the commands that write: ``study export`` (text
and Parquet), ``study report --html``, and a game's record. The user's other files stay byte-identical.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from cli_support import run_main
from foursquare import files, record
from foursquare.engine import Game
from foursquare.files import FileWriteError, atomic_path, write_text
from test_study import db

__all__ = ["db"]


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def test_a_file_named_like_the_old_temporary_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "keep.csv.tmp").write_text("someone's notes")
    (tmp_path / "keep.csv").write_text("old")
    write_text(tmp_path / "keep.csv", "new")
    assert snapshot(tmp_path) == {"keep.csv": b"new", "keep.csv.tmp": b"someone's notes"}


@pytest.mark.parametrize(
    ("target", "code", "words"),
    [
        (".", "is_directory", "it is a folder"),
        ("no/such/folder/out.csv", "no_directory", "there is no folder"),
    ],
)
def test_a_target_that_cannot_be_a_file_is_refused_before_anything_is_written(
    tmp_path: Path, target: str, code: str, words: str
) -> None:
    (tmp_path / "other.txt").write_text("mine")
    with pytest.raises(FileWriteError, match=words) as caught:
        write_text(tmp_path / target, "x")
    assert caught.value.code == code and caught.value.params["path"] == str(tmp_path / target)
    assert snapshot(tmp_path) == {"other.txt": b"mine"}


def test_a_full_disk_leaves_the_old_file_and_nothing_else(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "game.json").write_text("the old record")

    def full(descriptor: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files.os, "fsync", full)
    with pytest.raises(FileWriteError, match="No space left on device") as caught:
        record.write(Game(deal=1), tmp_path / "game.json")
    assert caught.value.code == "cannot_write"
    assert snapshot(tmp_path) == {"game.json": b"the old record"}


def test_an_interrupt_leaves_the_old_file_and_nothing_else(tmp_path: Path) -> None:
    (tmp_path / "out.csv").write_text("before")

    def interrupted(file: object) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_text(tmp_path / "out.csv", interrupted)
    assert snapshot(tmp_path) == {"out.csv": b"before"}


def test_a_device_is_written_in_place_never_replaced() -> None:
    with pytest.raises(FileWriteError, match="No space left on device"):
        write_text("/dev/full", "x" * 100)
    write_text("/dev/null", "nothing")
    assert Path("/dev/full").is_char_device() and Path("/dev/null").is_char_device()


def test_a_new_file_gets_the_permissions_of_a_plain_open_and_a_replaced_one_keeps_its_own(tmp_path: Path) -> None:
    write_text(tmp_path / "new.txt", "x")
    assert (tmp_path / "new.txt").stat().st_mode & 0o777 == files.NEW_FILE_MODE
    (tmp_path / "mine.txt").write_text("x")
    (tmp_path / "mine.txt").chmod(0o600)
    with atomic_path(tmp_path / "mine.txt") as temporary:
        temporary.write_text("y")
    assert (tmp_path / "mine.txt").stat().st_mode & 0o777 == 0o600


# --- through the commands ------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", [["--format", "csv"], ["--format", "jsonl"], ["--format", "parquet"]])
def test_export_to_a_folder_or_nowhere_is_one_line_and_leaves_nothing(
    db: Path, tmp_path: Path, kind: list[str]
) -> None:
    out = tmp_path / "exports"
    out.mkdir()
    (out / "keep.csv.tmp").write_text("someone's notes")
    before = snapshot(tmp_path) | snapshot(out)
    for target, words in ((out, "it is a folder"), (out / "missing" / "x.csv", "there is no folder")):
        result = run_main("study", "export", "--db", str(db), *kind, "--out", str(target))
        assert result.returncode == 2, result.stderr
        assert result.stderr.count("\n") == 1 and words in result.stderr and "Traceback" not in result.stderr
        assert snapshot(tmp_path) | snapshot(out) == before


def test_export_and_report_write_whole_files_beside_an_old_temporary(db: Path, tmp_path: Path) -> None:
    (tmp_path / "keep.csv.tmp").write_text("someone's notes")
    exported = run_main("study", "export", "--db", str(db), "--format", "csv", "--out", str(tmp_path / "keep.csv"))
    assert exported.returncode == 0, exported.stderr
    assert (tmp_path / "keep.csv").read_text().startswith("what,deal")
    assert (tmp_path / "keep.csv.tmp").read_text() == "someone's notes"
    folder = tmp_path / "report"
    folder.mkdir()
    refused = run_main("study", "report", "--db", str(db), "--html", str(folder))
    assert refused.returncode == 2 and "it is a folder" in refused.stderr and list(folder.iterdir()) == []


def test_the_refusal_is_in_the_users_language(db: Path, tmp_path: Path) -> None:
    from foursquare.i18n import translator

    croatian = {"LANGUAGE": "hr"}
    result = run_main("study", "export", "--db", str(db), "--format", "csv", "--out", str(tmp_path), env=croatian)
    expected = translator("hr")("cli.file.is_directory", path=str(tmp_path))
    assert result.returncode == 2 and expected in result.stderr


def test_plots_into_a_file_are_one_line_and_the_file_is_untouched(db: Path, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    result = run_main("study", "report", "--db", str(db), "--plots", str(tmp_path / "notes.txt"))
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "it is a file, not a folder" in result.stderr and "Traceback" not in result.stderr
    assert snapshot(tmp_path) == {"notes.txt": b"mine", "studies.db": (tmp_path / "studies.db").read_bytes()}
