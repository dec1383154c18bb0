"""The server's metrics, in Prometheus's text format, through the maintained client (``prometheus_client``).

Each app has a registry of its own (:class:`Metrics`; a test process builds many apps), which ``foursquare serve
--metrics-port`` serves on an address of its own, loopback by default (:func:`serve_metrics`): never on the
public port, never through the proxy. With several server processes each serves its own; Prometheus scrapes
each as a target (docs/deploy.md).

What is counted as it happens costs a request a dictionary look-up and a lock or two (the children of each label
set are kept): the requests by route template (never the path, which holds a game's id) and status, their
latency, the moves placed, the games started and finished by kind, the refusals of each rate limit, the passkey
ceremonies by result, the answers that found the database away. What is a level (the pools' queues and busy
workers, the database pool's connections, the requests in progress) is read when Prometheus asks, by a collector
(:class:`LevelsCollector`): no request pays for it, and no request does database work for a metric.

No label holds a cookie, a passkey, a game's id or stock, or an address: only route templates, statuses, methods
from a fixed list, and the kinds, limits, lanes and results the code names.

>>> metrics = Metrics()
>>> metrics.request("GET", "/api/stats", 200, 0.003)
>>> metrics.request("BREW", "/api/games/{game_id}", 405, 0.001)
>>> from prometheus_client import generate_latest
>>> text = generate_latest(metrics.registry).decode()
>>> 'foursquare_http_requests_total{method="GET",route="/api/stats",status="200"} 1.0' in text
True
>>> 'method="other"' in text
True
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import start_http_server
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector
from starlette.requests import Request

if TYPE_CHECKING:
    from wsgiref.simple_server import WSGIServer

    from foursquare.store import Store, StoredGame
    from foursquare.web.pool import ComputePool
    from foursquare.web.rate_limits import RateLimits

PREFIX = "foursquare"

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
"""The methods a label names; any other is ``other`` (a client chooses the method: it must not choose labels)."""

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
"""Seconds: a move takes a few milliseconds, a hint tens to hundreds, an analysis or a winnable deal seconds."""

DATABASE_POOL_LEVELS = {
    "pool_size": ("size", "connections open"),
    "pool_available": ("idle", "connections open and idle"),
    "requests_waiting": ("waiting", "requests waiting for a connection"),
    "pool_max": ("max", "most connections it opens"),
}
"""The database pool's levels (psycopg_pool's ``get_stats`` names) exported as gauges."""

DATABASE_POOL_COUNTS = {
    "requests_num": ("connection_requests", "connections asked of the pool"),
    "requests_errors": ("connection_request_errors", "connections asked of the pool and not had in time"),
    "connections_errors": ("connection_errors", "connections to the database that failed to open"),
    "connections_lost": ("connections_lost", "connections found broken when checked"),
}
"""The database pool's counts since the server started, exported as counters (their names here)."""


def game_kind(game: StoredGame) -> str:
    """What a game's deal was, as the metrics say it: ``offline``, ``daily``, ``winnable``, ``numbered``, ``random``
    or ``stock`` (a game of a given order of cards, e.g. a copy of a game played offline)."""
    if game.offline:
        return "offline"
    if game.daily is not None:
        return "daily"
    if game.winnable:
        return "winnable"
    if game.deal is None:
        return "stock"
    return "random" if game.deal_hidden else "numbered"


