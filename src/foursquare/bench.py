"""Greedy playouts, compiled kernel against the pure-Python engine (``foursquare bench``).

Both implementations play the greedy player (see :mod:`foursquare.players`) over the same deals
on one core; they must agree on the number of wins and the total score, which the report shows
so the work can be checked.
"""

from __future__ import annotations

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


def kernel_run(deals: range, variant: Variant) -> tuple[int, int, float, float]:
    """(wins, total score, seconds, compile seconds) of greedy on the kernel.

    The deals are played again until :data:`MIN_KERNEL_SECONDS` have passed (at least
    :data:`MIN_RUNS` times) and the fastest run counts, so that other work on the machine
    disturbs the figure less. The compile time is that of the first call (loading numba's
    on-disk cache when it is warm).
    """
    stocks = np.array([[int(c) for c in deal_stock(d)] for d in deals], dtype=np.int8)
    diagonal, buried = K.variant_flags(variant)
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


def check_agreement(report: dict[str, Any]) -> None:
    """Raise :class:`~foursquare.kernel.KernelMismatch` when the kernel's games did not end as the engine's."""
    if not report["agree"]:
        e = report["engine"]
        raise K.KernelMismatch(
            f"the kernel won {report['wins']} games (total score {report['total_score']}), "
            f"the engine {e['wins']} (total {e['total_score']})"
        )
