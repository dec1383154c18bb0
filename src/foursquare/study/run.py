"""Running a study: the deals still missing, in chunks, on a Dask cluster; rows stored as chunks come back.

Without a scheduler address a local cluster of worker processes is started (one per core by default);
with one, an existing ``dask.distributed`` scheduler and its workers do the work. The chunks are the
tasks: a worker that dies has its chunks recomputed by the scheduler, and every row comes back to this
one process, which alone writes the store — one transaction per chunk.

The deals are never listed whole: they are ranges (:class:`Deals`), read against the store a window at a
time, and only a few chunks per worker are on the cluster at once, so a study of any size (up to every deal
there is) starts at once and runs in bounded memory.

An interrupt (``KeyboardInterrupt``, or whatever a signal handler raises) stops the run: the chunks stored
so far stay, the cluster is closed, and the exception goes on to the caller. The worker processes of a local
cluster never see the terminal's Ctrl-C (they start with SIGINT and SIGHUP blocked), so only this process
answers it, and it shuts them down. While the cluster or its client starts or closes, a signal this process
handles in Python (SIGINT, SIGTERM, SIGHUP) is held and acted on just after, so that it never leaves a cluster
half started or half closed (whose workers distributed's exit hook would then trip over, with tracebacks); the
workers themselves stay killable by SIGTERM.
"""

from __future__ import annotations

import bisect
import contextlib
import itertools
import logging
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

from foursquare.cards import MAX_DEAL
from foursquare.study.store import Study, StudyStore
from foursquare.study.work import StudyError, StudySettings, compute_chunk

CONNECT_TIMEOUT = 5.0  # seconds for a scheduler to answer
WORKER_TIMEOUT = 60.0  # seconds for a scheduler with no worker to get one
# Deals per chunk at most: big enough that a chunk takes about a second or more (the scheduler's overhead
# is milliseconds per task), small enough that a killed run loses little and the load stays balanced.
MAX_CHUNK = {"solver": 100, "expert": 1, "best": 2, "greedy": 1000, "random": 2000}
CHUNKS_PER_WORKER = 8
WINDOW = 65_536  # deals read against the store at a time, looking for the missing ones
# The terminal sends these to every process of its foreground group: the workers leave them to this process.
TERMINAL_SIGNALS = frozenset({signal.SIGINT, signal.SIGHUP})
# The signals that stop a run (Ctrl-C, kill, a closed terminal): held while a cluster starts or closes.
STOP_SIGNALS: tuple[int, ...] = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
HOLD_LIMIT = 3  # the third signal held ends the process at once, as the system would: a start that hangs
# Shutting down, the scheduler, nannies and workers may log a heartbeat "error" to a peer already gone, or a
# task cancelled mid-way: not the user's business, and the run's real failures come back as exceptions.
QUIET = logging.CRITICAL + 1
# The loggers of Dask and of what it runs on in this process (its event loop's, its dashboard's).
DASK_LOGGERS = ("distributed", "tornado", "bokeh")


@dataclass(frozen=True)
class StudyProgress:
    """Where a run is: deals stored (``done``) of the ``total`` asked, the cluster's dashboard if any, and
    ``computed``: the rows this run computed (``done`` also counts those found stored)."""

    done: int
    total: int
    dashboard: str | None = None
    computed: int = 0


