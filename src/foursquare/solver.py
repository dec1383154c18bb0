"""Perfect-information solver: the best score reachable when the whole stock order is known.

The question "what is the best score of this deal?" is "what is the smallest number of cards
after which all 16 cells can be face up?". The solver answers it with an IDA*-style iterative
deepening search, compiled with numba:

* **Frames.** A won game fills a 4×4 box, so every winning line stays inside one 4×4 *frame*.
  The solver searches each frame separately, in fixed frame coordinates (cell ``i = 4 * row +
  col``), where rows and columns never move. From the first card there are 16 frames, but the
  rules are symmetric under the square's 8 symmetries, so three suffice: the first card in a
  corner, on an edge, or in the middle; the corner and middle frames also use the diagonal
  mirror while the position is symmetric.
* **Lower bound.** Every empty cell needs a card. Without cards on occupied piles, a top turns
  over only with the toggles of its row and its column, so the parities of the toggles still to
  come must solve a small linear system (face-down tops odd, face-up tops even; a line without an
  empty cell has none to come); when it has no solution at least one card must go on an occupied
  pile, and two when no single such card can mend it (see :func:`_toggles_possible`).
* **Ranks, when at most one card is spare.** The parity test knows where a card on a pile may go,
  not which card it is. With one spare card needed on a pile, the card must also be one of the
  cards to come whose rank can fire (or leave) the full lines it must toggle (or not), given the
  faces that cannot change before it comes (:func:`_one_pile_card_can_mend`); and a line with one
  empty cell has exactly one chance to toggle, which the ranks to come may force one way
  (:func:`_one_chance_lines`, also used with no spare card: :func:`_fills_can_toggle`).
* **Iterative deepening.** Iteration ``k`` looks for a win after at most ``k`` placements and
  returns, when there is none, the least number of placements its cut-off nodes still allowed;
  that is the next ``k``. Positions that cannot win by ``k`` are kept in a transposition table
  (keyed by a Zobrist hash of the frame position: top ranks, faces, heights; the turn is the sum of
  the heights), with that lower bound, so the next iteration skips them; lost positions store
  "never". While at most two cards are spare, a coarser second table also applies
  (:func:`_tight_key`).
* **Rows and columns in any order; relaxed proofs.** The rules only look at lines, so once every
  empty cell touches a card a position plays out like all its row, column and transposed images,
  and the coarser table keys it by that class (:func:`_tight_key`). From ``RELAX_FROM`` cards on the
  deepening lets a card go on any empty cell of the frame: that only allows more play, so what it
  refutes is refuted by the rules too, and every position is then keyed by its class; a win found
  that way is checked and, if it breaks the rules, the iteration is searched again by the rules.
* **Children from masks.** Most children are settled at once (won, lost, cut by the bound or a
  table), so each is first worked out from its parent's masks and hash alone
  (:func:`_child_position`); its arrays are built only when it stays open.
* **Ordering and probe.** Children are tried by their own lower bound, then by fewest face-down
  cards. A short probe first looks for any win, then better ones, with small node budgets: a line
  to show if time runs out, and often the optimum, which spares the longest iterations.
* **Threads.** The deepening can run on several threads sharing the tables, each searching its own
  share of the positions a few moves deep (:func:`_search`); one thread with a node budget, so
  that a budget gives the same answer on any machine.

The solver never decides a rule on its own: every line it returns is replayed through
:class:`foursquare.engine.Game` before it is reported, and the tests compare it with a brute-force
search over the engine. ``solve`` is given the whole stock, so it is only for analysis after a
game, for choosing winnable deals, and for the ``solve`` command; no player calls it.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt
from llvmlite import ir
from numba.core import cgutils
from numba.extending import intrinsic

from foursquare import record
from foursquare.cards import DECK_SIZE, MAX_DEAL, Card, deal_stock
from foursquare.engine import GRID, MAX_FACE_DOWN, PILE_CAP, Game, Move, Variant

Status = Literal["optimal", "unwinnable", "bounds"]
IntArray = npt.NDArray[np.int64]
Words = npt.NDArray[np.uint64]

CELLS = GRID * GRID
FULL = (1 << CELLS) - 1
INF = DECK_SIZE + 1  # "no win is possible": a lower bound on the winning turn past the last card
ABORTED = -2
TT_BITS = 21
TIGHT_BITS = 24  # the coarser table is hit far more often since its keys ignore row and column order
CHECK_EVERY = 1 << 14  # nodes between two looks at the clock and the node budget
NO_NODE_LIMIT = 1 << 62
PROBE_NODES = 1 << 15  # per frame and step of the probe
PROBE_SHARE = 0.1  # of the time, at most, for the probe
TIGHT_SLACK = 2  # the coarser key is used while at most this many cards are spare
# A transposition-table entry is one 64-bit word, written and read whole, so that threads sharing
# the table never see one position's key with another's bound: the low 56 bits of the position's
# hash, and the bound above them.
TT_SHIFT = np.uint64(56)
TT_KEY = np.uint64((1 << 56) - 1)
RELAX_FROM = 8  # the deepening lets a card go on any empty cell of the frame from this turn on (see _search)
EXACT = DECK_SIZE + 2  # ... or never
SPLIT_DEPTH = 5  # with several threads, each searches its own share of the positions this deep

# --- user-facing text (one place, for translation) ---------------------------------------------------

TEXT = {
    "optimal": "optimal: no line scores more",
    "unwinnable": "unwinnable: no sequence of placements wins from here",
    "bounds": "time ran out: bounds only",
    "best": "best score found",
    "none": "none",
    "upper": "no line scores more than",
    "line": "line",
    "time": "time",
    "nodes": "nodes searched",
    "deal": "deal",
    "from_record": "from the position the record reaches (turn {turn})",
    "no_winnable": "no deal proven winnable within {tries} tries; try again or raise --timeout",
    "bad_moves": "move {index} ({row}, {col}) is illegal: {error}",
    "stock_size": "the stock must hold the 40 cards, not {n}",
    "timeout": "timeout must be a positive number of seconds, not {value!r}",
    "max_nodes": "the node budget must be a positive number, not {value!r}",
    "threads": "the number of threads must be a positive number, not {value!r}",
}


DEFAULT_VARIANT = Variant()


class SolverError(ValueError):
    """The solver was asked about an impossible position or with bad limits."""


# --- the compiled search ----------------------------------------------------------------------------


_Function = TypeVar("_Function", bound=Callable[..., Any])


def _helper(function: _Function) -> _Function:
    """Compile one of the search's helpers without numba's reference counting (``_nrt=False``).

    They never allocate, and with it every call increments and decrements the count of each array
    it is passed, with atomic instructions: a third of the search's time, measured with ``perf``.
    """
    return cast(_Function, numba.njit(cache=True, _nrt=False)(function))  # type: ignore[call-overload]


_POP16 = np.array([bin(x).count("1") for x in range(1 << CELLS)], dtype=np.int64)
_DEBRUIJN = np.array([0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
                      31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9], dtype=np.int64)


@intrinsic
def _prefetch_intrinsic(typingctx: Any, table: Any, index: Any) -> Any:  # pragma: no cover - compiled
    """Start loading ``table[index]`` into the cache (LLVM's prefetch: a hint, it never faults).

    The tables are far larger than the cache, so a lookup waits for memory; the search asks for the
    entries of all of a position's children first and looks them up after.
    """

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        array_type = signature.args[0]
        array = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(  # type: ignore[no-untyped-call]
            context, builder, array_type, array, [args[1]], wraparound=False
        )
        raw = builder.bitcast(pointer, cgutils.voidptr_t)
        i32 = ir.IntType(32)
        name = "llvm.prefetch." + ("p0" if getattr(raw.type, "is_opaque", False) else "p0i8")
        function = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
            builder.module, ir.FunctionType(ir.VoidType(), [cgutils.voidptr_t, i32, i32, i32]), name
        )
        builder.call(function, [raw, i32(0), i32(3), i32(1)])  # read, keep in all cache levels, data
        return context.get_dummy_value()

    return numba.types.void(table, index), codegen


_prefetch = cast(Callable[[npt.NDArray[np.uint64], Any], None], _prefetch_intrinsic)


@_helper
def _popcount(x: int) -> int:  # pragma: no cover - compiled
    """Set bits of a 16-bit mask."""
    return int(_POP16[x & FULL])


@_helper
def _low(x: int) -> int:  # pragma: no cover - compiled
    """Index of the lowest set bit of a non-zero mask below 2**32 (de Bruijn multiplication)."""
    return int(_DEBRUIJN[(((x & -x) * 0x077CB531) >> 27) & 31])


@numba.njit(cache=True)
def _now() -> float:  # pragma: no cover - compiled
    with numba.objmode(t="float64"):
        t = time.perf_counter()
    return t


@_helper
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
    occ = state[src, 0]
    up = state[src, 1]
    buried = state[src, 2]
    h = hashes[src]
    bit = 1 << cell
    new_height = height[src, cell] + 1
    if occ & bit:
        h ^= z_card[cell, top[src, cell] // 4] ^ z_height[cell, height[src, cell]]
        if up & bit:
            h ^= z_up[cell]
        elif count_buried:
            h ^= z_buried[buried] ^ z_buried[buried + 1]
            buried += 1
    occ |= bit
    up |= bit
    h ^= z_card[cell, card // 4] ^ z_height[cell, new_height] ^ z_up[cell]
    rank = card // 4
    for line in range(2):
        others = occ & (row_mask[cell] if line == 0 else col_mask[cell])
        if others == 0:
            continue
        shown = others & up
        turn_over = shown == 0
        if not turn_over:
            lo = 99
            hi = -1
            m = shown
            while m:
                j = _low(m)
                m &= m - 1
                r = top[src, j] // 4  # ``others`` never holds ``cell``: the parent's tops
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


@_helper
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
    :func:`_child_position` worked out. ``state[slot]`` holds (occupied mask, face-up mask, buried face-down count).
    """
    for j in range(16):
        top[dst, j] = top[src, j]
        height[dst, j] = height[src, j]
    top[dst, cell] = card
    height[dst, cell] += 1
    state[dst, 0] = occ
    state[dst, 1] = up
    state[dst, 2] = buried
    hashes[dst] = h


@_helper
def _line_stats(
    slot: int, occ: int, up: int, top: IntArray, z_up: npt.NDArray[np.uint64], stats: IntArray,
    line_z: npt.NDArray[np.uint64],
) -> None:  # pragma: no cover - compiled
    """For each line (rows 0-3, columns 4-7) of position ``slot``: the lowest and highest rank of its face-up
    tops (``stats[0]``, ``stats[1]``; 99 and -1 when none) and the XOR of ``z_up`` over its occupied cells."""
    for line in range(2 * GRID):
        stats[0, line] = 99
        stats[1, line] = -1
        line_z[line] = 0
    m = occ
    while m:
        j = _low(m)
        m &= m - 1
        for line in (j // GRID, GRID + j % GRID):
            line_z[line] ^= z_up[j]
            if (up >> j) & 1:
                r = top[slot, j] // 4
                stats[0, line] = min(stats[0, line], r)
                stats[1, line] = max(stats[1, line], r)


@_helper
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
    rank = card // 4
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


def _link_masks() -> Words:
    """``LINKS[a, b, want]``: the choices of the eight line parities (bit x of the 256-bit set, 4 words: line
    ``l``'s parity is bit ``l`` of x; rows 0-3, columns 4-7, 8 the ground, always 0) with a + b = want."""
    links = np.zeros((9, 9, 2, 4), dtype=np.uint64)
    for a in range(9):
        for b in range(9):
            for x in range(256):
                want = ((x >> a) & 1 if a < 8 else 0) ^ ((x >> b) & 1 if b < 8 else 0)
                links[a, b, want, x >> 6] |= np.uint64(1 << (x & 63))
    return links


LINKS = _link_masks()
# TOPS[j, want]: the equation of the top on cell j, "its row's parity + its column's = want"
TOPS = np.array([[LINKS[j // GRID, GRID + j % GRID, want] for want in range(2)] for j in range(CELLS)])
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
PARITY_WORDS = 20  # of a parity system's array: the system, then work space of _mending_piles


@_helper
def _unite(parities: Words, a: int, b: int, want: int) -> bool:  # pragma: no cover - compiled
    """Add "parity of a + parity of b = want" to the parity system ``parities`` — the set of the choices of the
    eight line parities that solve it so far (see ``LINKS``); False if no choice is left."""
    for w in range(4):
        parities[w] &= LINKS[a, b, want, w]
    return bool((parities[0] | parities[1] | parities[2] | parities[3]) != 0)


@_helper
def _reset_lines(
    occ: int, free_row: int, free_col: int, odd: int, parities: Words
) -> None:  # pragma: no cover - compiled
    """Start the parity system of :func:`_toggles_possible`: lines 0-3 (rows), 4-7 (columns), 8 the ground."""
    for w in range(4):
        parities[w] = ALL
    empty = FULL & ~occ
    for line in range(8):
        if line < 4:
            has = (empty >> (4 * line)) & 0xF or (free_row >> line) & 1
        else:
            c = line - 4
            has = (empty >> c) & 0x1111 or (free_col >> c) & 1
        if not has:
            _unite(parities, line, 8, (odd >> line) & 1)


@_helper
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


@_helper
def _tops_fit(occ: int, up: int, skip: int, parities: Words) -> bool:  # pragma: no cover - compiled
    """Add every occupied top's equation but ``skip``'s (see :func:`_toggles_possible`); False on a contradiction."""
    w0, w1, w2, w3 = _and_tops(occ & ~skip, up, parities[0], parities[1], parities[2], parities[3])
    parities[0] = w0
    parities[1] = w1
    parities[2] = w2
    parities[3] = w3
    return bool((w0 | w1 | w2 | w3) != 0)


@_helper
def _toggles_possible(
    occ: int, up: int, free_row: int, free_col: int, skip: int, odd: int, parities: Words
) -> bool:  # pragma: no cover - compiled
    """Can some choice of line toggles turn every occupied top (but ``skip``) face up?

    Without new cards on occupied piles, a top at (r, c) is turned over only by the toggles of row r
    and of column c, and every top of a line turns with it; so with X_r (Y_c) the parity of row r's
    (column c's) toggles to come, each face-down top needs X_r + Y_c = 1 and each face-up top
    X_r + Y_c = 0. A line with no empty cell (and not freed by ``free_row``/``free_col``) has no
    toggle to come: it is tied to the ground node, with parity 0, or 1 when its bit is set in ``odd``
    (bits 0-3 rows, 4-7 columns: one known toggle to come). With eight unknowns the system is kept
    as the set of the 256 choices that solve it (four 64-bit words, :func:`_unite`): each equation is
    one AND with a precomputed mask, and it has a solution while the set is not empty.
    """
    _reset_lines(occ, free_row, free_col, odd, parities)
    return _tops_fit(occ, up, skip, parities)


@_helper
def _lower_bound(
    occ: int, up: int, open_piles: int, parities: Words, enough: int, solvable: int = -1
) -> int:  # pragma: no cover - compiled
    """Placements still needed at least before all 16 tops can be face up (0 only when won).

    Every empty cell needs a card. If the tops cannot all end face up by toggles of lines through
    empty cells alone, a card must go on an occupied pile; if one such card (which toggles its own
    row and column and covers one of the ``open_piles``, those with room) cannot repair it either,
    two are needed. The second test
    is skipped when one more card than the empty cells already reaches ``enough``. ``solvable`` is 1 or 0
    when the caller already knows whether the parity system has a solution, -1 when it does not.
    """
    n_empty = _popcount(FULL & ~occ)
    if solvable == 1 or (solvable < 0 and _toggles_possible(occ, up, 0, 0, 0, 0, parities)):
        return n_empty
    if n_empty + 1 >= enough:
        return n_empty + 1
    return n_empty + 1 if _mending_piles(occ, up, open_piles, parities, True) else n_empty + 2


@_helper
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
    for w in range(4):
        parities[w] = saved[w]
    r = cell // GRID
    c = cell % GRID
    fired_row = 1 if (c_up ^ up) & occ & row_mask[cell] else 0
    fired_col = 1 if (c_up ^ up) & occ & col_mask[cell] else 0
    if not _unite(parities, r, GRID + c, fired_row ^ fired_col):
        return 0
    if (c_occ >> (GRID * r)) & 0xF == 0xF and not _unite(parities, r, 8, fired_row):
        return 0
    if (c_occ >> c) & 0x1111 == 0x1111 and not _unite(parities, GRID + c, 8, fired_col):
        return 0
    return 1


@_helper
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
    ``parities[4:20]``), those of ``j``'s row but ``j``'s, and the ground ties of the full lines but ``j``'s.
    """
    empty = FULL & ~occ
    full_lines = 0
    for x in range(GRID):
        if (empty >> (GRID * x)) & 0xF == 0:
            full_lines |= 1 << x
        if (empty >> x) & 0x1111 == 0:
            full_lines |= 1 << (GRID + x)
    for r in range(GRID):
        base = 4 + 4 * r
        parities[base], parities[base + 1], parities[base + 2], parities[base + 3] = _and_tops(
            occ & (0xF << (GRID * r)), up, ALL, ALL, ALL, ALL
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
                base = 4 + 4 * x
                w0 &= parities[base]
                w1 &= parities[base + 1]
                w2 &= parities[base + 2]
                w3 &= parities[base + 3]
        w0, w1, w2, w3 = _and_tops(occ & (0xF << (GRID * r)) & ~(1 << j), up, w0, w1, w2, w3)
        lines = full_lines & ~((1 << r) | (1 << (GRID + c)))
        while lines:
            line = _low(lines)
            lines &= lines - 1
            w0 &= LINKS[line, 8, 0, 0]
            w1 &= LINKS[line, 8, 0, 1]
            w2 &= LINKS[line, 8, 0, 2]
            w3 &= LINKS[line, 8, 0, 3]
        if w0 | w1 | w2 | w3:
            mend |= 1 << j
            if first:
                return mend
    return mend


RANKS = (1 << 10) - 1  # masks of ranks: bit r for rank r + 1


@_helper
def _rank_span(lo: int, hi: int) -> int:  # pragma: no cover - compiled
    """The mask of the ranks from ``lo`` to ``hi`` (none when ``hi`` < ``lo``)."""
    return ((1 << (hi + 1)) - (1 << lo)) if lo <= hi else 0


@_helper
def _line_options(
    others: int, up: int, frozen: int, top: IntArray, slot: int
) -> tuple[int, int]:  # pragma: no cover - compiled
    """What a card to come can do to a line whose occupied ``others`` are these: the masks of the ranks that may
    leave it and of those that may fire it.

    A card leaves the line only if its rank lies within the span of the tops that may be face up then
    (frozen face-up ones and every one not frozen: a smaller face-up set only narrows the span), and
    fires it only if no top is surely face up then (a frozen face-up one) or its rank lies outside
    their span (a larger face-up set only makes it harder). The engine's rule: a card fires a line iff
    its rank is above every face-up other top, or below every one, or none is face up.
    """
    sure_lo = 99
    sure_hi = -1
    may_lo = 99
    may_hi = -1
    m = others
    while m:
        j = _low(m)
        m &= m - 1
        r = top[slot, j] // 4
        sure = (frozen >> j) & 1 and (up >> j) & 1
        if sure or not (frozen >> j) & 1:
            may_lo = min(may_lo, r)
            may_hi = max(may_hi, r)
        if sure:
            sure_lo = min(sure_lo, r)
            sure_hi = max(sure_hi, r)
    return _rank_span(may_lo, may_hi), RANKS & ~_rank_span(sure_lo, sure_hi)


@_helper
def _window_ranks(cards: IntArray, first: int, last: int) -> int:  # pragma: no cover - compiled
    """The mask of the ranks of ``cards[first:last]``."""
    ranks = 0
    for s in range(first, last):
        ranks |= 1 << (cards[s] // 4)
    return ranks


@_helper
def _one_chance_lines(
    slot: int,
    occ: int,
    up: int,
    pile: int,
    first: int,
    last: int,
    top: IntArray,
    cards: IntArray,
    row_mask: IntArray,
    col_mask: IntArray,
    parities: Words,
) -> bool:  # pragma: no cover - compiled
    """Add to the parity system what ranks allow the lines with one chance to toggle; False if impossible.

    The caller considers wins whose cards to come are some of ``cards[first:last]``, all on empty
    cells but at most one on the occupied cell ``pile`` (-1: none). A line with exactly one empty
    cell ``e`` and not through ``pile`` then gets exactly one chance to toggle: the check of the card
    that fills ``e``. Until then no card lands in the line, and none in the crossing line of an other
    top that is full now and not through ``pile`` ("frozen"): that top keeps its face up to then.
    So :func:`_line_options` of the ranks to come tells which parities the line can take; and when
    ``e`` is the only empty cell of both its row and its column, which pairs, one card making both.
    One parity possible ties the line to the ground; two pairs may tie row and column together.
    """
    empty = FULL & ~occ
    window = _window_ranks(cards, first, last)
    full_rows = 0
    full_cols = 0
    for x in range(GRID):
        if (empty >> (GRID * x)) & 0xF == 0:
            full_rows |= 1 << x
        if (empty >> x) & 0x1111 == 0:
            full_cols |= 1 << x
    pile_row = pile // GRID if pile >= 0 else -1
    pile_col = pile % GRID if pile >= 0 else -1
    quiet_cols = 0  # the cells of the full columns and of the full rows that the pile card misses
    quiet_rows = 0
    for x in range(GRID):
        if (full_cols >> x) & 1 and x != pile_col:
            quiet_cols |= 0x1111 << x
        if (full_rows >> x) & 1 and x != pile_row:
            quiet_rows |= 0xF << (GRID * x)
    m = empty
    while m:
        e = _low(m)
        m &= m - 1
        r = e // GRID
        c = e % GRID
        row_one = r != pile_row and _popcount(empty & (0xF << (GRID * r))) == 1
        col_one = c != pile_col and _popcount(empty & (0x1111 << c)) == 1
        if not row_one and not col_one:
            continue
        frozen = ((0xF << (GRID * r)) & quiet_cols) | ((0x1111 << c) & quiet_rows)
        row_leave, row_fire = _line_options(row_mask[e], up, frozen, top, slot) if row_one else (RANKS, RANKS)
        col_leave, col_fire = _line_options(col_mask[e], up, frozen, top, slot) if col_one else (RANKS, RANKS)
        pairs = 0  # bit 2 * (row fires) + (column fires), over the cards that may fill e
        if window & row_leave & col_leave:
            pairs |= 1
        if window & row_leave & col_fire:
            pairs |= 2
        if window & row_fire & col_leave:
            pairs |= 4
        if window & row_fire & col_fire:
            pairs |= 8
        if pairs == 0:
            return False
        ok = True
        if row_one and (pairs & 0b1100) == 0:
            ok = _unite(parities, r, 8, 0)
        elif row_one and (pairs & 0b0011) == 0:
            ok = _unite(parities, r, 8, 1)
        if ok and col_one and (pairs & 0b1010) == 0:
            ok = _unite(parities, GRID + c, 8, 0)
        elif ok and col_one and (pairs & 0b0101) == 0:
            ok = _unite(parities, GRID + c, 8, 1)
        if ok and row_one and col_one and pairs == 0b1001:
            ok = _unite(parities, r, GRID + c, 0)
        elif ok and row_one and col_one and pairs == 0b0110:
            ok = _unite(parities, r, GRID + c, 1)
        if not ok:
            return False
    return True


@_helper
def _one_pile_card_can_mend(
    slot: int,
    top: IntArray,
    height: IntArray,
    state: IntArray,
    cards: IntArray,
    row_mask: IntArray,
    col_mask: IntArray,
    parities: Words,
    piles: int,
) -> bool:  # pragma: no cover - compiled
    """Can a win from ``slot``'s position put exactly one card on an occupied pile, ranks considered?

    Only the piles in the mask ``piles`` are tried (the others are known not to mend the system).

    For a position whose parity system (:func:`_toggles_possible`) has no solution: :func:`_lower_bound`
    then needs one card on a pile and knows only *where* it may go; this test also asks *which card*
    it can be and whether its rank can make the toggles the repair needs. When it returns False, at
    least two cards must go on piles (the lower bound is the empty cells + 2). Why that is admissible
    — take any win from here with exactly one card on an occupied pile, the card of some turn ``s``
    in ``slot .. slot + empty cells`` (the other cards fill the empty cells), placed on cell ``j``:

    1. ``j`` is occupied now and its pile has room: were ``j`` empty now, both its lines would have
       an empty cell (free anyway) and the pile card would cover no top of now, so the system of
       the tops of now would be solvable without it — it is not.
    2. No card but the pile card ever lands in a line that is full now. So a full line of ``j`` gets
       exactly one chance to toggle, the pile card's own check: parity ``a`` (row), ``b`` (column),
       1 when the card fires the line; the other full lines get none. Every top of now but ``j``'s
       stays on its pile to the end, so the parity system with ``j`` skipped and ``j``'s full lines
       tied to parities ``a`` and ``b`` (the ``odd`` mask) must be solvable — together with what
       ranks allow the lines with one empty cell (:func:`_one_chance_lines`, with ``j`` as the pile).
    3. The pile card's rank must allow ``a`` and ``b`` (:func:`_line_options`): a top whose row and
       column are both full now ("frozen") keeps its face up to turn ``s``, since no card lands in
       its lines before the pile card.

    If no cell ``j``, parities ``a``, ``b`` and card ``s`` pass 1–3, no such win exists. (Row and
    column conditions are tested apart, a relaxation: it may keep a position, never drop a win.)
    """
    occ = state[slot, 0]
    up = state[slot, 1]
    empty = FULL & ~occ
    last = min(slot + _popcount(empty) + 1, DECK_SIZE)
    full_rows = 0
    full_cols = 0
    for x in range(GRID):
        if (empty >> (GRID * x)) & 0xF == 0:
            full_rows |= 1 << x
        if (empty >> x) & 0x1111 == 0:
            full_cols |= 1 << x
    rows_cells = 0
    cols_cells = 0
    for x in range(GRID):
        if (full_rows >> x) & 1:
            rows_cells |= 0xF << (GRID * x)
        if (full_cols >> x) & 1:
            cols_cells |= 0x1111 << x
    frozen = rows_cells & cols_cells
    window = _window_ranks(cards, slot, last)
    m = occ & piles & _open_piles(height, slot, occ)
    while m:
        j = _low(m)
        m &= m - 1
        r = j // GRID
        c = j % GRID
        row_full = (full_rows >> r) & 1
        col_full = (full_cols >> c) & 1
        # The system with both lines of j free and j's top left out, then what the one-chance lines (but j's)
        # add to it: the same for every choice of a and b, which only tie j's full lines.
        if not _toggles_possible(occ, up, 1 << r, 1 << c, 1 << j, 0, parities):
            continue
        if not _one_chance_lines(slot, occ, up, j, slot, last, top, cards, row_mask, col_mask, parities):
            continue
        if not row_full and not col_full:
            return True  # nothing to ask of the pile card's rank
        row_leave, row_fire = _line_options(row_mask[j], up, frozen, top, slot) if row_full else (RANKS, RANKS)
        col_leave, col_fire = _line_options(col_mask[j], up, frozen, top, slot) if col_full else (RANKS, RANKS)
        w0 = parities[0]
        w1 = parities[1]
        w2 = parities[2]
        w3 = parities[3]
        for a in range(1 + row_full):
            for b in range(1 + col_full):
                if window & (row_fire if a else row_leave) & (col_fire if b else col_leave) == 0:
                    continue  # no card to come makes a and b
                parities[0] = w0
                parities[1] = w1
                parities[2] = w2
                parities[3] = w3
                if row_full and not _unite(parities, r, 8, a):
                    continue
                if col_full and not _unite(parities, GRID + c, 8, b):
                    continue
                return True
    return False


@_helper
def _fills_can_toggle(
    slot: int,
    top: IntArray,
    state: IntArray,
    cards: IntArray,
    row_mask: IntArray,
    col_mask: IntArray,
    parities: Words,
) -> bool:  # pragma: no cover - compiled
    """Can a win from ``slot``'s position put no card on an occupied pile, ranks considered?

    Then every card to come, ``cards[slot:slot + empty cells]``, fills an empty cell: the parity
    system (:func:`_toggles_possible`) must be solvable together with what the ranks allow the lines
    with one empty cell (:func:`_one_chance_lines`). When it returns False, a win from here needs a
    card on a pile: at least one card more than the empty cells.
    """
    occ = state[slot, 0]
    up = state[slot, 1]
    last = min(slot + _popcount(FULL & ~occ), DECK_SIZE)
    _reset_lines(occ, 0, 0, 0, parities)
    if not _one_chance_lines(slot, occ, up, -1, slot, last, top, cards, row_mask, col_mask, parities):
        return False
    return _tops_fit(occ, up, 0, parities)


@_helper
def _tight_key(
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
    z_tight: npt.NDArray[np.uint64],
    z_buried: npt.NDArray[np.uint64],
    codes: IntArray,
) -> tuple[np.uint64, np.uint64]:  # pragma: no cover - compiled
    """A coarser key for "can this position win within ``k`` cards?", when few cards are spare.

    ``slack`` is how many of the cards up to ``k`` may go on occupied piles (the others must fill
    the empty cells). Only the cards ``cards[slot:k]`` are still placed (``future_ranks[slot]``
    is the mask of their ranks), so a top's rank matters only up to where it falls among theirs;
    a pile's height only up to how many cards it can still take, capped by the slack; and with no
    slack, a top whose row and column are full is never compared again and never turns. When every
    empty cell already touches a card, where a card may go no longer depends on the shape, and the
    rules only ever look at rows and columns: permuting rows, permuting columns or transposing gives
    a position that plays out alike, so the key is taken of one such image, chosen from the cells alone.
    Positions with equal keys play out alike up to turn ``k``.

    Returns (key, class key). A position with an empty cell that touches no card (where the shape still
    matters) is keyed by its own cells (one such cell is marked, with the neighbours that open it, in
    the images instead); its class key is still that of its images. Ignoring where cards may go only
    allows more play, so when an image in which every empty cell touches a card cannot win, no image
    can: such a position is also looked up by its class key, but never stored under it. With
    ``relaxed`` (the relaxed search of :func:`_search`, where any empty cell may take a card) every
    position is keyed by its class.
    """
    occ = state[slot, 0]
    up = state[slot, 1]
    future = future_ranks[slot]
    reach = FULL
    if slack == 0:
        reach = 0
        m = FULL & ~occ
        while m:
            j = _low(m)
            m &= m - 1
            reach |= cross[j]
    codes[:CELLS] = 0
    m = occ
    while m:
        j = _low(m)
        m &= m - 1
        code = 1
        if (reach >> j) & 1:
            r = top[slot, j] // 4
            bucket = 2 * _popcount(future & ((1 << r) - 1)) + ((future >> r) & 1) + 1
            room = min(PILE_CAP - height[slot, j], slack)
            code = 1 + bucket * (PILE_CAP + 1) + room
        codes[j] = 2 * code + ((up >> j) & 1)
    h = z_buried[state[slot, 2]] ^ z_tight[CELLS + slot, slack]
    canon = CELLS + DECK_SIZE + 2
    locked = 0  # the empty cells that touch no card (none count when any empty cell may take a card)
    m = FULL & ~occ if not relaxed else 0
    while m:
        j = _low(m)
        m &= m - 1
        if adjacent[j] & occ == 0:
            locked |= 1 << j
    sig = canon + CELLS
    image = _class_image(codes, z_tight, canon, sig)
    class_key = np.uint64(h ^ z_tight[sig, 511] ^ image)
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
        image = _class_image(codes, z_tight, canon, sig)
        return np.uint64(h ^ z_tight[sig, 511] ^ image), class_key
    for j in range(CELLS):
        h ^= z_tight[j, codes[j]]
    return np.uint64(h), class_key


LOCKED = 1  # cell codes of the coarser key for empty cells (0: may take a card; occupied cells: 2 and up)
OPENS_LOCKED = 510
ROW_ORDERS = np.array(list(itertools.permutations(range(GRID))), dtype=np.int64)


@_helper
def _class_image(
    scratch: IntArray, z_tight: npt.NDArray[np.uint64], canon: int, sig: int
) -> np.uint64:  # pragma: no cover - compiled
    """The hash of the class of the cell codes ``scratch[:16]``: the least of :func:`_image_key` as they are and
    transposed, or, when their rows' signatures and their columns' differ as sorted vectors (which no row or
    column permutation changes and transposing swaps), of the way round with the smaller rows' signatures.
    ``scratch[16:36]`` is work space."""
    for i in range(GRID):
        row = np.int64(0)
        col = np.int64(0)
        for j in range(GRID):
            row += np.int64(z_tight[sig, scratch[GRID * i + j]] >> np.uint64(8))
            col += np.int64(z_tight[sig, scratch[GRID * j + i]] >> np.uint64(8))
        for base, total in ((28, row), (32, col)):  # insertion sort
            pos = base + i
            while pos > base and scratch[pos - 1] > total:
                scratch[pos] = scratch[pos - 1]
                pos -= 1
            scratch[pos] = total
    for i in range(GRID):
        if scratch[28 + i] != scratch[32 + i]:
            return _image_key(scratch, scratch[32 + i] < scratch[28 + i], z_tight, canon, sig)
    return min(_image_key(scratch, False, z_tight, canon, sig), _image_key(scratch, True, z_tight, canon, sig))


@_helper
def _image_key(
    scratch: IntArray, transpose: bool, z_tight: npt.NDArray[np.uint64], canon: int, sig: int
) -> np.uint64:  # pragma: no cover - compiled
    """The least hash of the images of the cell codes ``scratch[:16]`` (transposed first if asked) under row
    and column permutations, over a set of images that depends only on the position's class
    (:func:`_tight_key`); ``scratch[16:28]`` is work space.

    Rows are ordered by a signature that ignores column order (ties: every order of the tied rows is
    tried); given the rows' order, the columns are sorted as vectors, which is exact.
    """
    for i in range(GRID):
        total = np.int64(0)
        for j in range(GRID):
            code = scratch[GRID * j + i] if transpose else scratch[GRID * i + j]
            total += np.int64(z_tight[sig, code] >> np.uint64(8))  # four of them cannot overflow
        scratch[20 + i] = total
        pos = 24 + i  # insertion sort of the rows by signature
        while pos > 24 and scratch[20 + scratch[pos - 1]] > total:
            scratch[pos] = scratch[pos - 1]
            pos -= 1
        scratch[pos] = i
    tied = False
    for t in range(GRID - 1):
        if scratch[20 + scratch[24 + t]] == scratch[20 + scratch[25 + t]]:
            tied = True
    if not tied:
        return _ordered_image(scratch, transpose, z_tight, canon)
    best = np.uint64(0xFFFFFFFFFFFFFFFF)
    for p in range(ROW_ORDERS.shape[0]):
        ordered = True
        for t in range(GRID - 1):
            if scratch[20 + ROW_ORDERS[p, t]] > scratch[20 + ROW_ORDERS[p, t + 1]]:
                ordered = False
                break
        if not ordered:
            continue
        for t in range(GRID):
            scratch[24 + t] = ROW_ORDERS[p, t]
        h = _ordered_image(scratch, transpose, z_tight, canon)
        if h < best:
            best = h
    return best


@_helper
def _ordered_image(
    scratch: IntArray, transpose: bool, z_tight: npt.NDArray[np.uint64], canon: int
) -> np.uint64:  # pragma: no cover - compiled
    """The hash of the image of the cell codes with the rows in the order ``scratch[24:28]`` and the columns
    sorted as vectors (see :func:`_image_key`)."""
    for j in range(GRID):
        v = 0
        for i in range(GRID):
            r = scratch[24 + i]
            v = (v << 9) | (scratch[GRID * j + r] if transpose else scratch[GRID * r + j])
        pos = 16 + j  # insertion sort of the column vectors
        while pos > 16 and scratch[pos - 1] > v:
            scratch[pos] = scratch[pos - 1]
            pos -= 1
        scratch[pos] = v
    h = np.uint64(0)
    for j in range(GRID):
        v = scratch[16 + j]
        for i in range(GRID - 1, -1, -1):
            h ^= z_tight[canon + GRID * i + j, v & 511]
            v >>= 9
    return h


@_helper
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


@_helper
def _quick_value(
    slot: int,
    k: int,
    occ: int,
    up: int,
    buried: int,
    h: np.uint64,
    open_piles: int,
    count_buried: bool,
    tt: npt.NDArray[np.uint64],
    parities: Words,
    solvable: int = -1,
) -> tuple[int, int, int]:  # pragma: no cover - compiled
    """Settle a position after ``slot`` cards from its masks, hash and open piles alone, if possible.

    Returns (value, lower bound, face-down tops): value is the winning turn when won, ``INF`` when
    lost, a lower bound > k on the winning turn (from the bound or the transposition table), or -1
    when the position is still open (then the bound and face-down count order it among its siblings).
    """
    if occ == FULL and up == FULL:
        return slot, 0, 0
    down = _popcount(occ & ~up)
    if down + (buried if count_buried else 0) > MAX_FACE_DOWN or slot == DECK_SIZE:
        return INF, 0, 0
    bound = _lower_bound(occ, up, open_piles, parities, k - slot + 1, solvable)
    f = slot + bound
    if f > DECK_SIZE:
        return INF, 0, 0
    if f > k:
        return f, 0, 0
    entry = tt[h & (tt.shape[0] - 1)]
    if (entry ^ h) & TT_KEY == 0:
        known = np.int64(entry >> TT_SHIFT)
        if known > k:
            return int(known), 0, 0
    return -1, bound, down


@_helper
def _tight_keys(
    relaxed: bool,
    slot: int,
    k: int,
    future_ranks: IntArray,
    top: IntArray,
    height: IntArray,
    state: IntArray,
    cross: IntArray,
    adjacent: IntArray,
    z_tight: npt.NDArray[np.uint64],
    z_buried: npt.NDArray[np.uint64],
    codes: IntArray,
) -> tuple[np.uint64, np.uint64]:  # pragma: no cover - compiled
    """:func:`_tight_key` of the built position in ``slot``, or zeros when too many cards are spare for one."""
    slack = k - slot - _popcount(FULL & ~state[slot, 0])
    if slack > TIGHT_SLACK:
        return np.uint64(0), np.uint64(0)
    return _tight_key(relaxed, slot, k, slack, future_ranks, top, height, state, cross, adjacent, z_tight, z_buried,
                      codes)


@_helper
def _tight_hit(
    tight_key: npt.NDArray[np.uint64], tight: np.uint64, class_key: np.uint64
) -> bool:  # pragma: no cover - compiled
    """Is a position with these keys (:func:`_tight_key`) known not to win? Its class refutes it too."""
    mask = tight_key.shape[0] - 1
    return bool(tight_key[tight & mask] == tight or (class_key != tight and tight_key[class_key & mask] == class_key))


@_helper
def _share(path: IntArray, t0: int, sp: int, cell: int, owners: int) -> int:  # pragma: no cover - compiled
    """Which of ``owners`` threads searches the child on ``cell`` of the position after ``path[t0:sp]``.

    A function of the moves alone — not of the order in which a thread meets them, which the shared
    tables change — so every position of the shared-out depth has exactly one owner.
    """
    h = 0
    for i in range(t0, sp):
        h = h * 17 + path[i] + 1
    h = (h * 17 + cell + 1) * 0x9E3779B1
    return int((h >> 16) % owners)


@numba.njit(cache=True, nogil=True)
def _search(
    t0: int,
    k: int,
    cards: IntArray,
    top: IntArray,
    height: IntArray,
    state: IntArray,
    hashes: npt.NDArray[np.uint64],
    adjacent: IntArray,
    row_mask: IntArray,
    col_mask: IntArray,
    cross: IntArray,
    first_cell: int,
    mirror_keep: int,
    diagonal: int,
    count_buried: bool,
    z_card: npt.NDArray[np.uint64],
    z_up: npt.NDArray[np.uint64],
    z_height: npt.NDArray[np.uint64],
    z_buried: npt.NDArray[np.uint64],
    tt: npt.NDArray[np.uint64],
    z_tight: npt.NDArray[np.uint64],
    tight_key: npt.NDArray[np.uint64],
    deadline: float,
    node_limit: int,
    line: IntArray,
    counters: IntArray,
    owner: int,
    owners: int,
    stop: IntArray,
    relax_from: int,
) -> int:  # pragma: no cover - compiled
    """Depth-first search from slot ``t0`` (the position after ``t0`` cards) for a win within ``k`` cards.

    Returns the winning turn (≤ k; ``line[t0:turn]`` then holds the cells), or a lower bound > k on
    the winning turn (``INF`` when no win exists), or ``ABORTED`` when the deadline passed or the
    node count reached ``node_limit`` (both looked at every ``CHECK_EVERY`` nodes).
    ``counters[0]`` counts the positions examined.

    With ``owners`` > 1 threads, each runs this search with its own arrays and ``owner`` number, and
    sharing the tables: the positions ``SPLIT_DEPTH`` moves from ``t0`` are shared out
    (:func:`_share`), and the positions above them, whose children a thread sees only in part, store
    no table entry. The least of the threads' results is the search's result: a win's owner finds it
    (or a sound cut above it), and a thread that finds a win sets ``stop[0]``, which aborts the others.

    From turn ``relax_from`` on, a card may go on any empty cell of the frame, touching a card or not: a
    relaxation, which only allows more play, so a position it cannot win cannot be won by the rules
    either, and every bound it gives is a bound of the real game. It lets every such position be keyed
    by its class (:func:`_tight_key`), which refutes far more positions at once. A win it finds may break
    the rules; the caller checks it and searches again without the relaxation (``relax_from`` = ``EXACT``).
    """
    moves = np.empty((42, 16), dtype=np.int64)
    n_moves = np.zeros(42, dtype=np.int64)
    index = np.zeros(42, dtype=np.int64)
    best = np.zeros(42, dtype=np.int64)
    keys = np.empty(16, dtype=np.int64)
    # The children of the expanded position: cell (-1: settled) and sort key, masks, hash, coarser keys.
    kids = np.zeros((16, 2), dtype=np.int64)
    kid_state = np.zeros((16, 3), dtype=np.int64)
    kid_hash = np.zeros(16, dtype=np.uint64)
    kid_keys = np.zeros((16, 2), dtype=np.uint64)
    tight_mask = tight_key.shape[0] - 1
    move_keys = np.zeros((42, 16), dtype=np.uint64)  # the coarser key of each open child (0: none)
    move_state = np.zeros((42, 16, 3), dtype=np.int64)  # and its masks and hash
    move_hash = np.zeros((42, 16), dtype=np.uint64)
    saved = np.zeros(4, dtype=np.uint64)  # the expanded position's parity system (see _unite)
    line_stats = np.zeros((2, 2 * GRID), dtype=np.int64)  # and its lines' face-up rank spans
    line_z = np.zeros(2 * GRID, dtype=np.uint64)
    parities = np.zeros(PARITY_WORDS, dtype=np.uint64)
    tt_mask = tt.shape[0] - 1
    path = np.zeros(42, dtype=np.int64)  # the cells of the moves from t0, for the threads' shares
    split = t0 + SPLIT_DEPTH - 1 if owners > 1 else -1  # the children of positions this deep are shared out
    nodes = counters[0] + 1
    codes = np.zeros(36, dtype=np.int64)  # work space of the coarser key
    future_ranks = np.zeros(DECK_SIZE + 2, dtype=np.int64)  # the ranks of cards[slot:k], as bit masks
    for slot in range(k - 1, -1, -1):
        future_ranks[slot] = future_ranks[slot + 1] | (1 << (cards[slot] // 4))

    occ = state[t0, 0]
    value, _, _ = _quick_value(t0, k, occ, state[t0, 1], state[t0, 2], hashes[t0], _open_piles(height, t0, occ),
                               count_buried, tt, parities)
    if value < 0:
        root_key, root_class = _tight_keys(t0 >= relax_from, t0, k, future_ranks, top, height, state, cross, adjacent,
                                           z_tight, z_buried, codes)
        if root_key and _tight_hit(tight_key, root_key, root_class):
            value = k + 1
    if value >= 0:
        counters[0] = nodes
        return value
    sp = t0
    mode = 0  # 0: expand the open position at sp; 1: a child of sp returned `value`; 2: try sp's next child
    while True:
        if mode == 0:
            if counters.shape[0] > 1:
                counters[1 + sp] += 1  # expansions per turn, for profiling
            occ = state[sp, 0]
            best[sp] = INF
            open_piles = _open_piles(height, sp, occ)
            mend = open_piles  # the piles where a card may mend the parity system, when it needs one
            solvable = occ != 0 and _toggles_possible(occ, state[sp, 1], 0, 0, 0, 0, parities)
            if solvable:  # kept: a fill's child adds at most three equations to it
                for w in range(4):
                    saved[w] = parities[w]
            if occ == 0:
                cand = 1 << first_cell
            else:
                near = FULL if sp >= relax_from else 0
                m = occ if near == 0 else 0
                while m:
                    near |= adjacent[_low(m)]
                    m &= m - 1
                cand = near & ~occ
                if open_piles:
                    n_empty = _popcount(FULL & ~occ)
                    if sp + 1 + n_empty <= k:
                        cand |= open_piles
                        if not solvable:
                            mend = _mending_piles(occ, state[sp, 1], open_piles, parities)
                            if sp + 2 + n_empty > k and open_piles & ~mend:
                                # One spare card: on any other pile it leaves a system no fill can solve.
                                cand &= ~(open_piles & ~mend)
                                best[sp] = k + 1
                    else:  # a card on a pile would leave too few cards to fill the empty cells
                        best[sp] = sp + 1 + n_empty
                if mirror_keep and (occ & ~diagonal) == 0:
                    cand &= mirror_keep
            n = 0
            card = cards[sp]
            won = False
            _line_stats(sp, occ, state[sp, 1], top, z_up, line_stats, line_z)
            # Most children are settled from their masks and hash; only the others are built. All the
            # children's masks first, so that their table entries are on their way from memory.
            n_kids = 0
            while cand:
                j = _low(cand)
                cand &= cand - 1
                if sp == split and _share(path, t0, sp, j, owners) != owner:
                    continue  # another thread's share
                if (occ >> j) & 1 or occ == 0:
                    c_occ, c_up, c_buried, c_hash = _child_position(sp, j, card, top, height, state, hashes,
                                                                    row_mask, col_mask, z_card, z_up, z_height,
                                                                    z_buried, count_buried)
                else:
                    c_occ, c_up, c_buried, c_hash = _fill_child(j, card, occ, state[sp, 1], state[sp, 2], hashes[sp],
                                                                line_stats, line_z, row_mask, col_mask, z_card,
                                                                z_up, z_height)
                if _popcount(c_occ & ~c_up) <= MAX_FACE_DOWN:
                    _prefetch(tt, c_hash & tt_mask)
                kids[n_kids, 0] = j
                kid_state[n_kids, 0] = c_occ
                kid_state[n_kids, 1] = c_up
                kid_state[n_kids, 2] = c_buried
                kid_hash[n_kids] = c_hash
                n_kids += 1
            for q in range(n_kids):
                j = kids[q, 0]
                c_occ = kid_state[q, 0]
                c_up = kid_state[q, 1]
                c_buried = kid_state[q, 2]
                c_hash = kid_hash[q]
                if (occ >> j) & 1:
                    c_open = open_piles | (1 << j) if height[sp, j] + 1 < PILE_CAP else open_piles & ~(1 << j)
                elif mend != open_piles:  # a fill only adds to the parity system: no other pile can mend it
                    c_open = mend
                else:
                    c_open = open_piles | (1 << j)
                nodes += 1
                if (nodes & (CHECK_EVERY - 1)) == 0 and (nodes >= node_limit or stop[0] or _now() > deadline):
                    counters[0] = nodes
                    return ABORTED
                known = -1  # does the child's parity system have a solution?
                if occ and not (occ >> j) & 1:
                    known = 0  # a fill only adds equations: none if the parent's has none
                    if solvable:
                        known = _fill_keeps_solution(j, occ, state[sp, 1], c_occ, c_up, row_mask, col_mask, saved,
                                                     parities)
                value, bound, down = _quick_value(sp + 1, k, c_occ, c_up, c_buried, c_hash, c_open, count_buried,
                                                  tt, parities, known)
                child_key = np.uint64(0)
                class_key = np.uint64(0)
                if value < 0:
                    _build(sp, sp + 1, j, card, top, height, state, hashes, c_occ, c_up, c_buried, c_hash)
                    # The rank tests first: they are cheaper than the coarser key.
                    if bound == k - sp - 1 and bound == _popcount(FULL & ~c_occ) + 1 and not _one_pile_card_can_mend(
                        sp + 1, top, height, state, cards, row_mask, col_mask, parities, c_open
                    ):
                        # One spare card, and it is needed on a pile, but no card to come can do the repair.
                        value = k + 1
                    elif bound == k - sp - 1 and bound == _popcount(FULL & ~c_occ) and not _fills_can_toggle(
                        sp + 1, top, state, cards, row_mask, col_mask, parities
                    ):
                        value = k + 1  # no spare card, and the cards to come cannot make the toggles needed
                    else:
                        child_key, class_key = _tight_keys(sp + 1 >= relax_from, sp + 1, k, future_ranks, top,
                                                           height, state, cross, adjacent, z_tight, z_buried, codes)
                        if child_key:  # looked up below, once every child's entry is on its way
                            _prefetch(tight_key, child_key & tight_mask)
                            if class_key != child_key:
                                _prefetch(tight_key, class_key & tight_mask)
                if value >= 0:
                    if value <= k:
                        line[sp] = j
                        won = True
                        break
                    if value < best[sp]:
                        best[sp] = value
                    kids[q, 0] = -1
                    continue
                kids[q, 1] = bound * 8 + down
                kid_keys[q, 0] = child_key
                kid_keys[q, 1] = class_key
            for q in range(n_kids):
                if won:
                    break
                j = kids[q, 0]
                if j < 0:
                    continue
                child_key = kid_keys[q, 0]
                if child_key and _tight_hit(tight_key, child_key, kid_keys[q, 1]):
                    if k + 1 < best[sp]:
                        best[sp] = k + 1
                    continue
                key = kids[q, 1]
                pos = n  # insertion sort by key
                while pos > 0 and keys[pos - 1] > key:
                    keys[pos] = keys[pos - 1]
                    moves[sp, pos] = moves[sp, pos - 1]
                    move_keys[sp, pos] = move_keys[sp, pos - 1]
                    move_hash[sp, pos] = move_hash[sp, pos - 1]
                    for x in range(3):
                        move_state[sp, pos, x] = move_state[sp, pos - 1, x]
                    pos -= 1
                keys[pos] = key
                moves[sp, pos] = j
                move_keys[sp, pos] = child_key
                move_hash[sp, pos] = kid_hash[q]
                move_state[sp, pos, 0] = kid_state[q, 0]
                move_state[sp, pos, 1] = kid_state[q, 1]
                move_state[sp, pos, 2] = kid_state[q, 2]
                n += 1
            if won:
                if sp == t0:
                    counters[0] = nodes
                    stop[0] = 1
                    return value
                sp -= 1
                mode = 1
                continue
            n_moves[sp] = n
            index[sp] = 0
            mode = 2
        elif mode == 1:
            if value <= k:
                # A win below: record the cell of this position's move and pass the win up.
                line[sp] = moves[sp, index[sp]]
                if sp == t0:
                    counters[0] = nodes
                    stop[0] = 1
                    return value
                sp -= 1
                continue
            if value < best[sp]:
                best[sp] = value
            index[sp] += 1
            mode = 2
        else:
            if index[sp] < n_moves[sp]:
                path[sp] = moves[sp, index[sp]]
                i = index[sp]
                _build(sp, sp + 1, moves[sp, i], cards[sp], top, height, state, hashes, move_state[sp, i, 0],
                       move_state[sp, i, 1], move_state[sp, i, 2], move_hash[sp, i])
                sp += 1
                mode = 0
                continue
            # Every child failed: remember the bound and hand it up.
            value = best[sp]
            # Above the shared-out depth a thread has seen only its share of the children: no entry.
            shared = sp <= split
            if not shared:
                tt[hashes[sp] & tt_mask] = (hashes[sp] & TT_KEY) | (np.uint64(value) << TT_SHIFT)
            slack = k - sp - _popcount(FULL & ~state[sp, 0])
            if slack <= TIGHT_SLACK and state[sp, 0] != 0 and not shared:
                if sp > t0:
                    tight = move_keys[sp - 1, index[sp - 1]]  # worked out when this position was a child
                else:
                    tight = _tight_key(sp >= relax_from, sp, k, slack, future_ranks, top, height, state, cross,
                                       adjacent, z_tight, z_buried, codes)[0]
                tight_key[tight & (tight_key.shape[0] - 1)] = tight
            if sp == t0:
                counters[0] = nodes
                return int(value)
            sp -= 1
            mode = 1


# --- frames -----------------------------------------------------------------------------------------


def _masks(variant: Variant) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Row, column, row-or-column and neighbour masks of each frame cell (a cell is not its own)."""
    row = np.zeros(CELLS, dtype=np.int64)
    col = np.zeros(CELLS, dtype=np.int64)
    adjacent = np.zeros(CELLS, dtype=np.int64)
    for i in range(CELLS):
        r, c = divmod(i, GRID)
        for j in range(CELLS):
            rj, cj = divmod(j, GRID)
            if j == i:
                continue
            if rj == r:
                row[i] |= 1 << j
            if cj == c:
                col[i] |= 1 << j
            if (rj - r, cj - c) in variant.steps:
                adjacent[i] |= 1 << j
    return row, col, row | col, adjacent


DIAGONAL = sum(1 << (GRID * r + r) for r in range(GRID))
UPPER = sum(1 << (GRID * r + c) for r in range(GRID) for c in range(GRID) if c >= r)


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


class _Tables:
    """Zobrist keys and the transposition table shared by every frame of one solve."""

    def __init__(self, bits: int = TT_BITS, tight_bits: int = TIGHT_BITS) -> None:
        rng = np.random.default_rng(20240229)
        high = np.iinfo(np.uint64).max

        def draw(*shape: int) -> npt.NDArray[np.uint64]:
            return rng.integers(1, high, size=shape, dtype=np.uint64, endpoint=True)

        self.z_card = draw(CELLS, 10)  # by rank: suits never matter
        self.z_up = draw(CELLS)
        self.z_height = draw(CELLS, PILE_CAP + 1)
        self.z_buried = draw(DECK_SIZE + 2)
        self.z_first = draw(CELLS)
        # rows 0-15: cells (before the image is taken), 16-57: turn and slack, 58-73: the image's cells,
        # 74: the row and column signatures (and the mark of a key taken of an image)
        self.z_tight = draw(CELLS + DECK_SIZE + 2 + CELLS + 1, 512)
        self.tight_key = np.zeros(1 << tight_bits, dtype=np.uint64)
        self.tt = np.zeros(1 << bits, dtype=np.uint64)  # see TT_SHIFT


class _Search:
    """One frame's search arrays, set to the game's position."""

    def __init__(self, game: Game, frame: _Frame, tables: _Tables) -> None:
        variant = game.variant
        self.frame = frame
        self.t0 = game.turn
        self.row, self.col, self.cross, self.adjacent = _masks(variant)
        self.top = np.zeros((DECK_SIZE + 2, CELLS), dtype=np.int64)
        self.height = np.zeros((DECK_SIZE + 2, CELLS), dtype=np.int64)
        self.state = np.zeros((DECK_SIZE + 2, 3), dtype=np.int64)
        self.hashes = np.zeros(DECK_SIZE + 2, dtype=np.uint64)
        self.line = np.zeros(DECK_SIZE + 2, dtype=np.int64)
        self.cards = np.array([int(c) for c in game.stock], dtype=np.int64)
        self.count_buried = variant.count_buried
        self.mirror_keep = UPPER if frame.mirror else 0
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
        open_piles = _open_piles(self.height, self.t0, occ)
        self.bound = self.t0 + _lower_bound(occ, up, open_piles, np.zeros(PARITY_WORDS, dtype=np.uint64), CELLS + 2)

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
        """Search for a win within ``k`` cards (see :func:`_search`), alone or as thread ``owner``."""
        t = self.tables
        return int(
            _search(
                self.t0, k, self.cards, self.top, self.height, self.state, self.hashes, self.adjacent,
                self.row, self.col, self.cross, self.frame.first_cell, self.mirror_keep, DIAGONAL,
                self.count_buried, t.z_card, t.z_up, t.z_height, t.z_buried, t.tt, t.z_tight, t.tight_key,
                deadline, node_limit, self.line, counters, owner, owners,
                np.zeros(1, dtype=np.int64) if stop is None else stop, relax_from,
            )
        )

    def moves(self, turn: int) -> list[Move]:
        return [self.frame.to_move(int(cell)) for cell in self.line[self.t0 : turn]]


# --- the public API ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Solution:
    """What the solver knows about the best score of a position, the whole stock being known.

    ``line`` is the whole line from the first card (the given moves included) of the best win
    found. ``upper_bound`` is proven: no line scores more (``-1`` when no line wins at all).
    """

    status: Status
    best_score: int | None
    upper_bound: int
    line: tuple[Move, ...]
    proven: bool
    nodes: int
    seconds: float

    @property
    def winnable(self) -> bool | None:
        """True when a win was found, False when proven unwinnable, None when unknown."""
        if self.best_score is not None:
            return True
        return False if self.status == "unwinnable" else None

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "proven": self.proven,
            "best_score": self.best_score,
            "upper_bound": self.upper_bound,
            "line": [m.to_json() for m in self.line],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }


MAX_THREADS = 4
_compiled = False


def _compile(game: Game) -> None:
    """Compile the search (or load it from numba's cache) before the clock starts, once per process.

    The first call of the search compiles it, which takes seconds (more when the on-disk cache is
    stale); that is not search time and must not eat into the caller's ``timeout``. A search with
    ``k`` = 0 returns at once but needs the very same machine code as any other.
    """
    global _compiled
    if not _compiled:
        frame = _frames(game)[0]
        _Search(game, frame, _Tables(bits=4)).run(0, time.perf_counter() + 3600.0, 1, np.zeros(1, dtype=np.int64))
        _compiled = True


def default_threads() -> int:
    """The solver's threads by default: the processors this process may use, at most ``MAX_THREADS``."""
    try:
        available = len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        available = os.cpu_count() or 1
    return max(1, min(MAX_THREADS, available))


def _start(stock: Sequence[Card], variant: Variant, moves: Sequence[Move | tuple[int, int]]) -> Game:
    if len(stock) != DECK_SIZE:
        raise SolverError(TEXT["stock_size"].format(n=len(stock)))
    game = Game(stock=list(stock), variant=variant)
    for index, move in enumerate(moves):
        error = game.illegality(move[0], move[1])
        if error is not None:
            raise SolverError(TEXT["bad_moves"].format(index=index, row=move[0], col=move[1], error=error.explanation))
        game.place(move[0], move[1])
    return game


def _legal_line(game: Game, tail: Sequence[Move], turn: int) -> tuple[Move, ...] | None:
    """:func:`_checked_line`, or None when the line puts a card where the rules do not allow it (a win of the
    relaxed search, :func:`_search`)."""
    replay = game.copy()
    for move in tail:
        if move not in replay.legal_moves:
            return None
        replay.place(move.row, move.col)
    return _checked_line(game, tail, turn)


def _checked_line(game: Game, tail: Sequence[Move], turn: int) -> tuple[Move, ...]:
    """Replay a found line through the engine: it must win after exactly ``turn`` cards."""
    replay = game.copy()
    for move in tail:
        replay.place(move.row, move.col)
    outcome = replay.outcome()
    if outcome.status != "won" or replay.turn != turn:
        raise RuntimeError(f"solver bug: its line does not win after {turn} cards ({outcome})")
    return tuple(replay.moves)


def solve(
    stock: Sequence[Card],
    variant: Variant = DEFAULT_VARIANT,
    *,
    moves: Sequence[Move | tuple[int, int]] = (),
    timeout: float = 10.0,
    max_nodes: int | None = None,
    threads: int | None = None,
) -> Solution:
    """The best score reachable from the position after ``moves``, the whole ``stock`` order known.

    Returns the optimum with a line reaching it, or a proof that no line wins, or — when
    ``timeout`` seconds pass first (or about ``max_nodes`` positions were examined) — the best line
    found and a proven upper bound. A node budget makes the answer independent of the machine's speed.
    The deepening runs on ``threads`` threads (default: :func:`default_threads`; one with a node budget).
    """
    if not timeout > 0:
        raise SolverError(TEXT["timeout"].format(value=timeout))
    if max_nodes is not None and max_nodes < 1:
        raise SolverError(TEXT["max_nodes"].format(value=max_nodes))
    if threads is not None and threads < 1:
        raise SolverError(TEXT["threads"].format(value=threads))
    node_limit = NO_NODE_LIMIT if max_nodes is None else max_nodes
    game = _start(stock, variant, moves)
    _compile(game)
    started = time.perf_counter()
    deadline = started + timeout
    counters = np.zeros(1, dtype=np.int64)

    def result(status: Status, best: tuple[int, tuple[Move, ...]] | None, upper: int) -> Solution:
        return Solution(
            status=status,
            best_score=None if best is None else DECK_SIZE - best[0],
            upper_bound=upper,
            line=() if best is None else best[1],
            proven=status != "bounds",
            nodes=int(counters[0]),
            seconds=time.perf_counter() - started,
        )

    outcome = game.outcome()
    if outcome.status == "won":
        return result("optimal", (game.turn, tuple(game.moves)), DECK_SIZE - game.turn)
    if outcome.status == "lost":
        return result("unwinnable", None, -1)

    tables = _Tables()
    searches = [_Search(game, frame, tables) for frame in _frames(game)]
    best: tuple[int, tuple[Move, ...]] | None = None

    # A short probe for any win, most promising cells first, then for better and better wins with
    # small node budgets: a good line to show if time runs out, and often the optimum itself, which
    # then spares the last (and longest) deepening iterations.
    probe_deadline = started + PROBE_SHARE * timeout
    k = DECK_SIZE
    while k >= min(search.bound for search in searches) and time.perf_counter() < probe_deadline:
        found = False
        for search in searches:
            if search.bound > k:
                continue
            budget = min(node_limit, int(counters[0]) + PROBE_NODES)
            value = search.run(k, probe_deadline, budget, counters)
            if 0 <= value <= k:
                best = (value, _checked_line(game, search.moves(value), value))
                found = True
                break
            if value > k:
                search.bound = value  # the probe exhausted the frame at this k: a proven bound
        if not found:
            break
        k = best[0] - 1 if best is not None else k

    # Iterative deepening: k is a proven lower bound on the winning turn of every frame.
    n_threads = 1 if max_nodes is not None else (threads if threads is not None else default_threads())
    relax = RELAX_FROM  # the relaxed search proves; once it finds a win that breaks the rules, exact search
    if n_threads == 1:
        while True:
            k = min(search.bound for search in searches)
            if k >= INF:
                return result("unwinnable", None, -1)
            if best is not None and best[0] <= k:
                return result("optimal", best, DECK_SIZE - best[0])
            for search in searches:
                if search.bound > k:
                    continue
                value = search.run(k, deadline, node_limit, counters, relax_from=relax)
                if value == ABORTED:
                    return result("bounds", best, DECK_SIZE - k)
                if value <= k:
                    line = _legal_line(game, search.moves(value), value)
                    if line is None:
                        relax = EXACT
                        break  # the same k again, by the rules
                    return result("optimal", (value, line), DECK_SIZE - value)
                search.bound = value

    # The same with several threads: each searches its share of every frame (see _search), with its
    # own arrays and node counter, on the shared tables.
    crews = [searches] + [[_Search(game, s.frame, tables) for s in searches] for _ in range(n_threads - 1)]
    counts = [np.zeros(1, dtype=np.int64) for _ in range(n_threads)]
    probe_nodes = int(counters[0])

    def share(owner: int, k: int, stop: IntArray) -> list[int | None]:
        """Thread ``owner``'s share of iteration ``k``: its result per frame (None: frame not searched)."""
        values: list[int | None] = []
        for f, search in enumerate(crews[owner]):
            if searches[f].bound > k:
                values.append(None)
                continue
            value = search.run(k, deadline, node_limit, counts[owner], owner, n_threads, stop, relax)
            values.append(value)
            if value == ABORTED or value <= k:
                break
        return values

    with ThreadPoolExecutor(max_workers=n_threads) as pool:
        while True:
            k = min(search.bound for search in searches)
            if k >= INF:
                return result("unwinnable", None, -1)
            if best is not None and best[0] <= k:
                return result("optimal", best, DECK_SIZE - best[0])
            stop = np.zeros(1, dtype=np.int64)
            shares = list(pool.map(share, range(n_threads), [k] * n_threads, [stop] * n_threads))
            counters[0] = probe_nodes + sum(int(c[0]) for c in counts)
            broken = False
            for owner, values in enumerate(shares):
                for f, got in enumerate(values):
                    if got is not None and 0 <= got <= k:
                        line = _legal_line(game, crews[owner][f].moves(got), got)
                        if line is not None:
                            return result("optimal", (got, line), DECK_SIZE - got)
                        broken = True
            if broken:  # a relaxed win that breaks the rules: the same k again, by the rules
                relax = EXACT
                continue
            if any(got == ABORTED for values in shares for got in values):
                return result("bounds", best, DECK_SIZE - k)
            for f, search in enumerate(searches):
                if search.bound <= k:  # every thread searched its share of this frame: the least bound
                    search.bound = min(got for values in shares if (got := values[f]) is not None)


def random_winnable_deal(variant: Variant = DEFAULT_VARIANT, *, seed: int | None = None, timeout: float = 10.0) -> int:
    """A deal number, drawn at random (reproducibly with ``seed``), that the solver proves winnable.

    A deal counts as proven winnable as soon as the solver finds a win (replayed through the engine);
    the optimum need not be proven. Each candidate gets a fixed node budget (so that a seed gives the
    same deal on any machine) and at most ``timeout`` seconds.
    """
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    for _ in range(WINNABLE_TRIES):
        deal = rng.randrange(MAX_DEAL)
        if solve(deal_stock(deal), variant, timeout=timeout, max_nodes=WINNABLE_NODES).best_score is not None:
            return deal
    raise SolverError(TEXT["no_winnable"].format(tries=WINNABLE_TRIES))


WINNABLE_TRIES = 50
WINNABLE_NODES = 1 << 20


# --- the command line ---------------------------------------------------------------------------------


def solution_json(solution: Solution, game: Game) -> dict[str, Any]:
    """The ``solve --json`` document: the solution, the deal, and a full game record of the line."""
    data: dict[str, Any] = {"deal": game.deal}
    data.update(solution.to_json())
    data["record"] = None
    if solution.line:
        if game.deal is not None:
            won = Game(deal=game.deal, variant=game.variant)
        else:
            won = Game(stock=list(game.stock), variant=game.variant)
        for move in solution.line:
            won.place(move.row, move.col)
        data["record"] = record.to_json(won)
    return data


def solution_text(solution: Solution, game: Game) -> str:
    """The ``solve`` text: the status, the best score, the proven bound, the line, time and nodes."""
    lines = []
    if game.deal is not None:
        lines.append(f"{TEXT['deal']}: {game.deal}")
    if game.turn:
        lines.append(TEXT["from_record"].format(turn=game.turn))
    lines.append(TEXT[solution.status])
    best = TEXT["none"] if solution.best_score is None else str(solution.best_score)
    lines.append(f"{TEXT['best']}: {best}")
    if solution.status == "bounds":
        lines.append(f"{TEXT['upper']}: {solution.upper_bound}")
    if solution.line:
        cells = "  ".join(f"{m.row},{m.col}" for m in solution.line)
        lines.append(f"{TEXT['line']}: {cells}")
    lines.append(f"{TEXT['time']}: {solution.seconds:.2f} s; {TEXT['nodes']}: {solution.nodes}")
    return "\n".join(lines)


def _variant_of(args: argparse.Namespace) -> Variant:
    return Variant(adjacency=args.adjacency, count_buried=args.count_buried)


def command_solve(args: argparse.Namespace) -> int:
    """``foursquare solve``: solve a deal, or the position a record reaches, with the stock known."""
    if args.record is not None:
        game = record.read(args.record)
    else:
        game = Game(deal=args.deal, variant=_variant_of(args))
    solution = solve(game.stock, game.variant, moves=game.moves, timeout=args.timeout, threads=args.threads)
    if args.json:
        print(json.dumps(solution_json(solution, game)))
    else:
        print(solution_text(solution, game))
    return 0


def command_winnable_deal(args: argparse.Namespace) -> int:
    """``foursquare deal --winnable``: a random deal proven winnable, and its stock order."""
    variant = _variant_of(args)
    deal = random_winnable_deal(variant, seed=args.seed)
    stock = deal_stock(deal)
    if args.json:
        print(json.dumps({"deal": deal, "stock": [c.name for c in stock], "variant": variant.to_json()}))
    else:
        print(TEXT["deal"] + f": {deal}")
        print(" ".join(c.name for c in stock))
    return 0


# --- measuring the solver -------------------------------------------------------------------------------


def sweep(first: int, last: int, variant: Variant = DEFAULT_VARIANT, timeout: float = 10.0) -> dict[str, Any]:
    """Solve deals ``first``..``last`` and summarise: proof rate, time distribution, best scores.

    Run as ``python -m foursquare.solver FIRST LAST [TIMEOUT]``; each deal's result is printed as a
    JSON line as it comes, then the summary.
    """
    rows: list[dict[str, Any]] = []
    for deal in range(first, last + 1):
        s = solve(deal_stock(deal), variant, timeout=timeout)
        row = {"deal": deal, "status": s.status, "best_score": s.best_score, "upper_bound": s.upper_bound,
               "seconds": round(s.seconds, 3), "nodes": s.nodes}
        print(json.dumps(row), flush=True)
        rows.append(row)
    seconds = sorted(r["seconds"] for r in rows)

    def quantile(q: float) -> float:
        return float(seconds[min(len(seconds) - 1, int(q * len(seconds)))])

    scores: dict[str, int] = {}
    for r in rows:
        label = "unwinnable" if r["status"] == "unwinnable" else str(r["best_score"])
        if r["status"] == "bounds":
            label = f"bounds {r['best_score']}..{r['upper_bound']}"
        scores[label] = scores.get(label, 0) + 1
    return {
        "deals": len(rows),
        "timeout": timeout,
        "proven": sum(r["status"] != "bounds" for r in rows),
        "unproven": [r["deal"] for r in rows if r["status"] == "bounds"],
        "winnable": sum(r["best_score"] is not None for r in rows),
        "unwinnable": sum(r["status"] == "unwinnable" for r in rows),
        "seconds": {"median": quantile(0.5), "p90": quantile(0.9), "p99": quantile(0.99), "max": seconds[-1],
                    "total": round(sum(seconds), 1)},
        "scores": dict(sorted(scores.items())),
    }


if __name__ == "__main__":  # pragma: no cover - the measurement behind docs/solver.md
    import sys

    # Run the imported module's code, not this __main__ copy: numba's on-disk cache is shared by
    # both, and functions compiled here would look for their globals in __main__.
    from foursquare.solver import sweep as run_sweep

    a, b = int(sys.argv[1]), int(sys.argv[2])
    limit = float(sys.argv[3]) if len(sys.argv) > 3 else 10.0
    print(json.dumps(run_sweep(a, b, timeout=limit)))
