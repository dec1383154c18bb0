"""Solve deals under a node budget, several processes at a time, and print one JSON line per deal.

    .venv/bin/python benchmarks/solver_exact.py DEALS NODES [PROCESSES] [NODES_PER_WORK]
    .venv/bin/python benchmarks/solver_exact.py 1-1000 30000000 2
    .venv/bin/python benchmarks/solver_exact.py @hard.txt 10000000 2 1000000   # deal numbers from a file

Each line: deal, status, best score, upper bound, the deepening's positions, the exact stage's deterministic
time (CP-SAT's units), wall seconds. NODES_PER_WORK sets ``foursquare.solver.driver.NODES_PER_WORK`` (how the
budget is shared between the deepening and the exact stage) for the measurement.
"""

from __future__ import annotations

import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from foursquare.cards import deal_stock
from foursquare.solver import driver, solve


def _deals(text: str) -> list[int]:
    if text.startswith("@"):
        return [int(word) for word in Path(text[1:]).read_text().split()]
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def _solve(deal: int, nodes: int, nodes_per_work: int | None) -> str:
    if nodes_per_work is not None:
        driver.NODES_PER_WORK = nodes_per_work
    s = solve(deal_stock(deal), max_nodes=nodes)
    row = {"deal": deal, "status": s.status, "best_score": s.best_score, "upper_bound": s.upper_bound,
           "nodes": s.nodes, "work": round(s.work, 3), "seconds": round(s.seconds, 3)}
    return json.dumps(row)


def main() -> None:
    deals = _deals(sys.argv[1])
    nodes = int(sys.argv[2])
    processes = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    nodes_per_work = int(sys.argv[4]) if len(sys.argv) > 4 else None
    with ProcessPoolExecutor(processes) as pool:
        for line in pool.map(_solve, deals, [nodes] * len(deals), [nodes_per_work] * len(deals)):
            print(line, flush=True)


if __name__ == "__main__":
    main()
