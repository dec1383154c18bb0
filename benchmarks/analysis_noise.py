"""The two figures of docs/ai.md's "How a move is judged": how noisy one comparison of two moves is, and what
the analysis flags in good games.

    .venv/bin/python benchmarks/analysis_noise.py

1. After 10 moves of the best player on deals 1-5, the hint's two best moves are played out on 1,000 futures,
   the same for both: the standard error of the mean score difference, paired (as ``analysis.judge_move``
   compares) and as if the two moves had met independent futures (from the same two columns).
2. The best player (seed 5) plays deals 3-8 and ``analysis.analyze`` (seed 0) judges every move: the moves it
   flags, with their loss and its lower bound.

Counts, not seconds: the same output on every machine.
"""

from __future__ import annotations

import math

from foursquare.analysis import analyze
from foursquare.engine import Game
from foursquare.players import hint, make_player, play_game
from foursquare.players.evaluation import _fresh_playouts  # the raw columns, which compare_moves reduces

FUTURES = 1_000


def noise_of_one_comparison() -> None:
    for deal in range(1, 6):
        game, player = Game(deal=deal), make_player("best", seed=0)
        for _ in range(10):
            move = player.choose(game.view())
            game.place(move.row, move.col)
        view = game.view()
        best, second = (advice.move for advice in hint(view, seed=0)[:2])
        raw = _fresh_playouts(view, (best, second), seed=0, playouts=FUTURES).clip(min=0)
        difference = raw[:, 0] - raw[:, 1]
        paired = difference.std() / math.sqrt(FUTURES)
        independent = math.sqrt(raw[:, 0].var() / FUTURES + raw[:, 1].var() / FUTURES)
        print(f"deal {deal}: {best.name} vs {second.name}: paired se {paired:.2f}, independent se {independent:.2f}")


def flags_in_good_games() -> None:
    moves = 0
    for deal in range(3, 9):
        game = Game(deal=deal)
        play_game(make_player("best", seed=5), game)
        result = analyze(game, seed=0)
        moves += len(result["moves"])
        for index in result["costliest"]:
            m = result["moves"][index]
            print(f"deal {deal}, move {index + 1}: loss {m['expected_score_loss']:.1f} "
                  f"(lower bound {m['expected_score_loss_low']:.1f})")
    print(f"{moves} moves judged")


if __name__ == "__main__":
    noise_of_one_comparison()
    flags_in_good_games()
