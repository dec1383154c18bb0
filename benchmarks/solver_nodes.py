"""Solve deals FIRST..LAST on one thread, to the end, and print what must not change when the search is
refactored: one JSON line per deal with its status, best score, upper bound, positions and line.

    .venv/bin/python benchmarks/solver_nodes.py 1 300 > nodes.jsonl

With one thread the search is deterministic, and the timeout (600 s a deal) is far beyond what any of
these deals needs, so no deal is cut by the clock: two versions of the search that explore the same
positions print the same lines (``cpu``, the deal's CPU seconds, aside). Compare two runs with
``diff <(cut -d, -f1-5 a.jsonl) <(cut -d, -f1-5 b.jsonl)`` or by the ``nodes`` and ``line`` fields.
"""

from __future__ import annotations

import json
import sys
import time

from foursquare.cards import deal_stock
from foursquare.solver import solve

TIMEOUT = 600.0


def main() -> None:
    first, last = int(sys.argv[1]), int(sys.argv[2])
    for deal in range(first, last + 1):
        start = time.process_time()
        s = solve(deal_stock(deal), threads=1, timeout=TIMEOUT)
        print(json.dumps({"deal": deal, "status": s.status, "best": s.best_score, "upper": s.upper_bound,
                          "nodes": s.nodes, "line": [m.to_json() for m in s.line],
                          "cpu": round(time.process_time() - start, 3)}), flush=True)


if __name__ == "__main__":
    main()
