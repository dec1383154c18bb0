"""Computer players and move hints.

Every player sees only a :class:`~foursquare.engine.View`: the grid, the card to place and the
multiset of cards still unseen, never the stock order. Three players exist:

``random``
    a uniformly random legal move.
``greedy``
    among the legal moves in (row, col) order, the first that wins at once; otherwise the one
    leaving the fewest face-down cards (``Game.face_down`` after the move), a losing move counting
    as worst; ties go to the move with more occupied cells, then to the first in (row, col) order.
    :func:`greedy_move` does it on the engine, :func:`foursquare.kernel.greedy_choice` in the kernel.
``best``
    Monte Carlo over the unknown stock order (see ``docs/ai.md``): the legal moves race against
    each other on the same sampled futures (common random numbers), each played out with a tuned
    rollout policy in the compiled kernel; moves clearly behind the leader drop out, and the move
    with the highest mean score (a loss scoring 0) is chosen. In a risky position (the leader wins
    under :data:`RISKY_BELOW` of its rollouts) a second race values a win :data:`RISK_BONUS` points more.

:func:`hint` estimates every legal move the same way and lists them by expected score (:data:`HINT_RANKED_BY`),
the number a hint shows first, with their win probabilities.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from foursquare import kernel as K
from foursquare.engine import Game, Move, Variant, View

PLAYER_NAMES = ("random", "greedy", "best")

#: Playouts per ranking of the default hint (no time budget): fast enough for 100 ms.
HINT_PLAYOUTS = 400
#: The estimate :func:`hint` lists its moves by, highest first (``MoveAdvice`` field and JSON key).
HINT_RANKED_BY = "expected_score"
#: Futures on which :func:`compare_moves` plays two moves out (the post-game analysis).
COMPARE_PLAYOUTS = 1000
#: Playouts per decision of the best player without a time budget.
BEST_PLAYOUTS = 2000
#: Points a won playout is worth on top of its score when moves are compared: the race maximises
#: ``expected_score + bonus * win_probability``. In ordinary positions the bonus is 0 (plain expected
#: score): bonuses of 10 and 40 everywhere won no more games and cost score (docs/ai.md).
WIN_BONUS = 0
#: A position is *risky* when the leader of a plain race wins less often than this in the rollouts
#: (an ordinary position is at 85-95 %); there the race is run again with :data:`RISK_BONUS`,
#: trading a little score for safety.
RISKY_BELOW = 0.85
#: The win bonus of the second race in a risky position (measured: docs/ai.md).
RISK_BONUS = 20
#: Futures per round of the race between moves.
BATCH = 16
#: Rounds before a race may end with a single move left.
MIN_ROUNDS = 2
#: Standard errors by which a move must trail the leader to leave the race.
CONFIDENCE = 2.5

ERRORS = {
    "unknown_player": "unknown player {name!r}: choose one of {choices}",
    "no_move": "the game is over: there is no move to choose",
    "no_rank": "the game is over: there is no move to rank",
    "not_legal": "({row}, {col}) is not a legal move in this position",
    "bad_budget": "time budget must be a positive number of seconds, not {budget!r}",
}


class PlayerError(ValueError):
    """A player was asked for by a name that does not exist, or cannot play the position."""


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


class Player(Protocol):
    """Anything that picks a legal move from a view."""

    name: str

    def choose(self, view: View) -> Move: ...


# --- greedy on the engine ------------------------------------------------------------------------


def greedy_move(view: View) -> Move:
    """The greedy player's move, computed with the pure-Python engine (the definition)."""
    if not view.legal_moves:
        raise PlayerError(ERRORS["no_move"])
    return greedy_move_on(Game.from_view(view, list(view.unseen)))


def greedy_move_on(game: Game) -> Move:
    """The greedy move in ``game``'s position; tries each move with ``place`` and takes it back.

    Only the card to place is drawn, so the rest of the stock order plays no part.
    """
    best: Move | None = None
    best_key: tuple[int, int, int] | None = None
    for move in game.legal_moves:
        outcome = game.place(move.row, move.col).outcome
        lost = outcome.status == "lost"
        key = (1 if lost else 0, 0 if lost else game.face_down, -len(game.cells()))
        game.pop()
        if outcome.status == "won":
            return move
        if best_key is None or key < best_key:
            best, best_key = move, key
    if best is None:
        raise PlayerError(ERRORS["no_move"])
    return best


# --- the players -----------------------------------------------------------------------------------


