"""The perfect-information solver: differential checks against a brute-force engine search, hand-built
positions with known answers, both variants, time-outs, and the ``solve`` / ``deal --winnable`` commands."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from foursquare import record
from foursquare.cards import DECK_SIZE, Card, deal_stock
from foursquare.engine import Game, Move, Variant
from foursquare.solver import Solution, SolverError, random_winnable_deal, solve

VARIANTS = [Variant(), Variant(adjacency="diagonal"), Variant(count_buried=True)]


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "foursquare.cli", *args], capture_output=True, text=True, timeout=300)


def brute_force_best_turn(game: Game, limit: int) -> int | None:
    """The fewest cards after which the game can be won, if at most ``limit``: every engine move tried."""
    memo: dict[tuple[object, ...], int | None] = {}

    def best(g: Game) -> int | None:
        outcome = g.outcome()
        if outcome.status == "won":
            return g.turn
        if outcome.status == "lost" or g.turn >= limit:
            return None
        key = g.key()
        if key in memo:
            return memo[key]
        found: int | None = None
        for move in g.legal_moves:
            g.place(move.row, move.col)
            value = best(g)
            g.pop()
            if value is not None and (found is None or value < found):
                found = value
        memo[key] = found
        return found

    return best(game.copy())


def late_position(seed: int, variant: Variant, empty_cells: int) -> Game | None:
    """A random legal game played until ``empty_cells`` cells of a full 4×4 box remain empty, or None."""
    rng = random.Random(seed)
    game = Game(deal=seed, variant=variant)
    while not game.is_over():
        bounds = game.bounds()
        if bounds is not None and bounds[1] - bounds[0] == 3 and bounds[3] - bounds[2] == 3:
            if 16 - len(game.cells()) == empty_cells:
                return game
        # prefer cells that keep the face-down count low, so that the game lasts
        moves = game.legal_moves
        rng.shuffle(moves)
        scored = []
        for move in moves:
            game.place(move.row, move.col)
            scored.append((game.outcome().status == "lost", game.face_down, rng.random(), move))
            game.pop()
        scored.sort()
        move = scored[0][3]
        game.place(move.row, move.col)
    return None


def check_line(stock: tuple[Card, ...], variant: Variant, solution: Solution) -> None:
    """The line replays through the engine to exactly the claimed score."""
    game = Game(stock=list(stock), variant=variant)
    for move in solution.line:
        game.place(move.row, move.col)
    assert game.outcome().status == "won"
    assert game.outcome().score == solution.best_score


@pytest.mark.parametrize("variant", VARIANTS, ids=["orthogonal", "diagonal", "count_buried"])
def test_matches_brute_force_from_late_positions(variant: Variant) -> None:
    checked = 0
    for seed in range(1, 200):
        game = late_position(seed, variant, empty_cells=seed % 3 + 1)
        if game is None:
            continue
        empty = 16 - len(game.cells())
        limit = min(game.turn + empty + 2, DECK_SIZE)
        expected = brute_force_best_turn(game, limit)
        solution = solve(game.stock, variant, moves=game.moves, timeout=30)
        assert solution.line[: game.turn] == tuple(game.moves) or solution.line == ()
        if expected is not None:
            assert solution.status == "optimal", (seed, solution)
            assert solution.best_score == DECK_SIZE - expected
            check_line(game.stock, variant, solution)
        else:
            # no win within the limit: the solver must not claim one, and its upper bound must agree
            assert solution.upper_bound <= DECK_SIZE - limit - 1, (seed, solution)
            if solution.best_score is not None:
                check_line(game.stock, variant, solution)
        checked += 1
        if checked == 6:
            break
    assert checked == 6
