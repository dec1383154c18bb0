"""The ``expert`` player: hindsight optimisation over stocks drawn from the unseen cards only, reproducible."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import pytest

from foursquare import kernel as K
from foursquare.cards import DECK_SIZE
from foursquare.engine import Game, Move
from foursquare.players import make_player, play_game
from foursquare.players.evaluation import MoveAdvice
from foursquare.players.expert import ExpertPlayer, candidates, hindsight_scores, stratified_stocks, survivors
from foursquare.solver import solve_position
from helpers import greedy_game


def test_stratified_stocks_start_once_with_each_unseen_rank_weighted_by_its_chance() -> None:
    view = greedy_game(7, 5).view()
    stocks, weights = stratified_stocks(view, seed=2)
    ranks = sorted({c.rank for c in view.unseen})
    assert all(sorted(stock) == sorted(view.unseen) for stock in stocks)
    assert [stock[0].rank for stock in stocks] == ranks
    for stock, weight in zip(stocks, weights, strict=True):  # the chance that the next card has this rank
        assert weight == pytest.approx(sum(c.rank == stock[0].rank for c in view.unseen) / len(view.unseen))
    assert weights.sum() == pytest.approx(1.0)
    again, _ = stratified_stocks(view, seed=2)
    other, _ = stratified_stocks(view, seed=3)
    assert again == stocks and other != stocks


def test_stratified_stocks_share_a_rank_s_weight_among_its_orders() -> None:
    view = greedy_game(7, 5).view()
    stocks, weights = stratified_stocks(view, seed=0, per_rank=3)
    single, alone = stratified_stocks(view, seed=0)
    assert len(stocks) == 3 * len(single) and len({tuple(s) for s in stocks}) == len(stocks)
    assert weights[:3].sum() == pytest.approx(alone[0]) and weights.sum() == pytest.approx(1.0)


def test_the_last_card_has_one_empty_order() -> None:
    view = dataclasses.replace(greedy_game(7, 5).view(), unseen=())  # the card to place is the stock's last
    stocks, weights = stratified_stocks(view, seed=0)
    assert stocks == [[]] and list(weights) == [1.0]


def test_hindsight_scores_are_what_the_solver_reaches_after_each_move() -> None:
    view = greedy_game(7, 8).view()
    moves = list(view.legal_moves[:3])
    stocks = stratified_stocks(view, seed=0)[0][:4]
    scores = hindsight_scores(view, moves, stocks, nodes=20_000)
    assert scores.shape == (4, 3)
    assert ((scores == 0) | ((scores >= 1) & (scores <= DECK_SIZE - view.turn - 1))).all()
    for k, stock in enumerate(stocks):  # what solve_position says of the same game, searched alone
        for j, move in enumerate(moves):
            game = Game.from_view(view, stock)
            game.place(move.row, move.col)
            assert scores[k, j] == (solve_position(game, max_nodes=20_000, small=True).best_score or 0)


def test_survivors_are_the_moves_of_the_best_chance_of_surviving_the_next_cards() -> None:
    risky = greedy_game(127, 30).view()  # some moves here risk the next cards (tests/test_survival.py)
    alive = dict(zip(risky.legal_moves, K.move_survival(risky, risky.legal_moves, 3), strict=True))
    kept = survivors(risky, 3)
    assert kept == {m for m, chance in alive.items() if chance == max(alive.values())}
    assert 0 < len(kept) < len(risky.legal_moves)
    calm = greedy_game(7, 5).view()  # every move survives the next three cards for sure
    assert survivors(calm, 3) == set(calm.legal_moves)


# Deal 49 as the expert without the survival filter played it, up to its 6 of diamonds: it put it on E2, which
# the next card kills 2 times in 9, where 11 other cells survive the next three cards for sure; it lost.
DEAL_49 = ["D4", "C4", "E4", "B4", "E3", "C5", "B3", "D3", "B5", "D2", "C2", "D3", "D5", "C3", "B2", "E5", "D4",
           "C5", "B4", "D5", "C5"]  # fmt: skip


def test_the_expert_plays_a_move_of_the_best_chance_of_surviving_where_hindsight_alone_would_not() -> None:
    game = Game(deal=49)
    for name in DEAL_49:
        move = Move.from_name(name)
        game.place(move.row, move.col)
    view = game.view()
    assert view.card is not None and view.card.name == "6D"
    assert ExpertPlayer(seed=0, survival_depth=0).choose(view).name == "E2"
    assert ExpertPlayer(seed=0).choose(view) in survivors(view, 3) and Move.from_name("E2") not in survivors(view, 3)


def test_candidates_keep_the_first_moves_that_are_safe_enough() -> None:
    game = greedy_game(3, 4)
    a, b, c = game.view().legal_moves[:3]
    ranked = [MoveAdvice(a, 0.90, 20.0), MoveAdvice(b, 0.97, 19.0), MoveAdvice(c, 0.99, 18.0)]
    assert [x.move for x in candidates(ranked, width=2, safety=0.05)] == [b]  # a wins 7 points less often than b
    assert [x.move for x in candidates(ranked, width=3, safety=0.10)] == [a, b, c]


def test_the_expert_decides_the_same_on_the_same_view_and_plays_a_forced_move_at_once() -> None:
    view = greedy_game(11, 7).view()
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