@dataclass(frozen=True)
class Deals:
    """Deals as inclusive ranges ``(first, last)``, in the order given, none overlapping another: a set of
    deals of any size, never listed whole (``count`` may exceed what ``len`` can say)."""

    spans: tuple[tuple[int, int], ...]
    _starts: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _sorted: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.spans:
            raise StudyError("no deals: give at least one range of deals")
        for lo, hi in self.spans:
            if hi < lo:
                raise StudyError(f"the deal range {lo}-{hi} ends before it starts")
            if lo < 0 or hi >= MAX_DEAL:
                raise StudyError(f"the deal range {lo}-{hi} is outside 0-{MAX_DEAL - 1}")
        ordered = tuple(sorted(self.spans))
        for (lo1, hi1), (lo2, hi2) in itertools.pairwise(ordered):
            if lo2 <= hi1:
                raise StudyError(f"the deal ranges {lo1}-{hi1} and {lo2}-{hi2} overlap")
        object.__setattr__(self, "_sorted", ordered)
        object.__setattr__(self, "_starts", tuple(lo for lo, _ in ordered))

    @classmethod
    def of(cls, ranges: Iterable[tuple[int, int]]) -> Deals:
        """The deals of inclusive ranges, which must neither run backwards nor overlap."""
        return cls(tuple((int(lo), int(hi)) for lo, hi in ranges))

    @classmethod
    def numbers(cls, deals: Iterable[int]) -> Deals:
        """Deal numbers (each once, in increasing order) as their runs of consecutive numbers."""
        spans: list[list[int]] = []
        for deal in sorted(set(deals)):
            if spans and deal == spans[-1][1] + 1:
                spans[-1][1] = deal
            else:
                spans.append([deal, deal])
        return cls(tuple((lo, hi) for lo, hi in spans))

    @property
    def count(self) -> int:
        return sum(hi - lo + 1 for lo, hi in self.spans)

    def __contains__(self, deal: object) -> bool:
        if not isinstance(deal, int):
            return False
        i = bisect.bisect_right(self._starts, deal) - 1
        return i >= 0 and deal <= self._sorted[i][1]

    def __iter__(self) -> Iterator[int]:
        for lo, hi in self.spans:
            yield from range(lo, hi + 1)

    def windows(self, size: int) -> Iterator[tuple[int, int]]:
        """The spans cut into inclusive ranges of at most ``size`` deals, in order."""
        for lo, hi in self.spans:
            for start in range(lo, hi + 1, size):
                yield start, min(hi, start + size - 1)

    def text(self) -> str:
        """``1-100,200,300-310``: the spans as typed on the command line."""
        return ",".join(f"{lo}" if lo == hi else f"{lo}-{hi}" for lo, hi in self.spans)


def deal_list(ranges: Iterable[tuple[int, int]]) -> list[int]:
    """The deals of inclusive ranges ``(first, last)``, which must neither run backwards nor overlap (a list:
    for a few deals only; :class:`Deals` holds any number)."""
    return list(Deals.of(ranges))


def chunks(deals: Iterable[int], size: int) -> Iterator[list[int]]:
    """The deals in lists of ``size`` (the last may be shorter)."""
    it = iter(deals)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


