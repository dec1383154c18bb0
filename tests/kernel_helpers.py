"""Test-only helpers that compare a kernel state with the engine (the library never needs them)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from numba import njit

from foursquare import jitcache
from foursquare import kernel as K
from foursquare.engine import Game, Move, Outcome, Variant
from foursquare.kernel import rules

Grid = dict[tuple[int, int], tuple[int, bool, int, int]]

#: The four combinations of house rules, and their test ids.
VARIANTS = [
    Variant("orthogonal", False),
    Variant("orthogonal", True),
    Variant("diagonal", False),
    Variant("diagonal", True),
]
VARIANT_IDS = ["orthogonal", "orthogonal+buried", "diagonal", "diagonal+buried"]

_STATUS_NAMES = {K.STATUS_WON: "won", K.STATUS_LOST_FACE_DOWN: "lost", K.STATUS_LOST_STOCK: "lost"}
_REASONS = {
    K.STATUS_WON: "sixteen_face_up",
    K.STATUS_LOST_FACE_DOWN: "too_many_face_down",
    K.STATUS_LOST_STOCK: "stock_empty",
}


def grid_of_state(state: np.ndarray) -> Grid:
    """``{(row, col): (top card, top face up, height, buried face-down)}`` of the occupied cells."""
    grid: Grid = {}
    for index in range(K.AREA_CELLS):
        if state[K.TOP_CARD + index] >= 0:
            move = K.move_of(index)
            grid[(move.row, move.col)] = (
                int(state[K.TOP_CARD + index]),
                bool(state[K.TOP_FACE_UP + index]),
                int(state[K.PILE_HEIGHT + index]),
                int(state[K.PILE_BURIED + index]),
            )
    return grid


def grid_of_game(game: Game) -> Grid:
    """The same summary as :func:`grid_of_state`, read from the engine."""
    return {
        (c.row, c.col): (int(c.top), c.top_face_up, c.height, c.face_up[:-1].count(False)) for c in game.cells()
    }


def face_down_of_state(state: np.ndarray) -> int:
    """Face-down cards counting towards the limit, as the engine's ``Game.face_down``."""
    return int(K.face_down(state, int(state[K.FACE_DOWN_TOPS]), int(state[K.BURIED_FACE_DOWN])))


def outcome_of_state(state: np.ndarray) -> Outcome:
    """The engine :class:`Outcome` a kernel state stands for."""
    code = int(state[K.STATUS])
    if code == K.STATUS_PLAYING:
        return Outcome("playing")
    return Outcome(_STATUS_NAMES[code], _REASONS[code], int(state[K.SCORE]))  # type: ignore[arg-type]


def legal_moves_of_state(state: np.ndarray) -> list[Move]:
    """The legal moves of a kernel state, in (row, col) order, as engine moves."""
    out = np.empty(K.MAX_MOVES, dtype=np.int64)
    n = K.legal(state, out)
    return [K.move_of(int(out[i])) for i in range(n)]


def differences(game: Game, state: np.ndarray) -> list[str]:
    """Every way the kernel state disagrees with the engine game (empty when they agree)."""
    compared = {
        "grid": (grid_of_game(game), grid_of_state(state)),
        "face_down": (game.face_down, face_down_of_state(state)),
        "turn": (game.turn, int(state[K.TURN])),
        "outcome": (game.outcome(), outcome_of_state(state)),
        "legal moves": (game.legal_moves, legal_moves_of_state(state)),
    }
    return [f"{name}: engine {ours} kernel {theirs}" for name, (ours, theirs) in compared.items() if ours != theirs]


@njit(cache=True)
def replay_snapshots(
    state: np.ndarray, stock: np.ndarray, moves: np.ndarray, n: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play ``moves[:n]`` from ``state``; return the state after each move and its legal cells.

    Returns (states ``[n, STATE_SIZE]``, legal cells ``[n, MAX_MOVES]`` padded with -1, counts).
    """
    states = np.empty((n, K.STATE_SIZE), dtype=np.int8)
    legals = np.full((n, K.MAX_MOVES), -1, dtype=np.int64)
    counts = np.zeros(n, dtype=np.int64)
    buf = np.empty(K.MAX_MOVES, dtype=np.int64)
    for i in range(n):  # the rules' numba functions: K's may be the ahead-of-time ones, which numba cannot call
        rules.place(state, moves[i], stock[state[K.TURN]])
        states[i, :] = state
        k = rules.legal(state, buf)
        counts[i] = k
        legals[i, :k] = buf[:k]
    return states, legals, counts


# replay_snapshots compiles the kernel's rules into its own cached code: flush it when they change too.
jitcache.refresh([sys.modules[__name__]], (*K.SOURCES, Path(__file__)))
