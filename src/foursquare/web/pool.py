"""The bounded pool that computes hints and analyses, away from the moves.

A hint costs the server far more CPU than a move, and an analysis far more than a hint (docs/performance.md).
Run in the server's own process, they compete with the moves for the interpreter lock and for the cores,
so a flood of hints slows every move (``docs/performance.md`` has the figures). They run instead in a few
worker processes (:class:`concurrent.futures.ProcessPoolExecutor`, ``cores - 1`` of them by default) at a
lower scheduling priority, which keep the compiled kernel loaded between jobs; at most ``workers`` jobs run
and ``queue`` more wait, and a job past those is refused at once with :class:`~foursquare.web.errors.BusyError`
(503 ``busy`` with ``Retry-After``), so that the backlog, and the wait of each hint, stays bounded.

The worker is given what the computation is given in the server, no more: a hint the player's
:class:`~foursquare.engine.View` (never the stock order), an analysis the finished game.

The settings come from :func:`create_app <foursquare.web.app.create_app>` or from the environment
(:meth:`PoolSettings.from_environment`: ``FOURSQUARE_POOL`` = ``process`` or ``thread``,
``FOURSQUARE_POOL_WORKERS``, ``FOURSQUARE_POOL_QUEUE``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import BrokenExecutor, Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal, ParamSpec, TypeVar

from foursquare.engine import Game, View
from foursquare.web.errors import BusyError

log = logging.getLogger("foursquare.web")

P = ParamSpec("P")
T = TypeVar("T")

WORKER_NICENESS = 10
"""How much lower the workers' scheduling priority is than the server's: on a busy machine a move is served
first, and a hint takes the cores the moves leave."""


def default_workers() -> int:
    """One worker per core this process may use, less one core for the server itself (at least one)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


class PoolSettingsError(ValueError):
    """Pool settings that cannot work (no worker, a negative queue, an unknown kind)."""


@dataclass(frozen=True)
class PoolSettings:
    """How hints and analyses are computed: ``kind`` of workers, how many, how many jobs may wait for one.

    ``kind="thread"`` computes in threads of the server's process: ``benchmarks/load_test.py`` compares it with
    the pool, and tests that replace a module in-process need it.
    """

    kind: Literal["process", "thread"] = "process"
    workers: int = field(default_factory=default_workers)
    queue: int = -1
    """Jobs that may wait for a worker; -1: eight per worker."""
    retry_after: int = 1
    """Seconds a refused client is asked to wait (the ``Retry-After`` header)."""

    def __post_init__(self) -> None:
        if self.kind not in ("process", "thread"):
            raise PoolSettingsError(f"the pool kind must be 'process' or 'thread', not {self.kind!r}")
        if self.workers < 1:
            raise PoolSettingsError(f"the pool needs at least one worker, not {self.workers}")
        if self.queue == -1:
            object.__setattr__(self, "queue", 8 * self.workers)
        if self.queue < 0:
            raise PoolSettingsError(f"the pool's queue holds 0 jobs or more, not {self.queue}")
        if self.retry_after < 1:
            raise PoolSettingsError(f"Retry-After is a number of seconds from 1, not {self.retry_after}")

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> PoolSettings:
        """The settings named by ``FOURSQUARE_POOL``, ``FOURSQUARE_POOL_WORKERS``, ``FOURSQUARE_POOL_QUEUE``."""
        kind = environ.get("FOURSQUARE_POOL", "process")
        if kind not in ("process", "thread"):
            raise PoolSettingsError(f"FOURSQUARE_POOL must be 'process' or 'thread', not {kind!r}")
        numbers: dict[str, int] = {}
        for name, key in (("workers", "FOURSQUARE_POOL_WORKERS"), ("queue", "FOURSQUARE_POOL_QUEUE")):
            text = environ.get(key)
            if text is None or text == "":
                continue
            try:
                numbers[name] = int(text)
            except ValueError:
                raise PoolSettingsError(f"{key} must be a whole number, not {text!r}") from None
        return cls(kind, **numbers)  # type: ignore[arg-type]  # kind was checked above


# --- what the workers run (module-level functions: a process pool sends them by name) ----------------------


def warm_up_worker(niceness: int, server: int) -> None:
    """A worker's initializer: follow the ``server`` process out, step aside for it, load the compiled kernel once.

    The server's pid is given, not read here: a server killed while the worker starts would be missed.
    """
    threading.Thread(target=exit_with_parent, args=(server,), name="parent-watch", daemon=True).start()
    if niceness:
        with contextlib.suppress(OSError):  # not allowed here: the worker just runs at the server's priority
            os.nice(niceness)
    try:
        from foursquare.players import warm_up

        warm_up()
    except Exception:  # the first job pays the compilation instead, and reports its own errors
        log.exception("warming up a hint worker failed")


