"""``foursquare serve`` as a real process: it survives SIGKILL without losing a move, and refuses bad databases."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.slow  # every test starts the server, or the command, as a real process

SERVE = [sys.executable, "-m", "foursquare.cli", "serve"]
START_TIMEOUT = 300.0
"""Seconds for the server to answer its first request: only a hang reaches it (a busy machine may take a minute)."""
GUARD = 300.0
"""Seconds after which what a test waits for (an answer, an exit, a file) is declared never to come: only a hang
reaches it, however busy the machine (30 s was reached under load)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def serving(
    db: Path | str | None, *extra: str, env: dict[str, str] | None = None
) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """Start ``foursquare serve`` on a free port; yield its URL once it answers; SIGKILL it afterwards.

    Its output goes to files (a pipe nobody reads fills up with the access log and blocks the server);
    ``process.stdout`` and ``process.stderr`` read them from the start.
    """
    port = free_port()
    logs = Path(tempfile.mkdtemp(prefix="foursquare-serve-"))
    with (logs / "stdout").open("w") as out, (logs / "stderr").open("w") as err:
        process = subprocess.Popen(
            [*SERVE, "--port", str(port), *([] if db is None else ["--db", str(db)]), *extra],
            stdout=out,
            stderr=err,
            text=True,
            env=env,
        )
    process.stdout = (logs / "stdout").open()
    process.stderr = (logs / "stderr").open()
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if process.poll() is not None:
                pytest.fail(f"the server exited with {process.returncode}: {process.stderr.read()}")  # type: ignore[union-attr]
            try:
                httpx.get(f"{url}/openapi.json", timeout=2)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    pytest.fail(f"the server did not answer within {START_TIMEOUT:.0f} s")
                time.sleep(0.1)
        yield url, process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
        process.wait(timeout=GUARD)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()
        shutil.rmtree(logs, ignore_errors=True)


def without_timestamps(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in ("created_at", "updated_at", "placed", "flips")}


def test_a_game_survives_sigkill_and_resumes_exactly(database: str) -> None:
    db = database  # a file, then a PostgreSQL database
    with httpx.Client(timeout=GUARD) as http:
        with serving(db) as (url, process):
            assert http.get(f"{url}/api/stats").status_code == 200  # the player's cookie, as the page gets it
            finished = http.post(f"{url}/api/games", json={"deal": 1}).json()
            while finished["outcome"] == "playing":  # a game to the end, for the statistics
                row, col = finished["legal"][finished["turn"] % len(finished["legal"])]
                response = http.post(
                    f"{url}/api/games/{finished['id']}/moves", json={"row": row, "col": col, "turn": finished["turn"]}
                )
                assert response.status_code == 200, response.text
                finished = response.json()
            state = http.post(f"{url}/api/games", json={}).json()
            for _ in range(4):
                row, col = state["legal"][-1]
                state = http.post(
                    f"{url}/api/games/{state['id']}/moves", json={"row": row, "col": col, "turn": state["turn"]}
                ).json()
            state = http.post(f"{url}/api/games/{state['id']}/undo").json()
            assert (state["turn"], state["can_redo"], state["deal"]) == (3, True, None)
            before = http.get(f"{url}/api/games/{state['id']}").json()
            stats = http.get(f"{url}/api/stats").json()
            games = http.get(f"{url}/api/games").json()
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=GUARD)
            assert process.stdout is not None
            assert process.stdout.readline().startswith(f"Foursquare is being served at {url}/")

        with serving(db) as (url, _):
            after = http.get(f"{url}/api/games/{state['id']}").json()
            assert without_timestamps(after) == without_timestamps(before)
            assert after == before  # nothing changed, so not even the timestamps
            assert http.get(f"{url}/api/stats").json() == stats
            assert stats["played"] == 1 and stats["lost"] == 1
            assert http.get(f"{url}/api/games").json() == games
            # and it goes on from where it was: the redo list survived too
            again = http.post(f"{url}/api/games/{state['id']}/redo").json()
            assert again["turn"] == 4
            row, col = again["legal"][0]
            moved = http.post(f"{url}/api/games/{state['id']}/moves", json={"row": row, "col": col, "turn": 4})
            assert moved.status_code == 200 and moved.json()["turn"] == 5


