"""The kernel's state layout and the conversions between it and the engine.

The engine (:mod:`foursquare.engine`) defines the rules; the kernel re-implements them on this compact
state so that players can run many thousands of playouts per second, and the differential tests in
``tests/test_kernel.py`` check that the two agree move for move in every variant.

State layout
------------
A state is one ``int8`` array of :data:`STATE_SIZE` entries. The grid is a square *area* of
:data:`AREA_SIDE` × :data:`AREA_SIDE` cells whose cell index is
``(row + AREA_ORIGIN) * AREA_SIDE + (col + AREA_ORIGIN)``; the first card sits at :data:`ORIGIN_CELL`.
Four blocks of :data:`AREA_CELLS` entries, indexed by cell, hold each cell's top card (``-1`` when
empty: :data:`TOP_CARD`), whether the top faces up (:data:`TOP_FACE_UP`), the pile height
(:data:`PILE_HEIGHT`) and how many face-down cards the pile buries (:data:`PILE_BURIED`). Scalars
follow: the occupied box in area rows and columns, the number of occupied cells, the turn, the
face-down tops, the buried face-down cards, the status (one of the ``STATUS_`` codes), the score and
the variant's two flags.

Cards are the ints of :mod:`foursquare.cards` (rank ``card // SUIT_COUNT + 1``). A move is a cell
index; :func:`cell_of` and :func:`move_of` convert between indices and engine :class:`Move` values.

>>> cell_of(0, 0) == ORIGIN_CELL, move_of(ORIGIN_CELL + 1)
(True, Move(row=0, col=1))
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from foursquare.cards import DECK_SIZE, SUITS
from foursquare.engine import GRID, Game, Move, Outcome, Variant, View
from foursquare.jitcache import njit
from foursquare.kernel.compiled import entry

Array = npt.NDArray[np.int8]
IntArray = npt.NDArray[np.int64]
Rng = npt.NDArray[np.uint64]
Weights = npt.NDArray[np.float64]

# numba reads module globals as compile-time constants, so naming these costs the compiled code nothing.
SUIT_COUNT = len(SUITS)  # cards are (rank - 1) * SUIT_COUNT + suit
RANK_COUNT = DECK_SIZE // SUIT_COUNT

# The occupied box is at most GRID × GRID and holds the first card at engine (0, 0), so every card and
# every legal cell lies in rows and columns -(GRID - 1)..GRID - 1. One more always-empty ring around
# them lets the compiled code read a cell's neighbours without a bounds check: hence a square area of
# side 2 * GRID + 1 whose centre, engine (0, 0), is GRID rows and columns from its corner.
AREA_ORIGIN = GRID
AREA_SIDE = 2 * GRID + 1
AREA_CELLS = AREA_SIDE * AREA_SIDE
ORIGIN_CELL = AREA_ORIGIN * AREA_SIDE + AREA_ORIGIN
REACH = GRID - 1  # a box of at most GRID rows spans at most this many rows beyond any of its cells, (0, 0) included

# Per-cell blocks: state[BLOCK + cell].
TOP_CARD = 0
TOP_FACE_UP = AREA_CELLS
PILE_HEIGHT = 2 * AREA_CELLS
PILE_BURIED = 3 * AREA_CELLS
# Scalars: state[INDEX]. The bounds are area rows and columns of the occupied box.
MIN_ROW = 4 * AREA_CELLS  # after the four per-cell blocks
MAX_ROW = MIN_ROW + 1
MIN_COL = MIN_ROW + 2
MAX_COL = MIN_ROW + 3
OCCUPIED = MIN_ROW + 4
TURN = MIN_ROW + 5
FACE_DOWN_TOPS = MIN_ROW + 6
BURIED_FACE_DOWN = MIN_ROW + 7
STATUS = MIN_ROW + 8
SCORE = MIN_ROW + 9
DIAGONAL_FLAG = MIN_ROW + 10
COUNT_BURIED_FLAG = MIN_ROW + 11
STATE_SIZE = MIN_ROW + 12

# Codes of state[STATUS].
STATUS_PLAYING = 0
STATUS_WON = 1
STATUS_LOST_FACE_DOWN = 2
STATUS_LOST_STOCK = 3

#: Room for every legal cell: they all lie in the (2 * GRID - 1)² square of cells that keep the
#: occupied box within GRID rows and columns.
MAX_MOVES = (2 * GRID - 1) ** 2


class KernelMismatch(RuntimeError):
    """The engine and the kernel disagree about a position: a bug in one of them, never bad input."""


@njit(cache=True)
def empty_state(diagonal: int, count_buried: int) -> Array:
    """The state of a new game: every cell empty, an empty box (min above max), the variant's flags.

    The only place that builds an empty state; ``diagonal`` and ``count_buried`` are 0 or 1
    (see :func:`variant_flags`).
    """
    state = np.zeros(STATE_SIZE, dtype=np.int8)
    state[TOP_CARD : TOP_CARD + AREA_CELLS] = -1
    state[MIN_ROW] = AREA_SIDE
    state[MIN_COL] = AREA_SIDE
    state[MAX_ROW] = -1
    state[MAX_COL] = -1
    state[DIAGONAL_FLAG] = diagonal
    state[COUNT_BURIED_FLAG] = count_buried
    return state


@njit(cache=True, inline="always")
def copy_state(target: Array, source: Array) -> None:
    """``target[:] = source`` for two states, as a plain loop: numba compiles slice assignment between arrays
    to a generic strided loop, many times slower for a state (benchmarks/rl_steps_history.md)."""
    for i in range(STATE_SIZE):
        target[i] = source[i]


def variant_flags(variant: Variant) -> tuple[int, int]:
    """The (diagonal, count buried) flags of a variant, as the compiled functions take them."""
    return (1 if variant.adjacency == "diagonal" else 0), (1 if variant.count_buried else 0)


def new_state(variant: Variant | None = None) -> Array:
    """The empty grid of a new game."""
    state: Array = entry("empty_state")(*variant_flags(variant if variant is not None else Variant()))
    return state


def _reachable(row: int, col: int) -> bool:
    return -REACH <= row <= REACH and -REACH <= col <= REACH


def cell_of(row: int, col: int) -> int:
    """The kernel cell index of engine coordinates (row, col).

    The engine never lays a card further than :data:`REACH` from (0, 0), so coordinates beyond it
    mean the engine and the kernel disagree: :class:`KernelMismatch`.
    """
    if not _reachable(row, col):
        raise KernelMismatch(f"cell ({row}, {col}) is outside the reachable rows and columns {-REACH}..{REACH}")
    return (row + AREA_ORIGIN) * AREA_SIDE + (col + AREA_ORIGIN)


def move_of(cell: int) -> Move:
    """The engine move of a kernel cell index (:class:`KernelMismatch` for a cell no card can reach)."""
    row, col = cell // AREA_SIDE - AREA_ORIGIN, cell % AREA_SIDE - AREA_ORIGIN
    if not (0 <= cell < AREA_CELLS and _reachable(row, col)):
        raise KernelMismatch(f"kernel cell {cell} is not a cell of the rows and columns {-REACH}..{REACH}")
    return Move(row, col)


def _status_code(outcome: Outcome) -> int:
    if outcome.status == "won":
        return STATUS_WON
    if outcome.status == "lost":
        return STATUS_LOST_FACE_DOWN if outcome.reason == "too_many_face_down" else STATUS_LOST_STOCK
    return STATUS_PLAYING


def state_of_view(view: View) -> Array:
    """The kernel state of a player's view (the view's card is not part of the state)."""
    state = new_state(view.variant)
    for cell in view.cells:
        index = cell_of(cell.row, cell.col)
        state[TOP_CARD + index] = int(cell.top)
        state[TOP_FACE_UP + index] = 1 if cell.top_face_up else 0
        state[PILE_HEIGHT + index] = cell.height
        buried = cell.face_up[:-1].count(False)
        state[PILE_BURIED + index] = buried
        r, c = index // AREA_SIDE, index % AREA_SIDE
        state[MIN_ROW] = min(int(state[MIN_ROW]), r)
        state[MAX_ROW] = max(int(state[MAX_ROW]), r)
        state[MIN_COL] = min(int(state[MIN_COL]), c)
        state[MAX_COL] = max(int(state[MAX_COL]), c)
        state[OCCUPIED] += 1
        state[FACE_DOWN_TOPS] += 0 if cell.top_face_up else 1
        state[BURIED_FACE_DOWN] += buried
    state[TURN] = view.turn
    state[STATUS] = _status_code(view.outcome)
    state[SCORE] = view.outcome.score or 0
    return state


def state_of_game(game: Game) -> Array:
    """The kernel state of an engine game."""
    return state_of_view(game.view())


def stock_array(cards: Sequence[int]) -> Array:
    """A stock order as the kernel's ``int8`` array."""
    return np.asarray([int(c) for c in cards], dtype=np.int8)
