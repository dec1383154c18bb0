"""A compiled core of the rules for fast search and simulation (numba).

The engine (:mod:`foursquare.engine`) defines the rules; this module plays the same game on a
compact state so that players can run many thousands of playouts per second. The differential
tests in ``tests/test_kernel.py`` show the two agree move for move in every variant.

State layout
------------
A state is one ``int8`` array of :data:`STATE_SIZE` entries. The grid is a 9×9 window whose
cell index is ``(row + 4) * 9 + (col + 4)``: the first card sits at index 40 and, because the
occupied box is at most 4×4, every occupied cell lies in rows and columns −3..3, so the
outermost ring is always empty and neighbours never need a bounds check. Per cell the state
keeps the top card (``-1`` when empty), whether the top faces up, the pile height and how many
face-down cards the pile buries. Scalars follow: the occupied box, the number of piles, the
turn, face-down tops, buried face-down cards, the status, the score and the variant.

Cards are the ints of :mod:`foursquare.cards` (``rank = card // 4 + 1``). A move is a cell index;
:func:`cell_of` and :func:`move_of` convert between indices and engine :class:`Move` values.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from numba import njit

from foursquare.cards import DECK_SIZE
from foursquare.engine import Game, Move, Outcome, Variant, View

Array = npt.NDArray[np.int8]
IntArray = npt.NDArray[np.int64]

SIDE = 9
CELLS = SIDE * SIDE
ORIGIN = 4
FIRST = ORIGIN * SIDE + ORIGIN

TOP = 0
UP = CELLS
HEIGHT = 2 * CELLS
BURIED = 3 * CELLS
MIN_R = 4 * CELLS
MAX_R = MIN_R + 1
MIN_C = MIN_R + 2
MAX_C = MIN_R + 3
NCELLS = MIN_R + 4
TURN = MIN_R + 5
TOPDOWN = MIN_R + 6
NBURIED = MIN_R + 7
STATUS = MIN_R + 8
SCORE = MIN_R + 9
DIAGONAL = MIN_R + 10
COUNT_BURIED = MIN_R + 11
STATE_SIZE = MIN_R + 12

PLAYING = 0
WON = 1
LOST_FACE_DOWN = 2
LOST_STOCK = 3

MAX_MOVES = 64
LOSS_KEY = 1000

_STATUS_NAMES = {PLAYING: "playing", WON: "won", LOST_FACE_DOWN: "lost", LOST_STOCK: "lost"}
_REASONS = {WON: "sixteen_face_up", LOST_FACE_DOWN: "too_many_face_down", LOST_STOCK: "stock_empty"}


class KernelError(ValueError):
    """A kernel state or move does not describe a position of the game."""


# --- conversion ------------------------------------------------------------------------------------


def cell_of(row: int, col: int) -> int:
    """The kernel cell index of engine coordinates (row, col)."""
    if not (-ORIGIN < row < ORIGIN and -ORIGIN < col < ORIGIN):
        raise KernelError(f"cell ({row}, {col}) is outside the reachable rows and columns -3..3")
    return (row + ORIGIN) * SIDE + (col + ORIGIN)


def move_of(cell: int) -> Move:
    """The engine move of a kernel cell index."""
    return Move(cell // SIDE - ORIGIN, cell % SIDE - ORIGIN)


def new_state(variant: Variant | None = None) -> Array:
    """The empty grid of a new game."""
    variant = variant if variant is not None else Variant()
    state = np.zeros(STATE_SIZE, dtype=np.int8)
    state[TOP:UP] = -1
    state[MIN_R] = state[MIN_C] = SIDE
    state[MAX_R] = state[MAX_C] = -1
    state[DIAGONAL] = 1 if variant.adjacency == "diagonal" else 0
    state[COUNT_BURIED] = 1 if variant.count_buried else 0
    return state


def _status_code(outcome: Outcome) -> int:
    if outcome.status == "won":
        return WON
    if outcome.status == "lost":
        return LOST_FACE_DOWN if outcome.reason == "too_many_face_down" else LOST_STOCK
    return PLAYING


def state_of_view(view: View) -> Array:
    """The kernel state of a player's view (the view's card is not part of the state)."""
    state = new_state(view.variant)
    for cell in view.cells:
        index = cell_of(cell.row, cell.col)
        state[TOP + index] = int(cell.top)
        state[UP + index] = 1 if cell.top_face_up else 0
        state[HEIGHT + index] = cell.height
        buried = cell.face_up[:-1].count(False)
        state[BURIED + index] = buried
        r, c = index // SIDE, index % SIDE
        state[MIN_R] = min(int(state[MIN_R]), r)
        state[MAX_R] = max(int(state[MAX_R]), r)
        state[MIN_C] = min(int(state[MIN_C]), c)
        state[MAX_C] = max(int(state[MAX_C]), c)
        state[NCELLS] += 1
        state[TOPDOWN] += 0 if cell.top_face_up else 1
        state[NBURIED] += buried
    state[TURN] = view.turn
    state[STATUS] = _status_code(view.outcome)
    state[SCORE] = view.outcome.score or 0
    return state


def state_of_game(game: Game) -> Array:
    """The kernel state of an engine game."""
    return state_of_view(game.view())


def stock_array(cards: Sequence[int]) -> Array:
    """A stock order as the kernel's ``int8`` array."""
    return np.asarray([int(c) for c in cards], dtype=np.int8)


