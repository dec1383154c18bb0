"""The parity bound: can the tops still all turn face up by toggles of lines, or is a card on a pile needed?

Without new cards on occupied piles, a top at (r, c) is turned over only by the toggles of row r and
of column c, and every top of a line turns with it. With X_r (Y_c) the parity of row r's (column c's)
toggles to come, each face-down top needs X_r + Y_c = 1 and each face-up top X_r + Y_c = 0. With eight
unknowns the system is kept as the set of the 256 choices of the line parities that solve it (four
64-bit words, ``PARITY_SET_WORDS``): each equation is one AND with a precomputed mask (``LINKS``), and
the system has a solution while the set is not empty.
"""

from __future__ import annotations

import numpy as np

from foursquare.engine import GRID
from foursquare.solver.bits import (
    COLUMN_CELLS,
    FRAME_CELLS,
    FULL,
    LINES,
    ROW_CELLS,
    IntArray,
    Words,
    _full_lines,
    _low,
    _popcount,
)
from foursquare.solver.jit import helper

GROUND = LINES  # the ninth node of the system, whose parity is always 0: "line = ground" fixes a parity
PARITY_SET_WORDS = 4  # 256 choices of the eight line parities, 64 to a word
ROW_TOPS = PARITY_SET_WORDS  # parities[4:20]: per row, the tops' equations ANDed (work space of _mending_piles)
PARITY_WORDS = ROW_TOPS + GRID * PARITY_SET_WORDS  # of a parity system's array: the system, then work space
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)  # a word of the set with every choice in it


def _link_masks() -> Words:
    """``LINKS[a, b, want]``: the choices of the eight line parities (bit x of the 256-bit set, 4 words: line
    ``l``'s parity is bit ``l`` of x; rows 0-3, columns 4-7, ``GROUND`` always 0) with a + b = want."""
    links = np.zeros((LINES + 1, LINES + 1, 2, PARITY_SET_WORDS), dtype=np.uint64)
    for a in range(LINES + 1):
        for b in range(LINES + 1):
            for x in range(1 << LINES):
                want = ((x >> a) & 1 if a < LINES else 0) ^ ((x >> b) & 1 if b < LINES else 0)
                links[a, b, want, x >> 6] |= np.uint64(1 << (x & 63))
    return links


