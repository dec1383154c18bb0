"""The compiled chance of surviving the next cards agrees with the same expectimax played by the engine."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest

from foursquare import kernel as K
from foursquare.cards import Card
from foursquare.engine import Game, Move, View
from helpers import greedy_game


def engine_survival(view: View, move: Move, depth: int) -> float:
    """The same chance, with the engine's rules: each unseen rank next at its share, its best cell for it."""
    game = Game.from_view(view, list(view.unseen))
    game.place(move.row, move.col)
    return _alive(game.view(), list(view.unseen), depth, placed=True)


def _alive(view: View, unseen: Sequence[Card], depth: int, *, placed: bool) -> float:
    if view.outcome.status == "lost":
        return 0.0
    if depth == 0 or view.outcome.status == "won" or not unseen:
        return 1.0
    chance = 0.0
    for rank in sorted({c.rank for c in unseen}):
        card = next(c for c in unseen if c.rank == rank)
        rest = [c for c in unseen if c != card]
        share = sum(c.rank == rank for c in unseen) / len(unseen)
        best = 0.0
        for cell in _next_view(view, card, rest).legal_moves:
            game = Game.from_view(_next_view(view, card, rest), rest)
            game.place(cell.row, cell.col)
            best = max(best, _alive(game.view(), rest, depth - 1, placed=True))
        chance += share * best
    return chance


def _next_view(view: View, card: Card, rest: Sequence[Card]) -> View:
    """``view`` with ``card`` as the one to place and ``rest`` still unseen (the legal cells are the grid's)."""
    return dataclasses.replace(view, card=card, unseen=tuple(sorted(rest)))


def played(deal: int, moves: int) -> View:
    return greedy_game(deal, moves).view()


# Late positions of the greedy player's games where some moves risk the next cards (and others do not).
RISKY = [(33, 26), (127, 30), (180, 32)]


# make check: one position at depth 1; make test: the deeper (and costlier) ones too.
@pytest.mark.parametrize(
    ("deal", "moves", "depth"),
    [pytest.param(33, 26, 2, marks=pytest.mark.slow), (127, 30, 1), pytest.param(127, 30, 2, marks=pytest.mark.slow),
     pytest.param(180, 32, 2, marks=pytest.mark.slow)],
)  # fmt: skip
def test_the_kernel_s_survival_is_the_engine_s_expectimax(deal: int, moves: int, depth: int) -> None:
    view = played(deal, moves)
    assert view.outcome.status == "playing"
    compiled = K.move_survival(view, view.legal_moves, depth)
    if (deal, moves) in RISKY:
        assert compiled.min() < 1.0 < compiled.max() + 1e-9  # some moves risk the next cards, some do not
    for move, chance in zip(view.legal_moves, compiled, strict=True):
        assert chance == pytest.approx(engine_survival(view, move, depth), abs=1e-12), move.name


@pytest.mark.parametrize(("deal", "moves"), RISKY)
def test_survival_is_a_chance_that_never_grows_with_depth(deal: int, moves: int) -> None:
    view = played(deal, moves)
    chances = [K.move_survival(view, view.legal_moves, depth) for depth in (1, 2, 3)]
    assert all(((c >= 0) & (c <= 1)).all() for c in chances)
    assert (chances[1] <= chances[0] + 1e-12).all() and (chances[2] <= chances[1] + 1e-12).all()


@pytest.mark.parametrize("depth", [0, K.survival.MAX_DEPTH + 1])
def test_a_depth_out_of_range_is_refused(depth: int) -> None:
    view = played(7, 3)
    with pytest.raises(ValueError, match=f"depth {depth} is not in 1..{K.survival.MAX_DEPTH}"):
        K.move_survival(view, view.legal_moves, depth)