def outcome_of_state(state: Array) -> Outcome:
    """The engine :class:`Outcome` a kernel state stands for."""
    code = int(state[STATUS])
    if code == PLAYING:
        return Outcome("playing")
    status = _STATUS_NAMES[code]
    return Outcome(status, _REASONS[code], int(state[SCORE]))  # type: ignore[arg-type]


def grid_of_state(state: Array) -> dict[tuple[int, int], tuple[int, bool, int, int]]:
    """``{(row, col): (top card, top face up, height, buried face-down)}`` of the occupied cells."""
    grid: dict[tuple[int, int], tuple[int, bool, int, int]] = {}
    for index in range(CELLS):
        if state[TOP + index] >= 0:
            move = move_of(index)
            grid[(move.row, move.col)] = (
                int(state[TOP + index]),
                bool(state[UP + index]),
                int(state[HEIGHT + index]),
                int(state[BURIED + index]),
            )
    return grid


def grid_of_game(game: Game) -> dict[tuple[int, int], tuple[int, bool, int, int]]:
    """The same summary as :func:`grid_of_state`, read from the engine."""
    return {
        (c.row, c.col): (int(c.top), c.top_face_up, c.height, c.face_up[:-1].count(False)) for c in game.cells()
    }


def face_down_of_state(state: Array) -> int:
    """Face-down cards counting towards the limit, as the engine's ``Game.face_down``."""
    return int(state[TOPDOWN]) + (int(state[NBURIED]) if state[COUNT_BURIED] else 0)


def legal_moves_of_state(state: Array) -> list[Move]:
    """The legal moves of a kernel state, in (row, col) order, as engine moves."""
    out = np.empty(MAX_MOVES, dtype=np.int64)
    n = legal(state, out)
    return [move_of(int(out[i])) for i in range(n)]


def differences(game: Game, state: Array) -> list[str]:
    """Every way the kernel state disagrees with the engine game (empty when they agree)."""
    problems: list[str] = []
    engine_grid, kernel_grid = grid_of_game(game), grid_of_state(state)
    if engine_grid != kernel_grid:
        problems.append(f"grid: engine {engine_grid} kernel {kernel_grid}")
    if game.face_down != face_down_of_state(state):
        problems.append(f"face_down: engine {game.face_down} kernel {face_down_of_state(state)}")
    if game.turn != int(state[TURN]):
        problems.append(f"turn: engine {game.turn} kernel {int(state[TURN])}")
    if game.outcome() != outcome_of_state(state):
        problems.append(f"outcome: engine {game.outcome()} kernel {outcome_of_state(state)}")
    if game.legal_moves != legal_moves_of_state(state):
        problems.append(f"legal moves: engine {game.legal_moves} kernel {legal_moves_of_state(state)}")
    return problems


# --- the compiled rules ---------------------------------------------------------------------------


@njit(cache=True)
def _adjacent(state: Array, cell: int) -> bool:
    if state[cell - SIDE] >= 0 or state[cell + SIDE] >= 0 or state[cell - 1] >= 0 or state[cell + 1] >= 0:
        return True
    return bool(state[DIAGONAL]) and (
        state[cell - SIDE - 1] >= 0
        or state[cell - SIDE + 1] >= 0
        or state[cell + SIDE - 1] >= 0
        or state[cell + SIDE + 1] >= 0
    )


