"""Perfect-information solver: the best score reachable when the whole stock order is known.

The question "what is the best score of this deal?" is "what is the smallest number of cards
after which all 16 cells can be face up?". The solver answers it with an IDA*-style iterative
deepening search, compiled with numba. Its modules, from the bottom up:

* :mod:`~foursquare.solver.jit`: how the helpers are compiled (no reference counting), a prefetch
  intrinsic and a clock for compiled code.
* :mod:`~foursquare.solver.bits`: the 4×4 frame as 16-bit masks (``FRAME_CELLS``, ``ROW_CELLS``,
  ``COLUMN_CELLS``, ``MAIN_DIAGONAL_MASK`` ...), popcount and lowest bit.
* :mod:`~foursquare.solver.position`: positions in the search's arrays, their Zobrist keys and tables,
  and a child worked out from its parent's masks alone (:func:`~foursquare.solver.position._child_position`).
* :mod:`~foursquare.solver.parity`: the lower bound from the parities of the line toggles to come.
* :mod:`~foursquare.solver.ranks`: the rank tests when at most one card is spare.
* :mod:`~foursquare.solver.classkey`: the coarser key, of a position's class under row and column
  permutations and transposition.
* :mod:`~foursquare.solver.search`: the compiled search of one deepening iteration in one frame.
* :mod:`~foursquare.solver.frames`: the frames a win may fill, and one frame's search arrays.
* :mod:`~foursquare.solver.driver`: :func:`solve` (probe, deepening, threads), :class:`Solution`,
  :func:`random_winnable_deal`, :func:`solution_json`.
* :mod:`~foursquare.solver.warm`: :func:`warm_up`, which compiles (or loads from the cache) all of the above at
  once: the build fills the cache the wheel ships with it (``setup.py``).
* :mod:`~foursquare.solver.expectimax`: the other optimum, of a player who does not know the stock: the
  exact expected score of an end game (:func:`~foursquare.solver.expectimax.judge_move`), an expectimax
  over the unseen cards, for positions with few of them left.

``docs/solver.md`` explains the method. The solver never decides a rule on its own: every line it
returns is replayed through :class:`foursquare.engine.Game` before it is reported, and the tests compare
it with a brute-force search over the engine. ``solve`` is given the whole stock, so it is only for
analysis after a game, for choosing winnable deals, and for the ``solve`` command. The ``expert`` player calls
:func:`solve_position` too, but only on stocks it imagines (drawn from the cards it has not seen), never the
real one.
"""

from foursquare import jitcache
from foursquare.solver import bits, classkey, driver, frames, jit, parity, position, ranks, search
from foursquare.solver.driver import (
    DEFAULT_NODES,
    DEFAULT_TIMEOUT,
    DEFAULT_VARIANT,
    MAX_THREADS,
    THREADS_LIMIT,
    WINNABLE_NODES,
    WINNABLE_TRIES,
    Solution,
    SolverError,
    Status,
    default_threads,
    exact_stage_installed,
    random_winnable_deal,
    solution_json,
    solve,
    solve_position,
)
from foursquare.solver.warm import warm_up

# The search's machine code holds the helpers it calls from the other modules: any change recompiles it all.
SOURCES = jitcache.package_sources(__file__)
jitcache.refresh([bits, classkey, driver, frames, jit, parity, position, ranks, search], SOURCES)

__all__ = [
    "DEFAULT_NODES",
    "DEFAULT_TIMEOUT",
    "DEFAULT_VARIANT",
    "MAX_THREADS",
    "THREADS_LIMIT",
    "WINNABLE_NODES",
    "WINNABLE_TRIES",
    "Solution",
    "SolverError",
    "Status",
    "default_threads",
    "exact_stage_installed",
    "random_winnable_deal",
    "solution_json",
    "solve",
    "solve_position",
    "warm_up",
]
