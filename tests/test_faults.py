"""Fault injection: every command that writes a file or a database, pointed at a place where it cannot write, or
interrupted by a signal, ends with one clear line, the documented exit status and no traceback, leaves no stray
or half-written file, and the user's other files byte-identical.

The places: an existing file, a folder, a read-only folder (a read-only bind mount: root ignores permission
bits; skipped where mounting is not allowed) and ``/dev/full`` (a full disk).
"""

from __future__ import annotations

import contextlib
import gzip
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from cli_support import run_main
from foursquare.study import StudySettings, StudyStore
from foursquare.study.work import DealResult
from readonly_support import read_only_view, snapshot

EXIT_OK, EXIT_BAD_INPUT = 0, 2
USER_FILES = {"notes.txt": b"a user's notes\n", "keep.csv.tmp": b"someone's own temporary file\n"}


@dataclass(frozen=True)
class Place:
    """Where a command is told to write, in a folder holding the user's files."""

    kind: str  # "file": an existing file, "folder", "read-only" (a new name in a read-only folder), "full"
    path: Path


def the_one_line(stderr: str) -> str:
    """The command's one line of error, checked to be one line, ours, and no traceback."""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("foursquare"), stderr
    assert "Traceback" not in stderr
    return lines[0]


@pytest.fixture
def study_db(tmp_path: Path) -> Path:
    path = tmp_path / "studies.db"
    with StudyStore(path) as store:
        store.add(
            store.study(StudySettings(what="greedy")), [DealResult(d, "won", d % 9, 0.01, moves=20) for d in range(50)]
        )
        solver = store.study(StudySettings(what="solver", timeout=1.0))
        store.add(solver, [DealResult(d, "optimal", d % 7, 0.2, upper_bound=d % 7, nodes=100) for d in range(50)])
    return path


@pytest.fixture
def user_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "work"
    folder.mkdir()
    for name, content in USER_FILES.items():
        (folder / name).write_bytes(content)
    (folder / "a folder").mkdir()
    (folder / "a folder" / "inside.txt").write_bytes(b"inside\n")
    (folder / "existing").write_bytes(b"the user's existing file\n")
    return folder


PLACES = ("file", "folder", "read-only", "full")


@pytest.fixture
def place(request: pytest.FixtureRequest, user_folder: Path) -> Iterator[Place]:
    kind = request.param
    if kind == "read-only":
        with read_only_view(user_folder) as view:
            yield Place(kind, view / "new")
        return
    yield Place(
        kind, {"file": user_folder / "existing", "folder": user_folder / "a folder", "full": Path("/dev/full")}[kind]
    )


#: A command that writes a file at a place: its arguments, and what it does with each kind of place (an existing
#: file is replaced whole, or refused when it is not of the command's own kind; a folder is written into or
#: refused).
@dataclass(frozen=True)
class Writer:
    name: str
    arguments: Callable[[Path, Path], list[str]]  # (study database, place) → the command line
    succeeds_on: frozenset[str]


WRITERS = [
    Writer("export csv", lambda db, to: ["study", "export", "--db", str(db), "--format", "csv", "--out", str(to)],
           frozenset({"file"})),
    Writer("export parquet",
           lambda db, to: ["study", "export", "--db", str(db), "--format", "parquet", "--out", str(to)],
           frozenset({"file"})),
    Writer("report html", lambda db, to: ["study", "report", "--db", str(db), "--html", str(to)], frozenset({"file"})),
    Writer("report plots", lambda db, to: ["study", "report", "--db", str(db), "--plots", str(to)],
           frozenset({"folder"})),
    Writer("study run db", lambda db, to: ["study", "run", "--what", "greedy", "--deals", "1-2", "--db", str(to)],
           frozenset()),
    Writer("study import db", lambda db, to: ["study", "import", str(db.parent / "rows.csv"), "--db", str(to)],
           frozenset()),
    Writer("stats db", lambda db, to: ["stats", "--db", str(to)], frozenset()),
    Writer("serve db", lambda db, to: ["serve", "--db", str(to), "--port", "0"], frozenset()),
]  # fmt: skip


