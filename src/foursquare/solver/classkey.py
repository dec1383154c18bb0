"""The coarser key: positions that play out alike up to turn ``k``, rows and columns in any order.

When few cards are spare, only the cards up to ``k`` are still placed, so a top's rank matters only up
to where it falls among theirs, and a pile's height only up to what it can still take. And once every
empty cell touches a card, the rules only ever look at lines: permuting rows, permuting columns or
transposing gives a position that plays out alike, so the key is taken of one image of its class
(:func:`_class_image`), chosen from the cells alone. The coarser table holds the keys of positions
that cannot win by ``k``.

A cell code (``codes[:16]``) is 0 for an empty cell that may take a card, ``LOCKED`` for one that
touches no card, ``OPENS_LOCKED`` for an empty neighbour of the one ``LOCKED`` cell, and for an occupied
cell twice its class (rank bucket, room left) plus its face. The rest of ``codes`` is work space for the
image: see ``COLUMN_VECTORS`` ... ``SORTED_COLUMN_SIGNATURES``.
"""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt

from foursquare.engine import GRID, PILE_CAP
from foursquare.solver.bits import FRAME_CELLS, FULL, IntArray, _low, _popcount
from foursquare.solver.jit import helper
from foursquare.solver.position import (
    BURIED,
    CARDS_PER_RANK,
    CODE_BITS,
    CODE_VALUES,
    FACE_UP,
    IMAGE_MARK,
    OCCUPIED,
    Z_IMAGE,
    Z_SIGNATURE,
    Z_TURN,
)

COARSE_SLACK = 2  # the coarser key is used while at most this many cards are spare
LOCKED = 1  # the code of an empty cell that touches no card
OPENS_LOCKED = CODE_VALUES - 2  # the code of an empty neighbour of the LOCKED cell
CODE_MASK = CODE_VALUES - 1
SIGNATURE_SHIFT = np.uint64(8)  # a signature term keeps the top 56 bits of a key: four of them add up without overflow
# work space in ``codes`` after the 16 cell codes
COLUMN_VECTORS = FRAME_CELLS  # the columns, as 4 codes of CODE_BITS each, sorted
ROW_SIGNATURES = COLUMN_VECTORS + GRID  # each row's signature (a sum, blind to column order)
ROW_ORDER = ROW_SIGNATURES + GRID  # the rows in the order of the image
SORTED_ROW_SIGNATURES = ROW_ORDER + GRID
SORTED_COLUMN_SIGNATURES = SORTED_ROW_SIGNATURES + GRID
CODES_SIZE = SORTED_COLUMN_SIGNATURES + GRID
ROW_ORDERS = np.array(list(itertools.permutations(range(GRID))), dtype=np.int64)
NO_KEY = np.uint64(0)  # "no coarser key": too many cards spare
ABOVE_EVERY_HASH = np.uint64((1 << 64) - 1)  # where the search for the least image starts


@helper
def _ordered_image(
    scratch: IntArray, transpose: bool, z_coarse: npt.NDArray[np.uint64]
) -> np.uint64:  # pragma: no cover - compiled
    """The hash of the image of the cell codes with the rows in the order ``scratch[ROW_ORDER:]`` and the columns
    sorted as vectors (see :func:`_image_key`)."""
    for j in range(GRID):
        v = 0
        for i in range(GRID):
            r = scratch[ROW_ORDER + i]
            v = (v << CODE_BITS) | (scratch[GRID * j + r] if transpose else scratch[GRID * r + j])
        pos = COLUMN_VECTORS + j  # insertion sort of the column vectors
        while pos > COLUMN_VECTORS and scratch[pos - 1] > v:
            scratch[pos] = scratch[pos - 1]
            pos -= 1
        scratch[pos] = v
    h = np.uint64(0)
    for j in range(GRID):
        v = scratch[COLUMN_VECTORS + j]
        for i in range(GRID - 1, -1, -1):
            h ^= z_coarse[Z_IMAGE + GRID * i + j, v & CODE_MASK]
            v >>= CODE_BITS
    return h


