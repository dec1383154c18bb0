"""No process a test starts outlives the run, however the run ends: here pytest itself is killed (SIGKILL, which
no handler, atexit or fixture finaliser sees) while a test holds the suite's PostgreSQL cluster and a child
process of its own. The watchdogs (``process_support``, ``postgres_support``) end both."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import postgres_support

TESTS = Path(__file__).resolve().parent
GUARD = 120.0
"""Seconds only a hang reaches: the waits below end on what they wait for."""

HOLDER = '''
import json, os, subprocess, sys, time
from conftest import postgres_cluster  # the suite's fixture, as the store's tests take it

def test_holds_the_cluster_and_a_child(postgres_cluster):
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
    postmaster = int((postgres_cluster.root / "data" / "postmaster.pid").read_text().split()[0])
    report = {"root": str(postgres_cluster.root), "postmaster": postmaster, "child": child.pid}
    with open(os.environ["HOLDER_REPORT"] + ".part", "w") as file:
        json.dump(report, file)
    os.replace(os.environ["HOLDER_REPORT"] + ".part", os.environ["HOLDER_REPORT"])
    time.sleep(3600)  # until killed
'''


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, ended but not yet waited for by its parent, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_until(condition: object, what: str) -> None:
    deadline = time.monotonic() + GUARD  # a guard against a hang, not a measure
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@pytest.mark.slow  # PostgreSQL, from apt: make test's
@pytest.mark.skipif(not postgres_support.available(), reason="PostgreSQL is not installed (make test installs it)")
def test_a_killed_run_leaves_no_server_nor_child(tmp_path: Path) -> None:
    (tmp_path / "test_holder.py").write_text(HOLDER)
    report = tmp_path / "report.json"
    env = {**os.environ, "PYTHONPATH": str(TESTS), "HOLDER_REPORT": str(report)}
    run = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", os.devnull, "--rootdir", str(tmp_path),
         str(tmp_path / "test_holder.py")],
        cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        wait_until(lambda: report.exists() or run.poll() is not None, "the test never started its cluster")
        assert run.poll() is None, "the inner run ended before it was killed"
    finally:
        run.kill()
        run.wait()
    held = json.loads(report.read_text())
    wait_until(lambda: not alive(held["child"]), f"the test's child {held['child']} outlived the killed run")
    wait_until(lambda: not alive(held["postmaster"]), f"PostgreSQL {held['postmaster']} outlived the killed run")
    wait_until(lambda: not Path(held["root"]).exists(), f"the cluster's folder {held['root']} outlived the run")