def _seed_of(seed: int, view: View) -> int:
    """A seed for one decision: the player's seed mixed with the position, so reruns repeat exactly."""
    card = -1 if view.card is None else int(view.card)
    return (seed * 0x9E3779B97F4A7C15 + view.turn * 0x100000001B3 + card) & (2**64 - 1)


class RandomPlayer:
    """A uniformly random legal move; seeded, so a game replays identically."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = np.random.default_rng(seed)

    def choose(self, view: View) -> Move:
        if not view.legal_moves:
            raise PlayerError(ERRORS["no_move"])
        return view.legal_moves[int(self._rng.integers(len(view.legal_moves)))]


class GreedyPlayer:
    """The greedy baseline, in the kernel (``engine=True``: on the pure-Python engine)."""

    name = "greedy"

    def __init__(self, engine: bool = False) -> None:
        self._engine = engine

    def choose(self, view: View) -> Move:
        if self._engine:
            return greedy_move(view)
        if view.card is None or not view.legal_moves:
            raise PlayerError(ERRORS["no_move"])
        return K.move_of(int(K.greedy_move(K.state_of_view(view), int(view.card))))


class BestPlayer:
    """Monte Carlo over the unseen stock with kernel rollouts; the move of highest expected score."""

    name = "best"

    def __init__(self, seed: int = 0, time_budget: float | None = None, playouts: int = 0) -> None:
        self.seed = seed
        self.time_budget = time_budget
        self.playouts = playouts or BEST_PLAYOUTS

    def choose(self, view: View) -> Move:
        if len(view.legal_moves) == 1:
            return view.legal_moves[0]
        return rank_moves(view, seed=self.seed, playouts=self.playouts, time_budget=self.time_budget)[0].move


def make_player(name: str, *, seed: int = 0, time_budget: float | None = None) -> Player:
    """A player by name: ``random``, ``greedy`` or ``best``."""
    if name == "random":
        return RandomPlayer(seed)
    if name == "greedy":
        return GreedyPlayer()
    if name == "best":
        return BestPlayer(seed, time_budget)
    raise PlayerError(ERRORS["unknown_player"].format(name=name, choices=", ".join(PLAYER_NAMES)))


# --- Monte Carlo evaluation --------------------------------------------------------------------------


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
        raise PlayerError(ERRORS["no_rank"])
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


def hint(view: View, *, seed: int = 0, time_budget: float | None = None) -> list[MoveAdvice]:
    """Every legal move of ``view`` with its win probability and expected score, highest expected score first.

    The moves are estimated as the best player estimates them (:func:`rank_moves`), then listed by the
    number a hint shows first, :data:`HINT_RANKED_BY` (ties: the higher win probability, then the
    race's order), so a move lower in the list never shows a higher expected score. In a risky position
    the best player may prefer a safer move that is not first here. The default answers in well under
    100 ms; ``time_budget`` (seconds) buys precision. Same seed and no budget give the same answer every time.
    """
    if time_budget is not None and not time_budget > 0:
        raise PlayerError(ERRORS["bad_budget"].format(budget=time_budget))
    advice = rank_moves(view, seed=seed, playouts=HINT_PLAYOUTS, time_budget=time_budget)
    return sorted(advice, key=lambda a: (-a.expected_score, -a.win_probability))  # stable: ties keep the race's order


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
        raise PlayerError(ERRORS["no_rank"])
    for move in moves:
        if move not in view.legal_moves:
            raise PlayerError(ERRORS["not_legal"].format(row=move[0], col=move[1]))
    cells = np.array([K.cell_of(*move) for move in moves], dtype=np.int64)
    results = np.empty((playouts, len(moves)), dtype=np.int8)
    rng = K.make_rng(_seed_of(seed, view) ^ 0x5DEECE66D)
    K.monte_carlo(K.state_of_view(view), int(view.card), K.stock_array(view.unseen), cells, rng, results,
                  K.POLICY_WEIGHTS)
    return results.astype(np.float64)


# --- playing whole games --------------------------------------------------------------------------


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


__all__ = [
    "HINT_RANKED_BY",
    "PLAYER_NAMES",
    "BestPlayer",
    "GameResult",
    "GreedyPlayer",
    "MoveAdvice",
    "Player",
    "PlayerError",
    "RandomPlayer",
    "compare_moves",
    "estimate_move",
    "greedy_move",
    "greedy_move_on",
    "hint",
    "make_player",
    "p95_seconds_per_move",
    "play_deals",
    "play_game",
    "results_summary",
    "wilson",
]