@njit(cache=True)
def legal(state: Array, out: IntArray) -> int:
    """Write the legal cells, in (row, col) order, into ``out``; return how many."""
    if state[STATUS] != PLAYING:
        return 0
    if state[NCELLS] == 0:
        out[0] = FIRST
        return 1
    r_lo = state[MAX_R] - 3
    r_hi = state[MIN_R] + 3
    c_lo = state[MAX_C] - 3
    c_hi = state[MIN_C] + 3
    n = 0
    for r in range(r_lo, r_hi + 1):
        base = r * SIDE
        for c in range(c_lo, c_hi + 1):
            cell = base + c
            if state[cell] >= 0:
                if state[HEIGHT + cell] < 4:
                    out[n] = cell
                    n += 1
            elif _adjacent(state, cell):
                out[n] = cell
                n += 1
    return n


@njit(cache=True)
def _line_tops(state: Array, skip: int, first: int, step: int, count: int) -> tuple[int, int, int, int]:
    """Face-up and face-down tops of the line ``first, first + step, …`` (``count`` cells), ``skip`` left out,
    and the highest and lowest face-up rank (0 and 99 when none is face up)."""
    n_up = 0
    n_down = 0
    up_max = 0
    up_min = 99
    other = first
    for _ in range(count):
        if other != skip and state[other] >= 0:
            if state[UP + other]:
                n_up += 1
                r = state[other] // 4 + 1
                if r > up_max:
                    up_max = r
                if r < up_min:
                    up_min = r
            else:
                n_down += 1
        other += step
    return n_up, n_down, up_max, up_min


@njit(cache=True)
def _line_check(state: Array, cell: int, rank: int, first: int, step: int, count: int) -> tuple[bool, int]:
    """The row or column check of placing a card of ``rank`` at ``cell``, without changing ``state``.

    The line is ``first, first + step, …`` (``count`` cells) through ``cell``. Returns whether the
    other tops turn over and by how much that changes the number of face-down tops.
    """
    n_up, n_down, up_max, up_min = _line_tops(state, cell, first, step, count)
    if n_up + n_down == 0:
        return False, 0
    if n_up == 0 or rank > up_max or rank < up_min:
        return True, n_up - n_down
    return False, 0


@njit(cache=True)
def _flip_line(state: Array, cell: int, rank: int, first: int, step: int, count: int) -> None:
    """Apply the row or column check of a placement: turn the other tops over when the card is extreme."""
    fires, delta = _line_check(state, cell, rank, first, step, count)
    if fires:
        other = first
        for _ in range(count):
            if other != cell and state[other] >= 0:
                state[UP + other] = 1 - state[UP + other]
            other += step
        state[TOPDOWN] += delta


@njit(cache=True)
def _judge(state: Array) -> None:
    down = state[TOPDOWN] + (state[NBURIED] if state[COUNT_BURIED] else 0)
    if state[NCELLS] == 16 and state[TOPDOWN] == 0:
        state[STATUS] = WON
        state[SCORE] = 40 - state[TURN]
    elif down > 4:
        state[STATUS] = LOST_FACE_DOWN
    elif state[TURN] == 40:
        state[STATUS] = LOST_STOCK


@njit(cache=True)
def place(state: Array, cell: int, card: int) -> None:
    """Place ``card`` at ``cell`` (which must be legal) and judge the position."""
    r = cell // SIDE
    c = cell % SIDE
    if state[cell] >= 0:
        if state[UP + cell] == 0:
            state[BURIED + cell] += 1
            state[NBURIED] += 1
            state[TOPDOWN] -= 1
    else:
        state[NCELLS] += 1
        if r < state[MIN_R]:
            state[MIN_R] = r
        if r > state[MAX_R]:
            state[MAX_R] = r
        if c < state[MIN_C]:
            state[MIN_C] = c
        if c > state[MAX_C]:
            state[MAX_C] = c
    state[cell] = card
    state[UP + cell] = 1
    state[HEIGHT + cell] += 1
    rank = card // 4 + 1
    _flip_line(state, cell, rank, r * SIDE + state[MIN_C], 1, state[MAX_C] - state[MIN_C] + 1)
    _flip_line(state, cell, rank, state[MIN_R] * SIDE + c, SIDE, state[MAX_R] - state[MIN_R] + 1)
    state[TURN] += 1
    _judge(state)


