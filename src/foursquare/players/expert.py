"""The ``expert`` player: hindsight optimisation over stocks stratified by the next card, kept safe by the best
player's rollouts.

For each decision the moves that give the game the best exact chance of surviving the next
:data:`SURVIVAL_DEPTH` cards (:func:`foursquare.kernel.move_survival`) go on; the best player's race
(:func:`~foursquare.players.evaluation.rank_moves`) then names the candidates among them: the first
:data:`WIDTH` moves of its ranking (every one, by default), less those whose rollouts win clearly less often
than the safest (:data:`SAFETY`). Then the perfect-information solver finds the best score each candidate can
still reach on orders of the unseen cards (:func:`foursquare.solver.solve_position`, with a node budget per
search, so that a game is the same on any machine), the same orders for every candidate; the candidate of the
highest weighted mean wins.

The orders are stratified by the next card (:func:`stratified_stocks`): :data:`PER_RANK` for each rank among
the unseen cards, starting with that rank, weighted by the chance that the next card has it. A move that a
single next rank would ruin is thus always seen ruined, at its true weight; drawn at random, eight orders miss
a card of which two of twenty-five are left about half the time, and the expert's losses were such moves.
Hindsight also dodges deaths a player cannot: knowing the cards to come, it places each where the next one
cannot kill it. The survival filter counts those deaths exactly, with no policy and no sampling, and in most
positions every move survives for sure and it changes nothing. Knowing the future on each order overrates
moves that keep options open (hindsight optimisation's bias), which is why the rollouts choose the candidates:
a move they find risky never gets the chance to look good in hindsight.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from foursquare import kernel as K
from foursquare.cards import DECK_SIZE, Card
from foursquare.engine import Game, Move, View
from foursquare.players.evaluation import MoveAdvice, _seed_of, rank_moves
from foursquare.solver import solve_position

#: The race's playouts before the closer look (the best player's own number).
RACE_PLAYOUTS = 2000
#: The most candidates the solver looks at: by default as many as a position can have legal moves, so all of them.
WIDTH = K.MAX_MOVES
#: A candidate whose rollouts win this much less often than the safest candidate's is left out.
SAFETY = 0.15
#: Cards ahead over which a move's exact chance of survival must be the best there is.
SURVIVAL_DEPTH = 3
#: Chances of survival closer than this are the same (sums of the same fractions in another order).
SAME_CHANCE = 1e-9
#: Orders of the unseen cards per rank of the next card.
PER_RANK = 1
#: Positions each perfect-information search may examine.
SEARCH_NODES = 20_000


class ExpertPlayer:
    """Hindsight optimisation over the best player's candidates (see the module's docstring)."""

    name = "expert"

    def __init__(
        self,
        seed: int = 0,
        *,
        width: int = WIDTH,
        safety: float = SAFETY,
        survival_depth: int = SURVIVAL_DEPTH,
        per_rank: int = PER_RANK,
        search_nodes: int = SEARCH_NODES,
    ) -> None:
        self.seed = seed
        self.width = width
        self.safety = safety
        self.survival_depth = survival_depth
        self.per_rank = per_rank
        self.search_nodes = search_nodes

    def choose(self, view: View) -> Move:
        if len(view.legal_moves) == 1:
            return view.legal_moves[0]
        ranked = rank_moves(view, seed=self.seed, playouts=RACE_PLAYOUTS, time_budget=None)
        if self.survival_depth:
            surviving = survivors(view, self.survival_depth)
            ranked = [a for a in ranked if a.move in surviving]
        moves = [a.move for a in candidates(ranked, self.width, self.safety)]
        if len(moves) == 1:
            return moves[0]
        stocks, weights = stratified_stocks(view, self.seed, self.per_rank)
        means = weights @ hindsight_scores(view, moves, stocks, self.search_nodes)
        return moves[int(np.argmax(means))]  # the first of equal means: the race's order


def survivors(view: View, depth: int) -> set[Move]:
    """The legal moves of the best exact chance of surviving ``depth`` more cards (equal chances: every move)."""
    alive = K.move_survival(view, view.legal_moves, depth)
    return {m for m, chance in zip(view.legal_moves, alive, strict=True) if chance >= alive.max() - SAME_CHANCE}


def candidates(ranked: Sequence[MoveAdvice], width: int, safety: float) -> list[MoveAdvice]:
    """The first ``width`` moves of the race, less those that win ``safety`` less often than the safest."""
    first = list(ranked[:width])
    safest = max(a.win_probability for a in first)
    return [a for a in first if a.win_probability >= safest - safety]


def stratified_stocks(
    view: View, seed: int, per_rank: int = PER_RANK
) -> tuple[list[list[Card]], npt.NDArray[np.float64]]:
    """Orders of the unseen cards, ``per_rank`` starting with each rank among them (the rest drawn reproducibly
    from ``seed``), and each order's weight: the chance that the next card has its rank, shared among its orders.
    The weights sum to 1. No unseen card: one empty order."""
    rng = np.random.default_rng(_seed_of(seed, view) ^ 0x4E58)
    unseen = list(view.unseen)
    if not unseen:
        return [[]], np.ones(1)
    stocks: list[list[Card]] = []
    weights: list[float] = []
    for rank in sorted({c.rank for c in unseen}):
        first = next(i for i, c in enumerate(unseen) if c.rank == rank)
        rest = unseen[:first] + unseen[first + 1 :]
        share = sum(c.rank == rank for c in unseen) / len(unseen) / per_rank
        for _ in range(per_rank):
            stocks.append([unseen[first]] + [rest[i] for i in rng.permutation(len(rest))])
            weights.append(share)
    return stocks, np.array(weights)


def hindsight_scores(
    view: View, moves: Sequence[Move], stocks: Sequence[Sequence[Card]], nodes: int
) -> npt.NDArray[np.float64]:
    """``scores[k, j]``: the best score the solver finds after ``moves[j]`` on ``stocks[k]`` (0: no win found
    within ``nodes`` positions)."""
    scores = np.zeros((len(stocks), len(moves)))
    for k, future in enumerate(stocks):
        for j, move in enumerate(moves):
            game = Game.from_view(view, future)
            game.place(move.row, move.col)
            scores[k, j] = _best_score(game, nodes)
    return scores


def _best_score(game: Game, nodes: int) -> int:
    outcome = game.outcome()
    if outcome.status == "won":
        return DECK_SIZE - game.turn
    if outcome.status == "lost":
        return 0
    solution = solve_position(game, max_nodes=nodes, small=True, exact=False)
    return solution.best_score or 0
