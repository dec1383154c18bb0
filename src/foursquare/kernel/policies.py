"""The compiled players' policies: greedy, the best player's rollout policy, and random play.

Each policy chooses a cell among the legal ones (:func:`foursquare.kernel.rules.legal`); its
``*_playout`` plays a game to the end from a state and a stock, and ``*_games`` plays many stocks.
"""

from __future__ import annotations

import numpy as np

from foursquare.cards import DECK_SIZE
from foursquare.engine import WINNING_CELLS, Variant
from foursquare.jitcache import njit
from foursquare.kernel.compiled import entry
from foursquare.kernel.rng import below, make_rng, shuffle_tail
from foursquare.kernel.rules import NO_CELL, evaluate, face_down, legal, line_tops, place
from foursquare.kernel.state import (
    AREA_SIDE,
    BURIED_FACE_DOWN,
    FACE_DOWN_TOPS,
    MAX_COL,
    MAX_MOVES,
    MAX_ROW,
    MIN_COL,
    MIN_ROW,
    OCCUPIED,
    RANK_COUNT,
    SCORE,
    STATE_SIZE,
    STATUS,
    STATUS_PLAYING,
    STATUS_WON,
    TURN,
    Array,
    IntArray,
    Rng,
    Weights,
    copy_state,
    empty_state,
    variant_flags,
)

# Greedy ranks a move by (face-down cards, -occupied cells) as one key: the scale exceeds any cell
# count, and a losing move's key exceeds every other.
_KEY_SCALE = 2 * WINNING_CELLS
LOSS_KEY = 1000

# --- greedy ----------------------------------------------------------------------------------------


@njit(cache=True)
def greedy_choice(state: Array, card: int, moves: IntArray, n: int) -> int:
    """The greedy player's cell among ``moves[:n]`` (see :mod:`foursquare.players`)."""
    best = -1
    best_key = 1 << 30
    for i in range(n):
        cell = int(moves[i])
        status, down, occupied = evaluate(state, cell, card)
        if status == STATUS_WON:
            return cell
        if status != STATUS_PLAYING:
            key = LOSS_KEY * _KEY_SCALE - occupied
        else:
            key = down * _KEY_SCALE - occupied
        if key < best_key:
            best_key = key
            best = cell
    return best


@njit(cache=True)
def greedy_move(state: Array, card: int) -> int:
    """The greedy player's cell for ``card`` in ``state`` (-1 when the game is over)."""
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    n = legal(state, moves)
    if n == 0:
        return -1
    return greedy_choice(state, card, moves, n)


@njit(cache=True)
def greedy_playout(state: Array, stock: Array) -> int:
    """Play greedily from ``state`` (changed in place) drawing ``stock[turn]`` each move; return the status."""
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    while state[STATUS] == STATUS_PLAYING:
        n = legal(state, moves)
        card = stock[state[TURN]]
        place(state, greedy_choice(state, card, moves, n), card)
    return int(state[STATUS])


@njit(cache=True)
def greedy_games(stocks: Array, diagonal: int, count_buried: int) -> IntArray:
    """Play every stock (one per row) greedily from the empty grid; return each game's score, -1 for a loss."""
    template = empty_state(diagonal, count_buried)
    scores = np.empty(stocks.shape[0], dtype=np.int64)
    state = np.empty(STATE_SIZE, dtype=np.int8)
    for g in range(stocks.shape[0]):
        copy_state(state, template)
        if greedy_playout(state, stocks[g]) == STATUS_WON:
            scores[g] = state[SCORE]
        else:
            scores[g] = -1
    return scores


# --- the rollout policy of the best player ---------------------------------------------------------

#: Weights of :func:`policy_value`: face-down cards, occupied cells, expected tops turned down by the
#: next card, expected tops turned up by it. Tuned by local search on deals 10001-14000 (see docs/ai.md).
POLICY_WEIGHTS = np.array([1.0, 3.286, 0.585, 0.348])

# The value of a losing move: above any position's value, lower the more cells it fills.
_LOSING_VALUE = 1e9