@njit(cache=True)
def evaluate(state: Array, cell: int, card: int) -> tuple[int, int, int]:
    """What placing ``card`` at ``cell`` would give, without changing ``state``.

    Returns (status after the move, face-down cards counting towards the limit, occupied cells).
    """
    r = cell // SIDE
    c = cell % SIDE
    topdown = state[TOPDOWN]
    buried = state[NBURIED]
    ncells = state[NCELLS]
    if state[cell] >= 0:
        if state[UP + cell] == 0:
            topdown -= 1
            buried += 1
    else:
        ncells += 1
    rank = card // 4 + 1
    c_lo = state[MIN_C] if state[MIN_C] < c else c
    c_hi = state[MAX_C] if state[MAX_C] > c else c
    r_lo = state[MIN_R] if state[MIN_R] < r else r
    r_hi = state[MAX_R] if state[MAX_R] > r else r
    topdown += _line_check(state, cell, rank, r * SIDE + c_lo, 1, c_hi - c_lo + 1)[1]
    topdown += _line_check(state, cell, rank, r_lo * SIDE + c, SIDE, r_hi - r_lo + 1)[1]
    down = topdown + (buried if state[COUNT_BURIED] else 0)
    if ncells == 16 and topdown == 0:
        return WON, down, ncells
    if down > 4:
        return LOST_FACE_DOWN, down, ncells
    if state[TURN] + 1 == 40:
        return LOST_STOCK, down, ncells
    return PLAYING, down, ncells


@njit(cache=True)
def greedy_choice(state: Array, card: int, moves: IntArray, n: int) -> int:
    """The greedy player's cell among ``moves[:n]`` (see :mod:`foursquare.players`)."""
    best = -1
    best_key = 1 << 30
    for i in range(n):
        cell = int(moves[i])
        status, down, ncells = evaluate(state, cell, card)
        if status == WON:
            return cell
        if status != PLAYING:
            key = LOSS_KEY * 32 - ncells
        else:
            key = down * 32 - ncells
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
    while state[STATUS] == PLAYING:
        n = legal(state, moves)
        card = stock[state[TURN]]
        place(state, greedy_choice(state, card, moves, n), card)
    return int(state[STATUS])


@njit(cache=True)
def greedy_games(stocks: Array, diagonal: int, count_buried: int) -> IntArray:
    """Play every stock (one per row) greedily from the empty grid; return each game's score, -1 for a loss."""
    template = np.zeros(STATE_SIZE, dtype=np.int8)
    for i in range(CELLS):
        template[i] = -1
    template[MIN_R] = SIDE
    template[MIN_C] = SIDE
    template[MAX_R] = -1
    template[MAX_C] = -1
    template[DIAGONAL] = diagonal
    template[COUNT_BURIED] = count_buried
    scores = np.empty(stocks.shape[0], dtype=np.int64)
    state = np.empty(STATE_SIZE, dtype=np.int8)
    for g in range(stocks.shape[0]):
        state[:] = template
        if greedy_playout(state, stocks[g]) == WON:
            scores[g] = state[SCORE]
        else:
            scores[g] = -1
    return scores


# --- the rollout policy of the best player ---------------------------------------------------------

#: Weights of :func:`policy_value`: face-down cards, occupied cells, expected tops turned down by the
#: next card, expected tops turned up by it. Tuned by local search on deals 10001-14000 (see docs/ai.md).
POLICY_WEIGHTS = np.array([1.0, 3.286, 0.585, 0.348])


@njit(cache=True)
def policy_value(state: Array, weights: npt.NDArray[np.float64]) -> float:
    """How bad a position is for the rollout policy (lower is better).

    A weighted sum of the face-down cards counting towards the limit, minus the occupied cells,
    plus the risk carried by every row and column: with a random next rank, the chance that the
    line's check fires (every rank when its tops are all face down; otherwise a rank beyond the
    range of its face-up tops) times the tops it would turn down, minus the same chance times the
    tops it would turn up.
    """
    down = state[TOPDOWN] + (state[NBURIED] if state[COUNT_BURIED] else 0)
    risk = 0.0
    gain = 0.0
    for line in range(2):
        if line == 0:
            a_lo, a_hi, b_lo, b_hi, a_step, b_step = state[MIN_R], state[MAX_R], state[MIN_C], state[MAX_C], SIDE, 1
        else:
            a_lo, a_hi, b_lo, b_hi, a_step, b_step = state[MIN_C], state[MAX_C], state[MIN_R], state[MAX_R], 1, SIDE
        for a in range(a_lo, a_hi + 1):
            n_up, n_down, up_max, up_min = _line_tops(
                state, -1, a * a_step + b_lo * b_step, b_step, b_hi - b_lo + 1
            )
            if n_up + n_down == 0:
                continue
            p = 1.0 if n_up == 0 else ((10 - up_max) + (up_min - 1)) / 10.0
            risk += p * n_up
            gain += p * n_down
    return float(weights[0] * down - weights[1] * state[NCELLS] + weights[2] * risk - weights[3] * gain)


