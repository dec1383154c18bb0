"""Upper bounds on what a player who does not see the stock can score: information relaxation with a penalty.

The solver's optimum knows the whole stock order, so its mean over deals bounds the mean score of every player
from above (23.83 on deals 1–1,000); the best player that does not see the stock bounds it from below. The
*dual* bound of information relaxation (Brown, Smith and Sun, 2010) lies in between: let the player see the
stock, but charge it, at each move, for what the card that then comes is worth beyond what was expected,

    z_t = φ(position after the move, next card as it comes) − Σ_r p_r · φ(position after the move, next card r),

with φ any value of a player's position (the card to place known, the stock order not) and p_r the chance that
the next unseen card has rank r. Whatever the move, ``z_t`` has mean zero before the card comes, so a player
who does not see the stock pays nothing on average, and for every stock order

    dual(stock) = max over lines [score − Σ_t z_t]

has a mean over stock orders at least the best such player's expected score. With φ = 0 it is the solver's
optimum; with φ the true optimum of a player who does not see the stock (the end game's expectimax) it is that
optimum exactly, on every stock order; a φ in between tightens the bound as far as it is right.

:func:`dual_bound` computes it for one stock: the penalties are charged on the first ``depth`` moves, by
enumerating every line of those moves, and what follows is the solver's proven upper bound, the stock known,
with no penalty (which keeps it an upper bound). :func:`rollout_value` is a φ of the best player's rollouts,
:func:`exact_value` the end game's true optimum (small end games only).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from foursquare.cards import Card
from foursquare.engine import Game, View
from foursquare.players.evaluation import rank_moves
from foursquare.solver import solve_position
from foursquare.solver.expectimax import expected_score

#: φ: the value of a player's position (the card to place known, the stock order not).
ValueEstimate = Callable[[View], float]
#: The solver's budget for each line's rest: positions of the deepening, then CP-SAT's share (solve's budget).
LEAF_NODES = 2_000_000


def zero_value(view: View) -> float:
    """φ = 0: no penalty; the dual bound is then the solver's optimum, the stock known."""
    return 0.0


def rollout_value(playouts: int = 256, seed: int = 0) -> ValueEstimate:
    """φ: the best player's race's estimate of the best move's expected score, ``playouts`` rollouts a move, on
    futures drawn from the position (the same position always gets the same value)."""

    def value(view: View) -> float:
        if view.outcome.is_over:
            return float(view.outcome.score or 0)
        ranked = rank_moves(view, seed=seed, playouts=playouts, time_budget=None)
        return max(advice.expected_score for advice in ranked)

    return value


def exact_value(view: View) -> float:
    """φ: the exact optimum of a player who does not see the stock (``solver.expectimax``; small end games)."""
    if view.outcome.is_over:
        return float(view.outcome.score or 0)
    return max(expected_score(view, move) for move in view.legal_moves)


def next_card_views(view: View) -> list[tuple[float, View]]:
    """The views after ``view``'s move with each rank among the cards still to come next: (chance, view).
    ``view`` is one after a move whose game is not over (its card to place is one possibility)."""
    assert view.card is not None
    pool = sorted([view.card, *view.unseen])
    options = []
    for rank in sorted({c.rank for c in pool}):
        card = next(c for c in pool if c.rank == rank)
        rest = list(pool)
        rest.remove(card)
        chance = sum(c.rank == rank for c in pool) / len(pool)
        options.append((chance, dataclasses.replace(view, card=card, unseen=tuple(rest))))
    return options


def penalty(after: Game, value: ValueEstimate) -> float:
    """``z``: φ of the position with the next card as it comes, less its mean over the next card's ranks
    (0 once the game is over: no card comes)."""
    view = after.view()
    if view.outcome.is_over:
        return 0.0
    expected = sum(chance * value(v) for chance, v in next_card_views(view))
    return value(view) - expected


