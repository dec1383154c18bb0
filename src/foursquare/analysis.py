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

import argparse
import json
from typing import Any

from foursquare import record
from foursquare.engine import Game, Move
from foursquare.solver import Solution, solve

MISTAKE_WIN_PROBABILITY = 0.05
MISTAKE_EXPECTED_SCORE = 1.0
SIGNIFICANCE = 2.5

# --- user-facing text (one place, for translation) ---------------------------------------------------

TEXT = {
    "not_over": "the game is not over (turn {turn}): analysis needs a finished game",
    "header": "{index:>3}  {card:>4}  {played:>7}  {best:>7}  {wp:>13}  {es:>13}  {loss:>13}",
    "col_index": "#",
    "col_card": "card",
    "col_played": "played",
    "col_best": "best",
    "col_wp": "win % pl/best",
    "col_es": "score pl/best",
    "col_loss": "loss win/score",
    "forced": "forced",
    "mistake": "MISTAKE",
    "outcome_won": "Result: won, score {score} ({deal})",
    "outcome_lost": "Result: lost ({reason}) ({deal})",
    "reason_too_many_face_down": "more than 4 cards face down",
    "reason_stock_empty": "the stock ran out",
    "deal": "deal {deal}",
    "explicit_stock": "explicit stock",
    "no_mistakes": "No mistakes found.",
    "mistakes": "Mistakes, costliest first: {moves}",
    "perfect_title": "Perfect-information verdict (uses the whole stock order, which no player could see):",
    "perfect_won": "  winnable: best score {score}{proof}",
    "perfect_proven": " (proven optimal)",
    "perfect_bounds": " (search stopped; no line scores more than {upper})",
    "perfect_unwinnable": "  unwinnable: no sequence of placements wins this deal",
    "perfect_unknown": "  unknown: no win found in time; no line scores more than {upper}",
    "perfect_line": "  best line: {line}",
    "mistake_rule": (
        "A mistake loses at least {wp:.0%} win probability or {es:.1f} expected score against the best move"
        " (replayed on 1,000 fresh futures; beyond the noise)."
    ),
}


class AnalysisError(ValueError):
    """The game cannot be analysed (it is not over)."""


def _cell(move: Move) -> list[int]:
    return [move.row, move.col]


def _perfect(solution: Solution) -> dict[str, Any]:
    return {
        "status": solution.status,
        "winnable": solution.winnable,
        "best_score": solution.best_score,
        "upper_bound": solution.upper_bound,
        "line": [_cell(m) for m in solution.line],
    }


def analyze(
    game: Game, *, seed: int = 0, time_budget: float | None = None, solve_timeout: float = 10.0
) -> dict[str, Any]:
    """The analysis of a finished game, as a JSON-ready dict (the shape of ``analyze --json``).

    ``seed`` and ``time_budget`` go to the hint of each position; ``solve_timeout`` bounds the
    perfect-information solver.
    """
    from foursquare.players import compare_moves, hint

    if not game.is_over():
        raise AnalysisError(TEXT["not_over"].format(turn=game.turn))
    replay = Game(deal=game.deal, variant=game.variant) if game.deal is not None else None
    if replay is None:
        replay = Game(stock=list(game.stock), variant=game.variant)
    moves: list[dict[str, Any]] = []
    for index, played in enumerate(game.moves):
        view = replay.view()
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
        assert view.card is not None  # the game was not over before this move
        moves.append(
            {
                "index": index,
                "card": view.card.name,
                "played": _cell(played),
                "best": _cell(best.move),
                "played_win_probability": round(mine.win_probability, 4),
                "best_win_probability": round(best.win_probability, 4),
                "played_expected_score": round(mine.expected_score, 3),
                "best_expected_score": round(best.expected_score, 3),
                "win_probability_loss": round(wp_loss, 4),
                "expected_score_loss": round(es_loss, 3),
                "forced": forced,
                "mistake": mistake,
            }
        )
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


def analysis_text(result: dict[str, Any]) -> str:
    """A readable per-move table with the mistakes marked, then the perfect-information verdict."""
    deal = TEXT["deal"].format(deal=result["deal"]) if result["deal"] is not None else TEXT["explicit_stock"]
    if result["outcome"] == "won":
        lines = [TEXT["outcome_won"].format(score=result["score"], deal=deal)]
    else:
        reason = TEXT.get(f"reason_{result['reason']}", str(result["reason"]))
        lines = [TEXT["outcome_lost"].format(reason=reason, deal=deal)]
    lines.append("")
    lines.append(
        TEXT["header"].format(
            index=TEXT["col_index"], card=TEXT["col_card"], played=TEXT["col_played"], best=TEXT["col_best"],
            wp=TEXT["col_wp"], es=TEXT["col_es"], loss=TEXT["col_loss"],
        )
    )
    for m in result["moves"]:
        row = TEXT["header"].format(
            index=m["index"],
            card=m["card"],
            played="{},{}".format(*m["played"]),
            best="{},{}".format(*m["best"]),
            wp=f"{m['played_win_probability']:.0%}/{m['best_win_probability']:.0%}",
            es=f"{m['played_expected_score']:.1f}/{m['best_expected_score']:.1f}",
            loss=f"{m['win_probability_loss']:.0%}/{m['expected_score_loss']:.1f}",
        )
        if m["forced"]:
            row += "  " + TEXT["forced"]
        elif m["mistake"]:
            row += "  " + TEXT["mistake"]
        lines.append(row)
    lines.append("")
    lines.append(TEXT["mistake_rule"].format(wp=MISTAKE_WIN_PROBABILITY, es=MISTAKE_EXPECTED_SCORE))
    if result["costliest"]:
        lines.append(TEXT["mistakes"].format(moves=", ".join(f"#{i}" for i in result["costliest"])))
    else:
        lines.append(TEXT["no_mistakes"])
    lines.append("")
    perfect = result["perfect"]
    lines.append(TEXT["perfect_title"])
    if perfect["best_score"] is not None:
        proof = (
            TEXT["perfect_proven"]
            if perfect["status"] == "optimal"
            else TEXT["perfect_bounds"].format(upper=perfect["upper_bound"])
        )
        lines.append(TEXT["perfect_won"].format(score=perfect["best_score"], proof=proof))
        lines.append(TEXT["perfect_line"].format(line="  ".join("{},{}".format(*c) for c in perfect["line"])))
    elif perfect["status"] == "unwinnable":
        lines.append(TEXT["perfect_unwinnable"])
    else:
        lines.append(TEXT["perfect_unknown"].format(upper=perfect["upper_bound"]))
    return "\n".join(lines)


def command_analyze(args: argparse.Namespace) -> int:
    """``foursquare analyze RECORD``: analyse a finished game."""
    game = record.read(args.record)
    result = analyze(game, seed=args.seed, time_budget=args.time)
    if args.json:
        print(json.dumps(result))
    else:
        print(analysis_text(result))
    return 0
