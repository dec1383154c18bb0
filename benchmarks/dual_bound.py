"""The information-relaxation dual bound (foursquare.rl.bounds) on test deals, one JSON line a deal.

    nice .venv/bin/python benchmarks/dual_bound.py --deals 1-1000 --depth 3 --playouts 64 --leaf-nodes 200000 \
        > dual.jsonl

Each line: the deal, its stock-known optimum (foursquare.rl.protocol), the dual bound with the penalty of the
best player's rollouts (``--playouts`` a move) on the first ``--depth`` moves, the lines tried, the solver's
positions for their rests, and the seconds. Budgets are counts: the same figures on any machine. The last
line is the summary: the means and their 95 % intervals over the deals done, and the paired difference.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from foursquare.engine import Game
from foursquare.rl.bounds import dual_bound, mean_and_margin, rollout_value
from foursquare.rl.protocol import optimum


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="1-1000", help="A-B")
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--playouts", type=int, default=64)
    parser.add_argument("--leaf-nodes", type=int, default=200_000)
    args = parser.parse_args()
    lo, _, hi = args.deals.partition("-")
    value = rollout_value(args.playouts)
    bounds, optima = [], []
    for deal in range(int(lo), int(hi or lo) + 1):
        start = time.process_time()
        result = dual_bound(Game(deal=deal), args.depth, value, leaf_nodes=args.leaf_nodes)
        row = {"deal": deal, "optimum": optimum(deal), "bound": result.bound, "lines": result.lines,
               "solver_nodes": result.solver_nodes, "cpu_seconds": round(time.process_time() - start, 3)}  # fmt: skip
        bounds.append(result.bound)
        optima.append(row["optimum"])
        print(json.dumps(row), flush=True)
    mean, margin = mean_and_margin(bounds)
    gap, gap_margin = mean_and_margin([b - o for b, o in zip(bounds, optima, strict=True)])
    summary = {"deals": len(bounds), "bound_mean": mean, "bound_margin95": margin,
               "optimum_mean": sum(optima) / len(optima), "bound_minus_optimum": gap, "margin95": gap_margin,
               "depth": args.depth, "playouts": args.playouts, "leaf_nodes": args.leaf_nodes}  # fmt: skip
    print(json.dumps({"summary": summary}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
