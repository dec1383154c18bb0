"""What the tests read of running processes from /proc, and the watchdog that ends every process they started.

A test process (pytest, or each of its xdist workers) tags the processes it starts with an environment variable
that they and their own children inherit (:data:`TAG`): servers, browsers, clusters, workers. A watchdog started
beside it waits for it to end, however it ends (a normal exit, Ctrl-C, SIGTERM, SIGKILL, a crashed worker), then
ends every process that still carries the tag: none outlives the run. Run as a program, this module is that
watchdog: ``process_support.py PARENT_PID TAG_VALUE``.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

TAG = "FOURSQUARE_TEST_PROCESS"
"""The environment variable that names the test process a process was started under."""

GRACE = 10.0
"""Seconds the tagged processes get to end after SIGTERM before SIGKILL ends them."""


def group_usage(pgid: int) -> tuple[int, float]:
    """The processes of group ``pgid`` (a command and the workers it started) and the CPU time they have used."""
    count, total = 0, 0.0
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split() if entry.name.isdigit() else []
        except OSError:  # gone meanwhile
            continue
        if fields and int(fields[2]) == pgid:
            count += 1
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return count, total


def end_with_this_process() -> str:
    """Tag every process this one starts from now on, and start the watchdog that ends them once this process
    has ended. The watchdog runs untagged, in a session of its own (the Ctrl-C that ends the tests does not end
    it). Returns the tag's value."""
    value = f"{os.getpid()}-{secrets.token_hex(6)}"
    os.environ[TAG] = value
    detach([sys.executable, __file__, str(os.getpid()), value])
    return value


#: Starts its arguments as a command in a new session, and ends at once.
_STARTER = """import subprocess, sys
subprocess.Popen(sys.argv[1:], cwd="/", start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                 stderr=subprocess.DEVNULL)"""


def detach(command: list[str]) -> None:
    """Start ``command`` untagged, in a session of its own (the Ctrl-C that ends the tests does not reach it), and
    not as a child of this process: a go-between starts it and ends, so nothing here waits for the command, nor
    warns at exit that it still runs."""
    untagged = {name: text for name, text in os.environ.items() if name != TAG}
    subprocess.run([sys.executable, "-c", _STARTER, *command], env=untagged, check=True, timeout=120)


def tagged(value: str) -> list[int]:
    """The running processes that carry the tag ``value`` (as their environment was when they started)."""
    needle = f"\0{TAG}={value}\0".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environment = (entry / "environ").read_bytes()
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if needle in b"\0" + environment:
            found.append(int(entry.name))
    return found


def wait_for_end(pid: int) -> None:
    """Return once the process ``pid`` has ended (a pidfd: no polling, no mistaking a later process for it)."""
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:  # already gone
        return
    select.select([handle], [], [])
    os.close(handle)


def end_tagged(value: str) -> None:
    """SIGTERM to every process tagged ``value``, then SIGKILL to those still running after :data:`GRACE`."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in tagged(value):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)
        deadline = time.monotonic() + GRACE
        while tagged(value) and time.monotonic() < deadline:
            time.sleep(0.1)


if __name__ == "__main__":  # the watchdog
    wait_for_end(int(sys.argv[1]))
    end_tagged(sys.argv[2])
