"""The CPU a hint and an analysis cost, computed as the server's workers compute them (for docs/scaling.md).

    .venv/bin/python benchmarks/request_costs.py                 # 300 hints, 20 analyses: about two minutes
    .venv/bin/python benchmarks/request_costs.py --games 40 --json

It plays ``--games`` games of random deals (seeded) as a hint client does — each move the hint's best, so the
games are as long as a good player's — asking :func:`foursquare.web.pool.hint_json` at every turn (the hint the
server answers), then :func:`foursquare.web.pool.analysis_json` of each finished game, and reports the CPU seconds
of each (this process's ``time.process_time``: one core), p50, p95 and mean, and the moves a game. The compiled
kernel is loaded (and a first hint computed) before anything is timed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from typing import Any

from foursquare.engine import Game
from foursquare.web.pool import analysis_json, hint_json


def timed(work: Any, *args: Any) -> tuple[float, Any]:
    start = time.process_time()
    result = work(*args)
    return time.process_time() - start, result


def figures(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "count": len(ordered),
        "mean_ms": round(1000 * statistics.fmean(ordered), 1),
        "p50_ms": round(1000 * ordered[len(ordered) // 2], 1),
        "p95_ms": round(1000 * ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], 1),
    }


def measure(games: int, analyses: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    hint_json(Game(deal=0).view())  # the kernel loaded and compiled (numba's cache) before anything is timed
    hints: list[float] = []
    lengths: list[int] = []
    finished: list[Game] = []
    for _ in range(games):
        game = Game(deal=rng.randrange(2**32))
        while not game.is_over():
            seconds, answer = timed(hint_json, game.view())
            hints.append(seconds)
            best = answer["moves"][0]
            game.place(best["row"], best["col"])
        lengths.append(game.turn)
        finished.append(game)
    analysis = [timed(analysis_json, game)[0] for game in finished[:analyses]]
    return {"hint": figures(hints), "analysis": figures(analysis), "moves_a_game": statistics.fmean(lengths),
            "won": sum(game.outcome().status == "won" for game in finished), "games": len(finished)}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=20, help="games played by the hint (default 20)")
    parser.add_argument("--analyses", type=int, default=20, help="of which analysed (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    result = measure(args.games, args.analyses, args.seed)
    result["machine"] = f"{os.cpu_count()} CPUs, load average {load} before; Python {platform.python_version()}"
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    played = f"{result['games']} games played by the hint ({result['won']} won, {result['moves_a_game']:.1f} moves"
    print(f"{played} a game); machine: {result['machine']}")
    for name in ("hint", "analysis"):
        f = result[name]
        cpu = f"CPU mean {f['mean_ms']} ms, p50 {f['p50_ms']} ms, p95 {f['p95_ms']} ms"
        print(f"- {name}: {f['count']} computed, {cpu}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
