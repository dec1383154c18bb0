"""The end game's exact expected score agrees with the same expectimax played by the engine, and its pruning
changes no value."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence

import pytest

from foursquare.cards import Card
from foursquare.engine import Game, Move, View
from foursquare.players import make_player
from foursquare.solver.expectimax import DEFAULT_BUDGET, BudgetExceeded, expected_score, judge_move, judge_moves


def engine_value(view: View, move: Move) -> tuple[float, float]:
    """The expected score after ``move`` and the chance of winning of the same play, by the engine: each unseen
    rank next at its share, its best cell (of equal ones the first in row, then column order)."""
    game = Game.from_view(view, list(view.unseen))
    game.place(move.row, move.col)
    return _after(game.view(), list(view.unseen))


def _after(view: View, unseen: Sequence[Card]) -> tuple[float, float]:
    if view.outcome.is_over:
        return float(view.outcome.score or 0), float(view.outcome.status == "won")
    value = wins = 0.0
    for rank in sorted({c.rank for c in unseen}):
        card = next(c for c in unseen if c.rank == rank)
        rest = [c for c in unseen if c != card]
        share = sum(c.rank == rank for c in unseen) / len(unseen)
        following = dataclasses.replace(view, card=card, unseen=tuple(sorted(rest)))
        best = (-1.0, 0.0)
        for cell in sorted(following.legal_moves, key=lambda m: (m.row, m.col)):
            game = Game.from_view(following, rest)
            game.place(cell.row, cell.col)
            after = _after(game.view(), rest)
            if after[0] > best[0] + 1e-9:
                best = after
        value += share * best[0]
        wins += share * best[1]
    return value, wins


def late(deal: int, unseen: int) -> View:
    """The greedy player's position in ``deal`` with ``unseen`` cards not yet seen (its games run long)."""
    game = Game(deal=deal)
    greedy = make_player("greedy")
    while len(game.view().unseen) > unseen:
        assert not game.is_over(), f"deal {deal} ended before {unseen} cards were left"
        move = greedy.choose(game.view())
        game.place(move.row, move.col)
    return game.view()


@pytest.mark.parametrize("deal", [5, pytest.param(7, marks=pytest.mark.slow)])  # three cards unseen, values differing
def test_the_expected_score_of_each_move_is_the_engine_s_expectimax(deal: int) -> None:
    view = late(deal, 3)
    assert view.outcome.status == "playing"
    values = [expected_score(view, move) for move in view.legal_moves]
    assert len(set(values)) > 1, "every move is worth the same: the position tests little"
    chances = set()
    for move, value in zip(view.legal_moves, values, strict=True):
        score, win = engine_value(view, move)
        assert value == pytest.approx(score, abs=1e-12), move.name
        judgement = judge_move(view, move)
        assert judgement.played_win_probability == pytest.approx(win, abs=1e-12), move.name
        assert judgement.positions > 0
        chances.add(round(win, 9))
    assert len(chances) > 1, "every move wins as often: the chances test little"


@pytest.mark.parametrize(("deal", "unseen"), [pytest.param(5, 4, marks=pytest.mark.slow), (8, 4), (29, 4)])
def test_judging_a_move_prunes_without_changing_a_value(deal: int, unseen: int) -> None:
    view = late(deal, unseen)
    values = {move: expected_score(view, move) for move in view.legal_moves}
    for move in view.legal_moves:
        judgement = judge_move(view, move)
        assert judgement.played == values[move]
        assert judgement.best == max(values.values())
        assert values[judgement.best_move] == judgement.best
        assert judgement.loss >= 0
        assert judgement.best_win_probability == judge_move(view, judgement.best_move).played_win_probability
        assert judgement.positions <= DEFAULT_BUDGET
    several = judge_moves(view, view.legal_moves[:3])  # one search for several players' moves
    assert [j.played for j in several] == [values[m] for m in view.legal_moves[:3]]
    assert {j.best for j in several} == {max(values.values())}


def test_a_win_at_once_scores_the_cards_left_and_is_the_best_move() -> None:
    game = Game(deal=1)
    best = make_player("best", seed=0)
    views = []
    while not game.is_over():
        views.append(game.view())
        move = best.choose(views[-1])
        game.place(move.row, move.col)
    assert game.outcome().status == "won"
    last = views[-1]
    judgement = judge_move(last, game.moves[-1])
    assert judgement.played == judgement.best == game.outcome().score == len(last.unseen)


def test_a_search_beyond_its_budget_says_so() -> None:
    view = late(7, 5)
    with pytest.raises(BudgetExceeded, match="more than 10 positions"):
        judge_move(view, view.legal_moves[0], budget=10)


def test_bad_calls_are_refused() -> None:
    view = late(7, 2)
    with pytest.raises(ValueError, match="at least 1"):
        expected_score(view, view.legal_moves[0], budget=0)
    illegal = next(
        Move(r, c) for r, c in itertools.product(range(-3, 4), repeat=2) if Move(r, c) not in view.legal_moves
    )
    with pytest.raises(ValueError, match="not a legal cell"):
        expected_score(view, illegal)
