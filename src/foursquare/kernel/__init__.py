"""A compiled (numba) re-implementation of the rules, for fast search and simulation.

The engine (:mod:`foursquare.engine`) defines the rules. The kernel plays the same game on a compact
array so that players can run many thousands of playouts per second; it does not call the engine but
re-implements its rules with the engine's constants, and the differential tests in
``tests/test_kernel.py`` check that the two agree move for move in every variant.

Modules, one job each:

- :mod:`~foursquare.kernel.state`: the state layout, the empty state, conversions to and from the engine;
- :mod:`~foursquare.kernel.rules`: the compiled rules (legal cells, placing a card, judging);
- :mod:`~foursquare.kernel.rng`: the seeded random numbers of the compiled code;
- :mod:`~foursquare.kernel.policies`: greedy, the rollout policy and random play, and whole games of them;
- :mod:`~foursquare.kernel.montecarlo`: Monte Carlo evaluation of the moves of a position;
- :mod:`~foursquare.kernel.survival`: the exact chance that a move survives the next few cards;
- :mod:`~foursquare.kernel.vector`: many reinforcement-learning environments stepped in one call
  (:mod:`foursquare.rl` uses it through ``K.vector``), with :mod:`~foursquare.kernel.boards` (their
  legal actions as bit boards) and :mod:`~foursquare.kernel.rows` (arrays without reference counts,
  for their per-game loop);

This package re-exports their public names: ``from foursquare import kernel as K`` then ``K.place``. Those that
Python calls (:data:`~foursquare.kernel.exports.EXPORTS`) are compiled ahead of time when the package is built,
and ``K`` gives that machine code while it is current (:mod:`~foursquare.kernel.compiled`): the player's
install runs them without numba and without a compile. The rest (the vector environments, the helpers the
solver and the tests compile into their own code) need numba, the ``solver`` extra.

numba caches each compiled function on disk (``cache=True``) but only checks that function's own file
for changes, and bakes in the constants it read: after editing a kernel module (or the engine's
constants), the callers' caches in the other modules would be stale. :func:`foursquare.jitcache.refresh`
therefore flushes the package's cache whenever any of its sources (or those constants) changes.
"""

from __future__ import annotations

from foursquare import jitcache
from foursquare.kernel import compiled, montecarlo, policies, rng, rules, state, survival
from foursquare.kernel.policies import (
    POLICY_WEIGHTS,
    greedy_playout,
    policy_playout,
    policy_value,
    random_games,
    random_move,
)
from foursquare.kernel.rng import below, make_rng, next_random, shuffle_tail
from foursquare.kernel.rules import face_down, rank_of
from foursquare.kernel.state import (
    AREA_CELLS,
    AREA_ORIGIN,
    AREA_SIDE,
    BURIED_FACE_DOWN,
    COUNT_BURIED_FLAG,
    DIAGONAL_FLAG,
    FACE_DOWN_TOPS,
    MAX_COL,
    MAX_MOVES,
    MAX_ROW,
    MIN_COL,
    MIN_ROW,
    OCCUPIED,
    ORIGIN_CELL,
    PILE_BURIED,
    PILE_HEIGHT,
    RANK_COUNT,
    REACH,
    SCORE,
    STATE_SIZE,
    STATUS,
    STATUS_LOST_FACE_DOWN,
    STATUS_LOST_STOCK,
    STATUS_PLAYING,
    STATUS_WON,
    SUIT_COUNT,
    TOP_CARD,
    TOP_FACE_UP,
    TURN,
    KernelMismatch,
    cell_of,
    move_of,
    new_state,
    state_of_game,
    state_of_view,
    stock_array,
    variant_flags,
)
from foursquare.kernel.survival import move_survival

# What Python calls: the ahead-of-time machine code while it is current, else numba's (see compiled.entry).
empty_state = compiled.entry("empty_state")
legal = compiled.entry("legal")
place = compiled.entry("place")
evaluate = compiled.entry("evaluate")
greedy_choice = compiled.entry("greedy_choice")
greedy_move = compiled.entry("greedy_move")
greedy_games = compiled.entry("greedy_games")
policy_choice = compiled.entry("policy_choice")
policy_games = compiled.entry("policy_games")
monte_carlo = compiled.entry("monte_carlo")
survival_after = compiled.entry("survival_after")

SOURCES = jitcache.package_sources(__file__)
if jitcache.NUMBA:  # the vector environments' modules are numba's alone (the rl extra)
    from foursquare.kernel import boards, rows, vector

    jitcache.refresh([state, rules, rng, policies, montecarlo, survival, rows, boards, vector], SOURCES)

__all__ = [
    "AREA_CELLS",
    "AREA_ORIGIN",
    "AREA_SIDE",
    "BURIED_FACE_DOWN",
    "COUNT_BURIED_FLAG",
    "DIAGONAL_FLAG",
    "FACE_DOWN_TOPS",
    "MAX_COL",
    "MAX_MOVES",
    "MAX_ROW",
    "MIN_COL",
    "MIN_ROW",
    "OCCUPIED",
    "ORIGIN_CELL",
    "PILE_BURIED",
    "PILE_HEIGHT",
    "POLICY_WEIGHTS",
    "RANK_COUNT",
    "REACH",
    "SCORE",
    "STATE_SIZE",
    "STATUS",
    "STATUS_LOST_FACE_DOWN",
    "STATUS_LOST_STOCK",
    "STATUS_PLAYING",
    "STATUS_WON",
    "SUIT_COUNT",
    "TOP_CARD",
    "TOP_FACE_UP",
    "TURN",
    "KernelMismatch",
    "below",
    "cell_of",
    "empty_state",
    "evaluate",
    "face_down",
    "greedy_choice",
    "greedy_games",
    "greedy_move",
    "greedy_playout",
    "legal",
    "make_rng",
    "monte_carlo",
    "move_of",
    "move_survival",
    "new_state",
    "next_random",
    "place",
    "policy_choice",
    "policy_games",
    "policy_playout",
    "policy_value",
    "random_games",
    "random_move",
    "rank_of",
    "shuffle_tail",
    "state_of_game",
    "state_of_view",
    "stock_array",
    "survival_after",
    "variant_flags",
]
