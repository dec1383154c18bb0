"""The frame as bit masks: cell ``i = 4 * row + col`` of a 4×4 frame is bit ``i`` of a 16-bit mask.

>>> bin(ROW_CELLS << GRID), bin(COLUMN_CELLS << 1)
('0b11110000', '0b10001000100010')
>>> int(_popcount(FULL)), int(_low(1 << 7))
(16, 7)
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from foursquare.engine import GRID, Variant
from foursquare.solver.jit import helper

IntArray = npt.NDArray[np.int64]
Words = npt.NDArray[np.uint64]

FRAME_CELLS = GRID * GRID  # cells of a frame (the kernel's CELLS is the 9×9 grid's 81)
FULL = (1 << FRAME_CELLS) - 1  # every cell of the frame
ROW_CELLS = (1 << GRID) - 1  # the cells of row 0; row r: ``ROW_CELLS << (GRID * r)``
COLUMN_CELLS = sum(1 << (GRID * r) for r in range(GRID))  # the cells of column 0 (0x1111); column c: ``<< c``
LINES = 2 * GRID  # line numbers: rows 0-3, then columns 4-7
MAIN_DIAGONAL_MASK = sum(1 << (GRID * r + r) for r in range(GRID))  # the cells (r, r)
UPPER_TRIANGLE_MASK = sum(1 << (GRID * r + c) for r in range(GRID) for c in range(GRID) if c >= r)  # (r, c), c ≥ r

_POP16 = np.array([bin(x).count("1") for x in range(1 << FRAME_CELLS)], dtype=np.int64)
DEBRUIJN32 = 0x077CB531  # a de Bruijn sequence: the top 5 bits of its multiples by 2**i are all different
_DEBRUIJN = np.array([0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
                      31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9], dtype=np.int64)


@helper
def _popcount(x: int) -> int:  # pragma: no cover - compiled
    """Set bits of a 16-bit mask."""
    return int(_POP16[x & FULL])


@helper
def _low(x: int) -> int:  # pragma: no cover - compiled
    """Index of the lowest set bit of a non-zero mask below 2**32 (de Bruijn multiplication)."""
    return int(_DEBRUIJN[(((x & -x) * DEBRUIJN32) >> 27) & 31])


@helper
def _full_lines(occ: int) -> tuple[int, int]:  # pragma: no cover - compiled
    """The masks of the rows (bit r) and of the columns (bit c) of the frame without an empty cell."""
    empty = FULL & ~occ
    full_rows = 0
    full_cols = 0
    for x in range(GRID):
        if (empty >> (GRID * x)) & ROW_CELLS == 0:
            full_rows |= 1 << x
        if (empty >> x) & COLUMN_CELLS == 0:
            full_cols |= 1 << x
    return full_rows, full_cols


class FrameMasks(NamedTuple):
    """For each frame cell, the mask of the other cells of its row, of its column, of either, and of its
    neighbours by the variant's adjacency (a cell is not its own)."""

    row: IntArray
    col: IntArray
    cross: IntArray
    adjacent: IntArray


@cache
def _frame_masks(variant: Variant) -> FrameMasks:
    """The :class:`FrameMasks` of a variant; once per variant and process, as the search only reads them."""
    row = np.zeros(FRAME_CELLS, dtype=np.int64)
    col = np.zeros(FRAME_CELLS, dtype=np.int64)
    adjacent = np.zeros(FRAME_CELLS, dtype=np.int64)
    for i in range(FRAME_CELLS):
        r, c = divmod(i, GRID)
        for j in range(FRAME_CELLS):
            rj, cj = divmod(j, GRID)
            if j == i:
                continue
            if rj == r:
                row[i] |= 1 << j
            if cj == c:
                col[i] |= 1 << j
            if (rj - r, cj - c) in variant.steps:
                adjacent[i] |= 1 << j
    return FrameMasks(row, col, row | col, adjacent)
