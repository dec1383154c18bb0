"""Frames: the 4×4 windows of the grid that a win may fill, and one frame's search arrays.

A won game fills a 4×4 box, so every winning line stays inside one 4×4 *frame*. Each frame is searched
separately, in frame coordinates (cell ``i = 4 * row + col``), where rows and columns never move.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from foursquare.engine import GRID, Game, Move
from foursquare.solver.bits import FRAME_CELLS, UPPER_TRIANGLE_MASK, IntArray, _frame_masks
from foursquare.solver.parity import PARITY_WORDS, _lower_bound
from foursquare.solver.position import SLOTS, STATE_FIELDS, _open_piles, _Tables
from foursquare.solver.search import EXACT, _search, _work_arrays

ENOUGH = FRAME_CELLS + 2  # a frame's first bound is never cut short: no position needs more cards


@dataclass(frozen=True)
class _Frame:
    """A 4×4 window of the engine's grid: frame cell (r, c) is engine cell (r + row0, c + col0)."""

    row0: int
    col0: int
    first_cell: int  # where the first card goes (frame index), when no card is placed yet
    mirror: bool  # the diagonal mirror maps the frame onto itself, first cell included

    def to_move(self, cell: int) -> Move:
        return Move(cell // GRID + self.row0, cell % GRID + self.col0)

    def cell_of(self, row: int, col: int) -> int:
        return (row - self.row0) * GRID + (col - self.col0)


def _frames(game: Game) -> list[_Frame]:
    """The frames that may hold a win from ``game``'s position."""
    bounds = game.bounds()
    if bounds is None:
        # Up to the square's symmetries the first card is in a corner, on an edge or in the middle.
        return [_Frame(0, 0, 0, True), _Frame(0, -1, 1, False), _Frame(-1, -1, GRID + 1, True)]
    min_r, max_r, min_c, max_c = bounds
    return [
        _Frame(r0, c0, -1, False)
        for r0 in range(max_r - GRID + 1, min_r + 1)
        for c0 in range(max_c - GRID + 1, min_c + 1)
    ]


class _Search:
    """One frame's search arrays, set to the game's position; ``bound`` is a proven lower bound on the
    winning turn in this frame."""

    def __init__(self, game: Game, frame: _Frame, tables: _Tables) -> None:
        variant = game.variant
        self.frame = frame
        self.t0 = game.turn
        self.row, self.col, self.cross, self.adjacent = _frame_masks(variant)
        self.top = np.zeros((SLOTS, FRAME_CELLS), dtype=np.int64)
        self.height = np.zeros((SLOTS, FRAME_CELLS), dtype=np.int64)
        self.state = np.zeros((SLOTS, STATE_FIELDS), dtype=np.int64)
        self.hashes = np.zeros(SLOTS, dtype=np.uint64)
        self.line = np.zeros(SLOTS, dtype=np.int64)
        self.cards = np.array([int(c) for c in game.stock], dtype=np.int64)
        self.count_buried = variant.count_buried
        self.mirror_keep = UPPER_TRIANGLE_MASK if frame.mirror else 0
        h = np.uint64(0)
        occ = up = buried = 0
        for cell in game.cells():
            i = frame.cell_of(cell.row, cell.col)
            occ |= 1 << i
            self.top[self.t0, i] = int(cell.top)
            self.height[self.t0, i] = cell.height
            h ^= tables.z_card[i, cell.top.rank - 1] ^ tables.z_height[i, cell.height]
            if cell.top_face_up:
                up |= 1 << i
                h ^= tables.z_up[i]
            buried += cell.face_up[:-1].count(False)
        if not self.count_buried:
            buried = 0
        h ^= tables.z_buried[buried]
        if occ == 0:
            h ^= tables.z_first[frame.first_cell]  # empty frames differ by where the first card goes
        self.state[self.t0] = (occ, up, buried)
        self.hashes[self.t0] = h
        self.tables = tables
        self.arrays = _work_arrays()  # reused by every run: each sets what it reads
        open_piles = _open_piles(self.height, self.t0, occ)
        self.bound = self.t0 + _lower_bound(occ, up, open_piles, np.zeros(PARITY_WORDS, dtype=np.uint64), ENOUGH)

    def run(
        self,
        k: int,
        deadline: float,
        node_limit: int,
        counters: IntArray,
        owner: int = 0,
        owners: int = 1,
        stop: IntArray | None = None,
        relax_from: int = EXACT,
    ) -> int:
        """Search for a win within ``k`` cards (see :func:`~foursquare.solver.search._search`), alone or as
        thread ``owner``."""
        t = self.tables
        frame = (self.cards, self.adjacent, self.row, self.col, self.cross, self.frame.first_cell, self.mirror_keep,
                 self.count_buried)
        pos = (self.top, self.height, self.state, self.hashes)
        tables = (t.z_card, t.z_up, t.z_height, t.z_buried, t.tt, t.z_coarse, t.coarse_table)
        limits = (deadline, node_limit, np.zeros(1, dtype=np.int64) if stop is None else stop)
        return int(_search(self.t0, k, frame, pos, tables, limits, self.line, counters, owner, owners, relax_from,
                           self.arrays))

    def moves(self, turn: int) -> list[Move]:
        """The moves of the line found, from the search's first turn to ``turn``."""
        return [self.frame.to_move(int(cell)) for cell in self.line[self.t0 : turn]]
