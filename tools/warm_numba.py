"""Compile the project's numba code into its on-disk cache once, before the tests start.

On a fresh checkout numba's cache is empty, and every test worker and every command a test starts would
otherwise compile the same functions side by side (about 35 CPU seconds each for the players and the solver),
while the other tests wait for the cores. ``make test`` runs this beside mypy; afterwards each process loads
the compiled code from the cache in about a second. Only speed depends on it: a function it misses is
compiled where it is first used, as before.

    python tools/warm_numba.py
"""

from __future__ import annotations

import time

import numpy as np


def warm() -> None:
    from foursquare.cards import deal_stock
    from foursquare.engine import Game
    from foursquare.players import make_player, play_game, warm_up
    from foursquare.rl import FoursquareEnv, FoursquareVectorEnv
    from foursquare.solver import solve
    from foursquare.solver.expectimax import judge_moves

    for name in ("random", "greedy", "best", "expert"):
        warm_up(name)
    solve(deal_stock(1), max_nodes=100_000)
    game = Game(deal=2)
    play_game(make_player("greedy"), game)
    last = game.copy()
    last.undo()
    judge_moves(last.view(), [game.moves[-1]], 100_000)  # the analysis's exact end-game judgement
    env = FoursquareEnv()
    env.reset(seed=1)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    vector = FoursquareVectorEnv(2)
    vector.reset(seed=1)
    vector.step(vector.expert_actions())


if __name__ == "__main__":
    start = time.monotonic()
    warm()
    print(f"numba's cache is warm ({time.monotonic() - start:.0f} s)")