@helper
def _image_key(
    scratch: IntArray, transpose: bool, z_coarse: npt.NDArray[np.uint64]
) -> np.uint64:  # pragma: no cover - compiled
    """The least hash of the images of the cell codes ``scratch[:16]`` (transposed first if asked) under row
    and column permutations, over a set of images that depends only on the position's class.

    Rows are ordered by a signature that ignores column order (ties: every order of the tied rows is
    tried); given the rows' order, the columns are sorted as vectors, which is exact.
    """
    for i in range(GRID):
        total = np.int64(0)
        for j in range(GRID):
            code = scratch[GRID * j + i] if transpose else scratch[GRID * i + j]
            total += np.int64(z_coarse[Z_SIGNATURE, code] >> SIGNATURE_SHIFT)
        scratch[ROW_SIGNATURES + i] = total
        pos = ROW_ORDER + i  # insertion sort of the rows by signature
        while pos > ROW_ORDER and scratch[ROW_SIGNATURES + scratch[pos - 1]] > total:
            scratch[pos] = scratch[pos - 1]
            pos -= 1
        scratch[pos] = i
    tied = False
    for t in range(GRID - 1):
        if scratch[ROW_SIGNATURES + scratch[ROW_ORDER + t]] == scratch[ROW_SIGNATURES + scratch[ROW_ORDER + t + 1]]:
            tied = True
    if not tied:
        return _ordered_image(scratch, transpose, z_coarse)
    best = ABOVE_EVERY_HASH
    for p in range(ROW_ORDERS.shape[0]):
        ordered = True
        for t in range(GRID - 1):
            if scratch[ROW_SIGNATURES + ROW_ORDERS[p, t]] > scratch[ROW_SIGNATURES + ROW_ORDERS[p, t + 1]]:
                ordered = False
                break
        if not ordered:
            continue
        for t in range(GRID):
            scratch[ROW_ORDER + t] = ROW_ORDERS[p, t]
        h = _ordered_image(scratch, transpose, z_coarse)
        if h < best:
            best = h
    return best


@helper
def _class_image(scratch: IntArray, z_coarse: npt.NDArray[np.uint64]) -> np.uint64:  # pragma: no cover - compiled
    """The hash of the class of the cell codes ``scratch[:16]``: the least of :func:`_image_key` as they are and
    transposed, or, when their rows' signatures and their columns' differ as sorted vectors (which no row or
    column permutation changes and transposing swaps), of the way round with the smaller rows' signatures."""
    for i in range(GRID):
        row = np.int64(0)
        col = np.int64(0)
        for j in range(GRID):
            row += np.int64(z_coarse[Z_SIGNATURE, scratch[GRID * i + j]] >> SIGNATURE_SHIFT)
            col += np.int64(z_coarse[Z_SIGNATURE, scratch[GRID * j + i]] >> SIGNATURE_SHIFT)
        for base, total in ((SORTED_ROW_SIGNATURES, row), (SORTED_COLUMN_SIGNATURES, col)):  # insertion sort
            pos = base + i
            while pos > base and scratch[pos - 1] > total:
                scratch[pos] = scratch[pos - 1]
                pos -= 1
            scratch[pos] = total
    for i in range(GRID):
        rows = scratch[SORTED_ROW_SIGNATURES + i]
        cols = scratch[SORTED_COLUMN_SIGNATURES + i]
        if rows != cols:
            return _image_key(scratch, cols < rows, z_coarse)
    return min(_image_key(scratch, False, z_coarse), _image_key(scratch, True, z_coarse))


