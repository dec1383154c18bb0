"""The exact expected score of an end game under the hidden stock: an expectimax over the unseen cards.

A player who does not know the stock order knows what is in it: the cards not yet seen. After a move, each
rank among them comes next with the chance of its share, the player then picks the best cell for it, and so
on until the game is won (scoring the cards left) or lost (0). The value of that tree is the best expected
score any player can reach from the position — the true optimum of the game as it is played, where the
perfect-information solver's optimum assumes the stock known. Only ranks matter to the rules, so the tree
branches on at most ten ranks.

The tree is small only when few cards are left in the stock (a handful: each unseen card multiplies it by
its ranks and cells), so :func:`expected_score` and :func:`judge_move` work within a budget of positions and
raise :class:`BudgetExceeded` beyond it. They prune chance nodes as Ballard's Star1 does: a rank's outcome is
worth settling only while the ranks not yet looked at, each at the best score still reachable, could lift the
average above the best move found so far; that score is the cards left once every empty cell of the 4 × 4 grid
has taken one. A search remembers each (position, unseen cards) it settled. It runs in Python on the
kernel's compiled rules: it is a reference for measuring players, not a player.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from foursquare.engine import WINNING_CELLS, Move, View
from foursquare.errors import FoursquareError
from foursquare.kernel.rules import legal, place
from foursquare.kernel.state import (
    MAX_MOVES,
    OCCUPIED,
    RANK_COUNT,
    SCORE,
    STATUS,
    STATUS_PLAYING,
    STATUS_WON,
    SUIT_COUNT,
    Array,
    IntArray,
    cell_of,
    copy_state,
    state_of_view,
)

#: The positions a search may expand by default: a few seconds of it.
DEFAULT_BUDGET = 200_000


class BudgetExceeded(FoursquareError):
    """The end game is too large to settle within the budget of positions."""


#: What a search says of a position: (expected score, exact, chance of winning). An inexact score is an upper
#: bound, and its chance of winning means nothing.
Value = tuple[float, bool, float]


@dataclass
class _Search:
    budget: int
    expanded: int = 0
    memo: dict[bytes, Value] = field(default_factory=dict)  # (position, unseen counts) -> its value

    def expand(self) -> None:
        self.expanded += 1
        if self.expanded > self.budget:
            raise BudgetExceeded(f"the end game needs more than {self.budget} positions")


def _ceiling(state: Array, left: int) -> int:
    """The best score still reachable after the move that gave ``state``, with ``left`` cards unseen: every
    empty cell of the grid takes a card, and a win takes at least one more."""
    return left - max(1, WINNING_CELLS - int(state[OCCUPIED]))


def _after_move(search: _Search, state: Array, counts: IntArray, alpha: float) -> Value:
    """The value of ``state`` (the move made; ``counts``: the unseen cards by rank), or an upper bound of its
    expected score not above ``alpha`` (``exact`` False) once it is sure not to beat ``alpha``."""
    status = int(state[STATUS])
    if status != STATUS_PLAYING:
        return (float(state[SCORE]), True, 1.0) if status == STATUS_WON else (0.0, True, 0.0)
    left = int(counts.sum())
    ceiling = _ceiling(state, left)
    if ceiling < 0:  # too few cards left to fill the grid: no win
        return 0.0, True, 0.0
    if ceiling <= alpha:
        return float(ceiling), False, 0.0
    key = state.tobytes() + counts.tobytes()
    known = search.memo.get(key)
    if known is not None and (known[1] or known[0] <= alpha):
        return known
    total = wins = 0.0
    unexplored = left
    for rank in range(RANK_COUNT):
        count = int(counts[rank])
        if count == 0:
            continue
        unexplored -= count
        # What the rank must be worth for the average to beat alpha, the ranks after it at the ceiling.
        needed = (left * alpha - total - unexplored * ceiling) / count
        counts[rank] -= 1
        value, exact, win = _best_placement(search, state, rank, counts, needed)
        counts[rank] += 1
        total += count * value
        wins += count * win
        if not exact:
            bound: Value = ((total + unexplored * ceiling) / left, False, 0.0)
            search.memo[key] = bound
            return bound
    result = (total / left, True, wins / left)
    search.memo[key] = result
    return result


def _best_placement(search: _Search, state: Array, rank: int, counts: IntArray, alpha: float) -> Value:
    """The value after placing a card of ``rank`` (0-based) on ``state`` in the best cell (of equal ones, the
    first in row, then column order), or an upper bound of its expected score not above ``alpha`` (``exact``
    False) if no cell beats ``alpha``."""
    search.expand()
    cells = np.empty(MAX_MOVES, dtype=np.int64)
    child = np.empty_like(state)
    best, bound, best_win = -math.inf, -math.inf, 0.0
    peak = int(counts.sum())  # a win at once scores every card still unseen
    for i in range(legal(state, cells)):
        copy_state(child, state)
        place(child, int(cells[i]), rank * SUIT_COUNT)  # the rules look at the rank alone
        value, exact, win = _after_move(search, child, counts, max(alpha, best))
        if not exact:
            bound = max(bound, value)
        elif value > best:
            best, best_win = value, win
            if best >= peak:
                break
    if best > alpha:
        return best, True, best_win
    return max(best, bound), False, 0.0


def _counts(view: View) -> IntArray:
    counts = np.zeros(RANK_COUNT, dtype=np.int64)
    for card in view.unseen:
        counts[card.rank - 1] += 1
    return counts


def _check(view: View, budget: int) -> None:
    if view.card is None:
        raise ValueError("the game is over: there is no card to place")
    if budget < 1:
        raise ValueError(f"the budget of positions must be at least 1, not {budget}")


def _move_value(search: _Search, view: View, move: Move, alpha: float) -> Value:
    state = state_of_view(view)
    if move not in view.legal_moves:
        raise ValueError(f"{move.name} is not a legal cell for the {view.card}")
    place(state, cell_of(move.row, move.col), int(view.card))  # type: ignore[arg-type]
    return _after_move(search, state, _counts(view), alpha)


def expected_score(view: View, move: Move, budget: int = DEFAULT_BUDGET) -> float:
    """The exact expected score of playing ``move`` in ``view`` and the best moves after it, the stock's order
    unknown; :class:`BudgetExceeded` if settling it needs more than ``budget`` positions."""
    _check(view, budget)
    return _move_value(_Search(budget), view, move, -math.inf)[0]


@dataclass(frozen=True)
class Judgement:
    """A move against the best one, each followed by the best play: exact expected scores, and the chances of
    winning of the same play."""

    played: float  # the expected score of the move judged
    best: float  # the best expected score of any move
    best_move: Move  # a move that reaches it (the move judged, when it does)
    played_win_probability: float
    best_win_probability: float
    positions: int  # the positions the search expanded

    @property
    def loss(self) -> float:
        """What the move judged gives up, in expected points."""
        return self.best - self.played


def judge_moves(view: View, moves: Sequence[Move], budget: int = DEFAULT_BUDGET) -> list[Judgement]:
    """Each of ``moves`` in ``view`` against the best move (see :class:`Judgement`), all settled exactly by one
    search of at most ``budget`` positions (:class:`BudgetExceeded` beyond it): the moves of several players
    at one position cost little more than one."""
    _check(view, budget)
    search = _Search(budget)
    played = {move: _move_value(search, view, move, -math.inf) for move in moves}
    best_move = max(played, key=lambda move: played[move][0], default=None)
    best = (-math.inf, False, 0.0) if best_move is None else played[best_move]
    for other in view.legal_moves:
        if other not in played:
            value = _move_value(search, view, other, best[0])
            if value[1] and value[0] > best[0]:
                best, best_move = value, other
    assert best_move is not None, "a position still being played has a legal move"
    return [Judgement(played[move][0], best[0], best_move, played[move][2], best[2], search.expanded) for move in moves]


def judge_move(view: View, move: Move, budget: int = DEFAULT_BUDGET) -> Judgement:
    """``move`` in ``view`` against the best move: :func:`judge_moves` for one move."""
    return judge_moves(view, [move], budget)[0]
