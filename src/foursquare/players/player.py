"""The players: anything that picks a legal move from a view, and the four by name (random, greedy, best, expert)."""

from __future__ import annotations

from typing import Protocol

import numpy as np

from foursquare import kernel as K
from foursquare.engine import Game, Move, View
from foursquare.players.errors import player_error
from foursquare.players.evaluation import rank_moves

PLAYER_NAMES = ("random", "greedy", "best", "expert")

#: Playouts per decision of the best player without a time budget.
BEST_PLAYOUTS = 2000


class Player(Protocol):
    """Anything that picks a legal move from a view."""

    name: str

    def choose(self, view: View) -> Move: ...


# --- greedy on the engine ------------------------------------------------------------------------


def greedy_move(view: View) -> Move:
    """The greedy player's move, computed with the pure-Python engine (the definition)."""
    if not view.legal_moves:
        raise player_error("no_move")
    return greedy_move_on(Game.from_view(view, list(view.unseen)))


def greedy_move_on(game: Game) -> Move:
    """The greedy move in ``game``'s position; tries each move with ``place`` and takes it back.

    Only the card to place is drawn, so the rest of the stock order plays no part.
    """
    best: Move | None = None
    best_key: tuple[int, int, int] | None = None
    for move in game.legal_moves:
        outcome = game.place(move.row, move.col).outcome
        lost = outcome.status == "lost"
        key = (1 if lost else 0, 0 if lost else game.face_down, -len(game.cells()))
        game.pop()
        if outcome.status == "won":
            return move
        if best_key is None or key < best_key:
            best, best_key = move, key
    if best is None:
        raise player_error("no_move")
    return best


class RandomPlayer:
    """A uniformly random legal move; seeded, so a game replays identically."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = np.random.default_rng(seed)

    def choose(self, view: View) -> Move:
        if not view.legal_moves:
            raise player_error("no_move")
        return view.legal_moves[int(self._rng.integers(len(view.legal_moves)))]


class GreedyPlayer:
    """The greedy baseline, in the kernel (``engine=True``: on the pure-Python engine)."""

    name = "greedy"

    def __init__(self, engine: bool = False) -> None:
        self._engine = engine

    def choose(self, view: View) -> Move:
        if self._engine:
            return greedy_move(view)
        if view.card is None or not view.legal_moves:
            raise player_error("no_move")
        return K.move_of(int(K.greedy_move(K.state_of_view(view), int(view.card))))


class BestPlayer:
    """Monte Carlo over the unseen stock with kernel rollouts; the move of highest expected score."""

    name = "best"

    def __init__(self, seed: int = 0, time_budget: float | None = None, playouts: int = 0) -> None:
        self.seed = seed
        self.time_budget = time_budget
        self.playouts = playouts or BEST_PLAYOUTS

    def choose(self, view: View) -> Move:
        if len(view.legal_moves) == 1:
            return view.legal_moves[0]
        return rank_moves(view, seed=self.seed, playouts=self.playouts, time_budget=self.time_budget)[0].move


def make_player(name: str, *, seed: int = 0, time_budget: float | None = None) -> Player:
    """A player by name: ``random``, ``greedy``, ``best`` or ``expert`` (``time_budget`` is ``best``'s)."""
    if name == "random":
        return RandomPlayer(seed)
    if name == "greedy":
        return GreedyPlayer()
    if name == "best":
        return BestPlayer(seed, time_budget)
    if name == "expert":
        from foursquare.players.expert import ExpertPlayer  # imports the solver

        return ExpertPlayer(seed)
    raise player_error("unknown_player", name=name, choices=", ".join(PLAYER_NAMES))
