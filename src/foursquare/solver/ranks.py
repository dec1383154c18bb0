"""Rank tests, when at most one card is spare: which cards to come can make the toggles a win needs.

The parity test (:mod:`foursquare.solver.parity`) knows *where* a card on a pile may go, not *which*
card it is. Ranks are handled as masks: bit ``r`` for rank ``r + 1`` (``RANKS``: all ten).
"""

from __future__ import annotations

from foursquare.cards import DECK_SIZE
from foursquare.engine import GRID
from foursquare.solver.bits import COLUMN_CELLS, FULL, ROW_CELLS, IntArray, Words, _full_lines, _low, _popcount
from foursquare.solver.jit import helper
from foursquare.solver.parity import GROUND, _reset_lines, _toggles_possible, _tops_fit, _unite
from foursquare.solver.position import (
    CARDS_PER_RANK,
    FACE_UP,
    NO_HIGH_RANK,
    NO_LOW_RANK,
    OCCUPIED,
    RANK_COUNT,
    _open_piles,
)

RANKS = (1 << RANK_COUNT) - 1  # the mask of every rank
# What one card filling a cell can do to its row and column, as bit 2 * (row fires) + (column fires)
# of a mask of such pairs:
LEAVE_BOTH = 1 << 0
FIRE_COLUMN = 1 << 1
FIRE_ROW = 1 << 2
FIRE_BOTH = 1 << 3
ROW_FIRES = FIRE_ROW | FIRE_BOTH  # the pairs in which the row fires
ROW_STAYS = LEAVE_BOTH | FIRE_COLUMN
COLUMN_FIRES = FIRE_COLUMN | FIRE_BOTH
COLUMN_STAYS = LEAVE_BOTH | FIRE_ROW


@helper
def _rank_span(lo: int, hi: int) -> int:  # pragma: no cover - compiled
    """The mask of the ranks from ``lo`` to ``hi`` (none when ``hi`` < ``lo``)."""
    return ((1 << (hi + 1)) - (1 << lo)) if lo <= hi else 0


@helper
def _line_cells(rows: int, cols: int) -> tuple[int, int]:  # pragma: no cover - compiled
    """The cells of the rows in the mask ``rows`` (bit r) and those of the columns in ``cols`` (bit c)."""
    row_cells = 0
    col_cells = 0
    for x in range(GRID):
        if (rows >> x) & 1:
            row_cells |= ROW_CELLS << (GRID * x)
        if (cols >> x) & 1:
            col_cells |= COLUMN_CELLS << x
    return row_cells, col_cells


@helper
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
    sure_lo = NO_LOW_RANK
    sure_hi = NO_HIGH_RANK
    may_lo = NO_LOW_RANK
    may_hi = NO_HIGH_RANK
    m = others
    while m:
        j = _low(m)
        m &= m - 1
        r = top[slot, j] // CARDS_PER_RANK
        sure = (frozen >> j) & 1 and (up >> j) & 1
        if sure or not (frozen >> j) & 1:
            may_lo = min(may_lo, r)
            may_hi = max(may_hi, r)
        if sure:
            sure_lo = min(sure_lo, r)
            sure_hi = max(sure_hi, r)
    return _rank_span(may_lo, may_hi), RANKS & ~_rank_span(sure_lo, sure_hi)


