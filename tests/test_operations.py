"""``foursquare serve`` as operators run it: the probes through a database outage, the metrics after a scripted game,
one JSON log line per request with no secret in it, and a drain on SIGTERM that loses no request in flight.

Every test drives real server processes (:func:`test_server_process.serving`), on SQLite and on the session's
throwaway PostgreSQL (or a cluster of the test's own, when it stops it). Nothing waits for a time to pass: each
waits for what it expects — a probe's answer, a metric, a log line — with a guard that is never reached when all
is well.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

import postgres_support
from foursquare.cards import deal_stock
from foursquare.store import SCHEMA_VERSION
from test_accounts import Authenticator, b64, create_passkey, sign_in
from test_server_process import serving

pytestmark = pytest.mark.slow  # real server processes

GUARD = 120.0
"""Seconds after which what a test waits for is declared never to come (never reached when all is well)."""

THREADS = {"FOURSQUARE_POOL": "thread"}
"""Hints in the server's own threads: no worker process to start and warm up."""


def environment(**more: str) -> dict[str, str]:
    """This process's environment, hints in threads, moves as fast as a script plays them, and ``more``."""
    kept = {k: v for k, v in os.environ.items() if not k.startswith("FOURSQUARE_RATE_")}
    return {**kept, **THREADS, "FOURSQUARE_RATE_MOVES": "10000/second", **more}


def until(what: Callable[[], Any], description: str) -> Any:
    """``what()`` asked again until it answers something true (the event came); its answer."""
    deadline = time.monotonic() + GUARD
    while not (answer := what()):
        assert time.monotonic() < deadline, f"never: {description}"
        time.sleep(0.05)
    return answer


def metrics_url(process: Any) -> str:
    """The metrics' address that ``serve --metrics-port 0`` printed (after its first line, before it answered)."""
    lines: list[str] = []
    while (found := re.search(r"Metrics for Prometheus at (\S+)", lines[-1] if lines else "")) is None:
        line = process.stdout.readline()
        assert line, f"no metrics line in {lines}"
        lines.append(line)
    return found.group(1)


def scrape(url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """The samples of the metrics at ``url``, parsed by prometheus_client's own parser: {(name, labels): value}."""
    answer = httpx.get(url, timeout=GUARD)
    assert answer.status_code == 200
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
    }