def exit_with_parent(parent: int, every: float = 1.0) -> None:
    """End this worker once its server is gone: a server killed outright (SIGKILL) cannot stop its workers,
    and an orphan would hold its CPU and memory for nothing (its parent becomes another process)."""
    while os.getppid() == parent:
        time.sleep(every)
    os._exit(0)


def ready() -> None:
    """A job that does nothing: it makes the pool start a worker."""


def hint_json(view: View) -> dict[str, Any]:
    """The hint's answer for ``view`` (the player's view only), as ``GET /api/games/{id}/hint`` answers it."""
    from foursquare import players

    return {"turn": view.turn, "moves": [advice.to_json() for advice in players.hint(view, seed=0)]}


def analysis_json(game: Game) -> dict[str, Any]:
    """The analysis of a finished game, as ``GET /api/games/{id}/analysis`` answers it."""
    from foursquare.analysis import analyze

    return analyze(game)


# --- the pool -------------------------------------------------------------------------------------------------

_executors: dict[tuple[str, int], Executor] = {}
_executors_guard = threading.Lock()


def _shared_executor(settings: PoolSettings) -> Executor:
    """The executor for these settings, shared by every app of this process (the cores are shared too)."""
    key = (settings.kind, settings.workers)
    with _executors_guard:
        executor = _executors.get(key)
        if executor is None:
            executor = _new_executor(settings)
            _executors[key] = executor
        return executor


def _new_executor(settings: PoolSettings) -> Executor:
    if settings.kind == "thread":
        return ThreadPoolExecutor(settings.workers, thread_name_prefix="foursquare-hint")
    # "spawn", not "fork": the server has threads, and a forked copy of a threaded process may deadlock.
    return ProcessPoolExecutor(
        settings.workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=warm_up_worker,
        initargs=(WORKER_NICENESS, os.getpid()),
    )


def _replace_broken(settings: PoolSettings, broken: Executor) -> None:
    """Forget an executor whose worker died (killed, out of memory), so the next job starts a fresh one."""
    with _executors_guard:
        if _executors.get((settings.kind, settings.workers)) is broken:
            del _executors[(settings.kind, settings.workers)]
    broken.shutdown(wait=False, cancel_futures=True)


def _stop(settings: PoolSettings) -> None:
    """Stop the executor of these settings now: cancel its waiting jobs and end its workers, busy or not."""
    with _executors_guard:
        executor = _executors.pop((settings.kind, settings.workers), None)
    if executor is None:
        return
    # No public way to end a process pool's busy workers before Python 3.14 (terminate_workers): its _processes.
    processes = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()


class ComputePool:
    """Runs hints and analyses on the shared executor, refusing a job once ``workers + queue`` are unfinished."""

    def __init__(self, settings: PoolSettings) -> None:
        self.settings = settings
        self._unfinished = 0
        self._guard = threading.Lock()

    @property
    def capacity(self) -> int:
        """How many jobs may be unfinished at once: running or waiting for a worker."""
        return self.settings.workers + self.settings.queue

    @property
    def unfinished(self) -> int:
        return self._unfinished

    def start(self) -> None:
        """Start every worker now (each loads the kernel once), so the first hints do not wait for it."""
        executor = _shared_executor(self.settings)
        for _ in range(self.settings.workers):
            executor.submit(ready)

    def close(self) -> None:
        """When the server stops: if jobs are still unfinished, end the workers rather than wait for them.

        (Otherwise the interpreter's exit waits for a running analysis. Idle workers are left to other apps of
        this process, e.g. a test suite's, and end with it.)
        """
        if self._unfinished:
            _stop(self.settings)

    def submit(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """Run ``fn(*args)`` on a worker; :class:`BusyError` at once if the pool is full.

        The place is held until the job has finished (not merely until its caller stopped waiting), so that
        clients who give up cannot pile up work behind the bound.
        """
        with self._guard:
            if self._unfinished >= self.capacity:
                raise BusyError(retry_after=self.settings.retry_after)
            self._unfinished += 1
        try:
            future = self._submit(fn, *args, **kwargs)
        except BaseException:
            self._release()
            raise
        future.add_done_callback(lambda _: self._release())
        return future

    def _submit(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        executor = _shared_executor(self.settings)
        try:
            return executor.submit(fn, *args, **kwargs)
        except BrokenExecutor:
            _replace_broken(self.settings, executor)
            return _shared_executor(self.settings).submit(fn, *args, **kwargs)

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(*args)`` computed on a worker (cancelled if still waiting when the caller gives up)."""
        future = self.submit(fn, *args, **kwargs)
        try:
            return await asyncio.wrap_future(future)
        except BrokenExecutor:  # a worker died under this job; the next submit replaces the executor
            raise BusyError(retry_after=self.settings.retry_after) from None

    def _release(self) -> None:
        with self._guard:
            self._unfinished -= 1
