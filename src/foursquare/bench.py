"""``foursquare bench``: greedy playouts, compiled kernel against the pure-Python engine.

Both implementations play the greedy player (see :mod:`foursquare.players`) over the same deals
on one core; they must agree on the number of wins and the total score, which the report shows
so the work can be checked.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

import numpy as np

from foursquare import kernel as K
from foursquare.cards import deal_stock
from foursquare.engine import Game, Variant
from foursquare.players import greedy_move_on

MIN_RUNS = 3
MIN_KERNEL_SECONDS = 1.0

TEXT = {
    "title": "greedy playouts over deals {lo}-{hi} ({games} games, {variant})",
    "kernel": "kernel: {gps:,.0f} games/s ({seconds:.3f} s; compiling or loading the cache took {compile:.2f} s)",
    "engine": "engine: {gps:,.0f} games/s ({seconds:.3f} s)",
    "speedup": "speedup: {speedup:,.0f}x",
    "check": "both won {wins} games with a total score of {score}",
    "mismatch": "MISMATCH: kernel won {kw} (total {ks}), engine won {ew} (total {es})",
}


class BenchError(ValueError):
    """The two implementations disagreed: a bug in one of them."""


def kernel_run(deals: range, variant: Variant) -> tuple[int, int, float, float]:
    """(wins, total score, seconds, compile seconds) of greedy on the kernel.

    The deals are played again until :data:`MIN_KERNEL_SECONDS` have passed (at least
    :data:`MIN_RUNS` times) and the fastest run counts, so that other work on the machine
    disturbs the figure less. The compile time is that of the first call (loading numba's
    on-disk cache when it is warm).
    """
    stocks = np.array([[int(c) for c in deal_stock(d)] for d in deals], dtype=np.int8)
    diagonal = 1 if variant.adjacency == "diagonal" else 0
    buried = 1 if variant.count_buried else 0
    start = time.perf_counter()
    K.greedy_games(stocks[:1], diagonal, buried)
    compile_seconds = time.perf_counter() - start
    seconds = math.inf
    spent = 0.0
    runs = 0
    while runs < MIN_RUNS or spent < MIN_KERNEL_SECONDS:
        start = time.perf_counter()
        scores = K.greedy_games(stocks, diagonal, buried)
        elapsed = time.perf_counter() - start
        seconds = min(seconds, elapsed)
        spent += elapsed
        runs += 1
    won = scores >= 0
    return int(won.sum()), int(scores[won].sum()), seconds, compile_seconds


def engine_run(deals: range, variant: Variant) -> tuple[int, int, float]:
    """(wins, total score, seconds) of greedy on the pure-Python engine."""
    games = [Game(deal=d, variant=variant) for d in deals]
    wins = total = 0
    start = time.perf_counter()
    for game in games:
        while not game.is_over():
            move = greedy_move_on(game)
            game.place(move.row, move.col)
        outcome = game.outcome()
        if outcome.status == "won":
            wins += 1
            total += outcome.score or 0
    return wins, total, time.perf_counter() - start


def bench(deals: tuple[int, int], variant: Variant | None = None) -> dict[str, Any]:
    """Run both implementations and return the JSON report."""
    variant = variant if variant is not None else Variant()
    lo, hi = deals
    span = range(lo, hi + 1)
    k_wins, k_total, k_seconds, compile_seconds = kernel_run(span, variant)
    e_wins, e_total, e_seconds = engine_run(span, variant)
    report: dict[str, Any] = {
        "deals": [lo, hi],
        "variant": variant.to_json(),
        "games": len(span),
        "wins": k_wins,
        "total_score": k_total,
        "kernel": {
            "games_per_second": len(span) / k_seconds,
            "seconds": k_seconds,
            "compile_seconds": compile_seconds,
        },
        "engine": {
            "games_per_second": len(span) / e_seconds,
            "seconds": e_seconds,
            "wins": e_wins,
            "total_score": e_total,
        },
        "speedup": e_seconds / k_seconds,
        "agree": (k_wins, k_total) == (e_wins, e_total),
    }
    return report


def command_bench(args: argparse.Namespace) -> int:
    """``foursquare bench``."""
    variant = Variant(adjacency=args.adjacency, count_buried=args.count_buried)
    report = bench(args.deals, variant)
    if args.json:
        print(json.dumps(report))
    else:
        lo, hi = report["deals"]
        variant_text = ", ".join(f"{k}={v}" for k, v in variant.to_json().items())
        print(TEXT["title"].format(lo=lo, hi=hi, games=report["games"], variant=variant_text))
        k, e = report["kernel"], report["engine"]
        print(TEXT["kernel"].format(gps=k["games_per_second"], seconds=k["seconds"], compile=k["compile_seconds"]))
        print(TEXT["engine"].format(gps=e["games_per_second"], seconds=e["seconds"]))
        print(TEXT["speedup"].format(speedup=report["speedup"]))
    if not report["agree"]:
        e = report["engine"]
        message = TEXT["mismatch"].format(
            kw=report["wins"], ks=report["total_score"], ew=e["wins"], es=e["total_score"]
        )
        raise BenchError(message)
    if not args.json:
        print(TEXT["check"].format(wins=report["wins"], score=report["total_score"]))
    return 0
