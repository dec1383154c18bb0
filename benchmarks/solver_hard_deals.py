"""Solve some deals one after the other and print positions, wall and CPU seconds for each.

    .venv/bin/python benchmarks/solver_hard_deals.py THREADS DEALS TIMEOUT
    .venv/bin/python benchmarks/solver_hard_deals.py 1 21,171,186,46,203,215 120
    .venv/bin/python benchmarks/solver_hard_deals.py 1 50,203 nodes=150000000   # a node budget, no clock

One line per deal: deal, status, best score, upper bound, positions, wall seconds, CPU seconds.
"""

from __future__ import annotations

import sys
import time

from foursquare.cards import deal_stock
from foursquare.solver import solve


def main() -> None:
    threads = int(sys.argv[1])
    deals = [int(x) for x in sys.argv[2].split(",")]
    limit = sys.argv[3]
    nodes = int(limit.removeprefix("nodes=")) if limit.startswith("nodes=") else None
    timeout = None if nodes else float(limit)
    for deal in deals:
        start = time.process_time()
        s = solve(deal_stock(deal), timeout=timeout, max_nodes=nodes, threads=threads)
        cpu = time.process_time() - start
        print(deal, s.status, s.best_score, s.upper_bound, s.nodes, round(s.seconds, 1), "cpu", round(cpu, 1),
              flush=True)


if __name__ == "__main__":
    main()
