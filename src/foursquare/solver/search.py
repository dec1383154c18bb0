"""The compiled search: one iteration of the deepening in one frame, depth first, on an explicit stack.

``_search`` is a loop over the stack pointer ``sp`` (the turn of the position being worked on) that
is always in one of three modes:

* ``EXPAND``: the position at ``sp`` is open; work out all its children from masks
  (:func:`_work_out_children`), settle those that can be (:func:`_settle_children`), and order the
  others (:func:`_order_children`); then ``NEXT_CHILD``, or ``RETURNED`` one level up on a win.
* ``RETURNED``: the child of ``sp`` just searched returned ``value``: pass a win up, or keep the least
  bound and go on with ``NEXT_CHILD``.
* ``NEXT_CHILD``: build ``sp``'s next open child and ``EXPAND`` it; when none is left, store the
  position's bound in the tables (:func:`_store_refutation`) and go back up in ``RETURNED``.

The steps are handed the arrays in tuples (see :func:`_search`) and unpack what they use. They are
inlined into ``_search`` by numba (``inline="always"``, see :func:`~foursquare.solver.jit.inlined`), and
``_search`` counts no references (its arrays come from :func:`_work_arrays`), so the tuples cost nothing:
called, a step would be passed every field of every array it is handed, and with reference counting
every array it unpacks would be counted.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from foursquare.cards import DECK_SIZE
from foursquare.engine import MAX_FACE_DOWN, PILE_CAP
from foursquare.solver.bits import FRAME_CELLS, FULL, LINES, MAIN_DIAGONAL_MASK, IntArray, Words, _low, _popcount
from foursquare.solver.classkey import (
    COARSE_SLACK,
    CODES_SIZE,
    NO_KEY,
    _coarse_hit,
    _coarse_key,
    _coarse_key_if_few_spare,
    _fill_future_ranks,
)
from foursquare.solver.jit import helper, inlined, now, prefetch, search_entry
from foursquare.solver.parity import (
    PARITY_SET_WORDS,
    PARITY_WORDS,
    _fill_keeps_solution,
    _lower_bound,
    _mending_piles,
    _toggles_possible,
)
from foursquare.solver.position import (
    BURIED,
    FACE_UP,
    OCCUPIED,
    SLOTS,
    STATE_FIELDS,
    _build,
    _child_position,
    _fill_child,
    _line_stats,
    _open_piles,
)
from foursquare.solver.ranks import _fills_can_toggle, _one_pile_card_can_mend

INF = DECK_SIZE + 1  # "no win is possible": a lower bound on the winning turn past the last card
ABORTED = -2  # the search's result when the clock, the node budget or another thread stopped it
OPEN = -1  # _quick_value's value of a position it cannot settle
EXACT = DECK_SIZE + 2  # relax_from for a search by the rules from the first card on
RELAX_FROM = 8  # the deepening lets a card go on any empty cell of the frame from this turn on (see _search)
CHECK_EVERY = 1 << 14  # nodes between two looks at the clock, the node budget and the stop flag
SPLIT_DEPTH = 5  # with several threads, each searches its own share of the positions this deep
# A transposition-table entry is one 64-bit word, written and read whole, so that threads sharing
# the table never see one position's key with another's bound: the low 56 bits of the position's
# hash, and the bound above them.
TT_SHIFT = np.uint64(56)
TT_KEY = np.uint64((1 << 56) - 1)
SHARE_RADIX = 17  # _share hashes the path as digits of this base (a cell + 1 is at most 16)
SHARE_MULTIPLIER = 0x9E3779B1  # 2**32 / golden ratio: spreads the path's hash over its high bits
SHARE_SHIFT = 16
DOWN_RADIX = 8  # a child's order is bound * DOWN_RADIX + face-down tops (at most MAX_FACE_DOWN < DOWN_RADIX)
SETTLED = -1  # the cell of a child settled without being searched
# the modes of _search's loop (see the module docstring)
EXPAND = 0
RETURNED = 1
NEXT_CHILD = 2
# What the helpers are handed, in tuples (see _search). Plain tuples, unpacked by position: they are the compiled
# search's arguments, and numba builds them into the machine code of every step inlined into it; named fields
# (numba types a NamedTuple too) would be a change of that machine code, to measure on its own.
Run = tuple[int, int, int, int, int, int]  # t0, k, relax_from, owner, owners, split (the shared-out depth)
FrameArrays = tuple[IntArray, IntArray, IntArray, IntArray, IntArray, int, int, bool]
Position = tuple[IntArray, IntArray, IntArray, Words]
TableArrays = tuple[Words, Words, Words, Words, Words, Words, Words]
Limits = tuple[float, int, IntArray]
Stack = tuple[IntArray, IntArray, IntArray, IntArray, Words, IntArray, Words, IntArray]
Kids = tuple[IntArray, IntArray, Words, Words]
Work = tuple[Words, Words, IntArray, Words, IntArray, IntArray, IntArray]
# what _settle_children found
NO_WIN = 0  # no child wins at once: the open ones are to be ordered and searched
WON = 1  # a child wins within k; its cell is in ``line[sp]``
STOPPED = 2  # the search must stop (see ABORTED)


@helper
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
    lost, a lower bound > k on the winning turn (from the bound or the transposition table), or ``OPEN``
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
    return OPEN, bound, down


@helper
def _share(path: IntArray, t0: int, sp: int, cell: int, owners: int) -> int:  # pragma: no cover - compiled
    """Which of ``owners`` threads searches the child on ``cell`` of the position after ``path[t0:sp]``.

    A function of the moves alone — not of the order in which a thread meets them, which the shared
    tables change — so every position of the shared-out depth has exactly one owner.
    """
    h = 0
    for i in range(t0, sp):
        h = h * SHARE_RADIX + path[i] + 1
    h = (h * SHARE_RADIX + cell + 1) * SHARE_MULTIPLIER
    return int((h >> SHARE_SHIFT) % owners)


@inlined
def _candidates(
    sp: int, occ: int, open_piles: int, solvable: bool, run: Run, frame: FrameArrays, pos: Position, stack: Stack,
    parities: Words,
) -> tuple[int, int]:  # pragma: no cover - compiled
    """The cells where the card of turn ``sp`` may go, and the piles where a card may mend the parity system.

    Also lowers ``best[sp]`` below ``INF`` when it leaves out cells for a reason that is a bound: a card on a
    pile that leaves too few cards to fill the empty cells, or, with one spare card, on a pile that cannot
    mend a parity system with no solution (its child has no spare card and a system no fill can solve).
    """
    _, k, relax_from, _, _, _ = run
    _, adjacent, _, _, _, first_cell, mirror_keep, _ = frame
    state = pos[2]
    best = stack[3]
    mend = open_piles
    if occ == 0:
        return 1 << first_cell, mend
    near = FULL if sp >= relax_from else 0  # relaxed: any empty cell of the frame
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
                mend = _mending_piles(occ, state[sp, FACE_UP], open_piles, parities)
                if sp + 2 + n_empty > k and open_piles & ~mend:
                    cand &= ~(open_piles & ~mend)
                    best[sp] = k + 1
        else:
            best[sp] = sp + 1 + n_empty
    if mirror_keep and (occ & ~MAIN_DIAGONAL_MASK) == 0:
        cand &= mirror_keep  # a symmetric position: one of each pair of mirror cells
    return cand, mend


@inlined
def _work_out_children(
    sp: int, cand: int, occ: int, run: Run, frame: FrameArrays, pos: Position, tables: TableArrays, stack: Stack,
    kids: Kids, work: Work,
) -> int:  # pragma: no cover - compiled
    """The masks and hash of each child of ``sp`` on the cells ``cand`` (the thread's share of them) into
    ``kids``, with their transposition-table entries prefetched; returns how many."""
    t0, _, _, owner, owners, split = run
    cards, _, row_mask, col_mask, _, _, _, count_buried = frame
    top, height, state, hashes = pos
    z_card, z_up, z_height, z_buried, tt, _, _ = tables
    path = stack[7]
    kid_cells, kid_state, kid_hash, _ = kids
    line_stats, line_z = work[2], work[3]
    tt_mask = tt.shape[0] - 1
    card = cards[sp]
    up = state[sp, FACE_UP]
    n_kids = 0
    while cand:
        j = _low(cand)
        cand &= cand - 1
        if sp == split and _share(path, t0, sp, j, owners) != owner:
            continue  # another thread's share
        if (occ >> j) & 1 or occ == 0:
            c_occ, c_up, c_buried, c_hash = _child_position(sp, j, card, top, height, state, hashes, row_mask,
                                                            col_mask, z_card, z_up, z_height, z_buried, count_buried)
        else:
            c_occ, c_up, c_buried, c_hash = _fill_child(j, card, occ, up, state[sp, BURIED], hashes[sp], line_stats,
                                                        line_z, row_mask, col_mask, z_card, z_up, z_height)
        if _popcount(c_occ & ~c_up) <= MAX_FACE_DOWN:
            prefetch(tt, c_hash & tt_mask)
        kid_cells[n_kids, 0] = j
        kid_state[n_kids, OCCUPIED] = c_occ
        kid_state[n_kids, FACE_UP] = c_up
        kid_state[n_kids, BURIED] = c_buried
        kid_hash[n_kids] = c_hash
        n_kids += 1
    return n_kids


@inlined
def _settle_children(
    sp: int, n_kids: int, occ: int, open_piles: int, mend: int, solvable: bool, nodes: int, limits: Limits,
    line: IntArray, run: Run, frame: FrameArrays, pos: Position, tables: TableArrays, stack: Stack, kids: Kids,
    work: Work,
) -> tuple[int, int, int]:  # pragma: no cover - compiled
    """Settle what can be of the children in ``kids`` (won, lost, cut by a bound, a rank test or a table);
    the open ones get their order and coarser keys (whose entries are prefetched).

    Counts a node per child and looks at the limits every ``CHECK_EVERY``. Returns (``NO_WIN``, ``WON`` or
    ``STOPPED``, the winning turn on a win, the node count).
    """
    _, k, relax_from, _, _, _ = run
    cards, adjacent, row_mask, col_mask, cross, _, _, count_buried = frame
    top, height, state, hashes = pos
    _, _, _, z_buried, tt, z_coarse, coarse_table = tables
    best = stack[3]
    kid_cells, kid_state, kid_hash, kid_keys = kids
    parities, saved, _, _, codes, _, future_ranks = work
    deadline, node_limit, stop = limits
    coarse_mask = coarse_table.shape[0] - 1
    card = cards[sp]
    up = state[sp, FACE_UP]
    for q in range(n_kids):
        j = kid_cells[q, 0]
        c_occ = kid_state[q, OCCUPIED]
        c_up = kid_state[q, FACE_UP]
        c_buried = kid_state[q, BURIED]
        c_hash = kid_hash[q]
        if (occ >> j) & 1:
            c_open = open_piles | (1 << j) if height[sp, j] + 1 < PILE_CAP else open_piles & ~(1 << j)
        elif mend != open_piles:  # a fill only adds to the parity system: no other pile can mend it
            c_open = mend
        else:
            c_open = open_piles | (1 << j)
        nodes += 1
        if (nodes & (CHECK_EVERY - 1)) == 0 and (nodes >= node_limit or stop[0] or now() > deadline):
            return STOPPED, 0, nodes
        known = -1  # does the child's parity system have a solution?
        if occ and not (occ >> j) & 1:
            known = 0  # a fill only adds equations: none if the parent's has none
            if solvable:
                known = _fill_keeps_solution(j, occ, up, c_occ, c_up, row_mask, col_mask, saved, parities)
        value, bound, down = _quick_value(sp + 1, k, c_occ, c_up, c_buried, c_hash, c_open, count_buried, tt,
                                          parities, known)
        child_key = NO_KEY
        class_key = NO_KEY
        if value == OPEN:
            _build(sp, sp + 1, j, card, top, height, state, hashes, c_occ, c_up, c_buried, c_hash)
            # The rank tests first: they are cheaper than the coarser key.
            no_slack = bound == k - sp - 1  # the bound leaves no card to spare
            if no_slack and bound == _popcount(FULL & ~c_occ) + 1 and not _one_pile_card_can_mend(
                sp + 1, top, height, state, cards, row_mask, col_mask, parities, c_open
            ):
                value = k + 1  # one spare card, needed on a pile, but no card to come can do the repair
            elif no_slack and bound == _popcount(FULL & ~c_occ) and not _fills_can_toggle(
                sp + 1, top, state, cards, row_mask, col_mask, parities
            ):
                value = k + 1  # no spare card, and the cards to come cannot make the toggles needed
            else:
                child_key, class_key = _coarse_key_if_few_spare(sp + 1 >= relax_from, sp + 1, k, future_ranks, top,
                                                                height, state, cross, adjacent, z_coarse, z_buried,
                                                                codes)
                if child_key:  # looked up by _order_children, once every child's entry is on its way
                    prefetch(coarse_table, child_key & coarse_mask)
                    if class_key != child_key:
                        prefetch(coarse_table, class_key & coarse_mask)
        if value >= 0:
            if value <= k:
                line[sp] = j
                return WON, value, nodes
            if value < best[sp]:
                best[sp] = value
            kid_cells[q, 0] = SETTLED
            continue
        kid_cells[q, 1] = bound * DOWN_RADIX + down
        kid_keys[q, 0] = child_key
        kid_keys[q, 1] = class_key
    return NO_WIN, 0, nodes


@inlined
def _order_children(
    sp: int, n_kids: int, k: int, tables: TableArrays, stack: Stack, kids: Kids, work: Work
) -> int:  # pragma: no cover - compiled
    """The open children in ``kids`` that the coarser table does not refute, into ``sp``'s row of the stack
    sorted by their order (lower bound, then face-down tops); returns how many."""
    coarse_table = tables[6]
    moves, _, _, best, move_keys, move_state, move_hash, _ = stack
    kid_cells, kid_state, kid_hash, kid_keys = kids
    sort_keys = work[5]
    n = 0
    for q in range(n_kids):
        j = kid_cells[q, 0]
        if j == SETTLED:
            continue
        child_key = kid_keys[q, 0]
        if child_key and _coarse_hit(coarse_table, child_key, kid_keys[q, 1]):
            if k + 1 < best[sp]:
                best[sp] = k + 1
            continue
        key = kid_cells[q, 1]
        pos = n  # insertion sort by key
        while pos > 0 and sort_keys[pos - 1] > key:
            sort_keys[pos] = sort_keys[pos - 1]
            moves[sp, pos] = moves[sp, pos - 1]
            move_keys[sp, pos] = move_keys[sp, pos - 1]
            move_hash[sp, pos] = move_hash[sp, pos - 1]
            for x in range(STATE_FIELDS):
                move_state[sp, pos, x] = move_state[sp, pos - 1, x]
            pos -= 1
        sort_keys[pos] = key
        moves[sp, pos] = j
        move_keys[sp, pos] = child_key
        move_hash[sp, pos] = kid_hash[q]
        for x in range(STATE_FIELDS):
            move_state[sp, pos, x] = kid_state[q, x]
        n += 1
    return n


@inlined
def _expand(
    sp: int, nodes: int, limits: Limits, line: IntArray, counters: IntArray, run: Run, frame: FrameArrays,
    pos: Position, tables: TableArrays, stack: Stack, kids: Kids, work: Work,
) -> tuple[int, int, int]:  # pragma: no cover - compiled
    """``EXPAND`` the open position at ``sp``: returns (``NO_WIN``, ``WON`` or ``STOPPED``, the winning turn,
    the node count); on ``NO_WIN`` its open children are on the stack, the first one next."""
    if counters.shape[0] > 1:
        counters[1 + sp] += 1  # expansions per turn, for profiling
    top, height, state, _ = pos
    z_up = tables[1]
    _, n_moves, index, best, _, _, _, _ = stack
    parities, saved, line_stats, line_z, _, _, _ = work
    occ = state[sp, OCCUPIED]
    up = state[sp, FACE_UP]
    best[sp] = INF
    open_piles = _open_piles(height, sp, occ)
    solvable = occ != 0 and _toggles_possible(occ, up, 0, 0, 0, 0, parities)
    if solvable:  # kept: a fill's child adds at most three equations to it
        for w in range(PARITY_SET_WORDS):
            saved[w] = parities[w]
    cand, mend = _candidates(sp, occ, open_piles, solvable, run, frame, pos, stack, parities)
    _line_stats(sp, occ, up, top, z_up, line_stats, line_z)
    # Most children are settled from their masks and hash; only the others are built. All the
    # children's masks first, so that their table entries are on their way from memory.
    n_kids = _work_out_children(sp, cand, occ, run, frame, pos, tables, stack, kids, work)
    status, value, nodes = _settle_children(sp, n_kids, occ, open_piles, mend, solvable, nodes, limits, line, run,
                                            frame, pos, tables, stack, kids, work)
    if status == NO_WIN:
        n_moves[sp] = _order_children(sp, n_kids, run[1], tables, stack, kids, work)
        index[sp] = 0
    return status, value, nodes


@inlined
def _store_refutation(
    sp: int, value: int, run: Run, frame: FrameArrays, pos: Position, tables: TableArrays, stack: Stack, work: Work
) -> None:  # pragma: no cover - compiled
    """Every child of ``sp`` failed: keep its bound ``value`` in the transposition table, and its coarser key in
    the coarser table while few cards are spare. Above the shared-out depth a thread has seen only its
    share of the children: no entry."""
    t0, k, relax_from, _, _, split = run
    _, adjacent, _, _, cross, _, _, _ = frame
    top, height, state, hashes = pos
    _, _, _, z_buried, tt, z_coarse, coarse_table = tables
    _, _, index, _, move_keys, _, _, _ = stack
    codes, future_ranks = work[4], work[6]
    if sp <= split:
        return
    tt[hashes[sp] & (tt.shape[0] - 1)] = (hashes[sp] & TT_KEY) | (np.uint64(value) << TT_SHIFT)
    slack = k - sp - _popcount(FULL & ~state[sp, OCCUPIED])
    if slack <= COARSE_SLACK and state[sp, OCCUPIED] != 0:
        if sp > t0:
            key = move_keys[sp - 1, index[sp - 1]]  # worked out when this position was a child
        else:
            key = _coarse_key(sp >= relax_from, sp, k, slack, future_ranks, top, height, state, cross, adjacent,
                              z_coarse, z_buried, codes)[0]
        coarse_table[key & (coarse_table.shape[0] - 1)] = key


def _work_arrays() -> tuple[Stack, Kids, Work]:
    """The arrays of one search: its stack, the children of the expanded position, and work space (allocated
    by the caller, so that the compiled search needs no reference counting)."""
    # the stack, one row per turn: open children (cell, coarser key, masks, hash), how many, which is next,
    # the least bound of the children so far, and the path of cells from t0
    stack = (np.empty((SLOTS, FRAME_CELLS), dtype=np.int64), np.zeros(SLOTS, dtype=np.int64),
             np.zeros(SLOTS, dtype=np.int64), np.zeros(SLOTS, dtype=np.int64),
             np.zeros((SLOTS, FRAME_CELLS), dtype=np.uint64),
             np.zeros((SLOTS, FRAME_CELLS, STATE_FIELDS), dtype=np.int64),
             np.zeros((SLOTS, FRAME_CELLS), dtype=np.uint64), np.zeros(SLOTS, dtype=np.int64))
    # the children of the expanded position: (cell or SETTLED, order), masks, hash, coarser keys
    kids = (np.zeros((FRAME_CELLS, 2), dtype=np.int64), np.zeros((FRAME_CELLS, STATE_FIELDS), dtype=np.int64),
            np.zeros(FRAME_CELLS, dtype=np.uint64), np.zeros((FRAME_CELLS, 2), dtype=np.uint64))
    # parity system (and work space), the expanded position's system, its lines' face-up rank spans and
    # z_up sums, the coarser key's work space, the sort keys, the ranks of the cards to come from each slot
    work = (np.zeros(PARITY_WORDS, dtype=np.uint64), np.zeros(PARITY_SET_WORDS, dtype=np.uint64),
            np.zeros((2, LINES), dtype=np.int64), np.zeros(LINES, dtype=np.uint64),
            np.zeros(CODES_SIZE, dtype=np.int64), np.empty(FRAME_CELLS, dtype=np.int64),
            np.zeros(SLOTS, dtype=np.int64))
    return stack, kids, work


@inlined
def _root_value(
    run: Run, frame: FrameArrays, pos: Position, tables: TableArrays, work: Work
) -> int:  # pragma: no cover - compiled
    """:func:`_quick_value` of the search's first position ``t0``, or ``k + 1`` when the coarser table refutes it."""
    t0, k, relax_from, _, _, _ = run
    top, height, state, hashes = pos
    occ = state[t0, OCCUPIED]
    value, _, _ = _quick_value(t0, k, occ, state[t0, FACE_UP], state[t0, BURIED], hashes[t0],
                               _open_piles(height, t0, occ), frame[7], tables[4], work[0])
    if value == OPEN:
        key, class_key = _coarse_key_if_few_spare(t0 >= relax_from, t0, k, work[6], top, height, state, frame[4],
                                                  frame[1], tables[5], tables[3], work[4])
        if key and _coarse_hit(tables[6], key, class_key):
            value = k + 1
    return value


@search_entry
def _search(
    t0: int, k: int, frame: FrameArrays, pos: Position, tables: TableArrays, limits: Limits, line: IntArray,
    counters: IntArray, owner: int, owners: int, relax_from: int, arrays: tuple[Stack, Kids, Work],
) -> int:  # pragma: no cover - compiled
    """Depth-first search from slot ``t0`` (the position after ``t0`` cards) for a win within ``k`` cards.

    ``frame`` is (cards, adjacent, row_mask, col_mask, cross, first_cell, mirror_keep, count_buried);
    ``pos`` the position arrays (top, height, state, hashes: see :mod:`foursquare.solver.position`), set
    at ``t0``; ``tables`` (z_card, z_up, z_height, z_buried, tt, z_coarse, coarse_table); ``limits``
    (deadline, node_limit, stop).

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
    by its class (:func:`_coarse_key`), which refutes far more positions at once. A win it finds may break
    the rules; the caller checks it and searches again without the relaxation (``relax_from`` = ``EXACT``).
    """
    cards = frame[0]
    top, height, state, hashes = pos
    stop = limits[2]
    stack, kids, work = arrays  # from _work_arrays
    _fill_future_ranks(cards, k, work[6])
    moves, n_moves, index, best, _, move_state, move_hash, path = stack
    split = t0 + SPLIT_DEPTH - 1 if owners > 1 else -1  # the children of positions this deep are shared out
    run = (t0, k, relax_from, owner, owners, split)
    nodes = counters[0] + 1
    value = _root_value(run, frame, pos, tables, work)
    if value != OPEN:
        counters[0] = nodes
        return value
    sp = t0
    mode = EXPAND
    while True:
        if mode == EXPAND:
            status, value, nodes = _expand(sp, nodes, limits, line, counters, run, frame, pos, tables, stack, kids,
                                           work)
            if status == STOPPED:
                counters[0] = nodes
                return ABORTED
            if status == WON:  # line[sp] holds the winning child's cell
                if sp == t0:
                    counters[0] = nodes
                    stop[0] = 1
                    return value
                sp -= 1
                mode = RETURNED
            else:
                mode = NEXT_CHILD
        elif mode == RETURNED:
            if value <= k:  # a win below: record the cell of this position's move and pass the win up
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
            mode = NEXT_CHILD
        elif index[sp] < n_moves[sp]:  # NEXT_CHILD, one left
            i = index[sp]
            path[sp] = moves[sp, i]
            _build(sp, sp + 1, moves[sp, i], cards[sp], top, height, state, hashes, move_state[sp, i, OCCUPIED],
                   move_state[sp, i, FACE_UP], move_state[sp, i, BURIED], move_hash[sp, i])
            sp += 1
            mode = EXPAND
        else:  # NEXT_CHILD, every child failed: remember the bound and hand it up
            value = best[sp]
            _store_refutation(sp, value, run, frame, pos, tables, stack, work)
            if sp == t0:
                counters[0] = nodes
                return int(value)
            sp -= 1
            mode = RETURNED
