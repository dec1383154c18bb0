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

**The end of the game is judged exactly.** When few cards are unseen, the exact expected score of every move
under the hidden stock — each order the unseen cards could come in, the best play after the move — can be
computed (:mod:`foursquare.solver.expectimax`). Walking back from the last move, each move with at most
:data:`EXACT_UNSEEN` cards unseen is judged that way while its search settles within :data:`EXACT_POSITIONS`
positions (a count, so the answer is the same on every machine); the first that does not, and every move before
it, are judged by playouts. An exact judgement has no noise: ``expected_score_loss_low`` is the loss itself, the
move is a mistake when its loss exceeds :data:`MISTAKE_EXPECTED_SCORE`, and its win probabilities are those of
the same best play (of equal moves, the first cell in row, then column order). Each move says which judged it:
``evaluation`` is ``"exact"`` or ``"playouts"``. A game that runs to the end of the stock has its last four to
six moves judged exactly; a game won or lost with more cards left, none.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from foursquare.engine import Game, Move, View
from foursquare.errors import FoursquareError
from foursquare.players import COMPARE_PLAYOUTS
from foursquare.solver import DEFAULT_NODES, Solution, solve
from foursquare.solver.expectimax import DEFAULT_BUDGET, BudgetExceeded, Judgement, judge_moves

#: A move is a mistake when its expected-score loss exceeds this, beyond the noise (module docstring).
MISTAKE_EXPECTED_SCORE = 1.0
#: Standard errors of the paired difference between the lower confidence bound and the estimate.
CONFIDENCE_Z = 2.5
#: Futures for a second look at a borderline move (loss above the threshold, bound below it): halves the noise.
RECHECK_PLAYOUTS = 4 * COMPARE_PLAYOUTS
#: Positions the exact judgement of one move may expand (a few seconds of it) before playouts judge it instead.
EXACT_POSITIONS = DEFAULT_BUDGET
#: The most unseen cards an exact judgement is tried with: with 7 the search never settled within
#: :data:`EXACT_POSITIONS` (benchmarks/analysis_exact.py), and each try that does not settle costs the whole budget.
EXACT_UNSEEN = 6
#: The shape and rule of :func:`analyze`'s answer; a stored analysis of another version is stale.
#: 2: cell names (``played_cell``, ``best_cell``, ``line_cells``), ``expected_score_loss_low``, the paired rule.
#: 3: the end of the game judged exactly, each move's ``evaluation``; the verdict's search bounded by nodes.
VERSION = 3


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
    game: Game,
    *,
    seed: int = 0,
    time_budget: float | None = None,
    exact_positions: int = EXACT_POSITIONS,
    solve_nodes: int = DEFAULT_NODES,
) -> dict[str, Any]:
    """The analysis of a finished game, as a JSON-ready dict (the shape of ``analyze --json``).

    ``seed`` and ``time_budget`` go to the hint of each position judged by playouts; ``exact_positions``
    bounds each exact judgement (module docstring); ``solve_nodes`` bounds the perfect-information solver.
    """
    if not game.is_over():
        raise AnalysisError(f"the game is not over (turn {game.turn}): analysis needs a finished game")
    views = views_before_moves(game)
    exact = exact_judgements(views, game.moves, exact_positions)
    moves = [
        exact[index] if index in exact else judge_move(view, played, index, seed=seed, time_budget=time_budget)
        for index, (view, played) in enumerate(zip(views, game.moves, strict=True))
    ]
    costliest = sorted(
        (m for m in moves if m["mistake"]),
        key=lambda m: (-m["expected_score_loss"], -m["win_probability_loss"], m["index"]),
    )
    outcome = game.outcome()
    solution = solve(game.stock, game.variant, max_nodes=solve_nodes)
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


def views_before_moves(game: Game) -> list[View]:
    """The position before each move of ``game``, replayed from its start."""
    replay = (
        Game(deal=game.deal, variant=game.variant)
        if game.deal is not None
        else Game(stock=list(game.stock), variant=game.variant)
    )
    views = []
    for played in game.moves:
        views.append(replay.view())
        replay.place(played.row, played.col)
    return views


def exact_judgements(views: Sequence[View], moves: Sequence[Move], positions: int) -> dict[int, dict[str, Any]]:
    """The entries of the moves judged exactly, by index: from the last back, until one has more than
    :data:`EXACT_UNSEEN` cards unseen or needs more than ``positions`` positions."""
    judged: dict[int, dict[str, Any]] = {}
    for index in reversed(range(len(moves))):
        if len(views[index].unseen) > EXACT_UNSEEN:
            break
        try:
            judgement = judge_moves(views[index], [moves[index]], positions)[0]
        except BudgetExceeded:
            break
        judged[index] = exact_entry(views[index], moves[index], index, judgement)
    return judged


def exact_entry(view: View, played: Move, index: int, judgement: Judgement) -> dict[str, Any]:
    """One entry of ``moves`` from an exact judgement: no noise, so the loss is its own low bound."""
    forced = len(view.legal_moves) == 1
    best_move = played if judgement.loss <= 0 else judgement.best_move
    return _entry(
        view,
        index,
        (played, judgement.played, judgement.played_win_probability),
        (best_move, judgement.best, judgement.best_win_probability),
        (judgement.loss, judgement.loss),
        forced=forced,
        evaluation="exact",
    )


def judge_move(view: View, played: Move, index: int, *, seed: int, time_budget: float | None) -> dict[str, Any]:
    """One entry of ``moves``: the move played in ``view`` against the hint's best, by playouts (see the module
    docstring)."""
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
    return _entry(
        view,
        index,
        (played, mine.expected_score, mine.win_probability),
        (best.move, best.expected_score, best.win_probability),
        (loss, low),
        forced=forced,
        evaluation="playouts",
    )


#: A move with its expected score and win probability.
_Judged = tuple[Move, float, float]


def _entry(
    view: View, index: int, played: _Judged, best: _Judged, loss: tuple[float, float], *, forced: bool, evaluation: str
) -> dict[str, Any]:
    (move, score, win), (best_move, best_score, best_win), (score_loss, low) = played, best, loss
    assert view.card is not None, "a judged position has a card to place"
    return {
        "index": index,
        "card": view.card.name,
        "played": move.to_json(),
        "played_cell": move.name,
        "best": best_move.to_json(),
        "best_cell": best_move.name,
        "played_win_probability": round(win, 4),
        "best_win_probability": round(best_win, 4),
        "played_expected_score": round(score, 3),
        "best_expected_score": round(best_score, 3),
        "win_probability_loss": round(max(0.0, best_win - win), 4),
        "expected_score_loss": round(score_loss, 3),
        "expected_score_loss_low": round(max(0.0, low), 3),
        "forced": forced,
        "mistake": not forced and low > MISTAKE_EXPECTED_SCORE,
        "evaluation": evaluation,
    }