@helper
def _window_ranks(cards: IntArray, first: int, last: int) -> int:  # pragma: no cover - compiled
    """The mask of the ranks of ``cards[first:last]``."""
    ranks = 0
    for s in range(first, last):
        ranks |= 1 << (cards[s] // CARDS_PER_RANK)
    return ranks


@helper
def _one_chance_pairs(
    e: int, row_one: bool, col_one: bool, up: int, frozen: int, window: int, top: IntArray, slot: int,
    row_mask: IntArray, col_mask: IntArray,
) -> int:  # pragma: no cover - compiled
    """The pairs (``LEAVE_BOTH`` ...) that the cards of ``window`` can make by filling the empty cell ``e``,
    whose row (``row_one``) or column (``col_one``) has one chance to toggle: :func:`_one_chance_lines`."""
    row_leave, row_fire = _line_options(row_mask[e], up, frozen, top, slot) if row_one else (RANKS, RANKS)
    col_leave, col_fire = _line_options(col_mask[e], up, frozen, top, slot) if col_one else (RANKS, RANKS)
    pairs = 0
    if window & row_leave & col_leave:
        pairs |= LEAVE_BOTH
    if window & row_leave & col_fire:
        pairs |= FIRE_COLUMN
    if window & row_fire & col_leave:
        pairs |= FIRE_ROW
    if window & row_fire & col_fire:
        pairs |= FIRE_BOTH
    return pairs


@helper
def _tie_one_chance(
    r: int, c: int, row_one: bool, col_one: bool, pairs: int, parities: Words
) -> bool:  # pragma: no cover - compiled
    """Add what ``pairs`` (:func:`_one_chance_pairs`) allows row ``r`` and column ``c`` to the parity system;
    False if it has no solution left. One parity possible ties the line to the ground; two pairs may tie
    row and column together."""
    ok = True
    if row_one and (pairs & ROW_FIRES) == 0:
        ok = _unite(parities, r, GROUND, 0)
    elif row_one and (pairs & ROW_STAYS) == 0:
        ok = _unite(parities, r, GROUND, 1)
    if ok and col_one and (pairs & COLUMN_FIRES) == 0:
        ok = _unite(parities, GRID + c, GROUND, 0)
    elif ok and col_one and (pairs & COLUMN_STAYS) == 0:
        ok = _unite(parities, GRID + c, GROUND, 1)
    if ok and row_one and col_one and pairs == LEAVE_BOTH | FIRE_BOTH:
        ok = _unite(parities, r, GRID + c, 0)
    elif ok and row_one and col_one and pairs == FIRE_COLUMN | FIRE_ROW:
        ok = _unite(parities, r, GRID + c, 1)
    return ok


@helper
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
    """
    empty = FULL & ~occ
    window = _window_ranks(cards, first, last)
    full_rows, full_cols = _full_lines(occ)
    pile_row = pile // GRID if pile >= 0 else -1
    pile_col = pile % GRID if pile >= 0 else -1
    pile_rows = 1 << pile_row if pile >= 0 else 0
    pile_cols = 1 << pile_col if pile >= 0 else 0
    # the cells of the full rows and of the full columns that the pile card misses
    quiet_rows, quiet_cols = _line_cells(full_rows & ~pile_rows, full_cols & ~pile_cols)
    m = empty
    while m:
        e = _low(m)
        m &= m - 1
        r = e // GRID
        c = e % GRID
        row_one = r != pile_row and _popcount(empty & (ROW_CELLS << (GRID * r))) == 1
        col_one = c != pile_col and _popcount(empty & (COLUMN_CELLS << c)) == 1
        if not row_one and not col_one:
            continue
        frozen = ((ROW_CELLS << (GRID * r)) & quiet_cols) | ((COLUMN_CELLS << c) & quiet_rows)
        pairs = _one_chance_pairs(e, row_one, col_one, up, frozen, window, top, slot, row_mask, col_mask)
        if pairs == 0 or not _tie_one_chance(r, c, row_one, col_one, pairs, parities):
            return False
    return True


@helper
def _pile_card_fits(
    j: int, row_full: int, col_full: int, up: int, frozen: int, window: int, top: IntArray, slot: int,
    row_mask: IntArray, col_mask: IntArray, parities: Words,
) -> bool:  # pragma: no cover - compiled
    """Step 3 of :func:`_one_pile_card_can_mend` for the pile ``j``: can a card of ``window`` give ``j``'s full
    lines parities (fired or not) that keep the parity system solvable?"""
    r = j // GRID
    c = j % GRID
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
            if row_full and not _unite(parities, r, GROUND, a):
                continue
            if col_full and not _unite(parities, GRID + c, GROUND, b):
                continue
            return True
    return False


@helper
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
    occ = state[slot, OCCUPIED]
    up = state[slot, FACE_UP]
    last = min(slot + _popcount(FULL & ~occ) + 1, DECK_SIZE)
    full_rows, full_cols = _full_lines(occ)
    rows_cells, cols_cells = _line_cells(full_rows, full_cols)
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
        if _pile_card_fits(j, row_full, col_full, up, frozen, window, top, slot, row_mask, col_mask, parities):
            return True
    return False


@helper
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
    occ = state[slot, OCCUPIED]
    up = state[slot, FACE_UP]
    last = min(slot + _popcount(FULL & ~occ), DECK_SIZE)
    _reset_lines(occ, 0, 0, 0, parities)
    if not _one_chance_lines(slot, occ, up, -1, slot, last, top, cards, row_mask, col_mask, parities):
        return False
    return _tops_fit(occ, up, 0, parities)