class Metrics:
    """The metrics of one app: its registry, and what the routes and the middleware count in it."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self._requests = Counter(
            "http_requests", "HTTP requests answered, by method, route template and status",
            ("method", "route", "status"), namespace=PREFIX, registry=self.registry,
        )  # fmt: skip
        self._latency = Histogram(
            "http_request_duration_seconds", "Seconds from a request's arrival to the end of its answer",
            ("method", "route"), namespace=PREFIX, buckets=LATENCY_BUCKETS, registry=self.registry,
        )  # fmt: skip
        self._moves = Counter("moves", "Cards placed (moves answered 200)", namespace=PREFIX, registry=self.registry)
        self._started = Counter("games_started", "Games started, by kind of deal", ("kind",), namespace=PREFIX,
                                registry=self.registry)  # fmt: skip
        self._finished = Counter("games_finished", "Games finished, by kind of deal and outcome", ("kind", "outcome"),
                                 namespace=PREFIX, registry=self.registry)  # fmt: skip
        self._passkeys = Counter(
            "passkey_ceremonies", "Passkey ceremonies (registration, authentication) by result: ok or the error code",
            ("ceremony", "result"), namespace=PREFIX, registry=self.registry,
        )  # fmt: skip
        self._database_away = Counter(
            "database_unavailable", "Requests answered 503 database_unavailable (the database could not be reached)",
            namespace=PREFIX, registry=self.registry,
        )  # fmt: skip
        self._children: dict[tuple[str, str, int], tuple[Any, Any]] = {}
        self._guard = threading.Lock()
        self.in_progress = 0
        """Requests being answered now (the middleware counts them; the event loop's thread alone writes it)."""
        self.levels = LevelsCollector(self)
        self.registry.register(self.levels)
        ProcessCollector(namespace=PREFIX, registry=self.registry)  # CPU seconds, memory, open files
        PlatformCollector(registry=self.registry)

    def request(self, method: str, route: str, status: int, seconds: float) -> None:
        """Count one request answered: its method, its route template, its status, how long it took."""
        key = (method, route, status)
        children = self._children.get(key)
        if children is None:
            label = method if method in METHODS else "other"
            with self._guard:
                children = self._children.setdefault(
                    key, (self._requests.labels(label, route, str(status)), self._latency.labels(label, route))
                )
        children[0].inc()
        children[1].observe(seconds)

    def move(self) -> None:
        self._moves.inc()

    def game_started(self, game: StoredGame) -> None:
        self._started.labels(game_kind(game)).inc()

    def game_finished(self, game: StoredGame) -> None:
        self._finished.labels(game_kind(game), game.outcome).inc()

    def passkey(self, ceremony: str, result: str) -> None:
        """A passkey ``ceremony`` (``registration``, ``authentication``) ended in ``result`` (``ok`` or a code)."""
        self._passkeys.labels(ceremony, result).inc()

    def database_unavailable(self) -> None:
        self._database_away.inc()

    def watch(
        self,
        *,
        pools: Iterable[ComputePool] = (),
        rate_limits: RateLimits | None = None,
        store: Store | None = None,
        ready: Callable[[], bool] | None = None,
    ) -> None:
        """Read these levels when Prometheus asks: the pools', the rate limits' refusals, the database pool's, and
        whether the server is ready (``ready()``: not draining and its workers warmed up, as far as it knows without
        asking the database)."""
        self.levels.pools = tuple(pools)
        self.levels.rate_limits = rate_limits
        self.levels.store = store
        self.levels.ready = ready


class LevelsCollector(Collector):
    """The metrics read when Prometheus asks: levels and counts kept as plain numbers by the pools, the limits and
    the database pool."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self.pools: tuple[ComputePool, ...] = ()
        self.rate_limits: RateLimits | None = None
        self.store: Store | None = None
        self.ready: Callable[[], bool] | None = None

    def describe(self) -> Iterable[Metric]:
        return ()  # described by collecting: the families depend on what is watched

    def collect(self) -> Iterable[Metric]:
        name = f"{PREFIX}_"
        progress = GaugeMetricFamily(f"{name}http_requests_in_progress", "Requests being answered now")
        progress.add_metric([], self.metrics.in_progress)
        yield progress
        if self.ready is not None:
            ready = GaugeMetricFamily(f"{name}ready", "1 while the server is ready; 0 while warming up or draining")
            ready.add_metric([], 1 if self.ready() else 0)
            yield ready
        yield from self._pools(name)
        if self.rate_limits is not None:
            refused = CounterMetricFamily(f"{name}rate_limit_refusals", "Requests refused 429 by each limit",
                                          labels=("limit",))  # fmt: skip
            for kind, count in sorted(self.rate_limits.refusals().items()):
                refused.add_metric([kind], count)
            yield refused
        if self.store is not None:
            yield from self._database(name, self.store.database.pool_stats())

    def _pools(self, name: str) -> Iterable[Metric]:
        if not self.pools:
            return
        families = {
            "workers": GaugeMetricFamily(f"{name}pool_workers", "Workers of each pool", labels=("lane",)),
            "busy": GaugeMetricFamily(f"{name}pool_busy_workers", "Jobs running on each pool", labels=("lane",)),
            "queue": GaugeMetricFamily(f"{name}pool_queue_length", "Jobs waiting for a worker", labels=("lane",)),
            "capacity": GaugeMetricFamily(f"{name}pool_queue_capacity", "Jobs that may wait", labels=("lane",)),
        }
        refused = CounterMetricFamily(f"{name}pool_refusals", "Jobs refused 503 busy (the pool full)", labels=("lane",))
        for pool in self.pools:
            levels = pool.levels()
            for key, family in families.items():
                family.add_metric([pool.lane], levels[key])
            refused.add_metric([pool.lane], levels["refused"])
        yield from families.values()
        yield refused

    def _database(self, name: str, stats: Mapping[str, int]) -> Iterable[Metric]:
        if not stats:
            return  # SQLite: a file, no pool
        for key, (metric, help_text) in DATABASE_POOL_LEVELS.items():
            gauge = GaugeMetricFamily(f"{name}database_pool_{metric}", f"The database pool's {help_text}")
            gauge.add_metric([], stats.get(key, 0))
            yield gauge
        for key, (metric, help_text) in DATABASE_POOL_COUNTS.items():
            count = CounterMetricFamily(f"{name}database_{metric}", f"The database pool's {help_text}")
            count.add_metric([], stats.get(key, 0))
            yield count


def serve_metrics(metrics: Metrics, host: str, port: int) -> WSGIServer:
    """Serve ``metrics`` at ``http://host:port/metrics`` (any path, in fact) from a thread of this process:
    prometheus_client's own server. The socket is bound before this returns (``OSError`` if it cannot be)."""
    server, _ = start_http_server(port, addr=host, registry=metrics.registry)
    return server


def metrics_of(request: Request) -> Metrics:
    """The metrics of the app that answers ``request`` (:func:`~foursquare.web.app.create_app` makes them)."""
    metrics: Metrics = request.app.state.metrics
    return metrics