def remembered(value: ValueEstimate) -> ValueEstimate:
    """``value``, each position's computed once (φ is a function of the position: the same answer again)."""
    memo: dict[tuple[object, ...], float] = {}

    def once(view: View) -> float:
        key = view.key()
        if key not in memo:
            memo[key] = value(view)
        return memo[key]

    return once


@dataclass
class _Work:
    value: ValueEstimate
    leaf_nodes: int
    leaves: int = 0
    solver_nodes: int = 0
    memo: dict[tuple[object, ...], int] = field(default_factory=dict)


@dataclass(frozen=True)
class DualBound:
    """The dual bound of one stock: ``bound``; the lines of penalised moves examined (``lines``) and the solver's
    positions for their rests (``solver_nodes``); ``proven``: every rest's bound was the optimum."""

    bound: float
    lines: int
    solver_nodes: int


def dual_bound(game: Game, depth: int, value: ValueEstimate = zero_value, *, leaf_nodes: int = LEAF_NODES) -> DualBound:
    """The dual bound of ``game``'s stock from its position: penalties (of φ = ``value``) on the next ``depth``
    moves, every line of them tried; then the solver's proven upper bound of the rest (``leaf_nodes``
    positions each; no penalty). ``depth`` past the end of the game: every move is penalised, no solver."""
    if depth < 0:
        raise ValueError(f"depth must be 0 or more, not {depth}")
    work = _Work(value if value is zero_value else remembered(value), leaf_nodes)
    bound = _best(game, depth, work)
    return DualBound(bound, work.leaves, work.solver_nodes)


def _best(game: Game, depth: int, work: _Work) -> float:
    outcome = game.outcome()
    if outcome.is_over:
        work.leaves += 1
        return float(outcome.score or 0)
    if depth == 0:
        work.leaves += 1
        return float(_rest_bound(game, work))
    best = -math.inf
    for move in game.legal_moves:
        after = game.copy()
        after.place(move.row, move.col)
        best = max(best, _best(after, depth - 1, work) - penalty(after, work.value))
    return best


def _rest_bound(game: Game, work: _Work) -> int:
    """The solver's proven upper bound of the best score from ``game``, the stock known (0: no win possible)."""
    key = game.key()
    if key not in work.memo:
        solution = solve_position(game, max_nodes=work.leaf_nodes)
        work.solver_nodes += solution.nodes
        work.memo[key] = 0 if solution.status == "unwinnable" else solution.upper_bound
    return work.memo[key]


def stock_orders(view: View) -> list[tuple[float, list[Card]]]:
    """Every order of ``view``'s unseen cards that differs in ranks, with its chance (the rules see only ranks)."""
    orders: dict[tuple[int, ...], list[Card]] = {}
    counts: dict[tuple[int, ...], int] = {}
    for order in _permutations(list(view.unseen)):
        ranks = tuple(c.rank for c in order)
        orders.setdefault(ranks, order)
        counts[ranks] = counts.get(ranks, 0) + 1
    total = sum(counts.values())
    return [(counts[r] / total, orders[r]) for r in orders]


def _permutations(cards: Sequence[Card]) -> list[list[Card]]:
    if not cards:
        return [[]]
    return [[cards[i], *rest] for i in range(len(cards)) for rest in _permutations([*cards[:i], *cards[i + 1 :]])]


def expected_dual_bound(view: View, value: ValueEstimate) -> float:
    """The dual bound's exact mean over every order of ``view``'s unseen cards (the card to place known), every
    move penalised (small end games: the orders are enumerated)."""
    total, value = 0.0, remembered(value)
    for chance, order in stock_orders(view):
        total += chance * dual_bound(Game.from_view(view, order), len(order) + 1, value).bound
    return total


def mean_and_margin(values: Sequence[float], z: float = 1.96) -> tuple[float, float]:
    """The mean of ``values`` and ``z`` standard errors of it."""
    array = np.asarray(values, dtype=float)
    if len(array) < 2:
        return float(array.mean()), math.inf
    return float(array.mean()), float(z * array.std(ddof=1) / math.sqrt(len(array)))
