"""The cost of the study machinery, and how solver work scales with workers (docs/performance.md).

    .venv/bin/python benchmarks/study_bench.py greedy 1 1000          # one process against 1 and 2 workers
    .venv/bin/python benchmarks/study_bench.py solver 2001 2100 --workers 1 2

For each case one JSON line: deals, wall seconds (cluster start-up included), and the rate in deals per
second from the moment the cluster is up (the first progress call) to the end, which is what a long study
sees. ``inprocess`` is the same per-deal loop in this process,
numba's code loaded first. Each run uses a fresh temporary database.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from foursquare.study import StudySettings, StudyStore, compute_chunk, run_study
from foursquare.study.work import warm_up


def in_process(settings: StudySettings, deals: list[int]) -> dict[str, float | int | str]:
    warm_up(settings.what)
    started = time.perf_counter()
    compute_chunk(settings, deals)
    seconds = time.perf_counter() - started
    return {"case": "inprocess", "deals": len(deals), "wall": round(seconds, 2), "rate": round(len(deals) / seconds, 2)}


def on_cluster(settings: StudySettings, deals: list[int], workers: int) -> dict[str, float | int | str]:
    up: list[float] = []
    with tempfile.TemporaryDirectory() as tmp, StudyStore(Path(tmp) / "bench.db") as store:
        started = time.perf_counter()
        run_study(store, settings, deals, workers=workers, progress=lambda p: up.append(time.perf_counter()))
        end = time.perf_counter()
    rate = len(deals) / (end - up[0])
    return {"case": f"workers={workers}", "deals": len(deals), "wall": round(end - started, 2), "rate": round(rate, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("what", choices=("solver", "best", "greedy", "random"))
    parser.add_argument("first", type=int)
    parser.add_argument("last", type=int)
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--no-inprocess", action="store_true")
    args = parser.parse_args()
    settings = StudySettings(args.what, timeout=args.timeout if args.what == "solver" else None)
    deals = list(range(args.first, args.last + 1))
    if not args.no_inprocess:
        print(json.dumps(in_process(settings, deals)), flush=True)
    for n in args.workers:
        print(json.dumps(on_cluster(settings, deals, n)), flush=True)


if __name__ == "__main__":
    main()