@njit(cache=True)
def policy_choice(
    state: Array, card: int, moves: IntArray, n: int, weights: npt.NDArray[np.float64], work: Array
) -> int:
    """The rollout policy's cell among ``moves[:n]``: a move that wins at once, else the lowest
    :func:`policy_value` after the move, a losing move counting as worst (first in (row, col) order on ties).
    """
    best = -1
    best_value = 1e18
    for i in range(n):
        cell = int(moves[i])
        status, _, ncells = evaluate(state, cell, card)
        if status == WON:
            return cell
        if status != PLAYING:
            value = 1e9 - ncells
        else:
            work[:] = state
            place(work, cell, card)
            value = policy_value(work, weights)
        if value < best_value:
            best_value = value
            best = cell
    return best


@njit(cache=True)
def policy_playout(state: Array, stock: Array, weights: npt.NDArray[np.float64]) -> int:
    """Play the rollout policy from ``state`` (changed in place) drawing ``stock[turn]``; return the status."""
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    work = np.empty(STATE_SIZE, dtype=np.int8)
    while state[STATUS] == PLAYING:
        n = legal(state, moves)
        card = stock[state[TURN]]
        place(state, policy_choice(state, card, moves, n, weights, work), card)
    return int(state[STATUS])


@njit(cache=True)
def policy_games(stocks: Array, template: Array, weights: npt.NDArray[np.float64]) -> IntArray:
    """Play every stock (one per row) with the rollout policy from ``template``; scores, -1 for a loss."""
    scores = np.empty(stocks.shape[0], dtype=np.int64)
    state = np.empty(STATE_SIZE, dtype=np.int8)
    for g in range(stocks.shape[0]):
        state[:] = template
        scores[g] = state[SCORE] if policy_playout(state, stocks[g], weights) == WON else -1
    return scores


# --- random numbers (SplitMix64, so results are the same on every machine) ------------------------


@njit(cache=True)
def next_random(rng: npt.NDArray[np.uint64]) -> np.uint64:
    """The next 64-bit number of the generator whose state is ``rng[0]``."""
    rng[0] = rng[0] + np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    result: np.uint64 = z ^ (z >> np.uint64(31))
    return result


@njit(cache=True)
def below(rng: npt.NDArray[np.uint64], n: int) -> int:
    """A random int in 0..n-1."""
    return int(next_random(rng) % np.uint64(n))


@njit(cache=True)
def shuffle_tail(stock: Array, start: int, rng: npt.NDArray[np.uint64]) -> None:
    """Shuffle ``stock[start:]`` in place (Fisher–Yates)."""
    for i in range(stock.shape[0] - 1, start, -1):
        j = start + below(rng, i - start + 1)
        t = stock[i]
        stock[i] = stock[j]
        stock[j] = t


@njit(cache=True)
def random_move(state: Array, rng: npt.NDArray[np.uint64]) -> int:
    """A uniformly random legal cell (-1 when the game is over)."""
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    n = legal(state, moves)
    if n == 0:
        return -1
    return int(moves[below(rng, n)])


def make_rng(seed: int) -> npt.NDArray[np.uint64]:
    """A generator state for the compiled functions."""
    return np.array([seed & (2**64 - 1)], dtype=np.uint64)


def random_games(count: int, seed: int, variant: Variant) -> tuple[Array, IntArray, IntArray]:
    """``count`` random legal games on random stocks: (stocks, moves as cells padded with -1, lengths)."""
    return _random_games(
        count, make_rng(seed), 1 if variant.adjacency == "diagonal" else 0, 1 if variant.count_buried else 0
    )


