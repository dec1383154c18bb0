"""Time the default hint (no budget) over every position of some deals, as the hint itself plays them.

    .venv/bin/python benchmarks/hint_latency.py 1 60

Prints the number of positions and the median, 95th percentile and maximum in milliseconds, of CPU
time (``time.process_time``, what the hint itself costs) and of wall-clock time (which includes the
machine's other load).
"""

from __future__ import annotations

import sys
import time

import numpy as np

from foursquare.engine import Game
from foursquare.players import hint, warm_up


def main() -> None:
    first, last = int(sys.argv[1]), int(sys.argv[2])
    warm_up()
    wall: list[float] = []
    cpu: list[float] = []
    for deal in range(first, last + 1):
        game = Game(deal=deal)
        while not game.is_over():
            start, start_cpu = time.perf_counter(), time.process_time()
            advice = hint(game.view(), seed=0)
            wall.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            game.place(advice[0].move.row, advice[0].move.col)
    for name, seconds in (("cpu", cpu), ("wall", wall)):
        ms = np.array(seconds) * 1000
        print(f"{name}: {len(ms)} positions, median {np.median(ms):.1f} ms, "
              f"p95 {np.percentile(ms, 95):.1f} ms, max {ms.max():.1f} ms")


if __name__ == "__main__":
    main()
