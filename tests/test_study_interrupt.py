"""``study run`` stopped as a user stops it, with a real local cluster of worker processes.

Ctrl-C is typed on the run's own terminal (a pty whose foreground group is the run): the terminal sends SIGINT
to every process of the group, the cluster's workers included, exactly as at a shell. SIGTERM is sent to the
run's process alone, as ``kill`` does. Each ends with the documented exit status, no traceback from any
process, the rows stored so far kept (a rerun computes only the others) and no process of the run left. A
study of every deal there is starts at once and stays small in memory.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import signal
import sqlite3
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a cluster to start, in a process of its own, per test

CLI = [sys.executable, "-m", "foursquare.cli"]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
GUARD = 120.0  # seconds: a bound that only a hang reaches, never a speed requirement


class StudyRun:
    """``foursquare study run --db DB ARGS`` on a terminal of its own (a pty of 100 columns)."""

    def __init__(self, db: Path, *args: str) -> None:
        self.db = db
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "PYTHONFAULTHANDLER": "1"}
        for name in ("NO_COLOR", "COLUMNS", "LINES"):
            env.pop(name, None)
        self.process = subprocess.Popen(
            [*CLI, "study", "run", "--db", str(db), *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            close_fds=True,
            start_new_session=True,  # a session of its own, whose controlling terminal is the pty:
            preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0),  # so Ctrl-C sends its group SIGINT
        )
        os.close(slave)
        self.output = ""

    def read(self, timeout: float) -> None:
        while select.select([self.master], [], [], timeout)[0]:
            try:
                data = os.read(self.master, 65536)
            except OSError:  # the other side closed
                return
            if not data:
                return
            self.output += data.decode("utf-8", "replace")
            timeout = 0.05

    @property
    def plain(self) -> str:
        return ANSI.sub("", self.output).replace("\r", "\n")

    def wait_for_rows(self, n: int = 1) -> int:
        """Wait until the run has stored ``n`` rows or more; the rows stored."""
        deadline = time.monotonic() + GUARD
        while (count := rows(self.db)) < n:
            assert self.process.poll() is None, f"the run ended first:\n{self.plain[-3000:]}"
            assert time.monotonic() < deadline, f"no rows after {GUARD:.0f} s:\n{self.plain[-3000:]}"
            self.read(0.2)
        return count

    def ctrl_c(self) -> None:
        os.write(self.master, b"\x03")

    def finish(self) -> int:
        deadline = time.monotonic() + GUARD
        while self.process.poll() is None:
            if time.monotonic() > deadline:
                self.process.send_signal(signal.SIGABRT)  # its threads' stacks (faulthandler) say where it hung
                self.read(1.0)
                raise AssertionError(f"the run did not stop:\n{self.plain[-6000:]}")
            self.read(0.1)
        self.read(0.2)
        return self.process.returncode

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)


def rows(db: Path) -> int:
    try:
        with sqlite3.connect(db) as con:
            return int(con.execute("SELECT count(*) FROM results").fetchone()[0])
    except sqlite3.OperationalError:  # not created yet
        return 0


def stored(db: Path) -> dict[int, float]:
    """Each stored deal's seconds: a row computed again would have other seconds."""
    with sqlite3.connect(db) as con:
        return dict(con.execute("SELECT deal, seconds FROM results").fetchall())