def children_of(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(stat.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads Linux's /proc")
def test_the_hint_workers_end_when_their_server_is_killed(tmp_path: Path) -> None:
    with serving(tmp_path / "games.db") as (_, process):
        workers: set[int] = set()
        deadline = time.monotonic() + START_TIMEOUT
        while not workers and time.monotonic() < deadline:  # started with the server, in the background
            workers = {pid for pid in children_of(process.pid) if "spawn_main" in cmdline(pid)}
            time.sleep(0.2)
        assert workers, "the server started no hint worker"
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=GUARD)
    deadline = time.monotonic() + GUARD
    while any(Path(f"/proc/{pid}").exists() and "spawn_main" in cmdline(pid) for pid in workers):
        assert time.monotonic() < deadline, f"hint workers {sorted(workers)} outlived their server"
        time.sleep(0.2)


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


def test_a_corrupt_database_stops_the_server_with_exit_2_and_is_left_alone(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    content = b"SQLite format 3\x00" + os.urandom(4000)
    db.write_bytes(content)
    result = subprocess.run([*SERVE, "--port", str(free_port()), "--db", str(db)], capture_output=True, text=True,
                            timeout=120)  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.startswith(f"foursquare: error: {db} is not a readable Foursquare database")
    assert "Traceback" not in result.stderr and result.stdout == ""
    assert db.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.db"]


def test_a_busy_port_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = subprocess.run([*SERVE, "--port", str(port), "--db", str(tmp_path / "g.db")], capture_output=True,
                                text=True, timeout=120)  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.startswith(f"foursquare: error: cannot listen on 127.0.0.1 port {port}: ")
    assert "Traceback" not in result.stderr


def test_open_the_default_database_and_ctrl_c(tmp_path: Path) -> None:
    """--open shows the page in the browser; without --db the database goes to the user data directory."""
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser.py"
    browser.write_text(f"import sys\nopen({str(opened)!r}, 'w').write(sys.argv[1])\n")
    data = tmp_path / "data"
    env = {**os.environ, "BROWSER": f"{sys.executable} {browser} %s", "XDG_DATA_HOME": str(data)}
    with serving(None, "--open", env=env) as (url, process):
        deadline = time.monotonic() + GUARD
        while not opened.exists() or not opened.read_text():
            assert time.monotonic() < deadline, "the browser was not opened"
            time.sleep(0.1)
        assert opened.read_text() == f"{url}/"
        with httpx.Client(timeout=GUARD) as http:
            assert http.get(f"{url}/api/stats").status_code == 200  # the player's cookie, as the page gets it
            assert http.post(f"{url}/api/games", json={"deal": 3}).status_code == 201
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=GUARD) == 0
        assert process.stdout is not None
        db = data / "foursquare" / "games.db"
        assert process.stdout.readline() == (
            f"Foursquare is being served at {url}/  (database: {db}; press Ctrl+C to stop)\n"
        )
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT deal FROM games").fetchall() == [("3",)]


def test_without_db_the_server_shares_the_data_directory_of_the_terminal_game(tmp_path: Path) -> None:
    """FOURSQUARE_DATA_DIR moves serve's default database as it moves the terminal game's and stats'."""
    data = tmp_path / "made by serve"
    env = {**os.environ, "FOURSQUARE_DATA_DIR": str(data), "XDG_DATA_HOME": str(tmp_path / "not here")}
    with serving(None, env=env) as (_, process):
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=GUARD) == 0
        assert process.stdout is not None
        assert f"(database: {data / 'games.db'};" in process.stdout.readline()
    assert (data / "games.db").is_file() and not (tmp_path / "not here").exists()


def test_a_request_for_another_host_name_is_refused(tmp_path: Path) -> None:
    """By default a server on a loopback address answers its loopback names only (no DNS rebinding)."""
    with serving(tmp_path / "games.db") as (url, process):
        port = url.rsplit(":", 1)[1]
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", "LOCALHOST"):
            assert httpx.get(f"{url}/api/stats", headers={"Host": host}).status_code == 200, host
        refused = httpx.get(f"{url}/api/stats", headers={"Host": "attacker.example"})
        assert refused.status_code == 400
        assert refused.json() == {
            "detail": "the host name 'attacker.example' is not served here "
            "(foursquare serve --allowed-hosts names those that are)",
            "code": "bad_host",
        }
        assert refused.headers["x-content-type-options"] == "nosniff"
        assert "frame-ancestors 'none'" in refused.headers["content-security-policy"]
        assert httpx.get(f"{url}/", headers={"Host": "attacker.example"}).status_code == 400
        assert process.stderr is not None
        assert "warning" not in process.stderr.read()


def test_allowed_hosts_names_the_hosts_served(tmp_path: Path) -> None:
    with serving(tmp_path / "games.db", "--allowed-hosts", "games.example.org, *.example.net") as (url, process):
        for host, status in [
            ("games.example.org", 200), ("games.example.org:8443", 200), ("a.example.net", 200),
            ("example.net", 400), ("127.0.0.1", 400), ("games.example.org.evil", 400), ("", 400),
        ]:  # fmt: skip
            assert httpx.get(f"{url}/api/stats", headers={"Host": host}).status_code == status, host
        assert process.stderr is not None
        assert "warning" not in process.stderr.read()


def test_a_public_address_without_allowed_hosts_warns(tmp_path: Path) -> None:
    with serving(tmp_path / "games.db", "--host", "0.0.0.0") as (url, process):
        assert httpx.get(f"{url}/api/stats", headers={"Host": "whatever.example"}).status_code == 200
        assert process.stderr is not None
        warning = process.stderr.readline()
        assert warning.startswith("warning: listening on 0.0.0.0, which other machines can reach, and answering")
        assert "pass --allowed-hosts with the names this server is reached by" in warning
    with serving(tmp_path / "games.db", "--host", "0.0.0.0", "--allowed-hosts", "*") as (url, process):
        assert httpx.get(f"{url}/api/stats", headers={"Host": "whatever.example"}).status_code == 200
        assert process.stderr is not None
        assert "warning" not in process.stderr.read()


def test_bad_allowed_hosts_is_a_usage_error(tmp_path: Path) -> None:
    result = subprocess.run([*SERVE, "--allowed-hosts", " , ", "--db", str(tmp_path / "g.db")], capture_output=True,
                            text=True, timeout=120)  # fmt: skip
    assert result.returncode == 2
    assert "--allowed-hosts: give at least one host name" in result.stderr


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=lambda s: s.name)
def test_sigterm_and_a_closed_terminal_stop_the_server_gracefully(tmp_path: Path, signum: signal.Signals) -> None:
    with serving(tmp_path / "games.db") as (url, process):
        with httpx.Client(timeout=GUARD) as http:
            assert http.get(f"{url}/api/stats").status_code == 200
            assert http.post(f"{url}/api/games", json={"deal": 4}).status_code == 201
        process.send_signal(signum)
        assert process.wait(timeout=GUARD) == 0
        assert process.stderr is not None
        log = process.stderr.read()
        assert "Traceback" not in log and "ERROR" not in log, log
        assert "Finished server process" in log
    with sqlite3.connect(tmp_path / "games.db") as conn:
        assert conn.execute("SELECT deal FROM games").fetchall() == [("4",)]
