"""Full solves from the positions N cards into fixed lines of the hard deals (the before/after benchmark).

    TH=1 .venv/bin/python benchmarks/solver_positions.py 5,6

``benchmarks/solver_hard_lines.json`` holds, for deals 21, 46, 171, 186, 203 and 215, the best line the
solver had found in 10 s (kept in a file because a time-limited search need not find the same line
twice). Each position is solved to the end (timeout 120 s); ``TH`` sets the threads. Prints one line per
solve (deal, cards in, status, best score, upper bound, positions, seconds) and the totals.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from foursquare.cards import deal_stock
from foursquare.engine import Move
from foursquare.solver import solve


def main() -> None:
    depths = [int(x) for x in (sys.argv[1] if len(sys.argv) > 1 else "5,6").split(",")]
    threads = int(os.environ["TH"]) if "TH" in os.environ else None
    lines = json.loads((Path(__file__).parent / "solver_hard_lines.json").read_text())
    nodes = 0
    seconds = 0.0
    for deal, info in lines.items():
        for n in depths:
            moves = [Move.from_json(m) for m in info["line"][:n]]
            s = solve(deal_stock(int(deal)), moves=moves, timeout=120, threads=threads)
            nodes += s.nodes
            seconds += s.seconds
            print(deal, n, s.status, s.best_score, s.upper_bound, s.nodes, round(s.seconds, 2), flush=True)
    print("total", nodes, round(seconds, 1))


if __name__ == "__main__":
    main()
