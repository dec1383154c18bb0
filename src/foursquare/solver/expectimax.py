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


@dataclass
class _Search:
    budget: int
    expanded: int = 0
    # (position, unseen counts) -> (value, exact): an inexact value is an upper bound.
    memo: dict[bytes, tuple[float, bool]] = field(default_factory=dict)

    def expand(self) -> None:
        self.expanded += 1
        if self.expanded > self.budget:
            raise BudgetExceeded(f"the end game needs more than {self.budget} positions")


def _ceiling(state: Array, left: int) -> int:
    """The best score still reachable after the move that gave ``state``, with ``left`` cards unseen: every
    empty cell of the grid takes a card, and a win takes at least one more."""
    return left - max(1, WINNING_CELLS - int(state[OCCUPIED]))


def _after_move(search: _Search, state: Array, counts: IntArray, alpha: float) -> tuple[float, bool]:
    """The expected score of ``state`` (the move made; ``counts``: the unseen cards by rank), or an upper bound
    not above ``alpha`` (``exact`` False) once it is sure not to beat ``alpha``."""
    status = int(state[STATUS])
    if status != STATUS_PLAYING:
        return (float(state[SCORE]) if status == STATUS_WON else 0.0), True
    left = int(counts.sum())
    ceiling = _ceiling(state, left)
    if ceiling <= 0:  # no win scores more than nothing
        return 0.0, True
    if ceiling <= alpha:
        return float(ceiling), False
    key = state.tobytes() + counts.tobytes()
    known = search.memo.get(key)
    if known is not None and (known[1] or known[0] <= alpha):
        return known
    total = 0.0
    unexplored = left
    for rank in range(RANK_COUNT):
        count = int(counts[rank])
        if count == 0:
            continue
        unexplored -= count
        # What the rank must be worth for the average to beat alpha, the ranks after it at the ceiling.
        needed = (left * alpha - total - unexplored * ceiling) / count
        counts[rank] -= 1
        value, exact = _best_placement(search, state, rank, counts, needed)
        counts[rank] += 1
        total += count * value
        if not exact:
            bound = (total + unexplored * ceiling) / left
            search.memo[key] = (bound, False)
            return bound, False
    result = (total / left, True)
    search.memo[key] = result
    return result


def _best_placement(search: _Search, state: Array, rank: int, counts: IntArray, alpha: float) -> tuple[float, bool]:
    """The best expected score after placing a card of ``rank`` (0-based) on ``state``, or an upper bound not
    above ``alpha`` (``exact`` False) if no cell beats ``alpha``."""
    search.expand()
    cells = np.empty(MAX_MOVES, dtype=np.int64)
    child = np.empty_like(state)
    best, bound = -math.inf, -math.inf
    peak = int(counts.sum())  # a win at once scores every card still unseen
    for i in range(legal(state, cells)):
        copy_state(child, state)
        place(child, int(cells[i]), rank * SUIT_COUNT)  # the rules look at the rank alone
        value, exact = _after_move(search, child, counts, max(alpha, best))
        if exact:
            best = max(best, value)
            if best >= peak:
                break
        else:
            bound = max(bound, value)
    if best > alpha:
        return best, True
    return max(best, bound), False


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


def _move_value(search: _Search, view: View, move: Move, alpha: float) -> tuple[float, bool]:
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
    """A move against the best one, each followed by the best play: exact expected scores."""

    played: float  # the expected score of the move judged
    best: float  # the best expected score of any move
    best_move: Move  # a move that reaches it (the move judged, when it does)

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
    played = {move: _move_value(search, view, move, -math.inf)[0] for move in moves}
    best_move = max(played, key=played.__getitem__, default=None)
    best = -math.inf if best_move is None else played[best_move]
    for other in view.legal_moves:
        if other not in played:
            value, exact = _move_value(search, view, other, best)
            if exact and value > best:
                best, best_move = value, other
    assert best_move is not None, "a position still being played has a legal move"
    return [Judgement(played[move], best, best_move) for move in moves]


def judge_move(view: View, move: Move, budget: int = DEFAULT_BUDGET) -> Judgement:
    """``move`` in ``view`` against the best move: :func:`judge_moves` for one move."""
    return judge_moves(view, [move], budget)[0]