@njit(cache=True)
def policy_value(state: Array, weights: Weights) -> float:
    """How bad a position is for the rollout policy (lower is better).

    A weighted sum of the face-down cards counting towards the limit, minus the occupied cells,
    plus the risk carried by every row and column: with a random next rank, the chance that the
    line's check fires (every rank when its tops are all face down; otherwise a rank beyond the
    range of its face-up tops) times the tops it would turn down, minus the same chance times the
    tops it would turn up.
    """
    down = face_down(state, state[FACE_DOWN_TOPS], state[BURIED_FACE_DOWN])
    risk = 0.0
    gain = 0.0
    for line in range(2):  # the rows, then the columns
        if line == 0:
            a_lo, a_hi, b_lo, b_hi = state[MIN_ROW], state[MAX_ROW], state[MIN_COL], state[MAX_COL]
            a_step, b_step = AREA_SIDE, 1
        else:
            a_lo, a_hi, b_lo, b_hi = state[MIN_COL], state[MAX_COL], state[MIN_ROW], state[MAX_ROW]
            a_step, b_step = 1, AREA_SIDE
        for a in range(a_lo, a_hi + 1):
            first = a * a_step + b_lo * b_step
            n_up, n_down, up_max, up_min = line_tops(state, NO_CELL, first, b_step, b_hi - b_lo + 1)
            if n_up + n_down == 0:
                continue
            p = 1.0 if n_up == 0 else ((RANK_COUNT - up_max) + (up_min - 1)) / RANK_COUNT
            risk += p * n_up
            gain += p * n_down
    return float(weights[0] * down - weights[1] * state[OCCUPIED] + weights[2] * risk - weights[3] * gain)


@njit(cache=True)
def policy_choice(state: Array, card: int, moves: IntArray, n: int, weights: Weights, work: Array) -> int:
    """The rollout policy's cell among ``moves[:n]``: a move that wins at once, else the lowest
    :func:`policy_value` after the move, a losing move counting as worst (first in (row, col) order on ties).
    ``work`` is scratch space of :data:`STATE_SIZE`.
    """
    best = -1
    best_value = 1e18
    for i in range(n):
        cell = int(moves[i])
        status, _, occupied = evaluate(state, cell, card)
        if status == STATUS_WON:
            return cell
        if status != STATUS_PLAYING:
            value = _LOSING_VALUE - occupied
        else:
            copy_state(work, state)
            place(work, cell, card)
            value = policy_value(work, weights)
        if value < best_value:
            best_value = value
            best = cell
    return best


@njit(cache=True)
def policy_playout(state: Array, stock: Array, weights: Weights) -> int:
    """Play the rollout policy from ``state`` (changed in place) drawing ``stock[turn]``; return the status."""
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    work = np.empty(STATE_SIZE, dtype=np.int8)
    while state[STATUS] == STATUS_PLAYING:
        n = legal(state, moves)
        card = stock[state[TURN]]
        place(state, policy_choice(state, card, moves, n, weights, work), card)
    return int(state[STATUS])


@njit(cache=True)
def policy_games(stocks: Array, template: Array, weights: Weights) -> IntArray:
    """Play every stock (one per row) with the rollout policy from ``template``; scores, -1 for a loss."""
    scores = np.empty(stocks.shape[0], dtype=np.int64)
    state = np.empty(STATE_SIZE, dtype=np.int8)
    for g in range(stocks.shape[0]):
        copy_state(state, template)
        scores[g] = state[SCORE] if policy_playout(state, stocks[g], weights) == STATUS_WON else -1
    return scores


# --- random play -----------------------------------------------------------------------------------


@njit(cache=True)
def random_move(state: Array, rng: Rng) -> int:
    """A uniformly random legal cell (-1 when the game is over)."""
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    n = legal(state, moves)
    if n == 0:
        return -1
    return int(moves[below(rng, n)])


def random_games(count: int, seed: int, variant: Variant) -> tuple[Array, IntArray, IntArray]:
    """``count`` random legal games on random stocks: (stocks, moves as cells padded with -1, lengths)."""
    games: tuple[Array, IntArray, IntArray] = entry("_random_games")(count, make_rng(seed), *variant_flags(variant))
    return games


@njit(cache=True)
def _random_games(count: int, rng: Rng, diagonal: int, count_buried: int) -> tuple[Array, IntArray, IntArray]:
    stocks = np.empty((count, DECK_SIZE), dtype=np.int8)
    moves = np.full((count, DECK_SIZE), -1, dtype=np.int64)
    lengths = np.zeros(count, dtype=np.int64)
    template = empty_state(diagonal, count_buried)
    state = np.empty(STATE_SIZE, dtype=np.int8)
    for g in range(count):
        for i in range(DECK_SIZE):
            stocks[g, i] = i
        shuffle_tail(stocks[g], 0, rng)
        copy_state(state, template)
        t = 0
        while state[STATUS] == STATUS_PLAYING:
            cell = random_move(state, rng)
            place(state, cell, stocks[g, t])
            moves[g, t] = cell
            t += 1
        lengths[g] = t
    return stocks, moves, lengths