#: One case of the matrix per path the code takes, for ``make check``: every writer once, every kind of place
#: at least twice, a write that succeeds into a file and into a folder, a refusal of each kind of place. The other
#: cases of the 32 take the same paths with other commands (``make test`` runs them all).
FAST_CASES = {
    ("export csv", "file"),
    ("export parquet", "full"),
    ("report html", "folder"),
    ("report plots", "folder"),
    ("study run db", "read-only"),
    ("study import db", "file"),
    ("stats db", "full"),
    ("serve db", "read-only"),
}
SLOW = pytest.mark.slow
CASES = [
    pytest.param(writer, kind, id=f"{writer.name}-{kind}", marks=[] if (writer.name, kind) in FAST_CASES else [SLOW])
    for writer in WRITERS
    for kind in PLACES
]


@pytest.mark.parametrize(("writer", "place"), CASES, indirect=["place"])
def test_a_command_writing_where_it_cannot_says_so_in_one_line_and_changes_nothing_else(
    writer: Writer, place: Place, study_db: Path, user_folder: Path
) -> None:
    if writer.name == "study import db":
        exported = run_main(
            "study", "export", "--db", str(study_db), "--format", "csv", "--out", str(study_db.parent / "rows.csv")
        )
        assert exported.returncode == EXIT_OK, exported.stderr
    before = snapshot(user_folder)
    database = study_db.read_bytes()
    result = run_main(
        *writer.arguments(study_db, place.path), env={**os.environ, "FOURSQUARE_DATA_DIR": str(user_folder / "data")}
    )
    after = snapshot(user_folder)
    assert study_db.read_bytes() == database
    if place.kind in writer.succeeds_on:
        assert result.returncode == EXIT_OK, result.stderr
        assert "Traceback" not in result.stderr
        changed = {name for name in after if before.get(name) != after[name]}
        written = place.path.relative_to(user_folder)
        assert all(name == str(written) or name.startswith(f"{written}/") for name in changed), changed
        assert {name: after[name] for name in before if name in after and name not in changed} == {
            name: content for name, content in before.items() if name not in changed
        }
        assert not [name for name in after if name.endswith(".tmp") and name not in before]
        return
    line = the_one_line(result.stderr)
    assert result.returncode == EXIT_BAD_INPUT, result.stderr
    assert str(place.path) in line or place.path.name in line, line
    assert after == before  # nothing written, nothing left behind: the user's files byte-identical


# --- signals ----------------------------------------------------------------------------------------------------

#: The exit status of a command stopped by each signal (128 + the signal's number), as the shell reports it.
EXIT_STATUS = {signal.SIGINT: 130, signal.SIGTERM: 143, signal.SIGHUP: 129}
WAIT = 120.0  # seconds: a bound only a hang reaches
#: The command as a user runs it: the installed script (its start-up is part of what is interrupted).
SCRIPT = Path(sys.executable).with_name("foursquare")
FOURSQUARE = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "foursquare.cli"]


def cpu_seconds(pid: int) -> float:
    """The CPU time the process has used: a moment in its work that does not depend on the machine's load."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_memory(pid: int) -> int:
    """The process's peak resident memory, in bytes (VmHWM)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmHWM for {pid}")


@dataclass(frozen=True)
class LongCommand:
    name: str
    arguments: Callable[[Path], list[str]]  # the folder it works in → the command line
    output: str | None  # the file it writes in the folder (written whole or not at all), if any
    ready: Callable[[subprocess.Popen[str], Path], bool] | None = None  # the moment to interrupt it, if not by CPU time


def study_rows(folder: Path) -> int:
    """How many rows the study database in ``folder`` holds (0 before it exists)."""
    path = folder / "studies.db"
    if not path.exists():
        return 0
    try:
        with contextlib.closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=30)) as conn:
            return int(conn.execute("SELECT count(*) FROM results").fetchone()[0])
    except sqlite3.Error:
        return 0


def big_study(folder: Path, rows: int = 200_000) -> Path:
    path = folder / "big.db"
    with StudyStore(path) as store:
        study = store.study(StudySettings(what="greedy"))
        store.add(study, (DealResult(d, "won" if d % 3 else "lost", d % 9, 0.01, moves=20) for d in range(rows)))
    return path


LONG_COMMANDS = [
    LongCommand("solve", lambda _: ["solve", "--deal", "21", "--timeout", "600", "--threads", "2"], None),
    LongCommand("autoplay", lambda _: ["autoplay", "--player", "greedy", "--deals", "0-999999"], None),
    LongCommand("bench", lambda _: ["bench"], None),
    LongCommand(
        "study run",
        lambda folder: ["study", "run", "--what", "greedy", "--deals", "0-999999", "--workers", "2",
                        "--db", str(folder / "studies.db")],
        None,
        ready=lambda process, folder: study_rows(folder) > 0,
    ),
    LongCommand(
        "study export",
        lambda folder: ["study", "export", "--db", str(big_study(folder)), "--format", "csv",
                        "--out", str(folder / "rows.csv")],
        "rows.csv",
    ),
    LongCommand(
        "study report",
        lambda folder: ["study", "report", "--db", str(big_study(folder)), "--html", str(folder / "report.html")],
        "report.html",
    ),
]  # fmt: skip

