"""Moves estimated by Monte Carlo over the unknown stock order, in the compiled kernel.

:func:`race` runs the legal moves against each other on the same sampled futures (common random numbers), each
played out with the tuned rollout policy; moves clearly behind the leader drop out. :func:`rank_moves` adds
the second race of a risky position (the best player's and the hint's estimates); :func:`compare_moves` and
:func:`estimate_move` play moves out on fresh futures, unbiased (the post-game analysis).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from foursquare import kernel as K
from foursquare.engine import Move, View
from foursquare.players.errors import player_error

#: Futures on which :func:`compare_moves` plays two moves out (the post-game analysis).
COMPARE_PLAYOUTS = 1000
#: Points a won playout is worth on top of its score when moves are compared: the race maximises
#: ``expected_score + bonus * win_probability``. In ordinary positions the bonus is 0 (plain expected
#: score): bonuses of 10 and 40 everywhere won no more games and cost score (docs/ai.md).
WIN_BONUS = 0
#: A position is *risky* when the leader of a plain race wins less often than this in the rollouts
#: (an ordinary position is at 85-95 %); there the race is run again with :data:`RISK_BONUS`,
#: trading a little score for safety.
RISKY_BELOW = 0.85
#: The win bonus of the second race in a risky position (how it was chosen: benchmarks/ai_history.md).
RISK_BONUS = 20
#: Futures per round of the race between moves.
BATCH = 16
#: Rounds before a race may end with a single move left.
MIN_ROUNDS = 2
#: Standard errors by which a move must trail the leader to leave the race.
CONFIDENCE = 2.5


@dataclass(frozen=True)
class MoveAdvice:
    """One legal move with its estimated chance of winning and mean final score (a loss scores 0)."""

    move: Move
    win_probability: float
    expected_score: float
    #: The sampled futures behind the estimates: a move that left the race early met fewer of them.
    playouts: int = 0

    def to_json(self) -> dict[str, Any]:
        """The shape used by ``hint --json`` and the web API (``cell``: the cell's name, ``"D4"``)."""
        return {
            "row": self.move.row,
            "col": self.move.col,
            "cell": self.move.name,
            "win_probability": self.win_probability,
            "expected_score": self.expected_score,
            "playouts": self.playouts,
        }


def _seed_of(seed: int, view: View) -> int:
    """A seed for one decision: the player's seed mixed with the position, so reruns repeat exactly."""
    card = -1 if view.card is None else int(view.card)
    return (seed * 0x9E3779B97F4A7C15 + view.turn * 0x100000001B3 + card) & (2**64 - 1)


def rank_moves(
    view: View,
    *,
    seed: int,
    playouts: int,
    time_budget: float | None,
    weights: npt.NDArray[np.float64] | None = None,
) -> list[MoveAdvice]:
    """Every legal move with its Monte Carlo estimates, best first (see :func:`race`).

    A plain race (:data:`WIN_BONUS`) decides; but when its leader wins less than
    :data:`RISKY_BELOW` of its rollouts, the position is risky and a second race on the same
    futures ranks the moves by ``expected_score + RISK_BONUS * win_probability`` instead (with a
    time budget, each race gets the whole budget).
    """
    advice = race(view, seed=seed, playouts=playouts, time_budget=time_budget, weights=weights, bonus=WIN_BONUS)
    if 0 < advice[0].win_probability < RISKY_BELOW and len(advice) > 1:
        advice = race(view, seed=seed, playouts=playouts, time_budget=time_budget, weights=weights,
                      bonus=RISK_BONUS)
    return advice


def race(
    view: View,
    *,
    seed: int,
    playouts: int,
    time_budget: float | None,
    weights: npt.NDArray[np.float64] | None = None,
    bonus: float = 0,
) -> list[MoveAdvice]:
    """Every legal move with its Monte Carlo estimates, best first, by ``score + bonus * won``.

    Rounds of :data:`BATCH` sampled futures are played out after every move still in the race, the
    same futures for all of them (common random numbers). After each round a move whose mean
    value is clearly below the leader's (upper bound below the leader's lower bound,
    :data:`CONFIDENCE` standard errors) leaves the race. Without a time budget the race stops
    after ``playouts`` playouts in all, or when one move is left after :data:`MIN_ROUNDS` rounds;
    with one, when the budget is spent. Moves still in the race rank first, by mean value; the
    others follow in the reverse order they left it.
    """
    if view.card is None or not view.legal_moves:
        raise player_error("no_rank")
    tally = _Tally(len(view.legal_moves), bonus)
    state = K.state_of_view(view)
    unseen = K.stock_array(view.unseen)
    rng = K.make_rng(_seed_of(seed, view))
    weights = K.POLICY_WEIGHTS if weights is None else weights
    deadline = None if time_budget is None else time.perf_counter() + time_budget
    alive = list(range(tally.n))
    spent = rounds = 0
    while True:
        cells = np.array([K.cell_of(*view.legal_moves[i]) for i in alive], dtype=np.int64)
        results = np.empty((BATCH, len(alive)), dtype=np.int8)
        K.monte_carlo(state, int(view.card), unseen, cells, rng, results, weights)
        tally.add(alive, results)
        spent += BATCH * len(alive)
        rounds += 1
        alive = _survivors(alive, tally.paired, tally.values, tally.samples)
        tally.mark_left(alive, rounds)
        if deadline is not None:
            if time.perf_counter() >= deadline:
                break
        elif spent >= playouts or (len(alive) == 1 and rounds >= MIN_ROUNDS):
            break
    return tally.ranked(view.legal_moves)


class _Tally:
    """What a race has seen of each move: wins, scores, values (score + bonus for a win), futures met."""

    def __init__(self, n: int, bonus: float) -> None:
        self.n = n
        self.bonus = bonus
        self.wins = np.zeros(n, dtype=np.int64)
        self.scores = np.zeros(n, dtype=np.int64)
        self.samples = np.zeros(n, dtype=np.int64)
        self.values = np.zeros(n, dtype=np.float64)
        self.left_in_round = np.full(n, -1, dtype=np.int64)
        self.paired: list[list[float]] = [[] for _ in range(n)]  # per move: its value on each shared future

    def add(self, alive: list[int], results: npt.NDArray[np.int8]) -> None:
        """One round: ``results[k, j]`` is the score of move ``alive[j]`` on future ``k`` (-1: lost)."""
        for j, i in enumerate(alive):
            column = results[:, j].astype(np.int64)
            self.wins[i] += int((column >= 0).sum())
            self.scores[i] += int(np.maximum(column, 0).sum())
            value = np.where(column >= 0, column + self.bonus, 0)
            self.values[i] += float(value.sum())
            self.samples[i] += len(column)
            self.paired[i].extend(value.tolist())

    def mark_left(self, alive: list[int], rounds: int) -> None:
        for i in range(self.n):
            if self.left_in_round[i] < 0 and i not in alive:
                self.left_in_round[i] = rounds

    def ranked(self, moves: Sequence[Move]) -> list[MoveAdvice]:
        """Moves still in the race first, by mean value; then the others, last to leave first."""
        advice = [
            MoveAdvice(move, int(self.wins[i]) / int(self.samples[i]), int(self.scores[i]) / int(self.samples[i]),
                       int(self.samples[i]))
            for i, move in enumerate(moves)
        ]

        def rank(i: int) -> tuple[int, float, float, int]:
            out = self.left_in_round[i]
            return (-(10**9 if out < 0 else int(out)), -self.values[i] / self.samples[i], -advice[i].win_probability, i)

        return [advice[i] for i in sorted(range(self.n), key=rank)]


def _survivors(
    alive: list[int], paired: list[list[float]], values: npt.NDArray[np.float64], samples: npt.NDArray[np.int64]
) -> list[int]:
    """The moves still in the race: the leader by mean value, and every move that the paired
    differences on the shared futures do not show below it by :data:`CONFIDENCE` standard errors.
    """
    lead = max(alive, key=lambda i: (values[i] / samples[i], -i))
    leader = np.asarray(paired[lead], dtype=np.float64)
    keep = []
    for i in alive:
        # every move still in the race has met exactly the leader's futures
        diff = np.asarray(paired[i], dtype=np.float64) - leader
        se = float(diff.std()) / math.sqrt(len(diff))
        if i == lead or float(diff.mean()) + CONFIDENCE * se >= 0:
            keep.append(i)
    return keep


@dataclass(frozen=True)
class MoveComparison:
    """Two moves played out on the same fresh futures: their estimates and the gaps between them.

    ``score_gap`` and ``win_gap`` are the first move's mean minus the second's (score of a win, 0 for a
    loss; 1 for a win, 0 for a loss), each with the standard error of its paired differences.
    """

    first: MoveAdvice
    second: MoveAdvice
    score_gap: float
    score_gap_se: float
    win_gap: float
    win_gap_se: float


def compare_moves(
    view: View, first: Move, second: Move, *, seed: int, playouts: int = COMPARE_PLAYOUTS
) -> MoveComparison:
    """Play ``first`` and ``second`` out on the same ``playouts`` futures (rollout policy as in the race).

    Unlike a race, nothing is selected on these futures, so the estimates are unbiased: the way to
    tell whether a move the race ranked below another is really worse.
    """
    raw = _fresh_playouts(view, (first, second), seed=seed, playouts=playouts)
    score = np.maximum(raw, 0)
    won = (raw >= 0).astype(np.float64)
    advice = [
        MoveAdvice(move, float(won[:, j].mean()), float(score[:, j].mean()), playouts)
        for j, move in enumerate((first, second))
    ]
    score_diff = score[:, 0] - score[:, 1]
    win_diff = won[:, 0] - won[:, 1]
    root = math.sqrt(playouts)
    return MoveComparison(
        advice[0], advice[1],
        float(score_diff.mean()), float(score_diff.std()) / root,
        float(win_diff.mean()), float(win_diff.std()) / root,
    )


def estimate_move(view: View, move: Move, *, seed: int, playouts: int = COMPARE_PLAYOUTS) -> MoveAdvice:
    """``move`` played out alone on the futures :func:`compare_moves` would use (unbiased, as there)."""
    raw = _fresh_playouts(view, (move,), seed=seed, playouts=playouts)[:, 0]
    return MoveAdvice(move, float((raw >= 0).mean()), float(np.maximum(raw, 0).mean()), playouts)


def _fresh_playouts(view: View, moves: Sequence[Move], *, seed: int, playouts: int) -> npt.NDArray[np.float64]:
    """``result[k, j]``: the score of ``moves[j]`` on fresh future ``k`` (-1: lost), futures drawn from
    the unseen cards only, the same futures whatever the moves."""
    if view.card is None or not view.legal_moves:
        raise player_error("no_rank")
    for move in moves:
        if move not in view.legal_moves:
            raise player_error("not_legal", row=move[0], col=move[1])
    cells = np.array([K.cell_of(*move) for move in moves], dtype=np.int64)
    results = np.empty((playouts, len(moves)), dtype=np.int8)
    rng = K.make_rng(_seed_of(seed, view) ^ 0x5DEECE66D)
    K.monte_carlo(K.state_of_view(view), int(view.card), K.stock_array(view.unseen), cells, rng, results,
                  K.POLICY_WEIGHTS)
    return results.astype(np.float64)
