"""The compiled rules: which cells are legal, what placing a card does, and when the game ends.

They re-implement the engine's rules (:mod:`foursquare.engine`) on the state of
:mod:`foursquare.kernel.state`, with the engine's constants; the differential tests in
``tests/test_kernel.py`` check that both play the same game.

What a move runs is inlined into its callers by numba (``inline="always"``): a call between compiled
functions passes every array as seven machine words and checks its reference count, which cost about as much as
the rules themselves (``benchmarks/kernel_parts.py`` times ``place``; docs/performance.md has the figures).
"""

from __future__ import annotations

import numpy as np

from foursquare.cards import DECK_SIZE
from foursquare.engine import MAX_FACE_DOWN, PILE_CAP, WINNING_CELLS
from foursquare.jitcache import njit
from foursquare.kernel.state import (
    AREA_CELLS,
    AREA_SIDE,
    BURIED_FACE_DOWN,
    COUNT_BURIED_FLAG,
    DIAGONAL_FLAG,
    FACE_DOWN_TOPS,
    MAX_COL,
    MAX_ROW,
    MIN_COL,
    MIN_ROW,
    OCCUPIED,
    ORIGIN_CELL,
    PILE_BURIED,
    PILE_HEIGHT,
    RANK_COUNT,
    REACH,
    SCORE,
    STATUS,
    STATUS_LOST_FACE_DOWN,
    STATUS_LOST_STOCK,
    STATUS_PLAYING,
    STATUS_WON,
    SUIT_COUNT,
    TOP_CARD,
    TOP_FACE_UP,
    TURN,
    Array,
    IntArray,
)

#: What :func:`line_tops` leaves out to count every cell of a line: no cell's index.
NO_CELL = AREA_CELLS
# Unsigned indices for the line scans: numba checks a signed index for a negative value on every access.
_TOP = np.uint64(TOP_CARD)
_FACE = np.uint64(TOP_FACE_UP)


@njit(cache=True, inline="always")
def rank_of(card: int) -> int:
    """The rank (1 for an ace up to :data:`RANK_COUNT`) of a card."""
    return card // SUIT_COUNT + 1


@njit(cache=True)
def _adjacent(state: Array, cell: int) -> bool:
    """Whether an occupied cell touches ``cell`` (diagonally too in the diagonal variant)."""
    s = AREA_SIDE
    if state[cell - s] >= 0 or state[cell + s] >= 0 or state[cell - 1] >= 0 or state[cell + 1] >= 0:
        return True
    return bool(state[DIAGONAL_FLAG]) and (
        state[cell - s - 1] >= 0 or state[cell - s + 1] >= 0 or state[cell + s - 1] >= 0 or state[cell + s + 1] >= 0
    )


@njit(cache=True)
def legal(state: Array, out: IntArray) -> int:
    """Write the legal cells, in (row, col) order, into ``out``; return how many.

    Only cells within :data:`REACH` rows and columns of both ends of the occupied box keep it within
    the grid, so the scan covers that window alone.
    """
    if state[STATUS] != STATUS_PLAYING:
        return 0
    if state[OCCUPIED] == 0:
        out[0] = ORIGIN_CELL
        return 1
    n = 0
    for r in range(state[MAX_ROW] - REACH, state[MIN_ROW] + REACH + 1):
        base = r * AREA_SIDE
        for c in range(state[MAX_COL] - REACH, state[MIN_COL] + REACH + 1):
            cell = base + c
            if state[TOP_CARD + cell] >= 0:
                if state[PILE_HEIGHT + cell] < PILE_CAP:
                    out[n] = cell
                    n += 1
            elif _adjacent(state, cell):
                out[n] = cell
                n += 1
    return n


@njit(cache=True, inline="always")
def line_tops(state: Array, skip: int, first: int, step: int, count: int) -> tuple[int, int, int, int]:
    """Face-up and face-down tops of the line ``first, first + step, …`` (``count`` cells), ``skip`` left out
    (:data:`NO_CELL`: none), and the highest and lowest face-up rank (0 and ``RANK_COUNT + 1`` when none is
    face up)."""
    n_up = 0
    n_down = 0
    up_max = 0
    up_min = RANK_COUNT + 1
    other, stride, left_out = np.uint64(first), np.uint64(step), np.uint64(skip)
    for _ in range(count):
        if other != left_out and state[_TOP + other] >= 0:
            # Face up or down without a branch (a coin toss for the predictor): a face-down top moves neither bound.
            up = state[_FACE + other]
            r = rank_of(state[_TOP + other])
            n_up += up
            n_down += 1 - up
            up_max = max(up_max, r * up)
            up_min = min(up_min, r + (1 - up) * RANK_COUNT)
        other += stride
    return n_up, n_down, up_max, up_min


@njit(cache=True, inline="always")
def _line_check(state: Array, cell: int, rank: int, first: int, step: int, count: int) -> tuple[bool, int]:
    """The row or column check of placing a card of ``rank`` at ``cell``, without changing ``state``.

    The line is ``first, first + step, …`` (``count`` cells) through ``cell``. Returns whether the
    other tops turn over and by how much that changes the number of face-down tops.
    """
    n_up, n_down, up_max, up_min = line_tops(state, cell, first, step, count)
    # With no top face up, up_max is 0 and up_min RANK_COUNT + 1, so every rank lies beyond them: the case
    # "every other top faces down" needs no test of its own. Written without branches (a placement's
    # checks fire about half the time, which a branch predictor cannot learn).
    fires = (n_up + n_down > 0) & ((rank > up_max) | (rank < up_min))
    return fires, (n_up - n_down) * fires