LINKS = _link_masks()
# TOPS[j, want]: the equation of the top on cell j, "its row's parity + its column's = want"
TOPS = np.array([[LINKS[j // GRID, GRID + j % GRID, want] for want in range(2)] for j in range(FRAME_CELLS)])


@helper
def _unite(parities: Words, a: int, b: int, want: int) -> bool:  # pragma: no cover - compiled
    """Add "parity of a + parity of b = want" to the parity system ``parities`` — the set of the choices of the
    eight line parities that solve it so far (see ``LINKS``); False if no choice is left."""
    for w in range(PARITY_SET_WORDS):
        parities[w] &= LINKS[a, b, want, w]
    return bool((parities[0] | parities[1] | parities[2] | parities[3]) != 0)


@helper
def _reset_lines(
    occ: int, free_row: int, free_col: int, odd: int, parities: Words
) -> None:  # pragma: no cover - compiled
    """Start the parity system of :func:`_toggles_possible`: lines 0-3 (rows), 4-7 (columns), ``GROUND``."""
    for w in range(PARITY_SET_WORDS):
        parities[w] = ALL
    empty = FULL & ~occ
    for line in range(LINES):
        if line < GRID:
            has = (empty >> (GRID * line)) & ROW_CELLS or (free_row >> line) & 1
        else:
            c = line - GRID
            has = (empty >> c) & COLUMN_CELLS or (free_col >> c) & 1
        if not has:
            _unite(parities, line, GROUND, (odd >> line) & 1)


@helper
def _and_tops(
    cells: int, up: int, w0: np.uint64, w1: np.uint64, w2: np.uint64, w3: np.uint64
) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:  # pragma: no cover - compiled
    """The parity system ``w0..w3`` (see :func:`_unite`) with the equations of the tops on ``cells`` added."""
    m = cells
    while m:
        j = _low(m)
        m &= m - 1
        want = 0 if (up >> j) & 1 else 1
        w0 &= TOPS[j, want, 0]
        w1 &= TOPS[j, want, 1]
        w2 &= TOPS[j, want, 2]
        w3 &= TOPS[j, want, 3]
    return w0, w1, w2, w3


@helper
def _tops_fit(occ: int, up: int, skip: int, parities: Words) -> bool:  # pragma: no cover - compiled
    """Add every occupied top's equation but ``skip``'s (see :func:`_toggles_possible`); False on a contradiction."""
    w0, w1, w2, w3 = _and_tops(occ & ~skip, up, parities[0], parities[1], parities[2], parities[3])
    parities[0] = w0
    parities[1] = w1
    parities[2] = w2
    parities[3] = w3
    return bool((w0 | w1 | w2 | w3) != 0)


@helper
def _toggles_possible(
    occ: int, up: int, free_row: int, free_col: int, skip: int, odd: int, parities: Words
) -> bool:  # pragma: no cover - compiled
    """Can some choice of line toggles turn every occupied top (but ``skip``) face up?

    The system of the module docstring. A line with no empty cell (and not freed by ``free_row``/``free_col``)
    has no toggle to come: it is tied to ``GROUND``, with parity 0, or 1 when its bit is set in ``odd``
    (bits 0-3 rows, 4-7 columns: one known toggle to come).
    """
    _reset_lines(occ, free_row, free_col, odd, parities)
    return _tops_fit(occ, up, skip, parities)


@helper
def _lower_bound(
    occ: int, up: int, open_piles: int, parities: Words, enough: int, solvable: int = -1
) -> int:  # pragma: no cover - compiled
    """Placements still needed at least before all 16 tops can be face up (0 only when won).

    Every empty cell needs a card. If the tops cannot all end face up by toggles of lines through
    empty cells alone, a card must go on an occupied pile; if one such card (which toggles its own
    row and column and covers one of the ``open_piles``, those with room) cannot repair it either,
    two are needed. The second test is skipped when one more card than the empty cells already reaches
    ``enough``. ``solvable`` is 1 or 0 when the caller already knows whether the parity system has a
    solution, -1 when it does not.
    """
    n_empty = _popcount(FULL & ~occ)
    if solvable == 1 or (solvable < 0 and _toggles_possible(occ, up, 0, 0, 0, 0, parities)):
        return n_empty
    if n_empty + 1 >= enough:
        return n_empty + 1
    return n_empty + 1 if _mending_piles(occ, up, open_piles, parities, True) else n_empty + 2


@helper
def _fill_keeps_solution(
    cell: int,
    occ: int,
    up: int,
    c_occ: int,
    c_up: int,
    row_mask: IntArray,
    col_mask: IntArray,
    saved: Words,
    parities: Words,
) -> int:  # pragma: no cover - compiled
    """1 if the parity system of the child where a card filled the empty ``cell`` has a solution, else 0.

    ``saved`` holds the parent's parity system, which has a solution. In the parent's unknowns (the
    toggles from the parent on), the child's system is the parent's plus three equations at most: the new
    top's, X_r + Y_c = (row fired) + (column fired), and for each of its lines that the card completes,
    that the line toggles no more after it: X = (fired). (A line's toggle turns every other top of it,
    which only shifts that line's unknown.)
    """
    for w in range(PARITY_SET_WORDS):
        parities[w] = saved[w]
    r = cell // GRID
    c = cell % GRID
    fired_row = 1 if (c_up ^ up) & occ & row_mask[cell] else 0
    fired_col = 1 if (c_up ^ up) & occ & col_mask[cell] else 0
    if not _unite(parities, r, GRID + c, fired_row ^ fired_col):
        return 0
    if (c_occ >> (GRID * r)) & ROW_CELLS == ROW_CELLS and not _unite(parities, r, GROUND, fired_row):
        return 0
    if (c_occ >> c) & COLUMN_CELLS == COLUMN_CELLS and not _unite(parities, GRID + c, GROUND, fired_col):
        return 0
    return 1


@helper
def _mending_piles(
    occ: int, up: int, open_piles: int, parities: Words, first: bool = False
) -> int:  # pragma: no cover - compiled
    """The ``open_piles`` where one card could mend a parity system that has no solution (:func:`_lower_bound`);
    with ``first``, only the first found.

    A fill only adds equations to the system (the toggles it makes are absorbed by its lines' unknowns,
    and its own top and the lines it completes add equations), so a pile that cannot mend the system
    now cannot mend it after any fills either.

    For a pile ``j`` the system is :func:`_toggles_possible` with ``j``'s row and column freed and ``j``'s own
    equation left out: the tops' equations of the other rows (ANDed once per row, kept in
    ``parities[ROW_TOPS:]``), those of ``j``'s row but ``j``'s, and the ground ties of the full lines but ``j``'s.
    """
    full_rows, full_cols = _full_lines(occ)
    full_lines = full_rows | (full_cols << GRID)
    for r in range(GRID):
        base = ROW_TOPS + PARITY_SET_WORDS * r
        parities[base], parities[base + 1], parities[base + 2], parities[base + 3] = _and_tops(
            occ & (ROW_CELLS << (GRID * r)), up, ALL, ALL, ALL, ALL
        )
    mend = 0
    m = occ & open_piles
    while m:
        j = _low(m)
        m &= m - 1
        r = j // GRID
        c = j % GRID
        w0 = ALL
        w1 = ALL
        w2 = ALL
        w3 = ALL
        for x in range(GRID):
            if x != r:
                base = ROW_TOPS + PARITY_SET_WORDS * x
                w0 &= parities[base]
                w1 &= parities[base + 1]
                w2 &= parities[base + 2]
                w3 &= parities[base + 3]
        w0, w1, w2, w3 = _and_tops(occ & (ROW_CELLS << (GRID * r)) & ~(1 << j), up, w0, w1, w2, w3)
        lines = full_lines & ~((1 << r) | (1 << (GRID + c)))
        while lines:
            line = _low(lines)
            lines &= lines - 1
            w0 &= LINKS[line, GROUND, 0, 0]
            w1 &= LINKS[line, GROUND, 0, 1]
            w2 &= LINKS[line, GROUND, 0, 2]
            w3 &= LINKS[line, GROUND, 0, 3]
        if w0 | w1 | w2 | w3:
            mend |= 1 << j
            if first:
                return mend
    return mend
