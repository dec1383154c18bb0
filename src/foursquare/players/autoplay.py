"""Whole games played by a player (one, or many deals on several processes) and the summary of their results."""

from __future__ import annotations

import ctypes
import math
import os
import signal
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from itertools import islice
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


def warm_up(name: str = "best") -> None:
    """Compile (or load from numba's cache) the kernel functions the players use, and the solver and survival
    chances the ``expert`` uses, so that timings exclude it."""
    view = Game(deal=1).view()
    K.greedy_move(K.state_of_view(view), int(view.card))  # type: ignore[arg-type]
    rank_moves(view, seed=0, playouts=1, time_budget=None)
    if name == "expert":
        from foursquare.solver import solve_position  # numba compiles the search: only for the player using it

        solve_position(Game(deal=1), max_nodes=1, small=True, exact=False)
        K.move_survival(view, view.legal_moves, 1)


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
    results = []
    for result in iter_play_deals(name, deals, seed=seed, time_budget=time_budget, variant=variant, jobs=jobs):
        results.append(result)
        if progress is not None:
            progress()
    return results


#: Deals handed to a worker process at once, and tasks in flight per worker: enough to keep every worker busy,
#: few enough that a run of any length holds only a few hundred deals' work and results at a time.
CHUNK_DEALS = 4
CHUNKS_IN_FLIGHT_PER_JOB = 16
PR_SET_PDEATHSIG = 1  # Linux's prctl option: a signal for the process when its parent ends


def _start_worker(name: str, parent: int) -> None:
    """A worker process's start: it ends with the process that started it, then it warms up ``name``."""
    _end_with_parent(parent)
    warm_up(name)


def _end_with_parent(parent: int) -> None:
    """Have Linux kill this process when ``parent`` ends, however it ends: a parent killed outright (SIGKILL) can
    stop no worker, and a worker left behind waits for work forever (its siblings hold the queue open)."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent ended before the request was made
        os._exit(1)


def iter_play_deals(
    name: str,
    deals: Iterable[int],
    *,
    seed: int = 0,
    time_budget: float | None = None,
    variant: Variant | None = None,
    jobs: int = 1,
) -> Iterator[GameResult]:
    """Play every deal with a fresh player each, yielding the results in deal order as they come, in memory
    bounded whatever the number of deals (``deals`` is read as the work goes: a ``range`` of any length)."""
    variant = variant if variant is not None else Variant()
    work = ((name, seed, time_budget, deal, variant) for deal in deals)
    warm_up(name)
    if jobs <= 1:
        yield from map(_play_deal, work)
        return
    chunks = iter(lambda: list(islice(work, CHUNK_DEALS)), [])
    with ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker, initargs=(name, os.getpid())) as pool:
        in_flight: deque[Future[list[GameResult]]] = deque(
            pool.submit(_play_chunk, chunk) for chunk in islice(chunks, jobs * CHUNKS_IN_FLIGHT_PER_JOB)
        )
        try:
            while in_flight:
                done = in_flight.popleft().result()
                for chunk in islice(chunks, 1):
                    in_flight.append(pool.submit(_play_chunk, chunk))
                yield from done
        finally:  # stopped early (an error, the caller done): the work not started is dropped, not waited for
            pool.shutdown(wait=False, cancel_futures=True)  # by the pool's own thread (a broken pool sets them too)


def _play_chunk(jobs: list[tuple[str, int, float | None, int, Variant]]) -> list[GameResult]:
    return [_play_deal(job) for job in jobs]


class Tally:
    """The summary of games added one at a time, in memory bounded whatever their number: wins, scores, and the
    time per move (its 95th percentile from a histogram of 0.5 % wide bins)."""

    BINS_PER_DECADE = 460  # 10 ** (1 / 460) = 1.005

    def __init__(self) -> None:
        self.games = self.wins = self.score = self.moves = 0
        self.seconds = 0.0
        self._bins: Counter[int] = Counter()

    def add(self, result: GameResult) -> None:
        self.games += 1
        self.wins += result.won
        self.score += result.score
        self.moves += len(result.move_seconds)
        self.seconds += sum(result.move_seconds)
        self._bins.update(self._bin(t) for t in result.move_seconds)

    def _bin(self, seconds: float) -> int:
        return math.floor(math.log10(seconds) * self.BINS_PER_DECADE) if seconds > 0 else -(10**9)

    def summary(self, player: str) -> dict[str, Any]:
        """As :func:`results_summary` gives it."""
        lo, hi = wilson(self.wins, self.games)
        return {
            "player": player,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.wins / self.games if self.games else 0.0,
            "ci95": [lo, hi],
            "mean_score": self.score / self.games if self.games else 0.0,
            "seconds_per_move": self.seconds / self.moves if self.moves else 0.0,
        }

    def p95_seconds_per_move(self) -> float:
        """The 95th percentile of the time per move, to within 0.5 %."""
        needed, seen = 0.95 * self.moves, 0
        for index in sorted(self._bins):
            seen += self._bins[index]
            if seen >= needed:
                return 0.0 if index < -(10**8) else float(10 ** ((index + 0.5) / self.BINS_PER_DECADE))
        return 0.0
