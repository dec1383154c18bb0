"""Running a study: the deals still missing, in chunks, on a Dask cluster; rows stored as chunks come back.

Without a scheduler address a local cluster of worker processes is started (one per core by default);
with one, an existing ``dask.distributed`` scheduler and its workers do the work. The chunks are the
tasks: a worker that dies has its chunks recomputed by the scheduler, and every row comes back to this
one process, which alone writes the store — one transaction per chunk.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from foursquare.study.store import Study, StudyStore
from foursquare.study.work import StudyError, StudySettings, compute_chunk

CONNECT_TIMEOUT = 5.0  # seconds for a scheduler to answer
WORKER_TIMEOUT = 60.0  # seconds for a scheduler with no worker to get one
# Deals per chunk at most: big enough that a chunk takes about a second or more (the scheduler's overhead
# is milliseconds per task), small enough that a killed run loses little and the load stays balanced.
MAX_CHUNK = {"solver": 100, "best": 2, "greedy": 1000, "random": 2000}
CHUNKS_PER_WORKER = 8


@dataclass(frozen=True)
class StudyProgress:
    """Where a run is: deals stored (``done``) of the ``total`` asked, and the cluster's dashboard if any."""

    done: int
    total: int
    dashboard: str | None = None


def deal_list(ranges: Iterable[tuple[int, int]]) -> list[int]:
    """The deals of inclusive ranges ``(first, last)``, which must neither run backwards nor overlap."""
    spans = list(ranges)
    if not spans:
        raise StudyError("no deals: give at least one range of deals")
    for lo, hi in spans:
        if hi < lo:
            raise StudyError(f"the deal range {lo}-{hi} ends before it starts")
    ordered = sorted(spans)
    for (lo1, hi1), (lo2, hi2) in itertools.pairwise(ordered):
        if lo2 <= hi1:
            raise StudyError(f"the deal ranges {lo1}-{hi1} and {lo2}-{hi2} overlap")
    return [deal for lo, hi in spans for deal in range(lo, hi + 1)]


def chunks(deals: Sequence[int], what: str, workers: int) -> Iterator[list[int]]:
    """The deals in chunks: about ``CHUNKS_PER_WORKER`` per worker, at most ``MAX_CHUNK[what]`` deals each."""
    size = max(1, min(MAX_CHUNK[what], -(-len(deals) // (max(1, workers) * CHUNKS_PER_WORKER))))
    for start in range(0, len(deals), size):
        yield list(deals[start : start + size])


def run_study(
    store: StudyStore,
    settings: StudySettings,
    deals: Sequence[int],
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[StudyProgress], None] | None = None,
    connect_timeout: float = CONNECT_TIMEOUT,
    worker_timeout: float = WORKER_TIMEOUT,
) -> Study:
    """Compute and store every deal of ``deals`` not stored yet for ``settings``; returns the study.

    ``workers`` worker processes of a local cluster (default: the processors), or the cluster of the
    scheduler at ``scheduler`` (``tcp://host:port``). ``progress`` is called whenever rows are stored.
    """
    if workers is not None and scheduler is not None:
        raise StudyError("give either a number of local workers or a scheduler address, not both")
    if workers is not None and workers < 1:
        raise StudyError(f"a local cluster needs at least one worker, not {workers}")
    study = store.study(settings)
    done = store.done_deals(study)
    todo = [deal for deal in deals if deal not in done]
    stored = len(deals) - len(todo)
    if not todo:
        if progress is not None:
            progress(StudyProgress(stored, len(deals)))
        return study
    with _client(workers, scheduler, connect_timeout, worker_timeout) as client:
        dashboard = _dashboard(client)
        if progress is not None:
            progress(StudyProgress(stored, len(deals), dashboard))
        width = max(1, sum(client.nthreads().values()))
        futures = [
            client.submit(compute_chunk, settings, chunk, pure=False, retries=0)
            for chunk in chunks(todo, settings.what, width)
        ]
        _collect(store, study, futures, stored, len(deals), dashboard, progress)
    return study


def _collect(
    store: StudyStore,
    study: Study,
    futures: list[Any],
    stored: int,
    total: int,
    dashboard: str | None,
    progress: Callable[[StudyProgress], None] | None,
) -> None:
    """Store each chunk as it comes back (in one transaction), then forget it on the cluster."""
    from distributed import as_completed
    from distributed.client import FutureCancelledError
    from distributed.scheduler import KilledWorker

    for future in as_completed(futures):  # type: ignore[no-untyped-call]
        try:
            rows = future.result()
        except KilledWorker as exc:
            raise RuntimeError(f"a chunk of deals killed every worker that tried it: {exc}") from None
        except FutureCancelledError as exc:
            message = f"the cluster dropped a chunk of deals (did the scheduler stop?): {exc}"
            raise StudyError(message, "chunk_dropped", error=str(exc)) from None
        stored += store.add(study, rows)
        future.release()
        if progress is not None:
            progress(StudyProgress(stored, total, dashboard))


@contextlib.contextmanager
def _client(workers: int | None, scheduler: str | None, connect_timeout: float, worker_timeout: float) -> Iterator[Any]:
    """A client of the scheduler at ``scheduler``, or of a new local cluster that is closed afterwards."""
    from distributed import Client, LocalCluster

    if scheduler is None:
        n = workers if workers is not None else (os.cpu_count() or 1)
        cluster = LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=n,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",  # a free port: another cluster may hold the usual 8787
            # Shutting down, a worker may log a heartbeat "error" to a scheduler already gone: not the user's
            # business, and the run's real failures come back as exceptions.
            silence_logs=logging.CRITICAL,
        )
        with cluster, Client(cluster) as client:  # type: ignore[no-untyped-call]
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
    with client:
        _wait_for_workers(client, scheduler, worker_timeout)
        yield client


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


__all__ = ["CONNECT_TIMEOUT", "MAX_CHUNK", "StudyProgress", "chunks", "deal_list", "run_study"]
