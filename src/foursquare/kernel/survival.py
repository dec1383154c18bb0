"""The exact chance of surviving the next few cards: a short expectimax over the unseen cards' ranks.

A player who does not know the stock can still count it: after a move, each rank among the unseen cards
comes next with the chance of its share of them, and for each the player will pick the cell that keeps the
game alive longest. ``survival(state, counts, depth)`` is the chance that, so played, the game is not lost
within ``depth`` more cards (a win counts as surviving). It depends on no policy and no sampling, which is
what the expert player wants from it: hindsight, knowing the cards to come, dodges a death that the player
could not have seen coming.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from foursquare.engine import Move, View
from foursquare.jitcache import njit
from foursquare.kernel.compiled import entry
from foursquare.kernel.rules import evaluate, legal, place
from foursquare.kernel.state import (
    MAX_MOVES,
    RANK_COUNT,
    STATE_SIZE,
    STATUS,
    STATUS_LOST_FACE_DOWN,
    STATUS_LOST_STOCK,
    STATUS_PLAYING,
    SUIT_COUNT,
    Array,
    IntArray,
    Weights,
    cell_of,
    copy_state,
    state_of_view,
)

#: The deepest look the compiled search allows (its buffers' size); a few cards is what it is for.
MAX_DEPTH = 6


@njit(cache=True, inline="always")
def _lost(status: int) -> bool:
    return status in (STATUS_LOST_FACE_DOWN, STATUS_LOST_STOCK)


@njit(cache=True)
def _next_rank(counts: IntArray, rank: int) -> int:
    """The first rank index from ``rank`` on with an unseen card; :data:`RANK_COUNT` if none."""
    while rank < RANK_COUNT and counts[rank] == 0:
        rank += 1
    return rank


@njit(cache=True)
def _survive(states: Array, cells: IntArray, counts: IntArray, depth: int) -> float:
    """The chance of surviving ``depth`` more cards from ``states[0]``; ``counts[r]``: unseen cards of rank
    ``r + 1``. A loop over levels rather than a recursion (numba cannot load a recursive function from its
    cache); level ``L`` weighs the next card's ranks from ``states[L]``, each rank's cells until one survives
    for sure."""
    rank = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
    index = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
    moves = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
    total = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
    best = np.zeros(MAX_DEPTH + 1)
    chance = np.zeros(MAX_DEPTH + 1)
    level = 0
    entering = True
    while True:
        if entering:  # a new position at ``level``: settled at once, or its first rank set up
            entering = False
            left = 0
            for r in range(RANK_COUNT):
                left += counts[r]
            status = states[level, STATUS]
            if _lost(status) or level == depth or status != STATUS_PLAYING or left == 0:
                value = 0.0 if _lost(status) else 1.0
                if level == 0:
                    return value
                level -= 1
                best[level] = max(best[level], value)
                index[level] += 1
            else:
                total[level] = left
                moves[level] = legal(states[level], cells[level])
                rank[level] = _next_rank(counts, 0)
                counts[rank[level]] -= 1
                index[level] = 0
                best[level] = 0.0
                chance[level] = 0.0
            continue
        if index[level] < moves[level] and best[level] < 1.0:  # the rank's next cell
            cell = cells[level, index[level]]
            card = rank[level] * SUIT_COUNT  # the rules look at the rank alone
            if level + 1 == depth:  # the last card looked at: whether it loses at once
                if not _lost(evaluate(states[level], cell, card)[0]):
                    best[level] = 1.0
                index[level] += 1
            else:
                copy_state(states[level + 1], states[level])
                place(states[level + 1], cell, card)
                level += 1
                entering = True
            continue
        counts[rank[level]] += 1  # the rank is done: its best cell's chance, at the rank's share
        chance[level] += counts[rank[level]] * best[level]  # divided once, so that sure survival is exactly 1
        following = _next_rank(counts, rank[level] + 1)
        if following < RANK_COUNT:
            rank[level] = following
            counts[following] -= 1
            index[level] = 0
            best[level] = 0.0
            continue
        value = float(chance[level] / total[level])
        if level == 0:
            return value
        level -= 1
        best[level] = max(best[level], value)
        index[level] += 1


@njit(cache=True)
def survival_after(state: Array, card: int, cells: IntArray, counts: IntArray, depth: int, out: Weights) -> None:
    """``out[i]``: the chance of surviving ``depth`` more cards after ``card`` goes on ``cells[i]``
    (``counts[r]``: the unseen cards of rank ``r + 1``; ``depth`` at most :data:`MAX_DEPTH`)."""
    states = np.zeros((MAX_DEPTH + 1, STATE_SIZE), dtype=state.dtype)
    buffers = np.zeros((MAX_DEPTH + 1, MAX_MOVES), dtype=cells.dtype)
    work = counts.copy()
    for i in range(cells.shape[0]):
        copy_state(states[0], state)
        place(states[0], cells[i], card)
        out[i] = _survive(states, buffers, work, depth)


def move_survival(view: View, moves: Sequence[Move], depth: int) -> Weights:
    """The chance of surviving ``depth`` more cards after each of ``moves`` in ``view`` (see the module)."""
    if not 1 <= depth <= MAX_DEPTH:
        raise ValueError(f"depth {depth} is not in 1..{MAX_DEPTH}")
    if view.card is None:
        raise ValueError("the game is over: there is no card to place")
    counts = np.zeros(RANK_COUNT, dtype=np.int64)
    for card in view.unseen:
        counts[card.rank - 1] += 1
    cells = np.array([cell_of(m.row, m.col) for m in moves], dtype=np.int64)
    out = np.zeros(len(moves))
    entry("survival_after")(state_of_view(view), int(view.card), cells, counts, depth, out)
    return out