#: The CPU time a command has used once it is at work.
AT_WORK = 2.0


def catches(pid: int, signum: int) -> bool:
    """Whether the process has set a handler for ``signum`` (its SigCgt mask in /proc): the command sets its own
    first thing as it loads. A signal before then meets the system's default action, as it would for any program
    still being started by the interpreter; what the command promises starts there."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) >> (signum - 1) & 1)
    raise AssertionError(f"no SigCgt for {pid}")


def reached(moment: str, pid: int) -> bool:
    """``starting``: the command's handlers are set and the rest of the program loads; ``working``: at work."""
    if moment == "starting":
        return all(catches(pid, signum) for signum in EXIT_STATUS)
    return cpu_seconds(pid) >= AT_WORK


def interrupt(command: LongCommand, folder: Path, signum: int, moment: str) -> subprocess.CompletedProcess[str]:
    arguments = command.arguments(folder)
    process = subprocess.Popen(
        [*FOURSQUARE, *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=folder,
        start_new_session=True,  # a process group of its own, as a terminal's foreground job has
        env={**os.environ, "FOURSQUARE_DATA_DIR": str(folder / "data"), "LANGUAGE": "en"},
    )
    deadline = time.monotonic() + WAIT
    try:
        while process.poll() is None and time.monotonic() < deadline:
            if command.ready is not None and moment == "working":
                if command.ready(process, folder):
                    break
            elif reached(moment, process.pid):
                break
            time.sleep(0.01)
        if process.poll() is None:
            if signum == signal.SIGTERM:
                process.send_signal(signum)  # kill -TERM PID: the command alone
            else:
                os.killpg(process.pid, signum)  # Ctrl-C, a closed terminal: the whole foreground job
        out, err = process.communicate(timeout=WAIT)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert_group_ends(process.pid, f"{command.name}: processes of its group still run after it ended")
    return subprocess.CompletedProcess(arguments, process.returncode, out, err)


def assert_group_ends(pgid: int, failure: str) -> None:
    """Every process of the group ``pgid`` ends (within a bound only a hang reaches); else they are killed."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.killpg(pgid, signal.SIGKILL)
    raise AssertionError(failure)


#: Each long command at work, stopped by Ctrl-C and by kill; a closed terminal and the moment of start-up (which
#: every command meets in the same code, before the command's own) for some of them: the whole grid of 36 runs
#: would cost minutes for no path it does not already take (each signal's own tests are in test_cli_signals,
#: a study run's closed terminal in test_study_interrupt).
SIGNAL_CASES = [
    *[(command, signum, "working") for command in LONG_COMMANDS for signum in (signal.SIGINT, signal.SIGTERM)],
    *[(command, signal.SIGHUP, "working") for command in LONG_COMMANDS if command.name == "solve"],
    *[(command, signum, "starting") for command in LONG_COMMANDS if command.name in ("solve", "study export")
      for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)],
]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize(
    ("command", "signum", "moment"),
    SIGNAL_CASES,
    ids=[f"{command.name}-{signum.name}-{moment}" for command, signum, moment in SIGNAL_CASES],
)
def test_a_long_command_interrupted_says_so_in_one_line_and_leaves_no_stray_file(
    command: LongCommand, signum: signal.Signals, moment: str, user_folder: Path
) -> None:
    result = interrupt(command, user_folder, signum, moment)
    assert "Traceback" not in result.stderr, result.stderr
    if result.returncode == EXIT_OK:  # it was done before the signal came: a whole file
        assert command.output is None or (user_folder / command.output).stat().st_size > 0
    else:
        assert result.returncode == EXIT_STATUS[signum], result.stderr
        assert the_one_line(result.stderr) == "foursquare: interrupted", result.stderr
        assert command.output is None or not (user_folder / command.output).exists()
    for name, content in USER_FILES.items():
        assert (user_folder / name).read_bytes() == content
    strays = [
        p.name
        for p in user_folder.rglob("*")
        if p.name not in USER_FILES and (p.name.startswith(".") or p.name.endswith((".tmp", "-journal")))
    ]
    assert strays == [], strays


@pytest.mark.slow
def test_a_study_interrupted_resumes_and_a_huge_range_stays_in_bounded_memory(user_folder: Path) -> None:
    memory: list[int] = []

    def huge_study(after: int) -> LongCommand:
        def ready(process: subprocess.Popen[str], folder: Path) -> bool:
            if study_rows(folder) <= after:
                return False
            memory.append(peak_memory(process.pid))
            return True

        return LongCommand(
            "study run",
            lambda folder: ["study", "run", "--what", "random", "--deals", "1-18446744073709551615",
                            "--workers", "1", "--db", str(folder / "studies.db")],
            None,
            ready,
        )  # fmt: skip

    result = interrupt(huge_study(0), user_folder, signal.SIGINT, "working")
    assert result.returncode == EXIT_STATUS[signal.SIGINT], result.stderr
    assert the_one_line(result.stderr) == "foursquare: interrupted"
    done = study_rows(user_folder)
    again = interrupt(huge_study(done), user_folder, signal.SIGINT, "working")  # it goes on from there
    assert again.returncode == EXIT_STATUS[signal.SIGINT], again.stderr
    assert study_rows(user_folder) > done
    assert len(memory) == 2 and max(memory) < 1_500_000_000, memory


# --- endless input ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "arguments",
    [["replay", "/dev/zero"], ["solve", "--record", "/dev/zero"], ["hint", "/dev/zero"], ["analyze", "/dev/zero"],
     ["play", "/dev/zero"]],
    ids=lambda a: a[0],
)  # fmt: skip
def test_a_device_that_never_ends_given_as_a_record_is_refused_after_a_megabyte(arguments: list[str]) -> None:
    result = run_main(*arguments)
    assert result.returncode == EXIT_BAD_INPUT
    assert the_one_line(result.stderr) == (
        "foursquare: error: /dev/zero: this is not a game record: it is larger than 1,000,000 bytes"
        " (a record is a few kilobytes)"
    )


def test_study_import_of_an_endless_device_or_a_gzip_bomb_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from foursquare.study import importing

    monkeypatch.setattr(importing, "MAX_IMPORT_BYTES", 100_000)
    bomb = tmp_path / "rows.csv.gz"
    bomb.write_bytes(gzip.compress(b"what," + b"0" * 10_000_000))
    for source in ("/dev/zero", str(bomb)):
        result = run_main("study", "import", source, "--db", str(tmp_path / "studies.db"))
        assert result.returncode == EXIT_BAD_INPUT
        assert the_one_line(result.stderr).endswith("is larger than 100000 bytes: import it in parts")
    assert not (tmp_path / "studies.db").exists()


# --- output that cannot be written ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "arguments",
    [["deal", "5"], ["solve", "--deal", "1", "--json", "--timeout", "5"], ["autoplay", "--deal", "1", "--player",
     "greedy", "--json"], ["stats", "--json"]],
    ids=lambda a: a[0],
)  # fmt: skip
def test_output_to_a_full_disk_is_one_line_and_status_2(arguments: list[str], tmp_path: Path) -> None:
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [*FOURSQUARE, *arguments],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=WAIT,
            env={**os.environ, "FOURSQUARE_DATA_DIR": str(tmp_path)},
        )
    assert result.returncode == EXIT_BAD_INPUT, result.stderr
    assert the_one_line(result.stderr) == "foursquare: error: cannot write the output: No space left on device"


def test_a_record_of_other_bytes_or_an_endless_number_says_so_in_the_players_language(tmp_path: Path) -> None:
    (tmp_path / "u16.json").write_text("{}", encoding="utf-16")
    (tmp_path / "big.json").write_text('{"format": "foursquare-game", "deal": ' + "9" * 5000 + "}")
    for name, english, uzbek in (
        ("u16.json", "it is not UTF-8 text (byte 0 is not)", "u UTF-8 matn emas (0-bayt mos emas)"),
        ("big.json", "it holds a number thousands of digits long", "unda minglab raqamli son bor"),
    ):
        path = str(tmp_path / name)
        result = run_main("replay", path)
        assert result.returncode == EXIT_BAD_INPUT
        assert the_one_line(result.stderr) == f"foursquare: error: {path}: this is not a game record: {english}"
        translated = run_main("--lang", "uz", "replay", path)
        assert the_one_line(translated.stderr).endswith(f"bu oʻyin yozuvi emas: {uzbek}")
