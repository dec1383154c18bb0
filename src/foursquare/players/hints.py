"""The hint: every legal move with its chance of winning and expected score, as the best player estimates them."""

from __future__ import annotations

from foursquare.engine import View
from foursquare.players.errors import player_error
from foursquare.players.evaluation import MoveAdvice, rank_moves

#: Playouts per ranking of the default hint (no time budget): few enough that a hint feels immediate (its
#: latency: docs/ai.md, measured by benchmarks/hint_latency.py).
HINT_PLAYOUTS = 400
#: The estimate :func:`hint` lists its moves by, highest first (``MoveAdvice`` field and JSON key).
HINT_RANKED_BY = "expected_score"


def hint(view: View, *, seed: int = 0, time_budget: float | None = None) -> list[MoveAdvice]:
    """Every legal move of ``view`` with its win probability and expected score, highest expected score first.

    The moves are estimated as the best player estimates them (:func:`rank_moves`), then listed by the
    number a hint shows first, :data:`HINT_RANKED_BY` (ties: the higher win probability, then the
    race's order), so a move lower in the list never shows a higher expected score. In a risky position
    the best player may prefer a safer move that is not first here. The default runs a fixed number of
    playouts (:data:`HINT_PLAYOUTS`); ``time_budget`` (seconds) buys precision. Same seed and no budget give
    the same answer every time.
    """
    if time_budget is not None and not time_budget > 0:
        raise player_error("bad_budget", budget=time_budget)
    advice = rank_moves(view, seed=seed, playouts=HINT_PLAYOUTS, time_budget=time_budget)
    return sorted(advice, key=lambda a: (-a.expected_score, -a.win_probability))  # stable: ties keep the race's order
