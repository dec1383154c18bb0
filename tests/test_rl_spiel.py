"""foursquare.rl.spiel: Foursquare as an OpenSpiel game, checked by OpenSpiel's own tests and algorithms."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pyspiel")

import pyspiel
from open_spiel.python import policy
from open_spiel.python.algorithms import evaluate_bots, expected_game_score, mcts

from foursquare.engine import Game, View
from foursquare.players import make_player
from foursquare.rl import mask_of_view, observe_view
from foursquare.rl.spiel import GAME_NAME, INFO_STATE_SIZE, MAX_SCORE, FoursquareState
from foursquare.solver.expectimax import expected_score


@pytest.mark.parametrize("params", [{}, {"adjacency": "diagonal", "count_buried": True}])
def test_the_game_passes_openspiel_s_random_simulation_test(params: dict[str, object]) -> None:
    assert GAME_NAME in pyspiel.registered_names()
    game = pyspiel.load_game(GAME_NAME, params)
    assert game.num_players() == 1 and game.num_distinct_actions() == 49 and game.max_chance_outcomes() == 10
    assert game.information_state_tensor_shape() == [INFO_STATE_SIZE] and game.observation_tensor_shape() == [260]
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="adjacency"):
        pyspiel.load_game(GAME_NAME, {"adjacency": "sideways"})


def greedy_walk(deal: int, unseen: int) -> tuple[FoursquareState, Game]:
    """The greedy player's game of ``deal`` until ``unseen`` cards are unseen, in OpenSpiel and on the engine,
    checking at every node that the chances, the observation and the legal cells are the engine's."""
    state = pyspiel.load_game(GAME_NAME).new_initial_state()
    game, greedy = Game(deal=deal), make_player("greedy")
    while True:
        assert state.is_chance_node()
        ranks = [c.rank for c in game.stock[game.turn :]]
        assert dict(state.chance_outcomes()) == {r - 1: ranks.count(r) / len(ranks) for r in set(ranks)}
        before = state.observation_tensor(0)
        state.apply_action(game.card_to_place.rank - 1)
        view = game.view()
        obs = observe_view(view)
        assert np.array_equal(state.observation_tensor(0), obs)
        hidden = obs.copy()  # before the draw: no card to place, that card among the unseen
        hidden[245], hidden[245 + view.card.rank] = 0, hidden[245 + view.card.rank] + 1
        assert np.array_equal(before, hidden)
        assert state.legal_actions() == list(np.flatnonzero(mask_of_view(view)))
        assert len(state.information_state_tensor(0)) == INFO_STATE_SIZE
        if len(view.unseen) <= unseen:
            return state, game
        move = greedy.choose(view)
        state.apply_action(24 + 7 * move.row + move.col)
        game.place(move.row, move.col)
        assert state.is_terminal() == game.is_over()
        if game.is_over():
            raise AssertionError(f"deal {deal} ended early")


class ExpectimaxPolicy(policy.Policy):  # type: ignore[misc]
    """The move of the best exact expected score (foursquare.solver.expectimax), at every decision."""

    def __init__(self, game: pyspiel.Game) -> None:
        super().__init__(game, [0])

    def action_probabilities(self, state: FoursquareState, player_id: int | None = None) -> dict[int, float]:
        view = state.engine_game().view()
        best = max(view.legal_moves, key=lambda move: expected_score(view, move))
        return {24 + 7 * best.row + best.col: 1.0}


def best_value(view: View) -> float:
    return max(expected_score(view, move) for move in view.legal_moves)


def test_openspiel_values_the_expectimax_policy_as_the_expectimax_does() -> None:
    """OpenSpiel's policy evaluation walks the game's chance nodes with their probabilities and sums the
    returns: the best policy's value is then the exact optimum of the end game, by another program."""
    state, game = greedy_walk(5, 3)
    values = expected_game_score.policy_value(state, [ExpectimaxPolicy(state.get_game())])
    assert values[0] == pytest.approx(best_value(game.view()), abs=1e-9)
    assert 0 < values[0] <= MAX_SCORE


def test_mcts_plays_from_a_late_position_and_whole_games() -> None:
    """OpenSpiel's MCTS with random rollouts, 400 simulations, finds the best move of a late position (deal 29,
    four cards unseen: the best worth 4.0 points, the next 1.29), and with 10 a move plays a whole game."""
    state, game = greedy_walk(29, 4)
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(state.get_game(), uct_c=2.0, max_simulations=400, solve=False, random_state=rng,
                       evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng))  # fmt: skip
    action = bot.step(state)
    view = game.view()
    chosen = next(m for m in view.legal_moves if 24 + 7 * m.row + m.col == action)
    assert expected_score(view, chosen) == pytest.approx(best_value(view), abs=1e-9)
    quick = mcts.MCTSBot(state.get_game(), uct_c=2.0, max_simulations=10, solve=False, random_state=rng,
                         evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng))  # fmt: skip
    start = pyspiel.load_game(GAME_NAME).new_initial_state()
    returns = evaluate_bots.evaluate_bots(start, [quick], np.random.RandomState(1))
    assert start.is_terminal() and returns[0] == start.returns()[0] and 0 <= returns[0] <= MAX_SCORE