@njit(cache=True)
def _random_games(
    count: int, rng: npt.NDArray[np.uint64], diagonal: int, count_buried: int
) -> tuple[Array, IntArray, IntArray]:
    stocks = np.empty((count, DECK_SIZE), dtype=np.int8)
    moves = np.full((count, DECK_SIZE), -1, dtype=np.int64)
    lengths = np.zeros(count, dtype=np.int64)
    state = np.empty(STATE_SIZE, dtype=np.int8)
    for g in range(count):
        for i in range(DECK_SIZE):
            stocks[g, i] = i
        shuffle_tail(stocks[g], 0, rng)
        state[:] = 0
        for i in range(CELLS):
            state[i] = -1
        state[MIN_R] = SIDE
        state[MIN_C] = SIDE
        state[MAX_R] = -1
        state[MAX_C] = -1
        state[DIAGONAL] = diagonal
        state[COUNT_BURIED] = count_buried
        t = 0
        while state[STATUS] == PLAYING:
            cell = random_move(state, rng)
            place(state, cell, stocks[g, t])
            moves[g, t] = cell
            t += 1
        lengths[g] = t
    return stocks, moves, lengths


@njit(cache=True)
def replay_snapshots(state: Array, stock: Array, moves: IntArray, n: int) -> tuple[Array, IntArray, IntArray]:
    """Play ``moves[:n]`` from ``state``; return the state after each move and its legal cells.

    Returns (states ``[n, STATE_SIZE]``, legal cells ``[n, MAX_MOVES]`` padded with -1, counts).
    """
    states = np.empty((n, STATE_SIZE), dtype=np.int8)
    legals = np.full((n, MAX_MOVES), -1, dtype=np.int64)
    counts = np.zeros(n, dtype=np.int64)
    buf = np.empty(MAX_MOVES, dtype=np.int64)
    for i in range(n):
        place(state, moves[i], stock[state[TURN]])
        states[i, :] = state
        k = legal(state, buf)
        counts[i] = k
        legals[i, :k] = buf[:k]
    return states, legals, counts


@njit(cache=True)
def monte_carlo(
    state: Array,
    card: int,
    unseen: Array,
    cells: IntArray,
    rng: npt.NDArray[np.uint64],
    results: Array,
    weights: npt.NDArray[np.float64],
) -> None:
    """Try each of ``cells`` against ``results.shape[0]`` random orders of ``unseen`` with rollouts.

    ``results[s, i]`` becomes the final score of placing ``card`` at ``cells[i]`` and playing out
    future ``s``, or -1 for a loss. The rollouts follow :func:`policy_choice` with ``weights``, or
    greedy when ``weights`` is empty. Every cell meets the same futures (common random numbers).
    """
    turn = state[TURN]
    stock = np.zeros(DECK_SIZE, dtype=np.int8)
    stock[turn] = card
    for i in range(unseen.shape[0]):
        stock[turn + 1 + i] = unseen[i]
    work = np.empty(STATE_SIZE, dtype=np.int8)
    for s in range(results.shape[0]):
        shuffle_tail(stock, turn + 1, rng)
        for i in range(cells.shape[0]):
            work[:] = state
            place(work, cells[i], card)
            if work[STATUS] == PLAYING:
                if weights.shape[0] == 0:
                    greedy_playout(work, stock)
                else:
                    policy_playout(work, stock, weights)
            results[s, i] = work[SCORE] if work[STATUS] == WON else -1


__all__ = [
    "CELLS",
    "FIRST",
    "LOST_FACE_DOWN",
    "LOST_STOCK",
    "MAX_MOVES",
    "PLAYING",
    "POLICY_WEIGHTS",
    "SIDE",
    "STATE_SIZE",
    "WON",
    "KernelError",
    "below",
    "cell_of",
    "differences",
    "evaluate",
    "face_down_of_state",
    "greedy_choice",
    "greedy_games",
    "greedy_move",
    "greedy_playout",
    "grid_of_game",
    "grid_of_state",
    "legal",
    "legal_moves_of_state",
    "make_rng",
    "monte_carlo",
    "move_of",
    "new_state",
    "next_random",
    "outcome_of_state",
    "place",
    "policy_choice",
    "policy_games",
    "policy_playout",
    "policy_value",
    "random_games",
    "random_move",
    "replay_snapshots",
    "shuffle_tail",
    "state_of_game",
    "state_of_view",
    "stock_array",
]
