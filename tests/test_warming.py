"""A fresh ``foursquare serve`` is not ready until its workers have warmed up (issue 43): ``/readyz`` says
``warming`` while a hint or analysis worker is still loading what it runs, and ``ready`` once every one has — or
has failed to and said so, and the same again for a pool that broke and was replaced.

Nothing here waits for a time to pass: the workers' warm-up is held by a file lock the test holds (the server is
started from a script of the test's, which wraps the players' warm-up in each worker process; no setting of the
product's), and each step waits for an event — a worker at the lock, a probe's answer — with a guard that is
never reached when all is well.
"""

from __future__ import annotations

import fcntl
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import httpx
import pytest

from test_operations import GUARD, metrics_url, probe, sample, scrape, until
from test_server_process import serving

pytestmark = pytest.mark.slow  # real server processes, and their worker processes

HELD_SERVE = '''\
"""foursquare serve, whose worker processes wait for the test's lock before they warm up the players."""
import fcntl
import os
import sys

import foursquare.players

_warm_up = foursquare.players.warm_up


def held_warm_up(*args, **kwargs):
    open(os.path.join(os.environ["WARMING_TEST_MARKS"], str(os.getpid())), "w").close()  # at the lock
    with open(os.environ["WARMING_TEST_LOCK"]) as lock:
        fcntl.flock(lock, fcntl.LOCK_SH)  # until the test lets go of its own
    if os.environ.get("WARMING_TEST_FAIL"):
        raise RuntimeError("this warm-up fails, as the test asked")
    return _warm_up(*args, **kwargs)


if __name__ == "__mp_main__":  # in a worker process: spawn runs this file there under that name
    foursquare.players.warm_up = held_warm_up

if __name__ == "__main__":
    from foursquare.cli import main

    sys.exit(main(sys.argv[1:]))
'''


class Lock:
    """The file lock the workers' warm-up waits for: held by the test until it lets go (:meth:`release`)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.touch()
        self._file: IO[str] | None = None

    def hold(self) -> None:
        self._file = self.path.open()
        fcntl.flock(self._file, fcntl.LOCK_EX)

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # closing it lets go of the lock
            self._file = None


@pytest.fixture
def held(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Lock, Path, dict[str, str]]]:
    """The lock (held), the folder where each worker marks its arrival at it, and the server's environment: one
    hint worker and one heavy worker, processes."""
    script = tmp_path / "held_serve.py"
    script.write_text(HELD_SERVE)
    monkeypatch.setattr("test_server_process.SERVE", [sys.executable, str(script), "serve"])
    lock = Lock(tmp_path / "warm-up.lock")
    marks = tmp_path / "at-the-lock"
    marks.mkdir()
    kept = {k: v for k, v in os.environ.items() if not k.startswith(("FOURSQUARE_POOL", "FOURSQUARE_HEAVY"))}
    env = {**kept, "FOURSQUARE_POOL_WORKERS": "1", "FOURSQUARE_HEAVY_WORKERS": "1",
           "WARMING_TEST_LOCK": str(lock.path), "WARMING_TEST_MARKS": str(marks)}  # fmt: skip
    lock.hold()
    try:
        yield lock, marks, env
    finally:
        lock.release()


def at_the_lock(marks: Path) -> list[int]:
    """The worker processes that have come to the lock, by pid."""
    return sorted(int(mark.name) for mark in marks.iterdir())


def readiness(url: str) -> tuple[int, str]:
    answer = probe(url, "/readyz")
    return answer.status_code, answer.text


def until_ready(url: str) -> list[str]:
    """Ask ``/readyz`` until it says ready; the words it said before."""
    said: list[str] = []

    def ready() -> bool:
        status, word = readiness(url)
        if status != 200:
            said.append(word)
        return status == 200

    until(ready, "readyz saying ready")
    return said


def test_ready_waits_for_every_worker_and_for_a_broken_pool_s_replacement(
    held: tuple[Lock, Path, dict[str, str]], tmp_path: Path
) -> None:
    lock, marks, env = held
    with serving(tmp_path / "games.db", "--metrics-port", "0", env=env) as (url, process):
        metrics = metrics_url(process)
        until(lambda: len(at_the_lock(marks)) == 2, "the hint worker and the heavy worker at the lock")
        for _ in range(3):
            assert readiness(url) == (503, "warming\n")
        assert sample(scrape(metrics), "foursquare_ready") == 0  # the metric says what /readyz says
        assert probe(url, "/healthz").status_code == 200  # the process is up all the same
        lock.release()
        assert set(until_ready(url)) <= {"warming\n"}
        assert readiness(url) == (200, "ready\n")
        assert sample(scrape(metrics), "foursquare_ready") == 1

        # A worker dies (killed, out of memory): its pool is replaced, and its fresh worker warms up again.
        lock.hold()
        killed = at_the_lock(marks)[0]
        os.kill(killed, signal.SIGKILL)
        said = until(lambda: (answer := readiness(url)) != (200, "ready\n") and answer, "readyz noticing the death")
        assert said == (503, "pool\n")
        assert readiness(url) == (503, "warming\n")
        until(lambda: len(at_the_lock(marks)) == 3, "the replacement's worker at the lock")
        assert readiness(url) == (503, "warming\n")
        assert sample(scrape(metrics), "foursquare_ready") == 0
        lock.release()
        assert set(until_ready(url)) <= {"warming\n"}
        with httpx.Client(base_url=url, timeout=GUARD) as client:
            assert client.get("/api/stats").status_code == 200  # the player's cookie, as the page gets it
            assert client.post("/api/games", json={"winnable": True}).status_code == 201
            state = client.post("/api/games", json={"deal": 2}).json()
            assert client.get(f"/api/games/{state['id']}/hint").status_code == 200
        assert process.stderr is not None
        log = process.stderr.read()
        assert "warming up" not in log and "Traceback" not in log, log


def test_a_worker_that_fails_to_warm_up_leaves_the_server_ready_all_the_same(
    held: tuple[Lock, Path, dict[str, str]], tmp_path: Path
) -> None:
    lock, marks, env = held
    with serving(tmp_path / "games.db", env={**env, "WARMING_TEST_FAIL": "1"}) as (url, process):
        until(lambda: len(at_the_lock(marks)) == 2, "the hint worker and the heavy worker at the lock")
        assert readiness(url) == (503, "warming\n")
        lock.release()
        assert set(until_ready(url)) <= {"warming\n"}
        assert process.stderr is not None
        log = process.stderr.read()
        for lane in ("hints", "heavy"):
            assert f"warming up a {lane} worker failed" in log, log
        assert "this warm-up fails, as the test asked" in log
