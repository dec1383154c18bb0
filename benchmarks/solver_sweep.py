"""Solve deals FIRST..LAST and summarise: proof rate, time distribution, best scores.

    .venv/bin/python benchmarks/solver_sweep.py FIRST LAST [TIMEOUT] [--threads N]
    .venv/bin/python benchmarks/solver_sweep.py 1 1000 10 > sweep.jsonl

Each deal's result is printed as a JSON line as it comes (deal, status, best score, upper bound,
seconds, nodes), then the summary as one JSON line. TIMEOUT is per deal (default 10 s); the threads
default to the solver's (``default_threads()``). The measurement behind docs/solver.md.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from foursquare.cards import deal_stock
from foursquare.solver import solve


def solve_deal(deal: int, timeout: float, threads: int | None) -> dict[str, Any]:
    """One deal's line of the sweep."""
    s = solve(deal_stock(deal), timeout=timeout, threads=threads)
    return {"deal": deal, "status": s.status, "best_score": s.best_score, "upper_bound": s.upper_bound,
            "seconds": round(s.seconds, 3), "nodes": s.nodes}


def summary(rows: list[dict[str, Any]], timeout: float) -> dict[str, Any]:
    """The sweep's summary of the deals' lines."""
    seconds = sorted(r["seconds"] for r in rows)

    def quantile(q: float) -> float:
        return float(seconds[min(len(seconds) - 1, int(q * len(seconds)))])

    scores: dict[str, int] = {}
    for r in rows:
        label = "unwinnable" if r["status"] == "unwinnable" else str(r["best_score"])
        if r["status"] == "bounds":
            label = f"bounds {r['best_score']}..{r['upper_bound']}"
        scores[label] = scores.get(label, 0) + 1
    return {
        "deals": len(rows),
        "timeout": timeout,
        "proven": sum(r["status"] != "bounds" for r in rows),
        "unproven": [r["deal"] for r in rows if r["status"] == "bounds"],
        "winnable": sum(r["best_score"] is not None for r in rows),
        "unwinnable": sum(r["status"] == "unwinnable" for r in rows),
        "seconds": {"median": quantile(0.5), "p90": quantile(0.9), "p99": quantile(0.99), "max": seconds[-1],
                    "total": round(sum(seconds), 1)},
        "scores": dict(sorted(scores.items())),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=int)
    parser.add_argument("last", type=int)
    parser.add_argument("timeout", type=float, nargs="?", default=10.0)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    rows = []
    for deal in range(args.first, args.last + 1):
        row = solve_deal(deal, args.timeout, args.threads)
        print(json.dumps(row), flush=True)
        rows.append(row)
    print(json.dumps(summary(rows, args.timeout)))


if __name__ == "__main__":
    main()
