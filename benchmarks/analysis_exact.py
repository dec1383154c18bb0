"""How much of a game the analysis judges exactly (docs/ai.md, "the end of the game is judged exactly").

    .venv/bin/python benchmarks/analysis_exact.py PLAYER FIRST LAST

PLAYER plays deals FIRST..LAST (seed 0). For each game, walking back from its last move as ``analysis.analyze``
does, but without its cap on unseen cards (``EXACT_UNSEEN``, which this measures): each move's exact judgement
(``expectimax.judge_moves`` within ``analysis.EXACT_POSITIONS``), until the first that needs more. One line per
game: the deal, the outcome and score, the moves, then each move judged as MOVE:UNSEEN:POSITIONS, the first that
did not settle as MOVE:UNSEEN:beyond, and the seconds the walk took. Positions are counts, the same on every
machine; the seconds are this machine's.
"""

from __future__ import annotations

import sys
import time

from foursquare.analysis import EXACT_POSITIONS, views_before_moves
from foursquare.engine import Game
from foursquare.players import make_player, play_game
from foursquare.solver.expectimax import BudgetExceeded, judge_moves


def walk_back(game: Game) -> tuple[list[str], float]:
    start = time.perf_counter()
    steps = []
    for view, move in reversed(list(zip(views_before_moves(game), game.moves, strict=True))):
        try:
            positions = judge_moves(view, [move], EXACT_POSITIONS)[0].positions
        except BudgetExceeded:
            steps.append(f"{view.turn + 1}:{len(view.unseen)}:beyond")
            break
        steps.append(f"{view.turn + 1}:{len(view.unseen)}:{positions}")
    return steps, time.perf_counter() - start


def main(player: str, first: int, last: int) -> None:
    for deal in range(first, last + 1):
        game = Game(deal=deal)
        play_game(make_player(player, seed=0), game)
        outcome = game.outcome()
        steps, seconds = walk_back(game)
        print(deal, outcome.status, outcome.score or 0, game.turn, " ".join(steps), f"{seconds:.1f}s", flush=True)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
