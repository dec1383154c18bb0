"""Studies through a real Dask scheduler and real worker processes on localhost, started here.

One scheduler and two workers (``dask scheduler``, ``dask worker`` subprocesses) serve the whole module:
a cluster takes seconds to start, and numba's compiled code seconds to load in each worker.
"""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from foursquare.study import DealResult, StudyProgress, StudySettings, StudyStore, compute_chunk, run_study

pytestmark = pytest.mark.slow  # a cluster to start, and whole studies to run

DASK = str(Path(sys.executable).with_name("dask"))
GREEDY = StudySettings("greedy")
GUARD = 300  # seconds: a bound that only a hang reaches, on a machine however busy


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_worker(address: str, name: str) -> subprocess.Popen[bytes]:
    """A worker without a nanny, so that killing this process kills the worker itself."""
    command = [DASK, "worker", address, "--no-nanny", "--nthreads", "1", "--name", name, "--no-dashboard"]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_for_workers(address: str, n: int) -> None:
    from distributed import Client

    with Client(address, timeout=GUARD) as client:
        client.wait_for_workers(n, timeout=120)


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    address = f"tcp://127.0.0.1:{free_port()}"
    port = address.rsplit(":", 1)[1]
    processes = [
        subprocess.Popen(
            [DASK, "scheduler", "--host", "127.0.0.1", "--port", port, "--no-dashboard"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    ]
    try:
        processes += [start_worker(address, f"w{i}") for i in (1, 2)]
        wait_for_workers(address, 2)
        yield address
    finally:  # the workers killed (one busy with a chunk took 30 s to close), then the scheduler stopped
        for worker in processes[1:]:
            worker.kill()
            worker.wait(timeout=GUARD)
        processes[0].terminate()
        try:
            processes[0].wait(timeout=GUARD)
        except subprocess.TimeoutExpired:
            processes[0].kill()
            processes[0].wait(timeout=GUARD)


def same(rows: list[DealResult]) -> list[tuple[object, ...]]:
    """A row without its time, which is the only thing that may differ between two computations."""
    return [(r.deal, r.status, r.score, r.upper_bound, r.nodes, r.moves) for r in rows]


def stored_rows(db: Path, settings: StudySettings) -> list[DealResult]:
    with StudyStore(db) as store:
        return store.results(store.study(settings))


def test_a_study_through_the_cluster_gives_the_rows_of_one_process(scheduler: str, tmp_path: Path) -> None:
    deals = list(range(1, 201))
    seen: list[StudyProgress] = []
    with StudyStore(tmp_path / "s.db") as store:
        study = run_study(store, GREEDY, deals, scheduler=scheduler, progress=seen.append)
        rows = store.results(study)
    assert same(rows) == same(compute_chunk(GREEDY, deals))
    assert seen[0].done == 0 and seen[-1].done == seen[-1].total == 200 and len(seen) > 2


def test_solver_rows_through_the_cluster_are_those_of_solve(scheduler: str, tmp_path: Path) -> None:
    settings = StudySettings("solver", timeout=10.0)
    deals = [1, 2, 3, 5, 8]
    with StudyStore(tmp_path / "s.db") as store:
        rows = store.results(run_study(store, settings, deals, scheduler=scheduler))
    local = compute_chunk(settings, deals)
    proven = [i for i, r in enumerate(local) if r.status != "bounds" and rows[i].status != "bounds"]
    assert proven, "no deal was proven in time: the machine is far too slow for this test"
    assert [same(rows)[i][:4] for i in proven] == [same(local)[i][:4] for i in proven]


def test_a_worker_killed_mid_study_still_ends_with_every_deal_once(scheduler: str, tmp_path: Path) -> None:
    from distributed import Client

    victim = start_worker(scheduler, "victim")
    try:
        wait_for_workers(scheduler, 3)
        watcher = Client(scheduler, timeout=GUARD)

        def kill_the_victim(progress: StudyProgress) -> None:
            """Kill the third worker while it is computing a chunk, so that chunk must be computed again."""
            if victim.poll() is not None:
                return
            busy = {w["name"]: a for a, w in watcher.scheduler_info()["workers"].items()}
            if watcher.processing().get(busy.get("victim"), ()):
                victim.send_signal(signal.SIGKILL)

        deals = list(range(1, 601))
        db = tmp_path / "s.db"
        with watcher, StudyStore(db) as store:
            run_study(store, GREEDY, deals, scheduler=scheduler, progress=kill_the_victim)
        assert victim.wait(timeout=GUARD) == -signal.SIGKILL, "the victim was never seen computing a chunk"
    finally:
        if victim.poll() is None:
            victim.kill()
            victim.wait()
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT count(*), count(DISTINCT deal) FROM results").fetchone() == (600, 600)
    assert same(stored_rows(db, GREEDY)) == same(compute_chunk(GREEDY, deals))


DEALS = 16_000


def test_run_killed_and_run_again_ends_with_the_rows_of_an_uninterrupted_run(scheduler: str, tmp_path: Path) -> None:
    # Eight chunks of 2,000 random games, some seconds of work: the first rows come well before the last,
    # however busy the machine (it slows the run as much as the watching). 800 deals in chunks of 100 once
    # all came between two looks half a second apart.
    db = tmp_path / "s.db"
    command = [sys.executable, "-m", "foursquare.cli", "study", "run", "--what", "random", "--seed", "5",
               "--deals", f"1-{DEALS}", "--db", str(db)]  # fmt: skip
    log = tmp_path / "run.log"
    with open(log, "wb") as err:
        run = subprocess.Popen([*command, "--workers", "1"], stdout=subprocess.DEVNULL, stderr=err)
    settings = StudySettings("random", seed=5)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and run.poll() is None:
        time.sleep(0.005)
        if db.exists() and _count(db) > 0:
            break
    assert run.poll() is None, log.read_text()
    os.kill(run.pid, signal.SIGKILL)
    run.wait()
    first = _count(db)
    assert 0 < first < DEALS
    again = subprocess.run([*command, "--scheduler", scheduler, "--json"], capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    rows = stored_rows(db, settings)
    assert [r.deal for r in rows] == list(range(1, DEALS + 1))
    assert same(rows) == same(compute_chunk(settings, range(1, DEALS + 1)))


def _count(db: Path) -> int:
    try:
        with sqlite3.connect(db) as con:
            return int(con.execute("SELECT count(*) FROM results").fetchone()[0])
    except sqlite3.OperationalError:  # not created yet
        return 0
