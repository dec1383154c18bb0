"""The probes, the request id and the metrics' labels, in the server's process (tests/test_operations.py drives real
servers through an outage, a scripted game and a drain); and the Grafana dashboard of docs/ asks only for metrics
the server has."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from foursquare.web import create_app
from foursquare.web import pool as pool_module
from foursquare.web.pool import PoolSettings
from foursquare.web.rate_limits import RateLimits
from web_support import as_player

DASHBOARD = Path(__file__).parent.parent / "docs" / "grafana-dashboard.json"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    limits = RateLimits(hints="1/hour", games="1/hour")
    with TestClient(create_app(tmp_path / "games.db", pool=PoolSettings("thread", 1), rate_limits=limits)) as client:
        yield client


def samples(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    text = generate_latest(client.app.state.metrics.registry).decode()  # type: ignore[attr-defined]
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def test_the_probes_answer_one_word_set_no_cookie_and_count_in_no_limit(client: TestClient) -> None:
    for _ in range(20):  # far past the one game and the one hint an hour of this server's limits
        for path, word in (("/healthz", "ok"), ("/readyz", "ready")):
            answer = client.get(path)
            assert (answer.status_code, answer.text) == (200, f"{word}\n")
            assert answer.headers["content-type"].startswith("text/plain")
            assert answer.headers["cache-control"] == "no-store"
            assert "set-cookie" not in answer.headers
            assert not client.cookies
    assert client.head("/readyz").status_code == 200
    assert client.app.state.rate_limits.refusals() == dict.fromkeys(client.app.state.rate_limits.refusals(), 0)  # type: ignore[attr-defined]


def test_the_probes_are_not_in_the_api_document(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert "/healthz" not in paths and "/readyz" not in paths


def test_readiness_says_draining_then_a_broken_pool_which_it_replaces(client: TestClient) -> None:
    health = client.app.state.health  # type: ignore[attr-defined]
    health.draining = True
    answer = client.get("/readyz")
    assert (answer.status_code, answer.text) == (503, "draining\n")
    assert client.get("/healthz").status_code == 200
    health.draining = False
    lane = client.app.state.pool  # type: ignore[attr-defined]
    key = pool_module._key(lane.lane, lane.settings)
    broken = pool_module._executors[key]
    assert isinstance(broken, ThreadPoolExecutor)
    broken._broken = "a worker died"  # type: ignore[attr-defined]  # what a dead worker leaves
    answer = client.get("/readyz")
    assert (answer.status_code, answer.text) == (503, "pool\n")
    assert pool_module._executors[key] is not broken  # replaced: the next probe finds it alive
    assert client.get("/readyz").text == "ready\n"


def test_readiness_says_warming_until_every_pool_has_warmed_up(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """tests/test_warming.py holds real workers' warm-up; here a pool of threads, warmed up at once, is told not to
    be: the word comes after draining and a broken pool, before the database is asked."""
    state = client.app.state  # type: ignore[attr-defined]
    assert state.pool.warmed_up() and state.heavy_pool.warmed_up()
    monkeypatch.setattr(state.heavy_pool, "warmed_up", lambda: False)
    answer = client.get("/readyz")
    assert (answer.status_code, answer.text) == (503, "warming\n")
    state.health.draining = True
    assert client.get("/readyz").text == "draining\n"
    state.health.draining = False
    monkeypatch.undo()
    assert client.get("/readyz").text == "ready\n"


def test_a_request_id_is_made_for_a_client_and_never_taken_from_one(client: TestClient) -> None:
    answer = client.get("/api/stats", headers={"X-Request-ID": "chosen-by-the-client"})
    assert re.fullmatch(r"[0-9a-f]{16}", answer.headers["x-request-id"])
    assert client.get("/api/stats").headers["x-request-id"] != answer.headers["x-request-id"]


def test_the_labels_are_route_templates_and_a_fixed_set_of_methods(client: TestClient) -> None:
    as_player(client)
    state = client.post("/api/games", json={"deal": 3}).json()
    client.get(f"/api/games/{state['id']}")
    client.get(f"/api/games/{state['id']}/no-such-thing")
    client.request("BREW", f"/api/games/{state['id']}")
    client.get("/static/style.css")
    client.get("/openapi.json")
    found = samples(client)
    requests = {
        dict(labels)["route"]: dict(labels) for (name, labels) in found if name == "foursquare_http_requests_total"
    }
    assert {"/api/games", "/api/games/{game_id}", "unmatched", "/static", "/openapi.json"} <= set(requests)
    assert requests["/api/games/{game_id}"]["method"] in ("GET", "other")
    assert (
        "foursquare_http_requests_total",
        (("method", "other"), ("route", "/api/games/{game_id}"), ("status", "405")),
    ) in found
    assert not any(state["id"] in value for (_, labels) in found for _, value in labels)


def test_the_dashboard_asks_only_for_metrics_the_server_has(client: TestClient) -> None:
    as_player(client)
    client.post("/api/games", json={"deal": 3})
    names = {name for (name, _) in samples(client)}
    names |= {name.removesuffix("_count") + "_bucket" for name in names if name.endswith("_count")}  # histograms
    dashboard = json.loads(DASHBOARD.read_text())
    exprs = [target["expr"] for panel in dashboard["panels"] for target in panel.get("targets", [])]
    assert len(exprs) >= 4
    for expr in exprs:
        asked = set(re.findall(r"\bfoursquare_[a-z_]+", expr))
        assert asked and asked <= names, (expr, asked - names)
    titles = " ".join(panel["title"].lower() for panel in dashboard["panels"])
    for topic in ("moves", "p95", "queue", "refus"):
        assert topic in titles, topic


def test_the_probes_answer_whatever_the_host_and_the_api_does_not(tmp_path: Path) -> None:
    """A proxy's health check asks by the server's address (Caddy: ``Host: 127.0.0.1:8000``)."""
    app = create_app(tmp_path / "games.db", ["games.example.org"], pool=PoolSettings("thread", 1))
    with TestClient(app) as client:
        for host in ("127.0.0.1:8000", "games.example.org"):
            assert client.get("/readyz", headers={"Host": host}).text == "ready\n"
            assert client.get("/healthz", headers={"Host": host}).text == "ok\n"
        assert client.get("/api/stats", headers={"Host": "127.0.0.1:8000"}).json()["code"] == "bad_host"
        assert client.get("/readyz/", headers={"Host": "127.0.0.1:8000"}).status_code == 400
