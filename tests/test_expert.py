"""The ``expert`` player: hindsight optimisation over stocks drawn from the unseen cards only, reproducible."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from foursquare.cards import DECK_SIZE
from foursquare.engine import Game
from foursquare.players import make_player, play_game
from foursquare.players.evaluation import MoveAdvice
from foursquare.players.expert import ExpertPlayer, candidates, hindsight_scores, sampled_stocks
from foursquare.solver import solve_position


def played(deal: int, moves: int) -> Game:
    """Deal ``deal`` after ``moves`` moves of the greedy player."""
    game = Game(deal=deal)
    greedy = make_player("greedy")
    for _ in range(moves):
        move = greedy.choose(game.view())
        game.place(move.row, move.col)
    return game


def test_sampled_stocks_are_orders_of_the_unseen_cards_and_repeat_with_the_seed() -> None:
    view = played(7, 5).view()
    stocks = sampled_stocks(view, 6, seed=2)
    assert len(stocks) == 6 and all(sorted(stock) == list(view.unseen) for stock in stocks)
    assert len({tuple(stock) for stock in stocks}) == 6
    assert sampled_stocks(view, 6, seed=2) == stocks and sampled_stocks(view, 6, seed=3) != stocks


def test_hindsight_scores_are_what_the_solver_reaches_after_each_move() -> None:
    view = played(7, 8).view()
    moves = list(view.legal_moves[:3])
    stocks = sampled_stocks(view, 4, seed=0)
    scores = hindsight_scores(view, moves, stocks, nodes=20_000)
    assert scores.shape == (4, 3)
    assert ((scores == 0) | ((scores >= 1) & (scores <= DECK_SIZE - view.turn - 1))).all()
    for k, stock in enumerate(stocks):  # what solve_position says of the same game, searched alone
        for j, move in enumerate(moves):
            game = Game.from_view(view, stock)
            game.place(move.row, move.col)
            assert scores[k, j] == (solve_position(game, max_nodes=20_000, small=True).best_score or 0)


def test_candidates_keep_the_first_moves_that_are_safe_enough() -> None:
    game = played(3, 4)
    a, b, c = game.view().legal_moves[:3]
    ranked = [MoveAdvice(a, 0.90, 20.0), MoveAdvice(b, 0.97, 19.0), MoveAdvice(c, 0.99, 18.0)]
    assert [x.move for x in candidates(ranked, width=2, safety=0.05)] == [b]  # a wins 7 points less often than b
    assert [x.move for x in candidates(ranked, width=3, safety=0.10)] == [a, b, c]


def test_the_expert_decides_the_same_on_the_same_view_and_plays_a_forced_move_at_once() -> None:
    view = played(11, 7).view()
    first = ExpertPlayer(seed=4).choose(view)
    assert first in view.legal_moves and ExpertPlayer(seed=4).choose(view) == first
    opening = Game(deal=11).view()
    assert len(opening.legal_moves) == 1 and ExpertPlayer().choose(opening) == opening.legal_moves[0]


@pytest.mark.slow
def test_autoplay_expert_plays_a_whole_deal_the_same_in_a_command_and_in_python() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "foursquare.cli", "autoplay", "--player", "expert", "--deal", "3", "--json"],
        capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["player"] == "expert" and data["deal"] == 3
    game = Game(deal=3)
    result = play_game(make_player("expert", seed=0), game)
    assert data["record"]["moves"] == [[m.row, m.col] for m in game.moves]
    assert data["outcome"] == ("won" if result.won else "lost") and data["score"] == (result.score or None)
