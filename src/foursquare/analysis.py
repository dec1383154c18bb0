"""Post-game analysis: every move of a finished game set against the best, then the deal's verdict.

Each position of the game is judged the way a fair player could judge it, from its
:class:`~foursquare.engine.View` only (the card to place, the grid, the multiset of unseen cards),
with the Monte Carlo hint of :mod:`foursquare.players`: the win probability and expected score of
the move played against the best move's. Only the final verdict uses the whole stock order — that
is the perfect-information solver (:mod:`foursquare.solver`), and it is labelled as such.

A move is a **mistake** when it was not forced and it lost at least ``MISTAKE_WIN_PROBABILITY``
(0.05) of win probability or at least ``MISTAKE_EXPECTED_SCORE`` (1.0) of expected score against the
best move — by estimates that noise cannot explain. The hint picks the best move, but its figures are
the winners of a race (the best-looking of several noisy estimates looks better than it is), so the
move played and the hint's best are then played out again on 1,000 fresh futures of their own, the
same for both (:func:`foursquare.players.compare_moves`): the losses are those unbiased differences,
and a loss counts only when it exceeds ``SIGNIFICANCE`` (2.5) standard errors of its paired
differences.
"""

from __future__ import annotations

from typing import Any

from foursquare.engine import Game, Move, View
from foursquare.solver import Solution, solve

MISTAKE_WIN_PROBABILITY = 0.05
MISTAKE_EXPECTED_SCORE = 1.0
SIGNIFICANCE = 2.5

class AnalysisError(ValueError):
    """The game cannot be analysed (it is not over)."""


def _perfect(solution: Solution) -> dict[str, Any]:
    return {
        "status": solution.status,
        "winnable": solution.winnable,
        "best_score": solution.best_score,
        "upper_bound": solution.upper_bound,
        "line": [m.to_json() for m in solution.line],
    }


def analyze(
    game: Game, *, seed: int = 0, time_budget: float | None = None, solve_timeout: float = 10.0
) -> dict[str, Any]:
    """The analysis of a finished game, as a JSON-ready dict (the shape of ``analyze --json``).

    ``seed`` and ``time_budget`` go to the hint of each position; ``solve_timeout`` bounds the
    perfect-information solver.
    """
    if not game.is_over():
        raise AnalysisError(f"the game is not over (turn {game.turn}): analysis needs a finished game")
    if game.deal is not None:
        replay = Game(deal=game.deal, variant=game.variant)
    else:
        replay = Game(stock=list(game.stock), variant=game.variant)
    moves: list[dict[str, Any]] = []
    for index, played in enumerate(game.moves):
        moves.append(judge_move(replay.view(), played, index, seed=seed, time_budget=time_budget))
        replay.place(played.row, played.col)
    costliest = sorted(
        (m for m in moves if m["mistake"]),
        key=lambda m: (-m["expected_score_loss"], -m["win_probability_loss"], m["index"]),
    )
    outcome = game.outcome()
    solution = solve(game.stock, game.variant, timeout=solve_timeout)
    return {
        "outcome": outcome.status,
        "reason": outcome.reason,
        "score": outcome.score if outcome.score is not None else 0,
        "deal": game.deal,
        "moves": moves,
        "costliest": [m["index"] for m in costliest],
        "perfect": _perfect(solution),
    }


def judge_move(view: View, played: Move, index: int, *, seed: int, time_budget: float | None) -> dict[str, Any]:
    """One entry of ``moves``: the move played in ``view`` against the hint's best (see the module docstring)."""
    from foursquare.players import compare_moves, hint

    if view.card is None:
        raise AnalysisError(f"move {index}: the game was already over")
    advice = hint(view, seed=seed, time_budget=time_budget)
    best = advice[0]
    forced = len(view.legal_moves) == 1
    mistake = False
    if played == best.move or forced:
        mine = best = next(a for a in advice if a.move == played)
        wp_loss = es_loss = 0.0
    else:
        duel = compare_moves(view, best.move, played, seed=seed)
        best, mine = duel.first, duel.second
        wp_loss = max(0.0, duel.win_gap)
        es_loss = max(0.0, duel.score_gap)
        mistake = (wp_loss >= MISTAKE_WIN_PROBABILITY and duel.win_gap > SIGNIFICANCE * duel.win_gap_se) or (
            es_loss >= MISTAKE_EXPECTED_SCORE and duel.score_gap > SIGNIFICANCE * duel.score_gap_se
        )
    return {
        "index": index,
        "card": view.card.name,
        "played": played.to_json(),
        "best": best.move.to_json(),
        "played_win_probability": round(mine.win_probability, 4),
        "best_win_probability": round(best.win_probability, 4),
        "played_expected_score": round(mine.expected_score, 3),
        "best_expected_score": round(best.expected_score, 3),
        "win_probability_loss": round(wp_loss, 4),
        "expected_score_loss": round(es_loss, 3),
        "forced": forced,
        "mistake": mistake,
    }