def session_processes(session: int) -> list[str]:
    """The processes still running in ``session`` (the run's own session), as ``pid command``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # gone meanwhile
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (comm) ": state, ppid, pgrp, session, ...
        if int(fields[3]) == session and fields[0] != "Z":
            found.append(f"{entry.name} {command}")
    return found


def no_process_left(session: int) -> list[str]:
    """The processes of the run's session once they have had the time to go (none, when all is well)."""
    deadline = time.monotonic() + 60  # the workers' last moments are the cluster's; a guard, not a speed
    while (left := session_processes(session)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return left


RANDOM = ("--what", "random", "--seed", "3", "--deals", "1-40000")


def test_ctrl_c_stops_the_run_and_its_workers_in_one_line_and_a_rerun_continues(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    run = StudyRun(db, *RANDOM, "--workers", "2")
    try:
        run.wait_for_rows()
        run.ctrl_c()
        code = run.finish()
        left = no_process_left(run.process.pid)
    finally:
        run.close()
    output = run.plain
    assert code == 130, output
    assert "Traceback" not in output and "KeyboardInterrupt" not in output and "Error" not in output, output
    assert left == [], f"processes of the run still running: {left}"
    # The bar knew its total from its first frame: never rich's placeholder of 100.
    assert "/40,000" in output and not re.search(r"/100(?![,\d])", output), output
    first = stored(db)
    assert 0 < len(first) < 40000
    again = subprocess.run([*CLI, "study", "run", "--db", str(db), *RANDOM, "--workers", "2", "--json"],
                           capture_output=True, text=True, timeout=600)  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert '"done": 40000' in again.stdout
    after = stored(db)
    assert len(after) == 40000 and {deal: after[deal] for deal in first} == first  # kept, not computed again


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=lambda s: s.name)
def test_sigterm_and_a_closed_terminal_stop_the_run_quietly_and_keep_its_rows(tmp_path: Path, signum: int) -> None:
    db = tmp_path / "s.db"
    run = StudyRun(db, *RANDOM, "--workers", "2", "--no-progress")
    try:
        run.wait_for_rows()
        if signum == signal.SIGTERM:
            run.process.send_signal(signum)  # to the run alone, as kill does
        else:
            os.killpg(run.process.pid, signum)  # to every process of the terminal's job, as a closed terminal does
        code = run.finish()
        left = no_process_left(run.process.pid)
    finally:
        run.close()
    output = run.plain
    assert code == 128 + signum, output
    assert "Traceback" not in output and "Error" not in output, output
    assert "deals/s" not in output and "━" not in output, "a bar despite --no-progress"
    assert left == [], f"processes of the run still running: {left}"
    assert 0 < rows(db) < 40000


# Run in a process of its own, so that its children's peak memory is only that of the run it starts.
MEASURE = """
import os, resource, signal, sqlite3, subprocess, sys, time
db, command = sys.argv[1], sys.argv[2:]
run = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
def rows():
    try:
        with sqlite3.connect(db) as con:
            return con.execute("SELECT count(*) FROM results").fetchone()[0]
    except sqlite3.OperationalError:
        return 0
deadline = time.monotonic() + 120
while rows() < 1 and run.poll() is None and time.monotonic() < deadline:
    time.sleep(0.2)
started = run.poll() is None and rows() > 0
os.killpg(run.pid, signal.SIGINT)  # as Ctrl-C at a terminal: the whole group
err = run.communicate(timeout=120)[1].decode()
print(started, run.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rows(), repr(err))
"""


@pytest.mark.parametrize("what", ["random", "greedy"])
def test_a_study_of_every_deal_starts_at_once_in_bounded_memory(tmp_path: Path, what: str) -> None:
    db = tmp_path / "s.db"
    command = [*CLI, "study", "run", "--what", what, "--deals", "0-18446744073709551615", "--db", str(db),
               "--workers", "1"]  # fmt: skip
    result = subprocess.run([sys.executable, "-c", MEASURE, str(db), *command],
                            capture_output=True, text=True, timeout=600)  # fmt: skip
    assert result.returncode == 0, result.stderr
    started, code, peak_kb, count, err = result.stdout.split(" ", 4)
    assert started == "True", f"no row stored: {err}"
    assert code == "130" and "Traceback" not in err, err
    assert int(peak_kb) < 1_500_000, f"a run of every deal reached {int(peak_kb) // 1024} MB"
    with sqlite3.connect(db) as con:  # the first deals, in order, each once
        deals = [d for (d,) in con.execute("SELECT deal FROM results ORDER BY deal")]
    assert deals == list(range(int(count)))
