"""The bounded pools that compute hints, analyses and winnable deals, away from the moves, fairly between clients.

A hint costs the server far more CPU than a move, and an analysis far more than a hint (docs/performance.md).
Run in the server's own process, they compete with the moves for the interpreter lock and for the cores,
so a flood of hints slows every move (``docs/performance.md`` has the figures). They run instead in a few
worker processes (:class:`concurrent.futures.ProcessPoolExecutor`, ``cores - 1`` of them by default) at a
lower scheduling priority, which keep the compiled kernel loaded between jobs; at most ``workers`` jobs run
and ``queue`` more wait, and a job past those is refused at once with :class:`~foursquare.web.errors.BusyError`
(503 ``busy`` with ``Retry-After``), so that the backlog, and the wait of each hint, stays bounded.

The pool serves clients (:func:`foursquare.web.deps.get_client`: an address) in turn, not in order of arrival:
the waiting jobs stand in one line per client, a free worker takes the next client's oldest job, and a client
who asks while the pool is full displaces the newest waiting job of a client holding more of it
(:class:`ComputePool` has the rules). So a client flooding the pool with analyses holds back its own jobs, not
another player's hint, which waits for the jobs already running and no more.

Hints wait for the moves: while the server's process is answering :data:`CHANGES_BEFORE_HINTS_WAIT` changes of
games or more (:class:`InFlight`), it is behind on them, and a hint is refused ``busy`` before anything is read,
so that the hint clients' requests do not take the process from the moves.

Work that takes seconds (an analysis, the solving of a winnable deal) runs on a second pool of its own, the
*heavy* lane (one worker by default), so that it never holds a worker a hint is waiting for: a hint waits at
most for the hints running. Each lane's workers compile (or load from numba's cache) what they run when the
server starts, in the background: the heavy lane's the solver too, so that no player's request pays for it. Until
every worker of a pool has (:meth:`ComputePool.warmed_up`), ``/readyz`` says ``warming``
(:mod:`foursquare.web.health`).

The worker is given what the computation is given in the server, no more: a hint the player's
:class:`~foursquare.engine.View` (never the stock order), an analysis the finished game, a winnable deal its
house rules.

The settings come from :func:`create_app <foursquare.web.app.create_app>` or from the environment
(:meth:`PoolSettings.from_environment`: ``FOURSQUARE_POOL`` = ``process`` or ``thread``,
``FOURSQUARE_POOL_WORKERS``, ``FOURSQUARE_POOL_QUEUE``; the heavy lane's ``FOURSQUARE_HEAVY_WORKERS``,
``FOURSQUARE_HEAVY_QUEUE``; for both, ``FOURSQUARE_POOL_NICENESS``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import BrokenExecutor, Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.sharedctypes import Synchronized
from typing import Any, Literal, ParamSpec, TypeVar

from foursquare.engine import Game, Variant, View
from foursquare.web.errors import BusyError

log = logging.getLogger("foursquare.web")

P = ParamSpec("P")
T = TypeVar("T")

Lane = Literal["hints", "heavy"]
"""Which pool: ``hints``, or ``heavy`` for the work that takes seconds (analyses, winnable deals)."""

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
    niceness: int = WORKER_NICENESS
    """How much lower a worker process's priority is than the server's (0 to 19). 0 suits a machine whose other
    work is not the server's to yield to: a worker at nice 10 gets about a tenth of a core's share there."""

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
        if not 0 <= self.niceness <= 19:
            raise PoolSettingsError(f"a worker's niceness is from 0 to 19, not {self.niceness}")

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ, lane: Lane = "hints") -> PoolSettings:
        """The settings named by ``FOURSQUARE_POOL``, ``FOURSQUARE_POOL_WORKERS``, ``FOURSQUARE_POOL_QUEUE``; for
        the ``heavy`` lane ``FOURSQUARE_HEAVY_WORKERS`` (default one worker) and ``FOURSQUARE_HEAVY_QUEUE``; for
        both, ``FOURSQUARE_POOL_NICENESS``."""
        kind = environ.get("FOURSQUARE_POOL", "process")
        if kind not in ("process", "thread"):
            raise PoolSettingsError(f"FOURSQUARE_POOL must be 'process' or 'thread', not {kind!r}")
        prefix = "FOURSQUARE_HEAVY" if lane == "heavy" else "FOURSQUARE_POOL"
        numbers: dict[str, int] = {"workers": 1} if lane == "heavy" else {}
        keys = {"workers": f"{prefix}_WORKERS", "queue": f"{prefix}_QUEUE", "niceness": "FOURSQUARE_POOL_NICENESS"}
        for name, key in keys.items():
            text = environ.get(key)
            if text is None or text == "":
                continue
            try:
                numbers[name] = int(text)
            except ValueError:
                raise PoolSettingsError(f"{key} must be a whole number, not {text!r}") from None
        return cls(kind, **numbers)  # type: ignore[arg-type]  # kind was checked above


class InFlight:
    """How many requests of a kind the server's process is answering now (any thread may count one)."""

    def __init__(self) -> None:
        self.count = 0
        self._guard = threading.Lock()

    @contextlib.contextmanager
    def counting(self) -> Iterator[None]:
        """Count one request while the block runs."""
        with self._guard:
            self.count += 1
        try:
            yield
        finally:
            with self._guard:
                self.count -= 1


