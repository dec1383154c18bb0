"""What the routes are given (FastAPI dependencies): the store, the player and browser, the compute pool, the analyses.

:func:`foursquare.web.app.create_app` puts them in ``app.state``; a test may replace any of them
with ``app.dependency_overrides``.
"""

from __future__ import annotations

import ipaddress
import json
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.concurrency import run_in_threadpool

from foursquare.store import DamagedGameError, Store, StoredGame
from foursquare.web.errors import ForbiddenError, RateLimitedError
from foursquare.web.player import cross_site
from foursquare.web.pool import ComputePool
from foursquare.web.rate_limits import Kind, RateLimits
from foursquare.web.retention import RetentionSettings

Analysis = dict[str, Any]
Check = Callable[[StoredGame], None]
Start = Callable[[StoredGame], Future[Analysis]]


class AnalysisJobs:
    """The analyses being computed, by game id, so that simultaneous requests for one game share one computation.

    Whether a game's analysis is stored, and whether it is being computed, is decided under one lock, and a
    finished computation is stored and forgotten under it too: so a request sees the stored analysis, or joins
    the computation under way, or starts the only one. (A thread lock, not an asyncio one: requests may come
    from different event loops, e.g. a test client's; it is held only for a database read or write, in a
    worker thread.)
    """

    def __init__(self) -> None:
        self._jobs: dict[str, Future[Analysis]] = {}
        self._guard = threading.Lock()

    def stored_or_job(self, store: Store, game_id: str, check: Check, start: Start) -> str | Future[Analysis]:
        """The stored analysis text, or the computation of it, joined or started (``start``; ``check`` first)."""
        with self._guard:
            stored = store.games.get(game_id)
            check(stored)
            if stored.analysis is not None and is_current(stored.analysis):
                return stored.analysis
            job = self._jobs.get(game_id)
            if job is None:
                job = self._jobs[game_id] = start(stored)
            return job

    def finish(self, store: Store, game_id: str, job: Future[Analysis]) -> str:
        """Store the result of a finished ``job`` (the first to finish it does), and answer the stored text."""
        with self._guard:
            if self._jobs.get(game_id) is job:
                del self._jobs[game_id]  # a failed computation is forgotten too: the next request tries again
            analysis = job.result()
            store.games.save_analysis(game_id, analysis)  # does nothing if it is stored already
            stored = store.games.get(game_id)
        if stored.analysis is None:
            raise DamagedGameError(f"the analysis of game {game_id!r} was not stored")
        return stored.analysis


def is_current(analysis_text: str) -> bool:
    """Whether a stored analysis has today's shape (one of an older version is computed again)."""
    try:
        from foursquare.analysis import VERSION
    except ImportError:
        return True  # nothing newer can be computed here
    version = json.loads(analysis_text).get("version", 1)
    return isinstance(version, int) and version >= VERSION


# The dependencies that only read app.state or the request are coroutines: FastAPI runs a plain function in a
# worker thread, a hop that costs a request more than the function (benchmarks/hint_traffic_history.md).
async def get_store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


async def get_browser(request: Request) -> str:
    """The browser's player cookie (see :mod:`foursquare.web.player`): what names its session, if it has one.

    Refused as :func:`get_player` refuses it (an account's own id is no cookie), so that the account routes, which
    act on the cookie, never take a value read from a copy of the database.
    """
    await get_player(request)
    browser: str = request.state.browser
    return browser


async def get_player(request: Request) -> str:
    """The player whose games the request plays: the account's for a browser signed in, else the anonymous
    player of the cookie (its hash: :func:`foursquare.store.tokens.anonymous_player`).

    A cookie that is an account's own player id (which no browser is ever given) is refused 403 ``no_player``:
    an account's games are reached through a session only. Resolved once per request; a cookie known to be
    anonymous without a worker thread or a read.
    """
    resolved: str | None = getattr(request.state, "player", None)
    if resolved is not None:
        return resolved
    store: Store = request.app.state.store
    browser: str = request.state.browser
    player = store.accounts.known_player(browser) or await run_in_threadpool(store.accounts.player_of, browser)
    if player is None:
        raise ForbiddenError("no_player")
    request.state.player = player
    return player


async def get_client(request: Request) -> str:
    return client_address(request)


def client_address(request: Request) -> str:
    """Who is asking, as far as fair use is concerned: the client's address (an IPv6 address's /64 network).

    Not the cookie, which a client may drop at will; behind a reverse proxy the address is the one the proxy
    forwards, when ``foursquare serve --trusted-proxies`` names that proxy (uvicorn sets it from the headers).
    """
    host = request.client.host if request.client else ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host or "unknown"  # a test client's "testclient", a Unix socket's ""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)  # an IPv4 client of a dual-stack server: ::ffff:a.b.c.d is a.b.c.d
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


async def get_retention(request: Request) -> RetentionSettings:
    settings: RetentionSettings = request.app.state.retention
    return settings


async def get_analysis_jobs(request: Request) -> AnalysisJobs:
    jobs: AnalysisJobs = request.app.state.analysis_jobs
    return jobs


async def get_pool(request: Request) -> ComputePool:
    pool: ComputePool = request.app.state.pool
    return pool


def rate_limited(kind: Kind) -> Callable[[Request], Awaitable[None]]:
    """A dependency that counts a request of ``kind`` by its client, and refuses it 429 past the limit.

    Another site's request is refused first (403 ``cross_site``), uncounted: a page elsewhere that loads a hint's
    address a hundred times would otherwise spend the visitor's limit.
    """

    async def count(request: Request) -> None:
        if cross_site(request):
            raise ForbiddenError("cross_site")
        limits: RateLimits = request.app.state.rate_limits
        client = client_address(request)
        if limits.in_memory:  # a few microseconds: no worker thread
            retry_after = limits.retry_after(kind, client)
        else:  # counted in the database
            retry_after = await run_in_threadpool(limits.retry_after, kind, client)
        if retry_after is not None:
            raise RateLimitedError(retry_after)

    return count


StoreDep = Annotated[Store, Depends(get_store)]
PlayerDep = Annotated[str, Depends(get_player)]
BrowserDep = Annotated[str, Depends(get_browser)]
ClientDep = Annotated[str, Depends(get_client)]
RetentionDep = Annotated[RetentionSettings, Depends(get_retention)]
AnalysisJobsDep = Annotated[AnalysisJobs, Depends(get_analysis_jobs)]
PoolDep = Annotated[ComputePool, Depends(get_pool)]
