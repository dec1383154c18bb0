"""The FastAPI application: the JSON API over the rules engine, and the page that plays it.

The server is authoritative: it keeps every game's stock and tells the page only what a player at a
real table would see — the grid and the card to place. ``docs/api.md`` documents every endpoint.

>>> import os, tempfile
>>> from fastapi.testclient import TestClient
>>> client = TestClient(create_app(os.path.join(tempfile.mkdtemp(), "games.db")))
>>> client.get("/api/stats").cookies["fs_player"] != ""  # a new player's first GET gives them their cookie
True
>>> state = client.post("/api/games", json={"deal": 1}).json()
>>> state["card"], state["legal"]
('3S', [[0, 0]])
>>> client.post(f"/api/games/{state['id']}/moves", json={"row": 0, "col": 0, "turn": 0}).json()["card"]
'AH'
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

from fastapi import FastAPI
from starlette.types import ASGIApp
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from foursquare.store import Clock, Store, system_clock
from foursquare.web.assets import StaticAssets
from foursquare.web.deps import AnalysisJobs
from foursquare.web.errors import install_error_handlers
from foursquare.web.health import Health
from foursquare.web.limits import BodyLimit
from foursquare.web.metrics import Metrics
from foursquare.web.observe import ObserveRequests
from foursquare.web.openapi import install as install_openapi
from foursquare.web.player import IdentifyPlayer
from foursquare.web.pool import ComputePool, PoolSettings
from foursquare.web.rate_limits import RateLimits
from foursquare.web.retention import Purger, RetentionSettings
from foursquare.web.routes import (
    account,
    analysis,
    daily,
    docs,
    games,
    languages,
    lesson,
    offline,
    page,
    pwa,
    stats,
)
from foursquare.web.routes import health as health_routes
from foursquare.web.routes.health import PROBES
from foursquare.web.security import AllowedHosts, SecurityHeaders

# No request of the API needs more than a few hundred bytes; a bigger body is refused (413) unread.
MAX_BODY_BYTES = 64 * 1024


class Foursquare(FastAPI):
    """FastAPI, with the security middleware outside even its error handling (so a 500 carries the headers too),
    the proxy's headers read outside those, and the request's id, metrics and log line outside everything."""

    allowed_hosts: tuple[str, ...] | None = None
    trusted_proxies: tuple[str, ...] = ()
    access_log: bool = False

    def build_middleware_stack(self) -> ASGIApp:
        inner = super().build_middleware_stack()
        if self.allowed_hosts is not None:
            inner = AllowedHosts(inner, self.allowed_hosts, exempt=PROBES)
        inner = SecurityHeaders(inner)
        if self.trusted_proxies:
            # uvicorn's own, here rather than in the server: the middleware outside it sees the proxy's address.
            inner = ProxyHeadersMiddleware(inner, trusted_hosts=list(self.trusted_proxies))  # type: ignore[arg-type,assignment]
        return ObserveRequests(
            inner,
            self.state.metrics,
            trusted_proxies=self.trusted_proxies,
            access_log=self.access_log,
        )


def create_app(
    database: str | Path,
    allowed_hosts: Iterable[str] | None = None,
    *,
    clock: Clock = system_clock,
    pool: PoolSettings | None = None,
    heavy_pool: PoolSettings | None = None,
    rate_limits: RateLimits | None = None,
    retention: RetentionSettings | None = None,
    trusted_proxies: Iterable[str] = (),
    access_log: bool = False,
) -> FastAPI:
    """The FastAPI application over the games ``database`` (checked, created if missing): an SQLite file's path, or
    a ``postgresql://`` URL of a database that several app servers may share (:mod:`foursquare.store.postgres`).

    With ``allowed_hosts`` (names, ``*.example.org``, or ``*``), a request for any other ``Host`` gets 400.
    ``clock`` tells the time (the date of the daily deal, the timestamps); a test may freeze it. Hints run on a
    bounded pool (:mod:`foursquare.web.pool`): ``pool``, or else the settings of the environment
    (:meth:`PoolSettings.from_environment`); analyses and winnable deals on a pool of their own, ``heavy_pool``,
    or else one worker of ``pool``'s settings, or else the environment's ``heavy`` lane. Each client may start
    games, change them, ask hints and analyses as often as ``rate_limits`` allow, or else the environment
    (:meth:`RateLimits.from_environment`). Live games are purged and capped as ``retention`` says, or else the
    environment
    (:meth:`~foursquare.web.retention.RetentionSettings.from_environment`).

    ``trusted_proxies`` (addresses, networks): the reverse proxies whose ``X-Forwarded-For``,
    ``X-Forwarded-Proto`` and ``X-Request-ID`` are believed. ``access_log``: log one line per request
    (:mod:`foursquare.web.observe`; ``serve --log-format json``). The app's metrics are ``app.state.metrics``
    (:mod:`foursquare.web.metrics`), its probes ``/healthz`` and ``/readyz`` (:mod:`foursquare.web.health`).

    Raises :class:`~foursquare.store.StoreError` if the database cannot be used, and
    :class:`~foursquare.web.pool.PoolSettingsError`, :class:`~foursquare.web.rate_limits.RateLimitSettingsError`
    or :class:`~foursquare.web.retention.RetentionSettingsError` if the pool's settings or the limits cannot work.
    """
    limits = rate_limits or RateLimits.from_environment(os.environ)
    kept = retention or RetentionSettings.from_environment(os.environ)
    store = Store(database, clock=clock)
    if store.database.backend.dialect == "postgresql":
        limits.shared_in(store)  # every server on the database counts each client once
    compute = ComputePool(pool or PoolSettings.from_environment())
    if heavy_pool is None:
        heavy_pool = PoolSettings.from_environment(lane="heavy") if pool is None else replace(pool, workers=1)
    heavy = ComputePool(heavy_pool, lane="heavy")

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        compute.start()
        heavy.start()
        async with Purger(store, kept, rates_kept=limits.longest_window()):  # at start, then every few minutes
            yield
        compute.close()
        heavy.close()
        store.close()

    app = Foursquare(
        title="Foursquare",
        summary="Play Wil Su's Foursquare solitaire; the server keeps the stock.",
        version="1",
        lifespan=lifespan,
        docs_url=None,  # routes/docs.py serves it, with its own content security policy
        redoc_url=None,
    )
    app.allowed_hosts = None if allowed_hosts is None else tuple(allowed_hosts)
    app.trusted_proxies = tuple(trusted_proxies)
    app.access_log = access_log
    metrics = Metrics()
    health = Health(store, (compute, heavy))
    metrics.watch(pools=(compute, heavy), rate_limits=limits, store=store, ready=lambda: health.ready_at_a_glance)
    app.state.metrics = metrics
    app.state.health = health
    app.state.store = store
    app.state.pool = compute
    app.state.heavy_pool = heavy
    app.state.rate_limits = limits
    app.state.retention = kept
    app.state.analysis_jobs = AnalysisJobs()
    app.add_middleware(IdentifyPlayer)
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    install_error_handlers(app)
    for router in (games.router, analysis.router, stats.router, languages.router, page.router, pwa.router, docs.router):
        app.include_router(router)
    app.include_router(daily.router)
    app.include_router(account.router)
    app.include_router(lesson.router)
    app.include_router(offline.router)
    app.include_router(health_routes.router)
    install_openapi(app)
    # The page's files: built ones when current, compressed, the built ones cached for good (web/assets.py).
    app.mount("/static", StaticAssets(page.STATIC_DIR), name="static")
    return app