CHANGES_BEFORE_HINTS_WAIT = 4
"""Changes of games (moves, undo, redo, restart) in progress at once from which a hint is refused ``busy`` at
once: the server's process is behind on the moves, and every hint it routes (its request, its answer) would take
them longer still. The hint's client waits its ``Retry-After``; the moves catch up."""


# --- what the workers run (module-level functions: a process pool sends them by name) ----------------------


def warm_up_worker(niceness: int, server: int, lane: Lane = "hints", warmed: Synchronized[int] | None = None) -> None:
    """A worker's initializer: follow the ``server`` process out, step aside for it, load the compiled code once
    (:func:`warm_up`), then count itself in ``warmed`` (its pool's count of workers warmed up), whether the
    warm-up succeeded or not (a failure is logged, and the first job pays instead).

    The server's pid is given, not read here: a server killed while the worker starts would be missed.
    """
    threading.Thread(target=exit_with_parent, args=(server,), name="parent-watch", daemon=True).start()
    if niceness:
        with contextlib.suppress(OSError):  # not allowed here: the worker just runs at the server's priority
            os.nice(niceness)
    try:
        warm_up(lane)
    finally:
        if warmed is not None:
            with warmed.get_lock():
                warmed.value += 1


def warm_up(lane: Lane) -> None:
    """Compile, or load from numba's cache, what a worker of ``lane`` runs: the players' kernel, and for the heavy
    lane the solver too (:func:`foursquare.solver.warm_up`: the search, and the expectimax that an analysis runs;
    its first compile takes tens of seconds)."""
    try:
        from foursquare.players import warm_up as warm_up_players

        warm_up_players()
        if lane == "heavy":
            from foursquare.solver import warm_up as warm_up_solver

            warm_up_solver()
    except Exception:  # the first job pays the compilation instead, and reports its own errors
        log.exception("warming up a %s worker failed", lane)


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


def winnable_deal(variant: Variant) -> int:
    """A random deal number the solver proves winnable under ``variant`` (``POST /api/games {"winnable": true}``);
    :class:`~foursquare.solver.SolverError` if it finds none."""
    from foursquare.solver import random_winnable_deal

    return random_winnable_deal(variant)


# --- the pool -------------------------------------------------------------------------------------------------

_Key = tuple[Lane, str, int, int]
_executors: dict[_Key, Executor] = {}
_executors_guard = threading.Lock()


def _shared_executor(lane: Lane, settings: PoolSettings) -> Executor:
    """The executor of ``lane`` for these settings, shared by every app of this process (the cores are shared
    too)."""
    key = _key(lane, settings)
    with _executors_guard:
        executor = _executors.get(key)
        if executor is None:
            executor = _new_executor(lane, settings)
            _executors[key] = executor
        return executor


def _key(lane: Lane, settings: PoolSettings) -> _Key:
    """What tells the executors apart: every setting that its workers are started with."""
    return (lane, settings.kind, settings.workers, settings.niceness)


def _new_executor(lane: Lane, settings: PoolSettings) -> Executor:
    if settings.kind == "thread":
        return ThreadPoolExecutor(settings.workers, thread_name_prefix=f"foursquare-{lane}")
    return _WorkerProcesses(lane, settings.workers, settings.niceness)