def sample(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def play_to_the_end(client: httpx.Client, state: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """Play ``state``'s game to its end; the last state and the number of moves placed."""
    moves = 0
    while state["outcome"] == "playing":
        row, col = state["legal"][state["turn"] % len(state["legal"])]
        answer = client.post(f"/api/games/{state['id']}/moves", json={"row": row, "col": col, "turn": state["turn"]})
        assert answer.status_code == 200, answer.text
        state = answer.json()
        moves += 1
    return state, moves


@pytest.fixture
def cluster() -> Iterator[postgres_support.Cluster]:
    """A cluster of this test's own, since the test stops its server."""
    if not postgres_support.available():
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL is not installed: make test installs Debian's postgresql package")
        pytest.skip("PostgreSQL is not installed (make test installs it)")
    started = postgres_support.Cluster.start()
    yield started
    started.stop()


def probe(url: str, path: str) -> httpx.Response:
    answer = httpx.get(f"{url}{path}", timeout=GUARD)
    assert "set-cookie" not in answer.headers
    assert answer.headers["cache-control"] == "no-store"
    return answer


def test_ready_goes_503_while_postgresql_is_down_and_back_health_stays_200(cluster: postgres_support.Cluster) -> None:
    with serving(cluster.new_database(), "--metrics-port", "0", env=environment()) as (url, process):
        metrics = metrics_url(process)
        assert (probe(url, "/healthz").status_code, probe(url, "/healthz").text) == (200, "ok\n")
        assert (probe(url, "/readyz").status_code, probe(url, "/readyz").text) == (200, "ready\n")
        cluster.halt()
        try:
            down = until(lambda: (a := probe(url, "/readyz")).status_code == 503 and a, "readyz saying 503")
            assert down.text == "database\n"
            assert probe(url, "/healthz").status_code == 200  # the process is up all the same
            assert probe(url, "/readyz").text == "database\n"
        finally:
            cluster.resume()
        until(lambda: probe(url, "/readyz").status_code == 200, "readyz ready again")
        assert probe(url, "/healthz").status_code == 200
        samples = scrape(metrics)
        # The probes are counted as requests (by their route), never in a rate limit.
        assert sample(samples, "foursquare_http_requests_total", method="GET", route="/readyz", status="503") >= 2
        assert not any(value for (name, _), value in samples.items() if name == "foursquare_rate_limit_refusals_total")
        assert sample(samples, "foursquare_ready") == 1


def test_a_schema_another_version_wrote_is_not_ready_on_sqlite(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with serving(db, env=environment()) as (url, _):
        assert probe(url, "/readyz").text == "ready\n"
        with sqlite3.connect(db) as conn:  # a newer version's server migrated the file meanwhile
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        answer = probe(url, "/readyz")
        assert (answer.status_code, answer.text) == (503, "schema\n")
        assert probe(url, "/healthz").status_code == 200


def test_the_metrics_count_what_a_scripted_session_did(database: str) -> None:
    env = environment(FOURSQUARE_RATE_HINTS="2/hour")  # the third is refused by the count, however slow the hints
    with serving(database, "--metrics-port", "0", env=env) as (url, process):
        metrics = metrics_url(process)
        assert metrics.startswith("http://127.0.0.1:") and metrics.endswith("/metrics")
        with httpx.Client(base_url=url.replace("127.0.0.1", "localhost"), timeout=GUARD) as client:
            assert client.get("/api/stats").status_code == 200
            numbered = client.post("/api/games", json={"deal": 1}).json()
            finished, moves = play_to_the_end(client, numbered)
            random_game = client.post("/api/games", json={}).json()
            daily = client.post("/api/games", json={"daily": True}).json()
            hints = [client.get(f"/api/games/{random_game['id']}/hint").status_code for _ in range(3)]
            assert hints == [200, 200, 429]
            authenticator = Authenticator(origin=url.replace("127.0.0.1", "localhost"))
            assert create_passkey(client, authenticator).status_code == 201
            stale = client.post("/api/account/passkeys", json=authenticator.create(
                {"rp": {"id": "localhost"}, "user": {"id": "AAAA"}, "challenge": "c3RhbGU"}
            ))  # fmt: skip
            assert stale.json()["code"] == "stale_challenge"
            assert sign_in(client, authenticator).status_code == 200
        samples = scrape(metrics)
    assert sample(samples, "foursquare_moves_total") == moves
    moved = sample(samples, "foursquare_http_requests_total", method="POST", route="/api/games/{game_id}/moves",
                   status="200")  # fmt: skip
    assert moved == moves
    timed = sample(samples, "foursquare_http_request_duration_seconds_count", method="POST",
                   route="/api/games/{game_id}/moves")  # fmt: skip
    assert timed == moves
    for kind in ("numbered", "random", "daily"):
        assert sample(samples, "foursquare_games_started_total", kind=kind) == 1, kind
    assert sample(samples, "foursquare_games_finished_total", kind="numbered", outcome=finished["outcome"]) == 1
    assert sample(samples, "foursquare_rate_limit_refusals_total", limit="hints") == 1
    assert sample(samples, "foursquare_rate_limit_refusals_total", limit="moves") == 0
    ceremonies = "foursquare_passkey_ceremonies_total"
    assert sample(samples, ceremonies, ceremony="registration", result="ok") == 1
    assert sample(samples, ceremonies, ceremony="registration", result="stale_challenge") == 1
    assert sample(samples, ceremonies, ceremony="authentication", result="ok") == 1
    assert sample(samples, "foursquare_pool_workers", lane="hints") >= 1
    assert sample(samples, "foursquare_pool_queue_length", lane="hints") == 0
    assert ("foursquare_pool_refusals_total", (("lane", "heavy"),)) in samples
    on_postgres = database.startswith("postgresql://")
    assert (("foursquare_database_pool_size", ()) in samples) == on_postgres
    labels = {value for (_, pairs) in samples for _, value in pairs}
    for game in (numbered, random_game, daily):
        assert not any(game["id"] in value for value in labels), "a game's id in a label"


def test_a_json_log_line_per_request_with_no_secret_in_it(database: str) -> None:
    secret = "hunter2-never-logged"
    if database.startswith("postgresql://"):  # the cluster trusts local users: the password is never asked
        database = database.replace("postgresql://foursquare@", f"postgresql://foursquare:{secret}@", 1)
    options = ("--log-format", "json", "--trusted-proxies", "127.0.0.1")
    with serving(database, *options, env=environment()) as (url, process):
        base = url.replace("127.0.0.1", "localhost")
        answers: list[httpx.Response] = []
        with httpx.Client(base_url=base, timeout=GUARD, event_hooks={"response": [answers.append]}) as client:
            client.get("/api/stats")
            state = client.post("/api/games", json={"deal": 7}).json()
            state, _ = play_to_the_end(client, state)
            client.get(f"/api/games/{state['id']}/record")
            authenticator = Authenticator(origin=base)
            passkey = create_passkey(client, authenticator)
            assert passkey.status_code == 201
            cookies = [value for value in client.cookies.values()]
            client.get("/healthz", headers={"X-Request-ID": "from-the-proxy-42"})
            client.get(f"/api/games/{state['id']}", headers={"X-Request-ID": "bad id with spaces"})
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=GUARD) == 0
        lines = [json.loads(line) for line in process.stderr.read().splitlines()]
    access = [line for line in lines if line["logger"] == "foursquare.access"]
    waits = len(access) - len(answers)  # the requests of serving(), which waits for the server to answer
    assert waits >= 1 and {line["route"] for line in access[:waits]} == {"/openapi.json"}
    access = access[waits:]  # then one line a request, none of anything else
    for line, answer in zip(access, answers, strict=True):
        assert line["request_id"] == answer.headers["x-request-id"]
        assert line["status"] == answer.status_code and line["method"] == answer.request.method
        assert set(line) == {"time", "level", "logger", "message", "request_id", "method", "route", "status",
                             "duration_ms", "client"}  # fmt: skip
        assert line["level"] == "info" and line["duration_ms"] >= 0
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", line["time"])
    assert access[-2]["request_id"] == "from-the-proxy-42"  # the trusted proxy's own id
    assert re.fullmatch(r"[0-9a-f]{16}", access[-1]["request_id"])  # a malformed one is replaced
    assert access[-1]["route"] == "/api/games/{game_id}"
    text = "\n".join(json.dumps(line) for line in lines)
    passkey_ids = [b64(key_id) for key_id in authenticator.keys] + [passkey.json()["passkeys"][0]["id"]]
    stock = [str(card) for card in deal_stock(7)]
    forbidden = [*cookies, *passkey_ids, secret, state["id"], " ".join(stock[:6]), ",".join(stock[:6]),
                 json.dumps(stock[:6])]  # fmt: skip
    for word in forbidden:
        assert word not in text, word
    assert any(line["logger"] == "uvicorn.error" and line["message"].startswith("Started server") for line in lines)


def draining_for(seconds: float) -> list[str]:
    """``foursquare serve`` with :data:`~foursquare.web.server.DRAIN_TIMEOUT` set to ``seconds``: a drain that waits
    for the requests in flight however slow the machine, where the product's 10 s would be a race with the clock."""
    code = (
        "import sys; import foursquare.web.server as server; "
        f"server.DRAIN_TIMEOUT = {seconds!r}; "
        "from foursquare.cli import main; sys.exit(main(['serve', *sys.argv[1:]]))"
    )
    return [sys.executable, "-c", code]


def test_sigterm_answers_every_request_in_flight_and_exits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An analysis (seconds of work) is in flight when SIGTERM comes, and moves keep coming on other connections:
    every request the server took is answered, the others are refused at the door (a connection error before a
    byte is sent), the server says it is draining at once, and the process exits. The drain's bound is the test
    below's: here it is as long as :data:`GUARD`, so that the analysis is answered on a machine of any speed."""
    monkeypatch.setattr("test_server_process.SERVE", draining_for(GUARD))
    with serving(tmp_path / "games.db", "--metrics-port", "0", env=environment()) as (url, process):
        metrics = metrics_url(process)
        with httpx.Client(base_url=url, timeout=GUARD) as client:
            client.get("/api/stats")
            cookies = dict(client.cookies)
            warm, _ = play_to_the_end(client, client.post("/api/games", json={"deal": 1}).json())
            assert client.get(f"/api/games/{warm['id']}/analysis").status_code == 200  # the solver is loaded
            finished, _ = play_to_the_end(client, client.post("/api/games", json={"deal": 2}).json())
        analysed: list[int] = []
        moved: list[str] = []
        stop = threading.Event()

        def analyse() -> None:
            with httpx.Client(base_url=url, timeout=GUARD, cookies=cookies) as own:
                analysed.append(own.get(f"/api/games/{finished['id']}/analysis").status_code)

        def mover() -> None:
            """Moves back to back on one keep-alive connection, then on new ones, until the door is shut."""
            with httpx.Client(base_url=url, timeout=GUARD, cookies=cookies) as own:
                state: dict[str, Any] = {"outcome": "over"}
                while not stop.is_set():
                    try:
                        if state["outcome"] != "playing":
                            answer = own.post("/api/games", json={})
                        else:
                            row, col = state["legal"][0]
                            body = {"row": row, "col": col, "turn": state["turn"]}
                            answer = own.post(f"/api/games/{state['id']}/moves", json=body)
                    except httpx.ConnectError:
                        moved.append("refused")  # nothing was sent: the client knows to go elsewhere
                        return
                    except httpx.TransportError as exc:
                        moved.append(f"lost: {exc!r}")
                        return
                    moved.append(str(answer.status_code))
                    if answer.status_code in (200, 201):
                        state = answer.json()

        threads = [threading.Thread(target=analyse), *(threading.Thread(target=mover) for _ in range(2))]
        for thread in threads:
            thread.start()
        until(lambda: sample(scrape(metrics), "foursquare_pool_busy_workers", lane="heavy") == 1, "the analysis runs")
        until(lambda: len(moved) >= 10, "moves answered")
        with httpx.Client(base_url=url, timeout=GUARD) as keep_alive:
            assert keep_alive.get("/readyz").text == "ready\n"
            process.send_signal(signal.SIGTERM)
            after = keep_alive.get("/readyz")  # on a connection opened before the signal
            assert (after.status_code, after.text) == (503, "draining\n")
        assert process.wait(timeout=GUARD) == 0
        stop.set()
        for thread in threads:
            thread.join(timeout=GUARD)
        assert analysed == [200]  # the analysis in flight was answered
        assert not [outcome for outcome in moved if outcome.startswith("lost")], moved
        assert set(moved) <= {"200", "201", "refused"}, moved
        with pytest.raises(httpx.ConnectError):
            httpx.get(f"{url}/healthz")
        log = process.stderr.read()
        assert "Traceback" not in log and "ERROR" not in log, log


def test_a_request_that_never_arrives_whole_holds_the_exit_for_the_drain_only(tmp_path: Path) -> None:
    """The drain is bounded (:data:`~foursquare.web.server.DRAIN_TIMEOUT`, the product's): a request whose body
    never comes is in flight for good, yet SIGTERM ends the server, which cancels it and exits 0 — by the bound's
    own clock, not the test's (the request's deadline, ``--request-timeout``, is far beyond the drain)."""
    with serving(tmp_path / "games.db", "--request-timeout", "3600", env=environment()) as (url, process):
        with httpx.Client(base_url=url, timeout=GUARD) as client:
            client.get("/api/stats")
            cookie = "; ".join(f"{name}={value}" for name, value in client.cookies.items())
        port = int(url.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=GUARD) as stuck:
            head = (
                "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                f"Cookie: {cookie}\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n"
            )
            stuck.sendall(head.encode())
            # uvicorn says 100 Continue when the app asks for the body: the request is in the app, in flight.
            assert stuck.recv(4096).startswith(b"HTTP/1.1 100 Continue"), "the app did not ask for the body"
            stuck.sendall(b'{"deal": ')  # and never the rest
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=GUARD) == 0
            answer = b""
            with contextlib.suppress(ConnectionError):
                while chunk := stuck.recv(4096):
                    answer += chunk
        log = process.stderr.read()
    assert not answer.startswith(b"HTTP/1.1 2"), answer  # never played
    assert "Cancel 1 running task(s), timeout graceful shutdown exceeded" in log, log