@njit(cache=True, inline="always")
def _flip_line(state: Array, cell: int, rank: int, first: int, step: int, count: int) -> None:
    """Apply the row or column check of a placement: turn the other tops over when the card is extreme."""
    fires, delta = _line_check(state, cell, rank, first, step, count)
    other, stride, own = np.uint64(first), np.uint64(step), np.uint64(cell)  # unsigned, as in line_tops
    for _ in range(count):  # every occupied cell but the card's own turns over when the check fires
        state[_FACE + other] ^= fires & (other != own) & (state[_TOP + other] >= 0)
        other += stride
    state[FACE_DOWN_TOPS] += delta


@njit(cache=True, inline="always")
def face_down(state: Array, tops: int, buried: int) -> int:
    """Face-down cards counting towards the limit: the tops, and the buried ones when the variant counts them."""
    return tops + (buried if state[COUNT_BURIED_FLAG] else 0)


@njit(cache=True, inline="always")
def _verdict(occupied: int, tops_down: int, down: int, turn: int) -> int:
    """The status after a move that leaves ``occupied`` cells, ``tops_down`` face-down tops and ``down``
    face-down cards counting towards the limit, ``turn`` cards having been laid."""
    if occupied == WINNING_CELLS and tops_down == 0:
        return STATUS_WON
    if down > MAX_FACE_DOWN:
        return STATUS_LOST_FACE_DOWN
    if turn == DECK_SIZE:
        return STATUS_LOST_STOCK
    return STATUS_PLAYING


@njit(cache=True, inline="always")
def _judge(state: Array) -> None:
    """Set the status (and the score of a win: the cards left in the stock) after a move."""
    down = face_down(state, state[FACE_DOWN_TOPS], state[BURIED_FACE_DOWN])
    status = _verdict(state[OCCUPIED], state[FACE_DOWN_TOPS], down, state[TURN])
    if status != STATUS_PLAYING:
        state[STATUS] = status
    if status == STATUS_WON:
        state[SCORE] = DECK_SIZE - state[TURN]


@njit(cache=True, inline="always")
def place(state: Array, cell: int, card: int) -> None:
    """Place ``card`` at ``cell`` (which must be legal) and judge the position."""
    r = cell // AREA_SIDE
    c = cell % AREA_SIDE
    # Counted without branches, as in the line checks: whether the card covers a pile is a coin toss.
    covers = state[TOP_CARD + cell] >= 0
    buries = covers & (state[TOP_FACE_UP + cell] == 0)  # covering a face-down top buries it
    state[PILE_BURIED + cell] += buries
    state[BURIED_FACE_DOWN] += buries
    state[FACE_DOWN_TOPS] -= buries
    state[OCCUPIED] += not covers
    state[MIN_ROW] = min(state[MIN_ROW], r)  # a covered pile already lies inside the box
    state[MAX_ROW] = max(state[MAX_ROW], r)
    state[MIN_COL] = min(state[MIN_COL], c)
    state[MAX_COL] = max(state[MAX_COL], c)
    state[TOP_CARD + cell] = card
    state[TOP_FACE_UP + cell] = 1
    state[PILE_HEIGHT + cell] += 1
    rank = rank_of(card)
    _flip_line(state, cell, rank, r * AREA_SIDE + state[MIN_COL], 1, state[MAX_COL] - state[MIN_COL] + 1)
    _flip_line(state, cell, rank, state[MIN_ROW] * AREA_SIDE + c, AREA_SIDE, state[MAX_ROW] - state[MIN_ROW] + 1)
    state[TURN] += 1
    _judge(state)


@njit(cache=True)
def evaluate(state: Array, cell: int, card: int) -> tuple[int, int, int]:
    """What placing ``card`` at ``cell`` would give, without changing ``state``.

    Returns (status after the move, face-down cards counting towards the limit, occupied cells).
    """
    r = cell // AREA_SIDE
    c = cell % AREA_SIDE
    tops_down = state[FACE_DOWN_TOPS]
    buried = state[BURIED_FACE_DOWN]
    occupied = state[OCCUPIED]
    if state[TOP_CARD + cell] >= 0:
        if state[TOP_FACE_UP + cell] == 0:
            tops_down -= 1
            buried += 1
    else:
        occupied += 1
    rank = rank_of(card)
    c_lo = min(state[MIN_COL], c)
    c_hi = max(state[MAX_COL], c)
    r_lo = min(state[MIN_ROW], r)
    r_hi = max(state[MAX_ROW], r)
    tops_down += _line_check(state, cell, rank, r * AREA_SIDE + c_lo, 1, c_hi - c_lo + 1)[1]
    tops_down += _line_check(state, cell, rank, r_lo * AREA_SIDE + c, AREA_SIDE, r_hi - r_lo + 1)[1]
    down = face_down(state, tops_down, buried)
    return _verdict(occupied, tops_down, down, state[TURN] + 1), down, occupied
