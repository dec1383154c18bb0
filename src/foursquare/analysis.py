"""Post-game analysis: every move of a finished game set against the best, then the deal's verdict.

Each position of the game is judged the way a fair player could judge it, from its
:class:`~foursquare.engine.View` only (the card to place, the grid, the multiset of unseen cards),
with the Monte Carlo hint of :mod:`foursquare.players`: the win probability and expected score of
the move played against the best move's. Only the final verdict uses the whole stock order — that
is the perfect-information solver (:mod:`foursquare.solver`), and it is labelled as such.

Every move is played out again, after the hint has chosen the best move, on
:data:`~foursquare.players.COMPARE_PLAYOUTS` (1,000) fresh futures drawn from the unseen cards: the hint's figures are
those of a race, whose winner looks better than it is (the best-looking of several noisy estimates),
and fresh futures that selected nothing are unbiased. The move played and the hint's best meet the
same futures (:func:`foursquare.players.compare_moves`), so the noise of the futures cancels out of
their paired difference, whose standard error is far smaller than that of either estimate.

The rule, for the expected score (a loss scoring 0: the number the hint ranks by):

- If the move played scores at least as much as the hint's best on those futures (or it is the hint's
  best, or it was forced), it *is* the best of the row: ``best`` is the move played, the loss is 0.
  So ``best_expected_score`` is never below ``played_expected_score``.
- Otherwise the loss is the mean paired difference ``d`` (best − played), with its standard error
  ``se``, and the move is a **mistake** when the lower confidence bound ``d − CONFIDENCE_Z · se``
  (:data:`CONFIDENCE_Z` = 2.5, one-sided 99.4 %) exceeds :data:`MISTAKE_EXPECTED_SCORE` (1 point):
  a loss larger than the threshold *and* than the noise. Losing 5 % of win chance costs about a
  point, since a won game scores about 20. A borderline move (``d`` above the threshold, its bound
  below) is played out again on :data:`RECHECK_PLAYOUTS` futures, which halves the noise, and judged on those.

``played_win_probability`` and ``played_expected_score`` of every move (the game's chances after it)
come from the same fresh futures, so they draw the game's curve as it went.
"""

from __future__ import annotations

from typing import Any

from foursquare.engine import Game, Move, View
from foursquare.errors import FoursquareError
from foursquare.players import COMPARE_PLAYOUTS
from foursquare.solver import Solution, solve

#: A move is a mistake when its expected-score loss exceeds this, beyond the noise (module docstring).
MISTAKE_EXPECTED_SCORE = 1.0
#: Standard errors of the paired difference between the lower confidence bound and the estimate.
CONFIDENCE_Z = 2.5
#: Futures for a second look at a borderline move (loss above the threshold, bound below it): halves the noise.
RECHECK_PLAYOUTS = 4 * COMPARE_PLAYOUTS
#: The shape and rule of :func:`analyze`'s answer; a stored analysis of another version is stale.
#: 2: cell names (``played_cell``, ``best_cell``, ``line_cells``), ``expected_score_loss_low``, the paired rule.
VERSION = 2


class AnalysisError(FoursquareError):
    """The game cannot be analysed (it is not over)."""


def _perfect(solution: Solution) -> dict[str, Any]:
    return {
        "status": solution.status,
        "winnable": solution.winnable,
        "best_score": solution.best_score,
        "upper_bound": solution.upper_bound,
        "line": [m.to_json() for m in solution.line],
        "line_cells": [m.name for m in solution.line],
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
        "version": VERSION,
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
    from foursquare.players import compare_moves, estimate_move, hint

    if view.card is None:
        raise AnalysisError(f"move {index}: the game was already over")
    forced = len(view.legal_moves) == 1
    best_move = hint(view, seed=seed, time_budget=time_budget)[0].move
    loss = low = 0.0
    if forced or played == best_move:
        mine = best = estimate_move(view, played, seed=seed)
    else:
        duel = compare_moves(view, best_move, played, seed=seed)
        if duel.score_gap > MISTAKE_EXPECTED_SCORE >= duel.score_gap - CONFIDENCE_Z * duel.score_gap_se:
            duel = compare_moves(view, best_move, played, seed=seed, playouts=RECHECK_PLAYOUTS)
        best, mine = duel.first, duel.second
        if duel.score_gap <= 0:  # the played move did as well: it is the best of this row
            best = mine
        else:
            loss, low = duel.score_gap, duel.score_gap - CONFIDENCE_Z * duel.score_gap_se
    return {
        "index": index,
        "card": view.card.name,
        "played": played.to_json(),
        "played_cell": played.name,
        "best": best.move.to_json(),
        "best_cell": best.move.name,
        "played_win_probability": round(mine.win_probability, 4),
        "best_win_probability": round(best.win_probability, 4),
        "played_expected_score": round(mine.expected_score, 3),
        "best_expected_score": round(best.expected_score, 3),
        "win_probability_loss": round(max(0.0, best.win_probability - mine.win_probability), 4),
        "expected_score_loss": round(loss, 3),
        "expected_score_loss_low": round(max(0.0, low), 3),
        "forced": forced,
        "mistake": not forced and low > MISTAKE_EXPECTED_SCORE,
    }
