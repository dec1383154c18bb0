"""Compile, or load from numba's on-disk cache, all the machine code the solver runs (:func:`warm_up`)."""

from __future__ import annotations

import contextlib

from foursquare.engine import Game


def warm_up() -> None:
    """Have every compiled function that ``solve``, ``solve_position``, the winnable deals and the analysis call
    compiled (or loaded from the cache): the search and its nogil entry, the clock, and the kernel's rules that the
    expectimax of :mod:`~foursquare.solver.expectimax` calls from Python, with the types they are called with.

    The build calls it to fill the cache that the wheel ships (``setup.py``); ``make warm-start`` and a server's
    heavy worker call what it calls before their first job. A second call costs nothing.
    """
    from foursquare.solver.driver import solve_position
    from foursquare.solver.expectimax import BudgetExceeded, expected_score

    game = Game(deal=1)
    solve_position(game, max_nodes=1, exact=False)
    view = game.view()
    with contextlib.suppress(BudgetExceeded):  # two positions: enough to call each of the rules once
        expected_score(view, view.legal_moves[0], budget=2)
