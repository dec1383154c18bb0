"""Whether the server is up and whether it can serve: what ``GET /healthz`` and ``GET /readyz`` answer.

- ``/healthz``: the process answers (200 ``ok`` at once, nothing read): a supervisor restarts a server that stops
  answering it.
- ``/readyz``: the server can serve now — it is not draining (a SIGTERM came), its pools' workers are not broken
  and have all warmed up (loaded what they run, so that the first hint or winnable deal does not wait for a
  worker's start), and its database answers within :data:`READY_DEADLINE` seconds with the schema this version
  writes — 200 ``ready``, or 503 with one word saying what is wrong (:data:`REASONS`). A proxy or an orchestrator
  sends requests only to a ready server.

The words are codes for programs and operators, like the API's error codes, not sentences: they are not
translated. Neither probe sets a cookie or counts toward any limit (they are outside ``/api/``), and neither is in
the OpenAPI document, which describes the game's API for its clients.

One probe reads the database at a time: a probe that comes while another's read is under way waits for that one
(within its own deadline), so that probes every second of a database that hangs hold one thread, not one each.
That thread is a daemon of its own, never one of the request threads, and never holds the server's exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterable

from foursquare.store import SCHEMA_VERSION, Store, StoreError
from foursquare.web.pool import ComputePool

READY_DEADLINE = 2.0
"""Seconds the database has to answer a readiness probe (the pool's wait for a connection included)."""

REASONS = {
    "draining": "a SIGTERM came: the server answers what is in flight and exits",
    "pool": "a pool of hint or analysis workers is broken (a fresh one is starting)",
    "warming": "the hint and analysis workers are still starting (loading what they run)",
    "database": f"the database did not answer within {READY_DEADLINE:g} s",
    "schema": "the database's schema is not the one this version writes (another version migrated it)",
}
"""Why ``/readyz`` answers 503: the one word of its body, and what it means (docs/deploy.md lists them)."""


class Health:
    """The server's health: draining or not, and the readiness check (:meth:`not_ready`)."""

    def __init__(self, store: Store, pools: Iterable[ComputePool], deadline: float = READY_DEADLINE) -> None:
        self.store = store
        self.pools = tuple(pools)
        self.deadline = deadline
        self.draining = False
        """Set by the server when it is told to stop (SIGTERM, SIGINT, SIGHUP): from then on it is not ready."""
        self._reading: asyncio.Future[int] | None = None

    @property
    def ready_at_a_glance(self) -> bool:
        """Ready as far as the process knows without asking the database (what the metrics report): not draining,
        and every pool alive with its workers warmed up."""
        return not self.draining and self._pools_not_ready() is None

    def _pools_not_ready(self) -> str | None:
        """``pool`` while a pool is broken (and being replaced), ``warming`` while a worker warms up, else None."""
        if not all(pool.alive() for pool in self.pools):
            return "pool"
        if not all(pool.warmed_up() for pool in self.pools):
            return "warming"
        return None

    async def not_ready(self) -> str | None:
        """Why the server cannot serve now (a word of :data:`REASONS`), or None when it can."""
        if self.draining:
            return "draining"
        if (pools := self._pools_not_ready()) is not None:
            return pools
        try:
            version = await asyncio.wait_for(asyncio.shield(self._schema_version()), self.deadline)
        except Exception:  # late (TimeoutError), away (StoreUnavailableError), or failing in any other way
            return "database"
        if self.draining:
            return "draining"
        return None if version == SCHEMA_VERSION else "schema"

    def _schema_version(self) -> asyncio.Future[int]:
        """The read under way, or a new one in a daemon thread of its own."""
        if self._reading is not None and not self._reading.done():
            return self._reading
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int] = loop.create_future()
        future.add_done_callback(_retrieved)  # a read no probe waits for any more is no "exception never retrieved"

        def read() -> None:
            version: int | None = None
            error: BaseException | None = None
            try:
                version = self.store.database.schema_version(self.deadline)
            except BaseException as exc:  # handed to the waiting probe, which says "database"
                error = exc
            with contextlib.suppress(RuntimeError):  # the server stopped meanwhile: nobody waits for the answer
                loop.call_soon_threadsafe(_settle, future, version, error)

        try:
            threading.Thread(target=read, name="foursquare-readiness", daemon=True).start()
        except RuntimeError as exc:  # no thread could be started: the process is in trouble
            future.set_exception(StoreError(f"cannot check the database: {exc}"))
        self._reading = future
        return future


def _settle(future: asyncio.Future[int], version: int | None, error: BaseException | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error if isinstance(error, Exception) else StoreError(repr(error)))
    elif version is not None:
        future.set_result(version)


def _retrieved(future: asyncio.Future[int]) -> None:
    if not future.cancelled():
        future.exception()
