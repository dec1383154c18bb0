"""The legal actions as a 49-bit board: the vector environments' fast action masks.

:func:`foursquare.kernel.rules.legal` scans the cells around the occupied box, many times slower than a few
shifts (docs/performance.md). The vector environments need the mask after every step, so they keep bit boards
per game over the 7 × 7 action area (bit ``a`` is action ``a``: ``7 * row_index + column_index``) — the occupied
cells and the piles that can still take a card, and the legal cells the mask shows — and derive the legal cells
with a few shifts. The rule is the same as ``legal``'s (the differential tests in ``tests/test_rl_vector.py``
compare them on random games):

- a pile below the cap takes a card, and so does an empty cell next to an occupied one (diagonally too in
  the diagonal variant);
- only rows and columns within ``GRID - 1`` of both ends of the occupied box keep it within the grid.

>>> from foursquare.kernel.state import empty_state
>>> int(legal_bits(empty_state(0, 0), np.uint64(0), np.uint64(0))) == 1 << FIRST  # D4 alone
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros as _trailing_zeros

from foursquare.engine import AREA_REACH, PILE_CAP
from foursquare.engine import AREA_SIDE as SIDE
from foursquare.kernel.state import (
    AREA_ORIGIN,
    DIAGONAL_FLAG,
    MAX_COL,
    MAX_ROW,
    MIN_COL,
    MIN_ROW,
    PILE_HEIGHT,
    REACH,
    STATUS,
    STATUS_PLAYING,
    Array,
)

# The action area's row and column indices are the kernel area's less this.
_SHIFT = AREA_ORIGIN - AREA_REACH
FIRST = AREA_REACH * SIDE + AREA_REACH
_ONE = np.uint64(1)
_ALL = np.uint64((1 << SIDE * SIDE) - 1)
# Every cell of the first column (0, 7, 14, …), and each column's cells as a repeating pattern.
_COLUMN_0 = np.uint64(sum(1 << SIDE * r for r in range(SIDE)))
# The index of a board's lowest set bit (numba's intrinsic, typed for mypy as what it does).
_lowest_bit = cast(Callable[[np.uint64], int], _trailing_zeros)
_NOT_FIRST_COLUMN = np.uint64(int(_ALL) & ~int(_COLUMN_0))
_NOT_LAST_COLUMN = np.uint64(int(_ALL) & ~(int(_COLUMN_0) << SIDE - 1))
_ROW = np.uint64(SIDE)
_S1 = np.uint64(1)
_S_UP = np.uint64(SIDE - 1)
_S_DOWN = np.uint64(SIDE + 1)


@njit(cache=True, inline="always")
def _neighbours(occupied: np.uint64, diagonal: bool) -> np.uint64:
    """The cells next to an occupied one (the occupied ones may be among them)."""
    near = ((occupied << _S1) & _NOT_FIRST_COLUMN) | ((occupied >> _S1) & _NOT_LAST_COLUMN)
    near |= (occupied << _ROW) | (occupied >> _ROW)
    if diagonal:
        near |= ((occupied << _S_DOWN) | (occupied >> _S_UP)) & _NOT_FIRST_COLUMN
        near |= ((occupied << _S_UP) | (occupied >> _S_DOWN)) & _NOT_LAST_COLUMN
    return near & _ALL


@njit(cache=True, inline="always")
def _band(low: int, high: int, unit: int) -> np.uint64:
    """Bits ``low * unit`` up to ``(high + 1) * unit - 1``."""
    top = (_ONE << np.uint64((high + 1) * unit)) - _ONE
    bottom = (_ONE << np.uint64(low * unit)) - _ONE
    return top ^ bottom


@njit(cache=True, inline="always")
def _window(state: Array) -> np.uint64:
    """The cells whose rows and columns keep the occupied box within the grid."""
    rows = _band(state[MAX_ROW] - REACH - _SHIFT, state[MIN_ROW] + REACH - _SHIFT, SIDE)
    columns = _band(state[MAX_COL] - REACH - _SHIFT, state[MIN_COL] + REACH - _SHIFT, 1) * _COLUMN_0
    return rows & columns


@njit(cache=True, inline="always")
def legal_bits(state: Array, occupied: np.uint64, open_piles: np.uint64) -> np.uint64:
    """The legal actions of ``state`` whose occupied cells and piles below the cap are the two boards."""
    if state[STATUS] != STATUS_PLAYING:
        return np.uint64(0)
    if occupied == 0:
        return _ONE << np.uint64(FIRST)
    empty_next = _neighbours(occupied, state[DIAGONAL_FLAG] != 0) & ~occupied
    return (open_piles | empty_next) & _window(state)


@njit(cache=True, inline="always")
def lay(
    occupied: np.uint64, open_piles: np.uint64, state: Array, action: int, cell: int
) -> tuple[np.uint64, np.uint64]:
    """The two boards after a card was laid at ``action`` (kernel ``cell``; ``state`` is the position after it)."""
    bit = _ONE << np.uint64(action)
    if state[PILE_HEIGHT + cell] < PILE_CAP:
        return occupied | bit, open_piles | bit
    return occupied | bit, open_piles & ~bit


@njit(cache=True, inline="always")
def write_mask(mask: Array, bits: np.uint64) -> None:
    """Write the board ``bits`` into the 0/1 mask ``mask`` (one byte per action)."""
    bits = np.uint64(bits)  # also when called from Python with an int
    for a in range(SIDE * SIDE):
        mask[a] = (bits >> np.uint64(a)) & _ONE


@njit(cache=True, inline="always")
def update_mask(mask: Array, shown: np.uint64, bits: np.uint64) -> None:
    """Bring the mask ``mask``, which shows the board ``shown``, to show ``bits``: only the actions that changed."""
    changed = np.uint64(shown ^ bits)
    while changed:
        a = _lowest_bit(changed)
        mask[a] ^= 1
        changed &= changed - _ONE