@helper
def _coarse_key(
    relaxed: bool,
    slot: int,
    k: int,
    slack: int,
    future_ranks: IntArray,
    top: IntArray,
    height: IntArray,
    state: IntArray,
    cross: IntArray,
    adjacent: IntArray,
    z_coarse: npt.NDArray[np.uint64],
    z_buried: npt.NDArray[np.uint64],
    codes: IntArray,
) -> tuple[np.uint64, np.uint64]:  # pragma: no cover - compiled
    """A coarser key for "can this position win within ``k`` cards?", when few cards are spare.

    ``slack`` is how many of the cards up to ``k`` may go on occupied piles (the others must fill the
    empty cells); ``future_ranks[slot]`` is the mask of the ranks of ``cards[slot:k]``. The cell codes
    (see the module docstring) keep a top's rank only up to where it falls among those ranks, a pile's
    height only up to the cards it can still take, capped by the slack, and with no slack, nothing of a
    top whose row and column are full (out of every empty cell's reach: never compared again). Positions
    with equal keys play out alike up to turn ``k``.

    Returns (key, class key). A position with an empty cell that touches no card (where the shape still
    matters) is keyed by its own cells (one such cell is marked, with the neighbours that open it, in
    the images instead); its class key is still that of its images. Ignoring where cards may go only
    allows more play, so when an image in which every empty cell touches a card cannot win, no image
    can: such a position is also looked up by its class key, but never stored under it. With
    ``relaxed`` (the relaxed search, where any empty cell may take a card) every position is keyed by
    its class.
    """
    occ = state[slot, OCCUPIED]
    up = state[slot, FACE_UP]
    future = future_ranks[slot]
    reach = FULL
    if slack == 0:
        reach = 0
        m = FULL & ~occ
        while m:
            j = _low(m)
            m &= m - 1
            reach |= cross[j]
    codes[:FRAME_CELLS] = 0
    m = occ
    while m:
        j = _low(m)
        m &= m - 1
        code = 1
        if (reach >> j) & 1:
            r = top[slot, j] // CARDS_PER_RANK
            bucket = 2 * _popcount(future & ((1 << r) - 1)) + ((future >> r) & 1) + 1
            room = min(PILE_CAP - height[slot, j], slack)
            code = 1 + bucket * (PILE_CAP + 1) + room
        codes[j] = 2 * code + ((up >> j) & 1)
    h = z_buried[state[slot, BURIED]] ^ z_coarse[Z_TURN + slot, slack]
    locked = 0  # the empty cells that touch no card (none count when any empty cell may take a card)
    m = FULL & ~occ if not relaxed else 0
    while m:
        j = _low(m)
        m &= m - 1
        if adjacent[j] & occ == 0:
            locked |= 1 << j
    class_key = np.uint64(h ^ z_coarse[Z_SIGNATURE, IMAGE_MARK] ^ _class_image(codes, z_coarse))
    if locked == 0:
        return class_key, class_key
    if locked & (locked - 1) == 0:
        # One such cell: it opens when one of its empty neighbours is filled. Marking it and them in the
        # cells describes where cards may go from now on, whatever the shape, so the images still agree.
        x = _low(locked)
        codes[x] = LOCKED
        m = adjacent[x] & ~occ
        while m:
            codes[_low(m)] = OPENS_LOCKED
            m &= m - 1
        return np.uint64(h ^ z_coarse[Z_SIGNATURE, IMAGE_MARK] ^ _class_image(codes, z_coarse)), class_key
    for j in range(FRAME_CELLS):
        h ^= z_coarse[j, codes[j]]
    return np.uint64(h), class_key


@helper
def _coarse_key_if_few_spare(
    relaxed: bool,
    slot: int,
    k: int,
    future_ranks: IntArray,
    top: IntArray,
    height: IntArray,
    state: IntArray,
    cross: IntArray,
    adjacent: IntArray,
    z_coarse: npt.NDArray[np.uint64],
    z_buried: npt.NDArray[np.uint64],
    codes: IntArray,
) -> tuple[np.uint64, np.uint64]:  # pragma: no cover - compiled
    """:func:`_coarse_key` of the built position in ``slot``, or ``NO_KEY`` twice when more than
    ``COARSE_SLACK`` cards are spare."""
    slack = k - slot - _popcount(FULL & ~state[slot, OCCUPIED])
    if slack > COARSE_SLACK:
        return NO_KEY, NO_KEY
    return _coarse_key(relaxed, slot, k, slack, future_ranks, top, height, state, cross, adjacent, z_coarse,
                       z_buried, codes)


@helper
def _coarse_hit(
    coarse_table: npt.NDArray[np.uint64], key: np.uint64, class_key: np.uint64
) -> bool:  # pragma: no cover - compiled
    """Is a position with these keys (:func:`_coarse_key`) known not to win? Its class refutes it too."""
    mask = coarse_table.shape[0] - 1
    return bool(coarse_table[key & mask] == key or (class_key != key and coarse_table[class_key & mask] == class_key))


@helper
def _fill_future_ranks(cards: IntArray, k: int, future_ranks: IntArray) -> None:  # pragma: no cover - compiled
    """``future_ranks[slot]``: the mask of the ranks of ``cards[slot:k]`` (see :func:`_coarse_key`)."""
    future_ranks[k:] = 0
    for slot in range(k - 1, -1, -1):
        future_ranks[slot] = future_ranks[slot + 1] | (1 << (cards[slot] // CARDS_PER_RANK))
