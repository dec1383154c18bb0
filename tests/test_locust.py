"""The Locust load test, briefly and for correctness only: Locust's master and a worker, as processes of their
own, drive two servers on one PostgreSQL database with players, a hint client and the abusive client.

Every user stops itself after a number of moves (``FOURSQUARE_LOCUST_MOVES``) and says so in a folder; the test
waits for them all and for their moves to reach Locust's master (counts, never a time), then stops Locust and
reads its statistics: no failure, and every planned move made. The figures themselves are
``benchmarks/locust_run.py``'s, in docs/performance.md.
"""

from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from test_server_process import serving

pytestmark = pytest.mark.slow  # real servers, Locust's processes

LOCUSTFILE = Path(__file__).resolve().parent.parent / "benchmarks" / "locust" / "locustfile.py"
GUARD = 300.0
"""Seconds after which the run is declared hung (never reached when all is well)."""
PLAYERS, HINT_CLIENTS, ABUSERS, MOVES = 4, 1, 1, 12


ABUSES = {"abuse: oversized body", "abuse: another player's game", "abuse: cross-site request"}


def reported(stats: Path) -> dict[str, int]:
    """The requests of each name in Locust's statistics file so far (none while it is not there or being rewritten)."""
    try:
        with stats.open(newline="") as file:
            return {row["Name"]: int(row["Request Count"]) for row in csv.DictReader(file)}
    except (OSError, KeyError, ValueError):
        return {}


def all_reported(counts: dict[str, int]) -> bool:
    """Whether every user's requests have reached the master: the players' and the hint client's moves, the hint
    client's hints, and each abuse."""
    return (
        counts.get("move", 0) >= PLAYERS * MOVES
        and counts.get("move (hint)", 0) >= HINT_CLIENTS * MOVES
        and counts.get("hint", 0) >= HINT_CLIENTS * MOVES
        and set(counts) >= ABUSES
    )


def test_players_hint_clients_and_an_abuser_on_two_servers_meet_no_failure(
    postgres_url: str, tmp_path: Path
) -> None:
    done = tmp_path / "done"
    done.mkdir()
    limits = {"FOURSQUARE_RATE_HINTS": "1000000/minute"}  # the hint client asks back to back, from one address
    env = {**os.environ, **limits, "FOURSQUARE_POOL": "thread"}  # no worker process to start for one hint client
    with serving(postgres_url, env=env) as (a, _), serving(postgres_url, env=env) as (b, _):
        users = PLAYERS + HINT_CLIENTS + ABUSERS
        locust_env = {
            **os.environ, "FOURSQUARE_LOCUST_SERVERS": f"{a},{b}", "FOURSQUARE_LOCUST_THINK": "0.05",
            "FOURSQUARE_LOCUST_PLAYERS": str(PLAYERS), "FOURSQUARE_LOCUST_HINT_CLIENTS": str(HINT_CLIENTS),
            "FOURSQUARE_LOCUST_ABUSERS": str(ABUSERS), "FOURSQUARE_LOCUST_MOVES": str(MOVES),
            "FOURSQUARE_LOCUST_DONE": str(done),
        }  # fmt: skip
        locust = [sys.executable, "-m", "locust", "-f", str(LOCUSTFILE)]
        master = [*locust, "--master", "--headless", "--expect-workers", "1", "--users", str(users),
                  "--spawn-rate", str(users), "--run-time", f"{GUARD:.0f}s", "--csv", str(tmp_path / "run"),
                  "--only-summary", "--host", a, "Player", "HintClient", "Abuser"]  # fmt: skip
        log = (tmp_path / "locust.log").open("wb")
        processes = [subprocess.Popen(master, env=locust_env, stdout=log, stderr=subprocess.STDOUT)]
        processes.append(subprocess.Popen([*locust, "--worker"], env=locust_env, stdout=log, stderr=subprocess.STDOUT))
        try:
            deadline = time.monotonic() + GUARD
            while len(list(done.iterdir())) < users:
                assert processes[0].poll() is None, (tmp_path / "locust.log").read_text()
                assert time.monotonic() < deadline, f"only {len(list(done.iterdir()))} of {users} users finished"
                time.sleep(0.2)
            # The worker reports to the master every few seconds, and the last report may not outlive the stop:
            # wait until the master's statistics (rewritten every few seconds) hold every user's requests.
            while not all_reported(reported(tmp_path / "run_stats.csv")):
                assert processes[0].poll() is None, (tmp_path / "locust.log").read_text()
                assert time.monotonic() < deadline, "the users finished, their requests never reached the master"
                time.sleep(0.2)
            processes[0].send_signal(signal.SIGTERM)  # Locust stops, writes its statistics and tells its worker
            assert processes[0].wait(timeout=120) in (0, 1), (tmp_path / "locust.log").read_text()
        finally:
            for process in processes:
                if process.poll() is None:
                    process.kill()
                process.wait(timeout=60)
            log.close()
    with (tmp_path / "run_stats.csv").open(newline="") as file:
        stats = {row["Name"]: row for row in csv.DictReader(file)}
    failures = (tmp_path / "run_failures.csv").read_text()
    assert int(stats["Aggregated"]["Failure Count"]) == 0, failures
    assert int(stats["move"]["Request Count"]) == PLAYERS * MOVES
    assert int(stats["move (hint)"]["Request Count"]) == HINT_CLIENTS * MOVES
    assert int(stats["hint"]["Request Count"]) >= HINT_CLIENTS * MOVES
    abuses = {name for name in stats if name.startswith("abuse: ")}
    assert abuses >= ABUSES