def chunk_size(what: str, deals: int, workers: int) -> int:
    """About ``CHUNKS_PER_WORKER`` chunks per worker for ``deals`` deals, at most ``MAX_CHUNK[what]`` deals each."""
    return max(1, min(MAX_CHUNK[what], -(-deals // (max(1, workers) * CHUNKS_PER_WORKER))))


class _Missing:
    """The deals of ``deals`` the study has no row for, in order, read against the store a window at a time;
    ``stored`` counts the deals found stored so far."""

    def __init__(self, store: StudyStore, study: Study, deals: Deals) -> None:
        self.stored = 0
        self._store, self._study, self._deals = store, study, deals

    def __iter__(self) -> Iterator[int]:
        for lo, hi in self._deals.windows(WINDOW):
            done = self._store.done_deals(self._study, lo, hi)
            self.stored += len(done)
            yield from (deal for deal in range(lo, hi + 1) if deal not in done)


def run_study(
    store: StudyStore,
    settings: StudySettings,
    deals: Deals | Iterable[int],
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[StudyProgress], None] | None = None,
    connect_timeout: float = CONNECT_TIMEOUT,
    worker_timeout: float = WORKER_TIMEOUT,
) -> Study:
    """Compute and store every deal of ``deals`` not stored yet for ``settings``; returns the study.

    ``workers`` worker processes of a local cluster (default: the processors), or the cluster of the
    scheduler at ``scheduler`` (``tcp://host:port``). ``progress`` is called once the store has been read
    (before any cluster starts), then whenever rows are stored.
    """
    if workers is not None and scheduler is not None:
        raise StudyError("give either a number of local workers or a scheduler address, not both")
    if workers is not None and workers < 1:
        raise StudyError(f"a local cluster needs at least one worker, not {workers}")
    deals = deals if isinstance(deals, Deals) else Deals.numbers(deals)
    study = store.study(settings)
    total = deals.count
    missing = _Missing(store, study, deals)
    todo = iter(missing)
    # The first window tells whether anything is missing, and when it is the whole study, how much.
    first = list(itertools.islice(todo, WINDOW))
    estimate = len(first) if total <= WINDOW else total - missing.stored
    if progress is not None:
        progress(StudyProgress(missing.stored, total))
    if not first:
        return study
    with _client(workers, scheduler, connect_timeout, worker_timeout) as client:
        dashboard = _dashboard(client)
        width = max(1, sum(client.nthreads().values()))
        run = _Run(store, study, missing, total, dashboard, progress)
        run.emit()
        size = chunk_size(settings.what, estimate, width)
        run.collect(client, settings, chunks(itertools.chain(first, todo), size), width * CHUNKS_PER_WORKER)
    return study


@dataclass
class _Run:
    store: StudyStore
    study: Study
    missing: _Missing
    total: int
    dashboard: str | None
    progress: Callable[[StudyProgress], None] | None
    computed: int = 0

    def emit(self) -> None:
        if self.progress is not None:
            done = self.missing.stored + self.computed
            self.progress(StudyProgress(done, self.total, self.dashboard, self.computed))

    def collect(self, client: Any, settings: StudySettings, work: Iterator[list[int]], in_flight: int) -> None:
        """Keep ``in_flight`` chunks on the cluster; store each as it comes back (one transaction), then forget
        it on the cluster and send the next."""
        from distributed import as_completed

        pending = as_completed()  # type: ignore[no-untyped-call]

        def send(n: int) -> None:
            for chunk in itertools.islice(work, n):
                pending.add(client.submit(compute_chunk, settings, chunk, pure=False, retries=0))  # type: ignore[no-untyped-call]

        send(in_flight)
        for future in pending:
            rows = _rows(future)
            self.computed += self.store.add(self.study, rows)
            future.release()
            send(1)
            self.emit()


def _rows(future: Any) -> Any:
    from distributed.client import FutureCancelledError
    from distributed.scheduler import KilledWorker

    try:
        return future.result()
    except KilledWorker as exc:
        raise RuntimeError(f"a chunk of deals killed every worker that tried it: {exc}") from None
    except FutureCancelledError as exc:
        message = f"the cluster dropped a chunk of deals (did the scheduler stop?): {exc}"
        raise StudyError(message, "chunk_dropped", error=str(exc)) from None


@contextlib.contextmanager
def _terminal_signals_blocked() -> Iterator[None]:
    """Block the terminal's signals in this thread: the threads it starts (the cluster's) inherit the mask, and
    so do the worker processes they start, which therefore never get the Ctrl-C meant for this process. A
    signal that comes meanwhile waits, and is taken here when the block ends."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    from multiprocessing import resource_tracker

    old = signal.pthread_sigmask(signal.SIG_BLOCK, TERMINAL_SIGNALS)
    try:
        # multiprocessing's resource tracker, started with the first process spawned, unblocks SIGINT in the thread
        # that starts it whatever its mask was (it blocks SIGINT and SIGTERM while spawning, then unblocks them).
        # Started here, it has SIGHUP blocked too (it ignores the other two), and it is already running when the
        # cluster's threads spawn their workers, whose mask then stays as it is; this thread's is blocked again.
        resource_tracker.ensure_running()
        signal.pthread_sigmask(signal.SIG_BLOCK, TERMINAL_SIGNALS)
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold the stop signals this process handles in Python while the body runs, then hand the first one held to
    its handler (which may raise: the body has run to its end first; the others held are repeats, which a handler
    ignores). For what must not be cut short: starting a cluster or a client, and closing them. The third signal
    held ends the process at once, as the system would: a start or a close that hangs can still be stopped.

    Only this process's handlers change: its threads' mask, and so the worker processes it starts, stay as they
    are (SIGTERM still ends a worker)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    previous: dict[int, Callable[[int, FrameType | None], Any]] = {}

    def hold(signum: int, frame: FrameType | None) -> None:
        held.append(signum)
        if len(held) >= HOLD_LIMIT:
            signal.signal(signum, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signum})
            os.kill(os.getpid(), signum)

    for signum in STOP_SIGNALS:
        handler = signal.getsignal(signum)
        if callable(handler):  # not SIG_DFL or SIG_IGN: the system's own ways stay as they are
            previous[signum] = handler
            signal.signal(signum, hold)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if held:
            previous[held[0]](held[0], None)


def _entered(stack: contextlib.ExitStack, manager: Any) -> Any:
    """``stack.enter_context(manager)`` for a cluster or a client already started (with signals held): its exit
    (closing it) too runs with the signals held."""
    value = manager.__enter__()

    def close(*exc: Any) -> bool:
        with _signals_held():
            return bool(manager.__exit__(*exc))

    stack.push(close)
    return value


@contextlib.contextmanager
def _client(workers: int | None, scheduler: str | None, connect_timeout: float, worker_timeout: float) -> Iterator[Any]:
    """A client of the scheduler at ``scheduler``, or of a new local cluster that is closed afterwards."""
    from distributed import Client, LocalCluster

    if scheduler is None:
        n = workers if workers is not None else (os.cpu_count() or 1)
        with contextlib.ExitStack() as stack:
            stack.enter_context(_dask_quiet())
            # Started whole, and entered in the stack, before a signal acts: stopped, it is closed there.
            with _signals_held():
                with _terminal_signals_blocked():
                    cluster = _entered(
                        stack,
                        LocalCluster(  # type: ignore[no-untyped-call]
                            n_workers=n,
                            threads_per_worker=1,
                            processes=True,
                            dashboard_address=":0",  # a free port: another cluster may hold the usual 8787
                            silence_logs=QUIET,
                        ),
                    )
                client = _entered(stack, Client(cluster))  # type: ignore[no-untyped-call]
            yield client
        return
    try:
        client = Client(scheduler, timeout=connect_timeout)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as exc:
        raise StudyError(
            f"no Dask scheduler answered at {scheduler} within {connect_timeout:g} s ({exc})",
            "no_scheduler",
            scheduler=scheduler,
            seconds=connect_timeout,
            error=str(exc),
        ) from None
    with contextlib.ExitStack() as stack:
        stack.enter_context(_dask_quiet())
        with _signals_held():
            _entered(stack, client)
        _wait_for_workers(client, scheduler, worker_timeout)
        yield client


@contextlib.contextmanager
def _dask_quiet() -> Iterator[None]:
    """Dask's loggers in this process say nothing while the run lasts (closing an interrupted run, the client
    and the cluster log the tasks they drop and the connections they close), and after it if it ended by an
    exception (an interrupt, an error): the cluster's event loop and distributed's exit hooks may still speak
    once the run has returned, while the process is on its way out."""
    manager = logging.Logger.manager
    names = {*DASK_LOGGERS, *(name for name in manager.loggerDict if name.split(".")[0] in DASK_LOGGERS)}
    loggers = [logging.getLogger(name) for name in sorted(names)]
    levels = [(logger, logger.level) for logger in loggers]
    for logger in loggers:  # each: some have a handler of their own and do not propagate to their parent
        logger.setLevel(QUIET)
    yield
    for logger, level in levels:
        logger.setLevel(level)


def _wait_for_workers(client: Any, scheduler: str, timeout: float) -> None:
    started = time.monotonic()
    try:
        client.wait_for_workers(1, timeout=timeout)
    except TimeoutError:
        waited = time.monotonic() - started
        raise StudyError(
            f"the scheduler at {scheduler} has had no worker for {waited:.0f} s",
            "no_worker",
            scheduler=scheduler,
            seconds=round(waited),
        ) from None


def _has_dashboard() -> bool:
    """Dask's dashboard needs bokeh, which Foursquare does not require."""
    try:
        import bokeh  # noqa: F401
    except ImportError:
        return False
    return True


def _dashboard(client: Any) -> str | None:
    if not _has_dashboard():
        return None
    try:
        link = client.dashboard_link
    except (KeyError, AttributeError):
        return None
    return str(link) if link else None


__all__ = [
    "CONNECT_TIMEOUT",
    "MAX_CHUNK",
    "WINDOW",
    "Deals",
    "StudyProgress",
    "chunk_size",
    "chunks",
    "deal_list",
    "run_study",
]
