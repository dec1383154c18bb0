"""Whole games played by a player (one, or many deals on several processes) and the summary of their results."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from foursquare import kernel as K
from foursquare.engine import Game, Variant
from foursquare.players.evaluation import rank_moves
from foursquare.players.player import Player, make_player


@dataclass(frozen=True)
class GameResult:
    deal: int
    won: bool
    score: int
    moves: int
    move_seconds: tuple[float, ...]


def play_game(player: Player, game: Game, on_move: Callable[[Game], None] | None = None) -> GameResult:
    """Let ``player`` play ``game`` to the end; the player sees only views."""
    times: list[float] = []
    while not game.is_over():
        view = game.view()
        start = time.perf_counter()
        move = player.choose(view)
        times.append(time.perf_counter() - start)
        game.place(move.row, move.col)
        if on_move is not None:
            on_move(game)
    outcome = game.outcome()
    return GameResult(game.deal or 0, outcome.status == "won", outcome.score or 0, game.turn, tuple(times))


def warm_up() -> None:
    """Compile (or load from numba's cache) the kernel functions the players use, so timings exclude it."""
    view = Game(deal=1).view()
    K.greedy_move(K.state_of_view(view), int(view.card))  # type: ignore[arg-type]
    rank_moves(view, seed=0, playouts=1, time_budget=None)


def _play_deal(job: tuple[str, int, float | None, int, Variant]) -> GameResult:
    name, seed, budget, deal, variant = job
    return play_game(make_player(name, seed=seed, time_budget=budget), Game(deal=deal, variant=variant))


def wilson(wins: int, games: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95 % by default)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    lo = 0.0 if wins == 0 else max(0.0, centre - half)
    hi = 1.0 if wins == games else min(1.0, centre + half)
    return lo, hi


def results_summary(player: str, results: Sequence[GameResult]) -> dict[str, Any]:
    """Wins, win rate with its 95 % interval, mean score and time per move (``autoplay --deals --json``)."""
    games = len(results)
    wins = sum(r.won for r in results)
    lo, hi = wilson(wins, games)
    times = [t for r in results for t in r.move_seconds]
    return {
        "player": player,
        "games": games,
        "wins": wins,
        "win_rate": wins / games if games else 0.0,
        "ci95": [lo, hi],
        "mean_score": sum(r.score for r in results) / games if games else 0.0,
        "seconds_per_move": sum(times) / len(times) if times else 0.0,
    }


def p95_seconds_per_move(results: Sequence[GameResult]) -> float:
    """The 95th percentile of the time per move (kept out of the JSON summary, whose keys are fixed)."""
    times = [t for r in results for t in r.move_seconds]
    return float(np.percentile(times, 95)) if times else 0.0


def play_deals(
    name: str,
    deals: Iterable[int],
    *,
    seed: int = 0,
    time_budget: float | None = None,
    variant: Variant | None = None,
    jobs: int = 1,
    progress: Callable[[], None] | None = None,
) -> list[GameResult]:
    """Play every deal with a fresh player each; results in deal order."""
    variant = variant if variant is not None else Variant()
    work = [(name, seed, time_budget, deal, variant) for deal in deals]
    results: list[GameResult] = []
    warm_up()
    if jobs <= 1:
        for job in work:
            results.append(_play_deal(job))
            if progress is not None:
                progress()
        return results
    with ProcessPoolExecutor(max_workers=jobs, initializer=warm_up) as pool:
        for result in pool.map(_play_deal, work, chunksize=4):
            results.append(result)
            if progress is not None:
                progress()
    return results
