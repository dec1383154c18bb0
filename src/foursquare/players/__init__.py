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

The rooms, each a module of this package: :mod:`~foursquare.players.player` (the players),
:mod:`~foursquare.players.evaluation` (the Monte Carlo race and comparisons), :mod:`~foursquare.players.hints`
(the hint), :mod:`~foursquare.players.autoplay` (whole games and their summary) and
:mod:`~foursquare.players.errors` (:class:`PlayerError`).
"""

from __future__ import annotations

from foursquare.players.autoplay import (
    GameResult,
    Tally,
    iter_play_deals,
    p95_seconds_per_move,
    play_deals,
    play_game,
    results_summary,
    warm_up,
    wilson,
)
from foursquare.players.errors import ERRORS, PlayerError
from foursquare.players.evaluation import (
    BATCH,
    COMPARE_PLAYOUTS,
    CONFIDENCE,
    MIN_ROUNDS,
    RISK_BONUS,
    RISKY_BELOW,
    WIN_BONUS,
    MoveAdvice,
    MoveComparison,
    compare_moves,
    estimate_move,
    race,
    rank_moves,
)
from foursquare.players.hints import HINT_PLAYOUTS, HINT_RANKED_BY, hint
from foursquare.players.player import (
    BEST_PLAYOUTS,
    PLAYER_NAMES,
    BestPlayer,
    GreedyPlayer,
    Player,
    RandomPlayer,
    greedy_move,
    greedy_move_on,
    make_player,
)

__all__ = [
    "BATCH",
    "BEST_PLAYOUTS",
    "COMPARE_PLAYOUTS",
    "CONFIDENCE",
    "ERRORS",
    "HINT_PLAYOUTS",
    "HINT_RANKED_BY",
    "MIN_ROUNDS",
    "PLAYER_NAMES",
    "RISKY_BELOW",
    "RISK_BONUS",
    "WIN_BONUS",
    "BestPlayer",
    "GameResult",
    "GreedyPlayer",
    "MoveAdvice",
    "MoveComparison",
    "Player",
    "PlayerError",
    "RandomPlayer",
    "Tally",
    "compare_moves",
    "estimate_move",
    "greedy_move",
    "greedy_move_on",
    "hint",
    "iter_play_deals",
    "make_player",
    "p95_seconds_per_move",
    "play_deals",
    "play_game",
    "race",
    "rank_moves",
    "results_summary",
    "warm_up",
    "wilson",
]
