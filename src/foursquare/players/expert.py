"""The ``expert`` player: hindsight optimisation over sampled stocks, kept safe by the best player's rollouts.

For each decision the best player's race (:func:`~foursquare.players.evaluation.rank_moves`) names the
candidates: the first :data:`WIDTH` moves of its ranking (every legal move, by default), less those whose
rollouts win clearly less often than the safest (:data:`SAFETY`). Then, on :data:`SAMPLES` stocks drawn from
the unseen cards (the same stocks for every candidate), the perfect-information solver finds the best score
each candidate can still reach (:func:`foursquare.solver.solve_position`, with a node budget per search, so
that a game is the same on any machine). The candidate of the highest mean wins. Knowing the future on each
sample overrates moves that keep options open (hindsight optimisation's bias), which is why the rollouts
choose the candidates: a move they find risky never gets the chance to look good in hindsight.
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
#: Sampled stocks per decision.
SAMPLES = 8
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
        samples: int = SAMPLES,
        search_nodes: int = SEARCH_NODES,
    ) -> None:
        self.seed = seed
        self.width = width
        self.safety = safety
        self.samples = samples
        self.search_nodes = search_nodes

    def choose(self, view: View) -> Move:
        if len(view.legal_moves) == 1:
            return view.legal_moves[0]
        ranked = rank_moves(view, seed=self.seed, playouts=RACE_PLAYOUTS, time_budget=None)
        moves = [a.move for a in candidates(ranked, self.width, self.safety)]
        if len(moves) == 1:
            return moves[0]
        stocks = sampled_stocks(view, self.samples, self.seed)
        means = hindsight_scores(view, moves, stocks, self.search_nodes).mean(axis=0)
        return moves[int(np.argmax(means))]  # the first of equal means: the race's order


def candidates(ranked: Sequence[MoveAdvice], width: int, safety: float) -> list[MoveAdvice]:
    """The first ``width`` moves of the race, less those that win ``safety`` less often than the safest."""
    first = list(ranked[:width])
    safest = max(a.win_probability for a in first)
    return [a for a in first if a.win_probability >= safest - safety]


def sampled_stocks(view: View, samples: int, seed: int) -> list[list[Card]]:
    """``samples`` orders of the unseen cards, drawn from them alone (reproducibly from ``seed``)."""
    rng = np.random.default_rng(_seed_of(seed, view) ^ 0x4E58)
    unseen = list(view.unseen)
    return [[unseen[i] for i in rng.permutation(len(unseen))] for _ in range(samples)]


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
    solution = solve_position(game, max_nodes=nodes, small=True)
    return solution.best_score or 0
