"""foursquare.rl.bounds: the dual bound of information relaxation, on end games small enough to enumerate."""

from __future__ import annotations

import pytest

from foursquare.engine import Game, View
from foursquare.players import make_player
from foursquare.rl.bounds import (
    dual_bound,
    exact_value,
    expected_dual_bound,
    next_card_views,
    penalty,
    remembered,
    rollout_value,
    stock_orders,
    zero_value,
)
from foursquare.rl.protocol import optimum, proven


def late(deal: int, unseen: int) -> View:
    """The greedy player's position in ``deal`` with ``unseen`` cards not yet seen."""
    game, greedy = Game(deal=deal), make_player("greedy")
    while len(game.view().unseen) > unseen:
        move = greedy.choose(game.view())
        game.place(move.row, move.col)
    return game.view()


def test_without_a_penalty_the_bound_is_the_solver_s_optimum() -> None:
    for deal in (1, 5):  # optima 24 and 23 (16- and 17-card wins, docs/solver.md)
        result = dual_bound(Game(deal=deal), 2)
        assert result.bound == optimum(deal) and proven(deal)
        assert result.lines == 5  # the first card at D4, then the second on it or on one of its four neighbours


def test_the_penalty_has_mean_zero_whatever_the_move() -> None:
    view = late(5, 4)
    value = remembered(rollout_value(64))
    for move in view.legal_moves:
        after = Game.from_view(view, list(view.unseen))
        after.place(move.row, move.col)
        if after.is_over():
            assert penalty(after, value) == 0.0
            continue
        options = next_card_views(after.view())
        assert sum(chance for chance, _ in options) == pytest.approx(1.0)
        mean = sum(chance * value(v) for chance, v in options)
        assert sum(chance * (value(v) - mean) for chance, v in options) == pytest.approx(0.0, abs=1e-9)


def test_the_true_value_as_the_penalty_gives_the_optimum_on_every_stock_order() -> None:
    """With φ the exact optimum of a player who does not see the stock, the dual bound is that optimum on every
    order of the unseen cards (no gap, no spread); without a penalty it is the stock-known score of each order."""
    view = late(5, 3)
    best = exact_value(view)
    value = remembered(exact_value)
    known = []
    for _, order in stock_orders(view):
        assert dual_bound(Game.from_view(view, order), 4, value).bound == pytest.approx(best, abs=1e-9)
        known.append(dual_bound(Game.from_view(view, order), 4).bound)
    assert len(set(known)) > 1  # the stock-known score varies with the order: the penalty cancels that


def test_any_mean_zero_penalty_keeps_the_bound_above_the_optimum() -> None:
    view = late(5, 3)
    best = exact_value(view)
    assert expected_dual_bound(view, zero_value) >= best - 1e-9
    assert expected_dual_bound(view, exact_value) == pytest.approx(best, abs=1e-9)
    assert expected_dual_bound(view, rollout_value(64)) >= best - 1e-9


def test_a_negative_depth_is_refused() -> None:
    with pytest.raises(ValueError, match="depth"):
        dual_bound(Game(deal=1), -1)