class _WorkerProcesses(ProcessPoolExecutor):
    """A process pool that starts all of its workers at once, each warming up (:func:`warm_up_worker`) and then
    counting itself: :meth:`warmed_up` once all have, however the pool came to be made (a server's start, or a
    broken pool's replacement)."""

    def __init__(self, lane: Lane, workers: int, niceness: int = WORKER_NICENESS) -> None:
        # "spawn", not "fork": the server has threads, and a forked copy of a threaded process may deadlock.
        context = multiprocessing.get_context("spawn")
        self._warmed: Synchronized[int] = context.Value("i", 0)
        self._workers = workers
        super().__init__(
            workers,
            mp_context=context,
            initializer=warm_up_worker,
            initargs=(niceness, os.getpid(), lane, self._warmed),
        )
        for _ in range(workers):  # a job per worker: the pool starts a worker for each while none is idle
            self.submit(ready)

    def warmed_up(self) -> bool:
        """Whether every worker has warmed up (or failed to, and logged why)."""
        # Read without the lock: a worker killed while it held it would hold every probe after it.
        return bool(self._warmed.get_obj().value >= self._workers)


def _replace_broken(lane: Lane, settings: PoolSettings, broken: Executor) -> None:
    """Forget an executor whose worker died (killed, out of memory), so the next job starts a fresh one."""
    key = _key(lane, settings)
    with _executors_guard:
        if _executors.get(key) is broken:
            del _executors[key]
    broken.shutdown(wait=False, cancel_futures=True)


def stop_every_pool() -> None:
    """End every worker of every pool of this process now, busy or idle (a server's last step, once it has
    answered its last request: the interpreter's exit would otherwise wait for each worker to finish its job and
    to exit in its own time, seconds under load)."""
    with _executors_guard:
        executors = list(_executors.items())
    # Each process pool's manager thread, which notices its workers ended and closes its pipes: waited for here,
    # so that the interpreter's exit does not write to a pipe that thread is closing (Python 3.11 races there).
    managers = [getattr(executor, "_executor_manager_thread", None) for _, executor in executors]
    for (lane, kind, workers, niceness), _ in executors:
        _stop(lane, PoolSettings(kind, workers, niceness=niceness))  # type: ignore[arg-type]  # a pool kind
    for manager in managers:
        if isinstance(manager, threading.Thread):
            manager.join(timeout=5)


def _stop(lane: Lane, settings: PoolSettings) -> None:
    """Stop the executor of these settings now: cancel its waiting jobs and end its workers, busy or not."""
    with _executors_guard:
        executor = _executors.pop(_key(lane, settings), None)
    if executor is None:
        return
    # No public way to end a process pool's busy workers before Python 3.14 (terminate_workers): its _processes.
    processes = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()


ANONYMOUS = "anonymous"
"""The client of :meth:`ComputePool.submit` and :meth:`ComputePool.run`, which name none."""


@dataclass(eq=False)
class _Job:
    """A job of the pool: what to call, for whom, and the future its caller holds."""

    client: _Client = field(repr=False)
    number: int
    """Its place in the order of submission."""
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    future: Future[Any]


@dataclass(eq=False)
class _Client:
    """One client's jobs in the pool: those waiting (oldest first) and how many run."""

    name: str
    waiting: deque[_Job] = field(default_factory=deque)
    running: int = 0
    served: int = -1
    """When its last job was handed to a worker (the pool's count of jobs started); -1: none yet."""

    @property
    def unfinished(self) -> int:
        return self.running + len(self.waiting)


