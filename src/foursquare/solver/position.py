"""Frame positions: their Zobrist keys, and a placement worked out from the parent's masks alone.

A frame position after ``slot`` cards lives in row ``slot`` of the search's arrays: ``top`` (the top
card of each cell), ``height`` (its pile's height), ``state`` (occupied mask, face-up mask, buried
face-down count: see ``OCCUPIED``, ``FACE_UP``, ``BURIED``) and ``hashes`` (its Zobrist key).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from foursquare.cards import DECK_SIZE, SUITS
from foursquare.engine import GRID, PILE_CAP
from foursquare.solver.bits import FRAME_CELLS, LINES, IntArray, _low
from foursquare.solver.jit import helper

# the columns of a row of ``state``
OCCUPIED = 0
FACE_UP = 1
BURIED = 2
STATE_FIELDS = 3
SLOTS = DECK_SIZE + 2  # rows of a search's position arrays: turns 0..40, and one past the last card
CARDS_PER_RANK = len(SUITS)  # card // CARDS_PER_RANK is its rank - 1 (see Card): suits never matter here
RANK_COUNT = DECK_SIZE // CARDS_PER_RANK  # ranks 1..10, as 0..9
NO_LOW_RANK = 99  # the lowest face-up rank of a line with no face-up top
NO_HIGH_RANK = -1  # and its highest
SEED = 20240229  # of the Zobrist keys: the same on every run, so node counts are reproducible
TT_BITS = 21  # entries of the transposition table: 2**21
COARSE_BITS = 24  # of the coarser table: hit far more often, since its keys ignore row and column order
# rows of ``z_coarse``: the cells (before an image is taken), the turn and slack, the image's cells, and the
# row and column signatures (whose column ``IMAGE_MARK`` marks a key taken of an image); 512 cell codes each
Z_TURN = FRAME_CELLS
Z_IMAGE = Z_TURN + SLOTS
Z_SIGNATURE = Z_IMAGE + FRAME_CELLS
CODE_BITS = 9  # a cell code of the coarser key is below 2**9
CODE_VALUES = 1 << CODE_BITS
IMAGE_MARK = CODE_VALUES - 1


Keys = npt.NDArray[np.uint64]


class ZobristKeys(NamedTuple):
    """The Zobrist keys of a position's parts: a rank on a cell, a face-up top, a pile's height, the buried
    face-down count, the first card's cell in an empty frame, and the coarser key's codes (see ``Z_TURN``...)."""

    card: Keys  # [cell, rank - 1]
    up: Keys  # [cell]
    height: Keys  # [cell, height]
    buried: Keys  # [count]
    first: Keys  # [cell]
    coarse: Keys  # [row, code]


@cache
def _zobrist_keys() -> ZobristKeys:
    """The Zobrist keys, drawn once per process from :data:`SEED` (the search only reads them): a player that
    solves many small positions would otherwise spend a good part of each search drawing them again."""
    rng = np.random.default_rng(SEED)
    high = np.iinfo(np.uint64).max

    def draw(*shape: int) -> Keys:
        return rng.integers(1, high, size=shape, dtype=np.uint64, endpoint=True)

    return ZobristKeys(draw(FRAME_CELLS, RANK_COUNT), draw(FRAME_CELLS), draw(FRAME_CELLS, PILE_CAP + 1),
                       draw(SLOTS), draw(FRAME_CELLS), draw(Z_SIGNATURE + 1, CODE_VALUES))


class _Tables:
    """Zobrist keys and the transposition tables shared by every frame of one solve."""

    def __init__(self, bits: int = TT_BITS, coarse_bits: int = COARSE_BITS) -> None:
        self.z_card, self.z_up, self.z_height, self.z_buried, self.z_first, self.z_coarse = _zobrist_keys()
        self.coarse_table = np.zeros(1 << coarse_bits, dtype=np.uint64)  # keys of positions that cannot win
        self.tt = np.zeros(1 << bits, dtype=np.uint64)  # see TT_SHIFT


@helper
def _child_position(
    src: int,
    cell: int,
    card: int,
    top: IntArray,
    height: IntArray,
    state: IntArray,
    hashes: npt.NDArray[np.uint64],
    row_mask: IntArray,
    col_mask: IntArray,
    z_card: npt.NDArray[np.uint64],
    z_up: npt.NDArray[np.uint64],
    z_height: npt.NDArray[np.uint64],
    z_buried: npt.NDArray[np.uint64],
    count_buried: bool,
) -> tuple[int, int, int, np.uint64]:  # pragma: no cover - compiled
    """The (occupied mask, face-up mask, buried face-down count, hash) after ``card`` goes on ``cell``.

    Works from position ``src`` without building the child (rules as in the engine): most children
    are settled from these alone.
    """
    occ = state[src, OCCUPIED]
    up = state[src, FACE_UP]
    buried = state[src, BURIED]
    h = hashes[src]
    bit = 1 << cell
    new_height = height[src, cell] + 1
    if occ & bit:
        h ^= z_card[cell, top[src, cell] // CARDS_PER_RANK] ^ z_height[cell, height[src, cell]]
        if up & bit:
            h ^= z_up[cell]
        elif count_buried:
            h ^= z_buried[buried] ^ z_buried[buried + 1]
            buried += 1
    occ |= bit
    up |= bit
    h ^= z_card[cell, card // CARDS_PER_RANK] ^ z_height[cell, new_height] ^ z_up[cell]
    rank = card // CARDS_PER_RANK
    for line in range(2):
        others = occ & (row_mask[cell] if line == 0 else col_mask[cell])
        if others == 0:
            continue
        shown = others & up
        turn_over = shown == 0
        if not turn_over:
            lo = NO_LOW_RANK
            hi = NO_HIGH_RANK
            m = shown
            while m:
                j = _low(m)
                m &= m - 1
                r = top[src, j] // CARDS_PER_RANK  # ``others`` never holds ``cell``: the parent's tops
                if r < lo:
                    lo = r
                if r > hi:
                    hi = r
            turn_over = rank > hi or rank < lo
        if turn_over:
            up ^= others
            m = others
            while m:
                j = _low(m)
                m &= m - 1
                h ^= z_up[j]
    return occ, up, buried, h


@helper
def _build(
    src: int,
    dst: int,
    cell: int,
    card: int,
    top: IntArray,
    height: IntArray,
    state: IntArray,
    hashes: npt.NDArray[np.uint64],
    occ: int,
    up: int,
    buried: int,
    h: np.uint64,
) -> None:  # pragma: no cover - compiled
    """Copy position ``src`` to slot ``dst`` and place ``card`` at ``cell`` there, whose masks and hash
    :func:`_child_position` worked out."""
    for j in range(FRAME_CELLS):
        top[dst, j] = top[src, j]
        height[dst, j] = height[src, j]
    top[dst, cell] = card
    height[dst, cell] += 1
    state[dst, OCCUPIED] = occ
    state[dst, FACE_UP] = up
    state[dst, BURIED] = buried
    hashes[dst] = h


@helper
def _line_stats(
    slot: int, occ: int, up: int, top: IntArray, z_up: npt.NDArray[np.uint64], stats: IntArray,
    line_z: npt.NDArray[np.uint64],
) -> None:  # pragma: no cover - compiled
    """For each line (rows 0-3, columns 4-7) of position ``slot``: the lowest and highest rank of its face-up
    tops (``stats[0]``, ``stats[1]``; ``NO_LOW_RANK`` and ``NO_HIGH_RANK`` when none) and the XOR of ``z_up``
    over its occupied cells."""
    for line in range(LINES):
        stats[0, line] = NO_LOW_RANK
        stats[1, line] = NO_HIGH_RANK
        line_z[line] = 0
    m = occ
    while m:
        j = _low(m)
        m &= m - 1
        for line in (j // GRID, GRID + j % GRID):
            line_z[line] ^= z_up[j]
            if (up >> j) & 1:
                r = top[slot, j] // CARDS_PER_RANK
                stats[0, line] = min(stats[0, line], r)
                stats[1, line] = max(stats[1, line], r)


@helper
def _fill_child(
    cell: int,
    card: int,
    occ: int,
    up: int,
    buried: int,
    h: np.uint64,
    stats: IntArray,
    line_z: npt.NDArray[np.uint64],
    row_mask: IntArray,
    col_mask: IntArray,
    z_card: npt.NDArray[np.uint64],
    z_up: npt.NDArray[np.uint64],
    z_height: npt.NDArray[np.uint64],
) -> tuple[int, int, int, np.uint64]:  # pragma: no cover - compiled
    """:func:`_child_position` for a card on the empty ``cell``, from the parent's :func:`_line_stats`.

    The cell is empty, so the other tops of its lines are all the line's tops: the check compares the card
    with the line's face-up span, and a toggle turns every occupied cell of the line.
    """
    bit = 1 << cell
    rank = card // CARDS_PER_RANK
    c_up = up | bit
    h ^= z_card[cell, rank] ^ z_height[cell, 1] ^ z_up[cell]
    for line in (cell // GRID, GRID + cell % GRID):
        others = occ & (row_mask[cell] if line < GRID else col_mask[cell])
        if others == 0:
            continue
        if stats[1, line] < 0 or rank > stats[1, line] or rank < stats[0, line]:
            c_up ^= others
            h ^= line_z[line]
    return occ | bit, c_up, buried, h


@helper
def _open_piles(height: IntArray, slot: int, occ: int) -> int:  # pragma: no cover - compiled
    """The mask of the occupied cells of ``slot`` whose pile can take another card."""
    open_piles = 0
    m = occ
    while m:
        j = _low(m)
        m &= m - 1
        if height[slot, j] < PILE_CAP:
            open_piles |= 1 << j
    return open_piles