class ComputePool:
    """Runs the jobs of one ``lane`` on its shared executor, fairly between clients, ``workers + queue`` at most.

    At most ``workers`` jobs are handed to the executor; the others wait here, in one line per client. When a
    worker is free it takes the oldest job of the client with the fewest jobs running, and of those the one
    served longest ago (a client not yet served first): round robin, so a client's job waits for one job of
    each other client at most, never for a flood of one client's jobs. A job that finds the pool full displaces
    the newest waiting job of the client with the most unfinished jobs, if that client would still have as many
    as the newcomer (that job is refused with :class:`BusyError`); else it is refused itself. So one client can
    fill the pool only while no one else asks, and a client's first job is refused only when every waiting job
    belongs to a client with no other job in the pool.
    """

    def __init__(self, settings: PoolSettings, lane: Lane = "hints") -> None:
        self.settings = settings
        self.lane: Lane = lane
        self._clients: dict[str, _Client] = {}
        self._running = 0
        self._waiting = 0
        self._submitted = 0
        self._started = 0
        self._refused = 0
        self._guard = threading.Lock()

    @property
    def capacity(self) -> int:
        """How many jobs may be unfinished at once: running or waiting for a worker."""
        return self.settings.workers + self.settings.queue

    @property
    def unfinished(self) -> int:
        """The jobs running or waiting for a worker, of every client."""
        return self._running + self._waiting

    def unfinished_of(self, client: str) -> int:
        """The jobs of ``client`` running or waiting for a worker."""
        with self._guard:
            found = self._clients.get(client)
            return 0 if found is None else found.unfinished

    def refuse_if_full(self, client: str) -> None:
        """:class:`BusyError` now if a job of ``client`` would be refused now (the rule of :meth:`submit_for`): a
        route checks it before it reads and rebuilds the game to compute from, so that a refusal costs the server
        next to nothing. (The pool may fill before the job comes: :meth:`submit_for` checks again.)"""
        with self._guard:
            if self._running + self._waiting < self.capacity:
                return
            found = self._clients.get(client)
            if self._displaceable(0 if found is None else found.unfinished) is None:
                self._refused += 1
                raise BusyError(retry_after=self.settings.retry_after)

    def levels(self) -> dict[str, int]:
        """What the metrics read (:mod:`foursquare.web.metrics`): ``workers``, ``busy`` (jobs running), ``queue``
        (jobs waiting), ``capacity`` (of the queue) and ``refused`` (jobs refused busy since the pool started)."""
        with self._guard:
            busy, queue, refused = self._running, self._waiting, self._refused
        return {"workers": self.settings.workers, "busy": busy, "queue": queue, "capacity": self.settings.queue,
                "refused": refused}  # fmt: skip

    def alive(self) -> bool:
        """Whether the pool can run a job now (a readiness probe's question): its executor is not broken.

        A broken one (a worker was killed, or ran out of memory) is replaced at once by a fresh one whose workers
        start in the background, so that the next probe finds it alive: a server left not ready would be sent no
        request, and so would never replace it otherwise.
        """
        key = _key(self.lane, self.settings)
        with _executors_guard:
            executor = _executors.get(key)
        if executor is None or not getattr(executor, "_broken", False):
            return True
        _replace_broken(self.lane, self.settings, executor)
        self.start()
        return False

    def start(self) -> None:
        """Start every worker now, in the background: a worker process compiles or loads what it runs
        (:func:`warm_up`) before its first job, so that no request pays for it (a job that comes meanwhile waits
        for a worker), and :meth:`warmed_up` says when all have. Threads warm up nothing."""
        _shared_executor(self.lane, self.settings)  # a new pool of processes starts its workers as it is made

    def warmed_up(self) -> bool:
        """Whether every worker of the pool has warmed up (a readiness probe's question): a pool of threads at
        once, a pool of processes once each worker has loaded what it runs, or failed to and logged why (so that
        a worker that cannot warm up does not leave the server unready for good). A pool replaced because it
        broke warms up again; a pool stopped, or not started yet, has no worker to wait for."""
        key = _key(self.lane, self.settings)
        with _executors_guard:
            executor = _executors.get(key)
        return not isinstance(executor, _WorkerProcesses) or executor.warmed_up()

    def close(self) -> None:
        """When the server stops: refuse the waiting jobs and, if jobs still run, end the workers rather than
        wait for them.

        (Otherwise the interpreter's exit waits for a running analysis. Idle workers are left to other apps of
        this process, e.g. a test suite's, and end with it.)
        """
        with self._guard:
            waiting = [job for client in self._clients.values() for job in client.waiting]
            for job in waiting:
                self._take_waiting(job)
            running = self._running
        for job in waiting:
            self._refuse(job)
        if running:
            _stop(self.lane, self.settings)

    def submit(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """:meth:`submit_for` for a client that is not named (all such jobs are one client's)."""
        return self.submit_for(ANONYMOUS, fn, *args, **kwargs)

    def submit_for(self, client: str, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """Run ``fn(*args)`` on a worker for ``client``; :class:`BusyError` at once if the pool is full for it.

        The place is held until the job has finished (not merely until its caller stopped waiting), so that
        clients who give up cannot pile up work behind the bound; a job cancelled while it waits leaves at once.
        The future fails with :class:`BusyError` if a job of another client displaces this one while it waits.
        """
        future: Future[T] = Future()
        with self._guard:
            owner = self._clients.get(client) or _Client(client)
            displaced = self._make_room(owner)
            job = _Job(owner, self._submitted, fn, args, kwargs, future)
            self._submitted += 1
            owner.waiting.append(job)
            self._waiting += 1
            self._clients[client] = owner
        future.add_done_callback(lambda _: self._forget_if_cancelled(job))
        if displaced is not None:
            self._refuse(displaced)
        self._dispatch()
        return future

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """:meth:`run_for` for a client that is not named."""
        return await self.run_for(ANONYMOUS, fn, *args, **kwargs)

    async def run_for(self, client: str, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(*args)`` computed on a worker for ``client`` (cancelled if still waiting when the caller gives up)."""
        future = self.submit_for(client, fn, *args, **kwargs)
        try:
            return await asyncio.wrap_future(future)
        except BrokenExecutor:  # a worker died under this job; the next submit replaces the executor
            raise BusyError(retry_after=self.settings.retry_after) from None

    # --- under the guard ------------------------------------------------------------------------------------

    def _make_room(self, owner: _Client) -> _Job | None:
        """The waiting job that ``owner``'s new job displaces (None: there is room); BusyError if none may."""
        if self._running + self._waiting < self.capacity:
            return None
        heaviest = self._displaceable(owner.unfinished)
        if heaviest is None:
            self._refused += 1
            raise BusyError(retry_after=self.settings.retry_after)
        job = heaviest.waiting[-1]
        self._take_waiting(job)
        return job

    def _displaceable(self, unfinished: int) -> _Client | None:
        """The client whose newest waiting job a client with ``unfinished`` jobs may displace (None: none)."""
        heaviest = max(
            (client for client in self._clients.values() if client.waiting),
            key=lambda client: (client.unfinished, client.waiting[-1].number),
            default=None,
        )
        return None if heaviest is None or heaviest.unfinished < unfinished + 2 else heaviest

    def _take_waiting(self, job: _Job) -> None:
        job.client.waiting.remove(job)
        self._waiting -= 1
        self._forget_if_idle(job.client)

    def _forget_if_idle(self, client: _Client) -> None:
        if not client.unfinished and self._clients.get(client.name) is client:
            del self._clients[client.name]

    def _next(self) -> _Job | None:
        """The job to hand to a free worker now, taken from its line and counted as running (None: none)."""
        with self._guard:
            if self._running >= self.settings.workers:
                return None
            turn = min(
                (client for client in self._clients.values() if client.waiting),
                key=lambda client: (client.running, client.served),
                default=None,
            )
            if turn is None:
                return None
            job = turn.waiting.popleft()
            self._waiting -= 1
            self._running += 1
            turn.running += 1
            turn.served = self._started
            self._started += 1
            return job

    # --- outside the guard (a future's callbacks may come back into the pool) ----------------------------

    def _dispatch(self) -> None:
        """Hand waiting jobs to the executor while a worker is free."""
        while (job := self._next()) is not None:
            self._start(job)

    def _start(self, job: _Job) -> None:
        if not job.future.set_running_or_notify_cancel():  # cancelled since it was taken from its line
            self._release(job)
            return
        try:
            inner = self._submit(job.fn, *job.args, **job.kwargs)
        except BaseException as exc:  # e.g. an executor shut down under it: this job fails, the others go on
            self._release(job)
            job.future.set_exception(exc)
            return
        inner.add_done_callback(lambda done: self._finished(job, done))

    def _submit(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Future[Any]:
        executor = _shared_executor(self.lane, self.settings)
        try:
            return executor.submit(fn, *args, **kwargs)
        except BrokenExecutor:
            _replace_broken(self.lane, self.settings, executor)
            return _shared_executor(self.lane, self.settings).submit(fn, *args, **kwargs)

    def _finished(self, job: _Job, inner: Future[Any]) -> None:
        """A job's computation is over: free its place, pass its outcome on, start the next job."""
        self._release(job)
        error: BaseException | None
        if inner.cancelled():  # the executor was stopped before the job ran
            error = BrokenExecutor("the pool's workers were stopped")
        else:
            error = inner.exception()
        if error is None:
            job.future.set_result(inner.result())
        else:
            job.future.set_exception(error)
        if isinstance(error, BrokenExecutor):
            # This runs in the broken executor's own thread, which must not be made to replace it.
            threading.Thread(target=self._dispatch, name="foursquare-pool-dispatch", daemon=True).start()
        else:
            self._dispatch()

    def _release(self, job: _Job) -> None:
        with self._guard:
            self._running -= 1
            job.client.running -= 1
            self._forget_if_idle(job.client)

    def _refuse(self, job: _Job) -> None:
        """Fail a waiting job taken from its line with BusyError (unless its caller cancelled it already)."""
        with self._guard:
            self._refused += 1
        if job.future.set_running_or_notify_cancel():
            job.future.set_exception(BusyError(retry_after=self.settings.retry_after))

    def _forget_if_cancelled(self, job: _Job) -> None:
        """A waiting job whose caller gave up leaves its line (a job taken from it already is not there)."""
        if not job.future.cancelled():
            return
        with self._guard:
            if job in job.client.waiting:
                self._take_waiting(job)
